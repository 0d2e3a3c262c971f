// The <cmath> classification and sign functions, found by argument-dependent
// lookup like the standard ones: isnan(x) works unqualified on any format.
#pragma once

#include <cmath>

#include "config.hpp"
#include "scalar_convert.hpp"
#include "value.hpp"

namespace mf {

template <int E, int M, int B, specials S>
MF_HOST_DEVICE constexpr bool isnan(minifloat<E, M, B, S> x) noexcept {
  return minifloat<E, M, B, S>::format::is_nan(x.bits());
}

template <int E, int M, int B, specials S>
MF_HOST_DEVICE constexpr bool isinf(minifloat<E, M, B, S> x) noexcept {
  return minifloat<E, M, B, S>::format::is_inf(x.bits());
}

template <int E, int M, int B, specials S>
MF_HOST_DEVICE constexpr bool isfinite(minifloat<E, M, B, S> x) noexcept {
  return !isnan(x) && !isinf(x);
}

template <int E, int M, int B, specials S>
MF_HOST_DEVICE constexpr bool iszero(minifloat<E, M, B, S> x) noexcept {
  using format = typename minifloat<E, M, B, S>::format;
  return format::has_zero && (x.bits() & format::magnitude_mask) == 0 && !isnan(x);
}

template <int E, int M, int B, specials S>
MF_HOST_DEVICE constexpr bool isnormal(minifloat<E, M, B, S> x) noexcept {
  using format = typename minifloat<E, M, B, S>::format;
  if (!isfinite(x)) return false;
  if (!format::has_subnormals) return true;  // e8m0fnu: every number is normal
  return (x.bits() & format::magnitude_mask) >> M != 0;
}

// The sign bit, except that FNUZ's NaN (0x80) and every e8m0fnu value have no
// sign: those report false, like the float they decode to.
template <int E, int M, int B, specials S>
MF_HOST_DEVICE constexpr bool signbit(minifloat<E, M, B, S> x) noexcept {
  using format = typename minifloat<E, M, B, S>::format;
  if (S == specials::fnuz && isnan(x)) return false;
  return format::is_negative(x.bits());
}

template <int E, int M, int B, specials S>
MF_HOST_DEVICE constexpr int fpclassify(minifloat<E, M, B, S> x) noexcept {
  if (isnan(x)) return FP_NAN;
  if (isinf(x)) return FP_INFINITE;
  if (iszero(x)) return FP_ZERO;
  return isnormal(x) ? FP_NORMAL : FP_SUBNORMAL;
}

// |x|: clears the sign bit; NaN stays NaN (FNUZ's NaN keeps its encoding).
template <int E, int M, int B, specials S>
MF_HOST_DEVICE constexpr minifloat<E, M, B, S> abs(minifloat<E, M, B, S> x) noexcept {
  using type = minifloat<E, M, B, S>;
  using format = typename type::format;
  if (S == specials::fnuz && isnan(x)) return x;
  return type::from_bits(
      static_cast<typename type::storage_type>(x.bits() & format::magnitude_mask));
}

template <int E, int M, int B, specials S>
MF_HOST_DEVICE constexpr minifloat<E, M, B, S> fabs(minifloat<E, M, B, S> x) noexcept {
  return abs(x);
}

// The magnitude of x with the sign of y. In an FNUZ format a zero or NaN
// magnitude has no sign to take; e8m0fnu has no sign at all, so x comes back.
template <int E, int M, int B, specials S>
MF_HOST_DEVICE constexpr minifloat<E, M, B, S> copysign(minifloat<E, M, B, S> x,
                                                        minifloat<E, M, B, S> y) noexcept {
  using type = minifloat<E, M, B, S>;
  using format = typename type::format;
  using storage = typename type::storage_type;
  if constexpr (S == specials::fnu) {
    (void)y;  // every e8m0fnu value, NaN included, is unsigned
    return x;
  } else {
    if (S == specials::fnuz && ((x.bits() & format::magnitude_mask) == 0 || isnan(x))) {
      return x;
    }
    const unsigned sign = signbit(y) ? format::sign_mask : 0u;
    return type::from_bits(
        static_cast<storage>((x.bits() & format::magnitude_mask) | sign));
  }
}

// The next representable value after x in the direction of y (IEEE 754
// nextUp/nextDown): y itself when x == y, NaN if either is NaN. Stepping past
// max finite gives what overflow gives (Inf, NaN, or max for the MX element
// types that have neither); stepping below e8m0fnu's smallest value stays
// there, as rounding any smaller value would.
template <int E, int M, int B, specials S>
MF_HOST_DEVICE constexpr minifloat<E, M, B, S> nextafter(minifloat<E, M, B, S> x,
                                                         minifloat<E, M, B, S> y) noexcept {
  using type = minifloat<E, M, B, S>;
  using format = typename type::format;
  using storage = typename type::storage_type;
  if (isnan(x) || isnan(y)) {
    return type::from_bits(static_cast<storage>(
        format::has_nan ? format::positive_nan : format::max_finite_magnitude));
  }
  const float from = static_cast<float>(x);
  const float to = static_cast<float>(y);
  if (from == to) return y;
  const bool up = to > from;
  const unsigned magnitude = x.bits() & format::magnitude_mask;
  if (iszero(x)) {
    // The smallest subnormal, on the side of y.
    return type::from_bits(static_cast<storage>(1u | (up ? 0u : format::sign_mask)));
  }
  const bool negative = format::is_negative(x.bits());
  const bool away_from_zero = up != negative;
  if (away_from_zero) {
    if (isinf(x)) return x;
    if (magnitude == format::max_finite_magnitude) {
      const detail::rounding_request past_max{rounding::nearest_even,
                                              overflow::non_saturating, 0u, 0};
      return type::from_bits(static_cast<storage>(
          detail::overflow_encoding<format>(negative, past_max)));
    }
    return type::from_bits(static_cast<storage>(x.bits() + 1u));
  }
  if (!format::has_zero && magnitude == 0) return x;
  if (magnitude == 1u && format::has_zero) {
    return type::from_bits(static_cast<storage>(
        detail::zero_encoding<format>(negative)));
  }
  return type::from_bits(static_cast<storage>(x.bits() - 1u));
}

}  // namespace mf
