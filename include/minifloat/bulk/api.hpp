// The public bulk conversions: float <-> any minifloat format over
// contiguous ranges, with the kernel set chosen at run time (dispatch.hpp).
// Every kernel set gives the same bits as the scalar conversion
// (mf::round_to / static_cast<float>) for every input and mode.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#if __cplusplus >= 202002L && __has_include(<span>)
#include <span>
#endif

#include "../formats.hpp"
#include "avx2.hpp"
#include "avx512.hpp"
#include "dispatch.hpp"
#include "neon.hpp"
#include "scalar.hpp"

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

}  // namespace detail

// Rounds in[0..n) into Fmt (a minifloat type such as mf::e4m3fn) and writes
// the encodings to out[0..n), one per storage_type element (one byte for the
// formats of 8 bits or fewer: sub-byte formats are not packed). Same result
// per element as mf::round_to<Fmt>(in[i], mode, on_overflow).bits().
// in and out must not overlap.
template <class Fmt>
inline void encode(const float* in, typename Fmt::storage_type* out,
                   std::size_t n, rounding mode = rounding::nearest_even,
                   overflow on_overflow = overflow::non_saturating) {
  static_assert(is_minifloat_v<Fmt>, "encode into a minifloat type");
  assert(!detail::ranges_overlap(in, n * sizeof(float), out,
                                 n * sizeof(typename Fmt::storage_type)));
  switch (active_isa()) {
#if MF_BULK_X86
    case isa::avx512:
      return avx512_kernels::encode<Fmt>(in, out, n, mode, on_overflow);
    case isa::avx2:
      return avx2_kernels::encode<Fmt>(in, out, n, mode, on_overflow);
#endif
#if MF_BULK_NEON
    case isa::neon:
      return neon_kernels::encode<Fmt>(in, out, n, mode, on_overflow);
#endif
    default:
      return scalar_kernels::encode<Fmt>(in, out, n, mode, on_overflow);
  }
}

// Decodes in[0..n) (encodings of Fmt; bits above the format's width are
// ignored, as in Fmt::from_bits) to float, exactly: out[i] ==
// static_cast<float>(Fmt::from_bits(in[i])) bit for bit (NaN is the quiet
// NaN 0x7FC00000, with the sign where the format has signed NaNs).
template <class Fmt>
inline void decode(const typename Fmt::storage_type* in, float* out,
                   std::size_t n) {
  static_assert(is_minifloat_v<Fmt>, "decode from a minifloat type");
  assert(!detail::ranges_overlap(in, n * sizeof(typename Fmt::storage_type),
                                 out, n * sizeof(float)));
  switch (active_isa()) {
#if MF_BULK_X86
    case isa::avx512:
      return avx512_kernels::decode<Fmt>(in, out, n);
    case isa::avx2:
      return avx2_kernels::decode<Fmt>(in, out, n);
#endif
#if MF_BULK_NEON
    case isa::neon:
      return neon_kernels::decode<Fmt>(in, out, n);
#endif
    default:
      return scalar_kernels::decode<Fmt>(in, out, n);
  }
}

#if __cplusplus >= 202002L && __has_include(<span>)
// Span overloads: the lengths must match (debug assertion); in release
// builds the shorter length is used, so nothing outside either span is
// touched.
template <class Fmt>
inline void encode(std::span<const float> in,
                   std::span<typename Fmt::storage_type> out,
                   rounding mode = rounding::nearest_even,
                   overflow on_overflow = overflow::non_saturating) {
  assert(in.size() == out.size());
  encode<Fmt>(in.data(), out.data(),
              in.size() < out.size() ? in.size() : out.size(), mode,
              on_overflow);
}

template <class Fmt>
inline void decode(std::span<const typename Fmt::storage_type> in,
                   std::span<float> out) {
  assert(in.size() == out.size());
  decode<Fmt>(in.data(), out.data(),
              in.size() < out.size() ? in.size() : out.size());
}
#endif

}  // namespace bulk
}  // namespace mf
