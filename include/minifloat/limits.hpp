// std::numeric_limits for every format. Where a member has no meaning for a
// format (infinity() without Inf, quiet_NaN() without NaN) it returns what
// converting float's infinity or NaN gives, so the answer is still a value
// of the type and agrees with the conversion rules.
#pragma once

#include <limits>

#include "config.hpp"
#include "value.hpp"

namespace mf {
namespace detail {

// floor(n * log10(2)) for the small n used here, in integer arithmetic.
constexpr int floor_log10_of_pow2(int n) {
  return n >= 0 ? (n * 30103) / 100000 : -((-n * 30103 + 99999) / 100000);
}

template <class Format>
struct limits_data {
  static constexpr int digits = Format::mantissa_bits + 1;
  // The smallest / largest powers of ten that are normal / finite values.
  static constexpr int min_exponent10() {
    // ceil(log10(2^(emin))) for the smallest normal 2^emin.
    return -floor_log10_of_pow2(-Format::min_exponent);
  }
  static constexpr int max_exponent10() {
    // floor(log10(max)); max = significand * 2^emax with significand in [1,2).
    const double max_value = max_finite_value<Format>();
    int exponent = 0;
    double power = 1.0;
    while (power * 10.0 <= max_value) {
      power *= 10.0;
      ++exponent;
    }
    return exponent;
  }
};

}  // namespace detail
}  // namespace mf

namespace std {

template <int E, int M, int Bias, mf::specials S>
class numeric_limits<mf::minifloat<E, M, Bias, S>> {
  using type = mf::minifloat<E, M, Bias, S>;
  using format = typename type::format;
  using storage = typename type::storage_type;
  using data = mf::detail::limits_data<format>;
  MF_HOST_DEVICE static constexpr type encoded(unsigned bits) noexcept {
    return type::from_bits(static_cast<storage>(bits));
  }

 public:
  static constexpr bool is_specialized = true;
  static constexpr bool is_signed = format::is_signed;
  static constexpr bool is_integer = false;
  static constexpr bool is_exact = false;
  static constexpr bool has_infinity = format::has_inf;
  static constexpr bool has_quiet_NaN = format::has_nan;
  // Only the IEEE-style formats have more than one NaN per sign, so only
  // they can tell signalling from quiet (mantissa top bit clear).
  static constexpr bool has_signaling_NaN = S == mf::specials::ieee && M >= 2;
  static constexpr float_denorm_style has_denorm =
      format::has_subnormals ? denorm_present : denorm_absent;
  static constexpr bool has_denorm_loss = false;
  static constexpr float_round_style round_style = round_to_nearest;
  // Only binary16 is an IEEE 754 interchange format.
  static constexpr bool is_iec559 =
      E == 5 && M == 10 && Bias == 15 && S == mf::specials::ieee;
  static constexpr bool is_bounded = true;
  static constexpr bool is_modulo = false;
  static constexpr int digits = data::digits;
  static constexpr int digits10 = mf::detail::floor_log10_of_pow2(digits - 1);
  static constexpr int max_digits10 =
      mf::detail::floor_log10_of_pow2(digits) + 2;
  static constexpr int radix = 2;
  // C's convention: the smallest normal is 2^(min_exponent - 1).
  static constexpr int min_exponent = format::min_exponent + 1;
  static constexpr int min_exponent10 = data::min_exponent10();
  static constexpr int max_exponent = format::max_exponent + 1;
  static constexpr int max_exponent10 = data::max_exponent10();
  static constexpr bool traps = false;
  static constexpr bool tinyness_before = false;

  MF_HOST_DEVICE static constexpr type min() noexcept {
    return encoded(format::has_subnormals ? (1u << M) : 0u);
  }
  MF_HOST_DEVICE static constexpr type max() noexcept {
    return encoded(format::max_finite_magnitude);
  }
  // The unsigned e8m0fnu has no negative values: its lowest is its min.
  MF_HOST_DEVICE static constexpr type lowest() noexcept {
    return format::is_signed ? encoded(format::max_finite_magnitude | format::sign_mask)
                             : min();
  }
  // The gap between 1 and the next value: 2^-M.
  MF_HOST_DEVICE static constexpr type epsilon() noexcept {
    return type(1.0f / static_cast<float>(1u << M));
  }
  MF_HOST_DEVICE static constexpr type round_error() noexcept {
    return type(0.5f);
  }
  MF_HOST_DEVICE static constexpr type infinity() noexcept {
    return type(mf::detail::bit_cast<float>(0x7F800000u));  // device-safe +Inf
  }
  MF_HOST_DEVICE static constexpr type quiet_NaN() noexcept {
    return type(mf::detail::bit_cast<float>(0x7FC00000u));  // device-safe NaN
  }
  // IEEE style: exponent all ones, mantissa 0..01. Elsewhere the quiet NaN.
  MF_HOST_DEVICE static constexpr type signaling_NaN() noexcept {
    return has_signaling_NaN ? encoded(format::inf_magnitude | 1u) : quiet_NaN();
  }
  MF_HOST_DEVICE static constexpr type denorm_min() noexcept {
    return format::has_subnormals ? encoded(1u) : min();
  }
};

}  // namespace std
