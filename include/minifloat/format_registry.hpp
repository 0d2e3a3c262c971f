// The names of the number formats: one id per format, every spelling that
// other libraries and specifications give it, and the one place where a
// run-time id becomes a compile-time type. Every name the library reads
// (the tool's options, the ONNX layer's type names, the hybrid unit's type
// names) is looked up here, so each accepts the same spellings, in any case.
//
// Header-only, constexpr throughout, C++17, no dependency beyond the format
// types themselves.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <utility>

#include "formats.hpp"

namespace mf {

// The minifloats first, in the order of the README's table (which is also
// the order of the C ABI's MF_FORMAT_* ids), then the other element types
// that tensors and MatMul operands come in. g++'s -Wshadow takes a scoped
// enumerator for a shadow of the type alias of the same name, though it is
// only ever named format_id::e4m3fn; silenced here for consumers who build
// with it.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wshadow"
#endif
enum class format_id : unsigned char {
  e4m3fn,
  e4m3fnuz,
  e5m2,
  e5m2fnuz,
  e2m1fn,
  e2m3fn,
  e3m2fn,
  e8m0fnu,
  e4m3,
  e3m4,
  e4m3b11fnuz,
  binary16,
  bfloat16,
  float32,
  float64,
  int8,
  uint8,
  int16,
  uint16,
  int4,
  uint4,
};
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

inline constexpr std::size_t minifloat_format_count = 13;
inline constexpr std::size_t format_count = 21;

constexpr bool names_a_minifloat(format_id id) noexcept {
  return static_cast<std::size_t>(id) < minifloat_format_count;
}

// Whose spelling a name is, for the schemes the library prints names in; a
// name may belong to several. Every other spelling is an accepted alias.
namespace naming {
inline constexpr unsigned alias = 0;
inline constexpr unsigned canonical = 1;   // the library's own name (mf::<name>)
inline constexpr unsigned onnx = 2;        // onnx.TensorProto.DataType, lower case
inline constexpr unsigned hybrid_fp8 = 4;  // the vendor's "Hybrid FP8" type tables
}  // namespace naming

struct format_name {
  format_id id;
  std::string_view name;
  unsigned naming;  // a combination of the naming:: bits
};

// Every accepted spelling. Sources of the aliases: ml_dtypes and PyTorch
// (float8_e4m3fn, ...), ONNX's TensorProto.DataType (FLOAT8E4M3FN, ...,
// printed in lower case), MLIR's builtin float types (f8E4M3FN, ...), the
// vendor's "Hybrid FP8" tables (HF8 = E4M3FN, BF8 = E5M2, FP16, BF16, FP32,
// I8, U8), IEEE 754-2019's interchange names (binary16, binary32,
// binary64) and OCP MX v1.0's names of its scale (E8M0) and of its FP4
// and FP6 elements (E2M1, E2M3, E3M2). OCP's FP8 "E4M3" is e4m3fn, but
// "e4m3" names ml_dtypes' float8_e4m3 (with Inf, max 240), so OCP's FP8
// names are not aliases here. Names are compared
// ignoring ASCII case, so "FP16" also covers "fp16"; no two rows may be
// equal that way (checked below).
inline constexpr format_name format_names[] = {
    {format_id::e4m3fn, "e4m3fn", naming::canonical},
    {format_id::e4m3fn, "float8_e4m3fn", naming::alias},
    {format_id::e4m3fn, "float8e4m3fn", naming::onnx},
    {format_id::e4m3fn, "f8E4M3FN", naming::alias},
    {format_id::e4m3fn, "HF8", naming::hybrid_fp8},

    {format_id::e4m3fnuz, "e4m3fnuz", naming::canonical},
    {format_id::e4m3fnuz, "float8_e4m3fnuz", naming::alias},
    {format_id::e4m3fnuz, "float8e4m3fnuz", naming::onnx},
    {format_id::e4m3fnuz, "f8E4M3FNUZ", naming::alias},

    {format_id::e5m2, "e5m2", naming::canonical},
    {format_id::e5m2, "float8_e5m2", naming::alias},
    {format_id::e5m2, "float8e5m2", naming::onnx},
    {format_id::e5m2, "f8E5M2", naming::alias},
    {format_id::e5m2, "BF8", naming::hybrid_fp8},

    {format_id::e5m2fnuz, "e5m2fnuz", naming::canonical},
    {format_id::e5m2fnuz, "float8_e5m2fnuz", naming::alias},
    {format_id::e5m2fnuz, "float8e5m2fnuz", naming::onnx},
    {format_id::e5m2fnuz, "f8E5M2FNUZ", naming::alias},

    {format_id::e2m1fn, "e2m1fn", naming::canonical},
    {format_id::e2m1fn, "float4_e2m1fn", naming::alias},
    {format_id::e2m1fn, "float4e2m1", naming::onnx},
    {format_id::e2m1fn, "f4E2M1FN", naming::alias},
    {format_id::e2m1fn, "E2M1", naming::alias},

    {format_id::e2m3fn, "e2m3fn", naming::canonical},
    {format_id::e2m3fn, "float6_e2m3fn", naming::alias},
    {format_id::e2m3fn, "float6e2m3", naming::onnx},
    {format_id::e2m3fn, "f6E2M3FN", naming::alias},
    {format_id::e2m3fn, "E2M3", naming::alias},

    {format_id::e3m2fn, "e3m2fn", naming::canonical},
    {format_id::e3m2fn, "float6_e3m2fn", naming::alias},
    {format_id::e3m2fn, "float6e3m2", naming::onnx},
    {format_id::e3m2fn, "f6E3M2FN", naming::alias},
    {format_id::e3m2fn, "E3M2", naming::alias},

    {format_id::e8m0fnu, "e8m0fnu", naming::canonical},
    {format_id::e8m0fnu, "float8_e8m0fnu", naming::alias},
    {format_id::e8m0fnu, "float8e8m0", naming::onnx},
    {format_id::e8m0fnu, "f8E8M0FNU", naming::alias},
    {format_id::e8m0fnu, "e8m0", naming::alias},

    {format_id::e4m3, "e4m3", naming::canonical},
    {format_id::e4m3, "float8_e4m3", naming::alias},
    {format_id::e4m3, "f8E4M3", naming::alias},

    {format_id::e3m4, "e3m4", naming::canonical},
    {format_id::e3m4, "float8_e3m4", naming::alias},
    {format_id::e3m4, "f8E3M4", naming::alias},

    {format_id::e4m3b11fnuz, "e4m3b11fnuz", naming::canonical},
    {format_id::e4m3b11fnuz, "float8_e4m3b11fnuz", naming::alias},
    {format_id::e4m3b11fnuz, "f8E4M3B11FNUZ", naming::alias},

    {format_id::binary16, "binary16", naming::canonical},
    {format_id::binary16, "half", naming::alias},
    {format_id::binary16, "float16", naming::onnx},
    {format_id::binary16, "FP16", naming::hybrid_fp8},
    {format_id::binary16, "f16", naming::alias},

    {format_id::bfloat16, "bfloat16", naming::canonical | naming::onnx},
    {format_id::bfloat16, "BF16", naming::hybrid_fp8},

    {format_id::float32, "float32", naming::canonical},
    {format_id::float32, "float", naming::onnx},
    {format_id::float32, "FP32", naming::hybrid_fp8},
    {format_id::float32, "f32", naming::alias},
    {format_id::float32, "binary32", naming::alias},

    {format_id::float64, "float64", naming::canonical},
    {format_id::float64, "double", naming::onnx},
    {format_id::float64, "FP64", naming::alias},
    {format_id::float64, "f64", naming::alias},
    {format_id::float64, "binary64", naming::alias},

    {format_id::int8, "int8", naming::canonical | naming::onnx},
    {format_id::int8, "I8", naming::hybrid_fp8},
    {format_id::uint8, "uint8", naming::canonical | naming::onnx},
    {format_id::uint8, "U8", naming::hybrid_fp8},
    {format_id::int16, "int16", naming::canonical | naming::onnx},
    {format_id::int16, "I16", naming::alias},
    {format_id::uint16, "uint16", naming::canonical | naming::onnx},
    {format_id::uint16, "U16", naming::alias},
    {format_id::int4, "int4", naming::canonical | naming::onnx},
    {format_id::int4, "I4", naming::alias},
    {format_id::uint4, "uint4", naming::canonical | naming::onnx},
    {format_id::uint4, "U4", naming::alias},
};

namespace detail {

constexpr char ascii_lower(char c) noexcept {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

constexpr bool equal_ignoring_case(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

// Each id has exactly one canonical row, and no name is spelled twice.
constexpr bool format_names_are_consistent() noexcept {
  for (std::size_t id = 0; id < format_count; ++id) {
    int canonical_rows = 0;
    for (const format_name& row : format_names) {
      if (static_cast<std::size_t>(row.id) == id && (row.naming & naming::canonical) != 0) {
        ++canonical_rows;
      }
    }
    if (canonical_rows != 1) return false;
  }
  for (std::size_t i = 0; i < std::size(format_names); ++i) {
    for (std::size_t j = i + 1; j < std::size(format_names); ++j) {
      if (equal_ignoring_case(format_names[i].name, format_names[j].name)) return false;
    }
  }
  return true;
}
static_assert(format_names_are_consistent(),
              "mf::format_names: every id needs one canonical name, and names must differ "
              "ignoring case");

}  // namespace detail

// The format called `name` in any accepted spelling and any ASCII case;
// nothing if there is none.
constexpr std::optional<format_id> find_format(std::string_view name) noexcept {
  for (const format_name& row : format_names) {
    if (detail::equal_ignoring_case(row.name, name)) return row.id;
  }
  return std::nullopt;
}

// As find_format, restricted to the minifloats (the 13 formats of
// mf::minifloat).
constexpr std::optional<format_id> find_minifloat(std::string_view name) noexcept {
  const std::optional<format_id> id = find_format(name);
  if (id && names_a_minifloat(*id)) return id;
  return std::nullopt;
}

// The spelling of `id` in a naming scheme (one naming:: bit); empty if the
// scheme has no name for it (ONNX has no FP6, the hybrid unit no FNUZ).
constexpr std::string_view name_in(format_id id, unsigned scheme) noexcept {
  for (const format_name& row : format_names) {
    if (row.id == id && (row.naming & scheme) != 0) return row.name;
  }
  return {};
}

// The library's name: "e4m3fn", "binary16", "float32", ...
constexpr std::string_view canonical_name(format_id id) noexcept {
  return name_in(id, naming::canonical);
}

// The C++ type of each format that has one (int4 and uint4 are packed
// nibbles, with no value type of their own).
template <format_id Id> struct format_traits {};
template <> struct format_traits<format_id::e4m3fn> { using type = e4m3fn; };
template <> struct format_traits<format_id::e4m3fnuz> { using type = e4m3fnuz; };
template <> struct format_traits<format_id::e5m2> { using type = e5m2; };
template <> struct format_traits<format_id::e5m2fnuz> { using type = e5m2fnuz; };
template <> struct format_traits<format_id::e2m1fn> { using type = e2m1fn; };
template <> struct format_traits<format_id::e2m3fn> { using type = e2m3fn; };
template <> struct format_traits<format_id::e3m2fn> { using type = e3m2fn; };
template <> struct format_traits<format_id::e8m0fnu> { using type = e8m0fnu; };
template <> struct format_traits<format_id::e4m3> { using type = e4m3; };
template <> struct format_traits<format_id::e3m4> { using type = e3m4; };
template <> struct format_traits<format_id::e4m3b11fnuz> { using type = e4m3b11fnuz; };
template <> struct format_traits<format_id::binary16> { using type = binary16; };
template <> struct format_traits<format_id::bfloat16> { using type = bfloat16; };
template <> struct format_traits<format_id::float32> { using type = float; };
template <> struct format_traits<format_id::float64> { using type = double; };
template <> struct format_traits<format_id::int8> { using type = std::int8_t; };
template <> struct format_traits<format_id::uint8> { using type = std::uint8_t; };
template <> struct format_traits<format_id::int16> { using type = std::int16_t; };
template <> struct format_traits<format_id::uint16> { using type = std::uint16_t; };
template <format_id Id> using format_t = typename format_traits<Id>::type;

// What visit_minifloat passes: the id and the type, both compile-time.
template <format_id Id>
struct format_tag {
  using type = format_t<Id>;
  static constexpr format_id id = Id;
};

namespace detail {
template <std::size_t I, class F>
constexpr decltype(auto) visit_minifloat_from(format_id id, F& f) {
  constexpr auto here = static_cast<format_id>(I);
  if constexpr (I + 1 < minifloat_format_count) {
    if (id != here) return visit_minifloat_from<I + 1>(id, f);
  } else {
    if (id != here) throw std::invalid_argument("mf::visit_minifloat: not a minifloat format id");
  }
  return f(format_tag<here>{});
}
}  // namespace detail

// Calls f(format_tag<id>{}) -- a generic lambda reads the type as
// `typename decltype(tag)::type` -- and returns what it returns, so a
// run-time id reaches a template without a switch at the call site. f is
// instantiated for all 13 minifloats and must return the same type for
// each. Throws std::invalid_argument for an id that is not a minifloat.
template <class F>
constexpr decltype(auto) visit_minifloat(format_id id, F&& f) {
  return detail::visit_minifloat_from<0>(id, f);
}

namespace detail {
template <class F, std::size_t... I>
constexpr void for_each_minifloat(F& f, std::index_sequence<I...>) {
  (f(format_tag<static_cast<format_id>(I)>{}), ...);
}
}  // namespace detail

// Calls f(format_tag<id>{}) for every minifloat, in id order.
template <class F>
constexpr void for_each_minifloat(F&& f) {
  detail::for_each_minifloat(f, std::make_index_sequence<minifloat_format_count>{});
}

namespace detail {
template <class T, std::size_t... I>
constexpr bool is_registered_minifloat(std::index_sequence<I...>) noexcept {
  return (std::is_same_v<T, format_t<static_cast<format_id>(I)>> || ...);
}
}  // namespace detail

// True for the types of the registry's minifloat formats (the formats of
// formats.hpp), false for a minifloat<...> instantiated with other
// parameters and for every other type.
template <class T>
inline constexpr bool is_registered_minifloat_v =
    detail::is_registered_minifloat<T>(std::make_index_sequence<minifloat_format_count>{});

}  // namespace mf
