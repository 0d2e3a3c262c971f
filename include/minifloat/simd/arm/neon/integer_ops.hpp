// NEON (AArch64 Advanced SIMD) operations on four 32-bit integer lanes, for
// the generic kernels (lanes/, bulk/generic/, mx/generic/). NEON is baseline on AArch64: no
// target region. A mask is a vector of all-ones / all-zero lanes.
#pragma once

#include <cstdint>

#include "../../../config.hpp"
#include "../../float_add_rounding.hpp"

// MF_HAS_NEON_KERNELS (target/dispatch.hpp, included first by every includer): set on
// AArch64, and by the SIMDe test (tests/bulk/neon_simde_test.cpp) elsewhere.
#if MF_HAS_NEON_KERNELS
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
  static MF_FORCE_INLINE vec sub(vec a, vec b) noexcept { return vsubq_u32(a, b); }
  // The fast path's float add would follow FPCR, which the kernels do not
  // read: only the formats whose fast path is integer-only take it.
  static constexpr float_add_rounding float_add = float_add_rounding::not_used;
  // The float bits of a * b (as floats), rounded as FPCR says: as the
  // scalar product of the same thread.
  static MF_FORCE_INLINE vec multiply_float(vec a, vec b) noexcept {
    return vreinterpretq_u32_f32(vmulq_f32(vreinterpretq_f32_u32(a), vreinterpretq_f32_u32(b)));
  }
  static MF_FORCE_INLINE vec load(const void* p) noexcept {
    return vld1q_u32(static_cast<const std::uint32_t*>(p));
  }
  static MF_FORCE_INLINE vec load_aligned(const void* p) noexcept { return load(p); }
  static MF_FORCE_INLINE void store(void* p, vec a) noexcept {
    vst1q_u32(static_cast<std::uint32_t*>(p), a);
  }
  // Four vectors of 1- or 2-byte encodings (16 of them), zero-extended to
  // the lanes, in order: one 16-byte load (two for 2-byte encodings) and
  // the widening moves, not four loads of a quarter vector each.
  static constexpr bool widens_four_at_once = true;
  template <class S>
  static MF_FORCE_INLINE void load_four_widened(const S* in, vec& v0, vec& v1, vec& v2,
                                                vec& v3) noexcept {
    static_assert(sizeof(S) == 1 || sizeof(S) == 2, "one or two byte encodings");
    uint16x8_t low, high;
    if constexpr (sizeof(S) == 1) {
      const uint8x16_t b = vld1q_u8(reinterpret_cast<const std::uint8_t*>(in));
      low = vmovl_u8(vget_low_u8(b));
      high = vmovl_u8(vget_high_u8(b));
    } else {
      low = vld1q_u16(reinterpret_cast<const std::uint16_t*>(in));
      high = vld1q_u16(reinterpret_cast<const std::uint16_t*>(in) + 8);
    }
    v0 = vmovl_u16(vget_low_u16(low));
    v1 = vmovl_u16(vget_high_u16(low));
    v2 = vmovl_u16(vget_low_u16(high));
    v3 = vmovl_u16(vget_high_u16(high));
  }
  // One vector of 1- or 2-byte encodings (four of them), zero-extended to
  // the lanes.
  template <class S>
  static MF_FORCE_INLINE vec load_widened(const S* in) noexcept {
    static_assert(sizeof(S) == 1 || sizeof(S) == 2, "one or two byte encodings");
    if constexpr (sizeof(S) == 1) {
      std::uint32_t word = 0;
      __builtin_memcpy(&word, in, 4);
      return vmovl_u16(vget_low_u16(vmovl_u8(vreinterpret_u8_u32(vdup_n_u32(word)))));
    } else {
      return vmovl_u16(vld1_u16(reinterpret_cast<const std::uint16_t*>(in)));
    }
  }
  static MF_FORCE_INLINE vec max_unsigned(vec a, vec b) noexcept { return vmaxq_u32(a, b); }
  static MF_FORCE_INLINE std::uint32_t reduce_max_unsigned(vec a) noexcept { return vmaxvq_u32(a); }
  // Lane b of the result: the largest lane of m[b], by pairwise maxima.
  static MF_FORCE_INLINE vec reduce_max_each(const vec (&m)[lanes]) noexcept {
    return vpmaxq_u32(vpmaxq_u32(m[0], m[1]), vpmaxq_u32(m[2], m[3]));
  }
  // The low bytes of the lanes (each below 256) to out[0..4).
  static MF_FORCE_INLINE void store_low_bytes(void* out, vec a) noexcept {
    const uint16x4_t half = vmovn_u32(a);
    const std::uint32_t word =
        vget_lane_u32(vreinterpret_u32_u8(vmovn_u16(vcombine_u16(half, half))), 0);
    __builtin_memcpy(out, &word, 4);
  }
  // Lanes below 16, two to a byte (lane 2i in the low nibble of byte i), to
  // out[0..2): the packed FP4 layout.
  static MF_FORCE_INLINE void store_nibble_pairs(void* out, vec a) noexcept {
    // The low byte of doubleword i becomes lane 2i | lane 2i+1 << 4.
    const uint64x2_t q = vreinterpretq_u64_u32(a);
    const uint32x2_t pairs = vmovn_u64(vorrq_u64(q, vshrq_n_u64(q, 28)));
    const uint16x4_t half = vmovn_u32(vcombine_u32(pairs, pairs));
    const std::uint16_t word =
        vget_lane_u16(vreinterpret_u16_u8(vmovn_u16(vcombine_u16(half, half))), 0);
    __builtin_memcpy(out, &word, 2);
  }
  // A table of 8 lanes for lookup8: two registers, looked up by byte.
  using table8 = uint8x16x2_t;
  static MF_FORCE_INLINE table8 make_table8(const std::uint32_t (&entries)[8]) noexcept {
    return {{vreinterpretq_u8_u32(vld1q_u32(entries)),
             vreinterpretq_u8_u32(vld1q_u32(entries + 4))}};
  }
  // Lane i: entry (index_i mod 8) of the table: the four bytes of entry e
  // are bytes 4e..4e+3 of the pair.
  static MF_FORCE_INLINE vec lookup8(table8 table, vec index) noexcept {
    const uint32x4_t bytes = vaddq_u32(vmulq_u32(vandq_u32(index, vdupq_n_u32(7)),
                                                 vdupq_n_u32(0x04040404u)),
                                       vdupq_n_u32(0x03020100u));
    return vreinterpretq_u32_u8(vqtbl2q_u8(table, vreinterpretq_u8_u32(bytes)));
  }
  // in[0..2) spread over the 4 lanes, the inverse of store_nibble_pairs:
  // lane 2i holds the low nibble of byte i in its bits 0..3, lane 2i+1 the
  // high nibble. The bits above are not cleared (a caller that needs the
  // bare codes masks them).
  static MF_FORCE_INLINE vec load_nibbles(const void* in) noexcept {
    std::uint16_t word = 0;
    __builtin_memcpy(&word, in, 2);
    static constexpr std::int32_t right_shifts[4] = {0, -4, -8, -12};
    return vshlq_u32(vdupq_n_u32(word), vld1q_s32(right_shifts));
  }
  // a | (b & c).
  static MF_FORCE_INLINE vec bit_or_and(vec a, vec b, vec c) noexcept {
    return vorrq_u32(a, vandq_u32(b, c));
  }
  // a | (b & c) where a is non-zero, a (0) elsewhere.
  static MF_FORCE_INLINE vec bit_or_and_if_nonzero(vec a, vec b, vec c) noexcept {
    return vorrq_u32(a, vbicq_u32(vandq_u32(b, c), vceqq_u32(a, vdupq_n_u32(0))));
  }
  static MF_FORCE_INLINE vec max_signed(vec a, vec b) noexcept {
    return vreinterpretq_u32_s32(vmaxq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b)));
  }
  static MF_FORCE_INLINE vec min_signed(vec a, vec b) noexcept {
    return vreinterpretq_u32_s32(vminq_s32(vreinterpretq_s32_u32(a), vreinterpretq_s32_u32(b)));
  }
  template <int Bits>
  static MF_FORCE_INLINE vec shift_left(vec a) noexcept {
    return vshlq_n_u32(a, Bits);
  }
  template <int Bits>
  static MF_FORCE_INLINE vec shift_right(vec a) noexcept {
    return vshrq_n_u32(a, Bits);
  }
  // The largest lane count the variable shifts take: USHL reads its count
  // from the lane's low byte, signed, so counts must stay within -128..127
  // (64 keeps the stochastic rule's 32 - count in range too).
  static constexpr int variable_shift_limit = 64;
  // Logical right shift by each lane's count (0 from 32 on): USHL by minus
  // the count.
  static MF_FORCE_INLINE vec shift_right_variable(vec a, vec count) noexcept {
    return vshlq_u32(a, vnegq_s32(vreinterpretq_s32_u32(count)));
  }
  // Left shift by each lane's count, right by minus it where negative, 0
  // from 32 on either way: USHL itself.
  static MF_FORCE_INLINE vec shift_left_signed(vec a, vec count) noexcept {
    return vshlq_u32(a, vreinterpretq_s32_u32(count));
  }
  static MF_FORCE_INLINE mask equal(vec a, vec b) noexcept { return vceqq_u32(a, b); }
  static MF_FORCE_INLINE mask less(vec a, vec b) noexcept { return vcltq_u32(a, b); }
  static MF_FORCE_INLINE mask greater(vec a, vec b) noexcept { return vcgtq_u32(a, b); }
  static MF_FORCE_INLINE mask less_unsigned(vec a, vec b) noexcept { return vcltq_u32(a, b); }
  static MF_FORCE_INLINE mask is_zero(vec a) noexcept { return vceqq_u32(a, vdupq_n_u32(0)); }
  // The lanes whose sign bit is set.
  static MF_FORCE_INLINE mask negative_lanes(vec a) noexcept {
    return vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_u32(a), 31));
  }
  static MF_FORCE_INLINE mask mask_and(mask a, mask b) noexcept { return vandq_u32(a, b); }
  // a and not b.
  static MF_FORCE_INLINE mask mask_and_not(mask a, mask b) noexcept { return vbicq_u32(a, b); }
  // The lanes of m where a is non-zero.
  static MF_FORCE_INLINE mask nonzero_within(mask m, vec a) noexcept {
    return vbicq_u32(m, vceqq_u32(a, vdupq_n_u32(0)));
  }
  static MF_FORCE_INLINE bool any(mask m) noexcept { return vmaxvq_u32(m) != 0; }
  // where(m): if_true, else if_false.
  static MF_FORCE_INLINE vec select(mask m, vec if_true, vec if_false) noexcept {
    return vbslq_u32(m, if_true, if_false);
  }
  // where(m): a, else 0.
  static MF_FORCE_INLINE vec keep_where(mask m, vec a) noexcept { return vandq_u32(m, a); }
  // where(m): 0, else a.
  static MF_FORCE_INLINE vec clear_where(mask m, vec a) noexcept { return vbicq_u32(a, m); }
  // where(m): a | b, else a.
  static MF_FORCE_INLINE vec or_where(mask m, vec a, vec b) noexcept {
    return vorrq_u32(a, vandq_u32(m, b));
  }
  // where(m): a + 1, else a (a mask lane is all ones, -1).
  static MF_FORCE_INLINE vec increment_where(mask m, vec a) noexcept { return vsubq_u32(a, m); }
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
