// The float and double "vectors" of one lane: lets a generic kernel written over vector
// operations run on any CPU (and be tested on every machine) as the scalar
// fallback. fma is std::fma: one rounding, as the vector FMAs.
#pragma once

#include <cmath>
#include <cstdint>

#include "../../config.hpp"
#include "../../target/region.hpp"

MF_SIMD_REGION_BEGIN_SCALAR
namespace mf::simd::scalar {

struct float_ops {
  using value = float;
  using vec = float;
  static constexpr int lanes = 1;
  static MF_FORCE_INLINE vec zero() noexcept { return 0.0f; }
  static MF_FORCE_INLINE vec load(const float* p) noexcept { return *p; }
  static MF_FORCE_INLINE vec loadu(const float* p) noexcept { return *p; }
  // float32 values in (the double_ops' widening load, here a plain load).
  static MF_FORCE_INLINE vec load_widened(const float* p) noexcept { return *p; }
  // Two BF16-exact values as one VDPBF16PS pair word (even k in the low
  // half, odd k in the high half), carried in a float's bits.
  static MF_FORCE_INLINE vec bf16_pairs(vec even, vec odd) noexcept {
    return mf::detail::bit_cast<float>((mf::detail::bit_cast<std::uint32_t>(even) >> 16) |
                                       (mf::detail::bit_cast<std::uint32_t>(odd) & 0xFFFF0000u));
  }
  static MF_FORCE_INLINE vec broadcast(float x) noexcept { return x; }
  // a * b + c, rounded once.
  static MF_FORCE_INLINE vec fma(vec a, vec b, vec c) noexcept { return std::fma(a, b, c); }
  static MF_FORCE_INLINE void store(float* p, vec v) noexcept { *p = v; }
  static MF_FORCE_INLINE void storeu(float* p, vec v) noexcept { *p = v; }
  static MF_FORCE_INLINE vec add(vec a, vec b) noexcept { return a + b; }
  static MF_FORCE_INLINE vec mul(vec a, vec b) noexcept { return a * b; }
  static MF_FORCE_INLINE vec div(vec a, vec b) noexcept { return a / b; }
  static MF_FORCE_INLINE vec abs(vec a) noexcept { return std::fabs(a); }
  // a > b ? a : b: b when either is NaN (as x86 MAXPS).
  static MF_FORCE_INLINE vec max(vec a, vec b) noexcept { return a > b ? a : b; }
  static MF_FORCE_INLINE float reduce_max(vec a) noexcept { return a; }
  static MF_FORCE_INLINE bool any_nan(vec a) noexcept { return std::isnan(a); }
  // a, or `replacement` where a is NaN.
  static MF_FORCE_INLINE vec nan_to(vec a, vec replacement) noexcept {
    return std::isnan(a) ? replacement : a;
  }
  // y where y is NaN, `otherwise` elsewhere.
  static MF_FORCE_INLINE vec where_nan(vec y, vec otherwise) noexcept {
    return std::isnan(y) ? y : otherwise;
  }

  // The steps of the reduced_precision kernel (hybrid/kernels/generic/
  // reduced_tile.hpp). Without FMAs in the directed roundings (std::fma
  // rounds in the current mode, which the kernels leave at nearest even),
  // that kernel rounds a sum s = RN(c + p) and its exact error e (TwoSum)
  // in the wanted direction with the two nudges below.
  static constexpr bool has_directed_fma = false;
  // Whether rounding_begin / rounding_end (x86/avx2/vector_ops.hpp) switch
  // the rounding direction of plain float operations: not here.
  static constexpr bool has_rounding_control = false;
  static MF_FORCE_INLINE vec sub(vec a, vec b) noexcept { return a - b; }
  static MF_FORCE_INLINE vec broadcast_bits(std::uint32_t bits) noexcept {
    return mf::detail::bit_cast<float>(bits);
  }
  // s one step toward zero where s + e (e its exact error) lies nearer to
  // zero than s: e != 0 with the opposite sign. Such an s is finite and
  // nonzero, so the step is an integer decrement of its magnitude.
  static MF_FORCE_INLINE vec nudge_toward_zero(vec s, vec e) noexcept {
    const auto bits = mf::detail::bit_cast<std::uint32_t>(s);
    const bool nearer_zero = std::signbit(s) ? e > 0 : e < 0;  // false for a NaN e
    return nearer_zero ? mf::detail::bit_cast<float>(bits - 1u) : s;
  }
  // s one step toward -Inf where s + e lies below s (e < 0): the magnitude
  // one step down for a positive s, up for a negative one.
  static MF_FORCE_INLINE vec nudge_down(vec s, vec e) noexcept {
    const auto bits = mf::detail::bit_cast<std::uint32_t>(s);
    if (!(e < 0)) return s;
    return mf::detail::bit_cast<float>(std::signbit(s) ? bits + 1u : bits - 1u);
  }
  // y's bits ANDed with `keep`'s: with keep = sign, exponent and the
  // leading significand bits, y cut toward zero to those bits.
  static MF_FORCE_INLINE vec bit_and(vec y, vec keep) noexcept {
    return mf::detail::bit_cast<float>(mf::detail::bit_cast<std::uint32_t>(y) &
                                       mf::detail::bit_cast<std::uint32_t>(keep));
  }
  // y cut to the bits `keep` keeps, toward -Inf: a negative y with any bit
  // cut has its magnitude rounded up (a carry out of the significand moves
  // into the exponent, as it should). NaN lanes are returned unchanged;
  // floor_significand_of_number is the same for a y that is not NaN (a
  // NaN's payload could carry into its sign).
  static MF_FORCE_INLINE vec floor_significand_of_number(vec y, vec keep) noexcept {
    const auto mask = mf::detail::bit_cast<std::uint32_t>(keep);
    auto bits = mf::detail::bit_cast<std::uint32_t>(y);
    if (std::signbit(y)) bits += ~mask;
    return mf::detail::bit_cast<float>(bits & mask);
  }
  static MF_FORCE_INLINE vec floor_significand(vec y, vec keep) noexcept {
    return std::isnan(y) ? y : floor_significand_of_number(y, keep);
  }

  // The block variant of reduced_precision (hybrid/kernels/generic/
  // reduced_block_tile.hpp): integer lanes beside the float ones.
  using ivec = std::int32_t;
  static MF_FORCE_INLINE ivec int_broadcast(std::int32_t x) noexcept { return x; }
  static MF_FORCE_INLINE ivec int_add(ivec a, ivec b) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) + static_cast<std::uint32_t>(b));
  }
  static MF_FORCE_INLINE ivec int_sub(ivec a, ivec b) noexcept {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(a) - static_cast<std::uint32_t>(b));
  }
  // The larger of m (a magnitude) and |p|, compared as bit patterns: for
  // numbers the larger magnitude; Inf and NaN are above every number.
  static MF_FORCE_INLINE vec max_magnitude(vec m, vec p) noexcept {
    const std::uint32_t a = mf::detail::bit_cast<std::uint32_t>(m);
    const std::uint32_t b = mf::detail::bit_cast<std::uint32_t>(p) & 0x7FFFFFFFu;
    return mf::detail::bit_cast<float>(a > b ? a : b);
  }
  // Whether the magnitude pattern m is at or above `limit`'s (Inf and NaN
  // always are).
  static MF_FORCE_INLINE bool any_at_least(vec m, vec limit) noexcept {
    return mf::detail::bit_cast<std::uint32_t>(m) >= mf::detail::bit_cast<std::uint32_t>(limit);
  }
  // The biased exponent field of a non-negative finite m, and 2^(e - 127)
  // from a biased exponent e in 1..254.
  static MF_FORCE_INLINE ivec biased_exponent(vec m) noexcept {
    return static_cast<std::int32_t>(mf::detail::bit_cast<std::uint32_t>(m) >> 23);
  }
  static MF_FORCE_INLINE vec power_of_two(ivec biased) noexcept {
    return mf::detail::bit_cast<float>(static_cast<std::uint32_t>(biased) << 23);
  }
  // v (an integer value below 2^31 in magnitude, or any value whose cut is)
  // to int32 toward zero / toward -Inf.
  static MF_FORCE_INLINE ivec to_int_toward_zero(vec v) noexcept { return static_cast<std::int32_t>(std::trunc(v)); }
  static MF_FORCE_INLINE ivec to_int_floor(vec v) noexcept { return static_cast<std::int32_t>(std::floor(v)); }
  // An int32 rounded to float32 toward zero / toward -Inf: to nearest,
  // then one step back where that went past it (|x| < 2^31 - 128, so the
  // rounded value converts back exactly).
  static MF_FORCE_INLINE vec from_int_toward_zero(ivec x) noexcept {
    const float f = static_cast<float>(x);
    return nudge_toward_zero(f, static_cast<float>(int_sub(x, static_cast<std::int32_t>(f))));
  }
  static MF_FORCE_INLINE vec from_int_floor(ivec x) noexcept {
    const float f = static_cast<float>(x);
    return nudge_down(f, static_cast<float>(int_sub(x, static_cast<std::int32_t>(f))));
  }
};

// One float64 lane, with the few steps the exact kernels need beyond FMA.
struct double_ops {
  using value = double;
  using vec = double;
  static constexpr int lanes = 1;
  static MF_FORCE_INLINE vec zero() noexcept { return 0.0; }
  static MF_FORCE_INLINE vec loadu(const double* p) noexcept { return *p; }
  static MF_FORCE_INLINE vec broadcast(double x) noexcept { return x; }
  static MF_FORCE_INLINE vec fma(vec a, vec b, vec c) noexcept { return std::fma(a, b, c); }
  static MF_FORCE_INLINE void storeu(double* p, vec v) noexcept { *p = v; }
  static MF_FORCE_INLINE vec add(vec a, vec b) noexcept { return a + b; }
  static MF_FORCE_INLINE vec sub(vec a, vec b) noexcept { return a - b; }
  // float32 values in, float32 values out (nearest even, as static_cast).
  static MF_FORCE_INLINE vec load_widened(const float* p) noexcept {
    return static_cast<double>(*p);
  }
  static MF_FORCE_INLINE void store_narrowed(float* p, vec v) noexcept { *p = static_cast<float>(v); }
  // v rounded to float32 toward zero (an overflow is +-FLT_MAX, IEEE 754
  // 7.4), as a double; NaN stays NaN.
  static MF_FORCE_INLINE vec narrowed_toward_zero(vec v) noexcept {
    float f = static_cast<float>(v);
    if (std::fabs(static_cast<double>(f)) > std::fabs(v)) f = std::nextafter(f, 0.0f);
    return static_cast<double>(f);
  }
  // v rounded to float32 to nearest even, as a double.
  static MF_FORCE_INLINE vec narrowed(vec v) noexcept {
    return static_cast<double>(static_cast<float>(v));
  }
  // t, the rounded-to-nearest sum, made round-to-odd given the sum's exact
  // error: if error != 0 and t's last bit is even, t's neighbour toward the
  // error (odd). NaN t stays (error is NaN: no step).
  static MF_FORCE_INLINE vec round_to_odd(vec t, vec error) noexcept {
    auto bits = mf::detail::bit_cast<std::uint64_t>(t);
    if ((error < 0 || error > 0) && (bits & 1u) == 0) {  // a NaN error (Inf - Inf) takes no step
      bits = std::signbit(error) == std::signbit(t) ? bits + 1 : bits - 1;  // magnitude up or down
    }
    return mf::detail::bit_cast<double>(bits);
  }
};

}  // namespace mf::simd::scalar
MF_SIMD_REGION_END_SCALAR
