// The E8M0 shared scale of an MX block (OCP MX v1.0 §5.4.1, §6.3) and the
// exact division of an element by it.
//
//   floor (default, §6.3): X = 2^(floor(log2(amax)) - emax_elem). amax / X
//          lies in [2^emax, 2^(emax+1)), so values above the element's max
//          are clipped (saturated) to it.
//   ceil:  the smallest power of two with amax / X <= max_elem, i.e.
//          2^ceil(log2(amax / max_elem)): nothing clips (TransformerEngine,
//          cuBLAS and cuDNN's "round the scale up", torchao's RCEIL).
//   even:  floor applied to amax rounded to the element's precision
//          (nearest, ties to even): torchao's EVEN. amax moves to the next
//          binade only when its significand would round up to 2.
//
// Then, in every mode: clamped below to 2^-127; above 2^127, or amax NaN
// or Inf, the scale is NaN (0xFF); amax == 0 gives 2^-127 (code 0).
#pragma once

#include <cstdint>

#include "../config.hpp"
#include "element.hpp"

namespace mf {
namespace mx {

enum class scale_rounding : unsigned char { floor, ceil, even };

inline constexpr std::uint8_t scale_nan = 0xFF;

namespace detail {

constexpr int leading_one_position(std::uint32_t x) noexcept {
  return 63 - mf::detail::count_leading_zeros(x);
}

}  // namespace detail

// The E8M0 code of the shared scale for a block whose largest magnitude has
// the float bits `amax_bits` (sign ignored; any NaN or Inf bit pattern gives
// the NaN scale).
template <class Elem>
constexpr std::uint8_t shared_scale(std::uint32_t amax_bits, scale_rounding mode) noexcept {
  using T = element_traits<Elem>;
  const std::uint32_t a = amax_bits & 0x7FFFFFFFu;
  if (a >= 0x7F800000u) return scale_nan;
  if (a == 0) return 0;
  // amax = (1 + fraction / 2^23) * 2^exponent.
  int exponent = 0;
  std::uint32_t fraction = 0;
  if (a >= 0x00800000u) {
    exponent = static_cast<int>(a >> 23) - 127;
    fraction = a & 0x7FFFFFu;
  } else {  // float subnormal: normalise
    const int top = detail::leading_one_position(a);
    exponent = top - 149;
    fraction = (a << (23 - top)) & 0x7FFFFFu;
  }
  int x = exponent - T::emax;
  if (mode == scale_rounding::ceil) {
    // amax / 2^x = (1 + fraction / 2^23) * 2^emax exceeds max_elem exactly
    // when the fraction exceeds the max's fraction.
    if (fraction > (T::max_fraction << (23 - T::mantissa_bits))) ++x;
  } else if (mode == scale_rounding::even) {
    // Rounding the significand to M fraction bits carries into the next
    // binade when fraction >= 2^23 - 2^(22 - M) (the tie goes up: the
    // all-ones neighbour is odd).
    if (fraction >= (1u << 23) - (1u << (22 - T::mantissa_bits))) ++x;
  }
  if (x < -127) x = -127;
  if (x > 127) return scale_nan;
  return static_cast<std::uint8_t>(x + 127);
}

// The scale as a float: 2^(code - 127) (2^-127 is a float subnormal), NaN
// for 0xFF. Same as static_cast<float>(mf::e8m0fnu::from_bits(code)).
constexpr float scale_value(std::uint8_t code) noexcept {
  if (code == scale_nan) return mf::detail::bit_cast<float>(0x7FC00000u);
  if (code == 0) return mf::detail::bit_cast<float>(0x00400000u);
  return mf::detail::bit_cast<float>(static_cast<std::uint32_t>(code) << 23);
}

// V * 2^shift for a finite float V (bits), computed on the bits so that it
// is exact and independent of the floating-point environment (DAZ/FTZ,
// rounding direction). A result below 2^-126 in magnitude becomes +-0:
// every element format rounds such a value to +-0 anyway (element_traits
// asserts its subnormals are far above 2^-126), so the element is the same
// as that of the exact quotient. The callers never overflow: |V| <= amax
// and the scale puts amax below 2^(emax_elem + 1) <= 2^16.
constexpr std::uint32_t scale_by_power_of_two(std::uint32_t bits, int shift) noexcept {
  const std::uint32_t sign = bits & 0x80000000u;
  const std::uint32_t a = bits & 0x7FFFFFFFu;
  if (a == 0) return sign;
  int biased = static_cast<int>(a >> 23);
  std::uint32_t fraction = a & 0x7FFFFFu;
  if (biased == 0) {
    const int top = detail::leading_one_position(a);
    fraction = (a << (23 - top)) & 0x7FFFFFu;
    biased = top - 22;  // a * 2^-149 = 1.f * 2^(top - 149)
  }
  const int result = biased + shift;
  if (result < 1) return sign;
  return sign | (static_cast<std::uint32_t>(result) << 23) | fraction;
}

// P * 2^(code - 127), the dequantized element, for an element value P
// (float bits) and a scale code that is not NaN; computed on the bits so
// that the result does not depend on MXCSR (DAZ would read the scale 2^-127
// as 0, FTZ would flush a subnormal product, and the rounding direction
// would turn an overflow into FLT_MAX). The product is exact unless it
// leaves float's range: an overflow is +-Inf, and a result below 2^-126 is
// rounded to nearest even on float's subnormal grid (for the MX element
// types that rounding is exact too: their values are multiples of 2^-16 and
// X >= 2^-127). Zero, Inf and NaN P come back unchanged.
constexpr std::uint32_t multiply_by_scale(std::uint32_t p, std::uint8_t code) noexcept {
  const std::uint32_t sign = p & 0x80000000u;
  const std::uint32_t a = p & 0x7FFFFFFFu;
  int biased = static_cast<int>(a >> 23);
  if (a == 0 || biased == 255) return p;
  std::uint32_t fraction = a & 0x7FFFFFu;
  if (biased == 0) {  // a float subnormal P: normalise
    const int top = detail::leading_one_position(a);
    fraction = (a << (23 - top)) & 0x7FFFFFu;
    biased = top - 22;
  }
  const int result = biased + static_cast<int>(code) - 127;
  if (result >= 255) return sign | 0x7F800000u;
  if (result >= 1) return sign | (static_cast<std::uint32_t>(result) << 23) | fraction;
  // Subnormal: the significand counts 2^(result - 150); in quanta of 2^-149
  // that is significand >> (1 - result), rounded to nearest even.
  const int shift = 1 - result;
  if (shift > 24) return sign;  // below half the smallest subnormal
  const std::uint32_t significand = fraction | 0x800000u;
  std::uint32_t kept = significand >> shift;
  const std::uint32_t rest = significand & ((1u << shift) - 1u);
  const std::uint32_t half = 1u << (shift - 1);
  if (rest > half || (rest == half && (kept & 1u))) ++kept;
  return sign | kept;
}

// Whether P * 2^(code - 127) is a float normal for every finite nonzero
// element P of Elem (and X itself a float normal): then one float multiply
// is exact, gives multiply_by_scale's bits, and no MXCSR setting (DAZ, FTZ,
// rounding direction) can change it. e4m3fn: codes 10..246, e5m2: 17..239,
// e2m1fn: 2..252 — every scale quantize gives a block that is not all zeros
// and not near float's limits.
template <class Elem>
struct exact_multiply_codes {
  using T = element_traits<Elem>;
  static constexpr std::uint32_t lo =
      static_cast<std::uint32_t>(1 - T::min_value_exponent > 1 ? 1 - T::min_value_exponent : 1);
  static constexpr std::uint32_t hi = static_cast<std::uint32_t>(254 - T::max_value_exponent);
};

template <class Elem>
constexpr bool multiply_is_exact(std::uint32_t code) noexcept {
  using C = exact_multiply_codes<Elem>;
  return code - C::lo <= C::hi - C::lo;
}

}  // namespace mx
}  // namespace mf
