// std::span overloads (C++20) of every public bulk entry (encode.hpp,
// amax.hpp): the same (inputs, outputs, options) with the length taken from
// the spans. Encodings come as any contiguous range of the storage or of the
// value type (mf::encoding_span, encodings.hpp): std::span<std::uint8_t>,
// std::vector<mf::e4m3fn>, ... The lengths must match (debug assertion); in
// release builds the shorter one is used, so nothing outside either span is
// touched.
#pragma once

#if __cplusplus >= 202002L && __has_include(<span>)
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <iterator>
#include <span>
#include <type_traits>

#include "../encodings.hpp"
#include "amax.hpp"
#include "encode.hpp"

namespace mf {
namespace bulk {
namespace detail {

template <class A, class B>
inline std::size_t common_length(const A& a, const B& b) noexcept {
  assert(a.size() == b.size());
  return a.size() < b.size() ? a.size() : b.size();
}

}  // namespace detail

// in: any contiguous range of a source type (float, double, a minifloat
// type): std::span<const float>, std::vector<double>, ...
template <class Fmt, class Range, class Src = mf::detail::contiguous_element_t<const Range>,
          std::enable_if_t<detail::is_bulk_source_v<Src>, int> = 0>
inline void encode(const Range& in, encoding_span<Fmt> out, const conversion& c = {},
                   const fused_steps& steps = {}) {
  const std::span<const Src> values(std::data(in), std::size(in));
  encode<Fmt>(values.data(), out.data(), detail::common_length(values, out), c, steps);
}

template <class Fmt>
inline void decode(encoding_span<const Fmt> in, std::span<float> out,
                   float scale = 1.0f) {
  decode<Fmt>(in.data(), out.data(), detail::common_length(in, out), scale);
}

template <class To, class From>
inline void convert(encoding_span<const From> in, encoding_span<To> out,
                    const conversion& c = {}) {
  convert<To, From>(in.data(), out.data(), detail::common_length(in, out), c);
}

template <class Fmt>
inline void encode_from_binary16(std::span<const std::uint16_t> in,
                                 encoding_span<Fmt> out,
                                 const conversion& c = {}, const fused_steps& steps = {}) {
  encode_from_binary16<Fmt>(in.data(), out.data(), detail::common_length(in, out), c, steps);
}

template <class Fmt>
inline void encode_from_bfloat16(std::span<const std::uint16_t> in,
                                 encoding_span<Fmt> out,
                                 const conversion& c = {}, const fused_steps& steps = {}) {
  encode_from_bfloat16<Fmt>(in.data(), out.data(), detail::common_length(in, out), c, steps);
}

template <class Fmt>
inline void decode_to_binary16(encoding_span<const Fmt> in,
                               encoding_span<binary16> out) {
  decode_to_binary16<Fmt>(in.data(), out.data(), detail::common_length(in, out));
}

template <class Fmt>
inline void decode_to_bfloat16(encoding_span<const Fmt> in,
                               encoding_span<bfloat16> out) {
  decode_to_bfloat16<Fmt>(in.data(), out.data(), detail::common_length(in, out));
}

inline float amax(std::span<const float> in, amax_nan nan = amax_nan::propagate) {
  return amax(in.data(), in.size(), nan);
}

}  // namespace bulk
}  // namespace mf
#endif
