// The formats the tool knows, by name, and the one place a run-time name
// becomes a compile-time type: every command is a template over the format
// and is instantiated once per entry below.
#pragma once

#include <cstdint>
#include <string_view>
#include <tuple>

#include <minifloat/minifloat.hpp>

namespace minifloat_cli {

// A format's name paired with its type.
template <class T>
struct format_entry {
  using type = T;
  std::string_view name;
};

// In the order `minifloat formats` lists them.
inline constexpr auto all_formats = std::make_tuple(
    format_entry<mf::e4m3fn>{"e4m3fn"}, format_entry<mf::e4m3fnuz>{"e4m3fnuz"},
    format_entry<mf::e5m2>{"e5m2"}, format_entry<mf::e5m2fnuz>{"e5m2fnuz"},
    format_entry<mf::e2m1fn>{"e2m1fn"}, format_entry<mf::e2m3fn>{"e2m3fn"},
    format_entry<mf::e3m2fn>{"e3m2fn"}, format_entry<mf::e8m0fnu>{"e8m0fnu"},
    format_entry<mf::e4m3>{"e4m3"}, format_entry<mf::e3m4>{"e3m4"},
    format_entry<mf::e4m3b11fnuz>{"e4m3b11fnuz"},
    format_entry<mf::binary16>{"binary16"}, format_entry<mf::bfloat16>{"bfloat16"});

inline constexpr std::string_view format_names =
    "e4m3fn e4m3fnuz e5m2 e5m2fnuz e2m1fn e2m3fn e3m2fn e8m0fnu e4m3 e3m4 "
    "e4m3b11fnuz binary16 bfloat16";

// Calls f(entry) for every format, in order.
template <class F>
void for_each_format(F&& f) {
  std::apply([&](const auto&... entry) { (f(entry), ...); }, all_formats);
}

// Calls f(entry) for the format called `name`; false if there is none.
template <class F>
bool with_format(std::string_view name, F&& f) {
  bool found = false;
  for_each_format([&](const auto& entry) {
    if (!found && entry.name == name) {
      found = true;
      f(entry);
    }
  });
  return found;
}

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
