// The scalar kernel set: plain loops over the scalar conversion, which is the
// reference every SIMD kernel must match bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../conversion.hpp"
#include "../convert.hpp"
#include "../format.hpp"
#include "../rounding.hpp"
#include "../scalar_convert.hpp"
#include "../lanes/constants.hpp"
#include "../lanes/decode_table.hpp"
#include "mode_dispatch.hpp"

namespace mf {
namespace bulk {
namespace detail {

template <class T>
struct format_of {
  using type = typename T::format;
};

}  // namespace detail

namespace scalar {

template <class Fmt, rounding Mode, overflow Ovf>
inline void encode_with(const float* in, typename Fmt::storage_type* out, std::size_t n) {
  using F = typename Fmt::format;
  constexpr mf::detail::rounding_request r{Mode, Ovf, 0u, 0};
  for (std::size_t i = 0; i < n; ++i) {
    std::uint32_t bits;
    std::memcpy(&bits, in + i, sizeof bits);
    out[i] = static_cast<typename Fmt::storage_type>(
        mf::detail::round_float_bits<F>(bits, r));
  }
}

// The plain encode: c is deterministic (its mode and overflow are used).
template <class Fmt>
inline void encode(const float* in, typename Fmt::storage_type* out, std::size_t n,
                   const conversion& c) {
  detail::with_mode_and_overflow(c.mode, c.on_overflow, [&](auto m, auto o) {
    encode_with<Fmt, decltype(m)::value, decltype(o)::value>(in, out, n);
  });
}

// The value of one encoding: formats of 8 bits or fewer through their
// table of values (lanes/decode_table.hpp: one load, no branch), wider
// ones through the scalar decode.
template <class F>
MF_FORCE_INLINE float decode_one(unsigned encoding) {
  if constexpr (F::bits <= 8) {
    return lanes::value_table_of<F>.value[encoding & 0xFFu];
  } else {
    return mf::detail::decode_to_float<F>(encoding & (F::magnitude_mask | F::sign_mask));
  }
}

template <class Fmt>
inline void decode(const typename Fmt::storage_type* in, float* out,
                   std::size_t n) {
  using F = typename Fmt::format;
  for (std::size_t i = 0; i < n; ++i) out[i] = decode_one<F>(in[i]);
}

}  // namespace scalar
}  // namespace bulk
}  // namespace mf
