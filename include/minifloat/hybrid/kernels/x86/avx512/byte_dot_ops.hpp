// The integer MatMul's step (../../byte_dot_ops.hpp) on AVX-512: VPDPBUSD
// where the CPU has AVX512_VNNI (one instruction: the step's definition),
// else the AVX2 form's VPMADDWD pairs on 16 lanes (AVX512BW).
#pragma once

#include "../../../../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include <cstdint>

#include "../../../../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::hybrid::kernels::avx512 {

struct byte_dot_ops {
  using value = std::int32_t;
  using vec = __m512i;  // 16 int32 accumulators
  static constexpr int lanes = 16;
  static MF_FORCE_INLINE vec zero() noexcept { return _mm512_setzero_si512(); }
  static MF_FORCE_INLINE vec loadu(const value* p) noexcept { return _mm512_loadu_si512(p); }
  static MF_FORCE_INLINE vec broadcast(value word) noexcept { return _mm512_set1_epi32(word); }
  static MF_FORCE_INLINE vec fma(const vec& a, const vec& b, const vec& acc) noexcept {
    const __m512i a_even = _mm512_and_si512(a, _mm512_set1_epi16(0x00FF));
    const __m512i a_odd = _mm512_srli_epi16(a, 8);
    const __m512i b_even = _mm512_srai_epi16(_mm512_slli_epi16(b, 8), 8);
    const __m512i b_odd = _mm512_srai_epi16(b, 8);
    const __m512i even = _mm512_madd_epi16(a_even, b_even);
    const __m512i odd = _mm512_madd_epi16(a_odd, b_odd);
    return _mm512_add_epi32(acc, _mm512_add_epi32(even, odd));
  }
  static MF_FORCE_INLINE void storeu(value* p, const vec& v) noexcept { _mm512_storeu_si512(p, v); }
};

}  // namespace mf::hybrid::kernels::avx512
MF_SIMD_REGION_END

MF_SIMD_REGION_BEGIN_AVX512_VNNI
namespace mf::hybrid::kernels::avx512_vnni {

struct byte_dot_ops {
  using value = std::int32_t;
  using vec = __m512i;
  static constexpr int lanes = 16;
  static MF_FORCE_INLINE vec zero() noexcept { return _mm512_setzero_si512(); }
  static MF_FORCE_INLINE vec loadu(const value* p) noexcept { return _mm512_loadu_si512(p); }
  static MF_FORCE_INLINE vec broadcast(value word) noexcept { return _mm512_set1_epi32(word); }
  // VPDPBUSD: a's bytes unsigned, b's signed, four products per lane.
  static MF_FORCE_INLINE vec fma(const vec& a, const vec& b, const vec& acc) noexcept {
    return _mm512_dpbusd_epi32(acc, a, b);
  }
  static MF_FORCE_INLINE void storeu(value* p, const vec& v) noexcept { _mm512_storeu_si512(p, v); }
};

}  // namespace mf::hybrid::kernels::avx512_vnni
MF_SIMD_REGION_END
#endif
