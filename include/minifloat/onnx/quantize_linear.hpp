// ONNX QuantizeLinear (opset 28, the newest in onnx 1.23):
//   y = saturate((x / y_scale) + y_zero_point)
// for x of type float, float16 or bfloat16; y_scale float, float16,
// bfloat16 or float8e8m0; y of an integer type (uint8, int8, uint16, int16,
// uint4, int4), a float8 type or float4e2m1. The roundings, step by step,
// are in docs/onnx.md beside the schema sentences they implement.
#pragma once

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../target/float_environment.hpp"
#include "cast.hpp"
#include "division.hpp"
#include "granularity.hpp"
#include "tensor.hpp"

namespace mf {
namespace onnx {

struct quantize_attributes {
  std::int64_t axis = 1;
  bool saturate = true;
  std::int64_t block_size = 0;
  data_type output_dtype = data_type::undefined;  // undefined: from the zero point, else uint8
  data_type precision = data_type::undefined;     // undefined: the scale's type
  // The opset (19..28): its QuantizeLinear version's types and attributes,
  // and the ±Inf rule of saturating FNUZ casts (cast.hpp).
  int opset = newest_opset;
};

// The output type: output_dtype, or y_zero_point's type, or uint8; the two
// given must agree.
inline data_type quantize_output_type(data_type output_dtype, const tensor* y_zero_point) {
  if (y_zero_point != nullptr) {
    if (output_dtype != data_type::undefined && output_dtype != y_zero_point->type) {
      throw invalid_model("output_dtype " + std::string(name_of(output_dtype)) +
                          " differs from the zero point's type " +
                          std::string(name_of(y_zero_point->type)));
    }
    return y_zero_point->type;
  }
  return output_dtype == data_type::undefined ? data_type::uint8 : output_dtype;
}

// The division's precision: the `precision` attribute, else the scale's
// type; a float8e8m0 scale (a power of two, not a type to divide in)
// divides in float.
inline data_type division_precision(data_type precision, data_type scale_type) {
  if (precision != data_type::undefined) return precision;
  return scale_type == data_type::float8e8m0 ? data_type::float32 : scale_type;
}

// One element: the code of `out` for the quotient q = x / y_scale (already
// rounded to the division's precision) plus the zero point `zero`, if any.
inline std::uint32_t quantize_quotient(float q, const double* zero, data_type out, bool saturate,
                                       int opset) {
  if (is_integer(out)) {
    // "rounds to the nearest even" (std::nearbyint in the default rounding
    // mode), then the zero point, then saturate to the type's range. NaN,
    // which no range holds, is read as 0 (Rust's and Java's float-to-int
    // rule); ±Inf saturate.
    const integer_range r = range_of(out);
    double v = std::isnan(q) ? 0.0 : std::nearbyint(static_cast<double>(q));
    if (zero != nullptr) v += *zero;
    const std::int64_t y = v <= static_cast<double>(r.lowest)    ? r.lowest
                           : v >= static_cast<double>(r.highest) ? r.highest
                                                                 : static_cast<std::int64_t>(v);
    return static_cast<std::uint32_t>(y) & ((1u << bits_of(out)) - 1u);
  }
  // The float types: the zero point is ±0 (checked by the caller) and is
  // added as the formula says, in IEEE arithmetic: -0 + +0 = +0. Without a
  // zero point nothing is added (-0 stays -0).
  const float sum = zero != nullptr ? q + static_cast<float>(*zero) : q;
  return cast_value(sum, out, cast_attributes{saturate, e8m0_round_mode::up, opset});
}

// The opset checks QuantizeLinear and DequantizeLinear share: a known
// opset, the input's, the scale's and the output's types in the operator's
// lists at that opset, and block_size, which came with version 21 of both.
inline void check_node_in_opset(onnx_operator op, data_type x, data_type scale, data_type out,
                                std::int64_t block_size, int opset) {
  check_opset(opset);
  check_type_in_opset(op, x, opset);
  check_type_in_opset(op, scale, opset);
  check_type_in_opset(op, out, opset);
  if (block_size != 0) check_attribute_in_opset(op, "block_size", 21, opset);
}

inline void require_zero_for_float(const tensor* zero_point) {
  if (zero_point == nullptr || is_integer(zero_point->type)) return;
  for (const std::uint32_t c : codes_of(*zero_point)) {
    if (float_value(zero_point->type, c) != 0.0f) {
      throw invalid_model("the zero point of a float type must be 0");
    }
  }
}

inline tensor quantize_linear(const tensor& x, const tensor& y_scale, const tensor* y_zero_point,
                              const quantize_attributes& a = {}) {
  return target::in_default_float_environment([&]() -> tensor {
    if (!is_wide_float(x.type)) {
      throw invalid_model("QuantizeLinear: x must be float, float16 or bfloat16, not " +
                          std::string(name_of(x.type)));
    }
    if (!is_wide_float(y_scale.type) && y_scale.type != data_type::float8e8m0) {
      throw invalid_model("QuantizeLinear: y_scale must be float, float16, bfloat16 or float8e8m0");
    }
    const data_type out = quantize_output_type(a.output_dtype, y_zero_point);
    if (!is_integer(out) && !is_float8(out) && out != data_type::float4e2m1) {
      throw invalid_model("QuantizeLinear: no output of type " + std::string(name_of(out)));
    }
    if (y_zero_point != nullptr && y_zero_point->shape != y_scale.shape) {
      throw invalid_model("QuantizeLinear: y_zero_point's shape must equal y_scale's");
    }
    require_zero_for_float(y_zero_point);
    // The opset's QuantizeLinear: its type lists; block_size and output_dtype
    // came with QuantizeLinear-21, precision with -23, which also let y_scale's
    // type differ from x's (-19 and -21: "x: T1, y_scale: T1").
    constexpr onnx_operator op = onnx_operator::quantize_linear;
    check_node_in_opset(op, x.type, y_scale.type, out, a.block_size, a.opset);
    if (a.output_dtype != data_type::undefined) check_attribute_in_opset(op, "output_dtype", 21, a.opset);
    if (a.precision != data_type::undefined) check_attribute_in_opset(op, "precision", 23, a.opset);
    if (a.opset < 23 && y_scale.type != x.type) {
      throw invalid_model("QuantizeLinear at opset " + std::to_string(a.opset) +
                          ": y_scale must have x's type (QuantizeLinear-23 separated them)");
    }
    const data_type precision = division_precision(a.precision, y_scale.type);
    const scale_index_map scale_index(x.shape, y_scale.shape, a.axis, a.block_size);

    const std::vector<std::uint32_t> xs = codes_of(x);
    const std::vector<std::uint32_t> scales = codes_of(y_scale);
    std::vector<std::uint32_t> zeros;
    if (y_zero_point != nullptr) zeros = codes_of(*y_zero_point);
    std::vector<std::uint32_t> y(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const std::size_t k = scale_index(i);
      const float q = divide_in(precision, float_value(x.type, xs[i]),
                                float_value(y_scale.type, scales[k]));
      const double zero = zeros.empty() ? 0.0 : element_value(out, zeros[k]);
      y[i] = quantize_quotient(q, zeros.empty() ? nullptr : &zero, out, a.saturate, a.opset);
    }
    return tensor_from_codes(out, x.shape, y);
  });
}

}  // namespace onnx
}  // namespace mf
