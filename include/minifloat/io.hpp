// Text in and out: the shortest decimal that reads back to the same value,
// and parsing of decimal and hex-float text rounded once into a format.
// Host only (uses the C library).
#pragma once

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cfenv>
#include <clocale>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <istream>
#include <ostream>
#include <string>
#include <string_view>
#include <type_traits>

#include "cmath.hpp"
#include "rounding.hpp"
#include "scalar_convert.hpp"
#include "value.hpp"

namespace mf {
namespace detail {

// strtod and printf write and read the decimal point of the C locale's
// LC_NUMERIC (C11 7.22.1.3, 7.21.6.1), "," in many; this library's text
// always has '.'. The decimal point strtod expects now.
inline std::string_view locale_decimal_point() {
  const char* point = std::localeconv()->decimal_point;
  return point != nullptr && *point != '\0' ? std::string_view(point) : std::string_view(".");
}

// `text` as strtod reads it under the current locale: each '.' replaced by
// the locale's decimal point, which itself is not accepted (so "1,5" is not
// a number where the point is ','). Empty if the text holds that point.
inline std::string in_locale_numeric(const std::string& text) {
  const std::string_view point = locale_decimal_point();
  if (point == ".") return text;
  if (text.find(point) != std::string::npos) return std::string();
  std::string result;
  for (const char c : text) {
    if (c == '.') {
      result += point;
    } else {
      result += c;
    }
  }
  return result;
}

// Rounds the exact value of a decimal (or hex-float) string. strtod rounds
// to a double first; where that rounding was inexact the exact value lies
// strictly between two adjacent doubles, and no value or midpoint of a
// format lies there, so rounding the midpoint of those doubles (which needs
// 54 bits, so round_finite takes it exactly) gives the correctly rounded
// result. The C library must honour the rounding mode in strtod (glibc
// does); otherwise the result is that of the nearest double.
template <class Format>
inline bool parse_encoding(const std::string& original, rounding mode,
                           overflow on_overflow, unsigned& encoding) {
  const std::string text = in_locale_numeric(original);
  // strtod would skip leading spaces; a number here is the whole text.
  if (text.empty() || std::isspace(static_cast<unsigned char>(text[0]))) return false;
  // The whole environment is saved and put back, not the rounding mode
  // fegetround reports: on x86-64 that is the x87 control word's, which may
  // differ from MXCSR's, the one the caller's float code runs under.
  // feholdexcept also masks exceptions while strtod runs (the caller's
  // unmasked ones would trap on its inexact results), and feupdateenv
  // raises the flags it left, as the calls would have.
  std::fenv_t saved;
  std::feholdexcept(&saved);
  char* end = nullptr;
  errno = 0;
  std::fesetround(FE_DOWNWARD);
  const double low = std::strtod(text.c_str(), &end);
  const bool parsed = end == text.c_str() + text.size() && end != text.c_str();
  std::fesetround(FE_UPWARD);
  const double high = std::strtod(text.c_str(), nullptr);
  std::feupdateenv(&saved);
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

// Writes significand * 10^exponent (significand > 0) the way Python's repr
// does: positionally when the decimal exponent is moderate, else in %e
// style: "448", "0.002", "1.27e+30", "6e-39".
inline std::string format_decimal(bool negative, unsigned long long significand,
                                  int exponent) {
  std::string digits = std::to_string(significand);
  while (digits.size() > 1 && digits.back() == '0') {
    digits.pop_back();
    ++exponent;
  }
  const int scientific_exponent = exponent + static_cast<int>(digits.size()) - 1;
  std::string result;
  if (scientific_exponent < -5 || scientific_exponent > 16) {
    result = digits.substr(0, 1);
    if (digits.size() > 1) result += "." + digits.substr(1);
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, "e%c%02d", scientific_exponent < 0 ? '-' : '+',
                  scientific_exponent < 0 ? -scientific_exponent : scientific_exponent);
    result += suffix;
  } else if (exponent >= 0) {
    result = digits + std::string(static_cast<std::size_t>(exponent), '0');
  } else if (scientific_exponent >= 0) {
    const std::size_t integer_digits = static_cast<std::size_t>(scientific_exponent) + 1;
    result = digits.substr(0, integer_digits) + "." + digits.substr(integer_digits);
  } else {
    result = "0." + std::string(static_cast<std::size_t>(-scientific_exponent - 1), '0') +
             digits;
  }
  return negative ? "-" + result : result;
}

}  // namespace detail

// The shortest decimal that parse() reads back to the same encoding, the
// nearest to x where several of that length do (the rule of Python's repr
// and numpy, which prints float16's max 65504 as 65500). Candidates must lie
// below the overflow threshold (max + half an ulp), so a value never prints
// as a number that reads back only through saturation (7.5 in e2m3fn is
// "7.5", not "8"). Short formats print few digits: 448 in e4m3fn is "450",
// 416 is "420"; print static_cast<float>(x) for the exact value. "nan",
// "inf" and "-inf" for the specials.
template <int E, int M, int B, specials S>
inline std::string to_string(minifloat<E, M, B, S> x) {
  using type = minifloat<E, M, B, S>;
  using format = typename type::format;
  if (isnan(x)) return "nan";
  if (isinf(x)) return signbit(x) ? "-inf" : "inf";
  const bool negative = signbit(x);
  const double magnitude = std::fabs(static_cast<double>(x));
  if (magnitude == 0.0) return negative ? "-0" : "0";
  const double max_finite =
      static_cast<double>(detail::decode_to_float<format>(format::max_finite_magnitude));
  const double overflow_threshold =
      max_finite + std::ldexp(0.5, format::max_exponent - format::mantissa_bits);
  for (int precision = 1; precision <= 17; ++precision) {
    // printf's nearest decimal of this length and its two neighbours: the
    // values that read back to x form an interval, which can hold a
    // neighbour even when it misses the nearest (at powers of two).
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*e", precision - 1, magnitude);
    unsigned long long nearest = 0;
    for (const char* c = buffer; *c != 'e'; ++c) {  // the digits around the locale's point
      if (*c >= '0' && *c <= '9') nearest = nearest * 10 + static_cast<unsigned long long>(*c - '0');
    }
    const int exponent = std::atoi(std::strchr(buffer, 'e') + 1) - (precision - 1);
    bool found = false;
    unsigned long long best = 0;
    double best_distance = 0.0;
    for (const unsigned long long candidate : {nearest, nearest - 1, nearest + 1}) {
      if (candidate == 0) continue;
      char text[64];
      std::snprintf(text, sizeof text, "%s%llue%d", negative ? "-" : "", candidate, exponent);
      const double value = std::fabs(std::strtod(text, nullptr));
      if (value >= overflow_threshold) continue;
      type back{};
      if (!parse(text, back) || back.bits() != x.bits()) continue;
      const double distance = std::fabs(value - magnitude);
      if (!found || distance < best_distance) {
        found = true;
        best = candidate;
        best_distance = distance;
      }
    }
    if (found) return detail::format_decimal(negative, best, exponent);
  }
  return detail::format_decimal(negative, 0, 0);  // unreachable: 17 digits always read back
}

// Writes to_string(x), the shortest decimal, on narrow and wide streams
// alike (width and fill apply). A stream that asks for a notation
// (std::fixed, std::scientific, std::hexfloat), std::showpos or
// std::uppercase gets x's exact value as a double under its flags and
// precision instead, as a float or double would be written.
template <class CharT, class Traits, int E, int M, int B, specials S>
inline std::basic_ostream<CharT, Traits>& operator<<(std::basic_ostream<CharT, Traits>& out,
                                                     minifloat<E, M, B, S> x) {
  constexpr std::ios_base::fmtflags asks_for_the_stream_format =
      std::ios_base::floatfield | std::ios_base::showpos | std::ios_base::uppercase;
  if ((out.flags() & asks_for_the_stream_format) != 0) return out << static_cast<double>(x);
  const std::string text = to_string(x);  // ASCII: each char widens to itself
  return out << std::basic_string<CharT, Traits>(text.begin(), text.end());
}

// Reads one whitespace-delimited token and rounds it to nearest even; sets
// failbit (leaving x unchanged) if it is not a number. Narrow and wide
// streams alike (a wide character outside ASCII is not part of a number).
template <class CharT, class Traits, int E, int M, int B, specials S>
inline std::basic_istream<CharT, Traits>& operator>>(std::basic_istream<CharT, Traits>& in,
                                                     minifloat<E, M, B, S>& x) {
  std::basic_string<CharT, Traits> token;
  if (in >> token) {
    std::string narrow;
    bool ascii = true;
    for (const CharT c : token) {
      const auto code = static_cast<std::make_unsigned_t<CharT>>(c);
      ascii = ascii && code < 0x80;
      narrow += static_cast<char>(code & 0x7F);
    }
    if (!ascii || !parse(narrow, x)) in.setstate(std::ios_base::failbit);
  }
  return in;
}

}  // namespace mf
