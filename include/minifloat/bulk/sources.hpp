// What the bulk conversions from the other sources (double, binary16,
// bfloat16, any minifloat format, raw 16-bit encodings) are built on: the
// float kernels of api.hpp, run a chunk at a time so the intermediate floats
// stay in L1 (the public entries are in encode.hpp). Each result is the one
// correct rounding of the source value:
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
#include "kernel_sets.hpp"

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

// Rounds doubles into Fmt with a deterministic c: out[i] ==
// mf::round_to<Fmt>(in[i], c).bits(), through a round-to-odd float and the
// plain float kernels.
template <class Fmt>
inline void encode_double_plain(const double* in, storage_of<Fmt>* out, std::size_t n,
                                const conversion& c) {
  static_assert(is_minifloat_v<Fmt>, "encode into a minifloat type");
  assert(!ranges_overlap(in, n * sizeof(double), out, n * sizeof(storage_of<Fmt>)));
  float narrowed[chunk_elements];
  for_each_chunk(n, [&](std::size_t first, std::size_t count) {
    narrow_to_odd(in + first, narrowed, count);
    encode_float_plain<Fmt>(narrowed, out + first, count, c);
  });
}

}  // namespace detail
}  // namespace bulk
}  // namespace mf
