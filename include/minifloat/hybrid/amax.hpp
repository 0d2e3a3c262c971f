// The running amax of a MatMul's post-processing (options.amax).
#pragma once

#include <cmath>
#include <limits>

namespace mf::hybrid::detail {

// max |y2|, NaN once any y2 is NaN. Kept as a maximum and a flag so the
// loop over a row has no branch; partial trackers merge in any order to the
// same value (max is associative, the flag an or), so a threaded MatMul
// reports the one-thread amax.
struct amax_tracker {
  float largest = 0.0f;
  bool any_nan = false;

  void add(float y2) noexcept {
    const float magnitude = std::fabs(y2);
    any_nan = any_nan || std::isnan(y2);
    largest = magnitude > largest ? magnitude : largest;  // false for NaN
  }
  void merge(const amax_tracker& other) noexcept {
    any_nan = any_nan || other.any_nan;
    largest = other.largest > largest ? other.largest : largest;
  }
  float value() const noexcept { return any_nan ? std::numeric_limits<float>::quiet_NaN() : largest; }
};

}  // namespace mf::hybrid::detail
