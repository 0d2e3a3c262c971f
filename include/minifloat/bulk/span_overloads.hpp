// std::span overloads (C++20) of every public bulk entry (encode.hpp,
// amax.hpp): the same (inputs, outputs, options) with the length taken from
// the spans. The lengths must match (debug assertion); in release builds
// the shorter one is used, so nothing outside either span is touched.
#pragma once

#if __cplusplus >= 202002L && __has_include(<span>)
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>

#include "amax.hpp"
#include "encode.hpp"

namespace mf {
namespace bulk {
namespace detail {

template <class A, class B>
inline std::size_t common_length(std::span<A> a, std::span<B> b) noexcept {
  assert(a.size() == b.size());
  return a.size() < b.size() ? a.size() : b.size();
}

}  // namespace detail

template <class Fmt, class Src>
inline void encode(std::span<const Src> in, std::span<typename Fmt::storage_type> out,
                   const conversion& c = {}, const fused_steps& steps = {}) {
  encode<Fmt>(in.data(), out.data(), detail::common_length(in, out), c, steps);
}

template <class Fmt>
inline void decode(std::span<const typename Fmt::storage_type> in, std::span<float> out,
                   float scale = 1.0f) {
  decode<Fmt>(in.data(), out.data(), detail::common_length(in, out), scale);
}

template <class To, class From>
inline void convert(std::span<const typename From::storage_type> in,
                    std::span<typename To::storage_type> out, const conversion& c = {}) {
  convert<To, From>(in.data(), out.data(), detail::common_length(in, out), c);
}

template <class Fmt>
inline void encode_from_binary16(std::span<const std::uint16_t> in,
                                 std::span<typename Fmt::storage_type> out,
                                 const conversion& c = {}, const fused_steps& steps = {}) {
  encode_from_binary16<Fmt>(in.data(), out.data(), detail::common_length(in, out), c, steps);
}

template <class Fmt>
inline void encode_from_bfloat16(std::span<const std::uint16_t> in,
                                 std::span<typename Fmt::storage_type> out,
                                 const conversion& c = {}, const fused_steps& steps = {}) {
  encode_from_bfloat16<Fmt>(in.data(), out.data(), detail::common_length(in, out), c, steps);
}

template <class Fmt>
inline void decode_to_binary16(std::span<const typename Fmt::storage_type> in,
                               std::span<std::uint16_t> out) {
  decode_to_binary16<Fmt>(in.data(), out.data(), detail::common_length(in, out));
}

template <class Fmt>
inline void decode_to_bfloat16(std::span<const typename Fmt::storage_type> in,
                               std::span<std::uint16_t> out) {
  decode_to_bfloat16<Fmt>(in.data(), out.data(), detail::common_length(in, out));
}

inline float amax(std::span<const float> in, amax_nan nan = amax_nan::propagate) {
  return amax(in.data(), in.size(), nan);
}

}  // namespace bulk
}  // namespace mf
#endif
