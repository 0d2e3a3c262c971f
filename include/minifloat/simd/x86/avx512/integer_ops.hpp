// AVX-512 operations on sixteen 32-bit integer lanes, for the generic
// kernels (lanes/, bulk/generic/, mx/generic/). A mask is an opmask register (__mmask16).
#pragma once

#include <cstdint>

#include "../../float_add_rounding.hpp"
#include "../../../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include "../../../target/x86_intrinsics.hpp"

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
  static MF_FORCE_INLINE vec sub(vec a, vec b) noexcept { return _mm512_sub_epi32(a, b); }
  // a | (b & c) in one instruction.
  static MF_FORCE_INLINE vec bit_or_and(vec a, vec b, vec c) noexcept {
    return _mm512_ternarylogic_epi32(a, b, c, 0xF8);
  }
  // a | (b & c) where a is non-zero, a (0) elsewhere: a masked VPTERNLOGD.
  static MF_FORCE_INLINE vec bit_or_and_if_nonzero(vec a, vec b, vec c) noexcept {
    return _mm512_mask_ternarylogic_epi32(a, _mm512_test_epi32_mask(a, a), b, c, 0xF8);
  }
  static MF_FORCE_INLINE vec max_signed(vec a, vec b) noexcept { return _mm512_max_epi32(a, b); }
  static MF_FORCE_INLINE vec min_signed(vec a, vec b) noexcept { return _mm512_min_epi32(a, b); }
  template <int Bits>
  static MF_FORCE_INLINE vec shift_left(vec a) noexcept {
    return _mm512_slli_epi32(a, Bits);
  }
  template <int Bits>
  static MF_FORCE_INLINE vec shift_right(vec a) noexcept {
    return _mm512_srli_epi32(a, Bits);
  }
  // The largest lane count the variable shifts take: VPSRLVD / VPSLLVD read
  // the whole lane as unsigned and give 0 from 32 on, so any count does.
  static constexpr int variable_shift_limit = 1 << 30;
  // Logical right shift by each lane's count (0 from 32 on).
  static MF_FORCE_INLINE vec shift_right_variable(vec a, vec count) noexcept {
    return _mm512_srlv_epi32(a, count);
  }
  // Left shift by each lane's count, right by minus it where negative; 0
  // where the count is 32 or more either way (one of the two shifts sees a
  // count above 2^31 and gives 0).
  static MF_FORCE_INLINE vec shift_left_signed(vec a, vec count) noexcept {
    return _mm512_or_si512(_mm512_sllv_epi32(a, count),
                           _mm512_srlv_epi32(a, _mm512_sub_epi32(_mm512_setzero_si512(), count)));
  }
  // The float bits of a + b (as floats) rounded to nearest, ties to even,
  // whatever MXCSR holds: embedded rounding {rn-sae}.
  static MF_FORCE_INLINE vec add_float_nearest(vec a, vec b) noexcept {
    return _mm512_castps_si512(_mm512_add_round_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b),
                                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  static constexpr float_add_rounding float_add = float_add_rounding::nearest_always;
  // The float bits of a * b (as floats), rounded as MXCSR says: as the
  // scalar product of the same thread.
  static MF_FORCE_INLINE vec multiply_float(vec a, vec b) noexcept {
    return _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(a), _mm512_castsi512_ps(b)));
  }
  static MF_FORCE_INLINE vec load(const void* p) noexcept { return _mm512_loadu_si512(p); }
  // p aligned to 64 bytes.
  static MF_FORCE_INLINE vec load_aligned(const void* p) noexcept { return _mm512_load_si512(p); }
  static MF_FORCE_INLINE void store(void* p, vec a) noexcept { _mm512_storeu_si512(p, a); }
  // One vector of 1- or 2-byte encodings, zero-extended to the lanes: a
  // load per vector (vpmovzx* from memory) is as cheap as any other way.
  static constexpr bool widens_four_at_once = false;
  template <class S>
  static MF_FORCE_INLINE vec load_widened(const S* in) noexcept {
    static_assert(sizeof(S) == 1 || sizeof(S) == 2, "one or two byte encodings");
    if constexpr (sizeof(S) == 1) {
      return _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in)));
    } else {
      return _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in)));
    }
  }
  static MF_FORCE_INLINE vec max_unsigned(vec a, vec b) noexcept { return _mm512_max_epu32(a, b); }
  static MF_FORCE_INLINE std::uint32_t reduce_max_unsigned(vec a) noexcept {
    return static_cast<std::uint32_t>(_mm512_reduce_max_epu32(a));
  }
  // Lane b of the result: the largest lane (unsigned) of m[b]. Pairs of
  // vectors are merged with in-lane unpacks, then 128-bit lanes with
  // shuffles, each step halving the vector count.
  static MF_FORCE_INLINE vec reduce_max_each(const vec (&m)[lanes]) noexcept {
    __m512i t[8];
    MF_UNROLL
    for (int i = 0; i < 8; ++i) {
      t[i] = _mm512_max_epu32(_mm512_unpacklo_epi32(m[2 * i], m[2 * i + 1]),
                              _mm512_unpackhi_epi32(m[2 * i], m[2 * i + 1]));
    }
    __m512i u[4];
    MF_UNROLL
    for (int i = 0; i < 4; ++i) {
      u[i] = _mm512_max_epu32(_mm512_unpacklo_epi64(t[2 * i], t[2 * i + 1]),
                              _mm512_unpackhi_epi64(t[2 * i], t[2 * i + 1]));
    }
    __m512i v[2];
    MF_UNROLL
    for (int i = 0; i < 2; ++i) {
      v[i] = _mm512_max_epu32(_mm512_shuffle_i32x4(u[2 * i], u[2 * i + 1], 0x88),
                              _mm512_shuffle_i32x4(u[2 * i], u[2 * i + 1], 0xDD));
    }
    return _mm512_max_epu32(_mm512_shuffle_i32x4(v[0], v[1], 0x88),
                            _mm512_shuffle_i32x4(v[0], v[1], 0xDD));
  }
  // The low bytes of the lanes (each below 256) to out[0..16).
  static MF_FORCE_INLINE void store_low_bytes(void* out, vec a) noexcept {
    _mm_storeu_si128(static_cast<__m128i*>(out), _mm512_cvtepi32_epi8(a));
  }
  // Lanes below 16, two to a byte (lane 2i in the low nibble of byte i), to
  // out[0..8): the packed FP4 layout.
  static MF_FORCE_INLINE void store_nibble_pairs(void* out, vec a) noexcept {
    // Lane 2i sits in the low dword of a qword, lane 2i+1 in the high one.
    const __m512i pairs = _mm512_or_si512(a, _mm512_srli_epi64(a, 28));
    _mm_storel_epi64(static_cast<__m128i*>(out), _mm512_cvtepi64_epi8(pairs));
  }
  // Compares of lanes below 2^31 (the generic kernels' magnitudes, exponent
  // fields and encodings): unsigned here, signed in the AVX2 set; alike there.
  static MF_FORCE_INLINE mask equal(vec a, vec b) noexcept { return _mm512_cmpeq_epi32_mask(a, b); }
  static MF_FORCE_INLINE mask less(vec a, vec b) noexcept { return _mm512_cmplt_epu32_mask(a, b); }
  static MF_FORCE_INLINE mask greater(vec a, vec b) noexcept {
    return _mm512_cmpgt_epu32_mask(a, b);
  }
  // Unsigned a < b over the whole 32 bits (a carry out of a sum).
  static MF_FORCE_INLINE mask less_unsigned(vec a, vec b) noexcept {
    return _mm512_cmplt_epu32_mask(a, b);
  }
  static MF_FORCE_INLINE mask is_zero(vec a) noexcept { return _mm512_testn_epi32_mask(a, a); }
  // The lanes whose sign bit is set.
  static MF_FORCE_INLINE mask negative_lanes(vec a) noexcept { return _mm512_movepi32_mask(a); }
  static MF_FORCE_INLINE mask mask_and(mask a, mask b) noexcept {
    return static_cast<mask>(a & b);
  }
  // a and not b.
  static MF_FORCE_INLINE mask mask_and_not(mask a, mask b) noexcept {
    return static_cast<mask>(a & ~b);
  }
  // The lanes of m where a is non-zero: a masked VPTESTMD.
  static MF_FORCE_INLINE mask nonzero_within(mask m, vec a) noexcept {
    return _mm512_mask_test_epi32_mask(m, a, a);
  }
  static MF_FORCE_INLINE bool any(mask m) noexcept { return m != 0; }
  // where(m): if_true, else if_false.
  static MF_FORCE_INLINE vec select(mask m, vec if_true, vec if_false) noexcept {
    return _mm512_mask_mov_epi32(if_false, m, if_true);
  }
  // where(m): a, else 0.
  static MF_FORCE_INLINE vec keep_where(mask m, vec a) noexcept {
    return _mm512_maskz_mov_epi32(m, a);
  }
  // where(m): 0, else a.
  static MF_FORCE_INLINE vec clear_where(mask m, vec a) noexcept {
    return _mm512_mask_mov_epi32(a, m, _mm512_setzero_si512());
  }
  // where(m): a | b, else a.
  static MF_FORCE_INLINE vec or_where(mask m, vec a, vec b) noexcept {
    return _mm512_mask_or_epi32(a, m, a, b);
  }
  // where(m): a + 1, else a.
  static MF_FORCE_INLINE vec increment_where(mask m, vec a) noexcept {
    return _mm512_mask_sub_epi32(a, m, a, _mm512_set1_epi32(-1));
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

// AVX-512 operations on thirty-two 16-bit integer lanes (BW): the encodes
// through binary16 (bulk/generic/binary16_lanes.hpp), whose lanes hold
// binary16 bit patterns and then encodings of at most 8 bits. A mask is an
// opmask register (__mmask32); compares are unsigned, on magnitudes.
struct int16_ops {
  using vec = __m512i;
  using mask = __mmask32;
  static constexpr int lanes = 32;
  static MF_FORCE_INLINE vec splat(std::uint32_t x) noexcept {
    return _mm512_set1_epi16(static_cast<short>(x));
  }
  static MF_FORCE_INLINE vec bit_and(vec a, vec b) noexcept { return _mm512_and_si512(a, b); }
  template <int Bits>
  static MF_FORCE_INLINE vec shift_right(vec a) noexcept {
    return _mm512_srli_epi16(a, Bits);
  }
  static MF_FORCE_INLINE mask equal(vec a, vec b) noexcept { return _mm512_cmpeq_epi16_mask(a, b); }
  static MF_FORCE_INLINE mask greater(vec a, vec b) noexcept {
    return _mm512_cmpgt_epu16_mask(a, b);
  }
  static MF_FORCE_INLINE mask is_zero(vec a) noexcept { return _mm512_testn_epi16_mask(a, a); }
  static MF_FORCE_INLINE mask negative_lanes(vec a) noexcept { return _mm512_movepi16_mask(a); }
  static MF_FORCE_INLINE vec select(mask m, vec if_true, vec if_false) noexcept {
    return _mm512_mask_mov_epi16(if_false, m, if_true);
  }
  static MF_FORCE_INLINE vec clear_where(mask m, vec a) noexcept {
    return _mm512_mask_mov_epi16(a, m, _mm512_setzero_si512());
  }
  static MF_FORCE_INLINE vec or_where(mask m, vec a, vec b) noexcept {
    return _mm512_mask_mov_epi16(a, m, _mm512_or_si512(a, b));
  }
  // The floats a then b (bit patterns, 16 lanes each) as binary16, rounded
  // toward zero: the rounding is the instruction's immediate, so MXCSR
  // cannot change it; a finite float never becomes Inf.
  // Without optimisation g++'s header makes _mm512_cvtps_ph a macro whose
  // all-ones mask (-1 into an unsigned short) a consumer's -Wsign-conversion
  // would report here, in this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"
#endif
  static MF_FORCE_INLINE vec binary16_toward_zero(__m512i a, __m512i b) noexcept {
    constexpr int toward_zero = _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC;
    const __m256i low = _mm512_cvtps_ph(_mm512_castsi512_ps(a), toward_zero);
    const __m256i high = _mm512_cvtps_ph(_mm512_castsi512_ps(b), toward_zero);
    return _mm512_inserti64x4(_mm512_castsi256_si512(low), high, 1);
  }
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
  // The low bytes of the lanes of a then b (each below 256), in order.
  static MF_FORCE_INLINE vec low_bytes(vec a, vec b) noexcept {
    // packus leaves a0-7 b0-7 | a8-15 b8-15 | ...: the quadwords back in order.
    const __m512i bytes = _mm512_packus_epi16(a, b);
    return _mm512_permutexvar_epi64(_mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7), bytes);
  }
  static MF_FORCE_INLINE void store(void* out, vec a) noexcept { _mm512_storeu_si512(out, a); }
};

}  // namespace mf::simd::avx512
MF_SIMD_REGION_END
#endif
