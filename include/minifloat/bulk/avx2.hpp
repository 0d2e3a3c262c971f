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

// The generic algorithms, compiled for AVX2.
MF_SIMD_REGION_BEGIN_AVX2
namespace mf::bulk::avx2_kernels {
using ops = simd::avx2::int32_ops;
#include "generic/decode_lanes.hpp"
#include "generic/encode_lanes.hpp"

// Decodes one vector of encodings (32-bit lanes, bits above the format's
// width cleared): generic/decode_lanes.hpp.
template <class F>
MF_FORCE_INLINE __m256i decode_vector(__m256i v) {
  return decode_lanes<F, ops>(v);
}
}  // namespace mf::bulk::avx2_kernels
MF_SIMD_REGION_END

namespace mf {
namespace bulk {
namespace avx2_kernels {

MF_TARGET_AVX2 inline __m256i splat(unsigned v) {
  return _mm256_set1_epi32(static_cast<int>(v));
}

// Narrows 4 x 8 encodings (each < 2^16) into 32 outputs.
template <class Storage>
MF_TARGET_AVX2 inline void store_vectors(Storage* out, __m256i r0, __m256i r1,
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
                        decode_vector<F>(_mm256_and_si256(v0, valid)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + 8),
                        decode_vector<F>(_mm256_and_si256(v1, valid)));
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
