// ONNX's quantization operators, bit-exact to the operator schemas of
// opset 28: QuantizeLinear, DequantizeLinear and Cast between the float
// types, on tensors stored as ONNX stores them. docs/onnx.md.
#pragma once

#include "onnx/data_type.hpp"
#include "onnx/opset.hpp"
#include "onnx/tensor.hpp"
#include "onnx/granularity.hpp"
#include "onnx/division.hpp"
#include "onnx/cast.hpp"
#include "onnx/quantize_linear.hpp"
#include "onnx/dequantize_linear.hpp"
