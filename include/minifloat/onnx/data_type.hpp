// The ONNX element types this library computes with, numbered as
// onnx.TensorProto.DataType (onnx/onnx.proto), and the facts the operators
// need about each: width, whether it is a float or an integer type, and its
// integer range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "../format_registry.hpp"

namespace mf {
namespace onnx {

enum class data_type : int {
  undefined = 0,
  float32 = 1,          // FLOAT
  uint8 = 2,
  int8 = 3,
  uint16 = 4,
  int16 = 5,
  float16 = 10,         // FLOAT16: mf::binary16
  bfloat16 = 16,
  float8e4m3fn = 17,
  float8e4m3fnuz = 18,
  float8e5m2 = 19,
  float8e5m2fnuz = 20,
  uint4 = 21,
  int4 = 22,
  float4e2m1 = 23,      // mf::e2m1fn, packed two per byte
  float8e8m0 = 24,      // mf::e8m0fnu
};

// Each type's format in the library-wide registry, which holds the names
// (ONNX's spelling, in lower case, and every alias: format_registry.hpp).
struct data_type_format {
  data_type type;
  format_id format;
};

inline constexpr data_type_format data_type_formats[] = {
    {data_type::float32, format_id::float32},
    {data_type::uint8, format_id::uint8},
    {data_type::int8, format_id::int8},
    {data_type::uint16, format_id::uint16},
    {data_type::int16, format_id::int16},
    {data_type::float16, format_id::binary16},
    {data_type::bfloat16, format_id::bfloat16},
    {data_type::float8e4m3fn, format_id::e4m3fn},
    {data_type::float8e4m3fnuz, format_id::e4m3fnuz},
    {data_type::float8e5m2, format_id::e5m2},
    {data_type::float8e5m2fnuz, format_id::e5m2fnuz},
    {data_type::uint4, format_id::uint4},
    {data_type::int4, format_id::int4},
    {data_type::float4e2m1, format_id::e2m1fn},
    {data_type::float8e8m0, format_id::e8m0fnu},
};

// onnx.TensorProto's name of the type, in lower case ("float", "float16",
// "float8e4m3fn"); "undefined" for data_type::undefined.
inline std::string_view name_of(data_type t) {
  for (const auto& e : data_type_formats) {
    if (e.type == t) return name_in(e.format, naming::onnx);
  }
  return "undefined";
}

// The type with this TensorProto number, or called this name in any
// spelling the registry knows ("float", "FLOAT", "float32", "fp32";
// "float8e4m3fn", "e4m3fn", "HF8", ...); data_type::undefined if none of
// the above.
inline data_type data_type_from_int(int value) {
  for (const auto& e : data_type_formats) {
    if (static_cast<int>(e.type) == value) return e.type;
  }
  return data_type::undefined;
}
inline data_type data_type_from_name(std::string_view name) {
  const std::optional<format_id> format = find_format(name);
  if (!format) return data_type::undefined;
  for (const auto& e : data_type_formats) {
    if (e.format == *format) return e.type;
  }
  return data_type::undefined;
}

// The ONNX types' names in TensorProto order, for messages that list them.
inline std::string data_type_list() {
  std::string list;
  for (const auto& e : data_type_formats) {
    if (!list.empty()) list += ", ";
    list += name_in(e.format, naming::onnx);
  }
  return list;
}

// Bits per element in a tensor's raw data.
constexpr int bits_of(data_type t) noexcept {
  switch (t) {
    case data_type::float32: return 32;
    case data_type::uint16: case data_type::int16:
    case data_type::float16: case data_type::bfloat16: return 16;
    case data_type::uint4: case data_type::int4: case data_type::float4e2m1: return 4;
    case data_type::undefined: return 0;
    default: return 8;
  }
}

// Bytes of raw data for n elements: the 4-bit types are packed two per
// byte, the last byte padded with a zero nibble (onnx.proto, "int4, uint4,
// float4e2m1 ... packed").
constexpr std::size_t storage_bytes(data_type t, std::size_t n) noexcept {
  return (n * static_cast<std::size_t>(bits_of(t)) + 7) / 8;
}

constexpr bool is_integer(data_type t) noexcept {
  switch (t) {
    case data_type::uint8: case data_type::int8: case data_type::uint16:
    case data_type::int16: case data_type::uint4: case data_type::int4: return true;
    default: return false;
  }
}

constexpr bool is_float8(data_type t) noexcept {
  return t == data_type::float8e4m3fn || t == data_type::float8e4m3fnuz ||
         t == data_type::float8e5m2 || t == data_type::float8e5m2fnuz;
}

// The types a scale, a division precision or a dequantized output may have.
constexpr bool is_wide_float(data_type t) noexcept {
  return t == data_type::float32 || t == data_type::float16 || t == data_type::bfloat16;
}

struct integer_range {
  std::int64_t lowest;
  std::int64_t highest;
};

// The saturation ranges of QuantizeLinear's description ("uint8: [0, 255]").
constexpr integer_range range_of(data_type t) noexcept {
  switch (t) {
    case data_type::uint8: return {0, 255};
    case data_type::int8: return {-128, 127};
    case data_type::uint16: return {0, 65535};
    case data_type::int16: return {-32768, 32767};
    case data_type::uint4: return {0, 15};
    case data_type::int4: return {-8, 7};
    default: return {0, 0};
  }
}

// A model the operator schemas reject (a bad shape, axis, block size,
// attribute or type), reported as the ONNX checker would refuse the node.
class invalid_model : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

}  // namespace onnx
}  // namespace mf
