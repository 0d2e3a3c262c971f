// The exact model's sum for E5M2, FP16 and BF16 operands (with E4M3, or
// each other) as an integer held in two 52-bit limbs, the operands packed
// as unsigned integers: what the AVX512_IFMA tile (x86/avx512/
// limb_tile.hpp) and the AVX2 tile (x86/avx2/limb_tile.hpp, from float64
// pieces of the integers) compute, and the last step that rounds it once
// to float32.
//
// Why integers. A value of these types is an integer n times its smallest
// subnormal 2^-s: E4M3 s = 9, |n| <= 448 * 2^9 < 2^18; E5M2 s = 16,
// |n| <= 57344 * 2^16 < 2^32; FP16 s = 24, |n| <= 65504 * 2^24 < 2^40. A
// BF16 matrix may span 2^-133 .. 2^128, too wide; but its values are
// integers times 2^q, q the smallest quantum among them (a value's exponent
// less 7), and where they are all below 2^(q + 40) (a span of 40 bits, 32
// binades; N(0, 1) data quantized to BF16 span about 33 bits), s = -q
// serves as well (fast_path.hpp's limb_scale_fits reads the matrix once to
// find q). A product is an integer times 2^-(sa + sb), and a sum of K of
// them needs up to 64 + log2 K bits (E5M2 x E5M2) or 80 + log2 K (FP16 x
// FP16): more than float64's 53 (the split route, split_sum.hpp, needs four
// float64 chains for E5M2 x E5M2). VPMADD52LUQ and VPMADD52HUQ (Intel SDM
// vol. 2, "VPMADD52LUQ", "VPMADD52HUQ") multiply unsigned 52-bit integers
// into their 104-bit product and add its low, or its high, 52 bits to a
// 64-bit lane: two instructions per eight products give the sum exactly,
// as an integer.
//
// The operands are unsigned: each value is packed as a = n + O, O = 2^40,
// in [1, 2^41). Then
//   sum_k a_k b_k = sum_k na_k nb_k + O (sum_k na_k + sum_k nb_k) + K O^2,
// so the sum of products is the limbs' integer less O times the row sum of
// A's n and the column sum of B's n (the packing sums them) and less
// K 2^80. A packed product is below 2^82: its high limb below 2^30, and the
// high limbs of K <= 2^17 products below 2^47. The low limbs are added into
// 64 bits: the tile carries them into the high limb (high += low >> 52,
// low &= 2^52 - 1) at least every limb_steps_per_carry = 2048 steps, so a
// low lane stays below 2^52 + 2048 * 2^52 < 2^64.
//
// The last step: S = high 2^52 + low - O (row sum + column sum) - K 2^80,
// with |row sum + column sum| <= 2 K 2^40 <= 2^58 (an int64). Writing that
// sum as q 2^12 + r (0 <= r < 2^12), O times it is q 2^52 + r 2^40, so
// S = H 2^52 + L with H = high - K 2^28 - q (below 2^49 in magnitude) and
// L = low - r 2^40 (in (-2^52, 2^52)): both exact in float64, and so are
// c0 = H 2^(52 - sa - sb) and c1 = L 2^-(sa + sb), whose sum is the exact
// sum S 2^-(sa + sb). Their TwoSum and rounding to odd (split_sum.hpp)
// round it once to float32 (a subnormal or overflowing result included:
// rounding the round-to-odd value of 53 >= 24 + 2 bits is rounding the
// exact sum). Where |H| < 2^11, S itself is below 2^63 and its int64 ->
// float32 conversion is that one rounding when times 2^-(sa + sb) keeps it
// normal and finite, so for -64 <= sa + sb <= 126 (a nonzero S is at
// least 1 and below 2^63); with FP8 and FP16 operands sa + sb <= 48. A
// zero sum has H = L = 0 and gives +0, as the model's. Operands must be
// finite (fast_path.hpp sends Inf and NaN to the reference).
//
// chunked_exact on the limbs: the tile starts its limbs at 0 for each
// chunk, whose sum S they hold at its end (with the chunk's operand sums,
// which the packing computes), and the model's float32 acc becomes
// RD(acc + S), RD the chunk rounding (nearest even or toward zero), or
// RD(acc + RD(S)) with presum_round (x86/avx512/limb_tile.hpp's
// chunk_step, in the tile's registers). Every product is a multiple of
// 2^-(sa + sb), and so is every acc: rounding a multiple of a power of two
// to a grid, coarser or finer, gives one again, and an overflow gives Inf
// (below) or, toward
// zero, +-FLT_MAX = (2^24 - 1) 2^104, a multiple of the unit where
// sa + sb >= -104 (fast_path.hpp takes chunked_exact on the limbs only
// there: BF16 quanta multiplying to at most 2^104). So acc + S is an
// integer in those units, and acc is one below 2^104: a rounding that
// moves acc adds at most |S| + half a unit in the last place, which is at
// most 2 |S| (a smaller S leaves acc where it is), so |acc| is at most
// twice the sum of the magnitudes of K <= 2^23 products below 2^80 units
// (limb_chunked_max_k). It is held as H 2^52 + L as S is: hi = floor(acc
// 2^(sa + sb - 52)) and lo = acc 2^(sa + sb) - hi 2^52 in [0, 2^52) are
// exact in float64 (powers of two, a floor, and a difference that is acc's
// own low bits). The sums of the parts, |H + hi| < 2^49 + 2^52 and
// |L + lo| < 2^53, are exact in float64 again, and the TwoSum
// and rounding to odd above round the whole sum once, toward zero too
// (Boldo and Melquiond: any rounding to p <= 51 bits of the round-to-odd
// value is that rounding of the exact value). With presum_round, RD(S) is
// a float32, and acc + RD(S) is rounded by TwoSum in float64, as the E4M3
// chunked tile does (generic/exact_tile.hpp). An acc of Inf (a BF16 sum
// past float32's range) stays Inf; Inf + -Inf (presum_round) is a NaN,
// which the epilogue makes the model's one NaN, as the reference's. No
// nonzero sum may round to a zero (the model keeps -0 then, and the parts
// would not): fast_path.hpp takes chunked_exact on the limbs only for
// sa + sb <= 149, so that every nonzero sum is at least float32's
// smallest subnormal.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "../element_type.hpp"
#include "../fp32_rounding.hpp"
#include "../wide_sum.hpp"
#include "split_sum.hpp"

namespace mf::hybrid::kernels::detail {

inline constexpr std::int64_t limb_operand_offset = std::int64_t{1} << 40;
inline constexpr int limb_offset_bits = 40;
inline constexpr int limb_bits = 52;
inline constexpr std::uint64_t low_limb_mask = (std::uint64_t{1} << limb_bits) - 1;
inline constexpr std::size_t limb_steps_per_carry = 2048;
inline constexpr std::size_t limb_chunked_max_k = std::size_t{1} << 23;  // chunked_exact (below)

// s, where every value of type t is an integer below 2^40 times 2^-s; 0
// for BF16 (s depends on the matrix: fast_path.hpp's limb_scale_fits) and
// for a type the limbs do not take.
constexpr int limb_scale(element_type t) noexcept {
  switch (t) {
    case element_type::hf8: return 9;
    case element_type::bf8: return 16;
    case element_type::f16: return 24;
    default: return 0;
  }
}

constexpr bool limb_operand(element_type t) noexcept {
  return limb_scale(t) != 0 || t == element_type::bf16;
}

// The sums that the last step may convert eight at a time (above).
constexpr bool limb_fast_conversion(int value_scale) noexcept {
  return value_scale >= -64 && value_scale <= 126;
}

// An element's S = H 2^52 + L (above), from its carried limbs and its
// operand sums.
struct limb_parts {
  std::int64_t high, low;
};

inline limb_parts limb_parts_of(std::uint64_t low, std::uint64_t high, std::int64_t operand_sums,
                                std::size_t k) noexcept {
  constexpr int q_shift = limb_bits - limb_offset_bits;  // 12
  const std::int64_t r = operand_sums & ((std::int64_t{1} << q_shift) - 1);  // mod 2^12, two's complement
  const std::int64_t q = (operand_sums - r) / (std::int64_t{1} << q_shift);
  const std::int64_t k_term = static_cast<std::int64_t>(k) << (2 * limb_offset_bits - limb_bits);  // K 2^28
  return {static_cast<std::int64_t>(high) - k_term - q,
          static_cast<std::int64_t>(low) - r * limb_operand_offset};
}

// An element's exact sum as c0 + c1 (above), both exact in float64;
// value_scale = sa + sb.
struct limb_terms {
  double c0, c1;
};

// Powers of two, not ldexp: this runs for every element. |value_scale| is
// below 300 (two BF16 quanta), so both factors are normal doubles.
inline limb_terms limb_terms_of(const limb_parts& s, int value_scale) noexcept {
  using hybrid::detail::power_of_two;
  return {static_cast<double>(s.high) * power_of_two(limb_bits - value_scale),
          static_cast<double>(s.low) * power_of_two(-value_scale)};
}

// (H 2^52 + L) 2^-value_scale, |H| and |L| below 2^53, rounded once to
// float32 in `mode` (TwoSum, then rounding to odd).
inline float limb_parts_to_fp32(const limb_parts& s, int value_scale, fp32_rounding mode) noexcept {
  const limb_terms t = limb_terms_of(s, value_scale);
  return sum_to_fp32(t.c0, t.c1, mode);
}

// The exact sum of K products, from an element's carried limbs (low below
// 2^52) and the sum of the n of its row of A plus the sum of the n of its
// column of B, rounded once to float32 (nearest even).
inline float limb_sum_to_fp32(std::uint64_t low, std::uint64_t high, std::int64_t operand_sums,
                              std::size_t k, int value_scale) noexcept {
  const limb_parts s = limb_parts_of(low, high, operand_sums, k);
  if (s.high > -2048 && s.high < 2048 && limb_fast_conversion(value_scale)) {
    // 2^-value_scale is a normal float32 here, and the product is exact.
    const auto scale = static_cast<float>(hybrid::detail::power_of_two(-value_scale));
    return static_cast<float>(s.high * (std::int64_t{1} << limb_bits) + s.low) * scale;
  }
  return limb_parts_to_fp32(s, value_scale, fp32_rounding::nearest_even);
}

// One row of finished elements, one at a time: the carried limbs of
// `columns` elements in micro-panels of nr columns (nr low limbs, then nr
// high limbs), the sum of the row's n and those of the columns'. The last
// step of the kernels that have no vector form of it (x86/avx2/
// limb_tile.hpp).
inline void limb_row(const std::uint64_t* acc, std::size_t nr, std::int64_t row_sum,
                     const std::int64_t* column_sums, std::size_t k, int value_scale, std::size_t columns,
                     float* out) noexcept {
  for (std::size_t j = 0; j < columns; ++j) {
    const std::uint64_t* low = acc + 2 * (j - j % nr) + j % nr;
    out[j] = limb_sum_to_fp32(low[0], low[nr], row_sum + column_sums[j], k, value_scale);
  }
}

}  // namespace mf::hybrid::kernels::detail
