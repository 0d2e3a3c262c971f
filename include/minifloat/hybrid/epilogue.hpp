// The float32 post-processing of the accumulators (docs/hybrid.md,
// "Post-processing"), written once for the reference loop and the fast
// kernels: from the model's accumulator to y2 (after the bias, what amax
// reads) and y3 (after the output scale, what is converted to the output
// type).
#pragma once

#include <cmath>
#include <cstddef>
#include <limits>

#include "fp32_rounding.hpp"
#include "output.hpp"

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

// Elements (i, first_column + [0, count)) of C from their accumulators
// acc[0, count): y3 into y3[0, count), y2 into amax. With
// placement::operands the scales were applied to the operands, so acc is y1.
inline void apply_epilogue(const scale_options& s, const float* acc, std::size_t i,
                           std::size_t first_column, std::size_t count, float* y3,
                           amax_tracker& amax) noexcept {
  const bool operands = s.where == placement::operands;
  const float sa = s.a_rows ? s.a_rows[i] : s.a;
  amax_tracker row;  // in registers over the loop; merged once
  for (std::size_t c = 0; c < count; ++c) {
    const std::size_t j = first_column + c;
    const float sb = s.b_columns ? s.b_columns[j] : s.b;
    const float sum = std::isnan(acc[c]) ? model_nan : acc[c];  // the models' one NaN
    const float scale = operands ? 1.0f : sa * sb;              // s = RN32(sa * sb)
    float y2 = operands ? sum : sum * scale;                    // y1 = RN32(acc * s)
    if (s.bias) y2 = y2 + s.bias[j];                            // y2 = RN32(y1 + bias)
    row.add(y2);
    y3[c] = s.output_rule == output_scale_rule::multiply ? y2 * s.output : y2 / s.output;
  }
  amax.merge(row);
}

}  // namespace mf::hybrid::detail
