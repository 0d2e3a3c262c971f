// AVX2 + FMA float (8 lanes) and double (4 lanes) operations for the
// generic kernels.
#pragma once

#include <cstdint>

#include "../../../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include "../../../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::simd::avx2 {

struct float_ops {
  using value = float;
  using vec = __m256;
  static constexpr int lanes = 8;
  static MF_FORCE_INLINE vec zero() noexcept { return _mm256_setzero_ps(); }
  static MF_FORCE_INLINE vec load(const float* p) noexcept { return _mm256_load_ps(p); }
  static MF_FORCE_INLINE vec loadu(const float* p) noexcept { return _mm256_loadu_ps(p); }
  static MF_FORCE_INLINE vec load_widened(const float* p) noexcept { return _mm256_loadu_ps(p); }
  static MF_FORCE_INLINE vec broadcast(float x) noexcept { return _mm256_set1_ps(x); }
  // a * b + c, rounded once (VFMADD231PS).
  static MF_FORCE_INLINE vec fma(const vec& a, const vec& b, const vec& c) noexcept { return _mm256_fmadd_ps(a, b, c); }
  static MF_FORCE_INLINE void store(float* p, const vec& v) noexcept { _mm256_store_ps(p, v); }
  static MF_FORCE_INLINE void storeu(float* p, const vec& v) noexcept { _mm256_storeu_ps(p, v); }
  static MF_FORCE_INLINE vec add(const vec& a, const vec& b) noexcept { return _mm256_add_ps(a, b); }
  static MF_FORCE_INLINE vec mul(const vec& a, const vec& b) noexcept { return _mm256_mul_ps(a, b); }
  static MF_FORCE_INLINE vec div(const vec& a, const vec& b) noexcept { return _mm256_div_ps(a, b); }
  static MF_FORCE_INLINE vec abs(const vec& a) noexcept {
    return _mm256_andnot_ps(_mm256_set1_ps(-0.0f), a);
  }
  // a > b ? a : b per lane: b when either is NaN (MAXPS).
  static MF_FORCE_INLINE vec max(const vec& a, const vec& b) noexcept { return _mm256_max_ps(a, b); }
  static MF_FORCE_INLINE float reduce_max(const vec& a) noexcept {
    alignas(32) float lane[8];
    _mm256_store_ps(lane, a);
    float m = lane[0];
    for (int i = 1; i < 8; ++i) m = lane[i] > m ? lane[i] : m;
    return m;
  }
  static MF_FORCE_INLINE bool any_nan(const vec& a) noexcept {
    return _mm256_movemask_ps(_mm256_cmp_ps(a, a, _CMP_UNORD_Q)) != 0;
  }
  static MF_FORCE_INLINE vec nan_to(const vec& a, const vec& replacement) noexcept {
    return _mm256_blendv_ps(a, replacement, _mm256_cmp_ps(a, a, _CMP_UNORD_Q));
  }
  static MF_FORCE_INLINE vec where_nan(const vec& y, const vec& otherwise) noexcept {
    return _mm256_blendv_ps(otherwise, y, _mm256_cmp_ps(y, y, _CMP_UNORD_Q));
  }

  // The reduced_precision steps; the scalar float_ops say what each does.
  // AVX2 has no per-instruction rounding mode. MXCSR's rounding control
  // (bits 13-14: 01 toward -Inf, 11 toward zero; Intel SDM vol. 1, 10.2.3)
  // sets it for every following instruction: the tile switches it around
  // each run of products (rounding_begin, rounding_end), and the plain FMA
  // then rounds in the model's direction. (The nudges below remain for the
  // block variant's conversions from int32.)
  static constexpr bool has_directed_fma = false;
  static constexpr bool has_rounding_control = true;
  // Nothing in C++ orders float arithmetic after a write of MXCSR (see
  // target/float_environment.hpp: GCC's scheduler keeps a volatile asm in
  // place, but earlier passes, and clang, may move arithmetic across it),
  // so the order is carried by data. Both functions change only the
  // rounding bits (the tile runs in the default environment: nearest even,
  // no DAZ or FTZ), keep the exception flags, and return +0 in every lane
  // from the same asm statement as the write: a run's partial sums start
  // from rounding_begin's value, so every FMA of the run comes after it;
  // rounding_end takes every partial sum (ORed into one vector) as an
  // input, so every FMA comes before it, and the caller ORs its +0 into
  // each partial sum before using it, so every use comes after it. The
  // previous run's additions come before rounding_begin through memory:
  // they are stored to C, and rounding_begin clobbers memory.
  static MF_FORCE_INLINE vec rounding_begin(bool downward) noexcept {
    vec zero;
    std::uint32_t csr;
    const std::uint32_t direction = downward ? 0x2000u : 0x6000u;
    __asm__ volatile(
        "vstmxcsr %[csr]\n\t"
        "andl $0xFFFF9FFF, %[csr]\n\t"
        "orl %[direction], %[csr]\n\t"
        "vldmxcsr %[csr]\n\t"
        "vxorps %[zero], %[zero], %[zero]"
        : [zero] "=x"(zero), [csr] "=m"(csr)
        : [direction] "r"(direction)
        : "memory");
    return zero;
  }
  static MF_FORCE_INLINE vec rounding_end(const vec& every_result) noexcept {
    vec zero;
    std::uint32_t csr;
    __asm__ volatile(
        "vstmxcsr %[csr]\n\t"
        "andl $0xFFFF9FFF, %[csr]\n\t"
        "vldmxcsr %[csr]\n\t"
        "vxorps %[zero], %[zero], %[zero]"
        : [zero] "=x"(zero), [csr] "=m"(csr)
        : [results] "x"(every_result));
    return zero;
  }
  static MF_FORCE_INLINE vec bit_or(const vec& a, const vec& b) noexcept { return _mm256_or_ps(a, b); }
  static MF_FORCE_INLINE vec sub(const vec& a, const vec& b) noexcept { return _mm256_sub_ps(a, b); }
  static MF_FORCE_INLINE vec broadcast_bits(std::uint32_t bits) noexcept {
    return _mm256_castsi256_ps(_mm256_set1_epi32(static_cast<int>(bits)));
  }
  static MF_FORCE_INLINE vec nudge_toward_zero(const vec& s, const vec& e) noexcept {
    // The sign bit of s ^ e where e != 0, spread by the shift into -1 or 0.
    const vec opposite = _mm256_and_ps(_mm256_xor_ps(s, e), _mm256_cmp_ps(e, _mm256_setzero_ps(), _CMP_NEQ_OQ));
    const __m256i step = _mm256_srai_epi32(_mm256_castps_si256(opposite), 31);
    return _mm256_castsi256_ps(_mm256_add_epi32(_mm256_castps_si256(s), step));
  }
  static MF_FORCE_INLINE vec nudge_down(const vec& s, const vec& e) noexcept {
    const __m256i bits = _mm256_castps_si256(s);
    // +1 for a negative s, -1 for a positive one, where e < 0.
    const __m256i direction = _mm256_sub_epi32(_mm256_slli_epi32(_mm256_srli_epi32(bits, 31), 1), _mm256_set1_epi32(1));
    const __m256i below = _mm256_castps_si256(_mm256_cmp_ps(e, _mm256_setzero_ps(), _CMP_LT_OQ));
    return _mm256_castsi256_ps(_mm256_add_epi32(bits, _mm256_and_si256(below, direction)));
  }
  static MF_FORCE_INLINE vec bit_and(const vec& y, const vec& keep) noexcept { return _mm256_and_ps(y, keep); }
  static MF_FORCE_INLINE vec floor_significand_of_number(const vec& y, const vec& keep) noexcept {
    const __m256i bits = _mm256_castps_si256(y);
    const __m256i cut = _mm256_andnot_si256(_mm256_castps_si256(keep), _mm256_set1_epi32(-1));
    const __m256i raised = _mm256_add_epi32(bits, _mm256_and_si256(_mm256_srai_epi32(bits, 31), cut));
    return _mm256_and_ps(_mm256_castsi256_ps(raised), keep);
  }
  static MF_FORCE_INLINE vec floor_significand(const vec& y, const vec& keep) noexcept {
    return where_nan(y, floor_significand_of_number(y, keep));
  }

  // The block variant of reduced_precision; the scalar float_ops say what
  // each does.
  using ivec = __m256i;
  static MF_FORCE_INLINE ivec int_broadcast(std::int32_t x) noexcept { return _mm256_set1_epi32(x); }
  static MF_FORCE_INLINE ivec int_add(const ivec& a, const ivec& b) noexcept { return _mm256_add_epi32(a, b); }
  static MF_FORCE_INLINE ivec int_sub(const ivec& a, const ivec& b) noexcept { return _mm256_sub_epi32(a, b); }
  static MF_FORCE_INLINE vec max_magnitude(const vec& m, const vec& p) noexcept {
    const __m256i magnitude = _mm256_and_si256(_mm256_castps_si256(p), _mm256_set1_epi32(0x7FFFFFFF));
    return _mm256_castsi256_ps(_mm256_max_epu32(_mm256_castps_si256(m), magnitude));
  }
  static MF_FORCE_INLINE bool any_at_least(const vec& m, const vec& limit) noexcept {
    // Both patterns are below 2^31: a signed comparison orders them.
    const __m256i below = _mm256_cmpgt_epi32(_mm256_castps_si256(limit), _mm256_castps_si256(m));
    return _mm256_movemask_ps(_mm256_castsi256_ps(below)) != 0xFF;
  }
  static MF_FORCE_INLINE ivec biased_exponent(const vec& m) noexcept {
    return _mm256_srli_epi32(_mm256_castps_si256(m), 23);
  }
  static MF_FORCE_INLINE vec power_of_two(const ivec& biased) noexcept {
    return _mm256_castsi256_ps(_mm256_slli_epi32(biased, 23));
  }
  static MF_FORCE_INLINE ivec to_int_toward_zero(const vec& v) noexcept { return _mm256_cvttps_epi32(v); }
  static MF_FORCE_INLINE ivec to_int_floor(const vec& v) noexcept {
    return _mm256_cvttps_epi32(_mm256_round_ps(v, _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC));
  }
  static MF_FORCE_INLINE vec from_int_toward_zero(const ivec& x) noexcept {
    const vec f = _mm256_cvtepi32_ps(x);
    return nudge_toward_zero(f, _mm256_cvtepi32_ps(_mm256_sub_epi32(x, _mm256_cvttps_epi32(f))));
  }
  static MF_FORCE_INLINE vec from_int_floor(const ivec& x) noexcept {
    const vec f = _mm256_cvtepi32_ps(x);
    return nudge_down(f, _mm256_cvtepi32_ps(_mm256_sub_epi32(x, _mm256_cvttps_epi32(f))));
  }
};

// Four float64 lanes, with the few steps the exact kernels need beyond FMA
// (the one-lane version in simd/scalar/vector_ops.hpp says what each does).
struct double_ops {
  using value = double;
  using vec = __m256d;
  static constexpr int lanes = 4;
  static MF_FORCE_INLINE vec zero() noexcept { return _mm256_setzero_pd(); }
  static MF_FORCE_INLINE vec loadu(const double* p) noexcept { return _mm256_loadu_pd(p); }
  static MF_FORCE_INLINE vec broadcast(double x) noexcept { return _mm256_set1_pd(x); }
  static MF_FORCE_INLINE vec fma(const vec& a, const vec& b, const vec& c) noexcept {
    return _mm256_fmadd_pd(a, b, c);
  }
  static MF_FORCE_INLINE void storeu(double* p, const vec& v) noexcept { _mm256_storeu_pd(p, v); }
  static MF_FORCE_INLINE vec add(const vec& a, const vec& b) noexcept { return _mm256_add_pd(a, b); }
  static MF_FORCE_INLINE vec sub(const vec& a, const vec& b) noexcept { return _mm256_sub_pd(a, b); }
  static MF_FORCE_INLINE vec load_widened(const float* p) noexcept {
    return _mm256_cvtps_pd(_mm_loadu_ps(p));
  }
  static MF_FORCE_INLINE void store_narrowed(float* p, const vec& v) noexcept {
    _mm_storeu_ps(p, _mm256_cvtpd_ps(v));
  }
  // Rounded to nearest, then one step toward zero where that went past v.
  static MF_FORCE_INLINE vec narrowed_toward_zero(const vec& v) noexcept {
    const __m128 nearest = _mm256_cvtpd_ps(v);
    const __m256d sign = _mm256_set1_pd(-0.0);
    const __m256d past = _mm256_cmp_pd(_mm256_andnot_pd(sign, _mm256_cvtps_pd(nearest)),
                                       _mm256_andnot_pd(sign, v), _CMP_GT_OQ);
    // The 64-bit lane masks as 32-bit ones: 1.0 where past, converted.
    const __m128 step = _mm_cmpneq_ps(_mm256_cvtpd_ps(_mm256_and_pd(past, _mm256_set1_pd(1.0))), _mm_setzero_ps());
    const __m128i bits = _mm_add_epi32(_mm_castps_si128(nearest), _mm_castps_si128(step));  // -1 where past
    return _mm256_cvtps_pd(_mm_castsi128_ps(bits));
  }
  static MF_FORCE_INLINE vec narrowed(const vec& v) noexcept { return _mm256_cvtps_pd(_mm256_cvtpd_ps(v)); }
  static MF_FORCE_INLINE vec round_to_odd(const vec& t, const vec& error) noexcept {
    const __m256i bits = _mm256_castpd_si256(t);
    const __m256i one = _mm256_set1_epi64x(1);
    const __m256i inexact = _mm256_castpd_si256(_mm256_cmp_pd(error, _mm256_setzero_pd(), _CMP_NEQ_OQ));
    const __m256i even = _mm256_cmpeq_epi64(_mm256_and_si256(bits, one), _mm256_setzero_si256());
    const __m256i step = _mm256_and_si256(inexact, even);
    // signs differ: the xor is negative as an int64
    const __m256i differ = _mm256_cmpgt_epi64(_mm256_setzero_si256(),
                                              _mm256_xor_si256(bits, _mm256_castpd_si256(error)));
    const __m256i up = _mm256_and_si256(_mm256_andnot_si256(differ, step), one);
    const __m256i down = _mm256_and_si256(_mm256_and_si256(differ, step), one);
    return _mm256_castsi256_pd(_mm256_sub_epi64(_mm256_add_epi64(bits, up), down));
  }
};

}  // namespace mf::simd::avx2
MF_SIMD_REGION_END
#endif
