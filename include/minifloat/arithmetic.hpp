// Operators. Each is computed in float (double when a double is involved)
// and rounded once, nearest-even and non-saturating, into the promoted type
// (compound assignment: into the left operand's type).
// Float carries at least 2p+2 significand bits for every format here and
// covers their exponent ranges, so rounding twice is innocuous and results
// are correctly rounded (Figueroa, "When is double rounding innocuous?").
#pragma once

#include <type_traits>

#include "config.hpp"
#include "promotion.hpp"
#include "value.hpp"

namespace mf {
namespace detail {

// Anything a minifloat converts from can stand beside one in an operator.
template <class T>
inline constexpr bool is_operand_v = is_minifloat_v<T> || is_plain_source_v<T>;

template <class A, class B>
using enable_mixed_t =
    std::enable_if_t<(is_minifloat_v<A> || is_minifloat_v<B>) &&
                         is_operand_v<A> && is_operand_v<B>,
                     int>;

// float, unless the result is double.
template <class A, class B>
using compute_t =
    std::conditional_t<std::is_same<promote_t<A, B>, double>::value, double, float>;

template <class Compute, class T>
MF_HOST_DEVICE constexpr Compute widen(T value) noexcept {
  if constexpr (is_minifloat_v<T>) {
    return static_cast<Compute>(static_cast<float>(value));
  } else {
    return static_cast<Compute>(value);
  }
}

}  // namespace detail

#define MF_DEFINE_BINARY_OPERATOR(op)                                        \
  template <class A, class B, detail::enable_mixed_t<A, B> = 0>              \
  MF_HOST_DEVICE constexpr promote_t<A, B> operator op(A a, B b) noexcept {  \
    using compute = detail::compute_t<A, B>;                                 \
    return static_cast<promote_t<A, B>>(detail::widen<compute>(a)            \
                                            op detail::widen<compute>(b));    \
  }                                                                          \
  template <int E, int M, int Bias, specials S, class B,                     \
            std::enable_if_t<detail::is_operand_v<B>, int> = 0>              \
  MF_HOST_DEVICE constexpr minifloat<E, M, Bias, S>& operator op##=(         \
      minifloat<E, M, Bias, S>& a, B b) noexcept {                           \
    using type = minifloat<E, M, Bias, S>;                                   \
    using compute = detail::compute_t<type, B>;                              \
    a = static_cast<type>(detail::widen<compute>(a)                          \
                              op detail::widen<compute>(b));                 \
    return a;                                                                \
  }

MF_DEFINE_BINARY_OPERATOR(+)
MF_DEFINE_BINARY_OPERATOR(-)
MF_DEFINE_BINARY_OPERATOR(*)
MF_DEFINE_BINARY_OPERATOR(/)
#undef MF_DEFINE_BINARY_OPERATOR

// Comparisons follow IEEE 754: NaN is unordered, +0 == -0.
#define MF_DEFINE_COMPARISON(op)                                       \
  template <class A, class B, detail::enable_mixed_t<A, B> = 0>        \
  MF_HOST_DEVICE constexpr bool operator op(A a, B b) noexcept {       \
    using compute = detail::compute_t<A, B>;                           \
    return detail::widen<compute>(a) op detail::widen<compute>(b);     \
  }

MF_DEFINE_COMPARISON(==)
MF_DEFINE_COMPARISON(!=)
MF_DEFINE_COMPARISON(<)
MF_DEFINE_COMPARISON(<=)
MF_DEFINE_COMPARISON(>)
MF_DEFINE_COMPARISON(>=)
#undef MF_DEFINE_COMPARISON

template <int E, int M, int Bias, specials S>
MF_HOST_DEVICE constexpr minifloat<E, M, Bias, S> operator+(
    minifloat<E, M, Bias, S> a) noexcept {
  return a;
}

// Negation flips the sign bit, except where that bit does not mean "sign":
// FNUZ formats (0x80 is NaN, so zero and NaN stay put) and the unsigned
// e8m0fnu (every value is positive, so -x is NaN).
template <int E, int M, int Bias, specials S>
MF_HOST_DEVICE constexpr minifloat<E, M, Bias, S> operator-(
    minifloat<E, M, Bias, S> a) noexcept {
  using type = minifloat<E, M, Bias, S>;
  using format = typename type::format;
  using storage = typename type::storage_type;
  if constexpr (S == specials::fnu) {
    return type::from_bits(static_cast<storage>(format::positive_nan));
  } else {
    if (S == specials::fnuz && (a.bits() & format::magnitude_mask) == 0) return a;
    return type::from_bits(static_cast<storage>(a.bits() ^ format::sign_mask));
  }
}

}  // namespace mf
