// A tensor as ONNX stores it: an element type, a shape and the raw data of
// onnx.TensorProto.raw_data (little-endian; int4, uint4 and float4e2m1
// packed two per byte, element 2i in the low nibble). The operators read
// and write elements through the codes (the bit patterns) and the exact
// values below; every value of every type here is exactly a float or, for
// the integers, an int64.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "../formats.hpp"
#include "../mx/packing.hpp"
#include "data_type.hpp"

namespace mf {
namespace onnx {

struct tensor {
  data_type type = data_type::undefined;
  std::vector<std::int64_t> shape;  // empty: a scalar
  std::vector<std::uint8_t> data;   // raw data, storage_bytes(type, element_count())

  // The product of the dimensions; invalid_model for a negative dimension
  // or a product past what size_t holds (a shape no tensor can have).
  std::size_t element_count() const {
    for (const std::int64_t d : shape) {
      if (d < 0) throw invalid_model("tensor shape with a negative dimension " + std::to_string(d));
      if (d == 0) return 0;
    }
    std::size_t n = 1;
    for (const std::int64_t d : shape) {
      const auto extent = static_cast<std::size_t>(d);
      if (n > SIZE_MAX / extent) throw invalid_model("tensor shape with more elements than size_t holds");
      n *= extent;
    }
    return n;
  }
};

// The elements' codes, one per entry: the 4-bit types unpacked with the
// library's FP4 unpacker (the layout ONNX uses for all three 4-bit types).
inline std::vector<std::uint32_t> codes_of(const tensor& t) {
  const std::size_t n = t.element_count();
  if (t.data.size() != storage_bytes(t.type, n)) {
    throw invalid_model("tensor of " + std::to_string(n) + " " + std::string(name_of(t.type)) +
                        " elements has " + std::to_string(t.data.size()) + " bytes of data");
  }
  std::vector<std::uint32_t> codes(n);
  switch (bits_of(t.type)) {
    case 4: {
      std::vector<std::uint8_t> nibbles(n);
      mx::unpack_fp4(t.data.data(), nibbles.data(), n);
      for (std::size_t i = 0; i < n; ++i) codes[i] = nibbles[i];
      break;
    }
    case 8:
      for (std::size_t i = 0; i < n; ++i) codes[i] = t.data[i];
      break;
    case 16:
      for (std::size_t i = 0; i < n; ++i) {
        codes[i] = static_cast<std::uint32_t>(t.data[2 * i] | (t.data[2 * i + 1] << 8));
      }
      break;
    case 32:
      for (std::size_t i = 0; i < n; ++i) {
        std::uint32_t c = 0;
        for (int b = 3; b >= 0; --b) c = (c << 8) | t.data[4 * i + static_cast<std::size_t>(b)];
        codes[i] = c;
      }
      break;
    default:
      throw invalid_model("tensor without an element type");
  }
  return codes;
}

// A tensor of `type` and `shape` holding `codes` (the 4-bit ones packed by
// the library's FP4 packer).
inline tensor tensor_from_codes(data_type type, std::vector<std::int64_t> shape,
                                const std::vector<std::uint32_t>& codes) {
  tensor t{type, std::move(shape), {}};
  const std::size_t n = codes.size();
  t.data.assign(storage_bytes(type, n), 0);
  switch (bits_of(type)) {
    case 4: {
      std::vector<std::uint8_t> nibbles(n);
      for (std::size_t i = 0; i < n; ++i) nibbles[i] = static_cast<std::uint8_t>(codes[i] & 0xFu);
      mx::pack_fp4(nibbles.data(), t.data.data(), n);
      break;
    }
    default: {
      const std::size_t bytes = static_cast<std::size_t>(bits_of(type) / 8);
      for (std::size_t i = 0; i < n; ++i) {
        for (std::size_t b = 0; b < bytes; ++b) {
          t.data[bytes * i + b] = static_cast<std::uint8_t>(codes[i] >> (8 * b));
        }
      }
    }
  }
  return t;
}

// The exact value of a float-type code (NaN decodes to a quiet NaN).
inline float float_value(data_type type, std::uint32_t code) {
  switch (type) {
    case data_type::float32: return mf::detail::bit_cast<float>(code);
    case data_type::float16: return static_cast<float>(binary16::from_bits(static_cast<std::uint16_t>(code)));
    case data_type::bfloat16: return static_cast<float>(bfloat16::from_bits(static_cast<std::uint16_t>(code)));
    case data_type::float8e4m3fn: return static_cast<float>(e4m3fn::from_bits(static_cast<std::uint8_t>(code)));
    case data_type::float8e4m3fnuz: return static_cast<float>(e4m3fnuz::from_bits(static_cast<std::uint8_t>(code)));
    case data_type::float8e5m2: return static_cast<float>(e5m2::from_bits(static_cast<std::uint8_t>(code)));
    case data_type::float8e5m2fnuz: return static_cast<float>(e5m2fnuz::from_bits(static_cast<std::uint8_t>(code)));
    case data_type::float4e2m1: return static_cast<float>(e2m1fn::from_bits(static_cast<std::uint8_t>(code)));
    case data_type::float8e8m0: return static_cast<float>(e8m0fnu::from_bits(static_cast<std::uint8_t>(code)));
    default: throw invalid_model(std::string(name_of(type)) + " is not a float type");
  }
}

// The value of an integer-type code (two's complement for the signed ones).
inline std::int64_t integer_value(data_type type, std::uint32_t code) {
  const int bits = bits_of(type);
  const bool is_signed =
      type == data_type::int8 || type == data_type::int16 || type == data_type::int4;
  const std::int64_t v = static_cast<std::int64_t>(code & ((1u << bits) - 1u));
  return is_signed && v >= (std::int64_t{1} << (bits - 1)) ? v - (std::int64_t{1} << bits) : v;
}

// The exact value of any element as a double (integers are at most 16 bits).
inline double element_value(data_type type, std::uint32_t code) {
  return is_integer(type) ? static_cast<double>(integer_value(type, code))
                          : static_cast<double>(float_value(type, code));
}

}  // namespace onnx
}  // namespace mf
