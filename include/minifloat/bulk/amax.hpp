// max |x| over a range of floats, vectorised. Done on the bit patterns: |x|
// as an unsigned integer orders floats by magnitude and puts every NaN above
// +Inf, so one integer max is exact and independent of the ISA.
#pragma once

#include <cstddef>

#include "fused.hpp"

namespace mf {
namespace bulk {

// What amax does with NaN (and Inf).
enum class amax_nan : unsigned char {
  propagate,    // NaN if any element is NaN (torch.amax); Inf counts
  finite_only,  // the largest finite magnitude; NaN and Inf are skipped
};

// max |in[i]| over [0, n): +0 for an empty range (or, with finite_only, one
// with no finite element). A NaN result is the quiet NaN 0x7FC00000.
inline float amax(const float* in, std::size_t n, amax_nan nan = amax_nan::propagate) {
  const bool finite_only = nan == amax_nan::finite_only;
  return lanes::amax_from_bits(
      detail::active_kernels<detail::format_free_kernels>().amax_bits(in, n, finite_only));
}

}  // namespace bulk
}  // namespace mf
