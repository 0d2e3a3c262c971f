// The element types of the OCP MX block formats (OCP MX v1.0 §5.3) seen
// through one traits type: width, the exponent of the largest normal
// (emax_elem, which the shared-scale rule subtracts), the significand of
// the largest value, and the saturating nearest-even encode of a value that
// has already been divided by the block scale.
#pragma once

#include <cstdint>

#include "../convert.hpp"
#include "../formats.hpp"
#include "../lanes/decode_table.hpp"

namespace mf {
namespace mx {

// MXINT8's element (OCP MX v1.0 §5.3, INT8): an 8-bit two's-complement
// integer P with an implicit scale of 2^-6, so P_i * 2^-6 lies in
// [-2, 127/64]. Encoding saturates symmetrically to +-127 (the largest
// magnitude the floor rule needs; -128, i.e. -2.0, is never produced but
// decodes to -2).
struct int8_element {
  using storage_type = std::uint8_t;
};

template <class Elem>
struct element_traits;

template <int E, int M, int B, specials S>
struct element_traits<minifloat<E, M, B, S>> {
  using type = minifloat<E, M, B, S>;
  using format = typename type::format;
  static_assert(S != specials::fnu, "e8m0fnu is a scale, not an element type");
  static constexpr bool is_integer = false;
  static constexpr int bits = format::bits;
  static constexpr int mantissa_bits = M;
  // Exponent of the largest normal: 8 for e4m3fn, 15 for e5m2, 2 for e2m3fn
  // and e2m1fn, 4 for e3m2fn (§6.3 calls it emax_elem).
  static constexpr int emax = format::max_exponent;
  // The largest magnitude's fraction field (its significand is
  // 1 + max_fraction / 2^M).
  static constexpr unsigned max_fraction =
      format::max_finite_magnitude & format::mantissa_mask;
  // Power of two folded into the scaling before encode (INT8's 2^6).
  static constexpr int implicit_shift = 0;
  // Exponents of the smallest and largest finite nonzero magnitudes.
  static constexpr int min_value_exponent =
      format::has_subnormals ? format::min_exponent - M : format::min_exponent;
  static constexpr int max_value_exponent = format::max_exponent;
  // A scaled value below 2^-126 (float's smallest normal) rounds to +-0 in
  // every element format here, because half the element's smallest
  // subnormal is far above it. The exact scaling in scale.hpp relies on it.
  static_assert(format::min_exponent - M > -100, "element subnormals must be far above 2^-126");
};

template <>
struct element_traits<int8_element> {
  using type = int8_element;
  static constexpr bool is_integer = true;
  static constexpr int bits = 8;
  // 127/64 = 1.111111b: six fraction bits below the leading one.
  static constexpr int mantissa_bits = 6;
  static constexpr int emax = 0;
  static constexpr unsigned max_fraction = 63;
  static constexpr int implicit_shift = 6;
  static constexpr int min_value_exponent = -6;  // 1/64
  static constexpr int max_value_exponent = 1;   // -128/64 = -2
};

namespace detail {

// Nearest-even rounding of the float with bits `bits` to an integer,
// saturated to +-127, as a two's-complement byte. Integer arithmetic only,
// so the result does not depend on the floating-point environment.
constexpr std::uint8_t round_to_int8_saturating(std::uint32_t bits) noexcept {
  const std::uint32_t a = bits & 0x7FFFFFFFu;
  std::uint32_t magnitude = 0;
  if (a > 0x3F000000u) {  // |x| > 0.5 (0.5 itself is a tie that goes to 0)
    const int exponent = static_cast<int>(a >> 23);  // >= 126 here
    if (exponent >= 127 + 7) {
      magnitude = 127;  // |x| >= 128
    } else {
      const std::uint32_t significand = (a & 0x7FFFFFu) | 0x800000u;
      const int shift = 150 - exponent;  // 17..24
      std::uint32_t kept = significand >> shift;
      const std::uint32_t rest = significand & ((1u << shift) - 1u);
      const std::uint32_t half = 1u << (shift - 1);
      if (rest > half || (rest == half && (kept & 1u))) ++kept;
      magnitude = kept > 127u ? 127u : kept;
    }
  }
  const bool negative = (bits >> 31) != 0;
  return static_cast<std::uint8_t>(negative ? (256u - magnitude) & 0xFFu : magnitude);
}

}  // namespace detail

// Encodes a value already divided by the block scale (float bits, finite):
// nearest even, saturating to the element's largest magnitude, as the MX
// conversion prescribes (§6.3).
template <class Elem>
constexpr std::uint8_t encode_element(std::uint32_t scaled_bits) noexcept {
  if constexpr (element_traits<Elem>::is_integer) {
    // P = V / X * 2^6; the caller's scaled value already carries the 2^6.
    return detail::round_to_int8_saturating(scaled_bits);
  } else {
    return static_cast<std::uint8_t>(
        round_to<Elem>(mf::detail::bit_cast<float>(scaled_bits), rounding::nearest_even,
                       overflow::saturating)
            .bits());
  }
}

// The element's value (without the block scale), exactly.
template <class Elem>
constexpr float decode_element(std::uint8_t code) noexcept {
  if constexpr (element_traits<Elem>::is_integer) {
    const int p = code < 128 ? static_cast<int>(code) : static_cast<int>(code) - 256;
    return static_cast<float>(p) * 0.015625f;  // exact: 2^-6
  } else {
    // One load (lanes/decode_table.hpp): the scalar MXFP4 dequantize ran at
    // half speed with the branching decode once the data outgrew what the
    // branch predictor could learn (FP4's 0 and 0.5 among its normals). The
    // mask changes no index, but without it g++ 12 -O3 made the scalar
    // dequantize 6-11 % slower.
    constexpr unsigned code_mask = (1u << element_traits<Elem>::bits) - 1u;
    return lanes::value_table_of<typename element_traits<Elem>::format>.value[code & code_mask];
  }
}

}  // namespace mx
}  // namespace mf
