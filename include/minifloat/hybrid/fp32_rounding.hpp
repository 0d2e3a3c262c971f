// The float32 operations the accumulation models are made of: one rounding
// of an exact value in a mode, and the fused multiply-add of the x86 dot
// product instructions, which treat denormal inputs as zero (DAZ) and flush
// results that are tiny after rounding to zero (FTZ).
#pragma once

#include <cmath>
#include <limits>

#include "../config.hpp"
#include "wide_sum.hpp"

namespace mf::hybrid {

// The two roundings a model's float32 accumulator can use.
enum class fp32_rounding : unsigned char { nearest_even, toward_zero };

// x (a double) rounded to float32 once. With nearest-even an overflow is
// +-Inf; toward zero it is +-FLT_MAX (IEEE 754 clause 7.4).
inline float round_to_fp32(double x, fp32_rounding mode) noexcept {
  const float nearest = static_cast<float>(x);  // the default environment rounds to nearest even
  if (mode == fp32_rounding::nearest_even || std::isnan(x) || std::isinf(x)) return nearest;
  if (std::fabs(static_cast<double>(nearest)) > std::fabs(x)) {
    return std::nextafter(nearest, 0.0f);
  }
  return nearest;
}

// An exact sum rounded to float32 once: round-to-odd to 53 bits keeps the
// one rounding (see wide_sum::round_to_odd).
inline float round_to_fp32(const wide_sum& sum, fp32_rounding mode) noexcept {
  return round_to_fp32(sum.round_to_odd(), mode);
}

// A denormal float32 input read as a zero of its sign (DAZ).
inline float denormal_as_zero(float x) noexcept {
  return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x;
}

// The rare case of fma_ftz below, r = fma(a, b, c) with |r| <= 2^-126 (a
// value just below 2^-126 can round up to it on the subnormal grid): the
// exact value may be tiny, or an exact zero. Tiny nonzero sums need both
// terms below 2^-60 (terms that nearly cancel above that are multiples of
// 2^-108, and so is their sum), so scaling c and the smaller factor by 2^64
// is exact, and a sum near 2^-126 lands in the normal range, where fma
// rounds to 24 bits. Out of line, so that fma_ftz itself is small enough
// for g++ to inline into the models' loops.
MF_NOINLINE inline float fma_ftz_small_result(float a, float b, float c, float r) noexcept {
  const double product = static_cast<double>(a) * static_cast<double>(b);
  if (std::fabs(product) >= 0x1p-60 || std::fabs(c) >= 0x1p-60f) return r;  // r is exact
  const bool scale_a = std::fabs(a) <= std::fabs(b);
  const float scaled = std::fma(scale_a ? a * 0x1p64f : a, scale_a ? b : b * 0x1p64f,
                                c * 0x1p64f);
  if (std::fabs(scaled) < 0x1p-62f) return std::copysign(0.0f, scaled == 0 ? r : scaled);
  return std::ldexp(scaled, -64);
}

// fma(a, b, c) as VDPBF16PS, TDPBF16PS and TDPFP16PS compute each step
// (Intel SDM): inputs already DAZ-treated by the caller as the instruction
// requires, the accumulator `c` read with DAZ, one rounding to nearest even,
// and a result whose value rounded to 24 bits with an unbounded exponent is
// below 2^-126 flushed to a zero of its sign (tininess after rounding, as
// two FMAs decide it with MXCSR.FTZ = DAZ = 1). This differs from testing
// the gradually underflowed result in [2^-126 - 2^-150, 2^-126 - 2^-151),
// which rounds to 2^-126 on the subnormal grid but not with 24 bits.
inline float fma_ftz(float a, float b, float c) noexcept {
  c = denormal_as_zero(c);
  const float r = std::fma(a, b, c);
  if (!(std::fabs(r) <= 0x1p-126f)) return r;  // above 2^-126, Inf or NaN
  return fma_ftz_small_result(a, b, c, r);
}

// The one NaN every model returns by default, 0x7FC00000
// (nan_payload::canonical; accumulation.hpp's nan_payload::propagate gives
// the instruction's NaN instead).
inline constexpr float model_nan = std::numeric_limits<float>::quiet_NaN();

}  // namespace mf::hybrid
