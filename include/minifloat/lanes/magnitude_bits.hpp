// max |x| on bit patterns, shared by every module that computes an amax
// (bulk's kernels, scaling's per-column amax).
#pragma once

#include <cstdint>
#include <cstring>
#include <limits>

namespace mf {
namespace lanes {

// |x| as an unsigned integer orders every float by magnitude with every NaN
// above +Inf, so one integer max gives max |x|, NaN if any input was.
inline float amax_from_bits(std::uint32_t magnitude_bits) noexcept {
  if (magnitude_bits > 0x7F800000u) return std::numeric_limits<float>::quiet_NaN();
  float f;
  std::memcpy(&f, &magnitude_bits, sizeof f);
  return f;
}

inline std::uint32_t float_magnitude_bits(float f) noexcept {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u & 0x7FFFFFFFu;
}

}  // namespace lanes
}  // namespace mf
