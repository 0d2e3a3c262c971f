// The AVX2 encode loop (generic/encode_loop.hpp: the plain encode and the
// fused ones), and the AVX2 decode with the fused scale and amax alone.
// Tails run the same vector code over a zero-padded copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "avx2.hpp"
#include "fused_scalar.hpp"
#include "philox_simd.hpp"
#include "stochastic_avx2.hpp"

#if MF_BULK_X86

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::bulk::avx2_kernels {
// A stochastic group goes straight to the general steps: asking first
// whether a lane is below min normal made the AVX2 stochastic encodes 5-11%
// slower (Zen 1, docs/performance.md).
inline constexpr bool group_check_below_min_normal = false;
using philox_ops = simd::avx2::philox_ops;
using binary16_ops = simd::avx2::int16_ops;
#include "generic/amax_loop.hpp"
#include "generic/encode_loop.hpp"
}  // namespace mf::bulk::avx2_kernels
MF_SIMD_REGION_END

namespace mf {
namespace bulk {
namespace avx2_kernels {

template <class Fmt>
MF_TARGET_AVX2 inline void encode(const float* in, typename Fmt::storage_type* out, std::size_t n,
                                  rounding mode, overflow on_overflow) {
  encode_through_cache<Fmt>(in, out, n, mode, on_overflow);
}

template <class Fmt>
MF_TARGET_AVX2 inline void decode_scaled8(const typename Fmt::storage_type* in, float* out,
                                          __m256 factor) {
  using F = typename Fmt::format;
  using S = typename Fmt::storage_type;
  __m256i v;
  if constexpr (sizeof(S) == 1) {
    v = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(in)));
  } else {
    v = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in)));
  }
  v = _mm256_and_si256(v, splat(detail::decode_constants<F>::valid_mask));
  _mm256_storeu_ps(out, _mm256_mul_ps(_mm256_castsi256_ps(decode_vector<F>(v)), factor));
}

template <class Fmt>
MF_TARGET_AVX2 inline void decode_scaled(const typename Fmt::storage_type* in, float* out,
                                         std::size_t n, float scale) {
  using S = typename Fmt::storage_type;
  const __m256 factor = _mm256_set1_ps(scale);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) decode_scaled8<Fmt>(in + i, out + i, factor);
  if (i < n) {
    S buffer[8] = {};
    float result[8];
    std::memcpy(buffer, in + i, (n - i) * sizeof(S));
    decode_scaled8<Fmt>(buffer, result, factor);
    std::memcpy(out + i, result, (n - i) * sizeof(float));
  }
}

}  // namespace avx2_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_X86
