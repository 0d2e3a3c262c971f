// The plain bulk conversions float <-> any minifloat format over contiguous
// ranges, with the kernel set chosen at run time (dispatch.hpp). Every
// kernel set gives the same bits as the scalar conversion (mf::round_to /
// static_cast<float>) for every input and mode. The public entries that
// call these are in encode.hpp.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../formats.hpp"
#include "../target/dispatch.hpp"
#include "kernel_sets.hpp"

namespace mf {
namespace bulk {
namespace detail {

// Overlapping input and output are a caller error (checked in debug builds).
inline bool ranges_overlap(const void* a, std::size_t a_bytes, const void* b,
                           std::size_t b_bytes) noexcept {
  if (a_bytes == 0 || b_bytes == 0) return false;
  const auto pa = reinterpret_cast<std::uintptr_t>(a);
  const auto pb = reinterpret_cast<std::uintptr_t>(b);
  return pa < pb + b_bytes && pb < pa + a_bytes;
}

// The plain kernels (no stochastic rounding, no fused step) for a float
// source, chosen by the active ISA (the dispatch table, kernel_sets.hpp). The public entries are in encode.hpp.
// Same result per element as mf::round_to<Fmt>(in[i], c).bits() for a
// deterministic c; sub-byte formats are not packed. in and out must not
// overlap.
template <class Fmt>
inline void encode_float_plain(const float* in, typename Fmt::storage_type* out,
                               std::size_t n, const conversion& c) {
  static_assert(is_minifloat_v<Fmt>, "encode into a minifloat type");
  assert(!ranges_overlap(in, n * sizeof(float), out,
                         n * sizeof(typename Fmt::storage_type)));
  active_kernels<encode_kernels<Fmt>>()(in, out, n, c);
}

// The plain decode kernels: out[i] == static_cast<float>(Fmt::from_bits(in[i]))
// bit for bit (bits above the format's width ignored; NaN is the quiet NaN
// 0x7FC00000, with the sign where the format has signed NaNs).
template <class Fmt>
inline void decode_plain(const typename Fmt::storage_type* in, float* out, std::size_t n) {
  static_assert(is_minifloat_v<Fmt>, "decode from a minifloat type");
  assert(!ranges_overlap(in, n * sizeof(typename Fmt::storage_type), out,
                         n * sizeof(float)));
  active_kernels<decode_kernels<Fmt>>().decode(in, out, n);
}

}  // namespace detail
}  // namespace bulk
}  // namespace mf
