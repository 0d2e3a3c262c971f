// Test support: each format's parameters and an independent decoder that
// evaluates the value formula from the format's template parameters (the
// ONNX float8 formulas, extended to every special-value encoding). The
// formats and their names are support/formats.hpp's. Nothing here reads the library's derived format data
// (masks, max magnitudes, canonical NaNs) or calls its conversions, so the
// tests built on it check the library rather than restate it.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <minifloat/minifloat.hpp>

#include "support/formats.hpp"

namespace mft {

// ---------------------------------------------------------------------------
// Format parameters, read from the template arguments only.
// ---------------------------------------------------------------------------
template <class T>
struct params;

template <int E, int M, int B, mf::specials S>
struct params<mf::minifloat<E, M, B, S>> {
  static constexpr int exponent_bits = E;
  static constexpr int mantissa_bits = M;
  static constexpr int bias = B;
  static constexpr mf::specials encoding = S;
  static constexpr bool is_signed = S != mf::specials::fnu;
  static constexpr bool has_subnormals = S != mf::specials::fnu;
  static constexpr int width = (is_signed ? 1 : 0) + E + M;
  static constexpr std::uint32_t count = 1u << width;
  static constexpr std::uint32_t sign_bit = is_signed ? (1u << (E + M)) : 0u;
  static constexpr std::uint32_t exponent_all_ones = (1u << E) - 1;
  static constexpr std::uint32_t mantissa_all_ones = (1u << M) - 1;
};

// ---------------------------------------------------------------------------
// The independent decoder.
// ---------------------------------------------------------------------------
enum class value_class { zero, subnormal, normal, infinite, nan };

struct decoded {
  value_class cls;
  bool sign_bit;  // the encoding's sign bit (always false for e8m0fnu)
  double value;   // exact value; +-inf for infinities, NaN for NaN
};

template <class T>
decoded reference_decode(std::uint32_t bits) {
  using p = params<T>;
  const bool sign = (bits & p::sign_bit) != 0;
  const std::uint32_t exponent_field =
      (bits >> p::mantissa_bits) & p::exponent_all_ones;
  const std::uint32_t mantissa = bits & p::mantissa_all_ones;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();

  switch (p::encoding) {
    case mf::specials::ieee:
      if (exponent_field == p::exponent_all_ones) {
        if (mantissa == 0) return {value_class::infinite, sign, sign ? -inf : inf};
        return {value_class::nan, sign, nan};
      }
      break;
    case mf::specials::fn:
      if (exponent_field == p::exponent_all_ones && mantissa == p::mantissa_all_ones) {
        return {value_class::nan, sign, nan};
      }
      break;
    case mf::specials::fnuz:
      if (bits == p::sign_bit) return {value_class::nan, sign, nan};
      break;
    case mf::specials::fnu:
      if (bits == p::count - 1) return {value_class::nan, sign, nan};
      break;
    case mf::specials::finite:
      break;
  }

  double magnitude = 0.0;
  value_class cls = value_class::normal;
  if (exponent_field == 0 && p::has_subnormals) {
    // (-1)^S * 0.M * 2^(1 - bias)
    magnitude = std::ldexp(static_cast<double>(mantissa), 1 - p::bias - p::mantissa_bits);
    cls = mantissa == 0 ? value_class::zero : value_class::subnormal;
  } else {
    // (-1)^S * 1.M * 2^(E - bias)
    magnitude = std::ldexp(static_cast<double>((1u << p::mantissa_bits) + mantissa),
                           static_cast<int>(exponent_field) - p::bias - p::mantissa_bits);
  }
  return {cls, sign, sign ? -magnitude : magnitude};
}

// The canonical NaN encodings of docs/semantics.md's tables: conversions
// produce exactly these. Formats without NaN report false.
template <class T>
bool is_canonical_nan(std::uint32_t bits) {
  using p = params<T>;
  switch (p::encoding) {
    case mf::specials::ieee: {
      const std::uint32_t quiet = (p::exponent_all_ones << p::mantissa_bits) |
                                  (1u << (p::mantissa_bits > 0 ? p::mantissa_bits - 1 : 0));
      return bits == quiet || bits == (quiet | p::sign_bit);
    }
    case mf::specials::fn: {
      const std::uint32_t all_ones = (1u << (p::exponent_bits + p::mantissa_bits)) - 1;
      return bits == all_ones || bits == (all_ones | p::sign_bit);
    }
    case mf::specials::fnuz:
      return bits == p::sign_bit;
    case mf::specials::fnu:
      return bits == p::count - 1;
    case mf::specials::finite:
      return false;
  }
  return false;
}

// All encodings, decoded, in encoding order.
template <class T>
std::vector<decoded> decode_all() {
  std::vector<decoded> all;
  all.reserve(params<T>::count);
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    all.push_back(reference_decode<T>(bits));
  }
  return all;
}

template <class T>
T from_bits(std::uint32_t bits) {
  return T::from_bits(static_cast<typename T::storage_type>(bits));
}

// "0x7e" style, for failure messages.
inline std::string hex(std::uint32_t bits) {
  static const char digits[] = "0123456789abcdef";
  std::string text;
  do {
    text.insert(text.begin(), digits[bits & 0xF]);
    bits >>= 4;
  } while (bits != 0);
  return "0x" + text;
}

}  // namespace mft
