// The integer MatMul's requantization (hybrid/requantize.hpp) on 8
// accumulators at a time with AVX2, the same bits as
// requantizer::operator() and the same two vector forms as the AVX-512 one
// (x86/avx512/requantize.hpp says why each is exact):
//  * fp32: float(acc) * scale, clamped, converted by VCVTPS2DQ (MXCSR's
//    rounding, as nearbyint);
//  * exact, where the scale makes it a right shift: acc * m in int64
//    (VPMULDQ), |p| shifted right with half-even rounding, clamped. AVX2
//    has no 64-bit abs, min, max or unsigned compare: the magnitude is
//    (p ^ s) - s with s the sign mask, and the compares are signed, which
//    is right here (every value compared lies within +-2^62).
// Other scales take the scalar rule.
#pragma once

#include "../../../../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../../../../target/x86_intrinsics.hpp"
#include "../../../requantize.hpp"

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::hybrid::kernels::avx2 {

// The low bytes of the 8 int32 lanes of v (each within [-128, 255]).
MF_FORCE_INLINE std::uint64_t low_bytes_of_int32(__m256i v) noexcept {
  // Per 128-bit half: bytes 0, 4, 8, 12 to bytes 0-3; then halves' words 0 and 4.
  const __m256i gather = _mm256_setr_epi8(0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,  //
                                          0, 4, 8, 12, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1);
  const __m256i packed =
      _mm256_permutevar8x32_epi32(_mm256_shuffle_epi8(v, gather), _mm256_setr_epi32(0, 4, 1, 1, 1, 1, 1, 1));
  return static_cast<std::uint64_t>(_mm_cvtsi128_si64(_mm256_castsi256_si128(packed)));
}

// 4 int64 results of the exact rule for 4 accumulators (as int64 lanes).
MF_FORCE_INLINE __m256i exact_rule4(__m256i acc, const hybrid::detail::requantizer& q) noexcept {
  const __m256i p = _mm256_mul_epi32(acc, _mm256_set1_epi64x(q.significand));
  const __m256i negative = _mm256_cmpgt_epi64(_mm256_setzero_si256(), p);  // all ones where p < 0
  const __m256i mag = _mm256_sub_epi64(_mm256_xor_si256(p, negative), negative);
  const int s = -q.exponent;  // 1 to 62 (exact_by_right_shift)
  const __m256i quotient = _mm256_srl_epi64(mag, _mm_cvtsi32_si128(s));
  const __m256i rest = _mm256_and_si256(mag, _mm256_set1_epi64x(static_cast<long long>((1ull << s) - 1u)));
  const __m256i half = _mm256_set1_epi64x(static_cast<long long>(1ull << (s - 1)));
  const __m256i one = _mm256_set1_epi64x(1);
  const __m256i odd = _mm256_cmpeq_epi64(_mm256_and_si256(quotient, one), one);
  const __m256i up = _mm256_or_si256(_mm256_cmpgt_epi64(rest, half),
                                     _mm256_and_si256(_mm256_cmpeq_epi64(rest, half), odd));
  __m256i r = _mm256_sub_epi64(quotient, up);  // up is -1 where the quotient rounds up
  r = _mm256_sub_epi64(_mm256_xor_si256(r, negative), negative);
  const __m256i lo = _mm256_set1_epi64x(q.lo), hi = _mm256_set1_epi64x(q.hi);
  r = _mm256_blendv_epi8(r, lo, _mm256_cmpgt_epi64(lo, r));
  return _mm256_blendv_epi8(r, hi, _mm256_cmpgt_epi64(r, hi));
}

inline void requantize_row(const hybrid::detail::requantizer& q, const std::int32_t* in,
                           std::size_t n, std::uint8_t* out) noexcept {
  std::size_t j = 0;
  if (!q.exact) {
    const __m256 scale = _mm256_set1_ps(q.scale);
    const __m256 low = _mm256_set1_ps(static_cast<float>(q.lo));
    const __m256 high = _mm256_set1_ps(static_cast<float>(q.hi));
    for (; j + 8 <= n; j += 8) {
      const __m256i acc = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + j));
      const __m256 y = _mm256_mul_ps(_mm256_cvtepi32_ps(acc), scale);
      const __m256 clamped = _mm256_min_ps(_mm256_max_ps(y, low), high);
      const std::uint64_t bytes = low_bytes_of_int32(_mm256_cvtps_epi32(clamped));
      std::memcpy(out + j, &bytes, 8);
    }
  } else if (q.exact_by_right_shift()) {
    for (; j + 8 <= n; j += 8) {
      const __m256i acc = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in + j));
      const __m256i low4 = exact_rule4(_mm256_cvtepi32_epi64(_mm256_castsi256_si128(acc)), q);
      const __m256i high4 = exact_rule4(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(acc, 1)), q);
      // int64 lanes -> int32 lanes (the low halves), then their low bytes.
      const __m256i pick = _mm256_setr_epi32(0, 2, 4, 6, 0, 2, 4, 6);
      const __m256i words = _mm256_blend_epi32(_mm256_permutevar8x32_epi32(low4, pick),
                                               _mm256_permutevar8x32_epi32(high4, pick), 0xF0);
      const std::uint64_t bytes = low_bytes_of_int32(words);
      std::memcpy(out + j, &bytes, 8);
    }
  }
  for (; j < n; ++j) out[j] = q(in[j]);
}

}  // namespace mf::hybrid::kernels::avx2
MF_SIMD_REGION_END
#endif
