// AVX2 MX dequantize for MXFP8 (e4m3fn, e5m2) and MXFP4 (e2m1fn), whole
// blocks of a multiple of 16 elements, in one pass: 8 elements at a time
// decoded from their fields (FP8) or looked up by magnitude in an 8-entry
// vpermps table (FP4), then multiplied by the block's scale. The multiply
// runs only where it is exact (scale.hpp's multiply_is_exact), so MXCSR
// cannot change it; a block with any other scale (2^-127, the largest
// scales, NaN) goes through the scalar path. Same bits as the scalar path.
#pragma once

#include <cstddef>
#include <cstdint>

#include "block.hpp"
#include "element.hpp"
#include "quantize_scalar.hpp"
#include "scale.hpp"
#include "x86_lanes.hpp"
#include "../target/dispatch.hpp"

#if MF_HAS_X86_KERNELS

namespace mf {
namespace mx {
namespace avx2 {


// 8 one-byte codes (32-bit lanes) to float bits, exactly, from the fields:
// the bulk decode (lanes/decode_lanes.hpp).
template <class Elem>
MF_TARGET_AVX2 inline __m256 decode8_fields(__m256i c) {
  return _mm256_castsi256_ps(
      decode_lanes<typename Elem::format, simd::avx2::int32_ops>(c));
}

// 8 FP4 codes from 4 bytes: the magnitude (3 bits) through vpermps, which
// reads only the low 3 bits of each index, and the sign (bit 3) to bit 31.
template <class Elem>
MF_TARGET_AVX2 inline __m256 decode8_fp4(const std::uint8_t* in, __m256 magnitudes) {
  std::int32_t word = 0;
  __builtin_memcpy(&word, in, 4);
  // Qword i = b_i | b_i << 28: dword 2i holds b_i (low nibble in bits
  // 0..3), dword 2i+1 holds b_i >> 4.
  const __m256i q = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(word));
  const __m256i d = _mm256_or_si256(q, _mm256_slli_epi64(q, 28));
  const __m256 mag = _mm256_permutevar8x32_ps(magnitudes, d);
  const __m256i sign = _mm256_and_si256(_mm256_slli_epi32(d, 28), splat(0x80000000u));
  return _mm256_or_ps(mag, _mm256_castsi256_ps(sign));
}

template <class Fmt>
MF_TARGET_AVX2 inline void dequantize(const std::uint8_t* scales, const std::uint8_t* elements,
                                         std::size_t blocks, float* out) {
  using Elem = typename Fmt::element;
  constexpr std::size_t k = Fmt::block_size;
  alignas(32) float table[8] = {};
  if constexpr (Fmt::element_bits == 4) {
    for (unsigned i = 0; i < 8; ++i) table[i] = decode_element<Elem>(static_cast<std::uint8_t>(i));
  }
  const __m256 magnitudes = _mm256_load_ps(table);
  for (std::size_t j = 0; j < blocks; ++j) {
    const std::uint8_t code = scales[j];
    const std::uint8_t* in = elements + j * Fmt::element_bytes;
    float* o = out + j * k;
    if (!multiply_is_exact<Elem>(code)) {
      scalar::dequantize_block<Fmt>(code, in, k, o);
      continue;
    }
    const __m256 x = _mm256_castsi256_ps(splat(static_cast<std::uint32_t>(code) << 23));
    for (std::size_t t = 0; t < k; t += 8) {
      __m256 v;
      if constexpr (Fmt::element_bits == 8) {
        v = decode8_fields<Elem>(
            _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + t))));
      } else {
        v = decode8_fp4<Elem>(in + t / 2, magnitudes);
      }
      _mm256_storeu_ps(o + t, _mm256_mul_ps(v, x));
    }
  }
}

}  // namespace avx2
}  // namespace mx
}  // namespace mf

#endif  // MF_HAS_X86_KERNELS
