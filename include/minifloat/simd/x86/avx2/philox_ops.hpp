// AVX2 operations for the Philox4x32-10 generator (bulk/generic/
// philox_lanes.hpp): the AVX-512 layout (simd/x86/avx512/philox_ops.hpp) on
// four 64-bit lanes.
#pragma once

#include <cstdint>

#include "../../../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include "../../../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::simd::avx2 {

struct philox_ops {
  using vec = __m256i;
  static constexpr int blocks_per_vector = 4;
  static constexpr int lanes = 8;
  // Two chains: four would not fit the 16 ymm registers.
  static constexpr int chains = 2;
  static MF_FORCE_INLINE vec splat(std::uint32_t x) noexcept {
    return _mm256_set1_epi32(static_cast<int>(x));
  }
  static MF_FORCE_INLINE vec multiplier(std::uint32_t m) noexcept {
    return _mm256_set1_epi64x(static_cast<long long>(m));
  }
  // Lane 0 holds block 0, lane 1 block 2, lane 2 block 1, lane 3 block 3.
  static MF_FORCE_INLINE void counter_words(std::uint64_t first, vec& lo, vec& hi) noexcept {
    lo = _mm256_add_epi64(_mm256_set1_epi64x(static_cast<long long>(first)),
                          _mm256_setr_epi64x(0, 2, 1, 3));
    hi = _mm256_srli_epi64(lo, 32);
  }
  static MF_FORCE_INLINE void multiply(vec x, vec m, vec& hi, vec& lo) noexcept {
    lo = _mm256_mul_epu32(x, m);
    hi = _mm256_shuffle_epi32(lo, 0xF5);
  }
  static MF_FORCE_INLINE vec bit_xor(vec a, vec b) noexcept { return _mm256_xor_si256(a, b); }
  static MF_FORCE_INLINE vec xor3(vec a, vec b, vec c) noexcept {
    return _mm256_xor_si256(_mm256_xor_si256(a, b), c);
  }
  // The blocks' words in stream order: 64 bytes.
  static MF_FORCE_INLINE void store_blocks(vec x0, vec x1, vec x2, vec x3,
                                           std::uint8_t* bytes) noexcept {
    const __m256i w01 = _mm256_blend_epi32(x0, _mm256_slli_epi64(x1, 32), 0xAA);
    const __m256i w23 = _mm256_blend_epi32(x2, _mm256_slli_epi64(x3, 32), 0xAA);
    _mm256_store_si256(reinterpret_cast<__m256i*>(bytes), _mm256_unpacklo_epi64(w01, w23));
    _mm256_store_si256(reinterpret_cast<__m256i*>(bytes + 32), _mm256_unpackhi_epi64(w01, w23));
  }
  // 8 lanes of 1, 2 or 4 stream bytes each, widened to 32 bits, shifted left.
  static MF_FORCE_INLINE void store_widened(const std::uint8_t* bytes, int lane_bytes, int shift,
                                            std::uint32_t* out) noexcept {
    __m256i v;
    if (lane_bytes == 1) {
      v = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(bytes)));
    } else if (lane_bytes == 2) {
      v = _mm256_cvtepu16_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(bytes)));
    } else {
      v = _mm256_load_si256(reinterpret_cast<const __m256i*>(bytes));
    }
    _mm256_store_si256(reinterpret_cast<__m256i*>(out),
                       _mm256_sllv_epi32(v, _mm256_set1_epi32(shift)));
  }
};

}  // namespace mf::simd::avx2
MF_SIMD_REGION_END
#endif
