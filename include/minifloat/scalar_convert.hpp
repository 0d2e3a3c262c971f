// The one conversion algorithm, on raw encodings. Every source (float,
// double, integers, another format) is reduced to sign * significand * 2^k
// with a 64-bit significand, and one routine rounds that to any format in
// any mode. Decoding is exact because every format here fits in float.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "config.hpp"
#include "format.hpp"
#include "rounding.hpp"

namespace mf {
namespace detail {

// How a finite non-zero value is to be rounded. random_bits == 0 selects the
// deterministic mode; otherwise stochastic rounding with that many bits of
// `random` (1..32).
struct rounding_request {
  rounding mode;
  overflow on_overflow;
  std::uint32_t random;
  int random_bits;
};

// The encoding for a value whose rounded magnitude exceeds max finite. IEEE
// 754 sends the modes that round away from zero to infinity and the others to
// max finite; a format without Inf substitutes NaN, one without either (the
// MX element types) always saturates.
template <class Format>
MF_HOST_DEVICE constexpr unsigned overflow_encoding(bool negative,
                                                    rounding_request r) {
  const unsigned sign = negative ? Format::sign_mask : 0u;
  const unsigned max_finite = Format::max_finite_magnitude | sign;
  if (r.on_overflow == overflow::saturating || !Format::has_nan) {
    return max_finite;
  }
  const bool away_from_zero =
      r.random_bits > 0 || r.mode == rounding::nearest_even ||
      (r.mode == rounding::toward_positive && !negative) ||
      (r.mode == rounding::toward_negative && negative);
  if (!away_from_zero) return max_finite;
  if (Format::has_inf) return Format::inf_magnitude | sign;
  return negative ? Format::negative_nan : Format::positive_nan;
}

template <class Format>
MF_HOST_DEVICE constexpr unsigned zero_encoding(bool negative) {
  return negative && Format::has_negative_zero ? Format::sign_mask : 0u;
}

// Rounds (-1)^negative * significand * 2^(exponent - 63) into Format, where
// significand has its top bit set (so `exponent` is the exponent of the
// leading bit). The magnitude is rounded with an unbounded exponent range
// above, gradual underflow below; a result past max finite is an overflow.
template <class Format>
MF_HOST_DEVICE constexpr unsigned round_finite(bool negative, int exponent,
                                               std::uint64_t significand,
                                               rounding_request r) {
  if (negative && !Format::is_signed) return Format::positive_nan;
  if (exponent > Format::max_exponent) {
    return overflow_encoding<Format>(negative, r);
  }
  if (!Format::has_subnormals && exponent < Format::min_exponent) {
    // No zero and no subnormals: the smallest value is the nearest one in
    // every mode (toward +inf would pick it too).
    return 0u;
  }
  // Bits of the significand below the format's quantum at this exponent.
  const int quantum_exponent =
      (exponent > Format::min_exponent ? exponent : Format::min_exponent);
  const int shift = 63 - Format::mantissa_bits + (quantum_exponent - exponent);

  const std::uint64_t kept = shift < 64 ? significand >> shift : 0u;
  // The discarded fraction of a quantum, left-aligned: its top bit is the
  // rounding bit. Bits shifted out past the right end only matter as
  // "inexact", which a non-zero significand always is when shift > 64.
  const std::uint64_t fraction =
      shift < 64    ? significand << (64 - shift)
      : shift == 64 ? significand
      : shift < 128 ? significand >> (shift - 64)
                    : 0u;
  const bool inexact = shift > 64 || fraction != 0;
  constexpr std::uint64_t half = std::uint64_t{1} << 63;

  bool round_up = false;
  if (r.random_bits > 0) {
    // Round up when the top random_bits of the fraction (D) plus the random
    // integer reach 2^random_bits: probability D / 2^random_bits.
    const int n = r.random_bits;
    const std::uint64_t discarded = fraction >> (64 - n);
    const std::uint64_t random =
        r.random & static_cast<std::uint32_t>((std::uint64_t{1} << n) - 1);
    round_up = discarded + random >= (std::uint64_t{1} << n);
  } else {
    switch (r.mode) {
      case rounding::nearest_even:
        round_up = fraction > half || (fraction == half && (kept & 1u));
        break;
      case rounding::toward_zero:
        break;
      case rounding::toward_positive:
        round_up = inexact && !negative;
        break;
      case rounding::toward_negative:
        round_up = inexact && negative;
        break;
    }
  }
  // The encoding of a normal magnitude is (biased exponent - 1) * 2^M plus the
  // significand with its hidden bit, so a carry out of the mantissa bumps the
  // exponent, and a subnormal (biased exponent 0, no hidden bit) falls out of
  // the same sum.
  const std::int64_t magnitude =
      static_cast<std::int64_t>(quantum_exponent + Format::bias - 1) *
          (std::int64_t{1} << Format::mantissa_bits) +
      static_cast<std::int64_t>(kept) + (round_up ? 1 : 0);
  if (magnitude > static_cast<std::int64_t>(Format::max_finite_magnitude)) {
    return overflow_encoding<Format>(negative, r);
  }
  if (magnitude == 0) return zero_encoding<Format>(negative);
  return static_cast<unsigned>(magnitude) | (negative ? Format::sign_mask : 0u);
}

// Encodings of the non-finite inputs (see docs/semantics.md for the table).
template <class Format>
MF_HOST_DEVICE constexpr unsigned nan_input_encoding(bool negative) {
  if (!Format::has_nan) return Format::max_finite_magnitude;  // +max, as CUDA
  return negative ? Format::negative_nan : Format::positive_nan;
}

template <class Format>
MF_HOST_DEVICE constexpr unsigned inf_input_encoding(bool negative,
                                                     overflow on_overflow) {
  const unsigned sign = negative ? Format::sign_mask : 0u;
  if (Format::encoding == specials::fnu) {
    // No sign bit: -Inf is a negative value, so NaN; +Inf saturates to max.
    return (!negative && on_overflow == overflow::saturating)
               ? Format::max_finite_magnitude
               : Format::positive_nan;
  }
  if (Format::encoding == specials::fnuz) {
    // The seed's cast table keeps NaN even when saturating (ONNX 1.19 later
    // changed this to +-max; see docs/semantics.md).
    return Format::positive_nan;
  }
  if (on_overflow == overflow::saturating || !Format::has_nan) {
    return Format::max_finite_magnitude | sign;
  }
  if (Format::has_inf) return Format::inf_magnitude | sign;
  return negative ? Format::negative_nan : Format::positive_nan;
}

// IEEE binary interchange formats as sources: split, normalise, round.
template <class Format, class UInt, int SourceMantissa, int SourceBias,
          int SourceExponentMax>
MF_HOST_DEVICE constexpr unsigned round_binary(UInt bits, int total_bits,
                                               rounding_request r) {
  const bool negative = (bits >> (total_bits - 1)) & 1u;
  const UInt mantissa = bits & ((UInt{1} << SourceMantissa) - 1);
  const int field = static_cast<int>(
      (bits >> SourceMantissa) & static_cast<UInt>(SourceExponentMax));
  if (field == SourceExponentMax) {
    return mantissa != 0 ? nan_input_encoding<Format>(negative)
                         : inf_input_encoding<Format>(negative, r.on_overflow);
  }
  if (field == 0 && mantissa == 0) return zero_encoding<Format>(negative);
  const std::uint64_t integer =
      field == 0 ? static_cast<std::uint64_t>(mantissa)
                 : static_cast<std::uint64_t>(mantissa) |
                       (std::uint64_t{1} << SourceMantissa);
  const int lsb_exponent = (field == 0 ? 1 : field) - SourceBias - SourceMantissa;
  const int leading_zeros = count_leading_zeros(integer);
  return round_finite<Format>(negative, lsb_exponent + 63 - leading_zeros,
                              integer << leading_zeros, r);
}

template <class Format>
MF_HOST_DEVICE constexpr unsigned round_float_bits(std::uint32_t bits,
                                                   rounding_request r) {
  return round_binary<Format, std::uint32_t, 23, 127, 255>(bits, 32, r);
}

template <class Format>
MF_HOST_DEVICE constexpr unsigned round_double_bits(std::uint64_t bits,
                                                    rounding_request r) {
  return round_binary<Format, std::uint64_t, 52, 1023, 2047>(bits, 64, r);
}

template <class Format, class Integer>
MF_HOST_DEVICE constexpr unsigned round_integer(Integer value,
                                                rounding_request r) {
  static_assert(std::is_integral<Integer>::value, "integers only");
  static_assert(sizeof(Integer) <= sizeof(std::uint64_t),
                "integers wider than 64 bits are not supported");
  if (value == 0) return zero_encoding<Format>(false);
  using Unsigned = std::make_unsigned_t<Integer>;
  bool negative = false;
  std::uint64_t magnitude = static_cast<Unsigned>(value);
  if constexpr (std::is_signed<Integer>::value) {
    if (value < 0) {
      negative = true;
      // Two's-complement negation in unsigned arithmetic also handles INT_MIN.
      magnitude = std::uint64_t{0} - static_cast<std::uint64_t>(
                                         static_cast<std::int64_t>(value));
    }
  }
  const int leading_zeros = count_leading_zeros(magnitude);
  return round_finite<Format>(negative, 63 - leading_zeros,
                              magnitude << leading_zeros, r);
}

// Exact decode into float. Every format here has at most 8 exponent bits and
// 23 mantissa bits, so every value is a float; the bits are assembled
// directly where the result is a normal float.
template <class Format>
MF_HOST_DEVICE constexpr float decode_to_float(unsigned encoding) noexcept {
  static_assert(Format::max_exponent <= 127 && Format::mantissa_bits <= 23 &&
                    Format::min_exponent - Format::mantissa_bits >= -149,
                "every value of the format must be a float");
  const bool negative = Format::is_negative(encoding);
  const std::uint32_t sign = negative ? 0x80000000u : 0u;
  const unsigned magnitude = encoding & Format::magnitude_mask;
  if (Format::is_nan(encoding)) {
    // Sign kept where the format has signed NaNs; FNUZ/FNU NaN is positive.
    const bool signed_nan = Format::encoding == specials::ieee ||
                            Format::encoding == specials::fn;
    return bit_cast<float>((signed_nan ? sign : 0u) | 0x7FC00000u);
  }
  if (Format::is_inf(encoding)) return bit_cast<float>(sign | 0x7F800000u);
  const unsigned field = magnitude >> Format::mantissa_bits;
  const unsigned mantissa = magnitude & Format::mantissa_mask;
  constexpr int shift_to_float = 23 - Format::mantissa_bits;
  std::uint32_t bits = 0;
  if (field == 0 && Format::has_subnormals) {
    if (mantissa == 0) return bit_cast<float>(sign);
    // Subnormal: the top set bit of the mantissa becomes float's hidden bit.
    const int top_bit = 63 - count_leading_zeros(mantissa);
    const int exponent = Format::min_exponent - Format::mantissa_bits + top_bit;
    const unsigned normalised =
        (mantissa << (Format::mantissa_bits - top_bit)) & Format::mantissa_mask;
    if (exponent >= -126) {
      bits = (static_cast<std::uint32_t>(exponent + 127) << 23) |
             (static_cast<std::uint32_t>(normalised) << shift_to_float);
    } else {
      // Only reachable when the format's subnormals are float subnormals;
      // the clamp keeps the shift defined in the instantiations where not.
      constexpr int to_float_subnormal =
          Format::min_exponent - Format::mantissa_bits + 149;
      bits = static_cast<std::uint32_t>(mantissa)
             << (to_float_subnormal < 32 ? to_float_subnormal : 0);
    }
  } else {
    const int exponent = static_cast<int>(field) - Format::bias;
    if (exponent >= -126) {
      bits = (static_cast<std::uint32_t>(exponent + 127) << 23) |
             (static_cast<std::uint32_t>(mantissa) << shift_to_float);
    } else {
      // Below float's normal range (e8m0fnu's smallest values): a float
      // subnormal with the hidden bit made explicit.
      const std::uint32_t significand =
          (1u << Format::mantissa_bits) | mantissa;
      bits = significand << (exponent - Format::mantissa_bits + 149);
    }
  }
  return bit_cast<float>(sign | bits);
}

}  // namespace detail
}  // namespace mf
