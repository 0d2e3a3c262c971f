// Text in and out: the shortest decimal that reads back to the same value,
// and parsing of decimal and hex-float text rounded once into a format.
// Host only (uses the C library).
#pragma once

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cfenv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>

#include "cmath.hpp"
#include "rounding.hpp"
#include "scalar_convert.hpp"
#include "value.hpp"

namespace mf {
namespace detail {

// Rounds the exact value of a decimal (or hex-float) string. strtod rounds
// to a double first; where that rounding was inexact the exact value lies
// strictly between two adjacent doubles, and no value or midpoint of a
// format lies there, so rounding the midpoint of those doubles (which needs
// 54 bits, so round_finite takes it exactly) gives the correctly rounded
// result. The C library must honour the rounding mode in strtod (glibc
// does); otherwise the result is that of the nearest double.
template <class Format>
inline bool parse_encoding(const std::string& text, rounding mode,
                           overflow on_overflow, unsigned& encoding) {
  // strtod would skip leading spaces; a number here is the whole text.
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  const int saved_mode = std::fegetround();
  char* end = nullptr;
  errno = 0;
  std::fesetround(FE_DOWNWARD);
  const double low = std::strtod(text.c_str(), &end);
  const bool parsed = end == text.c_str() + text.size() && end != text.c_str();
  std::fesetround(FE_UPWARD);
  const double high = std::strtod(text.c_str(), nullptr);
  std::fesetround(saved_mode);
  if (!parsed) return false;

  const rounding_request request{mode, on_overflow, 0u, 0};
  const bool exact = bit_cast<std::uint64_t>(high) == bit_cast<std::uint64_t>(low);
  if (exact || std::isnan(low)) {
    encoding = round_double_bits<Format>(bit_cast<std::uint64_t>(low), request);
    return true;
  }
  if (std::isinf(low) || std::isinf(high)) {
    // Beyond DBL_MAX: past every format's range, so the finite neighbour
    // rounds the same way as the exact value.
    const double finite = std::isinf(low) ? high : low;
    encoding = round_double_bits<Format>(bit_cast<std::uint64_t>(finite), request);
    return true;
  }
  // The smaller magnitude of the two neighbours, as an integer significand.
  const bool negative = high <= 0.0 && low < 0.0;
  const double smaller = negative ? -high : low;
  const std::uint64_t bits = bit_cast<std::uint64_t>(smaller);
  const int field = static_cast<int>((bits >> 52) & 0x7FF);
  const std::uint64_t mantissa = bits & ((std::uint64_t{1} << 52) - 1);
  const std::uint64_t significand =
      field == 0 ? mantissa : (mantissa | (std::uint64_t{1} << 52));
  const int lsb_exponent = (field == 0 ? 1 : field) - 1075;
  // midpoint = (2 * significand + 1) * 2^(lsb_exponent - 1)
  const std::uint64_t midpoint = 2 * significand + 1;
  const int leading_zeros = count_leading_zeros(midpoint);
  encoding = round_finite<Format>(negative, lsb_exponent - 1 + 63 - leading_zeros,
                                  midpoint << leading_zeros, request);
  return true;
}

}  // namespace detail

// Parses `text` (decimal, hex-float, "inf", "nan", as strtod reads them; no
// surrounding spaces) and rounds its exact value once into T. Returns false
// and leaves `out` unchanged if the text is not a number.
template <class T>
inline bool parse(std::string_view text, T& out,
                  rounding mode = rounding::nearest_even,
                  overflow on_overflow = overflow::non_saturating) {
  static_assert(is_minifloat_v<T>, "parse produces a minifloat");
  unsigned encoding = 0;
  if (!detail::parse_encoding<typename T::format>(std::string(text), mode,
                                                  on_overflow, encoding)) {
    return false;
  }
  out = T::from_bits(static_cast<typename T::storage_type>(encoding));
  return true;
}

namespace detail {

// Writes the digits of `scientific` ("d.ddde+XX" from %e) positionally when
// the decimal exponent is moderate (as Python's repr does), else keeps the
// scientific form: 448 rather than 4.5e+02, 1e-06 rather than 0.000001.
inline std::string positional_if_moderate(const std::string& scientific) {
  const std::size_t e = scientific.find('e');
  const int exponent = std::atoi(scientific.c_str() + e + 1);
  if (exponent < -5 || exponent > 16) return scientific;
  const bool negative = scientific[0] == '-';
  std::string digits;
  for (std::size_t i = negative ? 1 : 0; i < e; ++i) {
    if (scientific[i] != '.') digits += scientific[i];
  }
  std::string result;
  if (exponent < 0) {
    result = "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  } else if (static_cast<std::size_t>(exponent) + 1 >= digits.size()) {
    result = digits + std::string(exponent + 1 - digits.size(), '0');
  } else {
    result = digits.substr(0, exponent + 1) + "." + digits.substr(exponent + 1);
  }
  return negative ? "-" + result : result;
}

}  // namespace detail

// The shortest decimal that parse() reads back to the same encoding and that
// lies within the format's range, written positionally for moderate
// exponents: 448 in e4m3fn prints as "448" ("450" reads back too, but is
// beyond max), 416 as "420" (the shortest). "nan", "inf" and "-inf" for the
// specials. Print static_cast<float>(x) for the exact value.
template <int E, int M, int B, specials S>
inline std::string to_string(minifloat<E, M, B, S> x) {
  using type = minifloat<E, M, B, S>;
  if (isnan(x)) return "nan";
  if (isinf(x)) return signbit(x) ? "-inf" : "inf";
  const double value = static_cast<double>(x);
  char buffer[64] = {};
  const double max_finite =
      static_cast<double>(detail::decode_to_float<typename type::format>(
          type::format::max_finite_magnitude));
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buffer, sizeof buffer, "%.*e", precision - 1, value);
    type back{};
    // A decimal beyond max finite can read back to max (7.5 in e2m3fn
    // would print as "8"); never print a number outside the format's range.
    if (std::fabs(std::strtod(buffer, nullptr)) > max_finite) continue;
    if (parse(buffer, back) && back.bits() == x.bits()) break;
  }
  return detail::positional_if_moderate(buffer);
}

template <int E, int M, int B, specials S>
inline std::ostream& operator<<(std::ostream& out, minifloat<E, M, B, S> x) {
  return out << to_string(x);
}

// Reads one whitespace-delimited token and rounds it to nearest even; sets
// failbit (leaving x unchanged) if it is not a number.
template <int E, int M, int B, specials S>
inline std::istream& operator>>(std::istream& in, minifloat<E, M, B, S>& x) {
  std::string token;
  if (in >> token) {
    if (!parse(token, x)) in.setstate(std::ios_base::failbit);
  }
  return in;
}

}  // namespace mf
