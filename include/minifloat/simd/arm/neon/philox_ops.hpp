// NEON operations for the Philox4x32-10 generator (bulk/generic/
// philox_lanes.hpp). Layout: one block per 32-bit lane, vector k holding
// word k of four blocks. A product is UMULL / UMULL2 (32x32->64) whose
// halves UZP1 / UZP2 gather into a low and a high vector; ST4 interleaves
// the four word vectors into stream order.
#pragma once

#include <cstdint>

#include "../../../config.hpp"

// MF_HAS_NEON_KERNELS (target/dispatch.hpp, included first by every includer): set on
// AArch64, and by the SIMDe test (tests/bulk/neon_simde_test.cpp) elsewhere.
#if MF_HAS_NEON_KERNELS
#include <arm_neon.h>

namespace mf::simd::neon {

struct philox_ops {
  using vec = uint32x4_t;
  static constexpr int blocks_per_vector = 4;
  static constexpr int lanes = 4;
  static constexpr int chains = 4;
  static MF_FORCE_INLINE vec splat(std::uint32_t x) noexcept { return vdupq_n_u32(x); }
  static MF_FORCE_INLINE vec multiplier(std::uint32_t m) noexcept { return vdupq_n_u32(m); }
  // The 64-bit counters first .. first + 3 split into low and high words.
  static MF_FORCE_INLINE void counter_words(std::uint64_t first, vec& lo, vec& hi) noexcept {
    const uint64x2_t base = vdupq_n_u64(first);
    const uint32x4_t b01 =
        vreinterpretq_u32_u64(vaddq_u64(base, vcombine_u64(vcreate_u64(0), vcreate_u64(1))));
    const uint32x4_t b23 =
        vreinterpretq_u32_u64(vaddq_u64(base, vcombine_u64(vcreate_u64(2), vcreate_u64(3))));
    lo = vuzp1q_u32(b01, b23);
    hi = vuzp2q_u32(b01, b23);
  }
  static MF_FORCE_INLINE void multiply(vec x, vec m, vec& hi, vec& lo) noexcept {
    const uint32x4_t p01 = vreinterpretq_u32_u64(vmull_u32(vget_low_u32(x), vget_low_u32(m)));
    const uint32x4_t p23 = vreinterpretq_u32_u64(vmull_high_u32(x, m));
    lo = vuzp1q_u32(p01, p23);
    hi = vuzp2q_u32(p01, p23);
  }
  static MF_FORCE_INLINE vec bit_xor(vec a, vec b) noexcept { return veorq_u32(a, b); }
  static MF_FORCE_INLINE vec xor3(vec a, vec b, vec c) noexcept {
    return veorq_u32(veorq_u32(a, b), c);
  }
  // The blocks' words in stream order: 64 bytes.
  static MF_FORCE_INLINE void store_blocks(vec x0, vec x1, vec x2, vec x3,
                                           std::uint8_t* bytes) noexcept {
    const uint32x4x4_t words = {{x0, x1, x2, x3}};
    vst4q_u32(reinterpret_cast<std::uint32_t*>(bytes), words);
  }
  // 4 lanes of 1, 2 or 4 stream bytes each, widened to 32 bits, shifted left.
  static MF_FORCE_INLINE void store_widened(const std::uint8_t* bytes, int lane_bytes, int shift,
                                            std::uint32_t* out) noexcept {
    uint32x4_t v;
    if (lane_bytes == 1) {
      std::uint32_t four;
      __builtin_memcpy(&four, bytes, 4);
      v = vmovl_u16(vget_low_u16(vmovl_u8(vcreate_u8(four))));
    } else if (lane_bytes == 2) {
      v = vmovl_u16(vld1_u16(reinterpret_cast<const std::uint16_t*>(bytes)));
    } else {
      v = vld1q_u32(reinterpret_cast<const std::uint32_t*>(bytes));
    }
    vst1q_u32(out, vshlq_u32(v, vdupq_n_s32(shift)));
  }
};

}  // namespace mf::simd::neon
#endif
