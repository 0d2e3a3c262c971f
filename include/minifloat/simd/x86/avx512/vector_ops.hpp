// AVX-512 float operations (16 lanes) for the generic kernels.
#pragma once

#include "../../target_region.hpp"

#if MF_SIMD_X86
#include "../../../bulk/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::simd::avx512 {

struct float_ops {
  using vec = __m512;
  static constexpr int lanes = 16;
  static MF_FORCE_INLINE vec zero() noexcept { return _mm512_setzero_ps(); }
  static MF_FORCE_INLINE vec load(const float* p) noexcept { return _mm512_load_ps(p); }
  static MF_FORCE_INLINE vec loadu(const float* p) noexcept { return _mm512_loadu_ps(p); }
  static MF_FORCE_INLINE vec broadcast(float x) noexcept { return _mm512_set1_ps(x); }
  // a * b + c, rounded once (VFMADD231PS).
  static MF_FORCE_INLINE vec fma(const vec& a, const vec& b, const vec& c) noexcept { return _mm512_fmadd_ps(a, b, c); }
  static MF_FORCE_INLINE void store(float* p, const vec& v) noexcept { _mm512_store_ps(p, v); }
  static MF_FORCE_INLINE void storeu(float* p, const vec& v) noexcept { _mm512_storeu_ps(p, v); }
};

}  // namespace mf::simd::avx512
MF_SIMD_REGION_END
#endif
