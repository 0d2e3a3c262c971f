// The error of a model's output against the exact answer, in units in the
// last place of the output type at the exact value: the yardstick of
// docs/hybrid.md's error table and of `minifloat matmul --exact-error`.
#pragma once

#include <cmath>
#include <limits>

#include "element_type.hpp"

namespace mf::hybrid {

// The spacing of `out`'s values at |x| (the subnormal spacing below the
// normal range). Integer outputs: 1.
inline double ulp(element_type out, double x) {
  int mantissa_bits = 23, min_exponent = -126;
  switch (out) {
    case element_type::hf8: mantissa_bits = 3; min_exponent = -6; break;
    case element_type::bf8: mantissa_bits = 2; min_exponent = -14; break;
    case element_type::f16: mantissa_bits = 10; min_exponent = -14; break;
    case element_type::bf16: mantissa_bits = 7; min_exponent = -126; break;
    case element_type::f32: break;
    case element_type::i8:
    case element_type::u8: return 1.0;
  }
  int e = 0;
  std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
  const int exponent = x == 0 ? min_exponent : (e - 1 < min_exponent ? min_exponent : e - 1);
  return std::ldexp(1.0, exponent - mantissa_bits);
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
