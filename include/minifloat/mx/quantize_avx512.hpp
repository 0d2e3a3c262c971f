// AVX-512 MX quantize for MXFP8 (e4m3fn, e5m2) and MXFP4
// (e2m1fn), whole blocks of a multiple of 16 elements. Per block: amax by
// an integer max of the magnitudes, the scale by the same rule as the
// scalar path (scale.hpp), then each element divided by X exactly on its
// bits and rounded to the element (nearest even, saturating) by bulk's
// generic encoder (lanes/encode_lanes.hpp: integer rounding, and an
// embedded-rounding add for subnormals), so nothing depends on MXCSR. Same
// bytes as the scalar path.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "block.hpp"
#include "element.hpp"
#include "scale.hpp"
#include "x86_lanes.hpp"
#include "../target/dispatch.hpp"
#include "../target/prefetch.hpp"

#if MF_HAS_X86_KERNELS

namespace mf {
namespace mx {
namespace avx512 {


// V * 2^shift exactly, below 2^-126 to +-0: scale.hpp's
// scale_by_power_of_two on 16 lanes. A float subnormal V is normalised by
// converting its integer significand to float (exact: < 2^23).
MF_TARGET_AVX512 inline __m512i scale16(__m512i x, __m512i shift, __m512i shift_subnormal) {
  const __m512i a = _mm512_and_si512(x, splat(0x7FFFFFFFu));
  const __mmask16 sub = _mm512_cmplt_epu32_mask(a, splat(0x00800000u));
  const __m512i src = _mm512_mask_mov_epi32(a, sub, _mm512_castps_si512(_mm512_cvtepi32_ps(a)));
  const __m512i adjust = _mm512_mask_mov_epi32(shift, sub, shift_subnormal);
  const __mmask16 keep = _mm512_cmpgt_epi32_mask(
      _mm512_add_epi32(_mm512_srli_epi32(src, 23), adjust), _mm512_setzero_si512());
  const __m512i r = _mm512_maskz_add_epi32(keep, src, _mm512_slli_epi32(adjust, 23));
  return _mm512_ternarylogic_epi32(r, x, splat(0x80000000u), 0xF8);  // r | (x & sign)
}

// 16 codes (32-bit lanes) -> 16 bytes (8-bit) or 8 bytes (4-bit, packed).
template <int Bits>
MF_TARGET_AVX512 inline void store_codes16(std::uint8_t* out, __m512i c) {
  if constexpr (Bits == 8) {
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out), _mm512_cvtepi32_epi8(c));
  } else {
    // Code 2i sits in the low dword of a qword, 2i+1 in the high one.
    const __m512i pairs = _mm512_or_si512(c, _mm512_srli_epi64(c, 28));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm512_cvtepi64_epi8(pairs));
  }
}

// The largest lane of each of 16 vectors, as the 16 lanes of one: pairs
// are merged with in-lane unpacks, then 128-bit lanes with shuffles, each
// step halving the vector count (lane b of the result is vector b's max).
MF_TARGET_AVX512 inline __m512i transpose_max16(const __m512i (&m)[16]) {
  __m512i t[8];
  MF_UNROLL
  for (int i = 0; i < 8; ++i) {
    t[i] = _mm512_max_epu32(_mm512_unpacklo_epi32(m[2 * i], m[2 * i + 1]),
                            _mm512_unpackhi_epi32(m[2 * i], m[2 * i + 1]));
  }
  __m512i u[4];
  MF_UNROLL
  for (int i = 0; i < 4; ++i) {
    u[i] = _mm512_max_epu32(_mm512_unpacklo_epi64(t[2 * i], t[2 * i + 1]),
                            _mm512_unpackhi_epi64(t[2 * i], t[2 * i + 1]));
  }
  __m512i v[2];
  MF_UNROLL
  for (int i = 0; i < 2; ++i) {
    v[i] = _mm512_max_epu32(_mm512_shuffle_i32x4(u[2 * i], u[2 * i + 1], 0x88),
                            _mm512_shuffle_i32x4(u[2 * i], u[2 * i + 1], 0xDD));
  }
  return _mm512_max_epu32(_mm512_shuffle_i32x4(v[0], v[1], 0x88),
                          _mm512_shuffle_i32x4(v[0], v[1], 0xDD));
}

// scale.hpp's shared_scale on 16 amax bit patterns at once.
template <class Elem, scale_rounding Mode>
MF_TARGET_AVX512 inline __m512i shared_scale16(__m512i a) {
  using T = element_traits<Elem>;
  const __mmask16 special = _mm512_cmpge_epu32_mask(a, splat(0x7F800000u));
  const __mmask16 zero = _mm512_testn_epi32_mask(a, a);
  // A float subnormal amax is normalised through an exact int -> float
  // conversion; its exponent is then 149 lower.
  const __mmask16 sub = _mm512_cmplt_epu32_mask(a, splat(0x00800000u));
  const __m512i f = _mm512_mask_mov_epi32(a, sub, _mm512_castps_si512(_mm512_cvtepi32_ps(a)));
  const __m512i fraction = _mm512_and_si512(f, splat(0x7FFFFFu));
  __m512i x = _mm512_sub_epi32(_mm512_srli_epi32(f, 23), splat(static_cast<std::uint32_t>(127 + T::emax)));
  x = _mm512_mask_sub_epi32(x, sub, x, splat(149));
  if constexpr (Mode == scale_rounding::ceil) {
    x = _mm512_mask_add_epi32(
        x, _mm512_cmpgt_epu32_mask(fraction, splat(T::max_fraction << (23 - T::mantissa_bits))),
        x, splat(1));
  } else if constexpr (Mode == scale_rounding::even) {
    x = _mm512_mask_add_epi32(
        x, _mm512_cmpge_epu32_mask(fraction, splat((1u << 23) - (1u << (22 - T::mantissa_bits)))),
        x, splat(1));
  }
  x = _mm512_max_epi32(x, _mm512_set1_epi32(-127));
  const __mmask16 nan = special | _mm512_cmpgt_epi32_mask(x, splat(127));
  __m512i code = _mm512_add_epi32(x, splat(127));
  code = _mm512_mask_mov_epi32(code, nan, splat(scale_nan));
  return _mm512_mask_mov_epi32(code, zero, _mm512_setzero_si512());
}

// The blocks whose elements take the fast encode with the scale folded in
// (bulk's encode_lanes_scaled_saturating): a float-subnormal or zero V
// gives garbage below 2^(s - 126) there, which rounds to +-0 when
// s <= 125 + (emin - M), s = 127 - code.
template <class Elem>
inline constexpr int fast_path_min_code =
    127 - (125 + Elem::format::min_exponent - Elem::format::mantissa_bits);

// Elements of one block whose scale code is known. Forced inline: called
// once per block, and g++ -O2 left it out of line (MX quantize ran at
// 0.76-0.80x of its -O3 speed on AVX-512).
template <class Fmt>
MF_TARGET_AVX512 MF_FORCE_INLINE void encode_block(const float* p, std::uint8_t* out, std::uint8_t code) {
  using Elem = typename Fmt::element;
  constexpr std::size_t bytes16 = 16 * Fmt::element_bits / 8;
  if (code == scale_nan) {
    std::memset(out, 0, Fmt::element_bytes);
    return;
  }
  using F = typename Elem::format;
  const int shift = 127 - static_cast<int>(code);
  if (code >= fast_path_min_code<Elem>) {
    const auto bias = static_cast<std::uint32_t>(F::bias);
    const auto s = static_cast<std::uint32_t>(shift);
    constexpr unsigned normal_shift = static_cast<unsigned>(23 - F::mantissa_bits);
    // Per block: exponent rebias by the element's bias and the scale,
    // plus half an element ulp minus one; the element's min normal 2^emin
    // in units of V.
    const __m512i normal_add = splat(((s + bias - 127u) << 23) + (1u << (normal_shift - 1)) - 1u);
    const __m512i scale_add = splat(s << 23);
    const __m512i subnormal_below =
        splat(static_cast<std::uint32_t>(F::min_exponent + 127 - shift) << 23);
    for (std::size_t t = 0; t < Fmt::block_size / 16; ++t) {
      store_codes16<Fmt::element_bits>(
          out + bytes16 * t,
          encode_lanes_scaled_saturating<F, simd::avx512::int32_ops>(
              _mm512_loadu_si512(p + 16 * t), normal_add, scale_add, subnormal_below));
    }
    return;
  }
  const __m512i shift_v = _mm512_set1_epi32(shift);
  const __m512i shift_sub = _mm512_set1_epi32(shift - 149);
  for (std::size_t t = 0; t < Fmt::block_size / 16; ++t) {
    store_codes16<Fmt::element_bits>(
        out + bytes16 * t,
        encode_lanes<F, rounding::nearest_even, overflow::saturating, simd::avx512::int32_ops, true>(
            scale16(_mm512_loadu_si512(p + 16 * t), shift_v, shift_sub)));
  }
}

template <class Fmt, scale_rounding Mode>
MF_TARGET_AVX512 inline void quantize_mode(const float* in, std::size_t blocks,
                                              std::uint8_t* scales, std::uint8_t* elements) {
  using Elem = typename Fmt::element;
  constexpr std::size_t k = Fmt::block_size;
  constexpr std::size_t vectors = k / 16;
  const __m512i magnitude = splat(0x7FFFFFFFu);
  const mf::target::detail::input_prefetch prefetch(in, blocks * k);
  std::size_t j = 0;
  // 16 blocks at a time: their amaxes in one vector, the scale rule on it.
  for (; j + 16 <= blocks; j += 16) {
    __m512i m[16];
    MF_UNROLL
    for (std::size_t b = 0; b < 16; ++b) {
      const float* p = in + (j + b) * k;
      prefetch.ahead_of((j + b) * k, k);
      m[b] = _mm512_and_si512(_mm512_loadu_si512(p), magnitude);
      for (std::size_t t = 1; t < vectors; ++t) {
        m[b] = _mm512_max_epu32(m[b], _mm512_and_si512(_mm512_loadu_si512(p + 16 * t), magnitude));
      }
    }
    alignas(64) std::uint32_t codes[16];
    const __m512i code_v = shared_scale16<Elem, Mode>(transpose_max16(m));
    _mm512_store_si512(codes, code_v);
    _mm_storeu_si128(reinterpret_cast<__m128i*>(scales + j), _mm512_cvtepi32_epi8(code_v));
    for (std::size_t b = 0; b < 16; ++b) {
      encode_block<Fmt>(in + (j + b) * k, elements + (j + b) * Fmt::element_bytes,
                        static_cast<std::uint8_t>(codes[b]));
    }
  }
  for (; j < blocks; ++j) {
    const float* p = in + j * k;
    __m512i amax = _mm512_setzero_si512();
    for (std::size_t t = 0; t < vectors; ++t) {
      amax = _mm512_max_epu32(amax, _mm512_and_si512(_mm512_loadu_si512(p + 16 * t), magnitude));
    }
    const std::uint8_t code = shared_scale<Elem>(_mm512_reduce_max_epu32(amax), Mode);
    scales[j] = code;
    encode_block<Fmt>(p, elements + j * Fmt::element_bytes, code);
  }
}

// blocks whole blocks of Fmt::block_size elements.
template <class Fmt>
MF_TARGET_AVX512 inline void quantize(const float* in, std::size_t blocks,
                                         std::uint8_t* scales, std::uint8_t* elements,
                                         scale_rounding mode) {
  switch (mode) {
    case scale_rounding::floor:
      return quantize_mode<Fmt, scale_rounding::floor>(in, blocks, scales, elements);
    case scale_rounding::ceil:
      return quantize_mode<Fmt, scale_rounding::ceil>(in, blocks, scales, elements);
    case scale_rounding::even:
      return quantize_mode<Fmt, scale_rounding::even>(in, blocks, scales, elements);
  }
}

}  // namespace avx512
}  // namespace mx
}  // namespace mf

#endif  // MF_HAS_X86_KERNELS
