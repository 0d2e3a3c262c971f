// The error of a model's output against the exact answer, in units in the
// last place of the output type at the exact value: the yardstick of
// docs/hybrid.md's error table and of `minifloat matmul --exact-error`.
#pragma once

#include <cmath>
#include <limits>

#include "element_type.hpp"

namespace mf::hybrid {

namespace detail {
// The spacing at |x| of a format with `mantissa_bits` fraction bits whose
// smallest normal exponent is `min_exponent` (the subnormal spacing below).
inline double spacing(int mantissa_bits, int min_exponent, double x) {
  int e = 0;
  std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
  const int exponent = x == 0 ? min_exponent : (e - 1 < min_exponent ? min_exponent : e - 1);
  return std::ldexp(1.0, exponent - mantissa_bits);
}
template <class T>
double spacing_of(double x) {
  return spacing(T::format::mantissa_bits, T::format::min_exponent, x);
}
}  // namespace detail

// The spacing of `out`'s values at |x| (the subnormal spacing below the
// normal range). Integer outputs: 1.
inline double ulp(element_type out, double x) {
  switch (out) {
    case element_type::hf8: return detail::spacing_of<element_t<element_type::hf8>>(x);
    case element_type::bf8: return detail::spacing_of<element_t<element_type::bf8>>(x);
    case element_type::f16: return detail::spacing_of<element_t<element_type::f16>>(x);
    case element_type::bf16: return detail::spacing_of<element_t<element_type::bf16>>(x);
    case element_type::f32:
      return detail::spacing(std::numeric_limits<float>::digits - 1,
                             std::numeric_limits<float>::min_exponent - 1, x);
    case element_type::i8:
    case element_type::u8: break;
  }
  return 1.0;
}

// (value - exact) / ulp(out, exact): 0 when both are NaN or the same
// infinity, NaN when only one is NaN, +-Inf when only one is infinite.
inline double error_in_ulps(element_type out, double value, double exact) {
  if (std::isnan(value) || std::isnan(exact)) {
    return std::isnan(value) && std::isnan(exact) ? 0.0 : std::numeric_limits<double>::quiet_NaN();
  }
  if (value == exact) return 0.0;
  if (std::isinf(value) || std::isinf(exact)) return value - exact;
  return (value - exact) / ulp(out, exact);
}

}  // namespace mf::hybrid
