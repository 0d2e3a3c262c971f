// The AVX2 kernel set (AVX2 + FMA + F16C). Every function carries its own
// target attribute, so no -march flag is needed; dispatch.hpp only calls
// these after CPUID and XCR0 said the CPU and OS support them.
#pragma once

#include "../simd/target_region.hpp"
#include "../simd/x86/avx2/integer_ops.hpp"
#include "dispatch.hpp"
#include "scalar.hpp"

#if MF_BULK_X86
#include "x86_intrinsics.hpp"

#define MF_TARGET_AVX2 MF_SIMD_TARGET_ATTRIBUTE_AVX2

// The generic algorithms, compiled for AVX2.
MF_SIMD_REGION_BEGIN_AVX2
namespace mf::bulk::avx2_kernels {
#include "generic/decode_lanes.hpp"
}  // namespace mf::bulk::avx2_kernels
MF_SIMD_REGION_END

namespace mf {
namespace bulk {
namespace avx2_kernels {

MF_TARGET_AVX2 inline __m256i select_by_sign(__m256i neg, unsigned pos,
                                             unsigned negative) {
  return _mm256_blendv_epi8(_mm256_set1_epi32(static_cast<int>(pos)),
                            _mm256_set1_epi32(static_cast<int>(negative)), neg);
}

// Nearest-even fast path (signed formats with subnormals): integer rounding
// for the format's normals, a float add of a magic number for its
// subnormals (rounds at the subnormal quantum, ties to even: used only when
// MXCSR holds round-to-nearest and no DAZ, checked per call), specials chosen
// on the magnitude where the negative encoding is the positive one with the
// sign bit, then the sign.
template <class F, overflow Ovf>
struct nearest_fast_path {
  using C = detail::encode_constants<F, rounding::nearest_even, Ovf>;
  static constexpr bool eligible = F::has_subnormals && F::is_signed;
  static constexpr bool symmetric(unsigned pos, unsigned negative) {
    return negative == (pos | F::sign_mask);
  }
  static constexpr bool overflow_symmetric = symmetric(C::overflow_pos, C::overflow_neg);
  static constexpr bool nan_symmetric = symmetric(C::nan_pos, C::nan_neg);
  static constexpr bool inf_symmetric = symmetric(C::inf_pos, C::inf_neg);
  static constexpr bool inf_like_nan = C::inf_pos == C::nan_pos && C::inf_neg == C::nan_neg;
  static constexpr unsigned shift = 23u - static_cast<unsigned>(F::mantissa_bits);
  static constexpr unsigned add = ((1u << (shift - 1)) - 1u) -
                                  (static_cast<unsigned>(127 - F::bias) << 23);
  static constexpr bool small_path = F::min_exponent > -126;
  static constexpr unsigned min_normal_bits =
      static_cast<unsigned>(F::min_exponent + 127) << 23;
  static constexpr unsigned magic_bits =
      static_cast<unsigned>(F::min_exponent - F::mantissa_bits + 23 + 127) << 23;
  static constexpr int sign_shift = 31 - (F::bits - 1);
};

MF_TARGET_AVX2 inline __m256i splat(unsigned v) {
  return _mm256_set1_epi32(static_cast<int>(v));
}

template <class F, overflow Ovf>
MF_TARGET_AVX2 inline __m256i encode8_nearest(__m256i x) {
  using P = nearest_fast_path<F, Ovf>;
  using C = typename P::C;
  const __m256i a = _mm256_and_si256(x, splat(0x7FFFFFFFu));
  const __m256i lsb = _mm256_and_si256(_mm256_srli_epi32(a, P::shift), splat(1));
  __m256i mag = _mm256_srli_epi32(
      _mm256_add_epi32(_mm256_add_epi32(a, splat(P::add)), lsb), P::shift);
  if constexpr (P::small_path) {
    const __m256i sum = _mm256_castps_si256(_mm256_add_ps(
        _mm256_castsi256_ps(a), _mm256_castsi256_ps(splat(P::magic_bits))));
    mag = _mm256_blendv_epi8(
        mag, _mm256_sub_epi32(sum, splat(P::magic_bits)),
        _mm256_cmpgt_epi32(splat(P::min_normal_bits), a));
  }
  const __m256i special = _mm256_cmpgt_epi32(a, splat(0x7F7FFFFFu));
  __m256i overflowed = _mm256_cmpgt_epi32(mag, splat(C::max_finite));
  if constexpr (!P::overflow_symmetric && P::nan_symmetric) {
    overflowed = _mm256_andnot_si256(special, overflowed);
  }
  __m256i is_inf = _mm256_setzero_si256();
  if constexpr (!P::inf_like_nan) is_inf = _mm256_cmpeq_epi32(a, splat(0x7F800000u));
  if constexpr (P::overflow_symmetric) {
    mag = _mm256_blendv_epi8(mag, splat(C::overflow_pos), overflowed);
  }
  if constexpr (P::nan_symmetric) {
    mag = _mm256_blendv_epi8(mag, splat(C::nan_pos), special);
  }
  if constexpr (!P::inf_like_nan && P::inf_symmetric && P::nan_symmetric) {
    mag = _mm256_blendv_epi8(mag, splat(C::inf_pos), is_inf);
  }
  __m256i sign = _mm256_and_si256(_mm256_srli_epi32(x, P::sign_shift), splat(F::sign_mask));
  if constexpr (F::encoding == specials::fnuz) {
    sign = _mm256_andnot_si256(_mm256_cmpeq_epi32(mag, _mm256_setzero_si256()), sign);
  }
  __m256i res = _mm256_or_si256(mag, sign);
  if constexpr (!P::overflow_symmetric || !P::nan_symmetric || !P::inf_symmetric) {
    const __m256i neg = _mm256_srai_epi32(x, 31);
    if constexpr (!P::overflow_symmetric) {
      res = _mm256_blendv_epi8(res, select_by_sign(neg, C::overflow_pos, C::overflow_neg),
                               overflowed);
    }
    if constexpr (!P::nan_symmetric) {
      res = _mm256_blendv_epi8(res, select_by_sign(neg, C::nan_pos, C::nan_neg), special);
    }
    if constexpr (!P::inf_like_nan && !(P::inf_symmetric && P::nan_symmetric)) {
      res = _mm256_blendv_epi8(res, select_by_sign(neg, C::inf_pos, C::inf_neg), is_inf);
    }
  }
  return res;
}

// What the general encoders (encode8 and the stochastic rule of
// stochastic_avx2.hpp) take apart in 8 float bit patterns.
struct float_parts8 {
  __m256i a;     // |x| bits
  __m256i neg;   // all ones in the lanes holding a negative input
  __m256i E;     // the float exponent field
  __m256i sig;   // significand with its hidden bit (none for float subnormals)
  __m256i s;     // right shift from the significand to the format's quantum
  __m256i base;  // (q + bias - 1) << M: the exponent field minus the hidden bit of kept
};

// C: detail::encode_constants. ClampShift: s at most 25 where it can be more
// (a shift of 25 rounds any 24-bit significand to 0 or 1 quantum, and keeps
// the rounding constants' shifts below 32); the stochastic rule needs s
// unclamped for its fraction bits.
template <class C, bool ClampShift>
MF_TARGET_AVX2 inline float_parts8 split8(__m256i x) {
  float_parts8 p;
  p.a = _mm256_and_si256(x, _mm256_set1_epi32(0x7FFFFFFF));
  p.neg = _mm256_srai_epi32(x, 31);
  p.E = _mm256_srli_epi32(p.a, 23);
  const __m256i Eeff = _mm256_max_epi32(p.E, _mm256_set1_epi32(1));
  // The significand with its hidden bit: a minus the exponent field, plus
  // one hidden bit where E >= 1.
  p.sig = _mm256_sub_epi32(
      p.a, _mm256_slli_epi32(_mm256_sub_epi32(Eeff, _mm256_set1_epi32(1)), 23));
  // 23 - M in the format's normal range, more below it.
  p.s = _mm256_max_epi32(_mm256_sub_epi32(_mm256_set1_epi32(C::shift_base), Eeff),
                         _mm256_set1_epi32(C::normal_shift));
  if constexpr (ClampShift && C::needs_clamp) {
    p.s = _mm256_min_epi32(p.s, _mm256_set1_epi32(25));
  }
  p.base = _mm256_slli_epi32(
      _mm256_max_epi32(_mm256_sub_epi32(Eeff, _mm256_set1_epi32(C::base_offset)),
                       _mm256_setzero_si256()),
      C::M);
  return p;
}

// The encoding of a rounded magnitude (at most 2^16, or past max finite):
// the sign, fnuz's single zero, overflow.
template <class F, class C>
MF_TARGET_AVX2 inline __m256i signed_encoding(__m256i mag, __m256i neg) {
  __m256i res = mag;
  if constexpr (F::is_signed) {
    res = _mm256_or_si256(res, _mm256_and_si256(neg, _mm256_set1_epi32(C::sign_mask)));
  }
  if constexpr (F::encoding == specials::fnuz) {
    // No negative zero: a negative value rounding to 0 is +0.
    res = _mm256_andnot_si256(_mm256_cmpeq_epi32(mag, _mm256_setzero_si256()), res);
  }
  const __m256i overflowed =
      _mm256_cmpgt_epi32(mag, _mm256_set1_epi32(static_cast<int>(C::max_finite)));
  return _mm256_blendv_epi8(res, select_by_sign(neg, C::overflow_pos, C::overflow_neg),
                            overflowed);
}

// fnu formats: all ones in the lanes whose float exponent field E is below
// min normal.
template <class F>
MF_TARGET_AVX2 inline __m256i below_min_normal(__m256i E) {
  return _mm256_cmpgt_epi32(_mm256_set1_epi32(F::min_exponent + 127), E);
}

// res with the inputs that do not round by magnitude put right: negative
// non-zero values in the unsigned formats, Inf and NaN (a = |x| bits).
template <class F, class C>
MF_TARGET_AVX2 inline __m256i with_special_inputs(__m256i res, __m256i a, __m256i neg) {
  if constexpr (!F::has_subnormals) {
    // No sign: negative non-zero values are NaN (-0 is +min, as scalar).
    const __m256i negative_nonzero =
        _mm256_andnot_si256(_mm256_cmpeq_epi32(a, _mm256_setzero_si256()), neg);
    res = _mm256_blendv_epi8(res, _mm256_set1_epi32(static_cast<int>(F::positive_nan)),
                             negative_nonzero);
  }
  const __m256i special = _mm256_cmpgt_epi32(a, _mm256_set1_epi32(0x7F7FFFFF));
  const __m256i is_inf = _mm256_cmpeq_epi32(a, _mm256_set1_epi32(0x7F800000));
  const __m256i special_value =
      _mm256_blendv_epi8(select_by_sign(neg, C::nan_pos, C::nan_neg),
                         select_by_sign(neg, C::inf_pos, C::inf_neg), is_inf);
  return _mm256_blendv_epi8(res, special_value, special);
}

// Encodes 8 float bit patterns into 8 encodings (32-bit lanes), mirroring
// mf::detail::round_float_bits lane-wise.
template <class F, rounding Mode, overflow Ovf>
MF_TARGET_AVX2 inline __m256i encode8(__m256i x) {
  using C = detail::encode_constants<F, Mode, Ovf>;
  const float_parts8 p = split8<C, true>(x);
  const __m256i ones = _mm256_set1_epi32(-1);
  __m256i kept;
  if constexpr (Mode == rounding::nearest_even) {
    // (sig + half - 1 + lsb(kept)) >> s
    const __m256i half_m1 =
        _mm256_srlv_epi32(ones, _mm256_sub_epi32(_mm256_set1_epi32(33), p.s));
    const __m256i lsb = _mm256_and_si256(_mm256_srlv_epi32(p.sig, p.s),
                                         _mm256_set1_epi32(1));
    kept = _mm256_srlv_epi32(
        _mm256_add_epi32(_mm256_add_epi32(p.sig, half_m1), lsb), p.s);
  } else if constexpr (Mode == rounding::toward_zero) {
    kept = _mm256_srlv_epi32(p.sig, p.s);
  } else {
    // Away from zero on the side the mode points to: add quantum - 1.
    __m256i q_m1 =
        _mm256_srlv_epi32(ones, _mm256_sub_epi32(_mm256_set1_epi32(32), p.s));
    q_m1 = Mode == rounding::toward_positive ? _mm256_andnot_si256(p.neg, q_m1)
                                             : _mm256_and_si256(p.neg, q_m1);
    kept = _mm256_srlv_epi32(_mm256_add_epi32(p.sig, q_m1), p.s);
  }
  __m256i res = signed_encoding<F, C>(_mm256_add_epi32(p.base, kept), p.neg);
  if constexpr (!F::has_subnormals) {
    // fnu: values below min normal go to the smallest value (encoding 0)...
    res = _mm256_andnot_si256(below_min_normal<F>(p.E), res);
    if constexpr (F::min_exponent == -127) {
      // ...except [2^-127, 2^-126), float subnormals with bit 22 set: kept is
      // 1 (odd), the half point is bit 21; the result is 0 or 1.
      if constexpr (Mode == rounding::nearest_even ||
                    Mode == rounding::toward_positive) {
        const int threshold =
            Mode == rounding::nearest_even ? 0x600000 : 0x400001;
        const __m256i up = _mm256_and_si256(
            _mm256_cmpgt_epi32(p.a, _mm256_set1_epi32(threshold - 1)),
            _mm256_set1_epi32(1));
        res = _mm256_blendv_epi8(
            res, up, _mm256_cmpeq_epi32(p.E, _mm256_setzero_si256()));
      }
    }
  }
  return with_special_inputs<F, C>(res, p.a, p.neg);
}

// Narrows 4 x 8 encodings (each < 2^16) into 32 outputs.
template <class Storage>
MF_TARGET_AVX2 inline void store32(Storage* out, __m256i r0, __m256i r1,
                                   __m256i r2, __m256i r3) {
  const __m256i w01 = _mm256_packus_epi32(r0, r1);  // lanes: 0 1 | 0 1
  const __m256i w23 = _mm256_packus_epi32(r2, r3);
  if constexpr (sizeof(Storage) == 1) {
    const __m256i b = _mm256_packus_epi16(w01, w23);  // 0 1 2 3 | 0 1 2 3 (4-lane groups)
    const __m256i fixed =
        _mm256_permutevar8x32_epi32(b, _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out), fixed);
  } else {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out),
                        _mm256_permute4x64_epi64(w01, 0xD8));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + 16),
                        _mm256_permute4x64_epi64(w23, 0xD8));
  }
}

template <class F, rounding Mode, overflow Ovf, bool Fast>
MF_TARGET_AVX2 inline __m256i encode8_any(const float* p) {
  const __m256i x = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  if constexpr (Fast) {
    return encode8_nearest<F, Ovf>(x);
  } else {
    return encode8<F, Mode, Ovf>(x);
  }
}

template <class Fmt, rounding Mode, overflow Ovf, bool Fast>
MF_TARGET_AVX2 inline void encode_loop(const float* in,
                                       typename Fmt::storage_type* out,
                                       std::size_t n) {
  using F = typename Fmt::format;
  using S = typename Fmt::storage_type;
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m256i r0 = encode8_any<F, Mode, Ovf, Fast>(in + i);
    const __m256i r1 = encode8_any<F, Mode, Ovf, Fast>(in + i + 8);
    const __m256i r2 = encode8_any<F, Mode, Ovf, Fast>(in + i + 16);
    const __m256i r3 = encode8_any<F, Mode, Ovf, Fast>(in + i + 24);
    store32(out + i, r0, r1, r2, r3);
  }
  // Tail: the same vector code over a zero-padded copy.
  if (i < n) {
    alignas(32) float buffer[32] = {};
    alignas(32) S result[32];
    const std::size_t rest = n - i;
    std::memcpy(buffer, in + i, rest * sizeof(float));
    encode_loop<Fmt, Mode, Ovf, Fast>(buffer, result, 32);
    std::memcpy(out + i, result, rest * sizeof(S));
  }
}

template <class Fmt, rounding Mode, overflow Ovf>
MF_TARGET_AVX2 inline void encode_mode(const float* in,
                                       typename Fmt::storage_type* out,
                                       std::size_t n) {
  using F = typename Fmt::format;
  if constexpr (Mode == rounding::nearest_even &&
                nearest_fast_path<F, Ovf>::eligible) {
    // The magic-number add needs round-to-nearest and no DAZ in MXCSR.
    if ((_mm_getcsr() & 0x6040u) == 0) {
      return encode_loop<Fmt, Mode, Ovf, true>(in, out, n);
    }
  }
  encode_loop<Fmt, Mode, Ovf, false>(in, out, n);
}

template <class Fmt, overflow Ovf>
MF_TARGET_AVX2 inline void encode_ovf(const float* in,
                                      typename Fmt::storage_type* out,
                                      std::size_t n, rounding mode) {
  switch (mode) {
    case rounding::nearest_even:
      return encode_mode<Fmt, rounding::nearest_even, Ovf>(in, out, n);
    case rounding::toward_zero:
      return encode_mode<Fmt, rounding::toward_zero, Ovf>(in, out, n);
    case rounding::toward_positive:
      return encode_mode<Fmt, rounding::toward_positive, Ovf>(in, out, n);
    case rounding::toward_negative:
      return encode_mode<Fmt, rounding::toward_negative, Ovf>(in, out, n);
  }
}

template <class Fmt>
MF_TARGET_AVX2 inline void encode(const float* in,
                                  typename Fmt::storage_type* out,
                                  std::size_t n, rounding mode,
                                  overflow on_overflow) {
  if (on_overflow == overflow::saturating) {
    encode_ovf<Fmt, overflow::saturating>(in, out, n, mode);
  } else {
    encode_ovf<Fmt, overflow::non_saturating>(in, out, n, mode);
  }
}

// Decodes 8 encodings (32-bit lanes, any bits above the format's width
// already cleared) into 8 float bit patterns (generic/decode_lanes.hpp).
template <class F>
MF_TARGET_AVX2 inline __m256i decode8(__m256i v) {
  return decode_lanes<F, simd::avx2::int32_ops>(v);
}

template <class Fmt>
MF_TARGET_AVX2 inline void decode(const typename Fmt::storage_type* in,
                                  float* out, std::size_t n) {
  using F = typename Fmt::format;
  using S = typename Fmt::storage_type;
  const __m256i valid = _mm256_set1_epi32(detail::decode_constants<F>::valid_mask);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m256i v0, v1;
    if constexpr (sizeof(S) == 1) {
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
      v0 = _mm256_cvtepu8_epi32(b);
      v1 = _mm256_cvtepu8_epi32(_mm_unpackhi_epi64(b, b));
    } else {
      const __m256i w = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + i));
      v0 = _mm256_cvtepu16_epi32(_mm256_castsi256_si128(w));
      v1 = _mm256_cvtepu16_epi32(_mm256_extracti128_si256(w, 1));
    }
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        decode8<F>(_mm256_and_si256(v0, valid)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 8),
                        decode8<F>(_mm256_and_si256(v1, valid)));
  }
  if (i < n) {
    S buffer[16] = {};
    alignas(32) float result[16];
    const std::size_t rest = n - i;
    std::memcpy(buffer, in + i, rest * sizeof(S));
    decode<Fmt>(buffer, result, 16);
    std::memcpy(out + i, result, rest * sizeof(float));
  }
}

}  // namespace avx2_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_X86
