// std::span overloads (C++20) of the bulk functions of sources.hpp,
// scaled.hpp and stochastic.hpp; the float encode/decode have theirs in
// api.hpp. As there: the lengths must match (debug assertion), and in
// release builds the shorter one is used, so nothing outside either span is
// touched.
#pragma once

#if __cplusplus >= 202002L && __has_include(<span>)
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <span>

#include "scaled.hpp"
#include "sources.hpp"
#include "stochastic.hpp"

namespace mf {
namespace bulk {
namespace detail {

template <class A, class B>
inline std::size_t common_length(std::span<A> a, std::span<B> b) noexcept {
  assert(a.size() == b.size());
  return a.size() < b.size() ? a.size() : b.size();
}

}  // namespace detail

template <class Fmt>
inline void encode(std::span<const double> in, std::span<typename Fmt::storage_type> out,
                   rounding mode = rounding::nearest_even,
                   overflow on_overflow = overflow::non_saturating) {
  encode<Fmt>(in.data(), out.data(), detail::common_length(in, out), mode, on_overflow);
}

template <class To, class From, std::enable_if_t<is_minifloat_v<From>, int> = 0>
inline void encode(std::span<const From> in, std::span<typename To::storage_type> out,
                   rounding mode = rounding::nearest_even,
                   overflow on_overflow = overflow::non_saturating) {
  encode<To>(in.data(), out.data(), detail::common_length(in, out), mode, on_overflow);
}

template <class To, class From>
inline void convert(std::span<const typename From::storage_type> in,
                    std::span<typename To::storage_type> out,
                    rounding mode = rounding::nearest_even,
                    overflow on_overflow = overflow::non_saturating) {
  convert<To, From>(in.data(), out.data(), detail::common_length(in, out), mode,
                    on_overflow);
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

template <class Fmt, class Src>
inline void encode_scaled(std::span<const Src> in, std::span<typename Fmt::storage_type> out,
                          float scale, rounding mode = rounding::nearest_even,
                          overflow on_overflow = overflow::non_saturating) {
  encode_scaled<Fmt>(in.data(), out.data(), detail::common_length(in, out), scale, mode,
                     on_overflow);
}

template <class Fmt, class Src>
inline float encode_scaled_amax(std::span<const Src> in,
                                std::span<typename Fmt::storage_type> out, float scale,
                                rounding mode = rounding::nearest_even,
                                overflow on_overflow = overflow::non_saturating) {
  return encode_scaled_amax<Fmt>(in.data(), out.data(), detail::common_length(in, out),
                                 scale, mode, on_overflow);
}

template <class Fmt, class Src>
inline float encode_amax(std::span<const Src> in, std::span<typename Fmt::storage_type> out,
                         rounding mode = rounding::nearest_even,
                         overflow on_overflow = overflow::non_saturating) {
  return encode_amax<Fmt>(in.data(), out.data(), detail::common_length(in, out), mode,
                          on_overflow);
}

template <class Fmt, class Src>
inline void encode_stochastic(std::span<const Src> in,
                              std::span<typename Fmt::storage_type> out,
                              const stochastic_rounding& sr,
                              overflow on_overflow = overflow::non_saturating) {
  encode_stochastic<Fmt>(in.data(), out.data(), detail::common_length(in, out), sr,
                         on_overflow);
}

template <class Fmt>
inline void decode_scaled(std::span<const typename Fmt::storage_type> in,
                          std::span<float> out, float scale) {
  decode_scaled<Fmt>(in.data(), out.data(), detail::common_length(in, out), scale);
}

}  // namespace bulk
}  // namespace mf
#endif
