// The AVX-512 kernel set (F/BW/VL/DQ/CD). Every function carries its own
// target attribute, so no -march flag is needed; dispatch.hpp only calls
// these after CPUID and XCR0 said the CPU and OS support them. Heads and
// tails use masked loads and stores, so no byte outside the ranges is read
// or written.
#pragma once

#include "../simd/target_region.hpp"
#include "../simd/x86/avx512/integer_ops.hpp"
#include "dispatch.hpp"
#include "scalar.hpp"

#if MF_BULK_X86
#include "x86_intrinsics.hpp"

#define MF_TARGET_AVX512 MF_SIMD_TARGET_ATTRIBUTE_AVX512

// The generic algorithms, compiled for AVX-512.
MF_SIMD_REGION_BEGIN_AVX512
namespace mf::bulk::avx512_kernels {
#include "generic/decode_lanes.hpp"
}  // namespace mf::bulk::avx512_kernels
MF_SIMD_REGION_END

namespace mf {
namespace bulk {
namespace avx512_kernels {

// Outputs at least this large (bytes) are written with non-temporal stores:
// they would not stay in the caches anyway, and streaming them saves the
// read-for-ownership traffic. (Measured on the development machine; see
// docs/performance.md.)
inline constexpr std::size_t nontemporal_threshold_bytes = std::size_t{8} << 20;

MF_TARGET_AVX512 inline __m512i splat(unsigned v) {
  return _mm512_set1_epi32(static_cast<int>(v));
}

// The lanes of a 16-lane step that hold one of the `rest` elements left.
MF_TARGET_AVX512 inline __mmask16 first_lanes16(std::size_t rest) {
  return rest >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << rest) - 1);
}

MF_TARGET_AVX512 inline __m512i select_by_sign(__mmask16 neg, unsigned pos,
                                               unsigned negative) {
  return _mm512_mask_blend_epi32(neg, splat(pos), splat(negative));
}

// Whether an encoding for a negative input is the positive one with the
// sign bit set, so that it can be chosen on the magnitude before the sign is
// applied.
template <class F>
constexpr bool sign_symmetric(unsigned pos, unsigned negative) {
  return negative == (pos | F::sign_mask);
}

template <class F, overflow Ovf>
struct nearest_fast_path {
  using C = detail::encode_constants<F, rounding::nearest_even, Ovf>;
  // Signed formats with subnormals, and e8m0fnu (unsigned, no subnormals,
  // min normal 2^-127 just below float's).
  static constexpr bool unsigned_fnu =
      !F::has_subnormals && !F::is_signed && F::min_exponent == -127;
  static constexpr bool eligible = (F::has_subnormals && F::is_signed) || unsigned_fnu;
  static constexpr bool overflow_symmetric =
      sign_symmetric<F>(C::overflow_pos, C::overflow_neg);
  static constexpr bool nan_symmetric = sign_symmetric<F>(C::nan_pos, C::nan_neg);
  static constexpr bool inf_symmetric = sign_symmetric<F>(C::inf_pos, C::inf_neg);
  static constexpr bool inf_like_nan = C::inf_pos == C::nan_pos && C::inf_neg == C::nan_neg;
  // The formats without NaN: a NaN input is +max for both signs, +-Inf is
  // +-max. Both go through the symmetric path, then NaN lanes drop the sign.
  static constexpr bool nan_unsigned_inf_signed =
      C::nan_pos == C::nan_neg && C::inf_pos == C::nan_pos &&
      C::inf_neg == (C::inf_pos | F::sign_mask) && F::is_signed;
  // Normal range: (a + 2^(s-1) - 1 + lsb - rebias) >> s with s = 23 - M.
  static constexpr unsigned shift = 23u - static_cast<unsigned>(F::mantissa_bits);
  static constexpr unsigned add = ((1u << (shift - 1)) - 1u) -
                                  (static_cast<unsigned>(127 - F::bias) << 23);
  // Below min normal: a + 2^(emin - M + 23) rounds at the subnormal quantum
  // (ties to even, embedded rounding, so independent of MXCSR). Not needed
  // when min normal is float's: the integer formula covers it.
  static constexpr bool small_path = F::has_subnormals && F::min_exponent > -126;
  static constexpr unsigned min_normal_bits =
      static_cast<unsigned>(F::min_exponent + 127) << 23;
  static constexpr unsigned magic_bits =
      static_cast<unsigned>(F::min_exponent - F::mantissa_bits + 23 + 127) << 23;
  static constexpr unsigned sign_shift =
      F::is_signed ? 31u - static_cast<unsigned>(F::bits - 1) : 0u;
};

// Nearest-even rounding of 16 magnitudes a = |x| to the format's magnitude
// encodings: integer rounding for the format's normals, one
// embedded-rounding add for its subnormals. Out-of-range lanes are left
// above max finite for finish16_fast.
template <class F, overflow Ovf>
MF_TARGET_AVX512 inline __m512i nearest_magnitude16(__m512i a) {
  using P = nearest_fast_path<F, Ovf>;
  // The kept significand's last bit; with no mantissa bits it is the hidden
  // bit, always 1 (ties round up to the next power of two).
  const __m512i lsb = F::mantissa_bits == 0
                          ? splat(1)
                          : _mm512_and_si512(_mm512_srli_epi32(a, P::shift), splat(1));
  __m512i mag = _mm512_srli_epi32(
      _mm512_add_epi32(_mm512_add_epi32(a, splat(P::add)), lsb), P::shift);
  if constexpr (P::small_path) {
    const __m512 magic = _mm512_castsi512_ps(splat(P::magic_bits));
    const __m512i sum = _mm512_castps_si512(_mm512_add_round_ps(
        _mm512_castsi512_ps(a), magic, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
    mag = _mm512_mask_sub_epi32(mag, _mm512_cmplt_epu32_mask(a, splat(P::min_normal_bits)),
                                sum, splat(P::magic_bits));
  }
  if constexpr (P::unsigned_fnu) {
    // Float subnormals: 2^-127 (encoding 0) up to the midpoint 1.5 * 2^-127
    // (a tie goes to 2^-126, encoding 1, whose significand is even), and the
    // values below 2^-127 go to it too (no zero in the format).
    mag = _mm512_mask_mov_epi32(
        mag, _mm512_cmplt_epu32_mask(a, splat(0x00800000u)),
        _mm512_maskz_mov_epi32(_mm512_cmpge_epu32_mask(a, splat(0x00600000u)), splat(1)));
  }
  return mag;
}

// The rest of a fast-path encode, after rounding: from the input x, its
// magnitude a and the rounded magnitude encoding mag (above max finite when
// it overflowed, and for NaN and Inf inputs), the specials chosen on the
// magnitude, then the sign. Shared by nearest-even and stochastic rounding,
// which overflow alike.
template <class F, overflow Ovf>
MF_TARGET_AVX512 inline __m512i finish16_fast(__m512i x, __m512i a, __m512i mag) {
  using P = nearest_fast_path<F, Ovf>;
  using C = typename P::C;
  const __mmask16 special = _mm512_cmpgt_epu32_mask(a, splat(0x7F7FFFFFu));
  __mmask16 overflowed = _mm512_cmpgt_epu32_mask(mag, splat(C::max_finite));
  constexpr bool nan_split =
      P::nan_unsigned_inf_signed && P::overflow_symmetric && !P::nan_symmetric;
  if constexpr (!P::overflow_symmetric && P::nan_symmetric) {
    overflowed = static_cast<__mmask16>(overflowed & ~special);
  }
  __mmask16 is_inf = 0;
  if constexpr (!P::inf_like_nan && !nan_split) {
    is_inf = _mm512_cmpeq_epi32_mask(a, splat(0x7F800000u));
  }
  // Choices on the magnitude (the sign is applied below).
  if constexpr (P::overflow_symmetric) {
    mag = _mm512_mask_mov_epi32(mag, overflowed, splat(C::overflow_pos));
  }
  if constexpr (P::nan_symmetric || nan_split) {
    mag = _mm512_mask_mov_epi32(mag, special, splat(C::nan_pos));
  }
  if constexpr (!P::inf_like_nan && P::inf_symmetric && P::nan_symmetric) {
    mag = _mm512_mask_mov_epi32(mag, is_inf, splat(C::inf_pos));
  }
  // mag | (sign & sign_mask); a format without -0 keeps +0.
  __m512i res;
  if constexpr (!F::is_signed) {
    res = mag;
  } else if constexpr (F::encoding == specials::fnuz) {
    res = _mm512_mask_ternarylogic_epi32(mag, _mm512_test_epi32_mask(mag, mag),
                                         _mm512_srli_epi32(x, P::sign_shift),
                                         splat(F::sign_mask), 0xF8);
  } else {
    res = _mm512_ternarylogic_epi32(mag, _mm512_srli_epi32(x, P::sign_shift),
                                    splat(F::sign_mask), 0xF8);
  }
  // Choices that depend on the sign.
  if constexpr (nan_split) {
    res = _mm512_mask_mov_epi32(res, _mm512_cmpgt_epu32_mask(a, splat(0x7F800000u)),
                                splat(C::nan_pos));
  } else if constexpr (!P::overflow_symmetric || !P::nan_symmetric || !P::inf_symmetric) {
    const __mmask16 neg = _mm512_movepi32_mask(x);
    if constexpr (!P::overflow_symmetric) {
      res = _mm512_mask_mov_epi32(res, overflowed,
                                  select_by_sign(neg, C::overflow_pos, C::overflow_neg));
    }
    if constexpr (!P::nan_symmetric) {
      res = _mm512_mask_mov_epi32(res, special, select_by_sign(neg, C::nan_pos, C::nan_neg));
    }
    if constexpr (!P::inf_like_nan && !(P::inf_symmetric && P::nan_symmetric)) {
      res = _mm512_mask_mov_epi32(res, is_inf, select_by_sign(neg, C::inf_pos, C::inf_neg));
    }
  }
  if constexpr (!F::is_signed) {
    // No sign: a negative non-zero input is NaN (-0 is +0's encoding).
    res = _mm512_mask_mov_epi32(
        res, static_cast<__mmask16>(_mm512_movepi32_mask(x) & _mm512_test_epi32_mask(a, a)),
        splat(F::positive_nan));
  }
  return res;
}

// Nearest-even encode of 16 floats on the fast path. Same bits as
// encode16's general path.
template <class F, overflow Ovf>
MF_TARGET_AVX512 inline __m512i encode16_nearest(__m512i x) {
  const __m512i a = _mm512_and_si512(x, splat(0x7FFFFFFFu));
  return finish16_fast<F, Ovf>(x, a, nearest_magnitude16<F, Ovf>(a));
}

// What the general encoders (encode16 and the stochastic rule of
// stochastic_avx512.hpp) take apart in 16 float bit patterns; avx2.hpp's
// encode8 explains each step.
struct float_parts16 {
  __m512i a;      // |x| bits
  __mmask16 neg;  // the lanes holding a negative input
  __m512i E;      // the float exponent field
  __m512i sig;    // significand with its hidden bit (none for float subnormals)
  __m512i s;      // right shift from the significand to the format's quantum
  __m512i base;   // (q + bias - 1) << M: the exponent field minus the hidden bit of kept
};

// C: detail::encode_constants. ClampShift: s at most 25 where it can be more
// (a shift of 25 rounds any 24-bit significand to 0 or 1 quantum, and keeps
// the rounding constants' shifts below 32); the stochastic rule needs s
// unclamped for its fraction bits.
template <class C, bool ClampShift>
MF_TARGET_AVX512 inline float_parts16 split16(__m512i x) {
  float_parts16 p;
  p.a = _mm512_and_si512(x, splat(0x7FFFFFFFu));
  p.neg = _mm512_movepi32_mask(x);
  p.E = _mm512_srli_epi32(p.a, 23);
  const __m512i Eeff = _mm512_max_epu32(p.E, splat(1));
  p.sig = _mm512_sub_epi32(p.a, _mm512_slli_epi32(_mm512_sub_epi32(Eeff, splat(1)), 23));
  p.s = _mm512_max_epi32(_mm512_sub_epi32(splat(C::shift_base), Eeff),
                         splat(C::normal_shift));
  if constexpr (ClampShift && C::needs_clamp) p.s = _mm512_min_epi32(p.s, splat(25));
  p.base = _mm512_slli_epi32(
      _mm512_max_epi32(_mm512_sub_epi32(Eeff, splat(C::base_offset)), _mm512_setzero_si512()),
      C::M);
  return p;
}

// The encoding of a rounded magnitude (at most 2^16, or past max finite):
// the sign, fnuz's single zero, overflow.
template <class F, class C>
MF_TARGET_AVX512 inline __m512i signed_encoding(__m512i mag, __mmask16 neg) {
  __m512i res = mag;
  if constexpr (F::is_signed) {
    res = _mm512_mask_or_epi32(res, neg, res, splat(C::sign_mask));
  }
  if constexpr (F::encoding == specials::fnuz) {
    res = _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(mag, mag), res);
  }
  return _mm512_mask_mov_epi32(res, _mm512_cmpgt_epu32_mask(mag, splat(C::max_finite)),
                               select_by_sign(neg, C::overflow_pos, C::overflow_neg));
}

// fnu formats: the lanes whose float exponent field E is below min normal.
template <class F>
MF_TARGET_AVX512 inline __mmask16 below_min_normal(__m512i E) {
  return _mm512_cmplt_epi32_mask(E, splat(static_cast<unsigned>(F::min_exponent + 127)));
}

// res with the inputs that do not round by magnitude put right: negative
// non-zero values in the unsigned formats, Inf and NaN (a = |x| bits).
template <class F, class C>
MF_TARGET_AVX512 inline __m512i with_special_inputs(__m512i res, __m512i a, __mmask16 neg) {
  if constexpr (!F::has_subnormals) {
    const __mmask16 negative_nonzero = neg & _mm512_test_epi32_mask(a, a);
    res = _mm512_mask_mov_epi32(res, negative_nonzero, splat(F::positive_nan));
  }
  const __mmask16 special = _mm512_cmpgt_epu32_mask(a, splat(0x7F7FFFFFu));
  const __mmask16 is_inf = _mm512_cmpeq_epi32_mask(a, splat(0x7F800000u));
  res = _mm512_mask_mov_epi32(res, special, select_by_sign(neg, C::nan_pos, C::nan_neg));
  return _mm512_mask_mov_epi32(res, is_inf, select_by_sign(neg, C::inf_pos, C::inf_neg));
}

// Encodes 16 float bit patterns into 16 encodings (32-bit lanes), mirroring
// mf::detail::round_float_bits lane-wise (see avx2.hpp for the same steps
// with comments).
template <class F, rounding Mode, overflow Ovf>
MF_TARGET_AVX512 inline __m512i encode16(__m512i x) {
  if constexpr (Mode == rounding::nearest_even && nearest_fast_path<F, Ovf>::eligible) {
    return encode16_nearest<F, Ovf>(x);
  }
  using C = detail::encode_constants<F, Mode, Ovf>;
  const float_parts16 p = split16<C, true>(x);
  const __m512i ones = splat(0xFFFFFFFFu);
  __m512i kept;
  if constexpr (Mode == rounding::nearest_even) {
    const __m512i half_m1 = _mm512_srlv_epi32(ones, _mm512_sub_epi32(splat(33), p.s));
    const __m512i lsb = _mm512_and_si512(_mm512_srlv_epi32(p.sig, p.s), splat(1));
    kept = _mm512_srlv_epi32(_mm512_add_epi32(_mm512_add_epi32(p.sig, half_m1), lsb), p.s);
  } else if constexpr (Mode == rounding::toward_zero) {
    kept = _mm512_srlv_epi32(p.sig, p.s);
  } else {
    const __mmask16 up = Mode == rounding::toward_positive
                             ? static_cast<__mmask16>(~p.neg)
                             : p.neg;
    const __m512i q_m1 =
        _mm512_maskz_srlv_epi32(up, ones, _mm512_sub_epi32(splat(32), p.s));
    kept = _mm512_srlv_epi32(_mm512_add_epi32(p.sig, q_m1), p.s);
  }
  __m512i res = signed_encoding<F, C>(_mm512_add_epi32(p.base, kept), p.neg);
  if constexpr (!F::has_subnormals) {
    res = _mm512_mask_mov_epi32(res, below_min_normal<F>(p.E), _mm512_setzero_si512());
    if constexpr (F::min_exponent == -127) {
      if constexpr (Mode == rounding::nearest_even ||
                    Mode == rounding::toward_positive) {
        const unsigned threshold =
            Mode == rounding::nearest_even ? 0x600000u : 0x400001u;
        const __m512i up = _mm512_maskz_mov_epi32(
            _mm512_cmpge_epu32_mask(p.a, splat(threshold)), splat(1));
        res = _mm512_mask_mov_epi32(
            res, _mm512_cmpeq_epi32_mask(p.E, _mm512_setzero_si512()), up);
      }
    }
  }
  return with_special_inputs<F, C>(res, p.a, p.neg);
}

template <class S>
MF_TARGET_AVX512 inline void store16(S* out, __m512i r, __mmask16 m) {
  if constexpr (sizeof(S) == 1) {
    _mm512_mask_cvtepi32_storeu_epi8(out, m, r);
  } else {
    _mm512_mask_cvtepi32_storeu_epi16(out, m, r);
  }
}

// Masked 16-lane steps over [0, n): heads and tails.
template <class Fmt, rounding Mode, overflow Ovf>
MF_TARGET_AVX512 inline void encode_masked(const float* in,
                                           typename Fmt::storage_type* out,
                                           std::size_t n) {
  using F = typename Fmt::format;
  for (std::size_t i = 0; i < n; i += 16) {
    const __mmask16 m = first_lanes16(n - i);
    store16(out + i, encode16<F, Mode, Ovf>(_mm512_maskz_loadu_epi32(m, in + i)), m);
  }
}

// Whole blocks of 64; returns how many elements were done. With Stream, out
// must be 64-byte aligned (one-byte formats only).
template <class Fmt, rounding Mode, overflow Ovf, bool Stream>
MF_TARGET_AVX512 inline std::size_t encode_blocks(const float* in,
                                                  typename Fmt::storage_type* out,
                                                  std::size_t n) {
  using F = typename Fmt::format;
  using S = typename Fmt::storage_type;
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i r0 = encode16<F, Mode, Ovf>(_mm512_loadu_si512(in + i));
    const __m512i r1 = encode16<F, Mode, Ovf>(_mm512_loadu_si512(in + i + 16));
    const __m512i r2 = encode16<F, Mode, Ovf>(_mm512_loadu_si512(in + i + 32));
    const __m512i r3 = encode16<F, Mode, Ovf>(_mm512_loadu_si512(in + i + 48));
    if constexpr (sizeof(S) == 1) {
      const __m256i lo = _mm256_inserti128_si256(
          _mm256_castsi128_si256(_mm512_cvtepi32_epi8(r0)), _mm512_cvtepi32_epi8(r1), 1);
      const __m256i hi = _mm256_inserti128_si256(
          _mm256_castsi128_si256(_mm512_cvtepi32_epi8(r2)), _mm512_cvtepi32_epi8(r3), 1);
      const __m512i all = _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);
      if constexpr (Stream) {
        _mm512_stream_si512(reinterpret_cast<__m512i*>(out + i), all);
      } else {
        _mm512_storeu_si512(out + i, all);
      }
    } else {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i), _mm512_cvtepi32_epi16(r0));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 16), _mm512_cvtepi32_epi16(r1));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 32), _mm512_cvtepi32_epi16(r2));
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 48), _mm512_cvtepi32_epi16(r3));
    }
  }
  if constexpr (Stream) _mm_sfence();
  return i;
}

template <class Fmt, rounding Mode, overflow Ovf>
MF_TARGET_AVX512 inline void encode_mode(const float* in,
                                         typename Fmt::storage_type* out,
                                         std::size_t n) {
  using S = typename Fmt::storage_type;
  std::size_t done = 0;
  if (sizeof(S) == 1 && n * sizeof(S) >= nontemporal_threshold_bytes) {
    // Align the output to 64 bytes, then stream.
    const auto address = reinterpret_cast<std::uintptr_t>(out);
    done = (64 - address % 64) % 64;
    encode_masked<Fmt, Mode, Ovf>(in, out, done);
    done += encode_blocks<Fmt, Mode, Ovf, true>(in + done, out + done, n - done);
  } else {
    done = encode_blocks<Fmt, Mode, Ovf, false>(in, out, n);
  }
  encode_masked<Fmt, Mode, Ovf>(in + done, out + done, n - done);
}

template <class Fmt, overflow Ovf>
MF_TARGET_AVX512 inline void encode_ovf(const float* in,
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
MF_TARGET_AVX512 inline void encode(const float* in,
                                    typename Fmt::storage_type* out,
                                    std::size_t n, rounding mode,
                                    overflow on_overflow) {
  if (on_overflow == overflow::saturating) {
    encode_ovf<Fmt, overflow::saturating>(in, out, n, mode);
  } else {
    encode_ovf<Fmt, overflow::non_saturating>(in, out, n, mode);
  }
}

// Decodes 16 encodings (32-bit lanes, bits above the format's width
// cleared): generic/decode_lanes.hpp.
template <class F>
MF_TARGET_AVX512 inline __m512i decode16(__m512i v) {
  return decode_lanes<F, simd::avx512::int32_ops>(v);
}

// The float bits of the 16 encodings at in (lanes in m; the others decode
// 0), bits above the format's width ignored.
template <class F, class S>
MF_TARGET_AVX512 inline __m512i decode16_at(const S* in, __mmask16 m) {
  __m512i v;
  if constexpr (sizeof(S) == 1) {
    v = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(m, in));
  } else {
    v = _mm512_cvtepu16_epi32(_mm256_maskz_loadu_epi16(m, in));
  }
  return decode16<F>(_mm512_and_si512(v, splat(detail::decode_constants<F>::valid_mask)));
}

template <class Fmt>
MF_TARGET_AVX512 inline void decode_generic(const typename Fmt::storage_type* in,
                                            float* out, std::size_t n) {
  using F = typename Fmt::format;
  for (std::size_t i = 0; i < n; i += 16) {
    const __mmask16 m = first_lanes16(n - i);
    _mm512_mask_storeu_epi32(out + i, m, decode16_at<F>(in + i, m));
  }
}

// ---- table decode (AVX-512 VBMI), formats of 8 bits or fewer -------------
// Every value of such a format is a float whose low 16 bits are zero, so a
// byte decodes through two 256-entry byte tables (bits 16..23 and 24..31 of
// the float), each looked up with two vpermi2b and a blend on the index's
// top bit. The tables come from the scalar decode (the reference), indexed
// by the raw byte, so bits above a sub-byte format's width, NaN, Inf and
// subnormals need no code.
template <class F>
struct decode_table {
  alignas(64) std::uint8_t plane16[256];  // float bits 16..23
  alignas(64) std::uint8_t plane24[256];  // float bits 24..31
  bool exact;                             // every low half was zero
};

template <class F>
inline const decode_table<F>& get_decode_table() {
  static const decode_table<F> table = [] {
    decode_table<F> t{};
    t.exact = true;
    for (unsigned b = 0; b < 256; ++b) {
      const std::uint32_t bits = mf::detail::bit_cast<std::uint32_t>(
          mf::detail::decode_to_float<F>(b & detail::decode_constants<F>::valid_mask));
      if ((bits & 0xFFFFu) != 0) t.exact = false;
      t.plane16[b] = static_cast<std::uint8_t>(bits >> 16);
      t.plane24[b] = static_cast<std::uint8_t>(bits >> 24);
    }
    return t;
  }();
  return table;
}

#define MF_TARGET_AVX512VBMI MF_SIMD_TARGET_ATTRIBUTE_AVX512_VBMI

template <bool Stream>
MF_TARGET_AVX512VBMI inline void store_floats(float* p, __m512i v) {
  if constexpr (Stream) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
  } else {
    _mm512_storeu_si512(p, v);
  }
}

template <class Fmt, bool Stream>
MF_TARGET_AVX512VBMI inline std::size_t decode_table_loop(const std::uint8_t* in,
                                                          float* out, std::size_t n) {
  using F = typename Fmt::format;
  const decode_table<F>& t = get_decode_table<F>();
  const __m512i a0 = _mm512_load_si512(t.plane16);
  const __m512i a1 = _mm512_load_si512(t.plane16 + 64);
  const __m512i a2 = _mm512_load_si512(t.plane16 + 128);
  const __m512i a3 = _mm512_load_si512(t.plane16 + 192);
  const __m512i b0 = _mm512_load_si512(t.plane24);
  const __m512i b1 = _mm512_load_si512(t.plane24 + 64);
  const __m512i b2 = _mm512_load_si512(t.plane24 + 128);
  const __m512i b3 = _mm512_load_si512(t.plane24 + 192);
  // Position j*16 + k takes element (k/4)*16 + 4j + k%4, so that the
  // in-lane unpacks below leave the elements in order.
  alignas(64) std::uint8_t order[64];
  for (unsigned p = 0; p < 64; ++p) {
    const unsigned j = p / 16, k = p % 16;
    order[p] = static_cast<std::uint8_t>((k / 4) * 16 + 4 * j + k % 4);
  }
  const __m512i perm = _mm512_load_si512(order);
  const __m512i zero = _mm512_setzero_si512();
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i idx = _mm512_permutexvar_epi8(perm, _mm512_loadu_si512(in + i));
    const __mmask64 upper = _mm512_movepi8_mask(idx);
    const __m512i p16 = _mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(a0, idx, a1),
                                               _mm512_permutex2var_epi8(a2, idx, a3));
    const __m512i p24 = _mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(b0, idx, b1),
                                               _mm512_permutex2var_epi8(b2, idx, b3));
    const __m512i w_lo = _mm512_unpacklo_epi8(p16, p24);
    const __m512i w_hi = _mm512_unpackhi_epi8(p16, p24);
    store_floats<Stream>(out + i, _mm512_unpacklo_epi16(zero, w_lo));
    store_floats<Stream>(out + i + 16, _mm512_unpackhi_epi16(zero, w_lo));
    store_floats<Stream>(out + i + 32, _mm512_unpacklo_epi16(zero, w_hi));
    store_floats<Stream>(out + i + 48, _mm512_unpackhi_epi16(zero, w_hi));
  }
  if constexpr (Stream) _mm_sfence();
  return i;
}

template <class Fmt>
MF_TARGET_AVX512VBMI inline void decode_table_path(const std::uint8_t* in, float* out,
                                                   std::size_t n) {
  std::size_t head = 0;
  const auto address = reinterpret_cast<std::uintptr_t>(out);
  if (n * sizeof(float) >= nontemporal_threshold_bytes && address % sizeof(float) == 0) {
    // Align the output to 64 bytes for the streaming stores.
    head = ((64 - address % 64) % 64) / sizeof(float);
    decode_generic<Fmt>(in, out, head);
    head += decode_table_loop<Fmt, true>(in + head, out + head, n - head);
  } else {
    head = decode_table_loop<Fmt, false>(in, out, n);
  }
  decode_generic<Fmt>(in + head, out + head, n - head);
}

template <class Fmt>
MF_TARGET_AVX512 inline void decode(const typename Fmt::storage_type* in,
                                    float* out, std::size_t n) {
  using F = typename Fmt::format;
  if constexpr (F::bits <= 8) {
    if (n >= 64 && bulk::detail::active_optional_features().avx512vbmi && get_decode_table<F>().exact) {
      return decode_table_path<Fmt>(in, out, n);
    }
  }
  decode_generic<Fmt>(in, out, n);
}

}  // namespace avx512_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_X86
