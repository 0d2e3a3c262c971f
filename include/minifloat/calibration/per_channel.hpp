// Per-channel calibration: one observer per row or per column of row-major
// matrices streamed in batches, and one calibrated scale per channel for
// mf::scaling::quantize_per_channel_with_scales.
#pragma once

#include <cassert>
#include <cstddef>
#include <vector>

#include "../scaling/quantize.hpp"
#include "histogram.hpp"
#include "methods.hpp"

namespace mf {
namespace calibration {

using scaling::channel_axis;

// Adds a rows x cols batch to one observer per channel: observers[r] sees
// row r (axis rows: the same rows in every batch, e.g. a weight's output
// channels), observers[c] column c (axis columns: e.g. an activation's
// features over batches of tokens).
inline void observe_channels(const float* x, std::size_t rows, std::size_t cols,
                             channel_axis axis, std::vector<abs_histogram>& observers) {
  // Copies and the observer's integer binning: no float arithmetic.
  assert(observers.size() == scaling::channel_count(rows, cols, axis));
  if (axis == channel_axis::rows) {
    for (std::size_t r = 0; r < rows; ++r) observers[r].observe(x + r * cols, cols);
    return;
  }
  std::vector<float> column(rows);
  for (std::size_t c = 0; c < cols; ++c) {
    for (std::size_t r = 0; r < rows; ++r) column[r] = x[r * cols + c];
    observers[c].observe(column.data(), rows);
  }
}

// The calibrated scale and its cost, per channel.
template <class Fmt>
std::vector<calibration_result> calibrate_channels(const std::vector<abs_histogram>& observers,
                                                   const calibration_options& o = {}) {
  std::vector<calibration_result> results;  // each calibrate in the default environment
  results.reserve(observers.size());
  for (const abs_histogram& h : observers) results.push_back(calibrate<Fmt>(h, o));
  return results;
}

// The scales alone, in channel order (for quantize_per_channel_with_scales).
inline std::vector<float> scales_of(const std::vector<calibration_result>& results) {
  std::vector<float> scales;
  scales.reserve(results.size());
  for (const calibration_result& r : results) scales.push_back(r.scale);
  return scales;
}

}  // namespace calibration
}  // namespace mf
