// Test support: an independent reference for "the exact real result, rounded
// once to nearest-even without saturation, through the format's overflow and
// NaN rules". It never calls the library's conversions.
//
// The exact value V is given by a comparator: compare(m) returns the sign of
// V - m exactly, for any double m. The reference binary-searches the sorted
// list of the format's magnitudes with that comparator, then compares V with
// the midpoint of its two neighbours (a double: the values have at most 24
// significant bits), so every decision is exact whatever V is.
//
// Exact comparators for the four operators on decoded operands a, b:
//  * a + b and a - b: s = RN(a + b) and TwoSum's error e give V = s + e
//    exactly. For m a double, s != m implies V is on the same side of m as s
//    (rounding is monotone and m is a double), and s == m leaves the sign of
//    e. (+ is not always exact in double: e8m0fnu's 2^127 + 2^-127 needs 255
//    bits, bfloat16's range is as wide; for e4m3fn, e5m2 and e2m1fn it is
//    exact and e is 0.)
//  * a * b: the product of two significands of at most 11 bits has at most
//    22 bits and the exponents stay inside double's range (2^-266 .. 2^256),
//    so RN(a * b) is exact; the fma residual is still used, and is 0.
//  * a / b: not exact in double. sign(a/b - m) = sign(a - m*b) * sign(b),
//    and m*b is exact in double (m has at most 25 significant bits, b at
//    most 11), so comparing a with m*b decides exactly.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "format_catalog.hpp"

namespace mft {

// The expected result of a rounding: an exact encoding, or "any canonical
// NaN" where IEEE 754 leaves the sign of a NaN result unspecified.
struct expected_encoding {
  bool any_canonical_nan;
  std::uint32_t bits;
};

template <class T>
struct magnitude_table {
  // Non-negative finite values in increasing order with their encodings,
  // followed by the "virtual" next value above max finite (max + one ulp at
  // max's exponent, what an unbounded exponent range would hold next), whose
  // encoding is max's plus one. Rounding to the virtual value is overflow.
  std::vector<std::pair<double, std::uint32_t>> values;
  double max_finite = 0;
  std::uint32_t max_encoding = 0;

  magnitude_table() {
    using p = params<T>;
    for (std::uint32_t bits = 0; bits < (1u << (p::exponent_bits + p::mantissa_bits));
         ++bits) {
      const decoded d = reference_decode<T>(bits);
      if (d.cls == value_class::nan || d.cls == value_class::infinite) continue;
      values.emplace_back(d.value, bits);
    }
    std::sort(values.begin(), values.end());
    max_finite = values.back().first;
    max_encoding = values.back().second;
    int exponent = 0;
    std::frexp(max_finite, &exponent);  // max = f * 2^exponent, f in [0.5, 1)
    const double ulp = std::ldexp(1.0, exponent - 1 - p::mantissa_bits);
    values.emplace_back(max_finite + ulp, max_encoding + 1);
  }

  static const magnitude_table& get() {
    static const magnitude_table table;
    return table;
  }
};

// Encodings of the special results (the special-input table of
// docs/semantics.md 3.6, non-saturating).
template <class T>
expected_encoding nan_result() {
  using p = params<T>;
  if (p::encoding == mf::specials::finite) {
    return {false, magnitude_table<T>::get().max_encoding};  // NaN -> +max
  }
  return {true, 0};
}

template <class T>
expected_encoding infinity_result(bool negative) {
  using p = params<T>;
  const std::uint32_t sign = negative ? p::sign_bit : 0u;
  const std::uint32_t magnitude_all_ones = (1u << (p::exponent_bits + p::mantissa_bits)) - 1;
  switch (p::encoding) {
    case mf::specials::ieee:
      return {false, (p::exponent_all_ones << p::mantissa_bits) | sign};
    case mf::specials::fn:
      return {false, magnitude_all_ones | sign};
    case mf::specials::fnuz:
      return {false, p::sign_bit};
    case mf::specials::finite:
      return {false, magnitude_table<T>::get().max_encoding | sign};
    case mf::specials::fnu:
      return {false, p::count - 1};
  }
  return {true, 0};
}

// A finite result whose rounded magnitude is past max finite: nearest-even,
// non-saturating, so the same as an infinite input.
template <class T>
expected_encoding overflow_result(bool negative) {
  return infinity_result<T>(negative);
}

template <class T>
expected_encoding zero_result(bool negative) {
  using p = params<T>;
  const bool signed_zero = p::encoding == mf::specials::ieee ||
                           p::encoding == mf::specials::fn ||
                           p::encoding == mf::specials::finite;
  return {false, (negative && signed_zero) ? p::sign_bit : 0u};
}

// Rounds the finite real V (given by `compare`, see above) to T.
// `zero_is_negative` is the IEEE sign of an exactly-zero result.
template <class T, class Compare>
expected_encoding round_exact(Compare compare, bool zero_is_negative) {
  using p = params<T>;
  const int sign_of_value = compare(0.0);
  if (sign_of_value == 0) return zero_result<T>(zero_is_negative);
  const bool negative = sign_of_value < 0;
  if (p::encoding == mf::specials::fnu && negative) return {false, p::count - 1};

  // compare_magnitude(m) = sign(|V| - m).
  const auto compare_magnitude = [&](double m) {
    return negative ? -compare(-m) : compare(m);
  };
  const auto& table = magnitude_table<T>::get().values;

  // e8m0fnu: below its smallest value (2^-127) everything gives 0x00.
  if (compare_magnitude(table.front().first) < 0) return {false, 0u};

  // Largest index i with table[i] <= |V|.
  std::size_t low = 0, high = table.size();  // invariant: table[low] <= |V|
  while (high - low > 1) {
    const std::size_t middle = low + (high - low) / 2;
    if (compare_magnitude(table[middle].first) >= 0) {
      low = middle;
    } else {
      high = middle;
    }
  }
  std::size_t chosen = low;
  const bool beyond_table = low + 1 == table.size();
  if (!beyond_table && compare_magnitude(table[low].first) != 0) {
    const double midpoint = (table[low].first + table[low + 1].first) / 2;
    const int side = compare_magnitude(midpoint);
    if (side > 0) {
      chosen = low + 1;
    } else if (side == 0) {
      // Ties to even; with no mantissa bits (e8m0fnu) the significand is
      // always 1 and the tie goes to the larger value.
      chosen = (p::mantissa_bits == 0 || (table[low].second & 1u) != 0) ? low + 1 : low;
    }
  }
  if (chosen + 1 == table.size()) return overflow_result<T>(negative);
  if (table[chosen].first == 0.0) return zero_result<T>(negative);
  return {false, table[chosen].second | (negative ? p::sign_bit : 0u)};
}

// Rounds an exactly known double.
template <class T>
expected_encoding round_double_exactly(double value) {
  if (std::isnan(value)) return nan_result<T>();
  if (std::isinf(value)) return infinity_result<T>(value < 0);
  return round_exact<T>(
      [value](double m) { return (value > m) - (value < m); }, std::signbit(value));
}

// ---------------------------------------------------------------------------
// The exact results of the four operators, rounded. Operands are exact
// doubles (decoded values, possibly NaN or +-inf).
// ---------------------------------------------------------------------------
enum class op { add, subtract, multiply, divide };

inline const char* op_name(op o) {
  switch (o) {
    case op::add: return "+";
    case op::subtract: return "-";
    case op::multiply: return "*";
    case op::divide: return "/";
  }
  return "?";
}

inline double ieee_double_result(op o, double a, double b) {
  switch (o) {
    case op::add: return a + b;
    case op::subtract: return a - b;
    case op::multiply: return a * b;
    case op::divide: return a / b;
  }
  return 0;
}

template <class T>
expected_encoding exact_operation(op o, double a, double b) {
  const double rounded = ieee_double_result(o, a, b);
  // Non-finite operands and division by zero: IEEE 754 gives an exact
  // special (or an exact zero, x / inf); convert it by the format's rules.
  if (!std::isfinite(a) || !std::isfinite(b) || (o == op::divide && b == 0.0)) {
    return round_double_exactly<T>(rounded);
  }
  const auto sign = [](double x) { return (x > 0) - (x < 0); };
  if (o == op::add || o == op::subtract) {
    const double addend = o == op::add ? b : -b;
    // TwoSum (Knuth): rounded + error == a + addend exactly.
    const double s = rounded;
    const double b_virtual = s - a;
    const double a_virtual = s - b_virtual;
    const double error = (a - a_virtual) + (addend - b_virtual);
    return round_exact<T>(
        [s, error, sign](double m) { return s != m ? sign(s - m) : sign(error); },
        std::signbit(s));
  }
  if (o == op::multiply) {
    const double p = rounded;
    const double error = std::fma(a, b, -p);
    return round_exact<T>(
        [p, error, sign](double m) { return p != m ? sign(p - m) : sign(error); },
        std::signbit(p));
  }
  // Division: sign(a/b - m) = sign(a - m*b) * sign(b), with m*b exact.
  return round_exact<T>(
      [a, b](double m) {
        const double mb = m * b;
        if (std::fma(m, b, -mb) != 0.0) {
          ADD_FAILURE() << "reference: m*b is not exact for m=" << m << " b=" << b;
        }
        if (a == mb) return 0;
        return (a > mb) == (b > 0) ? 1 : -1;
      },
      std::signbit(rounded));
}

}  // namespace mft
