// ONNX DequantizeLinear (opset 28):
//   y = (x - x_zero_point) * x_scale
// for x of an integer type (uint8, int8, uint16, int16, uint4, int4), a
// float8 type or float4e2m1; x_scale float, float16, bfloat16 or
// float8e8m0; y float, float16 or bfloat16 (output_dtype, else the scale's
// type). "The output type also determines the precision of the
// multiplication": the product is exact here and rounded once, to y's type.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "../convert.hpp"
#include "../formats.hpp"
#include "../target/float_environment.hpp"
#include "granularity.hpp"
#include "quantize_linear.hpp"
#include "tensor.hpp"

namespace mf {
namespace onnx {

struct dequantize_attributes {
  std::int64_t axis = 1;
  std::int64_t block_size = 0;
  data_type output_dtype = data_type::undefined;  // undefined: the scale's type
  // The opset (19..28): its DequantizeLinear version's types and attributes.
  int opset = newest_opset;
};

// The code of `out` (float, float16 or bfloat16) for the exact value v.
inline std::uint32_t round_to_output(double v, data_type out) {
  switch (out) {
    // double -> float is IEEE 754's correctly rounded conversion.
    case data_type::float32: return mf::detail::bit_cast<std::uint32_t>(static_cast<float>(v));
    case data_type::float16: return round_to<binary16>(v).bits();
    case data_type::bfloat16: return round_to<bfloat16>(v).bits();
    default:
      throw invalid_model("DequantizeLinear: the output must be float, float16 or bfloat16, not " +
                          std::string(name_of(out)));
  }
}

inline tensor dequantize_linear(const tensor& x, const tensor& x_scale,
                                const tensor* x_zero_point, const dequantize_attributes& a = {}) {
  return target::in_default_float_environment([&]() -> tensor {
    if (!is_integer(x.type) && !is_float8(x.type) && x.type != data_type::float4e2m1) {
      throw invalid_model("DequantizeLinear: no input of type " + std::string(name_of(x.type)));
    }
    if (!is_wide_float(x_scale.type) && x_scale.type != data_type::float8e8m0) {
      throw invalid_model("DequantizeLinear: x_scale must be float, float16, bfloat16 or float8e8m0");
    }
    const data_type out = a.output_dtype != data_type::undefined ? a.output_dtype : x_scale.type;
    if (!is_wide_float(out)) {
      throw invalid_model("DequantizeLinear: the output must be float, float16 or bfloat16 "
                          "(give output_dtype with a float8e8m0 scale)");
    }
    if (x_zero_point != nullptr) {
      if (x_zero_point->type != x.type) {
        throw invalid_model("DequantizeLinear: x_zero_point's type must be x's");
      }
      if (x_zero_point->shape != x_scale.shape) {
        throw invalid_model("DequantizeLinear: x_zero_point's shape must equal x_scale's");
      }
      require_zero_for_float(x_zero_point);
    }
    // The opset's DequantizeLinear: its type lists; block_size came with
    // DequantizeLinear-21, output_dtype with -23.
    constexpr onnx_operator op = onnx_operator::dequantize_linear;
    check_node_in_opset(op, x.type, x_scale.type, out, a.block_size, a.opset);
    if (a.output_dtype != data_type::undefined) check_attribute_in_opset(op, "output_dtype", 23, a.opset);
    const scale_index_map scale_index(x.shape, x_scale.shape, a.axis, a.block_size);

    const std::vector<std::uint32_t> xs = codes_of(x);
    const std::vector<std::uint32_t> scales = codes_of(x_scale);
    std::vector<std::uint32_t> zeros;
    if (x_zero_point != nullptr) zeros = codes_of(*x_zero_point);
    std::vector<std::uint32_t> y(xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      const std::size_t k = scale_index(i);
      // x - zero point: exact (integers of at most 17 bits, or a float minus
      // ±0). The product with a scale of at most 24 significant bits has at
      // most 41 and lies in [2^-166, 2^145]: exact in double. So y's type
      // rounds once.
      double d = element_value(x.type, xs[i]);
      if (!zeros.empty()) d -= element_value(x.type, zeros[k]);
      y[i] = round_to_output(d * static_cast<double>(float_value(x_scale.type, scales[k])), out);
    }
    return tensor_from_codes(out, x.shape, y);
  });
}

}  // namespace onnx
}  // namespace mf
