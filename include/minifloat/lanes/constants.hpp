// The per-format constants of the lane-wise conversions (encode_lanes.hpp,
// decode_lanes.hpp), all taken from the scalar algorithm
// (scalar_convert.hpp) so that no SIMD kernel of any module can drift from
// it.
#pragma once

#include <cstdint>

#include "../format.hpp"
#include "../rounding.hpp"
#include "../scalar_convert.hpp"

namespace mf {
namespace lanes {

// Per (format, mode, overflow) constants of the encoder, all taken from the
// scalar algorithm so that the lane-wise kernels cannot drift from it.
template <class F, rounding Mode, overflow Ovf>
struct encode_constants {
  static constexpr mf::detail::rounding_request request{Mode, Ovf, 0u, 0};
  static constexpr int M = F::mantissa_bits;
  static constexpr int bias = F::bias;
  static constexpr int emin = F::min_exponent;
  // Right shift that takes a float significand (hidden bit at 23) to the
  // format's quantum: 23 - M for the format's normals, more below min normal.
  // Lanes compute s = max(shift_base - Eeff, 23 - M), clamped to 25 (enough
  // to round any 24-bit significand to 0 or 1 quantum).
  static constexpr int shift_base = emin + 127 + 23 - M;
  static constexpr int normal_shift = 23 - M;
  static constexpr bool needs_clamp = shift_base - 1 > 25;
  // base = max(Eeff - base_offset, 0) << M is (q + bias - 1) << M.
  static constexpr int base_offset = 128 - bias;
  static constexpr unsigned max_finite = F::max_finite_magnitude;
  static constexpr unsigned sign_mask = F::sign_mask;
  static constexpr unsigned overflow_pos =
      mf::detail::overflow_encoding<F>(false, request);
  static constexpr unsigned overflow_neg =
      mf::detail::overflow_encoding<F>(true, request);
  static constexpr unsigned nan_pos = mf::detail::nan_input_encoding<F>(false);
  static constexpr unsigned nan_neg = mf::detail::nan_input_encoding<F>(true);
  static constexpr unsigned inf_pos = mf::detail::inf_input_encoding<F>(false, Ovf);
  static constexpr unsigned inf_neg = mf::detail::inf_input_encoding<F>(true, Ovf);
  // Formats with subnormals put (emin + bias - 1) == 0 below min normal; the
  // kernels rely on it.
  static_assert(!F::has_subnormals || emin + bias - 1 == 0, "format layout");
  static_assert(F::has_subnormals || (F::mantissa_bits == 0 && !F::is_signed),
                "formats without subnormals are the unsigned fnu ones here");
  static_assert(emin >= -127 && M <= 10, "range the kernels handle");
};

// Whether F's encodings are the top byte of the binary16 (IEEE 754) of
// their values (e5m2): then a decode is the half b << 8 widened by the
// hardware's binary16 conversion, NaN aside (bulk/avx2.hpp, bulk/avx512.hpp).
template <class F>
inline constexpr bool encodings_are_binary16_top_byte =
    F::is_signed && F::has_subnormals && F::exponent_bits == 5 && F::mantissa_bits == 2 &&
    F::bias == 15 && F::encoding == specials::ieee;

// Decode constants: float bits of the format's normals are
// (magnitude << (23 - M)) + ((127 - bias) << 23).
template <class F>
struct decode_constants {
  static constexpr int M = F::mantissa_bits;
  static constexpr unsigned shift = 23 - M;
  static constexpr std::uint32_t exponent_offset =
      static_cast<std::uint32_t>(127 - F::bias) << 23;
  static constexpr unsigned sign_shift = 31 - (F::exponent_bits + M);
  static constexpr bool signed_nan =
      F::encoding == specials::ieee || F::encoding == specials::fn;
  static constexpr unsigned valid_mask = F::magnitude_mask | F::sign_mask;
  // Subnormal value = magnitude * 2^(emin - M).
  static constexpr int subnormal_exponent = F::min_exponent - M;
};

}  // namespace lanes
}  // namespace mf
