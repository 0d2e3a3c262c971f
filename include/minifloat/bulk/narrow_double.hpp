// double -> float rounded to odd, the first step of the bulk double
// encode (sources.hpp; kernel_sets.hpp chooses the kernel): scalar, and an
// AVX-512 kernel in 64-bit integer
// lanes (no floating-point instruction, so MXCSR's rounding direction, DAZ
// and FTZ cannot change it).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../target/region.hpp"
#include "../target/dispatch.hpp"

#if MF_HAS_X86_KERNELS
#include "../target/x86_intrinsics.hpp"
#endif

namespace mf {
namespace bulk {
namespace detail {

// The float nearest to d toward zero, with its last bit set when that is
// inexact (round to odd). NaN becomes the quiet NaN with d's sign; beyond
// float's range gives +-FLT_MAX (odd, so still marked inexact).
constexpr std::uint32_t double_to_float_round_to_odd(std::uint64_t d) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(d >> 32) & 0x80000000u;
  const std::uint64_t magnitude = d & 0x7FFFFFFFFFFFFFFFull;
  const int field = static_cast<int>(magnitude >> 52);
  const std::uint64_t mantissa = magnitude & 0x000FFFFFFFFFFFFFull;
  if (field == 0x7FF) {
    return sign | 0x7F800000u | (mantissa != 0 ? 0x00400000u : 0u);
  }
  if (magnitude == 0) return sign;
  // Double subnormals are far below float's range: only "non-zero" survives.
  const int exponent = field != 0 ? field - 1023 : -1022;
  if (exponent > 127) return sign | 0x7F7FFFFFu;
  const std::uint64_t significand =
      field != 0 ? (mantissa | (std::uint64_t{1} << 52)) : mantissa;
  // Float keeps 24 bits of a normal, fewer below 2^-126.
  const int dropped_bits = 29 + (exponent < -126 ? -126 - exponent : 0);
  const std::uint64_t kept = dropped_bits < 64 ? significand >> dropped_bits : 0u;
  const bool inexact =
      dropped_bits < 64
          ? (significand & ((std::uint64_t{1} << dropped_bits) - 1u)) != 0
          : true;
  // A normal's kept significand carries the hidden bit at 2^23, which adds
  // the one missing from (exponent + 126); a subnormal's has none.
  const int biased = exponent < -126 ? 0 : exponent + 126;
  const std::uint32_t bits =
      (static_cast<std::uint32_t>(biased) << 23) + static_cast<std::uint32_t>(kept);
  return sign | bits | (inexact ? 1u : 0u);
}

inline void narrow_to_odd_scalar(const double* in, float* out, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    std::uint64_t bits;
    std::memcpy(&bits, in + i, sizeof bits);
    const std::uint32_t f = double_to_float_round_to_odd(bits);
    std::memcpy(out + i, &f, sizeof f);
  }
}

#if MF_HAS_X86_KERNELS
// The AVX-512 set's features (it runs only when isa::avx512 is active).

MF_TARGET_AVX512 inline __m512i splat64(std::uint64_t v) {
  return _mm512_set1_epi64(static_cast<long long>(v));
}

// The scalar function's steps on eight doubles, as float bits in 64-bit lanes.
MF_TARGET_AVX512 inline __m256i narrow_to_odd8(__m512i d) {
  const __m512i magnitude = _mm512_and_si512(d, splat64(0x7FFFFFFFFFFFFFFFull));
  const __m512i sign = _mm512_and_si512(_mm512_srli_epi64(d, 32), splat64(0x80000000u));
  // At or above 2^-126: the top 23 mantissa bits, the exponent rebiased by
  // 1023 - 127; inexact when any of the 29 dropped bits is set.
  __m512i result = _mm512_sub_epi64(_mm512_srli_epi64(magnitude, 29),
                                    splat64(std::uint64_t{1023 - 127} << 23));
  __mmask8 inexact = _mm512_test_epi64_mask(magnitude, splat64((std::uint64_t{1} << 29) - 1));
  // Below 2^-126: the significand shifted right by 926 - field (29 plus the
  // distance below -126; past 63 the shift gives 0); inexact when shifting
  // back does not restore it. Double subnormals (field 0) have no hidden bit.
  const __m512i field = _mm512_srli_epi64(magnitude, 52);
  const __m512i mantissa = _mm512_and_si512(magnitude, splat64(0x000FFFFFFFFFFFFFull));
  const __m512i significand = _mm512_mask_or_epi64(
      mantissa, _mm512_test_epi64_mask(field, field), mantissa, splat64(std::uint64_t{1} << 52));
  const __m512i shift = _mm512_sub_epi64(splat64(926), field);
  const __m512i kept = _mm512_srlv_epi64(significand, shift);
  const __mmask8 small = _mm512_cmplt_epu64_mask(magnitude, splat64(0x3810000000000000ull));
  result = _mm512_mask_mov_epi64(result, small, kept);
  const __mmask8 small_inexact =
      _mm512_cmpneq_epi64_mask(_mm512_sllv_epi64(kept, shift), significand);
  inexact = static_cast<__mmask8>((inexact & ~small) | (small_inexact & small));
  result = _mm512_mask_or_epi64(result, inexact, result, splat64(1));
  // From 2^128 up: FLT_MAX (odd); Inf; NaN (quiet).
  result = _mm512_mask_mov_epi64(
      result, _mm512_cmpge_epu64_mask(magnitude, splat64(0x47F0000000000000ull)),
      splat64(0x7F7FFFFFu));
  result = _mm512_mask_mov_epi64(
      result, _mm512_cmpeq_epi64_mask(magnitude, splat64(0x7FF0000000000000ull)),
      splat64(0x7F800000u));
  result = _mm512_mask_mov_epi64(
      result, _mm512_cmpgt_epu64_mask(magnitude, splat64(0x7FF0000000000000ull)),
      splat64(0x7FC00000u));
  return _mm512_cvtepi64_epi32(_mm512_or_si512(result, sign));
}

MF_TARGET_AVX512 inline void narrow_to_odd_avx512(const double* in, float* out,
                                                         std::size_t n) {
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i),
                        narrow_to_odd8(_mm512_loadu_si512(in + i)));
  }
  if (i < n) {
    const __mmask8 m = static_cast<__mmask8>((1u << (n - i)) - 1u);
    _mm256_mask_storeu_epi32(out + i, m, narrow_to_odd8(_mm512_maskz_loadu_epi64(m, in + i)));
  }
}
#endif

}  // namespace detail
}  // namespace bulk
}  // namespace mf
