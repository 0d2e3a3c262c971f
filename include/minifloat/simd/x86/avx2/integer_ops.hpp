// AVX2 operations on eight 32-bit integer lanes, for the generic kernels
// (lanes/, bulk/generic/, mx/generic/). A mask is a vector of all-ones /
// all-zero lanes. equal / less / greater are signed: the generic kernels
// use them only on lanes below 2^31 (magnitudes of encodings and float bit
// patterns); less_unsigned compares the whole 32 bits.
#pragma once

#include <cstdint>

#include "../../float_add_rounding.hpp"
#include "../../../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include "../../../target/x86_intrinsics.hpp"

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
  static MF_FORCE_INLINE vec sub(vec a, vec b) noexcept { return _mm256_sub_epi32(a, b); }
  // a | (b & c).
  static MF_FORCE_INLINE vec bit_or_and(vec a, vec b, vec c) noexcept {
    return _mm256_or_si256(a, _mm256_and_si256(b, c));
  }
  // a | (b & c) where a is non-zero, a (0) elsewhere.
  static MF_FORCE_INLINE vec bit_or_and_if_nonzero(vec a, vec b, vec c) noexcept {
    return _mm256_or_si256(a, _mm256_andnot_si256(_mm256_cmpeq_epi32(a, _mm256_setzero_si256()),
                                                  _mm256_and_si256(b, c)));
  }
  static MF_FORCE_INLINE vec max_signed(vec a, vec b) noexcept { return _mm256_max_epi32(a, b); }
  static MF_FORCE_INLINE vec min_signed(vec a, vec b) noexcept { return _mm256_min_epi32(a, b); }
  template <int Bits>
  static MF_FORCE_INLINE vec shift_left(vec a) noexcept {
    return _mm256_slli_epi32(a, Bits);
  }
  template <int Bits>
  static MF_FORCE_INLINE vec shift_right(vec a) noexcept {
    return _mm256_srli_epi32(a, Bits);
  }
  // The largest lane count the variable shifts take: VPSRLVD / VPSLLVD read
  // the whole lane as unsigned and give 0 from 32 on, so any count does.
  static constexpr int variable_shift_limit = 1 << 30;
  // Logical right shift by each lane's count (0 from 32 on).
  static MF_FORCE_INLINE vec shift_right_variable(vec a, vec count) noexcept {
    return _mm256_srlv_epi32(a, count);
  }
  // Left shift by each lane's count, right by minus it where negative; 0
  // where the count is 32 or more either way (one of the two shifts sees a
  // count above 2^31 and gives 0).
  static MF_FORCE_INLINE vec shift_left_signed(vec a, vec count) noexcept {
    return _mm256_or_si256(_mm256_sllv_epi32(a, count),
                           _mm256_srlv_epi32(a, _mm256_sub_epi32(_mm256_setzero_si256(), count)));
  }
  // The float bits of a + b (as floats) in MXCSR's rounding: callers check
  // that it holds round-to-nearest, no DAZ, exceptions masked (the
  // kernels' loops read it once per call).
  static MF_FORCE_INLINE vec add_float_nearest(vec a, vec b) noexcept {
    return _mm256_castps_si256(_mm256_add_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
  }
  static constexpr float_add_rounding float_add = float_add_rounding::environment;
  // MXCSR holds round-to-nearest, no DAZ and every exception masked (the
  // add is inexact in nearly every lane, and reads subnormals): bits 6-14
  // as in the default 0x1F80 (Intel SDM vol. 1, 10.2.3). FTZ (bit 15)
  // does not matter: the sums are far from float's subnormals.
  static MF_FORCE_INLINE bool float_add_is_nearest() noexcept {
    return (_mm_getcsr() & 0x7FC0u) == 0x1F80u;
  }
  // The float bits of a * b (as floats), rounded as MXCSR says: as the
  // scalar product of the same thread.
  static MF_FORCE_INLINE vec multiply_float(vec a, vec b) noexcept {
    return _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(a), _mm256_castsi256_ps(b)));
  }
  static MF_FORCE_INLINE vec load(const void* p) noexcept {
    return _mm256_loadu_si256(static_cast<const __m256i*>(p));
  }
  // p aligned to 32 bytes.
  static MF_FORCE_INLINE vec load_aligned(const void* p) noexcept {
    return _mm256_load_si256(static_cast<const __m256i*>(p));
  }
  static MF_FORCE_INLINE void store(void* p, vec a) noexcept {
    _mm256_storeu_si256(static_cast<__m256i*>(p), a);
  }
  // One vector of 1- or 2-byte encodings, zero-extended to the lanes: a
  // load per vector (vpmovzx* from memory) is as cheap as any other way.
  static constexpr bool widens_four_at_once = false;
  template <class S>
  static MF_FORCE_INLINE vec load_widened(const S* in) noexcept {
    static_assert(sizeof(S) == 1 || sizeof(S) == 2, "one or two byte encodings");
    if constexpr (sizeof(S) == 1) {
      return _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(in)));
    } else {
      return _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in)));
    }
  }
  static MF_FORCE_INLINE vec max_unsigned(vec a, vec b) noexcept { return _mm256_max_epu32(a, b); }
  static MF_FORCE_INLINE std::uint32_t reduce_max_unsigned(vec a) noexcept {
    const __m128i half = _mm_max_epu32(_mm256_castsi256_si128(a), _mm256_extracti128_si256(a, 1));
    const __m128i quarter = _mm_max_epu32(half, _mm_shuffle_epi32(half, 0x4E));
    return static_cast<std::uint32_t>(
        _mm_cvtsi128_si32(_mm_max_epu32(quarter, _mm_shuffle_epi32(quarter, 0xB1))));
  }
  // Lane b of the result: the largest lane (unsigned) of m[b]. Pairs of
  // vectors are merged with in-lane unpacks (dwords, then qwords), then the
  // two 128-bit halves, each step halving the vector count.
  static MF_FORCE_INLINE vec reduce_max_each(const vec (&m)[lanes]) noexcept {
    __m256i t[4];
    MF_UNROLL
    for (int i = 0; i < 4; ++i) {
      t[i] = _mm256_max_epu32(_mm256_unpacklo_epi32(m[2 * i], m[2 * i + 1]),
                              _mm256_unpackhi_epi32(m[2 * i], m[2 * i + 1]));
    }
    __m256i u[2];
    MF_UNROLL
    for (int i = 0; i < 2; ++i) {
      u[i] = _mm256_max_epu32(_mm256_unpacklo_epi64(t[2 * i], t[2 * i + 1]),
                              _mm256_unpackhi_epi64(t[2 * i], t[2 * i + 1]));
    }
    return _mm256_max_epu32(_mm256_permute2x128_si256(u[0], u[1], 0x20),
                            _mm256_permute2x128_si256(u[0], u[1], 0x31));
  }
  // The low bytes of the lanes (each below 256) to out[0..8).
  static MF_FORCE_INLINE void store_low_bytes(void* out, vec a) noexcept {
    // Bytes 0..3 of each 128-bit half: the low bytes of its four lanes.
    const __m256i b = _mm256_shuffle_epi8(
        a, _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 4, 8,
                            12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    _mm_storel_epi64(static_cast<__m128i*>(out),
                     _mm_unpacklo_epi32(_mm256_castsi256_si128(b), _mm256_extracti128_si256(b, 1)));
  }
  // Lanes below 16, two to a byte (lane 2i in the low nibble of byte i), to
  // out[0..4): the packed FP4 layout.
  static MF_FORCE_INLINE void store_nibble_pairs(void* out, vec a) noexcept {
    // The low byte of qword i becomes lane 2i | lane 2i+1 << 4.
    const __m256i pairs = _mm256_or_si256(a, _mm256_srli_epi64(a, 28));
    const __m256i b = _mm256_shuffle_epi8(
        pairs, _mm256_setr_epi8(0, 8, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 8,
                                -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1));
    const int word = _mm_cvtsi128_si32(
        _mm_unpacklo_epi16(_mm256_castsi256_si128(b), _mm256_extracti128_si256(b, 1)));
    __builtin_memcpy(out, &word, 4);
  }
  // A table of 8 lanes for lookup8: one register.
  using table8 = __m256i;
  static MF_FORCE_INLINE table8 make_table8(const std::uint32_t (&entries)[8]) noexcept {
    return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(entries));
  }
  // Lane i: entry (index_i mod 8) of the table.
  static MF_FORCE_INLINE vec lookup8(table8 table, vec index) noexcept {
    return _mm256_permutevar8x32_epi32(table, index);  // reads the low 3 bits
  }
  // in[0..4) spread over the 8 lanes, the inverse of store_nibble_pairs:
  // lane 2i holds the low nibble of byte i in its bits 0..3, lane 2i+1 the
  // high nibble. The bits above are not cleared (a caller that needs the
  // bare codes masks them).
  static MF_FORCE_INLINE vec load_nibbles(const void* in) noexcept {
    int word = 0;
    __builtin_memcpy(&word, in, 4);
    const __m256i q = _mm256_cvtepu8_epi64(_mm_cvtsi32_si128(word));
    return _mm256_or_si256(q, _mm256_slli_epi64(q, 28));
  }
  static MF_FORCE_INLINE mask equal(vec a, vec b) noexcept { return _mm256_cmpeq_epi32(a, b); }
  static MF_FORCE_INLINE mask less(vec a, vec b) noexcept { return _mm256_cmpgt_epi32(b, a); }
  static MF_FORCE_INLINE mask greater(vec a, vec b) noexcept { return _mm256_cmpgt_epi32(a, b); }
  // Unsigned a < b: not (max(a, b) == a), AVX2 having no unsigned compare.
  static MF_FORCE_INLINE mask less_unsigned(vec a, vec b) noexcept {
    return _mm256_xor_si256(_mm256_cmpeq_epi32(_mm256_max_epu32(a, b), a),
                            _mm256_set1_epi32(-1));
  }
  static MF_FORCE_INLINE mask is_zero(vec a) noexcept {
    return _mm256_cmpeq_epi32(a, _mm256_setzero_si256());
  }
  // The lanes whose sign bit is set.
  static MF_FORCE_INLINE mask negative_lanes(vec a) noexcept { return _mm256_srai_epi32(a, 31); }
  static MF_FORCE_INLINE mask mask_and(mask a, mask b) noexcept { return _mm256_and_si256(a, b); }
  // a and not b.
  static MF_FORCE_INLINE mask mask_and_not(mask a, mask b) noexcept {
    return _mm256_andnot_si256(b, a);
  }
  // The lanes of m where a is non-zero.
  static MF_FORCE_INLINE mask nonzero_within(mask m, vec a) noexcept {
    return _mm256_andnot_si256(_mm256_cmpeq_epi32(a, _mm256_setzero_si256()), m);
  }
  static MF_FORCE_INLINE bool any(mask m) noexcept { return _mm256_testz_si256(m, m) == 0; }
  // where(m): if_true, else if_false.
  static MF_FORCE_INLINE vec select(mask m, vec if_true, vec if_false) noexcept {
    return _mm256_blendv_epi8(if_false, if_true, m);
  }
  // where(m): a, else 0.
  static MF_FORCE_INLINE vec keep_where(mask m, vec a) noexcept { return _mm256_and_si256(m, a); }
  // where(m): 0, else a.
  static MF_FORCE_INLINE vec clear_where(mask m, vec a) noexcept {
    return _mm256_andnot_si256(m, a);
  }
  // where(m): a | b, else a.
  static MF_FORCE_INLINE vec or_where(mask m, vec a, vec b) noexcept {
    return _mm256_or_si256(a, _mm256_and_si256(m, b));
  }
  // where(m): a + 1, else a (a mask lane is -1).
  static MF_FORCE_INLINE vec increment_where(mask m, vec a) noexcept {
    return _mm256_sub_epi32(a, m);
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

// AVX2 operations on sixteen 16-bit integer lanes: the encodes through
// binary16 (bulk/generic/binary16_lanes.hpp), whose lanes hold binary16 bit
// patterns and then encodings of at most 8 bits. equal / greater are
// signed, used on magnitudes below 2^15.
struct int16_ops {
  using vec = __m256i;
  using mask = __m256i;
  static constexpr int lanes = 16;
  static MF_FORCE_INLINE vec splat(std::uint32_t x) noexcept {
    return _mm256_set1_epi16(static_cast<short>(x));
  }
  static MF_FORCE_INLINE vec bit_and(vec a, vec b) noexcept { return _mm256_and_si256(a, b); }
  template <int Bits>
  static MF_FORCE_INLINE vec shift_right(vec a) noexcept {
    return _mm256_srli_epi16(a, Bits);
  }
  static MF_FORCE_INLINE mask equal(vec a, vec b) noexcept { return _mm256_cmpeq_epi16(a, b); }
  static MF_FORCE_INLINE mask greater(vec a, vec b) noexcept { return _mm256_cmpgt_epi16(a, b); }
  static MF_FORCE_INLINE mask is_zero(vec a) noexcept {
    return _mm256_cmpeq_epi16(a, _mm256_setzero_si256());
  }
  static MF_FORCE_INLINE mask negative_lanes(vec a) noexcept { return _mm256_srai_epi16(a, 15); }
  static MF_FORCE_INLINE vec select(mask m, vec if_true, vec if_false) noexcept {
    return _mm256_blendv_epi8(if_false, if_true, m);
  }
  static MF_FORCE_INLINE vec clear_where(mask m, vec a) noexcept {
    return _mm256_andnot_si256(m, a);
  }
  static MF_FORCE_INLINE vec or_where(mask m, vec a, vec b) noexcept {
    return _mm256_or_si256(a, _mm256_and_si256(m, b));
  }
  // The floats a then b (bit patterns, 8 lanes each) as binary16, rounded
  // toward zero: the rounding is the instruction's immediate, so MXCSR
  // cannot change it; a finite float never becomes Inf.
  static MF_FORCE_INLINE vec binary16_toward_zero(__m256i a, __m256i b) noexcept {
    constexpr int toward_zero = _MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC;
    const __m128i low = _mm256_cvtps_ph(_mm256_castsi256_ps(a), toward_zero);
    const __m128i high = _mm256_cvtps_ph(_mm256_castsi256_ps(b), toward_zero);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(low), high, 1);
  }
  // The low bytes of the lanes of a then b (each below 256), in order.
  static MF_FORCE_INLINE vec low_bytes(vec a, vec b) noexcept {
    const __m256i bytes = _mm256_packus_epi16(a, b);  // a0-7 b0-7 | a8-15 b8-15
    return _mm256_permute4x64_epi64(bytes, 0xD8);
  }
  static MF_FORCE_INLINE void store(void* out, vec a) noexcept {
    _mm256_storeu_si256(static_cast<__m256i*>(out), a);
  }
};

}  // namespace mf::simd::avx2
MF_SIMD_REGION_END
#endif
