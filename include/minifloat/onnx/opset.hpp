// The opsets whose Cast, QuantizeLinear and DequantizeLinear this namespace
// implements, and what each one admits: the type lists and attributes of
// the operator versions (ONNX's Operators.md and Changelog.md: Cast-19,
// -21, -23, -24; QuantizeLinear-19, -21, -23, -24; DequantizeLinear-19, -21,
// -23, -24). A model of opset N runs the newest version of each operator
// not above N, so N in 19..28 selects one of those. Opsets below 19 have no
// float8 type and no `saturate`: none of what this library computes.
#pragma once

#include <string>
#include <string_view>

#include "data_type.hpp"

namespace mf {
namespace onnx {

// The newest opset of onnx 1.23 (onnx.defs.onnx_opset_version()), whose
// schemas this namespace implements, and the oldest it knows: 19, where the
// float8 types came (Cast-19, QuantizeLinear-19, DequantizeLinear-19).
inline constexpr int newest_opset = 28;
inline constexpr int oldest_opset = 19;

enum class onnx_operator { cast, quantize_linear, dequantize_linear };

inline std::string_view name_of(onnx_operator op) {
  switch (op) {
    case onnx_operator::cast: return "Cast";
    case onnx_operator::quantize_linear: return "QuantizeLinear";
    case onnx_operator::dequantize_linear: return "DequantizeLinear";
  }
  return "?";
}

constexpr bool is_known_opset(int opset) noexcept {
  return opset >= oldest_opset && opset <= newest_opset;
}

// "19, 20, ..., 28" in full, for messages.
inline std::string known_opsets() {
  std::string list;
  for (int v = oldest_opset; v <= newest_opset; ++v) {
    if (!list.empty()) list += ", ";
    list += std::to_string(v);
  }
  return list;
}

// The opset from which `t` is in the operator's type lists (oldest_opset
// for the types it had already); 0 for a type this library has that the
// operator never takes.
//   Cast-19: every numeric type and the four float8 types; Cast-21: int4,
//   uint4; Cast-23: float4e2m1; Cast-24: float8e8m0.
//   QuantizeLinear-19 / DequantizeLinear-19: float, float16, bfloat16
//   (x or scale), int8, uint8 and the float8 types (y or x); -21: int16,
//   uint16, int4, uint4; -23: float4e2m1; -24: a float8e8m0 scale.
constexpr int opset_of_type(onnx_operator op, data_type t) noexcept {
  switch (t) {
    case data_type::float32: case data_type::float16: case data_type::bfloat16:
    case data_type::uint8: case data_type::int8:
    case data_type::float8e4m3fn: case data_type::float8e4m3fnuz:
    case data_type::float8e5m2: case data_type::float8e5m2fnuz:
      return oldest_opset;
    case data_type::uint16: case data_type::int16:
      return op == onnx_operator::cast ? oldest_opset : 21;
    case data_type::uint4: case data_type::int4: return 21;
    case data_type::float4e2m1: return 23;
    case data_type::float8e8m0: return 24;
    case data_type::undefined: return 0;
  }
  return 0;
}

// Throws invalid_model unless `opset` is one of the known opsets.
inline void check_opset(int opset) {
  if (!is_known_opset(opset)) {
    throw invalid_model("opset " + std::to_string(opset) + " is not one this library implements (one of: " +
                        known_opsets() + ")");
  }
}

// Throws invalid_model when `t` is not in the operator's type lists at
// `opset`, naming the opset that added it.
inline void check_type_in_opset(onnx_operator op, data_type t, int opset) {
  const int since = opset_of_type(op, t);
  if (since != 0 && since <= opset) return;
  std::string m = std::string(name_of(t)) + " is not a type of " + std::string(name_of(op)) +
                  " at opset " + std::to_string(opset);
  if (since != 0) m += " (" + std::string(name_of(op)) + "-" + std::to_string(since) + " added it)";
  throw invalid_model(m);
}

// Throws invalid_model when an attribute given by the caller is newer than
// `opset`.
inline void check_attribute_in_opset(onnx_operator op, std::string_view attribute, int since,
                                     int opset) {
  if (since > opset) {
    throw invalid_model(std::string(name_of(op)) + " has no attribute " + std::string(attribute) +
                        " at opset " + std::to_string(opset) + " (" + std::string(name_of(op)) +
                        "-" + std::to_string(since) + " added it)");
  }
}

}  // namespace onnx
}  // namespace mf
