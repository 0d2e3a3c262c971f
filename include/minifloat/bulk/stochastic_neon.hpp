// Stochastic rounding of 4 floats at once (NEON): the steps of
// stochastic_avx512.hpp (see there for the rule) on uint32x4_t, with vector
// masks as in stochastic_avx2.hpp. Integer instructions only, so the result
// does not depend on FPCR.
#pragma once

#include "neon.hpp"

#if MF_BULK_NEON

namespace mf {
namespace bulk {
namespace neon_kernels {

// x: float bit patterns; r_aligned: random words << (32 - random_bits).
template <class F, overflow Ovf>
inline uint32x4_t encode4_stochastic(uint32x4_t x, uint32x4_t r_aligned) {
  using C = detail::encode_constants<F, rounding::nearest_even, Ovf>;
  const uint32x4_t a = vandq_u32(x, splat(0x7FFFFFFFu));
  const uint32x4_t neg = vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_u32(x), 31));
  const uint32x4_t E = vshrq_n_u32(a, 23);
  const uint32x4_t Eeff = vmaxq_u32(E, splat(1));
  const uint32x4_t sig = vsubq_u32(a, vshlq_n_u32(vsubq_u32(Eeff, splat(1)), 23));
  const int32x4_t Es = vreinterpretq_s32_u32(Eeff);
  // s is at most 64 (a 24-bit significand shifted right by 56 or more is
  // 0 anyway), which keeps every USHL count below in -64..32: USHL reads its
  // count from the lane's low byte, signed.
  int32x4_t s = vmaxq_s32(vsubq_s32(splat_signed(C::shift_base), Es),
                          splat_signed(C::normal_shift));
  if constexpr (C::shift_base - 1 > 64) s = vminq_s32(s, splat_signed(64));
  const uint32x4_t base = vshlq_n_u32(
      vreinterpretq_u32_s32(vmaxq_s32(vsubq_s32(Es, splat_signed(C::base_offset)),
                                      vdupq_n_s32(0))),
      C::M);
  const uint32x4_t kept = shift_right(sig, s);
  // D, the top 32 bits of the discarded fraction: sig << (32 - s) for
  // s <= 32, sig >> (s - 32) above; USHL with the count 32 - s does both
  // (a negative count shifts right, and 32 or more either way gives 0).
  const uint32x4_t D = vshlq_u32(sig, vsubq_s32(splat_signed(32), s));
  // Carry out of D + r: the sum wrapped below r. base + kept + carry, the
  // carry mask being all ones (-1) where it carried.
  const uint32x4_t carry = vcltq_u32(vaddq_u32(D, r_aligned), r_aligned);
  const uint32x4_t mag = vsubq_u32(vaddq_u32(base, kept), carry);
  uint32x4_t res = mag;
  if constexpr (F::is_signed) {
    res = vorrq_u32(res, vandq_u32(neg, splat(C::sign_mask)));
  }
  if constexpr (F::encoding == specials::fnuz) {
    res = vbicq_u32(res, vceqq_u32(mag, vdupq_n_u32(0)));
  }
  const uint32x4_t overflowed = vcgtq_u32(mag, splat(C::max_finite));
  res = vbslq_u32(overflowed, select_by_sign(neg, C::overflow_pos, C::overflow_neg), res);
  if constexpr (!F::has_subnormals) {
    const uint32x4_t below =
        vcltq_u32(E, splat(static_cast<unsigned>(F::min_exponent + 127)));
    res = vbicq_u32(res, below);
    if constexpr (F::min_exponent == -127) {
      // [2^-127, 2^-126): encoding 0, or 1 on a carry (see the AVX-512 kernel).
      const uint32x4_t carry0 =
          vcltq_u32(vaddq_u32(vshlq_n_u32(a, 10), r_aligned), r_aligned);
      const uint32x4_t up =
          vandq_u32(vandq_u32(carry0, vcgtq_u32(a, splat(0x3FFFFFu))), splat(1));
      res = vbslq_u32(vceqq_u32(E, vdupq_n_u32(0)), up, res);
    }
    const uint32x4_t negative_nonzero = vbicq_u32(neg, vceqq_u32(a, vdupq_n_u32(0)));
    res = vbslq_u32(negative_nonzero, splat(F::positive_nan), res);
  }
  const uint32x4_t special = vcgtq_u32(a, splat(0x7F7FFFFFu));
  const uint32x4_t is_inf = vceqq_u32(a, splat(0x7F800000u));
  const uint32x4_t special_value =
      vbslq_u32(is_inf, select_by_sign(neg, C::inf_pos, C::inf_neg),
                select_by_sign(neg, C::nan_pos, C::nan_neg));
  return vbslq_u32(special, special_value, res);
}

}  // namespace neon_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_NEON
