// The integer MatMul's step (../../byte_dot_ops.hpp) on AVX2, for CPUs
// without AVX-VNNI's VPDPBUSD (below): each word's bytes 0 and 2, then 1 and 3, widened to
// 16-bit lanes (a zero-extended, b sign-extended) and multiplied and
// pairwise added by VPMADDWD, whose 32-bit sums are exact here (|a*b| <=
// 255 * 128). VPMADDUBSW is not used: it saturates its 16-bit sums.
#pragma once

#include "../../../../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include <cstdint>

#include "../../../../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::hybrid::kernels::avx2 {

struct byte_dot_ops {
  using value = std::int32_t;
  using vec = __m256i;  // 8 int32 accumulators
  static constexpr int lanes = 8;
  static MF_FORCE_INLINE vec zero() noexcept { return _mm256_setzero_si256(); }
  static MF_FORCE_INLINE vec loadu(const value* p) noexcept {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static MF_FORCE_INLINE vec broadcast(value word) noexcept { return _mm256_set1_epi32(word); }
  static MF_FORCE_INLINE vec fma(const vec& a, const vec& b, const vec& acc) noexcept {
    const __m256i a_even = _mm256_and_si256(a, _mm256_set1_epi16(0x00FF));
    const __m256i a_odd = _mm256_srli_epi16(a, 8);
    const __m256i b_even = _mm256_srai_epi16(_mm256_slli_epi16(b, 8), 8);
    const __m256i b_odd = _mm256_srai_epi16(b, 8);
    const __m256i even = _mm256_madd_epi16(a_even, b_even);
    const __m256i odd = _mm256_madd_epi16(a_odd, b_odd);
    return _mm256_add_epi32(acc, _mm256_add_epi32(even, odd));
  }
  static MF_FORCE_INLINE void storeu(value* p, const vec& v) noexcept {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  }
};

}  // namespace mf::hybrid::kernels::avx2
MF_SIMD_REGION_END

// AVX-VNNI: VPDPBUSD on ymm (VEX), the step's definition in one
// instruction, where CPUID reports it (Intel Alder Lake and later cores,
// AMD Zen 5).
MF_SIMD_REGION_BEGIN_AVX_VNNI
namespace mf::hybrid::kernels::avx_vnni {

struct byte_dot_ops {
  using value = std::int32_t;
  using vec = __m256i;
  static constexpr int lanes = 8;
  static MF_FORCE_INLINE vec zero() noexcept { return _mm256_setzero_si256(); }
  static MF_FORCE_INLINE vec loadu(const value* p) noexcept {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  }
  static MF_FORCE_INLINE vec broadcast(value word) noexcept { return _mm256_set1_epi32(word); }
  // a's bytes unsigned, b's signed, four products per lane.
  static MF_FORCE_INLINE vec fma(const vec& a, const vec& b, const vec& acc) noexcept {
    return _mm256_dpbusd_avx_epi32(acc, a, b);
  }
  static MF_FORCE_INLINE void storeu(value* p, const vec& v) noexcept {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(p), v);
  }
};

}  // namespace mf::hybrid::kernels::avx_vnni
MF_SIMD_REGION_END
#endif
