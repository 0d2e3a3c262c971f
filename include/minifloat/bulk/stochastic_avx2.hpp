// Stochastic rounding of 8 floats at once (AVX2): the steps of
// stochastic_avx512.hpp (see there for the rule), with vector masks in
// place of opmasks.
#pragma once

#include "avx2.hpp"

#if MF_BULK_X86

namespace mf {
namespace bulk {
namespace avx2_kernels {

// x: float bit patterns; r_aligned: random lanes << (32 - random_bits).
template <class F, overflow Ovf>
MF_TARGET_AVX2 inline __m256i encode8_stochastic(__m256i x, __m256i r_aligned) {
  using C = detail::encode_constants<F, rounding::nearest_even, Ovf>;
  // s unclamped: D takes every bit below the quantum.
  const float_parts8 p = split8<C, false>(x);
  const __m256i kept = _mm256_srlv_epi32(p.sig, p.s);
  const __m256i D = _mm256_or_si256(
      _mm256_sllv_epi32(p.sig, _mm256_sub_epi32(splat(32), p.s)),
      _mm256_srlv_epi32(p.sig, _mm256_sub_epi32(p.s, splat(32))));
  // Carry out of D + r: the sum wrapped below r. no_carry is all ones where
  // max(sum, r) == sum.
  const __m256i sum = _mm256_add_epi32(D, r_aligned);
  const __m256i no_carry = _mm256_cmpeq_epi32(_mm256_max_epu32(sum, r_aligned), sum);
  // base + kept + carry == base + kept + 1 + (no_carry ? -1 : 0).
  const __m256i mag = _mm256_add_epi32(
      _mm256_add_epi32(_mm256_add_epi32(p.base, kept), splat(1)), no_carry);
  __m256i res = signed_encoding<F, C>(mag, p.neg);
  if constexpr (!F::has_subnormals) {
    res = _mm256_andnot_si256(below_min_normal<F>(p.E), res);
    if constexpr (F::min_exponent == -127) {
      // [2^-127, 2^-126): encoding 0, or 1 on a carry (see the AVX-512 kernel).
      const __m256i sum0 = _mm256_add_epi32(_mm256_slli_epi32(p.a, 10), r_aligned);
      const __m256i no_carry0 = _mm256_cmpeq_epi32(_mm256_max_epu32(sum0, r_aligned), sum0);
      const __m256i up = _mm256_andnot_si256(
          no_carry0, _mm256_and_si256(_mm256_cmpgt_epi32(p.a, splat(0x3FFFFFu)), splat(1)));
      res = _mm256_blendv_epi8(res, up, _mm256_cmpeq_epi32(p.E, _mm256_setzero_si256()));
    }
  }
  return with_special_inputs<F, C>(res, p.a, p.neg);
}

}  // namespace avx2_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_X86
