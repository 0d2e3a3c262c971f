// Scaled quantization of float tensors into a format (FP8 data + float
// scales) and back: per tensor, per channel (each row or each column of a
// row-major matrix) and per block (2-D tiles such as 1x128 or 128x128, the
// DeepSeek-V3 / TransformerEngine blockwise recipes). Built on the bulk
// kernels (fused scale, stochastic rounding, amax).
//
// Conventions (docs/scaling.md):
// - A group's scale is compute_scale<Fmt>(amax) of its finite elements (NaN
//   and Inf do not move the scale: they still encode as the format's NaN /
//   Inf / saturated max); q = round(x * scale), the product rounded to float
//   first; what is stored beside the data is the dequantization factor
//   scale_inv = 1 / scale (TransformerEngine's scale_inv, the factor
//   torch._scaled_mm takes), and dequantize gives float(q) * scale_inv.
// - Elements are rounded by an mf::conversion (conversion.hpp): nearest
//   even with saturation by default (CUDA's and TransformerEngine's casts).
// - Stochastic rounding uses element index r * cols + c (+ the stream's
//   offset) of the whole matrix, so the bits do not depend on the grouping
//   or the order.
// - Arguments in the library's order: (inputs, outputs, sizes, options).
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <vector>

#if __cplusplus >= 202002L && __has_include(<span>)
#include <span>
#endif

#include "../bulk/amax.hpp"
#include "../bulk/encode.hpp"
#include "../conversion.hpp"
#include "../encodings.hpp"
#include "../target/float_environment.hpp"
#include "amax.hpp"
#include "compute_scale.hpp"

namespace mf {
namespace scaling {

struct quantize_options {
  scale_options scale{};
  // How x * scale is rounded, e.g. mf::conversion::stochastic({seed, offset,
  // 16}).saturating() (16 or 8 random bits: faster, stochastic-rounding.md).
  // A conversion states its own overflow: keep .saturating() to keep the
  // default's.
  mf::conversion conversion = mf::conversion::nearest_even().saturating();
};

// Which groups of a row-major rows x cols matrix share a scale.
enum class channel_axis : unsigned char {
  rows,     // one scale per row (per output channel of a [out, in] weight)
  columns,  // one scale per column
};

// A tile of the per-block scheme: {1, 128} (activations in DeepSeek-V3),
// {128, 128} (weights). Edge tiles may be smaller.
struct block_shape {
  std::size_t rows;
  std::size_t cols;
};

namespace detail {

// Encodes n elements (index `index` of the whole tensor first) times scale.
template <class Fmt>
inline void encode_group(const float* in, typename Fmt::storage_type* out, std::size_t n,
                         float scale, std::uint64_t index, const quantize_options& o) {
  bulk::encode<Fmt>(in, out, n, o.conversion.at_element(index), {scale, nullptr});
}

inline float reciprocal(float scale) noexcept { return 1.0f / scale; }

}  // namespace detail

// ---- per tensor -------------------------------------------------------------

// Quantizes in[0..n) with one scale; returns scale_inv (x ~ q * scale_inv).
template <class Fmt>
inline float quantize_per_tensor(const float* in, encodings<Fmt> out_codes, std::size_t n,
                                 const quantize_options& o = {}) {
  return target::in_default_float_environment([&]() -> float {
    typename Fmt::storage_type* const out = out_codes.get();
    const float scale =
        compute_scale<Fmt>(bulk::amax(in, n, bulk::amax_nan::finite_only), o.scale);
    detail::encode_group<Fmt>(in, out, n, scale, 0, o);
    return detail::reciprocal(scale);
  });
}

template <class Fmt>
inline void dequantize_per_tensor(encodings<const Fmt> in_codes, float* out,
                                  std::size_t n, float scale_inv) {
  target::in_default_float_environment([&] {
    const typename Fmt::storage_type* const in = in_codes.get();
    bulk::decode<Fmt>(in, out, n, scale_inv);
  });
}

// Quantizes with a given scale (a calibrated one, mf::calibration); returns
// scale_inv.
template <class Fmt>
inline float quantize_per_tensor_with_scale(const float* in, encodings<Fmt> out_codes,
                                            std::size_t n, float scale,
                                            const quantize_options& o = {}) {
  return target::in_default_float_environment([&]() -> float {
    typename Fmt::storage_type* const out = out_codes.get();
    detail::encode_group<Fmt>(in, out, n, scale, 0, o);
    return detail::reciprocal(scale);
  });
}

// ---- per channel ------------------------------------------------------------

inline std::size_t channel_count(std::size_t rows, std::size_t cols, channel_axis axis) {
  return axis == channel_axis::rows ? rows : cols;
}

// Quantizes a row-major rows x cols matrix with one scale per row or per
// column, given (calibrated ones, mf::calibration): scales and scale_inv hold
// channel_count(rows, cols, axis) factors, scale_inv[c] = 1 / scales[c].
template <class Fmt>
inline void quantize_per_channel_with_scales(const float* in, const float* scales,
                                             encodings<Fmt> out_codes, float* scale_inv,
                                             std::size_t rows, std::size_t cols,
                                             channel_axis axis, const quantize_options& o = {}) {
  target::in_default_float_environment([&] {
    typename Fmt::storage_type* const out = out_codes.get();
    if (axis == channel_axis::rows) {
      for (std::size_t r = 0; r < rows; ++r) {
        detail::encode_group<Fmt>(in + r * cols, out + r * cols, cols, scales[r], r * cols, o);
        scale_inv[r] = detail::reciprocal(scales[r]);
      }
      return;
    }
    // Columns: the per-column scales multiply each row element-wise (the
    // product rounded to float, as the fused scale does), then one encode.
    std::vector<float> scaled(cols);
    for (std::size_t j = 0; j < cols; ++j) scale_inv[j] = detail::reciprocal(scales[j]);
    for (std::size_t r = 0; r < rows; ++r) {
      const float* row = in + r * cols;
      for (std::size_t j = 0; j < cols; ++j) scaled[j] = row[j] * scales[j];
      bulk::encode<Fmt>(scaled.data(), out + r * cols, cols, o.conversion.at_element(r * cols));
    }
  });
}

// The same with each channel's scale from its amax (compute_scale).
template <class Fmt>
inline void quantize_per_channel(const float* in, encodings<Fmt> out_codes,
                                 float* scale_inv, std::size_t rows, std::size_t cols,
                                 channel_axis axis, const quantize_options& o = {}) {
  target::in_default_float_environment([&] {
    typename Fmt::storage_type* const out = out_codes.get();
    std::vector<float> scales(channel_count(rows, cols, axis));
    if (axis == channel_axis::rows) {
      for (std::size_t r = 0; r < rows; ++r) {
        scales[r] = compute_scale<Fmt>(
            bulk::amax(in + r * cols, cols, bulk::amax_nan::finite_only), o.scale);
      }
    } else {
      column_amax(in, scales.data(), rows, cols, amax_nan::finite_only);
      for (std::size_t j = 0; j < cols; ++j) scales[j] = compute_scale<Fmt>(scales[j], o.scale);
    }
    quantize_per_channel_with_scales<Fmt>(in, scales.data(), out, scale_inv, rows, cols, axis, o);
  });
}

template <class Fmt>
inline void dequantize_per_channel(encodings<const Fmt> in_codes, const float* scale_inv,
                                   float* out, std::size_t rows, std::size_t cols,
                                   channel_axis axis) {
  target::in_default_float_environment([&] {
    const typename Fmt::storage_type* const in = in_codes.get();
    for (std::size_t r = 0; r < rows; ++r) {
      if (axis == channel_axis::rows) {
        bulk::decode<Fmt>(in + r * cols, out + r * cols, cols, scale_inv[r]);
      } else {
        bulk::decode<Fmt>(in + r * cols, out + r * cols, cols);
        for (std::size_t j = 0; j < cols; ++j) out[r * cols + j] *= scale_inv[j];
      }
    }
  });
}

// ---- per block ----------------------------------------------------------------

// Number of tiles (and scales): ceil(rows / block.rows) * ceil(cols / block.cols).
inline std::size_t block_count(std::size_t rows, std::size_t cols, block_shape block) {
  assert(block.rows > 0 && block.cols > 0);
  return ((rows + block.rows - 1) / block.rows) * ((cols + block.cols - 1) / block.cols);
}

// Quantizes a row-major rows x cols matrix with one scale per tile;
// scale_inv[tile_row * tiles_per_row + tile_col] (block_count of them).
template <class Fmt>
inline void quantize_per_block(const float* in, encodings<Fmt> out_codes, float* scale_inv,
                               std::size_t rows, std::size_t cols, block_shape block,
                               const quantize_options& o = {}) {
  target::in_default_float_environment([&] {
    typename Fmt::storage_type* const out = out_codes.get();
    assert(block.rows > 0 && block.cols > 0);
    const std::size_t tiles_per_row = (cols + block.cols - 1) / block.cols;
    for (std::size_t r0 = 0; r0 < rows; r0 += block.rows) {
      const std::size_t r1 = r0 + block.rows < rows ? r0 + block.rows : rows;
      for (std::size_t c0 = 0; c0 < cols; c0 += block.cols) {
        const std::size_t width = c0 + block.cols < cols ? block.cols : cols - c0;
        float tile_amax = 0.0f;
        for (std::size_t r = r0; r < r1; ++r) {
          const float a = bulk::amax(in + r * cols + c0, width, bulk::amax_nan::finite_only);
          tile_amax = a > tile_amax ? a : tile_amax;
        }
        const float scale = compute_scale<Fmt>(tile_amax, o.scale);
        for (std::size_t r = r0; r < r1; ++r) {
          detail::encode_group<Fmt>(in + r * cols + c0, out + r * cols + c0, width, scale,
                                    r * cols + c0, o);
        }
        scale_inv[(r0 / block.rows) * tiles_per_row + c0 / block.cols] =
            detail::reciprocal(scale);
      }
    }
  });
}

template <class Fmt>
inline void dequantize_per_block(encodings<const Fmt> in_codes, const float* scale_inv,
                                 float* out, std::size_t rows, std::size_t cols,
                                 block_shape block) {
  target::in_default_float_environment([&] {
    const typename Fmt::storage_type* const in = in_codes.get();
    assert(block.rows > 0 && block.cols > 0);
    const std::size_t tiles_per_row = (cols + block.cols - 1) / block.cols;
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c0 = 0; c0 < cols; c0 += block.cols) {
        const std::size_t width = c0 + block.cols < cols ? block.cols : cols - c0;
        bulk::decode<Fmt>(in + r * cols + c0, out + r * cols + c0, width,
                          scale_inv[(r / block.rows) * tiles_per_row + c0 / block.cols]);
      }
    }
  });
}

#if __cplusplus >= 202002L && __has_include(<span>)
// ---- std::span overloads (C++20) ----------------------------------------------
// The same entries with the buffers as spans. The sizes must fit (a debug
// assertion: rows * cols elements, and as many scales as the scheme has); in
// release builds a call whose spans do not fit does nothing, so nothing
// outside a span is touched.

namespace detail {

template <class A, class B>
inline bool spans_fit(const A& data_in, const B& data_out, std::size_t elements,
                      std::size_t scale_slots, std::size_t scales_needed) noexcept {
  const bool fit = data_in.size() >= elements && data_out.size() >= elements &&
                   scale_slots >= scales_needed;
  assert(fit);
  return fit;
}

}  // namespace detail

template <class Fmt>
inline float quantize_per_tensor(std::span<const float> in,
                                 encoding_span<Fmt> out,
                                 const quantize_options& o = {}) {
  assert(in.size() == out.size());
  return quantize_per_tensor<Fmt>(in.data(), out.data(),
                                  in.size() < out.size() ? in.size() : out.size(), o);
}

template <class Fmt>
inline float quantize_per_tensor_with_scale(std::span<const float> in,
                                            encoding_span<Fmt> out,
                                            float scale, const quantize_options& o = {}) {
  assert(in.size() == out.size());
  return quantize_per_tensor_with_scale<Fmt>(
      in.data(), out.data(), in.size() < out.size() ? in.size() : out.size(), scale, o);
}

template <class Fmt>
inline void dequantize_per_tensor(encoding_span<const Fmt> in,
                                  std::span<float> out, float scale_inv) {
  assert(in.size() == out.size());
  dequantize_per_tensor<Fmt>(in.data(), out.data(),
                             in.size() < out.size() ? in.size() : out.size(), scale_inv);
}

template <class Fmt>
inline void quantize_per_channel_with_scales(std::span<const float> in,
                                             std::span<const float> scales,
                                             encoding_span<Fmt> out,
                                             std::span<float> scale_inv, std::size_t rows,
                                             std::size_t cols, channel_axis axis,
                                             const quantize_options& o = {}) {
  const std::size_t channels = channel_count(rows, cols, axis);
  if (!detail::spans_fit(in, out, rows * cols,
                         scales.size() < scale_inv.size() ? scales.size() : scale_inv.size(),
                         channels)) {
    return;
  }
  quantize_per_channel_with_scales<Fmt>(in.data(), scales.data(), out.data(), scale_inv.data(),
                                        rows, cols, axis, o);
}

template <class Fmt>
inline void quantize_per_channel(std::span<const float> in,
                                 encoding_span<Fmt> out,
                                 std::span<float> scale_inv, std::size_t rows, std::size_t cols,
                                 channel_axis axis, const quantize_options& o = {}) {
  if (!detail::spans_fit(in, out, rows * cols, scale_inv.size(),
                         channel_count(rows, cols, axis))) {
    return;
  }
  quantize_per_channel<Fmt>(in.data(), out.data(), scale_inv.data(), rows, cols, axis, o);
}

template <class Fmt>
inline void dequantize_per_channel(encoding_span<const Fmt> in,
                                   std::span<const float> scale_inv, std::span<float> out,
                                   std::size_t rows, std::size_t cols, channel_axis axis) {
  if (!detail::spans_fit(in, out, rows * cols, scale_inv.size(),
                         channel_count(rows, cols, axis))) {
    return;
  }
  dequantize_per_channel<Fmt>(in.data(), scale_inv.data(), out.data(), rows, cols, axis);
}

template <class Fmt>
inline void quantize_per_block(std::span<const float> in,
                               encoding_span<Fmt> out,
                               std::span<float> scale_inv, std::size_t rows, std::size_t cols,
                               block_shape block, const quantize_options& o = {}) {
  if (!detail::spans_fit(in, out, rows * cols, scale_inv.size(),
                         block_count(rows, cols, block))) {
    return;
  }
  quantize_per_block<Fmt>(in.data(), out.data(), scale_inv.data(), rows, cols, block, o);
}

template <class Fmt>
inline void dequantize_per_block(encoding_span<const Fmt> in,
                                 std::span<const float> scale_inv, std::span<float> out,
                                 std::size_t rows, std::size_t cols, block_shape block) {
  if (!detail::spans_fit(in, out, rows * cols, scale_inv.size(),
                         block_count(rows, cols, block))) {
    return;
  }
  dequantize_per_block<Fmt>(in.data(), scale_inv.data(), out.data(), rows, cols, block);
}
#endif

}  // namespace scaling
}  // namespace mf
