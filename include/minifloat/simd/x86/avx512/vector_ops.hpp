// AVX-512 float (16 lanes) and double (8 lanes) operations for the generic
// kernels.
#pragma once

#include <cstdint>

#include "../../../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include "../../../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::simd::avx512 {

struct float_ops {
  using value = float;
  using vec = __m512;
  static constexpr int lanes = 16;
  static MF_FORCE_INLINE vec zero() noexcept { return _mm512_setzero_ps(); }
  static MF_FORCE_INLINE vec load(const float* p) noexcept { return _mm512_load_ps(p); }
  static MF_FORCE_INLINE vec loadu(const float* p) noexcept { return _mm512_loadu_ps(p); }
  static MF_FORCE_INLINE vec load_widened(const float* p) noexcept { return _mm512_loadu_ps(p); }
  // The scalar bf16_pairs per lane (simd/scalar/vector_ops.hpp).
  static MF_FORCE_INLINE vec bf16_pairs(const vec& even, const vec& odd) noexcept {
    const __m512i low = _mm512_srli_epi32(_mm512_castps_si512(even), 16);
    const __m512i high = _mm512_and_si512(_mm512_castps_si512(odd), _mm512_set1_epi32(static_cast<int>(0xFFFF0000u)));
    return _mm512_castsi512_ps(_mm512_or_si512(low, high));
  }
  static MF_FORCE_INLINE vec broadcast(float x) noexcept { return _mm512_set1_ps(x); }
  // a * b + c, rounded once (VFMADD231PS).
  static MF_FORCE_INLINE vec fma(const vec& a, const vec& b, const vec& c) noexcept { return _mm512_fmadd_ps(a, b, c); }
  static MF_FORCE_INLINE void store(float* p, const vec& v) noexcept { _mm512_store_ps(p, v); }
  static MF_FORCE_INLINE void storeu(float* p, const vec& v) noexcept { _mm512_storeu_ps(p, v); }
  static MF_FORCE_INLINE vec add(const vec& a, const vec& b) noexcept { return _mm512_add_ps(a, b); }
  static MF_FORCE_INLINE vec mul(const vec& a, const vec& b) noexcept { return _mm512_mul_ps(a, b); }
  static MF_FORCE_INLINE vec div(const vec& a, const vec& b) noexcept { return _mm512_div_ps(a, b); }
  static MF_FORCE_INLINE vec abs(const vec& a) noexcept { return _mm512_abs_ps(a); }
  // a > b ? a : b per lane: b when either is NaN (MAXPS).
  static MF_FORCE_INLINE vec max(const vec& a, const vec& b) noexcept { return _mm512_max_ps(a, b); }
  static MF_FORCE_INLINE float reduce_max(const vec& a) noexcept {
    alignas(64) float lane[16];
    _mm512_store_ps(lane, a);
    float m = lane[0];
    for (int i = 1; i < 16; ++i) m = lane[i] > m ? lane[i] : m;
    return m;
  }
  static MF_FORCE_INLINE bool any_nan(const vec& a) noexcept {
    return _mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q) != 0;
  }
  static MF_FORCE_INLINE vec nan_to(const vec& a, const vec& replacement) noexcept {
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(a, a, _CMP_UNORD_Q), a, replacement);
  }
  static MF_FORCE_INLINE vec where_nan(const vec& y, const vec& otherwise) noexcept {
    return _mm512_mask_blend_ps(_mm512_cmp_ps_mask(y, y, _CMP_UNORD_Q), otherwise, y);
  }

  // The reduced_precision steps; the scalar float_ops say what each does.
  // AVX-512's static rounding (EVEX.b with the rounding-control field, Intel
  // SDM vol. 1, 15.6.4) gives the FMA in the directed roundings themselves.
  static constexpr bool has_directed_fma = true;
  static constexpr bool has_rounding_control = false;
  static MF_FORCE_INLINE vec sub(const vec& a, const vec& b) noexcept { return _mm512_sub_ps(a, b); }
  static MF_FORCE_INLINE vec broadcast_bits(std::uint32_t bits) noexcept {
    return _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<int>(bits)));
  }
  static MF_FORCE_INLINE vec fma_toward_zero(const vec& a, const vec& b, const vec& c) noexcept {
    return _mm512_fmadd_round_ps(a, b, c, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  }
  static MF_FORCE_INLINE vec fma_downward(const vec& a, const vec& b, const vec& c) noexcept {
    return _mm512_fmadd_round_ps(a, b, c, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  }
  static MF_FORCE_INLINE vec bit_and(const vec& y, const vec& keep) noexcept {
    return _mm512_castsi512_ps(_mm512_and_si512(_mm512_castps_si512(y), _mm512_castps_si512(keep)));
  }
  static MF_FORCE_INLINE vec floor_significand_of_number(const vec& y, const vec& keep) noexcept {
    const __m512i bits = _mm512_castps_si512(y);
    const __m512i mask = _mm512_castps_si512(keep);
    // The cut bits, set where y is negative: its magnitude rounded up.
    const __m512i raised = _mm512_add_epi32(bits, _mm512_andnot_si512(mask, _mm512_srai_epi32(bits, 31)));
    return _mm512_castsi512_ps(_mm512_and_si512(raised, mask));
  }
  static MF_FORCE_INLINE vec floor_significand(const vec& y, const vec& keep) noexcept {
    return _mm512_mask_mov_ps(y, _mm512_cmp_ps_mask(y, y, _CMP_ORD_Q), floor_significand_of_number(y, keep));
  }

  // The block variant of reduced_precision; the scalar float_ops say what
  // each does. The conversions round by static rounding.
  using ivec = __m512i;
  static MF_FORCE_INLINE ivec int_broadcast(std::int32_t x) noexcept { return _mm512_set1_epi32(x); }
  static MF_FORCE_INLINE ivec int_add(const ivec& a, const ivec& b) noexcept { return _mm512_add_epi32(a, b); }
  static MF_FORCE_INLINE ivec int_sub(const ivec& a, const ivec& b) noexcept { return _mm512_sub_epi32(a, b); }
  static MF_FORCE_INLINE vec max_magnitude(const vec& m, const vec& p) noexcept {
    const __m512i magnitude = _mm512_and_si512(_mm512_castps_si512(p), _mm512_set1_epi32(0x7FFFFFFF));
    return _mm512_castsi512_ps(_mm512_max_epu32(_mm512_castps_si512(m), magnitude));
  }
  static MF_FORCE_INLINE bool any_at_least(const vec& m, const vec& limit) noexcept {
    return _mm512_cmp_epu32_mask(_mm512_castps_si512(m), _mm512_castps_si512(limit), _MM_CMPINT_NLT) != 0;
  }
  static MF_FORCE_INLINE ivec biased_exponent(const vec& m) noexcept {
    return _mm512_srli_epi32(_mm512_castps_si512(m), 23);
  }
  static MF_FORCE_INLINE vec power_of_two(const ivec& biased) noexcept {
    return _mm512_castsi512_ps(_mm512_slli_epi32(biased, 23));
  }
  static MF_FORCE_INLINE ivec to_int_toward_zero(const vec& v) noexcept {
    return _mm512_cvt_roundps_epi32(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  }
  static MF_FORCE_INLINE ivec to_int_floor(const vec& v) noexcept {
    return _mm512_cvt_roundps_epi32(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  }
  static MF_FORCE_INLINE vec from_int_toward_zero(const ivec& x) noexcept {
    return _mm512_cvt_roundepi32_ps(x, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC);
  }
  static MF_FORCE_INLINE vec from_int_floor(const ivec& x) noexcept {
    return _mm512_cvt_roundepi32_ps(x, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  }
};

// Eight float64 lanes, with the few steps the exact kernels need beyond FMA
// (the one-lane version in simd/scalar/vector_ops.hpp says what each does).
struct double_ops {
  using value = double;
  using vec = __m512d;
  static constexpr int lanes = 8;
  static MF_FORCE_INLINE vec zero() noexcept { return _mm512_setzero_pd(); }
  static MF_FORCE_INLINE vec loadu(const double* p) noexcept { return _mm512_loadu_pd(p); }
  static MF_FORCE_INLINE vec broadcast(double x) noexcept { return _mm512_set1_pd(x); }
  static MF_FORCE_INLINE vec fma(const vec& a, const vec& b, const vec& c) noexcept {
    return _mm512_fmadd_pd(a, b, c);
  }
  static MF_FORCE_INLINE void storeu(double* p, const vec& v) noexcept { _mm512_storeu_pd(p, v); }
  static MF_FORCE_INLINE vec add(const vec& a, const vec& b) noexcept { return _mm512_add_pd(a, b); }
  static MF_FORCE_INLINE vec sub(const vec& a, const vec& b) noexcept { return _mm512_sub_pd(a, b); }
  static MF_FORCE_INLINE vec load_widened(const float* p) noexcept {
    return _mm512_cvtps_pd(_mm256_loadu_ps(p));
  }
  static MF_FORCE_INLINE void store_narrowed(float* p, const vec& v) noexcept {
    _mm256_storeu_ps(p, _mm512_cvtpd_ps(v));
  }
  // VCVTPD2PS with static rounding toward zero.
  static MF_FORCE_INLINE vec narrowed_toward_zero(const vec& v) noexcept {
    return _mm512_cvtps_pd(_mm512_cvt_roundpd_ps(v, _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC));
  }
  static MF_FORCE_INLINE vec narrowed(const vec& v) noexcept { return _mm512_cvtps_pd(_mm512_cvtpd_ps(v)); }
  static MF_FORCE_INLINE vec round_to_odd(const vec& t, const vec& error) noexcept {
    const __m512i bits = _mm512_castpd_si512(t);
    const __m512i one = _mm512_set1_epi64(1);
    const __mmask8 step = _mm512_cmp_pd_mask(error, _mm512_setzero_pd(), _CMP_NEQ_OQ) &
                          _mm512_testn_epi64_mask(bits, one);
    const __mmask8 differ = _mm512_movepi64_mask(_mm512_xor_si512(bits, _mm512_castpd_si512(error)));
    const __m512i up = _mm512_mask_add_epi64(bits, step & static_cast<__mmask8>(~differ), bits, one);
    return _mm512_castsi512_pd(_mm512_mask_sub_epi64(up, step & differ, up, one));
  }
};

}  // namespace mf::simd::avx512
MF_SIMD_REGION_END
#endif
