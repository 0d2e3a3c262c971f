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
MF_HOST_DEVICE MF_FORCE_INLINE constexpr unsigned round_finite(bool negative, int exponent,
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
        // fraction > half, or a tie with an odd kept bit; as one comparison
        // it compiles without a branch (half has no bit in common with 1).
        round_up = (fraction | (kept & 1u)) > half;
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
  // Only a format without -0 needs the zero test (FNUZ: 0x80 is NaN).
  if (!Format::has_negative_zero && magnitude == 0) return 0u;
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
    // ONNX's "Float stored in 8 bits" cast table (Cast-19 to Cast-23) gives
    // NaN even when saturating; Cast-24 gives +-max, which mf::onnx::cast
    // applies on top of this (docs/semantics.md 3.6, docs/onnx.md).
    return Format::positive_nan;
  }
  if (on_overflow == overflow::saturating || !Format::has_nan) {
    return Format::max_finite_magnitude | sign;
  }
  if (Format::has_inf) return Format::inf_magnitude | sign;
  return negative ? Format::negative_nan : Format::positive_nan;
}

// IEEE binary interchange formats as sources: split, normalise, round.
// Forced inline like round_finite: g++ -O2 called it out of line from the
// scalar stochastic encode, whose request then went through memory (a
// store-forwarding stall per element: half the -O3 speed).
template <class Format, class UInt, int SourceMantissa, int SourceBias,
          int SourceExponentMax>
MF_HOST_DEVICE MF_FORCE_INLINE constexpr unsigned round_binary(UInt bits, int total_bits,
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

// Nearest-even from float32 in 32-bit integer arithmetic, for the signed
// formats with subnormals whose whole range lies inside float's normal range
// (every format here but bfloat16 and e8m0fnu). Same bits as round_binary
// (the exhaustive tier checks every float); about five times faster, because
// it needs no normalisation and its branches depend on the input only.
template <class Format>
inline constexpr bool has_float_nearest_fast_path =
    Format::is_signed && Format::has_subnormals &&
    Format::min_exponent > -126 && Format::mantissa_bits >= 1;

template <class Format>
struct float_nearest_constants {
  static constexpr int M = Format::mantissa_bits;
  static constexpr int normal_shift = 23 - M;
  // Float bits of a format normal are (magnitude << normal_shift) + rebias.
  static constexpr std::uint32_t rebias =
      static_cast<std::uint32_t>(127 - Format::bias) << 23;
  static constexpr std::uint32_t min_normal =
      static_cast<std::uint32_t>(Format::min_exponent + 127) << 23;
  // The largest float magnitude that rounds to at most max finite: below the
  // midpoint above max, or the midpoint itself when max's last bit is even.
  static constexpr std::uint32_t midpoint_above_max =
      (static_cast<std::uint32_t>(Format::max_finite_magnitude)
       << normal_shift) +
      rebias + (1u << (normal_shift - 1));
  static constexpr std::uint32_t largest_in_range =
      midpoint_above_max - (Format::max_finite_magnitude & 1u);
};

template <class Format>
MF_HOST_DEVICE MF_FORCE_INLINE constexpr unsigned round_float_nearest(std::uint32_t bits,
                                                      overflow on_overflow) {
  using C = float_nearest_constants<Format>;
  const std::uint32_t a = bits & 0x7FFFFFFFu;
  const bool negative = (bits >> 31) != 0;
  if (a > C::largest_in_range) {
    if (a > 0x7F800000u) return nan_input_encoding<Format>(negative);
    if (a == 0x7F800000u) return inf_input_encoding<Format>(negative, on_overflow);
    return overflow_encoding<Format>(
        negative, rounding_request{rounding::nearest_even, on_overflow, 0u, 0});
  }
  std::uint32_t magnitude = 0;
  if (a >= C::min_normal) {
    // Add half a quantum minus one plus the kept last bit, then shift: ties
    // go to even, and a carry out of the mantissa bumps the exponent.
    // a - rebias >= 2^23 here, so nothing wraps.
    magnitude = (a - C::rebias + ((1u << (C::normal_shift - 1)) - 1u) +
                 ((a >> C::normal_shift) & 1u)) >>
                C::normal_shift;
  } else {
    // The format's subnormals: quanta of 2^(emin - M) in the float's
    // significand (float subnormals, field 0, have no hidden bit). The shift
    // is at least 24 - M; 25 already rounds any 24-bit significand to 0.
    const std::uint32_t field = a >> 23;
    const std::uint32_t significand =
        (a & 0x007FFFFFu) | (field != 0 ? 0x00800000u : 0u);
    const int unclamped = Format::min_exponent - C::M + 150 -
                          static_cast<int>(field != 0 ? field : 1u);
    const int shift = unclamped < 25 ? unclamped : 25;
    magnitude = (significand + ((1u << (shift - 1)) - 1u) +
                 ((significand >> shift) & 1u)) >>
                shift;
  }
  // The sign without a branch (random signs would mispredict); FNUZ has no
  // -0, so a zero result stays positive there.
  std::uint32_t sign = (bits >> 31) << (Format::bits - 1);
  if (!Format::has_negative_zero && magnitude == 0) sign = 0u;
  return magnitude | sign;
}

// The same for e8m0fnu (no sign, no mantissa, every power of two from
// 2^-127 to 2^127): the value's float exponent, rounded up from a mantissa of
// at least one half (a tie goes up: the kept "significand" is the hidden bit,
// always odd). Negative inputs, NaN and Inf take the general path.
template <class Format>
inline constexpr bool has_float_nearest_unsigned_fast_path =
    Format::encoding == specials::fnu && Format::mantissa_bits == 0 &&
    Format::min_exponent == -127 && Format::bias == 127;

template <class Format>
MF_HOST_DEVICE MF_FORCE_INLINE constexpr unsigned round_float_nearest_unsigned(
    std::uint32_t bits, overflow on_overflow) {
  if (bits < 0x00800000u) {
    // Float subnormals and +0: 2^-127 (0x00400000) is encoding 0; from the
    // midpoint 1.5 * 2^-127 up they round to 2^-126, encoding 1.
    return bits >= 0x00600000u ? 1u : 0u;
  }
  const std::uint32_t magnitude = (bits + 0x00400000u) >> 23;
  if (magnitude > Format::max_finite_magnitude) {
    return overflow_encoding<Format>(
        false, rounding_request{rounding::nearest_even, on_overflow, 0u, 0});
  }
  return magnitude;
}

template <class Format>
MF_HOST_DEVICE MF_FORCE_INLINE constexpr unsigned round_float_bits(std::uint32_t bits,
                                                   rounding_request r) {
  if constexpr (has_float_nearest_fast_path<Format>) {
    if (r.random_bits == 0 && r.mode == rounding::nearest_even) {
      return round_float_nearest<Format>(bits, r.on_overflow);
    }
  }
  if constexpr (has_float_nearest_unsigned_fast_path<Format>) {
    if (r.random_bits == 0 && r.mode == rounding::nearest_even &&
        bits < 0x7F800000u) {
      return round_float_nearest_unsigned<Format>(bits, r.on_overflow);
    }
  }
  return round_binary<Format, std::uint32_t, 23, 127, 255>(bits, 32, r);
}

template <class Format>
MF_HOST_DEVICE constexpr unsigned round_double_bits(std::uint64_t bits,
                                                    rounding_request r) {
  return round_binary<Format, std::uint64_t, 52, 1023, 2047>(bits, 64, r);
}

// A wider float (long double) as a double rounded to odd: toward zero, with
// the last bit set where that lost anything. Every format's significand has
// at most 11 bits, 2 and more below double's 53, so rounding this double
// into a format gives the wide value's own rounding in every mode (S. Boldo
// and G. Melquiond, "When double rounding is odd", 2005); stochastic
// rounding too, whose 32 random bits meet only the wide value's bits, the
// sticky bit lying 42 places below the quantum. The conversion to double
// may round either way (the caller's rounding direction), so it is stepped
// back toward zero where it went past; a NaN stays a NaN. A template, so
// that device code meets long double only where a caller asks for it.
template <class Wide>
MF_HOST_DEVICE constexpr std::uint64_t double_bits_rounded_to_odd(Wide value) {
  const double converted = static_cast<double>(value);
  std::uint64_t bits = bit_cast<std::uint64_t>(converted);
  if (value != value) return bits;
  const Wide back = static_cast<Wide>(converted);
  if (value > 0 ? back > value : back < value) --bits;  // a finite magnitude, or Inf: one below
  if (static_cast<Wide>(bit_cast<double>(bits)) != value) bits |= 1u;
  return bits;
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

// Format's largest finite value, by arithmetic alone: a constant expression
// even where bit_cast is not constexpr (the type promotion and the limits
// decide with it at compile time).
template <class Format>
MF_HOST_DEVICE constexpr double max_finite_value() noexcept {
  const unsigned field = Format::max_finite_magnitude >> Format::mantissa_bits;
  const unsigned mantissa = Format::max_finite_magnitude & ((1u << Format::mantissa_bits) - 1u);
  const bool subnormal = field == 0 && Format::has_subnormals;
  double value = static_cast<double>(mantissa + (subnormal ? 0u : 1u << Format::mantissa_bits));
  int exponent = (subnormal ? 1 : static_cast<int>(field)) - Format::bias - Format::mantissa_bits;
  for (; exponent > 0; --exponent) value *= 2.0;
  for (; exponent < 0; ++exponent) value /= 2.0;
  return value;
}

// Exact decode into float. Every format here has at most 8 exponent bits and
// 23 mantissa bits, so every value is a float; the bits are assembled
// directly where the result is a normal float.
template <class Format>
MF_HOST_DEVICE constexpr float decode_to_float(unsigned encoding) noexcept {
  if constexpr (has_float_nearest_fast_path<Format>) {
    // Every value is a float normal or zero: a normal is its magnitude
    // shifted into place plus the exponent rebias, a subnormal an exact
    // product of an integer and a power of two.
    static_assert(Format::min_exponent - Format::mantissa_bits > -127,
                  "the subnormal quantum must be a float normal");
    constexpr std::uint32_t rebias =
        static_cast<std::uint32_t>(127 - Format::bias) << 23;
    MF_BIT_CAST_CONSTEXPR float quantum = bit_cast<float>(
        static_cast<std::uint32_t>(Format::min_exponent -
                                   Format::mantissa_bits + 127)
        << 23);
    if (!Format::is_nan(encoding) && !Format::is_inf(encoding)) {
      const std::uint32_t magnitude = encoding & Format::magnitude_mask;
      const std::uint32_t sign =
          static_cast<std::uint32_t>((encoding >> (Format::bits - 1)) & 1u)
          << 31;
      const std::uint32_t unsigned_bits =
          magnitude >> Format::mantissa_bits != 0
              ? (magnitude << (23 - Format::mantissa_bits)) + rebias
              : bit_cast<std::uint32_t>(static_cast<float>(magnitude) *
                                        quantum);
      return bit_cast<float>(unsigned_bits | sign);
    }
  }
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

// Exact decode into double, built from the float's bits with integer
// operations: a float conversion would read a float subnormal (bfloat16's
// subnormals, e8m0fnu's 2^-127) as zero under denormals-are-zero, which
// -ffast-math sets for a whole process. Every float is a double normal.
template <class Format>
MF_HOST_DEVICE constexpr double decode_to_double(unsigned encoding) noexcept {
  const std::uint32_t f = bit_cast<std::uint32_t>(decode_to_float<Format>(encoding));
  const std::uint64_t sign = static_cast<std::uint64_t>(f >> 31) << 63;
  const std::uint32_t field = (f >> 23) & 0xFFu;
  const std::uint64_t mantissa = f & 0x7FFFFFu;
  if (field == 0xFFu) {  // Inf or NaN, payload and quiet bit kept in place
    return bit_cast<double>(sign | 0x7FF0000000000000ull | (mantissa << 29));
  }
  if (field != 0) {
    return bit_cast<double>(sign | (static_cast<std::uint64_t>(field - 127 + 1023) << 52) |
                            (mantissa << 29));
  }
  if (mantissa == 0) return bit_cast<double>(sign);
  // A float subnormal, mantissa * 2^-149: its top bit becomes the hidden one.
  const int top_bit = 63 - count_leading_zeros(mantissa);
  return bit_cast<double>(sign |
                          (static_cast<std::uint64_t>(top_bit - 149 + 1023) << 52) |
                          ((mantissa << (52 - top_bit)) & 0xFFFFFFFFFFFFFull));
}

}  // namespace detail
}  // namespace mf
