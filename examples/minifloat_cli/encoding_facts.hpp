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

template <class T>
constexpr value_class classify(std::uint32_t encoding) {
  using format = typename T::format;
  if (format::is_nan(encoding)) return value_class::nan;
  if (format::is_inf(encoding)) return value_class::inf;
  const std::uint32_t magnitude = encoding & format::magnitude_mask;
  if (!format::has_subnormals) return value_class::normal;  // e8m0fnu: no zero
  if (magnitude == 0) return value_class::zero;
  return (magnitude >> format::mantissa_bits) == 0 ? value_class::subnormal
                                                   : value_class::normal;
}

// The exact value of an encoding (every value of every format is a float).
template <class T>
float decode(std::uint32_t encoding) {
  return static_cast<float>(
      T::from_bits(static_cast<typename T::storage_type>(encoding)));
}

}  // namespace minifloat_cli
