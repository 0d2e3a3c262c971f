// The AVX2 kernel set (AVX2 + FMA + F16C). Every function carries its own
// target attribute, so no -march flag is needed; dispatch.hpp only calls
// these after CPUID and XCR0 said the CPU and OS support them.
#pragma once

#include <type_traits>

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

// ---- decode through binary16 (F16C), e5m2 ------------------------------
// An e5m2 encoding is the top byte of the binary16 of its value
// (lanes::encodings_are_binary16_top_byte), so 16 bytes interleaved with
// zero bytes are 16 halves, and vcvtph2ps widens each 8 of them to floats
// exactly; the conversion ignores MXCSR's DAZ and cannot round, so no MXCSR
// setting changes the result. NaN bytes become sign | 0x7E first: the scalar
// decode gives the quiet NaN 0x7FC00000 with the input's sign, where the
// conversion would keep the payload. About 6 instructions per 8 elements
// against about 14 for the decode from the fields (docs/performance.md).
template <class Fmt>
MF_TARGET_AVX2 inline std::size_t decode_binary16_loop(const std::uint8_t* in, float* out,
                                                       std::size_t n) {
  static_assert(lanes::encodings_are_binary16_top_byte<typename Fmt::format>, "e5m2's layout");
  const __m128i magnitude = _mm_set1_epi8(0x7F);
  const __m128i infinity = _mm_set1_epi8(0x7C);
  const __m128i quiet_nan = _mm_set1_epi8(0x7E);
  const __m128i zero = _mm_setzero_si128();
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    __m128i bytes = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i));
    // Magnitudes are below 0x80, so the signed byte compare is the unsigned one.
    const __m128i nan = _mm_cmpgt_epi8(_mm_and_si128(bytes, magnitude), infinity);
    bytes = _mm_blendv_epi8(bytes, _mm_or_si128(_mm_andnot_si128(magnitude, bytes), quiet_nan),
                            nan);
    _mm256_storeu_ps(out + i, _mm256_cvtph_ps(_mm_unpacklo_epi8(zero, bytes)));
    _mm256_storeu_ps(out + i + 8, _mm256_cvtph_ps(_mm_unpackhi_epi8(zero, bytes)));
  }
  return i;
}

// ---- decode through binary16 (F16C), e4m3fn -----------------------------
// An e4m3fn encoding with its magnitude shifted left by 7 and its sign moved
// to bit 15 is the binary16 of its value times 2^-8: the exponent field
// (bias 7 against binary16's 15) and the mantissa keep their places, for
// subnormals too. vcvtph2ps widens it exactly and x 256 restores the value
// exactly (the product is a normal float, so neither MXCSR's rounding nor
// DAZ/FTZ can change it). The NaN bytes (magnitude 0x7F, which binary16
// reads as a finite 1.875 x 2^0) become sign | 0x7E00 first, the quiet NaN
// that the multiply passes through. About 9 instructions per 8 elements
// against about 14 for the decode from the fields.
template <class Fmt>
inline constexpr bool decodes_as_scaled_binary16 =
    std::is_same_v<typename Fmt::format, typename mf::e4m3fn::format>;

template <class Fmt>
MF_TARGET_AVX2 inline std::size_t decode_scaled_binary16_loop(const std::uint8_t* in, float* out,
                                                              std::size_t n) {
  static_assert(decodes_as_scaled_binary16<Fmt>, "e4m3fn's layout");
  const __m256i magnitude = _mm256_set1_epi16(0x7F);
  const __m256i sign = _mm256_set1_epi16(0x80);
  const __m256i quiet_nan = _mm256_set1_epi16(0x7E00);
  const __m256 scale = _mm256_set1_ps(256.0f);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m256i bytes =
        _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i)));
    // (b + (b & 0x80)) << 7 is (b & 0x7F) << 7 with the sign at bit 15.
    const __m256i signs = _mm256_and_si256(bytes, sign);
    __m256i halves = _mm256_slli_epi16(_mm256_add_epi16(bytes, signs), 7);
    const __m256i nan = _mm256_cmpeq_epi16(_mm256_and_si256(bytes, magnitude), magnitude);
    halves = _mm256_blendv_epi8(halves, _mm256_or_si256(_mm256_slli_epi16(signs, 8), quiet_nan),
                                nan);
    _mm256_storeu_ps(out + i,
                     _mm256_mul_ps(_mm256_cvtph_ps(_mm256_castsi256_si128(halves)), scale));
    _mm256_storeu_ps(out + i + 8,
                     _mm256_mul_ps(_mm256_cvtph_ps(_mm256_extracti128_si256(halves, 1)), scale));
  }
  return i;
}

// generic/decode_loop.hpp; e5m2 and e4m3fn through binary16, their last
// 0..15 elements through the generic loop.
template <class Fmt>
MF_TARGET_AVX2 inline void decode(const typename Fmt::storage_type* in, float* out,
                                  std::size_t n) {
  if constexpr (lanes::encodings_are_binary16_top_byte<typename Fmt::format>) {
    const std::size_t done = decode_binary16_loop<Fmt>(in, out, n);
    decode_loop<Fmt, false>(in + done, out + done, n - done, 1.0f);
  } else if constexpr (decodes_as_scaled_binary16<Fmt>) {
    const std::size_t done = decode_scaled_binary16_loop<Fmt>(in, out, n);
    decode_loop<Fmt, false>(in + done, out + done, n - done, 1.0f);
  } else {
    decode_loop<Fmt, false>(in, out, n, 1.0f);
  }
}

}  // namespace avx2
}  // namespace bulk
}  // namespace mf

#endif  // MF_HAS_X86_KERNELS
