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
#include <type_traits>

#include "../formats.hpp"
#include "api.hpp"
#include "narrow_double.hpp"

namespace mf {
namespace bulk {
namespace detail {

// Elements per step: 2 KiB of floats on the stack.
inline constexpr std::size_t chunk_elements = 512;

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
    detail::narrow_to_odd(in + first, narrowed, count);
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
