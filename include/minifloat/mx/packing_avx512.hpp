// AVX-512 (BW) packers for FP4 and FP6 storage: 64 elements per step, the
// rest left to the scalar packer. Same layout as packing_scalar.hpp.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../target/dispatch.hpp"
#include "../target/region.hpp"
#if MF_HAS_X86_KERNELS
#include "../target/x86_intrinsics.hpp"
#endif

#if MF_HAS_X86_KERNELS

namespace mf {
namespace mx {
namespace avx512 {

// 64 codes -> 32 bytes: in each 16-bit lane, code 2i (low byte) and code
// 2i+1 (high byte) become the low and high nibble of one byte.
MF_TARGET_AVX512 inline __m256i pack_fp4_64(__m512i codes) {
  const __m512i low = _mm512_and_si512(codes, _mm512_set1_epi16(0x000F));
  const __m512i high = _mm512_and_si512(_mm512_srli_epi16(codes, 4), _mm512_set1_epi16(0x00F0));
  return _mm512_cvtepi16_epi8(_mm512_or_si512(low, high));
}

// 32 bytes -> 64 codes (0..15 each).
MF_TARGET_AVX512 inline __m512i unpack_fp4_64(__m256i packed) {
  const __m512i w = _mm512_cvtepu8_epi16(packed);
  return _mm512_or_si512(_mm512_and_si512(w, _mm512_set1_epi16(0x000F)),
                         _mm512_and_si512(_mm512_slli_epi16(w, 4), _mm512_set1_epi16(0x0F00)));
}

MF_TARGET_AVX512 inline std::size_t pack_fp4(const std::uint8_t* codes, std::uint8_t* packed,
                                                std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(packed + i / 2),
                        pack_fp4_64(_mm512_loadu_si512(codes + i)));
  }
  return i;
}

MF_TARGET_AVX512 inline std::size_t unpack_fp4(const std::uint8_t* packed, std::uint8_t* codes,
                                                  std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    _mm512_storeu_si512(codes + i, unpack_fp4_64(_mm256_loadu_si256(
                                       reinterpret_cast<const __m256i*>(packed + i / 2))));
  }
  return i;
}

// 64 codes -> 48 bytes. Each dword holds four codes (one per byte); they
// are gathered into its low 24 bits, then the low three bytes of every
// dword are made contiguous (in-lane byte shuffle, then a dword permute).
MF_TARGET_AVX512 inline __m512i pack_fp6_64(__m512i codes) {
  const __m512i d = codes;
  __m512i p = _mm512_and_si512(d, _mm512_set1_epi32(0x3F));
  p = _mm512_ternarylogic_epi32(p, _mm512_srli_epi32(d, 2), _mm512_set1_epi32(0xFC0), 0xF8);
  p = _mm512_ternarylogic_epi32(p, _mm512_srli_epi32(d, 4), _mm512_set1_epi32(0x3F000), 0xF8);
  p = _mm512_ternarylogic_epi32(p, _mm512_srli_epi32(d, 6), _mm512_set1_epi32(0xFC0000), 0xF8);
  const __m512i bytes = _mm512_set_epi8(
      -1, -1, -1, -1, 14, 13, 12, 10, 9, 8, 6, 5, 4, 2, 1, 0,
      -1, -1, -1, -1, 14, 13, 12, 10, 9, 8, 6, 5, 4, 2, 1, 0,
      -1, -1, -1, -1, 14, 13, 12, 10, 9, 8, 6, 5, 4, 2, 1, 0,
      -1, -1, -1, -1, 14, 13, 12, 10, 9, 8, 6, 5, 4, 2, 1, 0);
  const __m512i dwords = _mm512_set_epi32(3, 7, 11, 15, 14, 13, 12, 10, 9, 8, 6, 5, 4, 2, 1, 0);
  return _mm512_permutexvar_epi32(dwords, _mm512_shuffle_epi8(p, bytes));
}

// 48 bytes (in the low 12 dwords) -> 64 codes.
MF_TARGET_AVX512 inline __m512i unpack_fp6_64(__m512i packed) {
  // Three dwords (12 bytes: 16 codes) into each 128-bit lane.
  const __m512i dwords = _mm512_set_epi32(0, 11, 10, 9, 0, 8, 7, 6, 0, 5, 4, 3, 0, 2, 1, 0);
  const __m512i bytes = _mm512_set_epi8(
      -1, 11, 10, 9, -1, 8, 7, 6, -1, 5, 4, 3, -1, 2, 1, 0,
      -1, 11, 10, 9, -1, 8, 7, 6, -1, 5, 4, 3, -1, 2, 1, 0,
      -1, 11, 10, 9, -1, 8, 7, 6, -1, 5, 4, 3, -1, 2, 1, 0,
      -1, 11, 10, 9, -1, 8, 7, 6, -1, 5, 4, 3, -1, 2, 1, 0);
  const __m512i p = _mm512_shuffle_epi8(_mm512_permutexvar_epi32(dwords, packed), bytes);
  __m512i c = _mm512_and_si512(p, _mm512_set1_epi32(0x3F));
  c = _mm512_ternarylogic_epi32(c, _mm512_slli_epi32(p, 2), _mm512_set1_epi32(0x3F00), 0xF8);
  c = _mm512_ternarylogic_epi32(c, _mm512_slli_epi32(p, 4), _mm512_set1_epi32(0x3F0000), 0xF8);
  c = _mm512_ternarylogic_epi32(c, _mm512_slli_epi32(p, 6), _mm512_set1_epi32(0x3F000000), 0xF8);
  return c;
}

MF_TARGET_AVX512 inline std::size_t pack_fp6(const std::uint8_t* codes, std::uint8_t* packed,
                                                std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    _mm512_mask_storeu_epi32(packed + i / 4 * 3, 0x0FFF,
                             pack_fp6_64(_mm512_loadu_si512(codes + i)));
  }
  return i;
}

MF_TARGET_AVX512 inline std::size_t unpack_fp6(const std::uint8_t* packed, std::uint8_t* codes,
                                                  std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    _mm512_storeu_si512(codes + i,
                        unpack_fp6_64(_mm512_maskz_loadu_epi32(0x0FFF, packed + i / 4 * 3)));
  }
  return i;
}

}  // namespace avx512
}  // namespace mx
}  // namespace mf

#endif  // MF_HAS_X86_KERNELS
