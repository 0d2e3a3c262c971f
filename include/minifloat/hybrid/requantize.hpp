// The requantization of the integer MatMul (I8 x I8 -> I8, U8 x U8 -> U8):
// the int32 accumulator times the one float32 scale, rounded half to even
// and saturated to the output's range, by one of two rules
// (matmul_options::requant): `exact` (the product rounded once) or `fp32`
// (the accumulator and the product each rounded to float32, as a float32
// pipeline computes it). The reference (matmul.hpp) and the fast kernels
// (kernels/integer_driver.hpp, and the vector forms in
// kernels/x86/avx2/requantize.hpp and kernels/x86/avx512/requantize.hpp)
// all take their constants from here.
#pragma once

#include <cmath>
#include <cstdint>

#include "matmul_options.hpp"

namespace mf::hybrid::detail {

// One request's requantization, its scale taken apart once: operator()
// gives the output byte of an accumulator (the saturated result's
// two's-complement low byte).
struct requantizer {
  requantizer(float scale_, requantization requant, bool signed_output) noexcept
      : scale(scale_),
        exact(requant == requantization::exact),
        lo(signed_output ? -128 : 0),
        hi(signed_output ? 127 : 255) {
    int e = 0;
    const float f = std::frexp(scale, &e);
    significand = static_cast<long long>(std::ldexp(f, 24));  // signed, |m| < 2^24
    exponent = e - 24;
  }

  std::uint8_t operator()(std::int32_t acc) const noexcept {
    const long long q = exact ? exact_rule(acc) : fp32_rule(acc);
    return static_cast<std::uint8_t>(static_cast<unsigned long long>(q) & 0xFFu);
  }

  // round-half-even(acc * scale), acc * scale exact: scale = m * 2^e with
  // |m| < 2^24, so p = acc * m (|p| < 2^55) is exact in int64. Written
  // without branches on the data (random accumulators mispredict them).
  long long exact_rule(std::int32_t acc) const noexcept {
    const long long p = static_cast<long long>(acc) * significand;
    const bool negative = p < 0;
    const unsigned long long mag =
        negative ? 0ull - static_cast<unsigned long long>(p) : static_cast<unsigned long long>(p);
    long long r;
    if (exponent >= 0) {
      // |p| >= 1 gives |p| * 2^e >= 2^e: past every 8-bit range from e = 9 on.
      r = mag == 0 ? 0 : (exponent >= 9 ? hi + 1 : static_cast<long long>(mag << exponent));
    } else if (exponent <= -63) {
      r = 0;  // below one half: |p| < 2^56 <= 2^(-e-1)
    } else {
      const int s = -exponent;
      const unsigned long long q = mag >> s;
      const unsigned long long rest = mag & ((1ull << s) - 1u);
      const unsigned long long half = 1ull << (s - 1);
      r = static_cast<long long>(q + ((rest > half) | ((rest == half) & (q & 1u))));
    }
    r = negative ? -r : r;
    return r < lo ? lo : (r > hi ? hi : r);
  }

  // RN32(RN32(float(acc)) * scale) rounded to an integer by nearbyint, in
  // the current rounding mode (half-even in the default environment), after
  // clamping to [lo, hi] (rounding is monotonic, so the saturated result is
  // the same, and the clamp keeps an infinite product in range).
  long long fp32_rule(std::int32_t acc) const noexcept {
    float y = static_cast<float>(acc) * scale;
    const auto low = static_cast<float>(lo), high = static_cast<float>(hi);
    y = y < low ? low : (y > high ? high : y);
    return static_cast<long long>(std::nearbyint(y));
  }

  // The exact rule's usual case, the one the vector form computes: a right
  // shift by 1 to 62 bits.
  bool exact_by_right_shift() const noexcept { return exponent < 0 && exponent > -63; }

  float scale;
  bool exact;
  long long lo, hi;
  long long significand = 0;
  int exponent = 0;
};

}  // namespace mf::hybrid::detail
