// MX quantize (float32 -> scales + elements) and dequantize, in the tensor
// layout and the array-of-blocks layout of block.hpp. The AVX-512 kernels
// (quantize_avx512.hpp, dequantize_avx512.hpp) run for MXFP8 and MXFP4
// with blocks of a multiple of 16 when mf::bulk::active_isa() is avx512,
// and dequantize_avx2.hpp's dequantize when it is avx2; everything else
// (and a partial last block) takes the scalar path. All give the same bytes
// and floats.
#pragma once

#include <cstddef>
#include <cstdint>

#include "block.hpp"
#include "dequantize_avx2.hpp"
#include "dequantize_avx512.hpp"
#include "quantize_avx512.hpp"
#include "quantize_scalar.hpp"
#include "scale.hpp"
#include "target.hpp"

namespace mf {
namespace mx {

// Quantizes in[0..n) to Fmt: scales[0..scale_count<Fmt>(n)) and
// elements[0..element_bytes<Fmt>(n)). Per block (§6.3): X from amax by
// `mode` (scale.hpp), then P_i = V_i / X rounded to nearest even with
// saturation to the element's max (INT8: +-127). A block with a NaN or Inf,
// or whose scale would exceed 2^127, gets the NaN scale 0xFF and zero
// elements.
template <class Fmt>
inline void quantize(const float* in, std::size_t n, std::uint8_t* scales,
                     std::uint8_t* elements, scale_rounding mode = scale_rounding::floor) {
  constexpr std::size_t k = Fmt::block_size;
  std::size_t blocks_done = 0;
#if MF_BULK_X86
  if constexpr (avx512_kernels::supports<Fmt>) {
    if (detail::use_avx512()) {
      blocks_done = n / k;
      avx512_kernels::quantize<Fmt>(in, blocks_done, scales, elements, mode);
    }
  }
#endif
  scalar_kernels::quantize<Fmt>(in + blocks_done * k, n - blocks_done * k, scales + blocks_done,
                                elements + blocks_done * Fmt::element_bytes, mode);
}

// out[i] = X_j * P_i as float32 for the n elements, computed so that MXCSR
// (FTZ, DAZ, rounding direction) does not change it (scale.hpp's
// multiply_by_scale). The product is exact (also where it is a float
// subnormal) unless it exceeds float's max: +-Inf. NaN elements stay NaN,
// and every element of a NaN-scale block is the quiet NaN 0x7FC00000.
template <class Fmt>
inline void dequantize(const std::uint8_t* scales, const std::uint8_t* elements, std::size_t n,
                       float* out) {
  constexpr std::size_t k = Fmt::block_size;
  std::size_t blocks_done = 0;
#if MF_BULK_X86
  if constexpr (avx512_dequantize::supports<Fmt>) {
    if (detail::use_avx512()) {
      blocks_done = n / k;
      avx512_dequantize::dequantize<Fmt>(scales, elements, blocks_done, out);
    }
  }
  if constexpr (avx2_dequantize::supports<Fmt>) {
    if (detail::use_avx2()) {
      blocks_done = n / k;
      avx2_dequantize::dequantize<Fmt>(scales, elements, blocks_done, out);
    }
  }
#endif
  scalar_kernels::dequantize<Fmt>(scales + blocks_done, elements + blocks_done * Fmt::element_bytes,
                                  n - blocks_done * k, out + blocks_done * k);
}

// Array-of-blocks layout: block_count blocks of Fmt::block_size elements.
template <class Fmt>
inline void quantize_blocks(const float* in, std::size_t block_count, block<Fmt>* out,
                            scale_rounding mode = scale_rounding::floor) {
  for (std::size_t j = 0; j < block_count; ++j) {
    quantize<Fmt>(in + j * Fmt::block_size, Fmt::block_size, &out[j].scale, out[j].elements,
                  mode);
  }
}

template <class Fmt>
inline void dequantize_blocks(const block<Fmt>* in, std::size_t block_count, float* out) {
  for (std::size_t j = 0; j < block_count; ++j) {
    dequantize<Fmt>(&in[j].scale, in[j].elements, Fmt::block_size, out + j * Fmt::block_size);
  }
}

}  // namespace mx
}  // namespace mf
