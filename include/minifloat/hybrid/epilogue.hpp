// The float32 post-processing of the accumulators (docs/hybrid.md,
// "Post-processing"): from the model's accumulator to y2 (after the bias,
// what amax reads) and y3 (after the output scale, what is converted to the
// output type). Written once, in kernels/generic/epilogue_span.hpp, over a
// target's float operations: the reference calls its one-lane copy, the
// fast kernels their ISA's.
#pragma once

#include <cmath>
#include <cstddef>

#include "amax.hpp"
#include "kernels/targets.hpp"
#include "output.hpp"

namespace mf::hybrid::detail {

// Elements (i, first_column + [0, count)) of C from their accumulators
// acc[0, count): y3 into y3[0, count), y2 into amax.
inline void apply_epilogue(const scale_options& s, const float* acc, std::size_t i,
                           std::size_t first_column, std::size_t count, float* y3,
                           amax_tracker& amax) noexcept {
  kernels::scalar::epilogue_kernel(s, acc, i, first_column, count, y3, amax);
}

// nan_payload::propagate: an accumulator's NaN is y3, unchanged by the
// scales and the bias (whose float operations would carry it, or a NaN
// scale's or bias's, with a sign and payload IEEE 754 leaves open).
inline void keep_accumulator_nans(const float* acc, std::size_t count, float* y3) noexcept {
  for (std::size_t j = 0; j < count; ++j) {
    if (std::isnan(acc[j])) y3[j] = acc[j];
  }
}

}  // namespace mf::hybrid::detail
