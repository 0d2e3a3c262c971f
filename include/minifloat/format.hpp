// A format is data: exponent width, mantissa width, bias and the way the
// special values are encoded. Every other header reads these traits; no code
// path is written per format.
#pragma once

#include <cstdint>
#include <type_traits>

#include "config.hpp"

namespace mf {

// How a format spends its encodings on zero, infinity and NaN.
enum class specials : unsigned char {
  // IEEE 754 style: exponent all ones is Inf (mantissa 0) or NaN (mantissa
  // non-zero); signed zero. e5m2, e4m3, e3m4, binary16, bfloat16.
  ieee,
  // Finite: no Inf; the single NaN per sign is S.11..1.11..1; signed zero.
  // e4m3fn.
  fn,
  // Finite, unsigned zero: no Inf, no -0; the pattern of -0 (sign bit only)
  // is the one NaN. e4m3fnuz, e5m2fnuz, e4m3b11fnuz.
  fnuz,
  // Finite and no NaN at all: every encoding is a number; signed zero. The
  // OCP MX element types e2m1fn, e2m3fn, e3m2fn.
  finite,
  // Finite, unsigned: no sign bit, no zero, no subnormals; all ones is NaN.
  // The OCP MX scale type e8m0fnu.
  fnu,
};

template <int ExpBits, int ManBits, int Bias, specials Specials>
struct format {
  static_assert(ExpBits >= 1 && ManBits >= 0, "a format needs an exponent");
  static_assert(Specials != specials::fnu || ManBits == 0,
                "an unsigned format without zero has no mantissa here");

  static constexpr int exponent_bits = ExpBits;
  static constexpr int mantissa_bits = ManBits;
  static constexpr int bias = Bias;
  static constexpr specials encoding = Specials;

  static constexpr bool is_signed = Specials != specials::fnu;
  static constexpr int bits = (is_signed ? 1 : 0) + ExpBits + ManBits;
  static_assert(bits <= 16, "formats wider than 16 bits are not supported");
  using storage_type =
      std::conditional_t<(bits <= 8), std::uint8_t, std::uint16_t>;

  static constexpr bool has_inf = Specials == specials::ieee;
  static constexpr bool has_nan = Specials != specials::finite;
  static constexpr bool has_zero = Specials != specials::fnu;
  static constexpr bool has_negative_zero =
      Specials == specials::ieee || Specials == specials::fn ||
      Specials == specials::finite;
  static constexpr bool has_subnormals = Specials != specials::fnu;

  // Masks over the encoding. A "magnitude" below is an encoding without its
  // sign bit; magnitudes order the same way as the values they encode.
  static constexpr unsigned magnitude_mask = (1u << (ExpBits + ManBits)) - 1;
  static constexpr unsigned sign_mask =
      is_signed ? (1u << (ExpBits + ManBits)) : 0u;
  static constexpr unsigned mantissa_mask = (1u << ManBits) - 1;
  static constexpr unsigned exponent_field_max = (1u << ExpBits) - 1;

  // Largest finite magnitude encoding: below the Inf/NaN binade for IEEE,
  // one below all ones where all ones is NaN, all ones otherwise.
  static constexpr unsigned max_finite_magnitude =
      Specials == specials::ieee
          ? (((exponent_field_max - 1) << ManBits) | mantissa_mask)
      : (Specials == specials::fn || Specials == specials::fnu)
          ? magnitude_mask - 1
          : magnitude_mask;
  static constexpr unsigned inf_magnitude = exponent_field_max << ManBits;

  // Canonical NaN encodings: conversions produce exactly these (payloads are
  // not kept). For formats without NaN both are unused.
  static constexpr unsigned positive_nan =
      Specials == specials::ieee
          ? (inf_magnitude | (ManBits > 0 ? (1u << (ManBits - 1)) : 0u))
      : Specials == specials::fnuz ? sign_mask
      : Specials == specials::finite ? 0u
                                     : magnitude_mask;
  static constexpr unsigned negative_nan =
      Specials == specials::fnuz || Specials == specials::fnu
          ? positive_nan
          : (positive_nan | sign_mask);

  // Unbiased exponents of the smallest normal and of the largest finite
  // value. Formats without subnormals use exponent field 0 as a normal.
  static constexpr int min_exponent = (has_subnormals ? 1 : 0) - Bias;
  static constexpr int max_exponent =
      static_cast<int>(max_finite_magnitude >> ManBits) - Bias;

  MF_HOST_DEVICE static constexpr bool is_nan(unsigned code) noexcept {
    const unsigned magnitude = code & magnitude_mask;
    switch (Specials) {
      case specials::ieee:
        return magnitude > inf_magnitude;
      case specials::fn:
      case specials::fnu:
        return magnitude == magnitude_mask;
      case specials::fnuz:
        return code == sign_mask;
      case specials::finite:
        return false;
    }
    return false;
  }
  MF_HOST_DEVICE static constexpr bool is_inf(unsigned code) noexcept {
    return has_inf && (code & magnitude_mask) == inf_magnitude;
  }
  MF_HOST_DEVICE static constexpr bool is_negative(unsigned code) noexcept {
    return (code & sign_mask) != 0;
  }
};

}  // namespace mf
