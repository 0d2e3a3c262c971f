// The AVX2 kernel set (AVX2 + FMA + F16C). Every function carries its own
// target attribute, so no -march flag is needed; dispatch.hpp only calls
// these after CPUID and XCR0 said the CPU and OS support them.
#pragma once

#include "../target/region.hpp"
#include "../simd/x86/avx2/integer_ops.hpp"
#include "../target/dispatch.hpp"
#include "scalar.hpp"

#if MF_HAS_X86_KERNELS
#include "../target/x86_intrinsics.hpp"

// The generic algorithms, compiled for AVX2.
MF_SIMD_REGION_BEGIN_AVX2
namespace mf::bulk::avx2 {
using ops = simd::avx2::int32_ops;
#include "../lanes/decode_lanes.hpp"
#include "generic/decode_loop.hpp"
#include "../lanes/encode_lanes.hpp"
}  // namespace mf::bulk::avx2
MF_SIMD_REGION_END

namespace mf {
namespace bulk {
namespace avx2 {

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

// generic/decode_loop.hpp.
template <class Fmt>
MF_TARGET_AVX2 inline void decode(const typename Fmt::storage_type* in, float* out,
                                  std::size_t n) {
  decode_loop<Fmt, false>(in, out, n, 1.0f);
}

}  // namespace avx2
}  // namespace bulk
}  // namespace mf

#endif  // MF_HAS_X86_KERNELS
