// Conversions with an explicit rounding mode and overflow mode, including
// stochastic rounding from caller-supplied random bits.
#pragma once

#include <cstdint>

#include "config.hpp"
#include "rounding.hpp"
#include "value.hpp"

namespace mf {

// Rounds `value` (float, double, an integer or another minifloat) into To
// once, directly from the source: a double is never rounded through float.
//   mf::round_to<mf::e4m3fn>(300.0f, mf::rounding::toward_zero,
//                            mf::overflow::saturating)
template <class To, class From>
MF_HOST_DEVICE MF_FORCE_INLINE constexpr To round_to(
    From value, rounding mode = rounding::nearest_even,
    overflow on_overflow = overflow::non_saturating) noexcept {
  static_assert(is_minifloat_v<To>, "round_to converts into a minifloat type");
  const detail::rounding_request request{mode, on_overflow, 0u, 0};
  return To::from_bits(static_cast<typename To::storage_type>(
      detail::round_any<typename To::format>(value, request)));
}

// Stochastic rounding. For |value| strictly between neighbours a < b, let D
// be the top `random_bits` bits of (|value| - a) / (b - a) and r the low
// `random_bits` bits of `random`: the magnitude becomes b when D + r >=
// 2^random_bits, else a; the sign is kept. So P(b) = D / 2^random_bits,
// representable values never move, and the rule matches hardware that adds
// random bits below the kept ones and truncates. random_bits is 1..32; a
// value below 1 counts as 1 and one above 32 as 32 (no error: the function
// is noexcept and usable in device code).
// Above max finite the neighbours come from the unbounded exponent range and
// a result past max finite follows `on_overflow` (Inf/NaN or max).
template <class To, class From>
MF_HOST_DEVICE MF_FORCE_INLINE constexpr To round_to_stochastic(
    From value, std::uint32_t random,
    overflow on_overflow = overflow::non_saturating,
    int random_bits = stochastic_default_bits) noexcept {
  static_assert(is_minifloat_v<To>, "round_to_stochastic converts into a minifloat type");
  const int bits = detail::clamp_random_bits(random_bits);
  const detail::rounding_request request{rounding::nearest_even, on_overflow,
                                         random, bits};
  return To::from_bits(static_cast<typename To::storage_type>(
      detail::round_any<typename To::format>(value, request)));
}

}  // namespace mf
