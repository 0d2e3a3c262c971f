// QuantizeLinear's `x / y_scale`, "rounded to the nearest even" in the
// division's precision: the type of y_scale, or the `precision` attribute
// (opset 23). Carried out as the type's own division would be: both
// operands are first converted to that type (rounding x when the type is
// narrower than x's), then the exact quotient is rounded once to it. So a
// float16 or bfloat16 precision rounds the quotient to 11 or 8 bits before
// the cast to the output type: the two roundings are the definition.
#pragma once

#include <string>

#include "../convert.hpp"
#include "../formats.hpp"
#include "data_type.hpp"

namespace mf {
namespace onnx {

// x and scale are exact values of x's and the scale's types (each is a
// float). The quotient is returned as a float, which holds it exactly.
inline float divide_in(data_type precision, float x, float scale) {
  switch (precision) {
    // IEEE 754 binary32 division, correctly rounded to nearest even.
    case data_type::float32: return x / scale;
    // The quotient of two 11- (8-) bit significands rounded to double's 53
    // bits and then to 11 (8): 53 >= 2p + 2, so the double rounding is
    // innocuous (Figueroa, "When is double rounding innocuous?", 1995) and
    // the result is the correctly rounded quotient. Overflow gives ±Inf,
    // 0/0 and Inf/Inf NaN, as IEEE division in that type would.
    case data_type::float16: {
      const float a = static_cast<float>(round_to<binary16>(x));
      const float b = static_cast<float>(round_to<binary16>(scale));
      return static_cast<float>(round_to<binary16>(static_cast<double>(a) / static_cast<double>(b)));
    }
    case data_type::bfloat16: {
      const float a = static_cast<float>(round_to<bfloat16>(x));
      const float b = static_cast<float>(round_to<bfloat16>(scale));
      return static_cast<float>(round_to<bfloat16>(static_cast<double>(a) / static_cast<double>(b)));
    }
    default:
      throw invalid_model("the division's precision must be float, float16 or bfloat16, not " +
                          std::string(name_of(precision)));
  }
}

}  // namespace onnx
}  // namespace mf
