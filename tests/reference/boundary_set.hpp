// The structured boundary set: the inputs where a conversion into a format
// can go wrong. For one format (described by an mfref::reference) it holds,
// in the source type T (float or double), with both signs:
//   * every representable value of the format,
//   * every midpoint between neighbours, including the one between max and
//     the virtual next value max + ulp(max),
//   * each of those +-1 and +-2 ulps of T,
//   * the overflow region from max to a few times the virtual next value,
//     and T's largest finite value,
//   * the specials: +-0, +-Inf, quiet and signalling NaNs with payloads,
//   * a sample of T's subnormals including the smallest and largest, and
//     T's smallest normal.
// strided_float_bits() adds a format-independent strided sweep over all
// 2^32 float32 bit patterns.
//
// Reusable by anything that needs test vectors (the CLI's `vectors`
// command, SIMD tests); it depends only on reference.hpp.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "reference.hpp"

namespace mfref {

template <class T>
struct float_bits;
template <>
struct float_bits<float> {
  using type = std::uint32_t;
};
template <>
struct float_bits<double> {
  using type = std::uint64_t;
};
template <class T>
using float_bits_t = typename float_bits<T>::type;

template <class T>
float_bits_t<T> bits_of(T x) {
  float_bits_t<T> bits;
  std::memcpy(&bits, &x, sizeof bits);
  return bits;
}

template <class T>
T from_bits(float_bits_t<T> bits) {
  T x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

// Quiet and signalling NaNs of both signs, with assorted payloads.
template <class T>
std::vector<T> nan_inputs() {
  using U = float_bits_t<T>;
  constexpr int mantissa = std::numeric_limits<T>::digits - 1;
  const U exponent_all_ones =
      ((U{1} << (sizeof(T) * 8 - 1 - mantissa)) - 1) << mantissa;
  const U sign = U{1} << (sizeof(T) * 8 - 1);
  const U quiet = U{1} << (mantissa - 1);
  const U all = (U{1} << mantissa) - 1;
  const U payloads[] = {quiet, quiet | 1, all, 1, quiet >> 1, all ^ quiet,
                        U{0x5A5A5A5Au} & all};
  std::vector<T> out;
  for (U payload : payloads) {
    out.push_back(from_bits<T>(exponent_all_ones | payload));
    out.push_back(from_bits<T>(sign | exponent_all_ones | payload));
  }
  return out;
}

template <class T>
std::vector<T> special_inputs() {
  std::vector<T> out = {T(0), -T(0), std::numeric_limits<T>::infinity(),
                        -std::numeric_limits<T>::infinity()};
  for (T nan : nan_inputs<T>()) out.push_back(nan);
  return out;
}

// Non-negative samples of T's subnormal range plus T's smallest normal.
template <class T>
std::vector<T> subnormal_samples() {
  using U = float_bits_t<T>;
  constexpr int mantissa = std::numeric_limits<T>::digits - 1;
  const U largest = (U{1} << mantissa) - 1;
  std::vector<T> out;
  for (U bits : {U{1}, U{2}, U{3}, U{4}, U{5}, largest, largest - 1,
                 largest - 2, largest / 2, largest / 2 + 1, largest + 1}) {
    out.push_back(from_bits<T>(bits));
  }
  // An even spread over the subnormal range (a prime stride for float).
  const U stride = sizeof(T) == 4 ? U{4099} : (largest / 4099) | 1;
  for (U bits = 7; bits < largest; bits += stride) out.push_back(from_bits<T>(bits));
  return out;
}

namespace detail {

template <class T>
void add_with_neighbours(std::vector<T>& out, double anchor, int ulps) {
  if (!(anchor >= 0) || anchor > static_cast<double>(std::numeric_limits<T>::max())) {
    return;
  }
  const T near = static_cast<T>(anchor);
  if (std::isinf(near)) return;
  out.push_back(near);
  T up = near;
  T down = near;
  for (int i = 0; i < ulps; ++i) {
    up = std::nextafter(up, std::numeric_limits<T>::infinity());
    down = std::nextafter(down, T(0));
    if (!std::isinf(up)) out.push_back(up);
    out.push_back(down);
  }
}

}  // namespace detail

// The structured set (no strided sweep), both signs, sorted by value with
// the NaNs at the end, without duplicate bit patterns.
template <class T>
std::vector<T> boundary_values(const reference& ref, int ulps = 2) {
  static_assert(std::is_same<T, float>::value || std::is_same<T, double>::value,
                "float or double");
  std::vector<T> magnitudes;
  const std::vector<double>& table = ref.table();
  for (std::size_t i = 0; i < table.size(); ++i) {
    detail::add_with_neighbours(magnitudes, table[i], ulps);
    if (i + 1 < table.size()) {
      detail::add_with_neighbours(magnitudes, (table[i] + table[i + 1]) / 2, ulps);
    }
  }
  // The overflow region: max to four times the virtual next value.
  const double max = ref.max_finite();
  const double step = (ref.virtual_next() - max) / 8;
  for (int k = 1; k <= 24; ++k) detail::add_with_neighbours(magnitudes, max + k * step, ulps);
  for (double factor : {4.0, 8.0, 1024.0, 65536.0}) {
    detail::add_with_neighbours(magnitudes, ref.virtual_next() * factor, ulps);
  }
  detail::add_with_neighbours(magnitudes,
                              static_cast<double>(std::numeric_limits<T>::max()), ulps);
  // Below the smallest positive value.
  const double tiny = ref.smallest_positive();
  for (double factor : {0.75, 0.5, 0.25, 0x1p-10, 0x1p-30}) {
    detail::add_with_neighbours(magnitudes, tiny * factor, ulps);
  }
  for (T sub : subnormal_samples<T>()) magnitudes.push_back(sub);

  std::vector<T> out;
  out.reserve(magnitudes.size() * 2 + 32);
  for (T m : magnitudes) {
    out.push_back(m);
    out.push_back(-m);
  }
  for (T s : special_inputs<T>()) {
    if (!std::isnan(s)) out.push_back(s);
  }
  // Sorted by value (-0 before +0), without repeated bit patterns; the NaNs
  // go at the end.
  std::sort(out.begin(), out.end(), [](T a, T b) {
    return a < b || (a == b && std::signbit(a) && !std::signbit(b));
  });
  out.erase(std::unique(out.begin(), out.end(),
                        [](T a, T b) { return bits_of(a) == bits_of(b); }),
            out.end());
  for (T nan : nan_inputs<T>()) out.push_back(nan);
  return out;
}

// Doubles that straddle every midpoint (and the virtual next value) by a
// fraction of a float ulp: just above and just below with nextafter, and
// half a float ulp either side. Rounding these through float first gives a
// different answer from rounding once. Both signs.
inline std::vector<double> double_rounding_traps(const reference& ref) {
  std::vector<double> out;
  const std::vector<double>& table = ref.table();
  for (std::size_t i = 0; i + 1 < table.size(); ++i) {
    const double mid = (table[i] + table[i + 1]) / 2;
    if (mid == 0) continue;
    const double inf = std::numeric_limits<double>::infinity();
    const double half_float_ulp = std::ldexp(mid, -25);
    for (double x : {std::nextafter(mid, inf), std::nextafter(mid, 0.0),
                     std::nextafter(std::nextafter(mid, inf), inf),
                     mid + half_float_ulp, mid - half_float_ulp,
                     mid + std::ldexp(mid, -40), mid - std::ldexp(mid, -40)}) {
      out.push_back(x);
      out.push_back(-x);
    }
  }
  return out;
}

// Calls f(bits) for 0, stride, 2*stride, ... below 2^32: every sign,
// exponent and a spread of mantissas of float32.
template <class F>
void for_each_strided_float_bits(std::uint32_t stride, F&& f) {
  for (std::uint64_t bits = 0; bits < (std::uint64_t{1} << 32); bits += stride) {
    f(static_cast<std::uint32_t>(bits));
  }
}

}  // namespace mfref
