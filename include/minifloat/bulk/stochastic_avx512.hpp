// Stochastic rounding of 16 floats at once (AVX-512), lane for lane the rule
// of mf::round_to_stochastic (scalar_convert.hpp, round_finite): with s the
// number of significand bits below the format's quantum, kept = sig >> s,
// D = the top 32 bits of the discarded fraction, and the magnitude rounds up
// when D + r carries out of 32 bits, r being the random word shifted left by
// 32 - random_bits (so only its low random_bits bits take part, aligned with
// the top of D; the bits of D below them cannot carry).
#pragma once

#include <cstddef>

#include "avx512.hpp"

#if MF_BULK_X86

namespace mf {
namespace bulk {
namespace avx512_kernels {

// The fast path: signed formats with subnormals whose min normal is a float
// normal and whose quantum is so far above float's subnormals that those
// never round up (2^-126 < 2^(emin - M - 32)): the FP8 formats.
template <class F>
struct stochastic_fast_path {
  static constexpr bool eligible = F::has_subnormals && F::is_signed &&
                                   F::min_exponent > -126 &&
                                   F::min_exponent - F::mantissa_bits >= -94;
  static constexpr unsigned shift = 23u - static_cast<unsigned>(F::mantissa_bits);
  // In the format's normal range s = 23 - M, D = (discarded bits) << (9 + M),
  // and D + r carries exactly when discarded + (r >> (9 + M)) reaches
  // 2^(23 - M): the random word is added below the kept bits and the sum
  // truncated (a carry out of the mantissa bumps the exponent).
  static constexpr unsigned random_shift = 9u + static_cast<unsigned>(F::mantissa_bits);
  static constexpr unsigned rebias = static_cast<unsigned>(127 - F::bias)
                                     << F::mantissa_bits;
  static constexpr unsigned min_normal_bits =
      static_cast<unsigned>(F::min_exponent + 127) << 23;
  // Below min normal: s = shift_base - E (E >= 1 there; float subnormals
  // get s >= 56, so kept = D = 0, as the scalar rule gives).
  static constexpr unsigned shift_base =
      static_cast<unsigned>(F::min_exponent + 127 + 23 - F::mantissa_bits);
};

// Whether any lane of the N vectors of float bits is below the format's min
// normal, where the fast path needs the general rule: one test for several
// vectors, as such lanes are rare in scaled data.
template <class F, std::size_t N>
MF_TARGET_AVX512 inline bool any_below_min_normal(const __m512i (&x)[N]) {
  if constexpr (!stochastic_fast_path<F>::eligible) {
    return true;
  } else {
    __m512i smallest = _mm512_and_si512(x[0], splat(0x7FFFFFFFu));
    for (std::size_t k = 1; k < N; ++k) {
      smallest = _mm512_min_epu32(smallest, _mm512_and_si512(x[k], splat(0x7FFFFFFFu)));
    }
    return _mm512_cmplt_epu32_mask(smallest, splat(stochastic_fast_path<F>::min_normal_bits)) != 0;
  }
}

// MayBeBelow false: the caller has checked that no lane is below min normal.
template <class F, overflow Ovf, bool MayBeBelow>
MF_TARGET_AVX512 inline __m512i encode16_stochastic_fast(__m512i x, __m512i r_aligned) {
  using P = stochastic_fast_path<F>;
  const __m512i a = _mm512_and_si512(x, splat(0x7FFFFFFFu));
  __m512i mag = _mm512_sub_epi32(
      _mm512_srli_epi32(_mm512_add_epi32(a, _mm512_srli_epi32(r_aligned, P::random_shift)),
                        P::shift),
      splat(P::rebias));
  const __mmask16 below =
      MayBeBelow ? _mm512_cmplt_epu32_mask(a, splat(P::min_normal_bits)) : __mmask16{0};
  if (below != 0) {
    // Subnormal results (rare in scaled data): the general rule.
    const __m512i E = _mm512_srli_epi32(a, 23);
    const __m512i sig = _mm512_ternarylogic_epi32(a, splat(0x007FFFFFu), splat(0x00800000u),
                                                  0xEA);  // (a & m) | hidden
    const __m512i s = _mm512_sub_epi32(splat(P::shift_base), E);
    const __m512i D = _mm512_or_si512(
        _mm512_sllv_epi32(sig, _mm512_sub_epi32(splat(32), s)),
        _mm512_srlv_epi32(sig, _mm512_sub_epi32(s, splat(32))));
    const __mmask16 carry =
        _mm512_cmplt_epu32_mask(_mm512_add_epi32(D, r_aligned), r_aligned);
    const __m512i kept = _mm512_srlv_epi32(sig, s);
    mag = _mm512_mask_mov_epi32(
        mag, below, _mm512_mask_sub_epi32(kept, carry, kept, splat(0xFFFFFFFFu)));
  }
  // Overflow, NaN and Inf as nearest-even (the magnitude of an overflowing
  // or special lane is above max finite here too).
  return finish16_fast<F, Ovf>(x, a, mag);
}

// x: float bit patterns; r_aligned: random lanes << (32 - random_bits).
// MayBeBelow false promises that any_below_min_normal was false for x.
template <class F, overflow Ovf, bool MayBeBelow = true>
MF_TARGET_AVX512 inline __m512i encode16_stochastic(__m512i x, __m512i r_aligned) {
  if constexpr (stochastic_fast_path<F>::eligible) {
    return encode16_stochastic_fast<F, Ovf, MayBeBelow>(x, r_aligned);
  }
  // Overflow under stochastic rounding goes away from zero, as nearest-even.
  using C = detail::encode_constants<F, rounding::nearest_even, Ovf>;
  // s unclamped: D takes every bit below the quantum.
  const float_parts16 p = split16<C, false>(x);
  const __m512i kept = _mm512_srlv_epi32(p.sig, p.s);
  // D = sig * 2^(32 - s) truncated to 32 bits: a left shift while s <= 32
  // (the kept bits leave at the top), a right shift beyond; vpsllvd and
  // vpsrlvd give 0 for counts of 32 or more, so one of the two is zero.
  const __m512i D = _mm512_or_si512(
      _mm512_sllv_epi32(p.sig, _mm512_sub_epi32(splat(32), p.s)),
      _mm512_srlv_epi32(p.sig, _mm512_sub_epi32(p.s, splat(32))));
  const __mmask16 carry =
      _mm512_cmplt_epu32_mask(_mm512_add_epi32(D, r_aligned), r_aligned);
  const __m512i truncated = _mm512_add_epi32(p.base, kept);
  __m512i res = signed_encoding<F, C>(
      _mm512_mask_sub_epi32(truncated, carry, truncated, splat(0xFFFFFFFFu)), p.neg);
  if constexpr (!F::has_subnormals) {
    // fnu (e8m0fnu): below min normal is the smallest value, encoding 0...
    res = _mm512_mask_mov_epi32(res, below_min_normal<F>(p.E), _mm512_setzero_si512());
    if constexpr (F::min_exponent == -127) {
      // ...except [2^-127, 2^-126) (float subnormals with bit 22 set): kept
      // is 2^-127, encoding 0, the fraction is bits 0..21, and its carry
      // takes it to encoding 1.
      const __m512i sum0 = _mm512_add_epi32(_mm512_slli_epi32(p.a, 10), r_aligned);
      const __mmask16 up = static_cast<__mmask16>(
          _mm512_cmplt_epu32_mask(sum0, r_aligned) &
          _mm512_cmpge_epu32_mask(p.a, splat(0x400000u)));
      res = _mm512_mask_mov_epi32(res, _mm512_cmpeq_epi32_mask(p.E, _mm512_setzero_si512()),
                                  _mm512_maskz_mov_epi32(up, splat(1)));
    }
  }
  return with_special_inputs<F, C>(res, p.a, p.neg);
}

}  // namespace avx512_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_X86
