// The element types of the hybrid arithmetic (the accelerator's HF8, BF8,
// FP16, BF16, I8, U8 and FP32), as a run-time id and as C++ types, with the
// exact decoding of an encoding to float that every model starts from.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>

#include "../config.hpp"
#include "../format_registry.hpp"
#include "../formats.hpp"

namespace mf::hybrid {

// HF8 is E4M3FN, BF8 is E5M2 (the vendor's "Hybrid FP8" notes: "HF8 -> E4M3
// and BF8 -> E5M2"). f32 appears only as an output type and as the operand
// type of the `operands` scale placement.
enum class element_type : unsigned char { i8, u8, hf8, bf8, f16, bf16, f32 };

inline constexpr element_type all_element_types[] = {
    element_type::i8,  element_type::u8,   element_type::hf8, element_type::bf8,
    element_type::f16, element_type::bf16, element_type::f32};

// Each element type's format in the library-wide registry, whose table
// holds every spelling (format_registry.hpp).
struct element_format {
  element_type type;
  format_id format;
};
inline constexpr element_format element_formats[] = {
    {element_type::i8, format_id::int8},       {element_type::u8, format_id::uint8},
    {element_type::hf8, format_id::e4m3fn},    {element_type::bf8, format_id::e5m2},
    {element_type::f16, format_id::binary16},  {element_type::bf16, format_id::bfloat16},
    {element_type::f32, format_id::float32}};

constexpr format_id format_of(element_type t) noexcept {
  for (const element_format& e : element_formats) {
    if (e.type == t) return e.format;
  }
  return format_id::float32;  // not reached: every element_type has a row
}

// The vendor's names, as its type tables print them: "HF8", "FP16", "I8".
constexpr std::string_view name(element_type t) noexcept {
  return name_in(format_of(t), naming::hybrid_fp8);
}

constexpr bool is_integer(element_type t) noexcept {
  return t == element_type::i8 || t == element_type::u8;
}
constexpr bool is_fp8(element_type t) noexcept {
  return t == element_type::hf8 || t == element_type::bf8;
}
constexpr bool is_16bit_float(element_type t) noexcept {
  return t == element_type::f16 || t == element_type::bf16;
}
// Bits of one encoding (the CLI reads and writes this many).
constexpr int storage_bits(element_type t) noexcept {
  return t == element_type::f32 ? 32 : (is_16bit_float(t) ? 16 : 8);
}

// The C++ type of each id, and the id of each C++ type.
template <element_type T> struct element_traits;
template <> struct element_traits<element_type::i8> { using type = std::int8_t; };
template <> struct element_traits<element_type::u8> { using type = std::uint8_t; };
template <> struct element_traits<element_type::hf8> { using type = mf::e4m3fn; };
template <> struct element_traits<element_type::bf8> { using type = mf::e5m2; };
template <> struct element_traits<element_type::f16> { using type = mf::binary16; };
template <> struct element_traits<element_type::bf16> { using type = mf::bfloat16; };
template <> struct element_traits<element_type::f32> { using type = float; };
template <element_type T> using element_t = typename element_traits<T>::type;

template <class T> struct element_id;
template <> struct element_id<std::int8_t> : std::integral_constant<element_type, element_type::i8> {};
template <> struct element_id<std::uint8_t> : std::integral_constant<element_type, element_type::u8> {};
template <> struct element_id<mf::e4m3fn> : std::integral_constant<element_type, element_type::hf8> {};
template <> struct element_id<mf::e5m2> : std::integral_constant<element_type, element_type::bf8> {};
template <> struct element_id<mf::binary16> : std::integral_constant<element_type, element_type::f16> {};
template <> struct element_id<mf::bfloat16> : std::integral_constant<element_type, element_type::bf16> {};
template <> struct element_id<float> : std::integral_constant<element_type, element_type::f32> {};
template <class T> inline constexpr element_type element_id_v = element_id<T>::value;

// Every input type is a subset of float32, so this decoding is exact.
inline float to_float(std::int8_t v) noexcept { return static_cast<float>(v); }
inline float to_float(std::uint8_t v) noexcept { return static_cast<float>(v); }
inline float to_float(float v) noexcept { return v; }
template <class T, std::enable_if_t<is_minifloat_v<T>, int> = 0>
float to_float(T v) noexcept {
  return static_cast<float>(v);
}

// The C++ value of an encoding.
template <class T>
T from_encoding(std::uint32_t bits) noexcept {
  if constexpr (std::is_same_v<T, float>) {
    return mf::detail::bit_cast<float>(bits);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<T>(bits & 0xFFu);
  } else {
    return T::from_bits(static_cast<typename T::storage_type>(bits));
  }
}

// The encoding of a C++ value (from_encoding's inverse; an integer's low
// byte).
template <class T>
std::uint32_t to_encoding(T v) noexcept {
  if constexpr (std::is_same_v<T, float>) {
    return mf::detail::bit_cast<std::uint32_t>(v);
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<std::uint32_t>(v) & 0xFFu;
  } else {
    return v.bits();
  }
}

// The value of an encoding (the low storage_bits(t) bits of `bits`).
float decode_bits(element_type t, std::uint32_t bits);

// The float32 a dot-product instruction reads for an encoding, NaN
// payloads included (the models' nan_payload::propagate): as decode_bits,
// but a BF16 NaN is its bits shifted up 16 (BF16 is float32's upper half),
// an FP16 NaN keeps its sign and its payload shifted up 13 (as VCVTPH2PS
// widens), both unquieted (the models quiet what they return). An FP8 NaN
// reads as the BF16 that the library's conversion widens it to: the
// canonical quiet NaN with its sign, which decode_bits gives.
float decode_keeping_nan_payload(element_type t, std::uint32_t bits);

// What a run-time request that the rules reject throws: an unsupported type
// pair, a scale of the wrong format, a shape the unit does not take. The
// message names the pair and the table.
class unsupported : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// The element type a name means, in any spelling of the format registry
// ("HF8", "e4m3fn", "float8_e4m3fn", "fp16", "bfloat16", "i8", ...), in any
// case; false for an unknown name or a format the hybrid unit does not take.
inline bool parse_element_type(std::string_view text, element_type& out) noexcept {
  const std::optional<format_id> format = find_format(text);
  if (!format) return false;
  for (const element_format& e : element_formats) {
    if (e.format == *format) {
      out = e.type;
      return true;
    }
  }
  return false;
}

inline float decode_bits(element_type t, std::uint32_t bits) {
  switch (t) {
    case element_type::i8: return static_cast<float>(static_cast<std::int8_t>(bits & 0xFFu));
    case element_type::u8: return static_cast<float>(bits & 0xFFu);
    case element_type::hf8: return to_float(mf::e4m3fn::from_bits(static_cast<std::uint8_t>(bits)));
    case element_type::bf8: return to_float(mf::e5m2::from_bits(static_cast<std::uint8_t>(bits)));
    case element_type::f16: return to_float(mf::binary16::from_bits(static_cast<std::uint16_t>(bits)));
    case element_type::bf16: return to_float(mf::bfloat16::from_bits(static_cast<std::uint16_t>(bits)));
    case element_type::f32: return mf::detail::bit_cast<float>(bits);
  }
  throw unsupported("decode_bits: unknown element type");
}

inline float decode_keeping_nan_payload(element_type t, std::uint32_t bits) {
  if (t == element_type::bf16) return mf::detail::bit_cast<float>((bits & 0xFFFFu) << 16);
  if (t == element_type::f16 && (bits & 0x7C00u) == 0x7C00u && (bits & 0x3FFu) != 0) {
    return mf::detail::bit_cast<float>(((bits & 0x8000u) << 16) | 0x7F800000u | ((bits & 0x3FFu) << 13));
  }
  return decode_bits(t, bits);
}

}  // namespace mf::hybrid
