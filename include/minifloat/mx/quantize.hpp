// MX quantize (float32 -> scales + elements) and dequantize, in the tensor
// layout and the array-of-blocks layout of block.hpp. For MXFP8 and MXFP4
// with blocks of a multiple of 16, the SIMD kernels of the active ISA
// (kernel_sets.hpp: generic/quantize_loop.hpp and generic/dequantize_loop.hpp
// on AVX2, AVX-512 and NEON, with dequantize_avx512.hpp on AVX-512) take the
// whole blocks; everything else (and a partial last block) takes the scalar
// path. All give the same bytes and floats.
// Argument order as everywhere in the library: (inputs, outputs, n,
// options).
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>

#if __cplusplus >= 202002L && __has_include(<span>)
#include <span>
#endif

#include "block.hpp"
#include "kernel_sets.hpp"
#include "quantize_scalar.hpp"
#include "scale.hpp"
#include "../target/dispatch.hpp"
#include "../target/region.hpp"
#if MF_HAS_X86_KERNELS
#include "../target/x86_intrinsics.hpp"
#endif

namespace mf {
namespace mx {

// Quantizes in[0..n) to Fmt: scales[0..scale_count<Fmt>(n)) and
// elements[0..element_bytes<Fmt>(n)) (scales as std::uint8_t or
// mf::e8m0fnu, MXFP8 elements as bytes or values: block.hpp's
// element_pointer). Per block (§6.3): X from amax by
// `mode` (scale.hpp), then P_i = V_i / X rounded to nearest even with
// saturation to the element's max (INT8: +-127). A block with a NaN or Inf,
// or whose scale would exceed 2^127, gets the NaN scale 0xFF and zero
// elements.
template <class Fmt>
inline void quantize(const float* in, encodings<e8m0fnu> scale_codes,
                     element_pointer<Fmt> element_codes, std::size_t n,
                     scale_rounding mode = scale_rounding::floor) {
  std::uint8_t* const scales = scale_codes.get();
  std::uint8_t* const elements = mf::detail::raw_pointer(element_codes);
  constexpr std::size_t k = Fmt::block_size;
  std::size_t blocks_done = 0;
  if (const auto kernel = detail::active_kernels<detail::block_kernels<Fmt>>().quantize) {
    blocks_done = n / k;
    kernel(in, blocks_done, scales, elements, mode);
  }
  scalar::quantize<Fmt>(in + blocks_done * k, n - blocks_done * k, scales + blocks_done,
                                elements + blocks_done * Fmt::element_bytes, mode);
}

// out[i] = X_j * P_i as float32 for the n elements, computed so that MXCSR
// (FTZ, DAZ, rounding direction) does not change it (scale.hpp's
// multiply_by_scale). The product is exact (also where it is a float
// subnormal) unless it exceeds float's max: +-Inf. NaN elements stay NaN,
// and every element of a NaN-scale block is the quiet NaN 0x7FC00000.
template <class Fmt>
inline void dequantize(encodings<const e8m0fnu> scale_codes,
                       const_element_pointer<Fmt> element_codes, float* out, std::size_t n) {
  const std::uint8_t* const scales = scale_codes.get();
  const std::uint8_t* const elements = mf::detail::raw_pointer(element_codes);
  constexpr std::size_t k = Fmt::block_size;
  std::size_t blocks_done = 0;
  if (const auto kernel = detail::active_kernels<detail::block_kernels<Fmt>>().dequantize) {
    blocks_done = n / k;
    kernel(scales, elements, blocks_done, out);
  }
  scalar::dequantize<Fmt>(scales + blocks_done, elements + blocks_done * Fmt::element_bytes,
                                  n - blocks_done * k, out + blocks_done * k);
}

// Array-of-blocks layout: block_count blocks of Fmt::block_size elements.
template <class Fmt>
inline void quantize_blocks(const float* in, block<Fmt>* out, std::size_t block_count,
                            scale_rounding mode = scale_rounding::floor) {
  for (std::size_t j = 0; j < block_count; ++j) {
    quantize<Fmt>(in + j * Fmt::block_size, &out[j].scale, out[j].elements, Fmt::block_size,
                  mode);
  }
}

template <class Fmt>
inline void dequantize_blocks(const block<Fmt>* in, float* out, std::size_t block_count) {
  for (std::size_t j = 0; j < block_count; ++j) {
    dequantize<Fmt>(&in[j].scale, in[j].elements, out + j * Fmt::block_size, Fmt::block_size);
  }
}

#if __cplusplus >= 202002L && __has_include(<span>)
namespace detail {

// The most elements, up to `wanted`, whose scales and elements fit in the
// given sizes (so a short output span is never overrun in release builds;
// debug builds assert that everything fits).
template <class Fmt>
inline std::size_t fitting_count(std::size_t wanted, std::size_t scale_slots,
                                 std::size_t element_slots) noexcept {
  assert(scale_count<Fmt>(wanted) <= scale_slots && element_bytes<Fmt>(wanted) <= element_slots);
  std::size_t n = wanted;
  const std::size_t by_scales = scale_slots * Fmt::block_size;
  const std::size_t by_elements = element_slots * 8 / static_cast<std::size_t>(Fmt::element_bits);
  n = n < by_scales ? n : by_scales;
  return n < by_elements ? n : by_elements;
}

}  // namespace detail

// std::span overloads (C++20): n is in.size() (quantize) or out.size()
// (dequantize).
template <class Fmt>
inline void quantize(std::span<const float> in, encoding_span<e8m0fnu> scales,
                     element_span<Fmt> elements, scale_rounding mode = scale_rounding::floor) {
  quantize<Fmt>(in.data(), scales.data(), elements.data(),
                detail::fitting_count<Fmt>(in.size(), scales.size(), elements.size()), mode);
}

template <class Fmt>
inline void dequantize(encoding_span<const e8m0fnu> scales, const_element_span<Fmt> elements,
                       std::span<float> out) {
  dequantize<Fmt>(scales.data(), elements.data(), out.data(),
                  detail::fitting_count<Fmt>(out.size(), scales.size(), elements.size()));
}

template <class Fmt>
inline void quantize_blocks(std::span<const float> in, std::span<block<Fmt>> out,
                            scale_rounding mode = scale_rounding::floor) {
  assert(in.size() == out.size() * Fmt::block_size);
  const std::size_t blocks = in.size() / Fmt::block_size;
  quantize_blocks<Fmt>(in.data(), out.data(), blocks < out.size() ? blocks : out.size(), mode);
}

template <class Fmt>
inline void dequantize_blocks(std::span<const block<Fmt>> in, std::span<float> out) {
  assert(out.size() == in.size() * Fmt::block_size);
  const std::size_t blocks = out.size() / Fmt::block_size;
  dequantize_blocks<Fmt>(in.data(), out.data(), blocks < in.size() ? blocks : in.size());
}
#endif

}  // namespace mx
}  // namespace mf
