// The comparison point for the scalar-conversion benchmark: e4m3fn <-> float
// written the way people write it by hand for one format -- add a rounding
// bias and shift, let the FPU round the subnormals -- with no generality.
// It must give the same bits as the library (the benchmark checks that before
// it times anything), so the speed comparison is between equal results.
#pragma once

#include <cstdint>
#include <cstring>

namespace baseline {

inline std::uint32_t bits_of(float value) noexcept {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

inline float float_of(std::uint32_t bits) noexcept {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  return value;
}

// float -> e4m3fn, round to nearest even. Non-saturating: overflow, Inf and
// NaN give the NaN S.1111.111. Saturating: overflow and Inf give +-448, NaN
// stays NaN (the library's overflow::saturating).
template <bool Saturate>
inline std::uint8_t float_to_e4m3fn(float value) noexcept {
  const std::uint32_t bits = bits_of(value);
  const std::uint32_t sign = (bits >> 24) & 0x80u;
  std::uint32_t magnitude = bits & 0x7FFFFFFFu;
  std::uint32_t result;
  if (magnitude > 0x43E80000u) {
    // Above 464 = 448 + half an ulp (464 itself ties to 448, whose mantissa
    // is even): overflow, Inf or NaN.
    result = (Saturate && magnitude <= 0x7F800000u) ? 0x7Eu : 0x7Fu;
  } else if (magnitude >= 0x3C800000u) {
    // Normal (>= 2^-6): rebias 127 -> 7, add half an ulp minus one plus the
    // kept lsb (ties to even), drop the 20 low mantissa bits. A carry out of
    // the mantissa bumps the exponent, which is the right answer.
    magnitude += 0x7FFFFu + ((magnitude >> 20) & 1u) - (120u << 23);
    result = magnitude >> 20;
  } else {
    // Subnormal or zero: adding 2^14 puts the float's lsb at 2^-9, the
    // e4m3fn subnormal quantum, so the FPU rounds to nearest even for us;
    // the low bits are then the count of quanta (8 is 2^-6, the smallest
    // normal, whose encoding is also 8).
    result = bits_of(float_of(magnitude) + 16384.0f) - 0x46800000u;
  }
  return static_cast<std::uint8_t>(sign | result);
}

// e4m3fn -> float, exact.
inline float e4m3fn_to_float(std::uint8_t encoding) noexcept {
  const std::uint32_t sign = static_cast<std::uint32_t>(encoding & 0x80u) << 24;
  const std::uint32_t magnitude = encoding & 0x7Fu;
  std::uint32_t bits;
  if (magnitude == 0x7Fu) {
    bits = 0x7FC00000u;  // the NaN; its sign is kept below
  } else if (magnitude >= 0x08u) {
    bits = (magnitude << 20) + (120u << 23);  // normal: rebias 7 -> 127
  } else {
    bits = bits_of(static_cast<float>(magnitude) * 0x1p-9f);  // m * 2^-9
  }
  return float_of(sign | bits);
}

}  // namespace baseline
