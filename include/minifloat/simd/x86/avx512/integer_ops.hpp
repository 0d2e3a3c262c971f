// AVX-512 operations on sixteen 32-bit integer lanes, for the generic bulk
// kernels (bulk/generic/). A mask is an opmask register (__mmask16).
#pragma once

#include <cstdint>

#include "../../target_region.hpp"

#if MF_SIMD_X86
#include "../../../bulk/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::simd::avx512 {

struct int32_ops {
  using vec = __m512i;
  using mask = __mmask16;
  static constexpr int lanes = 16;
  static MF_FORCE_INLINE vec splat(std::uint32_t x) noexcept {
    return _mm512_set1_epi32(static_cast<int>(x));
  }
  static MF_FORCE_INLINE vec bit_and(vec a, vec b) noexcept { return _mm512_and_si512(a, b); }
  static MF_FORCE_INLINE vec bit_or(vec a, vec b) noexcept { return _mm512_or_si512(a, b); }
  static MF_FORCE_INLINE vec add(vec a, vec b) noexcept { return _mm512_add_epi32(a, b); }
  template <int Bits>
  static MF_FORCE_INLINE vec shift_left(vec a) noexcept {
    return _mm512_slli_epi32(a, Bits);
  }
  static MF_FORCE_INLINE mask equal(vec a, vec b) noexcept { return _mm512_cmpeq_epi32_mask(a, b); }
  static MF_FORCE_INLINE mask less(vec a, vec b) noexcept { return _mm512_cmplt_epu32_mask(a, b); }
  static MF_FORCE_INLINE mask greater(vec a, vec b) noexcept {
    return _mm512_cmpgt_epu32_mask(a, b);
  }
  static MF_FORCE_INLINE mask is_zero(vec a) noexcept { return _mm512_testn_epi32_mask(a, a); }
  // where(m): if_true, else if_false.
  static MF_FORCE_INLINE vec select(mask m, vec if_true, vec if_false) noexcept {
    return _mm512_mask_mov_epi32(if_false, m, if_true);
  }
  // The float bits of a * 2^Exponent, for integer lanes below 2^24 whose
  // product is a normal float or zero: exact, so MXCSR (rounding
  // direction, DAZ, FTZ) cannot change it.
  template <int Exponent>
  static MF_FORCE_INLINE vec times_power_of_two(vec a) noexcept {
    static_assert(Exponent < 0 && Exponent > -64, "a negative power of two");
    const float factor = static_cast<float>(1.0 / static_cast<double>(1ull << -Exponent));
    return _mm512_castps_si512(_mm512_mul_ps(_mm512_cvtepi32_ps(a), _mm512_set1_ps(factor)));
  }
};

}  // namespace mf::simd::avx512
MF_SIMD_REGION_END
#endif
