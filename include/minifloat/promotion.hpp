// Compile-time type promotion for mixed arithmetic. Two formats promote to
// the smaller one that holds every value of the other exactly (bfloat16 +
// e4m3fn -> bfloat16), otherwise to float, as the PyTorch FP8 review asks.
#pragma once

#include <type_traits>

#include "format.hpp"
#include "scalar_convert.hpp"
#include "value.hpp"

namespace mf {
namespace detail {

// Whether every value (and every special) of format B is a value of format
// A. Values of B at exponent e are multiples of 2^(max(e, emin_B) - M_B); A
// holds them iff it has at least as many mantissa bits, reaches B's max,
// and its smallest quantum is no coarser than B's.
template <class A, class B>
constexpr bool represents_all_values_of() {
  const bool specials_fit = (A::is_signed || !B::is_signed) &&
                            (A::has_nan || !B::has_nan) &&
                            (A::has_inf || !B::has_inf) &&
                            (A::has_negative_zero || !B::has_negative_zero) &&
                            (A::has_zero || !B::has_zero);
  const bool range_fits = max_finite_value<A>() >= max_finite_value<B>();
  const bool low_end_fits =
      A::has_subnormals
          ? (A::min_exponent - A::mantissa_bits <=
             B::min_exponent - B::mantissa_bits)
          : (!B::has_subnormals && A::min_exponent <= B::min_exponent);
  return specials_fit && range_fits && low_end_fits &&
         A::mantissa_bits >= B::mantissa_bits;
}

template <class A, class B, class = void>
struct promote_formats {
  using type = float;
};

template <class A, class B>
struct promote_formats<A, B, std::enable_if_t<is_minifloat_v<A> && is_minifloat_v<B>>> {
  static constexpr bool a_holds_b =
      represents_all_values_of<typename A::format, typename B::format>();
  static constexpr bool b_holds_a =
      represents_all_values_of<typename B::format, typename A::format>();
  using type = std::conditional_t<
      a_holds_b && b_holds_a,
      std::conditional_t<(sizeof(B) < sizeof(A)), B, A>,
      std::conditional_t<a_holds_b, A, std::conditional_t<b_holds_a, B, float>>>;
};

template <class A, class B>
struct promote_pair {
  static_assert(is_minifloat_v<A> || is_minifloat_v<B>, "one side is a minifloat");
  using other = std::conditional_t<is_minifloat_v<A>, B, A>;
  using type = std::conditional_t<
      std::is_same<A, B>::value, A,
      std::conditional_t<
          is_minifloat_v<A> && is_minifloat_v<B>,
          typename promote_formats<A, B>::type,
          std::conditional_t<std::is_same<other, double>::value, double, float>>>;
};

}  // namespace detail

// The result type of a binary operator on A and B (at least one a minifloat):
// same type -> that type; with double -> double; with float or an integer ->
// float; two formats -> the smaller one holding all values of the other,
// else float.
template <class A, class B>
using promote_t = typename detail::promote_pair<A, B>::type;

}  // namespace mf
