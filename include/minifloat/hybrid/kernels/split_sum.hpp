// The last step of the exact model on split E5M2 operands (driver.hpp,
// "Split operands"): an element's two or four exact float64 chains, summed
// exactly and rounded once to float32 (nearest even).
//
// An E5M2 value is split into its part of magnitude >= 1 (a multiple of
// 2^-2 below 2^15.81) and its part below 1 (a multiple of 2^-16 below
// 0.875); an E4M3 value is not split (a multiple of 2^-9 below 2^8.81).
// For K <= 2^17 every chain is an exact float64 sum (generic/exact_tile.hpp
// says why an FMA chain whose partial sums fit 53 bits is exact):
//   E4M3 x E5M2 (and E5M2 x E4M3), two chains:
//     x large: multiples of 2^-11 below 2^(24.6 + 17): 52.6 bits;
//     x small: multiples of 2^-25 below 2^(8.6 + 17):  50.6 bits.
//   E5M2 x E5M2, four chains (large x large, large x small, small x large,
//   small x small):
//     c0: multiples of 2^-4 below 2^(31.6 + 17):  52.6 bits;
//     c1, c2: multiples of 2^-18 below 2^(15.6 + 17): 50.6 bits each;
//     c3: multiples of 2^-32 below 2^17: 49 bits.
// The sum of two doubles is RN(sum) plus an exact error (TwoSum: Knuth,
// TAOCP vol. 2, 4.2.2), and making RN(sum) round-to-odd with that error
// gives a value whose float32 rounding is the sum's own (Boldo and
// Melquiond, IEEE TC 2008), as in the chunked kernel. Four chains: m = c1 +
// c2 is exact (multiples of 2^-18 below 2^33.6); (t1, e1) = TwoSum(m, c3);
// (t2, e2) = TwoSum(c0, t1); e1 and e2 are multiples of 2^-32 below 2^-4,
// so e3 = e2 + e1 is exact; (t3, e4) = TwoSum(t2, e3). Then
// c0 + c1 + c2 + c3 = t3 + e4 exactly, with t3 = RN(t3 + e4).
// Every chain is finite: operands with Inf or NaN take the reference
// (fast_path.hpp).
#pragma once

#include <cstddef>

#include "../../simd/scalar/vector_ops.hpp"
#include "../fp32_rounding.hpp"

namespace mf::hybrid::kernels::detail {

struct two_doubles {
  double sum, error;
};

inline two_doubles two_sum(double a, double b) noexcept {
  const double s = a + b;
  const double back = s - a;
  return {s, (a - (s - back)) + (b - back)};
}

// x + y, both exact doubles, rounded once to float32 in `mode`: their
// TwoSum made round-to-odd (an Inf gives a NaN error, and no step: the
// IEEE sum).
inline float sum_to_fp32(double x, double y, fp32_rounding mode = fp32_rounding::nearest_even) noexcept {
  const two_doubles total = two_sum(x, y);
  return round_to_fp32(simd::scalar::double_ops::round_to_odd(total.sum, total.error), mode);
}

// chains: n = 2 (one operand split) or 4 (both), in the order above.
inline float split_chains_to_fp32(const double* chains, std::size_t n) noexcept {
  if (n == 2) return sum_to_fp32(chains[0], chains[1]);
  const two_doubles low = two_sum(chains[1] + chains[2], chains[3]);
  const two_doubles high = two_sum(chains[0], low.sum);
  return sum_to_fp32(high.sum, high.error + low.error);
}

}  // namespace mf::hybrid::kernels::detail
