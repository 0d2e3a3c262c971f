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
  // s at most 64 (a 24-bit significand shifted right by 56 or more is 0
  // anyway) keeps every USHL count below in -64..32: USHL reads its count
  // from the lane's low byte, signed.
  const float_parts4 p = split4<C, 64>(x);
  const uint32x4_t kept = shift_right(p.sig, p.s);
  // D, the top 32 bits of the discarded fraction: sig << (32 - s) for
  // s <= 32, sig >> (s - 32) above; USHL with the count 32 - s does both
  // (a negative count shifts right, and 32 or more either way gives 0).
  const uint32x4_t D = vshlq_u32(p.sig, vsubq_s32(splat_signed(32), p.s));
  // Carry out of D + r: the sum wrapped below r. base + kept + carry, the
  // carry mask being all ones (-1) where it carried.
  const uint32x4_t carry = vcltq_u32(vaddq_u32(D, r_aligned), r_aligned);
  const uint32x4_t mag = vsubq_u32(vaddq_u32(p.base, kept), carry);
  uint32x4_t res = signed_encoding<F, C>(mag, p.neg);
  if constexpr (!F::has_subnormals) {
    res = vbicq_u32(res, below_min_normal<F>(p.E));
    if constexpr (F::min_exponent == -127) {
      // [2^-127, 2^-126): encoding 0, or 1 on a carry (see the AVX-512 kernel).
      const uint32x4_t carry0 =
          vcltq_u32(vaddq_u32(vshlq_n_u32(p.a, 10), r_aligned), r_aligned);
      const uint32x4_t up =
          vandq_u32(vandq_u32(carry0, vcgtq_u32(p.a, splat(0x3FFFFFu))), splat(1));
      res = vbslq_u32(vceqq_u32(p.E, vdupq_n_u32(0)), up, res);
    }
  }
  return with_special_inputs<F, C>(res, p.a, p.neg);
}

}  // namespace neon_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_NEON
