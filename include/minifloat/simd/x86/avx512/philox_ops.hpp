// AVX-512 operations for the Philox4x32-10 generator (bulk/generic/
// philox_lanes.hpp). Layout: one Philox block per 64-bit lane, each state
// word in the lane's low half; VPMULUDQ reads only those halves, and leaves
// the product's low word in the low half and its high word in the upper one,
// so the "low" result needs no work and the "high" one one dword shuffle.
#pragma once

#include <cstdint>

#include "../../../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include "../../../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::simd::avx512 {

struct philox_ops {
  using vec = __m512i;
  static constexpr int blocks_per_vector = 8;
  static constexpr int lanes = 16;  // 32-bit random values per vector
  // Four independent blocks sets in flight: their multiplications hide each
  // other's latency (measured: one chain is bound by the round's latency).
  static constexpr int chains = 4;
  static MF_FORCE_INLINE vec splat(std::uint32_t x) noexcept {
    return _mm512_set1_epi32(static_cast<int>(x));
  }
  static MF_FORCE_INLINE vec multiplier(std::uint32_t m) noexcept {
    return _mm512_set1_epi64(static_cast<long long>(m));
  }
  // Counters first .. first + 7, lane 2k holding block k and lane 2k + 1
  // block k + 4, so that the unpacks of store_blocks leave them in order.
  static MF_FORCE_INLINE void counter_words(std::uint64_t first, vec& lo, vec& hi) noexcept {
    lo = _mm512_add_epi64(_mm512_set1_epi64(static_cast<long long>(first)),
                          _mm512_setr_epi64(0, 4, 1, 5, 2, 6, 3, 7));
    hi = _mm512_srli_epi64(lo, 32);
  }
  static MF_FORCE_INLINE void multiply(vec x, vec m, vec& hi, vec& lo) noexcept {
    lo = _mm512_mul_epu32(x, m);
    hi = _mm512_shuffle_epi32(lo, _MM_PERM_DDBB);
  }
  static MF_FORCE_INLINE vec bit_xor(vec a, vec b) noexcept { return _mm512_xor_si512(a, b); }
  static MF_FORCE_INLINE vec xor3(vec a, vec b, vec c) noexcept {
    return _mm512_ternarylogic_epi32(a, b, c, 0x96);
  }
  // The blocks' words in stream order: 128 bytes.
  static MF_FORCE_INLINE void store_blocks(vec x0, vec x1, vec x2, vec x3,
                                           std::uint8_t* bytes) noexcept {
    const __m512i w01 = _mm512_mask_shuffle_epi32(x0, 0xAAAA, x1, _MM_PERM_CCAA);
    const __m512i w23 = _mm512_mask_shuffle_epi32(x2, 0xAAAA, x3, _MM_PERM_CCAA);
    _mm512_store_si512(bytes, _mm512_unpacklo_epi64(w01, w23));
    _mm512_store_si512(bytes + 64, _mm512_unpackhi_epi64(w01, w23));
  }
  // 16 lanes of 1, 2 or 4 stream bytes each, widened to 32 bits, shifted left.
  static MF_FORCE_INLINE void store_widened(const std::uint8_t* bytes, int lane_bytes, int shift,
                                            std::uint32_t* out) noexcept {
    __m512i v;
    if (lane_bytes == 1) {
      v = _mm512_cvtepu8_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(bytes)));
    } else if (lane_bytes == 2) {
      v = _mm512_cvtepu16_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(bytes)));
    } else {
      v = _mm512_load_si512(bytes);
    }
    _mm512_store_si512(out, _mm512_sllv_epi32(v, _mm512_set1_epi32(shift)));
  }
};

}  // namespace mf::simd::avx512
MF_SIMD_REGION_END
#endif
