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
  const __m512i a = _mm512_and_si512(x, splat(0x7FFFFFFFu));
  const __mmask16 neg = _mm512_movepi32_mask(x);
  const __m512i E = _mm512_srli_epi32(a, 23);
  const __m512i Eeff = _mm512_max_epu32(E, splat(1));
  // Significand with its hidden bit (none for float subnormals).
  const __m512i sig =
      _mm512_sub_epi32(a, _mm512_slli_epi32(_mm512_sub_epi32(Eeff, splat(1)), 23));
  // Bits below the quantum: 23 - M in the format's normal range, more below.
  const __m512i s = _mm512_max_epi32(_mm512_sub_epi32(splat(C::shift_base), Eeff),
                                     splat(C::normal_shift));
  const __m512i base = _mm512_slli_epi32(
      _mm512_max_epi32(_mm512_sub_epi32(Eeff, splat(C::base_offset)),
                       _mm512_setzero_si512()),
      C::M);
  const __m512i kept = _mm512_srlv_epi32(sig, s);
  // D = sig * 2^(32 - s) truncated to 32 bits: a left shift while s <= 32
  // (the kept bits leave at the top), a right shift beyond; vpsllvd and
  // vpsrlvd give 0 for counts of 32 or more, so one of the two is zero.
  const __m512i D = _mm512_or_si512(
      _mm512_sllv_epi32(sig, _mm512_sub_epi32(splat(32), s)),
      _mm512_srlv_epi32(sig, _mm512_sub_epi32(s, splat(32))));
  const __mmask16 carry =
      _mm512_cmplt_epu32_mask(_mm512_add_epi32(D, r_aligned), r_aligned);
  const __m512i mag = _mm512_mask_sub_epi32(_mm512_add_epi32(base, kept), carry,
                                            _mm512_add_epi32(base, kept), splat(0xFFFFFFFFu));
  __m512i res = mag;
  if constexpr (F::is_signed) {
    res = _mm512_mask_or_epi32(res, neg, res, splat(C::sign_mask));
  }
  if constexpr (F::encoding == specials::fnuz) {
    res = _mm512_maskz_mov_epi32(_mm512_test_epi32_mask(mag, mag), res);
  }
  res = _mm512_mask_mov_epi32(res, _mm512_cmpgt_epu32_mask(mag, splat(C::max_finite)),
                              select_by_sign(neg, C::overflow_pos, C::overflow_neg));
  if constexpr (!F::has_subnormals) {
    // fnu (e8m0fnu): below min normal is the smallest value, encoding 0...
    const __mmask16 below =
        _mm512_cmplt_epi32_mask(E, splat(static_cast<unsigned>(F::min_exponent + 127)));
    res = _mm512_mask_mov_epi32(res, below, _mm512_setzero_si512());
    if constexpr (F::min_exponent == -127) {
      // ...except [2^-127, 2^-126) (float subnormals with bit 22 set): kept
      // is 2^-127, encoding 0, the fraction is bits 0..21, and its carry
      // takes it to encoding 1.
      const __m512i sum0 = _mm512_add_epi32(_mm512_slli_epi32(a, 10), r_aligned);
      const __mmask16 up = static_cast<__mmask16>(
          _mm512_cmplt_epu32_mask(sum0, r_aligned) &
          _mm512_cmpge_epu32_mask(a, splat(0x400000u)));
      res = _mm512_mask_mov_epi32(res, _mm512_cmpeq_epi32_mask(E, _mm512_setzero_si512()),
                                  _mm512_maskz_mov_epi32(up, splat(1)));
    }
    const __mmask16 negative_nonzero = neg & _mm512_test_epi32_mask(a, a);
    res = _mm512_mask_mov_epi32(res, negative_nonzero, splat(F::positive_nan));
  }
  const __mmask16 special = _mm512_cmpgt_epu32_mask(a, splat(0x7F7FFFFFu));
  const __mmask16 is_inf = _mm512_cmpeq_epi32_mask(a, splat(0x7F800000u));
  res = _mm512_mask_mov_epi32(res, special, select_by_sign(neg, C::nan_pos, C::nan_neg));
  return _mm512_mask_mov_epi32(res, is_inf, select_by_sign(neg, C::inf_pos, C::inf_neg));
}

}  // namespace avx512_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_X86
