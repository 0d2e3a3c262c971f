// Stochastic rounding of 8 floats at once (AVX2): the steps of
// stochastic_avx512.hpp (see there for the rule), with vector masks in
// place of opmasks.
#pragma once

#include "avx2.hpp"

#if MF_BULK_X86

namespace mf {
namespace bulk {
namespace avx2_kernels {

// x: float bit patterns; r_aligned: random words << (32 - random_bits).
template <class F, overflow Ovf>
MF_TARGET_AVX2 inline __m256i encode8_stochastic(__m256i x, __m256i r_aligned) {
  using C = detail::encode_constants<F, rounding::nearest_even, Ovf>;
  const __m256i a = _mm256_and_si256(x, splat(0x7FFFFFFFu));
  const __m256i neg = _mm256_srai_epi32(x, 31);
  const __m256i E = _mm256_srli_epi32(a, 23);
  const __m256i Eeff = _mm256_max_epi32(E, splat(1));
  const __m256i sig =
      _mm256_sub_epi32(a, _mm256_slli_epi32(_mm256_sub_epi32(Eeff, splat(1)), 23));
  const __m256i s = _mm256_max_epi32(_mm256_sub_epi32(splat(C::shift_base), Eeff),
                                     splat(C::normal_shift));
  const __m256i base = _mm256_slli_epi32(
      _mm256_max_epi32(_mm256_sub_epi32(Eeff, splat(C::base_offset)),
                       _mm256_setzero_si256()),
      C::M);
  const __m256i kept = _mm256_srlv_epi32(sig, s);
  const __m256i D = _mm256_or_si256(
      _mm256_sllv_epi32(sig, _mm256_sub_epi32(splat(32), s)),
      _mm256_srlv_epi32(sig, _mm256_sub_epi32(s, splat(32))));
  // Carry out of D + r: the sum wrapped below r. no_carry is all ones where
  // max(sum, r) == sum.
  const __m256i sum = _mm256_add_epi32(D, r_aligned);
  const __m256i no_carry = _mm256_cmpeq_epi32(_mm256_max_epu32(sum, r_aligned), sum);
  // base + kept + carry == base + kept + 1 + (no_carry ? -1 : 0).
  const __m256i mag = _mm256_add_epi32(
      _mm256_add_epi32(_mm256_add_epi32(base, kept), splat(1)), no_carry);
  __m256i res = mag;
  if constexpr (F::is_signed) {
    res = _mm256_or_si256(res, _mm256_and_si256(neg, splat(C::sign_mask)));
  }
  if constexpr (F::encoding == specials::fnuz) {
    res = _mm256_andnot_si256(_mm256_cmpeq_epi32(mag, _mm256_setzero_si256()), res);
  }
  const __m256i overflowed =
      _mm256_cmpgt_epi32(mag, splat(C::max_finite));
  res = _mm256_blendv_epi8(res, select_by_sign(neg, C::overflow_pos, C::overflow_neg),
                           overflowed);
  if constexpr (!F::has_subnormals) {
    const __m256i below = _mm256_cmpgt_epi32(
        _mm256_set1_epi32(F::min_exponent + 127), E);
    res = _mm256_andnot_si256(below, res);
    if constexpr (F::min_exponent == -127) {
      // [2^-127, 2^-126): encoding 0, or 1 on a carry (see the AVX-512 kernel).
      const __m256i sum0 = _mm256_add_epi32(_mm256_slli_epi32(a, 10), r_aligned);
      const __m256i no_carry0 = _mm256_cmpeq_epi32(_mm256_max_epu32(sum0, r_aligned), sum0);
      const __m256i up = _mm256_andnot_si256(
          no_carry0, _mm256_and_si256(_mm256_cmpgt_epi32(a, splat(0x3FFFFFu)), splat(1)));
      res = _mm256_blendv_epi8(res, up, _mm256_cmpeq_epi32(E, _mm256_setzero_si256()));
    }
    const __m256i negative_nonzero = _mm256_andnot_si256(
        _mm256_cmpeq_epi32(a, _mm256_setzero_si256()), neg);
    res = _mm256_blendv_epi8(res, splat(F::positive_nan), negative_nonzero);
  }
  const __m256i special = _mm256_cmpgt_epi32(a, splat(0x7F7FFFFFu));
  const __m256i is_inf = _mm256_cmpeq_epi32(a, splat(0x7F800000u));
  const __m256i special_value =
      _mm256_blendv_epi8(select_by_sign(neg, C::nan_pos, C::nan_neg),
                         select_by_sign(neg, C::inf_pos, C::inf_neg), is_inf);
  return _mm256_blendv_epi8(res, special_value, special);
}

}  // namespace avx2_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_X86
