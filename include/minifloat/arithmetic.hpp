// Operators. Each is computed in float (double when a double is involved)
// and rounded once, nearest-even and non-saturating, into the promoted type
// (compound assignment: into the left operand's type).
// Float carries at least 2p+2 significand bits for every format here and
// covers their exponent ranges, so rounding twice is innocuous and results
// are correctly rounded (Figueroa, "When is double rounding innocuous?").
// bfloat16 and e8m0fnu have values below float's normal range (2^-133,
// 2^-127), which flush-to-zero and denormals-are-zero (-ffast-math) would
// read or write as zero in float: a minifloat result from such an operand
// is computed in double, where every value of every format, and every
// product and quotient of two, is normal.
#pragma once

#include <cstdint>
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

// Whether T is a minifloat with values that are float subnormals.
template <class T, class = void>
inline constexpr bool has_float_subnormals_v = false;
template <class T>
inline constexpr bool has_float_subnormals_v<T, std::enable_if_t<is_minifloat_v<T>>> =
    T::format::min_exponent - T::format::mantissa_bits < -126;

// The arithmetic of A op B: float, unless the result is double, or the
// result is a minifloat and an operand has float subnormals (above).
template <class A, class B>
using compute_t = std::conditional_t<
    std::is_same<promote_t<A, B>, double>::value ||
        (is_minifloat_v<promote_t<A, B>> &&
         (has_float_subnormals_v<A> || has_float_subnormals_v<B>)),
    double, float>;

// Exact for a minifloat (its own conversion to float or double).
template <class Compute, class T>
MF_HOST_DEVICE constexpr Compute widen(T value) noexcept {
  return static_cast<Compute>(value);
}

template <class Compute>
MF_HOST_DEVICE constexpr bool sign_bit(Compute v) noexcept {
  using bits = std::conditional_t<sizeof(Compute) == 8, std::uint64_t, std::uint32_t>;
  return (bit_cast<bits>(v) >> (8 * sizeof(Compute) - 1)) != 0;
}

// x + y and x - y, for a minifloat result, as rounding to nearest gives
// them: an exact zero sum is -0 only when both addends are -0 (IEEE 754,
// 6.3). The hardware's sum takes its sign from the caller's rounding
// direction instead (x - x is -0 when rounding toward -Inf), which a
// minifloat result must not depend on; every other sum rounds to the same
// minifloat in every direction (docs/semantics.md, 5.2).
struct plus {
  template <class C>
  MF_HOST_DEVICE constexpr C operator()(C x, C y) const noexcept {
    const C sum = x + y;
    if (sum != C(0)) return sum;
    return sign_bit(x) && sign_bit(y) ? -C(0) : C(0);
  }
};
struct minus {
  template <class C>
  MF_HOST_DEVICE constexpr C operator()(C x, C y) const noexcept {
    const C difference = x - y;
    if (difference != C(0)) return difference;
    return sign_bit(x) && !sign_bit(y) ? -C(0) : C(0);
  }
};
struct multiplies {
  template <class C>
  MF_HOST_DEVICE constexpr C operator()(C x, C y) const noexcept {
    return x * y;
  }
};
struct divides {
  template <class C>
  MF_HOST_DEVICE constexpr C operator()(C x, C y) const noexcept {
    return x / y;
  }
};

// a op= b with b a minifloat of another format, rounded once into a's type
// (a's format need not hold b's values, so the two-format theorem of the
// operators above does not apply): the operation in double made exact or
// harmless. A product of two values of at most 11 bits is exact. A
// quotient a / b is more than 2^-36 (relative) away from every midpoint of
// a's format that it does not equal (a - m * b, when not 0, is at least the
// smaller of a's and m * b's last bits), so double's rounding, in any
// direction, cannot reach one. A sum is exact unless one addend is below
// 2^-40 of the other; such an addend only decides which way the other goes
// from a midpoint (every value or midpoint other than the larger addend is
// further than 2^-12 of it), so it is replaced by 2^-40 of the other with
// its own sign, and the sum, of at most 52 bits, is exact (Inf and NaN are
// left as they are). All values stay double normals.
template <class Operation>
MF_HOST_DEVICE constexpr double compound_other_format(double x, double y) noexcept {
  if constexpr (std::is_same<Operation, plus>::value || std::is_same<Operation, minus>::value) {
    const double ax = x < 0 ? -x : x, ay = y < 0 ? -y : y;
    constexpr double below = 0x1p-40;
    if (x - x == 0 && y - y == 0) {  // both finite: Inf and NaN are left as they are
      if (y != 0 && ay < ax * below) y = y < 0 ? -(ax * below) : ax * below;
      if (x != 0 && ax < ay * below) x = x < 0 ? -(ay * below) : ay * below;
    }
  }
  return Operation{}(x, y);
}

}  // namespace detail

#define MF_DEFINE_BINARY_OPERATOR(op, operation)                             \
  template <class A, class B, detail::enable_mixed_t<A, B> = 0>              \
  MF_HOST_DEVICE constexpr promote_t<A, B> operator op(A a, B b) noexcept {  \
    using compute = detail::compute_t<A, B>;                                 \
    const compute x = detail::widen<compute>(a), y = detail::widen<compute>(b); \
    if constexpr (is_minifloat_v<promote_t<A, B>>) {                         \
      return static_cast<promote_t<A, B>>(operation{}(x, y));                \
    } else {                                                                 \
      return x op y; /* a float or double result: that type's arithmetic */  \
    }                                                                        \
  }                                                                          \
  template <int E, int M, int Bias, specials S, class B,                     \
            std::enable_if_t<detail::is_operand_v<B>, int> = 0>              \
  MF_HOST_DEVICE constexpr minifloat<E, M, Bias, S>& operator op##=(         \
      minifloat<E, M, Bias, S>& a, B b) noexcept {                           \
    using type = minifloat<E, M, Bias, S>;                                   \
    if constexpr (is_minifloat_v<B> && !std::is_same<B, type>::value) {      \
      a = static_cast<type>(detail::compound_other_format<operation>(        \
          detail::widen<double>(a), detail::widen<double>(b)));              \
    } else { /* a's format, or float, double, an integer: a op b, then a's */ \
      a = static_cast<type>(a op b);                                         \
    }                                                                        \
    return a;                                                                \
  }

MF_DEFINE_BINARY_OPERATOR(+, detail::plus)
MF_DEFINE_BINARY_OPERATOR(-, detail::minus)
MF_DEFINE_BINARY_OPERATOR(*, detail::multiplies)
MF_DEFINE_BINARY_OPERATOR(/, detail::divides)
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

// ++ and -- add and subtract one, as x + T(1) and x - T(1) (two minifloats,
// one rounding: 5.1), like the increments of CUDA's __half and c10::Half.
#define MF_DEFINE_INCREMENT(op, operation)                                         \
  template <int E, int M, int Bias, specials S>                                    \
  MF_HOST_DEVICE constexpr minifloat<E, M, Bias, S>& operator op(                   \
      minifloat<E, M, Bias, S>& a) noexcept {                                      \
    a = a operation minifloat<E, M, Bias, S>(1);                                   \
    return a;                                                                      \
  }                                                                                \
  template <int E, int M, int Bias, specials S>                                    \
  MF_HOST_DEVICE constexpr minifloat<E, M, Bias, S> operator op(                    \
      minifloat<E, M, Bias, S>& a, int) noexcept {                                 \
    const minifloat<E, M, Bias, S> before = a;                                     \
    a = a operation minifloat<E, M, Bias, S>(1);                                   \
    return before;                                                                 \
  }

MF_DEFINE_INCREMENT(++, +)
MF_DEFINE_INCREMENT(--, -)
#undef MF_DEFINE_INCREMENT

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
