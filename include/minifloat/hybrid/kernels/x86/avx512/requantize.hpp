// The integer MatMul's requantization (hybrid/requantize.hpp) on 16
// accumulators at a time, the same bits as requantizer::operator():
//  * fp32: float(acc) * scale (both rounded to float32 in the current
//    rounding mode, as the scalar rule), clamped, converted to an integer by
//    VCVTPS2DQ, which rounds in MXCSR's mode as nearbyint does;
//  * exact, when the scale's exponent makes it a right shift (every scale
//    from 2^-39 to below 2^23): acc * m in int64 (VPMULDQ on the even and
//    odd lanes), |p| shifted right with half-even rounding, clamped.
// Other scales take the scalar rule.
#pragma once

#include "../../../../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include <cstddef>
#include <cstdint>

#include "../../../../target/x86_intrinsics.hpp"
#include "../../../requantize.hpp"

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::hybrid::kernels::avx512 {

// 8 int64 results of the exact rule for the accumulators of 8 lanes
// (sign-extended to 64 bits).
MF_FORCE_INLINE __m512i exact_rule8(__m512i acc, const hybrid::detail::requantizer& q) {
  const __m512i p = _mm512_mul_epi32(acc, _mm512_set1_epi64(q.significand));
  const __mmask8 negative = _mm512_cmplt_epi64_mask(p, _mm512_setzero_si512());
  const __m512i mag = _mm512_abs_epi64(p);
  const auto s = static_cast<unsigned>(-q.exponent);
  const __m512i quotient = _mm512_srli_epi64(mag, s);
  const __m512i rest = _mm512_and_si512(mag, _mm512_set1_epi64(static_cast<long long>((1ull << s) - 1u)));
  const __m512i half = _mm512_set1_epi64(static_cast<long long>(1ull << (s - 1)));
  const __mmask8 odd = _mm512_test_epi64_mask(quotient, _mm512_set1_epi64(1));
  const __mmask8 up = _mm512_cmpgt_epu64_mask(rest, half) |
                      (_mm512_cmpeq_epu64_mask(rest, half) & odd);
  __m512i r = _mm512_mask_add_epi64(quotient, up, quotient, _mm512_set1_epi64(1));
  r = _mm512_mask_sub_epi64(r, negative, _mm512_setzero_si512(), r);
  r = _mm512_max_epi64(r, _mm512_set1_epi64(q.lo));
  return _mm512_min_epi64(r, _mm512_set1_epi64(q.hi));
}

inline void requantize_row(const hybrid::detail::requantizer& q, const std::int32_t* in,
                           std::size_t n, std::uint8_t* out) noexcept {
  std::size_t j = 0;
  if (!q.exact) {
    const __m512 scale = _mm512_set1_ps(q.scale);
    const __m512 low = _mm512_set1_ps(static_cast<float>(q.lo));
    const __m512 high = _mm512_set1_ps(static_cast<float>(q.hi));
    for (; j + 16 <= n; j += 16) {
      const __m512 y = _mm512_mul_ps(_mm512_cvtepi32_ps(_mm512_loadu_si512(in + j)), scale);
      const __m512 clamped = _mm512_min_ps(_mm512_max_ps(y, low), high);
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + j),
                       _mm512_cvtepi32_epi8(_mm512_cvtps_epi32(clamped)));
    }
  } else if (q.exact_by_right_shift()) {
    for (; j + 8 <= n; j += 8) {
      const __m512i acc = _mm512_cvtepi32_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + j)));
      _mm_storel_epi64(reinterpret_cast<__m128i*>(out + j), _mm512_cvtepi64_epi8(exact_rule8(acc, q)));
    }
  }
  for (; j < n; ++j) out[j] = q(in[j]);
}

}  // namespace mf::hybrid::kernels::avx512
MF_SIMD_REGION_END
#endif
