// One-pass AVX-512 MX dequantize for MXFP8 (e4m3fn, e5m2) and MXFP4
// (e2m1fn), whole blocks of a multiple of 16 elements: 64 elements at a
// time are decoded to float bits by byte-table lookups and multiplied by
// their block's scale before the store. Same bits as the scalar path
// (scale.hpp's multiply_by_scale), whatever MXCSR holds:
//  * where every nonzero element times X is a float normal (scale.hpp's
//    multiply_is_exact, which holds for every scale quantize gives data that
//    is neither all zeros nor near float's limits), one float multiply: it is
//    then exact, so DAZ, FTZ and the rounding direction cannot change it,
//    and no subnormal operand or result slows it down;
//  * a group of 64 elements with any other scale (2^-127 of an all-zero
//    block, 2^127, NaN) goes through multiply_by_scale16, on the bits.
// Decoders: 8-bit elements through two 256-entry byte planes with VBMI
// (the bulk decoder's tables), else from their fields; FP4 through two
// 16-entry planes with vpshufb (AVX-512BW).
#pragma once

#include <cstddef>
#include <cstdint>

#include "block.hpp"
#include "element.hpp"
#include "../lanes/decode_table.hpp"
#include "scale.hpp"
#include "x86_lanes.hpp"
#include "../target/dispatch.hpp"

#if MF_HAS_X86_KERNELS

namespace mf {
namespace mx {
namespace avx512 {


// multiply_by_scale on 16 lanes for one non-NaN scale, d = code - 127:
// the exponent field moves by d; a result below 2^-126 is the significand
// shifted right with nearest-even rounding; above float's range +-Inf.
// Zero, Inf and NaN lanes come back unchanged (so would a float subnormal,
// which no element decodes to).
MF_TARGET_AVX512 inline __m512i multiply_by_scale16(__m512i p, __m512i d) {
  const __m512i a = _mm512_and_si512(p, splat(0x7FFFFFFFu));
  const __m512i e = _mm512_srli_epi32(a, 23);
  const __m512i r = _mm512_add_epi32(e, d);
  const __m512i normal = _mm512_add_epi32(a, _mm512_slli_epi32(d, 23));
  const __m512i sig = _mm512_or_si512(_mm512_and_si512(a, splat(0x7FFFFFu)), splat(0x800000u));
  // Shift 1 - r, capped at 25 (everything rounds to 0 from 25 on); lanes
  // with r >= 1 get a count <= 0, i.e. a huge unsigned one, and are not used.
  const __m512i s = _mm512_min_epi32(_mm512_sub_epi32(splat(1), r), splat(25));
  const __m512i half_minus_one =
      _mm512_srlv_epi32(splat(0xFFFFFFFFu), _mm512_sub_epi32(splat(33), s));
  const __m512i lsb = _mm512_and_si512(_mm512_srlv_epi32(sig, s), splat(1));
  const __m512i subnormal =
      _mm512_srlv_epi32(_mm512_add_epi32(_mm512_add_epi32(sig, half_minus_one), lsb), s);
  __m512i mag = _mm512_mask_mov_epi32(normal, _mm512_cmplt_epi32_mask(r, splat(1)), subnormal);
  mag = _mm512_mask_mov_epi32(mag, _mm512_cmpgt_epi32_mask(r, splat(254)), splat(0x7F800000u));
  const __m512i result = _mm512_ternarylogic_epi32(mag, p, splat(0x80000000u), 0xF8);
  const __mmask16 keep = _mm512_cmpeq_epi32_mask(e, _mm512_setzero_si512()) |
                         _mm512_cmpeq_epi32_mask(e, splat(255));
  return _mm512_mask_mov_epi32(result, keep, p);
}

// 2^(code - 127) for a code in 1..254, in every lane.
MF_TARGET_AVX512 inline __m512 power_of_two(std::uint32_t code) {
  return _mm512_castsi512_ps(_mm512_set1_epi32(static_cast<int>(code << 23)));
}

// 16 element values (float bits) times 2^(code - 127), the bits of
// multiply_by_scale: outside multiply_is_exact on the bits (not inlined: rare).
template <class Elem>
MF_TARGET_AVX512 inline __m512 scale16(__m512i p, std::uint32_t code) {
  if (multiply_is_exact<Elem>(code)) {
    return _mm512_mul_ps(_mm512_castsi512_ps(p), power_of_two(code));
  }
  if (code == scale_nan) return _mm512_castsi512_ps(splat(0x7FC00000u));
  return _mm512_castsi512_ps(multiply_by_scale16(p, _mm512_set1_epi32(static_cast<int>(code) - 127)));
}

// The block of vector t (16 elements) of the group starting at element g
// (a multiple of 64).
template <class Fmt>
constexpr std::size_t block_of(std::size_t g, std::size_t t) noexcept {
  constexpr std::size_t k = Fmt::block_size;
  if constexpr (64 % k == 0) {
    return g / k + 16 * t / k;  // lets the compiler see shared blocks
  } else {
    return (g + 16 * t) / k;
  }
}

// Stores the first `vectors` (1..4) of v, the decoded elements g.., each
// times its block's scale. A whole group whose scales all pass multiply_is_exact (the
// common case) takes one multiply per vector and no other branch.
// Forced inline: v lives in registers only when this is inlined (GCC left
// it out of line once an unrelated change moved its inlining budget: the
// VBMI dequantize ran at half speed, storing and reloading v).
template <class Fmt>
MF_TARGET_AVX512 MF_FORCE_INLINE void store_group(float* out, const std::uint8_t* scales,
                                            const __m512i (&v)[4], std::size_t g,
                                            std::size_t vectors) {
  using Elem = typename Fmt::element;
  if (vectors == 4) {
    const std::uint32_t c0 = scales[block_of<Fmt>(g, 0)], c1 = scales[block_of<Fmt>(g, 1)];
    const std::uint32_t c2 = scales[block_of<Fmt>(g, 2)], c3 = scales[block_of<Fmt>(g, 3)];
    if (multiply_is_exact<Elem>(c0) && multiply_is_exact<Elem>(c1) &&
        multiply_is_exact<Elem>(c2) && multiply_is_exact<Elem>(c3)) {
      _mm512_storeu_ps(out + g, _mm512_mul_ps(_mm512_castsi512_ps(v[0]), power_of_two(c0)));
      _mm512_storeu_ps(out + g + 16, _mm512_mul_ps(_mm512_castsi512_ps(v[1]), power_of_two(c1)));
      _mm512_storeu_ps(out + g + 32, _mm512_mul_ps(_mm512_castsi512_ps(v[2]), power_of_two(c2)));
      _mm512_storeu_ps(out + g + 48, _mm512_mul_ps(_mm512_castsi512_ps(v[3]), power_of_two(c3)));
      return;
    }
  }
  _mm512_storeu_ps(out + g, scale16<Elem>(v[0], scales[block_of<Fmt>(g, 0)]));
  if (vectors > 1) _mm512_storeu_ps(out + g + 16, scale16<Elem>(v[1], scales[block_of<Fmt>(g, 1)]));
  if (vectors > 2) _mm512_storeu_ps(out + g + 32, scale16<Elem>(v[2], scales[block_of<Fmt>(g, 2)]));
  if (vectors > 3) _mm512_storeu_ps(out + g + 48, scale16<Elem>(v[3], scales[block_of<Fmt>(g, 3)]));
}

// The scales of a run of up to 64 blocks as float bits 2^(code - 127)
// (meaningful where multiply_is_exact holds), and whether it holds for all. The
// asm statement makes the compiler read them back from memory, so each
// folds into its multiply as a broadcast load instead of being extracted
// from a register with shuffles.
struct run_scales {
  alignas(64) std::uint32_t bits[64];
};

template <class Elem>
MF_TARGET_AVX512 inline bool load_run_scales(const std::uint8_t* scales, std::size_t count,
                                                run_scales& r) {
  __mmask16 unsafe = 0;
  for (std::size_t q = 0; q < count; q += 16) {
    const auto valid = static_cast<__mmask16>((1u << (count - q < 16 ? count - q : 16)) - 1u);
    const __m512i c = _mm512_cvtepu8_epi32(_mm_maskz_loadu_epi8(valid, scales + q));
    // multiply_is_exact on 16 codes: code - lo > hi - lo (unsigned).
    using C = exact_multiply_codes<Elem>;
    const __m512i rel = _mm512_sub_epi32(c, splat(C::lo));
    unsafe = static_cast<__mmask16>(
        unsafe | _mm512_mask_cmpgt_epu32_mask(valid, rel, splat(C::hi - C::lo)));
    _mm512_store_si512(r.bits + q, _mm512_slli_epi32(c, 23));
  }
  __asm__("" : "+m"(r.bits));
  return unsafe == 0;
}

// The elements of a run of `count` elements (a multiple of 16) starting at
// element e0 of the call: whole groups, then the rest. decode(in, count, v)
// decodes count (<= 64) elements.
template <class Fmt, class Decode>
MF_TARGET_AVX512 inline void dequantize_run(const std::uint8_t* scales,
                                               const std::uint8_t* elements, float* out,
                                               std::size_t e0, std::size_t count,
                                               const run_scales& r, bool safe, Decode&& decode) {
  __m512i v[4];
  std::size_t g = e0;
  const std::size_t end = e0 + count;
  if (safe) {
    for (; g + 64 <= end; g += 64) {
      decode(elements + g * Fmt::element_bits / 8, 64, v);
      MF_UNROLL
      for (std::size_t t = 0; t < 4; ++t) {
        const __m512i x = _mm512_set1_epi32(static_cast<int>(r.bits[block_of<Fmt>(g - e0, t)]));
        _mm512_storeu_ps(out + g + 16 * t,
                         _mm512_mul_ps(_mm512_castsi512_ps(v[t]), _mm512_castsi512_ps(x)));
      }
    }
  } else {
    for (; g + 64 <= end; g += 64) {
      decode(elements + g * Fmt::element_bits / 8, 64, v);
      store_group<Fmt>(out, scales, v, g, 4);
    }
  }
  if (g < end) {
    decode(elements + g * Fmt::element_bits / 8, end - g, v);
    store_group<Fmt>(out, scales, v, g, (end - g) / 16);
  }
}

// Dword j of the result takes dword (j % 4) * 4 + j / 4: a 4x4 transpose of
// 4-byte groups, after which the in-lane unpacks of byte_planes_to_floats
// leave the elements in order.
MF_TARGET_AVX512 inline __m512i transpose_groups(__m512i bytes) {
  return _mm512_permutexvar_epi32(
      _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15), bytes);
}

// Float bits 16..23 and 24..31 of 64 elements (transposed as above) to 4
// vectors of 16 floats in element order; bits 0..15 are zero.
MF_TARGET_AVX512 inline void byte_planes_to_floats(__m512i p16, __m512i p24, __m512i (&v)[4]) {
  const __m512i zero = _mm512_setzero_si512();
  const __m512i w_lo = _mm512_unpacklo_epi8(p16, p24);
  const __m512i w_hi = _mm512_unpackhi_epi8(p16, p24);
  v[0] = _mm512_unpacklo_epi16(zero, w_lo);
  v[1] = _mm512_unpackhi_epi16(zero, w_lo);
  v[2] = _mm512_unpacklo_epi16(zero, w_hi);
  v[3] = _mm512_unpackhi_epi16(zero, w_hi);
}

// 8-bit elements from their fields (the decoder without VBMI): exact, the
// bulk decode (lanes/decode_lanes.hpp).
template <class Elem>
MF_TARGET_AVX512 inline __m512i decode16_fields(__m512i c) {
  return decode_lanes<typename Elem::format, simd::avx512::int32_ops>(c);
}

template <class Elem>
struct field_decoder {
  // count elements (a multiple of 16, at most 64) from in.
  MF_TARGET_AVX512 void operator()(const std::uint8_t* in, std::size_t count,
                                      __m512i (&v)[4]) const {
    for (std::size_t t = 0; t < count / 16; ++t) {
      v[t] = decode16_fields<Elem>(
          _mm512_cvtepu8_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + 16 * t))));
    }
  }
};

// FP4: the 16 values' float bits 16..23 and 24..31 (their low halves are
// zero: at most two significant bits).
template <class Elem>
struct nibble_planes {
  alignas(16) std::uint8_t plane16[16];
  alignas(16) std::uint8_t plane24[16];
};

template <class Elem>
inline const nibble_planes<Elem>& get_nibble_planes() {
  static const nibble_planes<Elem> planes = [] {
    nibble_planes<Elem> t{};
    for (unsigned i = 0; i < 16; ++i) {
      const std::uint32_t bits = mf::detail::bit_cast<std::uint32_t>(
          decode_element<Elem>(static_cast<std::uint8_t>(i)));
      t.plane16[i] = static_cast<std::uint8_t>(bits >> 16);
      t.plane24[i] = static_cast<std::uint8_t>(bits >> 24);
    }
    return t;
  }();
  return planes;
}

template <class Elem>
struct nibble_decoder {
  __m512i t16, t24;  // the planes in each 128-bit lane
  // count elements (a multiple of 16, at most 64), count / 2 bytes, from in.
  MF_TARGET_AVX512 void operator()(const std::uint8_t* in, std::size_t count,
                                      __m512i (&v)[4]) const {
    const __m256i bytes =
        count == 64 ? _mm256_loadu_si256(reinterpret_cast<const __m256i*>(in))
                    : _mm256_maskz_loadu_epi8(static_cast<__mmask32>((1u << (count / 2)) - 1u), in);
    // Byte 0x hl -> word 0x0h0l: element 2i (low nibble) in byte 2i.
    const __m512i w = _mm512_cvtepu8_epi16(bytes);
    const __m512i idx = transpose_groups(
        _mm512_ternarylogic_epi32(w, _mm512_slli_epi16(w, 4), splat(0x0F0F0F0Fu), 0xA8));
    byte_planes_to_floats(_mm512_shuffle_epi8(t16, idx), _mm512_shuffle_epi8(t24, idx), v);
  }
};

// The loop for the decoders that need AVX-512 F/BW only, in runs of up to
// 64 blocks: the run's scales checked and converted at once, then its
// elements (dequantize_run).
template <class Fmt, class Decoder>
MF_TARGET_AVX512 inline void dequantize_loop(const std::uint8_t* scales,
                                                const std::uint8_t* elements, std::size_t blocks,
                                                float* out, const Decoder& decode) {
  run_scales r;
  for (std::size_t c = 0; c < blocks; c += 64) {
    const std::size_t nb = blocks - c < 64 ? blocks - c : 64;
    const bool safe = load_run_scales<typename Fmt::element>(scales + c, nb, r);
    dequantize_run<Fmt>(scales, elements, out, c * Fmt::block_size, nb * Fmt::block_size, r, safe,
                        decode);
  }
}

// 8-bit elements with VBMI: the bulk decoder's byte planes (256 entries
// each, two vpermi2b and a blend on the index's top bit per plane).
struct byte_planes {
  __m512i a[4];  // float bits 16..23 of codes 0..255
  __m512i b[4];  // float bits 24..31
};

MF_TARGET_AVX512VBMI inline void decode64_vbmi(const byte_planes& t, const std::uint8_t* in,
                                                  std::size_t count, __m512i (&v)[4]) {
  const __m512i raw = count == 64 ? _mm512_loadu_si512(in)
                                  : _mm512_maskz_loadu_epi8((1ull << count) - 1u, in);
  const __m512i idx = transpose_groups(raw);
  const __mmask64 upper = _mm512_movepi8_mask(idx);
  byte_planes_to_floats(_mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(t.a[0], idx, t.a[1]),
                                               _mm512_permutex2var_epi8(t.a[2], idx, t.a[3])),
                        _mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(t.b[0], idx, t.b[1]),
                                               _mm512_permutex2var_epi8(t.b[2], idx, t.b[3])),
                        v);
}

// The loop for decode64_vbmi, written out again because a VBMI function
// cannot be inlined into one without VBMI.
template <class Fmt>
MF_TARGET_AVX512VBMI inline void dequantize_table_vbmi(const std::uint8_t* scales,
                                                          const std::uint8_t* elements,
                                                          std::size_t blocks, float* out) {
  using F = typename Fmt::element::format;
  const auto& table = lanes::decode_table_of<F>();
  byte_planes t;
  MF_UNROLL
  for (int q = 0; q < 4; ++q) {
    t.a[q] = _mm512_load_si512(table.plane16 + 64 * q);
    t.b[q] = _mm512_load_si512(table.plane24 + 64 * q);
  }
  // Scales read per group here: measured faster than run_scales for this
  // decoder (and the other way round for FP4), on the development machine.
  const std::size_t n = blocks * Fmt::block_size;
  __m512i v[4];
  std::size_t g = 0;
  for (; g + 64 <= n; g += 64) {
    decode64_vbmi(t, elements + g, 64, v);
    store_group<Fmt>(out, scales, v, g, 4);
  }
  if (g < n) {
    decode64_vbmi(t, elements + g, n - g, v);
    store_group<Fmt>(out, scales, v, g, (n - g) / 16);
  }
}

// `blocks` whole blocks. allow_vbmi = false forces the decoder without
// VBMI (the tests run it on machines that have VBMI).
template <class Fmt>
MF_TARGET_AVX512 inline void dequantize(const std::uint8_t* scales,
                                           const std::uint8_t* elements, std::size_t blocks,
                                           float* out, bool allow_vbmi) {
  using Elem = typename Fmt::element;
  static_assert(detail::simd_kernels_cover<Fmt>, "MXFP8 or MXFP4 with blocks of a multiple of 16");
  if constexpr (Fmt::element_bits == 8) {
    if (allow_vbmi && mf::target::active_optional_features().avx512vbmi &&
        lanes::decode_table_of<typename Elem::format>().exact) {
      return dequantize_table_vbmi<Fmt>(scales, elements, blocks, out);
    }
    dequantize_loop<Fmt>(scales, elements, blocks, out, field_decoder<Elem>{});
  } else {
    const nibble_planes<Elem>& planes = get_nibble_planes<Elem>();
    const nibble_decoder<Elem> decode{
        _mm512_broadcast_i32x4(_mm_load_si128(reinterpret_cast<const __m128i*>(planes.plane16))),
        _mm512_broadcast_i32x4(_mm_load_si128(reinterpret_cast<const __m128i*>(planes.plane24)))};
    dequantize_loop<Fmt>(scales, elements, blocks, out, decode);
  }
}

// The same with VBMI where the active kernel set has it (the dispatch
// table's entry).
template <class Fmt>
MF_TARGET_AVX512 inline void dequantize(const std::uint8_t* scales,
                                           const std::uint8_t* elements, std::size_t blocks,
                                           float* out) {
  dequantize<Fmt>(scales, elements, blocks, out, true);
}

}  // namespace avx512
}  // namespace mx
}  // namespace mf

#endif  // MF_HAS_X86_KERNELS
