// The AVX-512 kernel set (F/BW/VL/DQ/CD). Every function carries its own
// target attribute, so no -march flag is needed; dispatch.hpp only calls
// these after CPUID and XCR0 said the CPU and OS support them. No byte
// outside the ranges is read or written: the streamed encode's heads and
// tails use masked loads and stores, the generic loops a zero-padded copy.
#pragma once

#include "../target/region.hpp"
#include "../simd/x86/avx512/integer_ops.hpp"
#include "../target/dispatch.hpp"
#include "../lanes/decode_table.hpp"
#include "../target/prefetch.hpp"
#include "scalar.hpp"

#if MF_HAS_X86_KERNELS
#include "../target/x86_intrinsics.hpp"

// The generic algorithms, compiled for AVX-512.
MF_SIMD_REGION_BEGIN_AVX512
namespace mf::bulk::avx512 {
using ops = simd::avx512::int32_ops;
#include "../lanes/decode_lanes.hpp"
#include "generic/decode_loop.hpp"
#include "../lanes/encode_lanes.hpp"

// Encodes one vector of float bit patterns (generic/encode_lanes.hpp). The
// fast path's float add uses embedded rounding, ties to even whatever MXCSR
// holds.
template <class F, rounding Mode, overflow Ovf>
MF_FORCE_INLINE __m512i encode_vector(__m512i x) {
  return encode_lanes<F, Mode, Ovf, ops, true>(x);
}
}  // namespace mf::bulk::avx512
MF_SIMD_REGION_END

namespace mf {
namespace bulk {
namespace avx512 {

// Outputs at least this large (bytes) are written with non-temporal stores:
// they would not stay in the caches anyway, and streaming them saves the
// read-for-ownership traffic. The threshold is set, not tuned: streaming is
// measured a loss at 256 KiB and a gain at 64 MiB (docs/performance.md).
inline constexpr std::size_t nontemporal_threshold_bytes = std::size_t{8} << 20;

MF_TARGET_AVX512 inline __m512i splat(unsigned v) {
  return _mm512_set1_epi32(static_cast<int>(v));
}

// The lanes of a 16-lane step that hold one of the `rest` elements left.
MF_TARGET_AVX512 inline __mmask16 first_lanes(std::size_t rest) {
  return rest >= 16 ? static_cast<__mmask16>(0xFFFF) : static_cast<__mmask16>((1u << rest) - 1);
}

template <class S>
MF_TARGET_AVX512 inline void store_vector(S* out, __m512i r, __mmask16 m) {
  if constexpr (sizeof(S) == 1) {
    _mm512_mask_cvtepi32_storeu_epi8(out, m, r);
  } else {
    _mm512_mask_cvtepi32_storeu_epi16(out, m, r);
  }
}

// Masked 16-lane steps over [0, n): heads and tails.
template <class Fmt, rounding Mode, overflow Ovf>
MF_TARGET_AVX512 inline void encode_masked(const float* in,
                                           typename Fmt::storage_type* out,
                                           std::size_t n) {
  using F = typename Fmt::format;
  for (std::size_t i = 0; i < n; i += 16) {
    const __mmask16 m = first_lanes(n - i);
    store_vector(out + i, encode_vector<F, Mode, Ovf>(_mm512_maskz_loadu_epi32(m, in + i)), m);
  }
}

// Four vectors of one-byte encodings (each < 2^8) narrowed into 64 bytes.
// The two packing steps work within each 128-bit lane: 128-bit lane l of
// the packed bytes holds r0's elements 4l..4l+3, then r1's, r2's and r3's,
// four bytes (one dword) each; the dword permutation puts them in order.
// Four operations where four vpmovdb (two each on AMD's cores) and three
// inserts took eleven.
MF_TARGET_AVX512 inline __m512i narrow_to_bytes(__m512i r0, __m512i r1, __m512i r2, __m512i r3) {
  const __m512i packed =
      _mm512_packus_epi16(_mm512_packus_epi32(r0, r1), _mm512_packus_epi32(r2, r3));
  const __m512i in_order = _mm512_setr_epi32(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
  return _mm512_permutexvar_epi32(in_order, packed);
}

// Narrows 4 x 16 encodings (each < 2^16) into 64 outputs. The packs
// saturate signed 32-bit (and 16-bit) lanes, which these never reach.
template <class Storage>
MF_TARGET_AVX512 inline void store_vectors(Storage* out, __m512i r0, __m512i r1, __m512i r2,
                                           __m512i r3) {
  if constexpr (sizeof(Storage) == 1) {
    _mm512_storeu_si512(out, narrow_to_bytes(r0, r1, r2, r3));
  } else {
    // 128-bit lane l of a pack holds four of each source's elements, as
    // narrow_to_bytes has them; the quadword permutation puts them in order.
    const __m512i in_order = _mm512_setr_epi64(0, 2, 4, 6, 1, 3, 5, 7);
    _mm512_storeu_si512(out, _mm512_permutexvar_epi64(in_order, _mm512_packus_epi32(r0, r1)));
    _mm512_storeu_si512(out + 32,
                        _mm512_permutexvar_epi64(in_order, _mm512_packus_epi32(r2, r3)));
  }
}

// 64 floats to their one-byte encodings on the 32-bit lanes.
template <class Fmt, rounding Mode, overflow Ovf>
struct encode_block_on_32bit_lanes {
  MF_TARGET_AVX512 MF_FORCE_INLINE static __m512i encode(const float* in) {
    using F = typename Fmt::format;
    return narrow_to_bytes(encode_vector<F, Mode, Ovf>(_mm512_loadu_si512(in)),
                           encode_vector<F, Mode, Ovf>(_mm512_loadu_si512(in + 16)),
                           encode_vector<F, Mode, Ovf>(_mm512_loadu_si512(in + 32)),
                           encode_vector<F, Mode, Ovf>(_mm512_loadu_si512(in + 48)));
  }
};

// One-byte encodings of whole blocks of 64 with non-temporal stores (out
// 64-byte aligned), each block's bytes from Block::encode; returns how many
// elements were done.
template <class Fmt, class Block>
MF_TARGET_AVX512 inline std::size_t encode_streamed_blocks(const float* in,
                                                           typename Fmt::storage_type* out,
                                                           std::size_t n) {
  static_assert(sizeof(typename Fmt::storage_type) == 1, "one-byte encodings");
  const mf::target::detail::input_prefetch prefetch(in, n);
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    prefetch.ahead_of(i, 64);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(out + i), Block::encode(in + i));
  }
  _mm_sfence();
  return i;
}

// Outputs of nontemporal_threshold_bytes or more: aligns the output to 64
// bytes, then streams.
template <class Fmt, rounding Mode, overflow Ovf,
          class Block = encode_block_on_32bit_lanes<Fmt, Mode, Ovf>>
MF_TARGET_AVX512 inline void encode_streamed(const float* in, typename Fmt::storage_type* out,
                                             std::size_t n) {
  const auto address = reinterpret_cast<std::uintptr_t>(out);
  std::size_t done = (64 - address % 64) % 64;
  encode_masked<Fmt, Mode, Ovf>(in, out, done);
  done += encode_streamed_blocks<Fmt, Block>(in + done, out + done, n - done);
  encode_masked<Fmt, Mode, Ovf>(in + done, out + done, n - done);
}

// The decode of generic/decode_loop.hpp: every format, and the head and
// tail of the table decode below.
template <class Fmt>
MF_TARGET_AVX512 inline void decode_generic(const typename Fmt::storage_type* in,
                                            float* out, std::size_t n) {
  decode_loop<Fmt, false>(in, out, n, 1.0f);
}

// ---- table decode (AVX-512 VBMI), formats of 8 bits or fewer -------------
// Two 256-entry byte tables per format (lanes/decode_table.hpp), each looked
// up with two vpermi2b and a blend on the index's top bit, or with one where
// the upper half of the table holds the lower half's values (formats of
// fewer than 8 bits) or their negations (the sign put back with one
// ternary-logic step): 9 shuffles per 64 elements instead of 11, and the
// shuffles are what this loop waits on (1.08-1.13x in L1 on a Zen 5).
// The byte order the table decode permutes its input into: position
// j*16 + k takes element (k/4)*16 + 4j + k%4, so that the in-lane unpacks
// leave the elements in order. A constant: built per call, g++ -O2 left its
// 64-step loop in every call (with the dispatch calls of dispatch.hpp, a 4
// KiB decode ran at 0.73-0.91x of its -O3 speed on a Zen 4).
struct byte_order {
  alignas(64) std::uint8_t bytes[64];
};
constexpr byte_order make_table_decode_order() {
  byte_order order{};
  for (unsigned p = 0; p < 64; ++p) {
    const unsigned j = p / 16, k = p % 16;
    order.bytes[p] = static_cast<std::uint8_t>((k / 4) * 16 + 4 * j + k % 4);
  }
  return order;
}
inline constexpr byte_order table_decode_order = make_table_decode_order();

template <bool Stream>
MF_TARGET_AVX512VBMI inline void store_floats(float* p, __m512i v) {
  if constexpr (Stream) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(p), v);
  } else {
    _mm512_storeu_si512(p, v);
  }
}

template <class Fmt, bool Stream>
MF_TARGET_AVX512VBMI inline std::size_t decode_table_loop(const std::uint8_t* in,
                                                          float* out, std::size_t n) {
  using F = typename Fmt::format;
  constexpr lanes::upper_half_values upper = lanes::upper_half_of<F>();
  const lanes::decode_table<F>& t = lanes::decode_table_of<F>();
  const __m512i a0 = _mm512_load_si512(t.plane16);
  const __m512i a1 = _mm512_load_si512(t.plane16 + 64);
  const __m512i a2 = _mm512_load_si512(t.plane16 + 128);
  const __m512i a3 = _mm512_load_si512(t.plane16 + 192);
  const __m512i b0 = _mm512_load_si512(t.plane24);
  const __m512i b1 = _mm512_load_si512(t.plane24 + 64);
  const __m512i b2 = _mm512_load_si512(t.plane24 + 128);
  const __m512i b3 = _mm512_load_si512(t.plane24 + 192);
  const __m512i perm = _mm512_load_si512(table_decode_order.bytes);
  const __m512i zero = _mm512_setzero_si512();
  const __m512i top_bit = _mm512_set1_epi8(static_cast<char>(0x80));
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i idx = _mm512_permutexvar_epi8(perm, _mm512_loadu_si512(in + i));
    // vpermi2b reads the index's low 7 bits: the lower half of a table.
    __m512i p16 = _mm512_permutex2var_epi8(a0, idx, a1);
    __m512i p24 = _mm512_permutex2var_epi8(b0, idx, b1);
    if constexpr (upper == lanes::upper_half_values::negated) {
      p24 = _mm512_ternarylogic_epi32(p24, idx, top_bit, 0x78);  // p24 ^ (idx & 0x80)
    } else if constexpr (upper == lanes::upper_half_values::other) {
      const __mmask64 high = _mm512_movepi8_mask(idx);
      p16 = _mm512_mask_blend_epi8(high, p16, _mm512_permutex2var_epi8(a2, idx, a3));
      p24 = _mm512_mask_blend_epi8(high, p24, _mm512_permutex2var_epi8(b2, idx, b3));
    }
    const __m512i w_lo = _mm512_unpacklo_epi8(p16, p24);
    const __m512i w_hi = _mm512_unpackhi_epi8(p16, p24);
    store_floats<Stream>(out + i, _mm512_unpacklo_epi16(zero, w_lo));
    store_floats<Stream>(out + i + 16, _mm512_unpackhi_epi16(zero, w_lo));
    store_floats<Stream>(out + i + 32, _mm512_unpacklo_epi16(zero, w_hi));
    store_floats<Stream>(out + i + 48, _mm512_unpackhi_epi16(zero, w_hi));
  }
  if constexpr (Stream) _mm_sfence();
  return i;
}

// ---- decode through binary16 (AVX-512 VBMI), e5m2 on Intel cores --------
// An e5m2 encoding is the top byte of the binary16 (IEEE 754) of its value,
// so byte b decodes exactly as vcvtph2ps of the half b << 8, NaN aside: the
// conversion keeps a NaN's payload (0x7D00 -> 0x7FE00000), where the scalar
// decode gives the quiet NaN 0x7FC00000 with the input's sign, so NaN bytes
// become sign | 0x7E (the half 0x7E00) first.
//
// Why this route, and only on Intel and in L1: on an Intel Xeon (family 6
// model 207) the table decode above and the register form of vcvtph2ps
// compete for the one shuffle port every byte -> float widening needs
// (about 11 shuffles per 64 elements for the table), while the *memory*
// form of vcvtph2ps converts without it. So the halves are widened with two
// vpermb, stored to a 128-byte buffer and converted from memory: 1.4-1.55x
// the table's speed while input and output fit the L1 data cache, but
// 0.7-0.9x past it, where the two extra stores per 64 elements wait in the
// store buffer behind the outputs' misses (docs/performance.md). AMD cores
// keep the table: it measured 0.77-0.79x of vcvtph2ps in L1 on a Zen 4,
// above the 0.50-0.54x this route reaches on the Xeon, and on a Zen 5 the
// route runs at 0.64x of the table in L1 (the decode_route rows of
// bench/bulk_bench.cpp time both routes, forced).
// Byte positions of vpermb that put input byte j into the top byte of 16-bit
// lane j (low bytes zeroed by the mask): first elements 0..31, then 32..63.
struct half_positions {
  alignas(64) std::uint8_t low_elements[64];
  alignas(64) std::uint8_t high_elements[64];
};
constexpr half_positions make_half_positions() {
  half_positions p{};
  for (unsigned j = 0; j < 64; ++j) {
    p.low_elements[j] = static_cast<std::uint8_t>(j / 2);
    p.high_elements[j] = static_cast<std::uint8_t>(32 + j / 2);
  }
  return p;
}
inline constexpr half_positions binary16_half_positions = make_half_positions();

// The float bits of 16 binary16 values in memory (64-byte aligned).
MF_TARGET_AVX512 inline __m512i halves_to_floats(const std::uint16_t* halves) {
  return _mm512_castps_si512(
      _mm512_cvtph_ps(_mm256_load_si256(reinterpret_cast<const __m256i*>(halves))));
}

template <class Fmt, bool Stream>
MF_TARGET_AVX512VBMI inline std::size_t decode_binary16_loop(const std::uint8_t* in,
                                                             float* out, std::size_t n) {
  static_assert(lanes::encodings_are_binary16_top_byte<typename Fmt::format>, "e5m2's layout");
  const __m512i low_elements = _mm512_load_si512(binary16_half_positions.low_elements);
  const __m512i high_elements = _mm512_load_si512(binary16_half_positions.high_elements);
  const __mmask64 top_bytes = 0xAAAAAAAAAAAAAAAAull;
  const __m512i magnitude = _mm512_set1_epi8(0x7F);
  const __m512i infinity = _mm512_set1_epi8(0x7C);
  const __m512i quiet_nan = _mm512_set1_epi8(0x7E);
  struct {
    alignas(64) std::uint16_t bits[64];
  } halves;
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m512i bytes = _mm512_loadu_si512(in + i);
    const __mmask64 nan = _mm512_cmpgt_epu8_mask(_mm512_and_si512(bytes, magnitude), infinity);
    // (bytes & ~magnitude) | quiet_nan: the sign kept.
    bytes = _mm512_mask_mov_epi8(bytes, nan,
                                 _mm512_ternarylogic_epi32(bytes, magnitude, quiet_nan, 0xBA));
    _mm512_store_si512(halves.bits,
                       _mm512_maskz_permutexvar_epi8(top_bytes, low_elements, bytes));
    _mm512_store_si512(halves.bits + 32,
                       _mm512_maskz_permutexvar_epi8(top_bytes, high_elements, bytes));
    // The compiler must not forward the stored halves in registers (the
    // register form is what this route avoids): it reloads them, and the
    // loads fold into vcvtph2ps.
    __asm__("" : "+m"(halves));
    // Written out: g++ -O2 keeps a loop over the four, and reloads the
    // vpermb indices in every iteration.
    store_floats<Stream>(out + i, halves_to_floats(halves.bits));
    store_floats<Stream>(out + i + 16, halves_to_floats(halves.bits + 16));
    store_floats<Stream>(out + i + 32, halves_to_floats(halves.bits + 32));
    store_floats<Stream>(out + i + 48, halves_to_floats(halves.bits + 48));
  }
  if constexpr (Stream) _mm_sfence();
  return i;
}

// The byte decodes that run in blocks of 64 elements (none: the formats and
// CPUs that take decode_generic).
enum class byte_route { none, table, binary16 };

template <class Fmt, byte_route Route, bool Stream>
MF_TARGET_AVX512VBMI inline std::size_t decode_blocks(const std::uint8_t* in, float* out,
                                                      std::size_t n) {
  static_assert(Route != byte_route::none, "a byte route");
  if constexpr (Route == byte_route::table) {
    return decode_table_loop<Fmt, Stream>(in, out, n);
  } else {
    return decode_binary16_loop<Fmt, Stream>(in, out, n);
  }
}

// Whole blocks through Route; outputs past the non-temporal threshold with
// streaming stores after a head that aligns them to 64 bytes; the head and
// the tail through decode_generic.
template <class Fmt, byte_route Route>
MF_TARGET_AVX512VBMI inline void decode_bytes(const std::uint8_t* in, float* out,
                                              std::size_t n) {
  std::size_t head = 0;
  const auto address = reinterpret_cast<std::uintptr_t>(out);
  if (n * sizeof(float) >= nontemporal_threshold_bytes && address % sizeof(float) == 0) {
    head = ((64 - address % 64) % 64) / sizeof(float);
    decode_generic<Fmt>(in, out, head);
    head += decode_blocks<Fmt, Route, true>(in + head, out + head, n - head);
  } else {
    head = decode_blocks<Fmt, Route, false>(in, out, n);
  }
  decode_generic<Fmt>(in + head, out + head, n - head);
}

// The byte decode of n elements of Fmt on this CPU (none: decode_generic).
template <class Fmt>
inline byte_route byte_route_of(std::size_t n) {
  using F = typename Fmt::format;
  if constexpr (F::bits <= 8) {
    if (!target::active_optional_features().avx512vbmi) return byte_route::none;
    if constexpr (lanes::encodings_are_binary16_top_byte<F>) {
      if (target::detail::cpu().vendor == target::detail::cpu_vendor::intel &&
          n * (sizeof(float) + 1) <= target::detail::caches().l1d) {
        return byte_route::binary16;
      }
    }
    return lanes::decode_table_of<F>().exact ? byte_route::table : byte_route::none;
  } else {
    (void)n;
    return byte_route::none;
  }
}

template <class Fmt>
MF_TARGET_AVX512 inline void decode(const typename Fmt::storage_type* in,
                                    float* out, std::size_t n) {
  using F = typename Fmt::format;
  if constexpr (F::bits <= 8) {
    if (n >= 64) {
      const byte_route route = byte_route_of<Fmt>(n);
      if constexpr (lanes::encodings_are_binary16_top_byte<F>) {
        if (route == byte_route::binary16) {
          return decode_bytes<Fmt, byte_route::binary16>(in, out, n);
        }
      }
      if (route == byte_route::table) return decode_bytes<Fmt, byte_route::table>(in, out, n);
    }
  }
  decode_generic<Fmt>(in, out, n);
}

}  // namespace avx512
}  // namespace bulk
}  // namespace mf

#endif  // MF_HAS_X86_KERNELS
