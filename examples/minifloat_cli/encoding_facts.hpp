// What the tool says about one encoding of a format: how many there are,
// how many hex digits hold one, its class and its exact value. (Which
// format a name means is the library's registry, format_registry.hpp.)
#pragma once

#include <cstdint>
#include <string_view>

#include <minifloat/minifloat.hpp>

namespace minifloat_cli {

// Number of encodings of T: 2^bits.
template <class T>
constexpr std::uint32_t encoding_count() {
  return std::uint32_t{1} << T::format::bits;
}

// Hex digits that hold every encoding of T: 1 for 4 bits, 2 for 5..8, 4 for
// 16.
template <class T>
constexpr int hex_digits() {
  return (T::format::bits + 3) / 4;
}

// What an encoding is, in the words of the table and the vectors.
enum class value_class { zero, subnormal, normal, inf, nan };

inline std::string_view class_name(value_class c) {
  switch (c) {
    case value_class::zero: return "zero";
    case value_class::subnormal: return "subnormal";
    case value_class::normal: return "normal";
    case value_class::inf: return "inf";
    case value_class::nan: return "nan";
  }
  return "?";
}

// The class of an encoding: the library's mf::fpclassify, in the tool's
// words.
template <class T>
constexpr value_class classify(std::uint32_t encoding) {
  switch (mf::fpclassify(T::from_bits(static_cast<typename T::storage_type>(encoding)))) {
    case FP_NAN: return value_class::nan;
    case FP_INFINITE: return value_class::inf;
    case FP_ZERO: return value_class::zero;
    case FP_SUBNORMAL: return value_class::subnormal;
    default: return value_class::normal;
  }
}

// The exact value of an encoding (every value of every format is a float).
template <class T>
float decode(std::uint32_t encoding) {
  return static_cast<float>(
      T::from_bits(static_cast<typename T::storage_type>(encoding)));
}

}  // namespace minifloat_cli
