// AVX2 operations on eight 32-bit integer lanes, for the generic bulk
// kernels (bulk/generic/). A mask is a vector of all-ones / all-zero lanes.
// Comparisons are signed: the generic kernels compare only magnitudes of
// encodings and float bit patterns below 2^31.
#pragma once

#include <cstdint>

#include "../../target_region.hpp"

#if MF_SIMD_X86
#include "../../../bulk/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::simd::avx2 {

struct int32_ops {
  using vec = __m256i;
  using mask = __m256i;
  static constexpr int lanes = 8;
  static MF_FORCE_INLINE vec splat(std::uint32_t x) noexcept {
    return _mm256_set1_epi32(static_cast<int>(x));
  }
  static MF_FORCE_INLINE vec bit_and(vec a, vec b) noexcept { return _mm256_and_si256(a, b); }
  static MF_FORCE_INLINE vec bit_or(vec a, vec b) noexcept { return _mm256_or_si256(a, b); }
  static MF_FORCE_INLINE vec add(vec a, vec b) noexcept { return _mm256_add_epi32(a, b); }
  template <int Bits>
  static MF_FORCE_INLINE vec shift_left(vec a) noexcept {
    return _mm256_slli_epi32(a, Bits);
  }
  static MF_FORCE_INLINE mask equal(vec a, vec b) noexcept { return _mm256_cmpeq_epi32(a, b); }
  static MF_FORCE_INLINE mask less(vec a, vec b) noexcept { return _mm256_cmpgt_epi32(b, a); }
  static MF_FORCE_INLINE mask greater(vec a, vec b) noexcept { return _mm256_cmpgt_epi32(a, b); }
  static MF_FORCE_INLINE mask is_zero(vec a) noexcept {
    return _mm256_cmpeq_epi32(a, _mm256_setzero_si256());
  }
  // where(m): if_true, else if_false.
  static MF_FORCE_INLINE vec select(mask m, vec if_true, vec if_false) noexcept {
    return _mm256_blendv_epi8(if_false, if_true, m);
  }
  // The float bits of a * 2^Exponent, for integer lanes below 2^24 whose
  // product is a normal float or zero: exact, so MXCSR (rounding
  // direction, DAZ, FTZ) cannot change it.
  template <int Exponent>
  static MF_FORCE_INLINE vec times_power_of_two(vec a) noexcept {
    static_assert(Exponent < 0 && Exponent > -64, "a negative power of two");
    const float factor = static_cast<float>(1.0 / static_cast<double>(1ull << -Exponent));
    return _mm256_castps_si256(_mm256_mul_ps(_mm256_cvtepi32_ps(a), _mm256_set1_ps(factor)));
  }
};

}  // namespace mf::simd::avx2
MF_SIMD_REGION_END
#endif
