// An independent model of the MX rules for the tests, written from the
// spec's formulas in double precision (not from the library's bit tricks):
// the scale from std::ilogb / std::ldexp / std::nearbyint, each element as
// one mf::round_to from the exact double quotient, packing bit by bit, and
// dequantize as an exact double product rounded once to float.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <minifloat/mx.hpp>

namespace mx_ref {

using mf::mx::scale_rounding;

template <class Elem>
struct info;
template <int E, int M, int B, mf::specials S>
struct info<mf::minifloat<E, M, B, S>> {
  using T = mf::minifloat<E, M, B, S>;
  static constexpr int bits = T::format::bits;
  static constexpr int mantissa = M;
  static double max_value() {
    return static_cast<double>(static_cast<float>(T::from_bits(T::format::max_finite_magnitude)));
  }
  static int emax() { return std::ilogb(max_value()); }
};
template <>
struct info<mf::mx::int8_element> {
  static constexpr int bits = 8;
  static constexpr int mantissa = 6;
  static double max_value() { return 127.0 / 64.0; }
  static int emax() { return 0; }
};

inline std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
inline float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

// The E8M0 code for a block (count elements).
template <class Elem>
int scale_code(const float* v, std::size_t count, scale_rounding mode) {
  double amax = 0.0;
  for (std::size_t i = 0; i < count; ++i) {
    if (std::isnan(v[i]) || std::isinf(v[i])) return 255;
    amax = std::fmax(amax, std::fabs(static_cast<double>(v[i])));
  }
  if (amax == 0.0) return 0;
  const int emax = info<Elem>::emax();
  int x = 0;
  switch (mode) {
    case scale_rounding::floor:
      x = std::ilogb(amax) - emax;
      break;
    case scale_rounding::ceil:
      // The smallest x with amax / 2^x <= max_elem.
      x = std::ilogb(amax) - emax - 1;
      while (amax > std::ldexp(info<Elem>::max_value(), x)) ++x;
      break;
    case scale_rounding::even: {
      const int e = std::ilogb(amax);
      const double q = std::nearbyint(std::ldexp(amax, info<Elem>::mantissa - e));
      x = std::ilogb(std::ldexp(q, e - info<Elem>::mantissa)) - emax;
      break;
    }
  }
  if (x < -127) x = -127;
  if (x > 127) return 255;
  return x + 127;
}

template <class Elem>
std::uint8_t element_code(float v, int scale) {
  if (scale == 255) return 0;
  if constexpr (std::is_same<Elem, mf::mx::int8_element>::value) {
    double q = std::nearbyint(std::ldexp(static_cast<double>(v), 127 - scale + 6));
    if (q > 127) q = 127;
    if (q < -127) q = -127;
    return static_cast<std::uint8_t>(static_cast<int>(q) & 0xFF);
  } else {
    return mf::round_to<Elem>(std::ldexp(static_cast<double>(v), 127 - scale),
                              mf::rounding::nearest_even, mf::overflow::saturating)
        .bits();
  }
}

template <class Elem>
double element_value(std::uint8_t code) {
  if constexpr (std::is_same<Elem, mf::mx::int8_element>::value) {
    return static_cast<double>(static_cast<std::int8_t>(code)) / 64.0;
  } else {
    return static_cast<double>(static_cast<float>(Elem::from_bits(code)));
  }
}

// Bit i*bits + b of the stream is bit b of element i (little endian).
inline std::vector<std::uint8_t> pack(const std::vector<std::uint8_t>& codes, int bits) {
  std::vector<std::uint8_t> out((codes.size() * static_cast<std::size_t>(bits) + 7) / 8, 0);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    for (int b = 0; b < bits; ++b) {
      if ((codes[i] >> b) & 1u) {
        const std::size_t bit = i * static_cast<std::size_t>(bits) + static_cast<std::size_t>(b);
        out[bit / 8] = static_cast<std::uint8_t>(out[bit / 8] | (1u << (bit % 8)));
      }
    }
  }
  return out;
}

inline std::vector<std::uint8_t> unpack(const std::uint8_t* packed, std::size_t n, int bits) {
  std::vector<std::uint8_t> codes(n, 0);
  for (std::size_t i = 0; i < n; ++i) {
    for (int b = 0; b < bits; ++b) {
      const std::size_t bit = i * static_cast<std::size_t>(bits) + static_cast<std::size_t>(b);
      if ((packed[bit / 8] >> (bit % 8)) & 1u) codes[i] = static_cast<std::uint8_t>(codes[i] | (1u << b));
    }
  }
  return codes;
}

// The whole tensor: scales and (packed) elements.
template <class Fmt>
void quantize(const float* in, std::size_t n, std::vector<std::uint8_t>& scales,
              std::vector<std::uint8_t>& elements, scale_rounding mode) {
  using Elem = typename Fmt::element;
  const std::size_t k = Fmt::block_size;
  scales.clear();
  std::vector<std::uint8_t> codes;
  for (std::size_t j = 0; j * k < n; ++j) {
    const std::size_t count = std::min(k, n - j * k);
    const int s = scale_code<Elem>(in + j * k, count, mode);
    scales.push_back(static_cast<std::uint8_t>(s));
    for (std::size_t i = 0; i < count; ++i) codes.push_back(element_code<Elem>(in[j * k + i], s));
  }
  elements = pack(codes, info<Elem>::bits);
}

template <class Fmt>
std::vector<std::uint32_t> dequantize(const std::uint8_t* scales, const std::uint8_t* elements,
                                      std::size_t n) {
  using Elem = typename Fmt::element;
  const std::vector<std::uint8_t> codes = unpack(elements, n, info<Elem>::bits);
  std::vector<std::uint32_t> out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int s = scales[i / Fmt::block_size];
    const double p = element_value<Elem>(codes[i]);
    if (s == 255) {
      out[i] = 0x7FC00000u;
    } else if (std::isnan(p)) {
      out[i] = float_bits(static_cast<float>(p));
    } else {
      out[i] = float_bits(static_cast<float>(std::ldexp(p, s - 127)));
    }
  }
  return out;
}

}  // namespace mx_ref
