// Deprecated: the bulk names from before the one conversion vocabulary
// (encode.hpp), each a one-line wrapper over the new entry, kept so that
// code written against them keeps compiling this release. They will gain
// [[deprecated]] in the next one (the tests of the old names still call
// them, and warnings are errors). docs/semantics.md, "Deprecated names",
// maps each to its replacement:
//   encode_scaled(in, out, n, s, mode, ovf)        -> encode(in, out, n, conversion::with(mode, ovf), {s})
//   encode_amax / encode_scaled_amax               -> encode(..., {s, &amax})
//   encode_stochastic(in, out, n, sr, ovf)         -> encode(in, out, n, conversion::stochastic(sr).with_overflow(ovf))
//   encode_scaled_stochastic[_amax], encode_stochastic_amax: the same, combined
//   decode_scaled(in, out, n, s)                   -> decode(in, out, n, s)
//   encode / convert / encode_from_*(..., mode, ovf) -> (..., conversion::with(mode, ovf))
// A scale of exactly 1 skips the multiply, as in encode.hpp: the same bits
// unless flush-to-zero or denormals-are-zero is set, where x * 1 would
// flush a subnormal x and the unscaled path does not.
#pragma once

#include <cstddef>
#include <cstdint>

#include "encode.hpp"
#include "span_overloads.hpp"

#if __cplusplus >= 202002L && __has_include(<span>)
#include <span>
#endif

namespace mf {
namespace bulk {

template <class Fmt, class Src>
inline void encode(const Src* in, typename Fmt::storage_type* out, std::size_t n, rounding mode,
                   overflow on_overflow = overflow::non_saturating) {
  encode<Fmt>(in, out, n, conversion::with(mode, on_overflow));
}

template <class To, class From>
inline void convert(const detail::storage_of<From>* in, detail::storage_of<To>* out,
                    std::size_t n, rounding mode,
                    overflow on_overflow = overflow::non_saturating) {
  convert<To, From>(in, out, n, conversion::with(mode, on_overflow));
}

template <class Fmt>
inline void encode_from_binary16(const std::uint16_t* in, detail::storage_of<Fmt>* out,
                                 std::size_t n, rounding mode,
                                 overflow on_overflow = overflow::non_saturating) {
  encode_from_binary16<Fmt>(in, out, n, conversion::with(mode, on_overflow));
}

template <class Fmt>
inline void encode_from_bfloat16(const std::uint16_t* in, detail::storage_of<Fmt>* out,
                                 std::size_t n, rounding mode,
                                 overflow on_overflow = overflow::non_saturating) {
  encode_from_bfloat16<Fmt>(in, out, n, conversion::with(mode, on_overflow));
}

template <class Fmt, class Src>
inline void encode_scaled(const Src* in, typename Fmt::storage_type* out, std::size_t n,
                          float scale, rounding mode = rounding::nearest_even,
                          overflow on_overflow = overflow::non_saturating) {
  encode<Fmt>(in, out, n, conversion::with(mode, on_overflow), {scale, nullptr});
}

template <class Fmt, class Src>
inline float encode_scaled_amax(const Src* in, typename Fmt::storage_type* out, std::size_t n,
                                float scale, rounding mode = rounding::nearest_even,
                                overflow on_overflow = overflow::non_saturating) {
  float amax = 0.0f;
  encode<Fmt>(in, out, n, conversion::with(mode, on_overflow), {scale, &amax});
  return amax;
}

template <class Fmt, class Src>
inline float encode_amax(const Src* in, typename Fmt::storage_type* out, std::size_t n,
                         rounding mode = rounding::nearest_even,
                         overflow on_overflow = overflow::non_saturating) {
  float amax = 0.0f;
  encode<Fmt>(in, out, n, conversion::with(mode, on_overflow), {1.0f, &amax});
  return amax;
}

template <class Fmt, class Src>
inline void encode_stochastic(const Src* in, typename Fmt::storage_type* out, std::size_t n,
                              const stochastic_rounding& sr,
                              overflow on_overflow = overflow::non_saturating) {
  encode<Fmt>(in, out, n, conversion::stochastic(sr).with_overflow(on_overflow));
}

template <class Fmt, class Src>
inline void encode_scaled_stochastic(const Src* in, typename Fmt::storage_type* out,
                                     std::size_t n, float scale, const stochastic_rounding& sr,
                                     overflow on_overflow = overflow::non_saturating) {
  encode<Fmt>(in, out, n, conversion::stochastic(sr).with_overflow(on_overflow),
              {scale, nullptr});
}

template <class Fmt, class Src>
inline float encode_scaled_stochastic_amax(const Src* in, typename Fmt::storage_type* out,
                                           std::size_t n, float scale,
                                           const stochastic_rounding& sr,
                                           overflow on_overflow = overflow::non_saturating) {
  float amax = 0.0f;
  encode<Fmt>(in, out, n, conversion::stochastic(sr).with_overflow(on_overflow), {scale, &amax});
  return amax;
}

template <class Fmt, class Src>
inline float encode_stochastic_amax(const Src* in, typename Fmt::storage_type* out,
                                    std::size_t n, const stochastic_rounding& sr,
                                    overflow on_overflow = overflow::non_saturating) {
  float amax = 0.0f;
  encode<Fmt>(in, out, n, conversion::stochastic(sr).with_overflow(on_overflow), {1.0f, &amax});
  return amax;
}

template <class Fmt>
inline void decode_scaled(const typename Fmt::storage_type* in, float* out, std::size_t n,
                          float scale) {
  decode<Fmt>(in, out, n, scale);
}

#if __cplusplus >= 202002L && __has_include(<span>)
// The span forms the old names had. As everywhere: the lengths must match
// (debug assertion); release builds use the shorter.
template <class Fmt, class Src>
inline void encode(std::span<const Src> in, std::span<typename Fmt::storage_type> out,
                   rounding mode, overflow on_overflow = overflow::non_saturating) {
  encode<Fmt>(in, out, conversion::with(mode, on_overflow));
}

template <class To, class From>
inline void convert(std::span<const typename From::storage_type> in,
                    std::span<typename To::storage_type> out, rounding mode,
                    overflow on_overflow = overflow::non_saturating) {
  convert<To, From>(in, out, conversion::with(mode, on_overflow));
}

template <class Fmt, class Src>
inline void encode_scaled(std::span<const Src> in, std::span<typename Fmt::storage_type> out,
                          float scale, rounding mode = rounding::nearest_even,
                          overflow on_overflow = overflow::non_saturating) {
  encode<Fmt>(in, out, conversion::with(mode, on_overflow), {scale, nullptr});
}

template <class Fmt, class Src>
inline float encode_scaled_amax(std::span<const Src> in,
                                std::span<typename Fmt::storage_type> out, float scale,
                                rounding mode = rounding::nearest_even,
                                overflow on_overflow = overflow::non_saturating) {
  float amax = 0.0f;
  encode<Fmt>(in, out, conversion::with(mode, on_overflow), {scale, &amax});
  return amax;
}

template <class Fmt, class Src>
inline float encode_amax(std::span<const Src> in, std::span<typename Fmt::storage_type> out,
                         rounding mode = rounding::nearest_even,
                         overflow on_overflow = overflow::non_saturating) {
  float amax = 0.0f;
  encode<Fmt>(in, out, conversion::with(mode, on_overflow), {1.0f, &amax});
  return amax;
}

template <class Fmt, class Src>
inline void encode_stochastic(std::span<const Src> in, std::span<typename Fmt::storage_type> out,
                              const stochastic_rounding& sr,
                              overflow on_overflow = overflow::non_saturating) {
  encode<Fmt>(in, out, conversion::stochastic(sr).with_overflow(on_overflow));
}

template <class Fmt>
inline void decode_scaled(std::span<const typename Fmt::storage_type> in, std::span<float> out,
                          float scale) {
  decode<Fmt>(in, out, scale);
}
#endif

}  // namespace bulk
}  // namespace mf
