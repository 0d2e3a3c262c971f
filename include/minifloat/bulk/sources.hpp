// Bulk conversions between formats and from the other sources (double,
// binary16, bfloat16, any minifloat format, raw 16-bit encodings), built on
// the float kernels of api.hpp, a chunk at a time so the intermediate floats
// stay in L1. Each result is the one correct rounding of the source value:
// - a minifloat source widens to float exactly (every format here is a
//   subset of float), so rounding that float is rounding the source;
// - a double narrows to float by rounding to odd (truncate, then set the
//   last bit when anything was dropped). Float keeps at least two more bits
//   than any format here at every magnitude, including float's subnormals,
//   which is the condition under which rounding the round-to-odd value in
//   any mode equals rounding the double (Boldo and Melquiond, "Emulation of
//   FMA and correctly rounded sums: proved algorithms using rounding to
//   odd", IEEE TC 2008).
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../formats.hpp"
#include "api.hpp"

namespace mf {
namespace bulk {
namespace detail {

// Elements per step: 2 KiB of floats on the stack.
inline constexpr std::size_t chunk_elements = 512;

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

template <class Fmt>
using storage_of = typename Fmt::storage_type;

// Calls step(first, count) over [0, n) in chunks of chunk_elements.
template <class Step>
inline void for_each_chunk(std::size_t n, Step&& step) {
  for (std::size_t first = 0; first < n; first += chunk_elements) {
    step(first, n - first < chunk_elements ? n - first : chunk_elements);
  }
}

}  // namespace detail

// Rounds in[0..n) (doubles) into Fmt: out[i] ==
// mf::round_to<Fmt>(in[i], mode, on_overflow).bits(), through a
// round-to-odd float and the float kernels.
template <class Fmt>
inline void encode(const double* in, detail::storage_of<Fmt>* out,
                   std::size_t n, rounding mode = rounding::nearest_even,
                   overflow on_overflow = overflow::non_saturating) {
  static_assert(is_minifloat_v<Fmt>, "encode into a minifloat type");
  assert(!detail::ranges_overlap(in, n * sizeof(double), out,
                                 n * sizeof(detail::storage_of<Fmt>)));
  float narrowed[detail::chunk_elements];
  detail::for_each_chunk(n, [&](std::size_t first, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
      std::uint64_t bits;
      std::memcpy(&bits, in + first + i, sizeof bits);
      const std::uint32_t f = detail::double_to_float_round_to_odd(bits);
      std::memcpy(narrowed + i, &f, sizeof f);
    }
    encode<Fmt>(narrowed, out + first, count, mode, on_overflow);
  });
}

// Rounds encodings of From (raw storage; bits above From's width ignored)
// into To: out[i] == mf::round_to<To>(From::from_bits(in[i]), mode,
// on_overflow).bits(). Correctly rounded: the float in between is exact.
template <class To, class From>
inline void convert(const detail::storage_of<From>* in,
                    detail::storage_of<To>* out, std::size_t n,
                    rounding mode = rounding::nearest_even,
                    overflow on_overflow = overflow::non_saturating) {
  static_assert(is_minifloat_v<To> && is_minifloat_v<From>,
                "convert between minifloat types");
  assert(!detail::ranges_overlap(in, n * sizeof(detail::storage_of<From>), out,
                                 n * sizeof(detail::storage_of<To>)));
  float widened[detail::chunk_elements];
  detail::for_each_chunk(n, [&](std::size_t first, std::size_t count) {
    decode<From>(in + first, widened, count);
    encode<To>(widened, out + first, count, mode, on_overflow);
  });
}

// The same from an array of minifloat objects (mf::binary16, mf::bfloat16,
// mf::e5m2, ...).
template <class To, class From,
          std::enable_if_t<is_minifloat_v<From>, int> = 0>
inline void encode(const From* in, detail::storage_of<To>* out, std::size_t n,
                   rounding mode = rounding::nearest_even,
                   overflow on_overflow = overflow::non_saturating) {
  static_assert(is_minifloat_v<To>, "encode into a minifloat type");
  static_assert(sizeof(From) == sizeof(detail::storage_of<From>),
                "a minifloat is exactly its encoding");
  detail::storage_of<From> encodings[detail::chunk_elements];
  detail::for_each_chunk(n, [&](std::size_t first, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) encodings[i] = in[first + i].bits();
    convert<To, From>(encodings, out + first, count, mode, on_overflow);
  });
}

// Raw IEEE binary16 / bfloat16 bit patterns as the source.
template <class Fmt>
inline void encode_from_binary16(const std::uint16_t* in,
                                 detail::storage_of<Fmt>* out, std::size_t n,
                                 rounding mode = rounding::nearest_even,
                                 overflow on_overflow = overflow::non_saturating) {
  convert<Fmt, binary16>(in, out, n, mode, on_overflow);
}

template <class Fmt>
inline void encode_from_bfloat16(const std::uint16_t* in,
                                 detail::storage_of<Fmt>* out, std::size_t n,
                                 rounding mode = rounding::nearest_even,
                                 overflow on_overflow = overflow::non_saturating) {
  convert<Fmt, bfloat16>(in, out, n, mode, on_overflow);
}

// Decodes encodings of Fmt to binary16 or bfloat16 bit patterns, rounding
// to nearest even without saturation (as static_cast<mf::binary16> does).
// Exact, value for value, for every format whose values all fit: into
// binary16 every 8-bit-or-smaller format except e8m0fnu; into bfloat16 every
// 8-bit-or-smaller format (docs/performance.md lists them).
template <class Fmt>
inline void decode_to_binary16(const detail::storage_of<Fmt>* in,
                               std::uint16_t* out, std::size_t n) {
  convert<binary16, Fmt>(in, out, n);
}

template <class Fmt>
inline void decode_to_bfloat16(const detail::storage_of<Fmt>* in,
                               std::uint16_t* out, std::size_t n) {
  convert<bfloat16, Fmt>(in, out, n);
}

}  // namespace bulk
}  // namespace mf
