// NEON (AArch64 Advanced SIMD) operations on four 32-bit integer lanes, for
// the generic bulk kernels (bulk/generic/). NEON is baseline on AArch64: no
// target region. A mask is a vector of all-ones / all-zero lanes.
#pragma once

#include <cstdint>

#include "../../../config.hpp"

#if defined(__aarch64__) && !defined(MINIFLOAT_BULK_NO_SIMD)
#include <arm_neon.h>

namespace mf::simd::neon {

struct int32_ops {
  using vec = uint32x4_t;
  using mask = uint32x4_t;
  static constexpr int lanes = 4;
  static MF_FORCE_INLINE vec splat(std::uint32_t x) noexcept { return vdupq_n_u32(x); }
  static MF_FORCE_INLINE vec bit_and(vec a, vec b) noexcept { return vandq_u32(a, b); }
  static MF_FORCE_INLINE vec bit_or(vec a, vec b) noexcept { return vorrq_u32(a, b); }
  static MF_FORCE_INLINE vec add(vec a, vec b) noexcept { return vaddq_u32(a, b); }
  template <int Bits>
  static MF_FORCE_INLINE vec shift_left(vec a) noexcept {
    return vshlq_n_u32(a, Bits);
  }
  static MF_FORCE_INLINE mask equal(vec a, vec b) noexcept { return vceqq_u32(a, b); }
  static MF_FORCE_INLINE mask less(vec a, vec b) noexcept { return vcltq_u32(a, b); }
  static MF_FORCE_INLINE mask greater(vec a, vec b) noexcept { return vcgtq_u32(a, b); }
  static MF_FORCE_INLINE mask is_zero(vec a) noexcept { return vceqq_u32(a, vdupq_n_u32(0)); }
  // where(m): if_true, else if_false.
  static MF_FORCE_INLINE vec select(mask m, vec if_true, vec if_false) noexcept {
    return vbslq_u32(m, if_true, if_false);
  }
  // The float bits of a * 2^Exponent, for integer lanes below 2^24 whose
  // product is a normal float or zero, built with a count of leading zeros
  // instead of a float multiply (so FPCR cannot change it): with t = clz(a),
  // the top bit moves to bit 23 by a left shift of t - 8 and stands for
  // 2^(Exponent + 31 - t); adding the exponent field minus one absorbs that
  // hidden bit. A zero lane (clz 32, shifted out) is cleared at the end.
  template <int Exponent>
  static MF_FORCE_INLINE vec times_power_of_two(vec a) noexcept {
    const int32x4_t t = vreinterpretq_s32_u32(vclzq_u32(a));
    const uint32x4_t normalised = vshlq_u32(a, vsubq_s32(t, vdupq_n_s32(8)));
    const int32x4_t field_minus_one = vsubq_s32(vdupq_n_s32(Exponent + 31 + 127 - 1), t);
    const uint32x4_t bits =
        vaddq_u32(normalised, vshlq_n_u32(vreinterpretq_u32_s32(field_minus_one), 23));
    return vbicq_u32(bits, is_zero(a));
  }
};

}  // namespace mf::simd::neon
#endif
