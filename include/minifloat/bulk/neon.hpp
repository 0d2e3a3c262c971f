// The NEON kernel set (AArch64 Advanced SIMD). NEON is part of the AArch64
// baseline, so no target attribute or CPU check is needed: dispatch.hpp
// reports it as supported whenever this header compiles its kernels.
//
// The encoder is the lane-wise integer one of avx2.hpp (encode8), four
// 32-bit lanes at a time; decode is generic/decode_lanes.hpp over
// simd/arm/neon/integer_ops.hpp. Only integer instructions touch the values, so
// the results do not depend on FPCR (rounding mode, FZ, DN).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "dispatch.hpp"
#include "scalar.hpp"

#if MF_BULK_NEON
#include <arm_neon.h>

#include "../simd/arm/neon/integer_ops.hpp"

// The generic algorithms, compiled for NEON (baseline: no target region).
namespace mf::bulk::neon_kernels {
#include "generic/decode_lanes.hpp"
}  // namespace mf::bulk::neon_kernels

namespace mf {
namespace bulk {
namespace neon_kernels {

inline uint32x4_t splat(unsigned v) { return vdupq_n_u32(v); }

inline int32x4_t splat_signed(int v) { return vdupq_n_s32(v); }

// Variable logical right shift: USHL shifts right by minus the count.
inline uint32x4_t shift_right(uint32x4_t v, int32x4_t count) {
  return vshlq_u32(v, vnegq_s32(count));
}

// For each lane, `negative` where the lane's mask is set, `pos` elsewhere.
inline uint32x4_t select_by_sign(uint32x4_t neg, unsigned pos,
                                 unsigned negative) {
  return vbslq_u32(neg, splat(negative), splat(pos));
}

// The encoding of a rounded magnitude (at most 2^16, or past max finite):
// the sign, fnuz's single zero, overflow. C: detail::encode_constants.
template <class F, class C>
inline uint32x4_t signed_encoding(uint32x4_t mag, uint32x4_t neg) {
  uint32x4_t res = mag;
  if constexpr (F::is_signed) {
    res = vorrq_u32(res, vandq_u32(neg, splat(C::sign_mask)));
  }
  if constexpr (F::encoding == specials::fnuz) {
    // No negative zero: a negative value rounding to 0 is +0.
    res = vbicq_u32(res, vceqq_u32(mag, vdupq_n_u32(0)));
  }
  const uint32x4_t overflowed = vcgtq_u32(mag, splat(C::max_finite));
  return vbslq_u32(overflowed, select_by_sign(neg, C::overflow_pos, C::overflow_neg), res);
}

// fnu formats: the lanes whose float exponent field E is below min normal.
template <class F>
inline uint32x4_t below_min_normal(uint32x4_t E) {
  return vcltq_u32(E, splat(static_cast<unsigned>(F::min_exponent + 127)));
}

// res with the inputs that do not round by magnitude put right: negative
// non-zero values in the unsigned formats, Inf and NaN (a = |x| bits).
template <class F, class C>
inline uint32x4_t with_special_inputs(uint32x4_t res, uint32x4_t a, uint32x4_t neg) {
  if constexpr (!F::has_subnormals) {
    // No sign: negative non-zero values are NaN (-0 is +min, as scalar).
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

// What the encoders take apart in 4 float bit patterns.
struct float_parts4 {
  uint32x4_t a;     // |x| bits
  uint32x4_t neg;   // all ones in the lanes holding a negative input
  uint32x4_t E;     // the float exponent field
  uint32x4_t sig;   // significand with its hidden bit (none for float subnormals)
  int32x4_t s;      // right shift from the significand to the format's quantum
  uint32x4_t base;  // (q + bias - 1) << M: the exponent field minus the hidden bit of kept
};

// C: detail::encode_constants; s is clamped to MaxShift.
template <class C, int MaxShift>
inline float_parts4 split4(uint32x4_t x) {
  float_parts4 p;
  p.a = vandq_u32(x, splat(0x7FFFFFFFu));
  p.neg = vreinterpretq_u32_s32(vshrq_n_s32(vreinterpretq_s32_u32(x), 31));
  p.E = vshrq_n_u32(p.a, 23);
  const uint32x4_t Eeff = vmaxq_u32(p.E, splat(1));
  p.sig = vsubq_u32(p.a, vshlq_n_u32(vsubq_u32(Eeff, splat(1)), 23));
  const int32x4_t Es = vreinterpretq_s32_u32(Eeff);
  p.s = vmaxq_s32(vsubq_s32(splat_signed(C::shift_base), Es), splat_signed(C::normal_shift));
  if constexpr (C::shift_base - 1 > MaxShift) p.s = vminq_s32(p.s, splat_signed(MaxShift));
  p.base = vshlq_n_u32(
      vreinterpretq_u32_s32(vmaxq_s32(vsubq_s32(Es, splat_signed(C::base_offset)),
                                      vdupq_n_s32(0))),
      C::M);
  return p;
}

// Encodes 4 float bit patterns into 4 encodings (32-bit lanes), mirroring
// mf::detail::round_float_bits lane-wise (see avx2_kernels::encode8).
template <class F, rounding Mode, overflow Ovf>
inline uint32x4_t encode4(uint32x4_t x) {
  using C = detail::encode_constants<F, Mode, Ovf>;
  // A shift of 25 rounds any 24-bit significand to 0 or 1 quantum.
  const float_parts4 p = split4<C, 25>(x);
  const uint32x4_t ones = splat(0xFFFFFFFFu);
  uint32x4_t kept;
  if constexpr (Mode == rounding::nearest_even) {
    // (sig + half - 1 + lsb(kept)) >> s
    const uint32x4_t half_m1 = shift_right(ones, vsubq_s32(splat_signed(33), p.s));
    const uint32x4_t lsb = vandq_u32(shift_right(p.sig, p.s), splat(1));
    kept = shift_right(vaddq_u32(vaddq_u32(p.sig, half_m1), lsb), p.s);
  } else if constexpr (Mode == rounding::toward_zero) {
    kept = shift_right(p.sig, p.s);
  } else {
    // Away from zero on the side the mode points to: add quantum - 1.
    uint32x4_t q_m1 = shift_right(ones, vsubq_s32(splat_signed(32), p.s));
    q_m1 = Mode == rounding::toward_positive ? vbicq_u32(q_m1, p.neg)
                                             : vandq_u32(q_m1, p.neg);
    kept = shift_right(vaddq_u32(p.sig, q_m1), p.s);
  }
  uint32x4_t res = signed_encoding<F, C>(vaddq_u32(p.base, kept), p.neg);
  if constexpr (!F::has_subnormals) {
    // fnu: values below min normal go to the smallest value (encoding 0)...
    res = vbicq_u32(res, below_min_normal<F>(p.E));
    if constexpr (F::min_exponent == -127) {
      // ...except [2^-127, 2^-126), float subnormals with bit 22 set: kept is
      // 1 (odd), the half point is bit 21; the result is 0 or 1.
      if constexpr (Mode == rounding::nearest_even ||
                    Mode == rounding::toward_positive) {
        const unsigned threshold =
            Mode == rounding::nearest_even ? 0x600000u : 0x400001u;
        const uint32x4_t up = vandq_u32(vcgeq_u32(p.a, splat(threshold)), splat(1));
        res = vbslq_u32(vceqq_u32(p.E, vdupq_n_u32(0)), up, res);
      }
    }
  }
  return with_special_inputs<F, C>(res, p.a, p.neg);
}

template <class F, rounding Mode, overflow Ovf>
inline uint32x4_t encode4_at(const float* p) {
  return encode4<F, Mode, Ovf>(vreinterpretq_u32_f32(vld1q_f32(p)));
}

// Stores 16 encodings (32-bit lanes). They are below 2^16, so the
// narrowing moves (which keep the low half of each lane) are exact.
template <class S>
inline void store16(S* out, uint32x4_t r0, uint32x4_t r1, uint32x4_t r2, uint32x4_t r3) {
  const uint16x8_t lo = vcombine_u16(vmovn_u32(r0), vmovn_u32(r1));
  const uint16x8_t hi = vcombine_u16(vmovn_u32(r2), vmovn_u32(r3));
  if constexpr (sizeof(S) == 1) {
    vst1q_u8(reinterpret_cast<std::uint8_t*>(out),
             vcombine_u8(vmovn_u16(lo), vmovn_u16(hi)));
  } else {
    static_assert(sizeof(S) == 2, "one or two byte encodings");
    vst1q_u16(reinterpret_cast<std::uint16_t*>(out), lo);
    vst1q_u16(reinterpret_cast<std::uint16_t*>(out) + 8, hi);
  }
}

// A tail of rest (< N) elements through `block`, which handles N at a time:
// the same vector code over a zero-padded copy (a zero encodes and decodes
// without side effects).
template <std::size_t N, class In, class Out, class Block>
inline void through_padded_copy(const In* in, Out* out, std::size_t rest, Block block) {
  In buffer[N];
  Out result[N];
  std::memset(static_cast<void*>(buffer), 0, sizeof buffer);
  std::memcpy(static_cast<void*>(buffer), static_cast<const void*>(in), rest * sizeof(In));
  block(static_cast<const In*>(buffer), result);
  std::memcpy(static_cast<void*>(out), static_cast<const void*>(result), rest * sizeof(Out));
}

// Encodes 16 floats.
template <class F, rounding Mode, overflow Ovf, class S>
inline void encode16(const float* in, S* out) {
  store16(out, encode4_at<F, Mode, Ovf>(in), encode4_at<F, Mode, Ovf>(in + 4),
          encode4_at<F, Mode, Ovf>(in + 8), encode4_at<F, Mode, Ovf>(in + 12));
}

template <class Fmt, rounding Mode, overflow Ovf>
inline void encode_mode(const float* in, typename Fmt::storage_type* out,
                        std::size_t n) {
  using F = typename Fmt::format;
  using S = typename Fmt::storage_type;
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) encode16<F, Mode, Ovf>(in + i, out + i);
  if (i < n) {
    through_padded_copy<16>(in + i, out + i, n - i, encode16<F, Mode, Ovf, S>);
  }
}

template <class Fmt, overflow Ovf>
inline void encode_ovf(const float* in, typename Fmt::storage_type* out,
                       std::size_t n, rounding mode) {
  switch (mode) {
    case rounding::nearest_even:
      return encode_mode<Fmt, rounding::nearest_even, Ovf>(in, out, n);
    case rounding::toward_zero:
      return encode_mode<Fmt, rounding::toward_zero, Ovf>(in, out, n);
    case rounding::toward_positive:
      return encode_mode<Fmt, rounding::toward_positive, Ovf>(in, out, n);
    case rounding::toward_negative:
      return encode_mode<Fmt, rounding::toward_negative, Ovf>(in, out, n);
  }
}

template <class Fmt>
inline void encode(const float* in, typename Fmt::storage_type* out,
                   std::size_t n, rounding mode, overflow on_overflow) {
  if (on_overflow == overflow::saturating) {
    encode_ovf<Fmt, overflow::saturating>(in, out, n, mode);
  } else {
    encode_ovf<Fmt, overflow::non_saturating>(in, out, n, mode);
  }
}

// Decodes 4 encodings (32-bit lanes, bits above the format's width already
// cleared) into 4 float bit patterns (generic/decode_lanes.hpp).
template <class F>
inline uint32x4_t decode4(uint32x4_t v) {
  return decode_lanes<F, simd::neon::int32_ops>(v);
}

// Loads 16 encodings into four vectors of 32-bit lanes, the bits above the
// format's width cleared.
template <class F, class S>
inline void load16_codes(const S* in, uint32x4_t (&v)[4]) {
  const uint32x4_t valid = splat(detail::decode_constants<F>::valid_mask);
  uint16x8_t lo, hi;
  if constexpr (sizeof(S) == 1) {
    const uint8x16_t b = vld1q_u8(reinterpret_cast<const std::uint8_t*>(in));
    lo = vmovl_u8(vget_low_u8(b));
    hi = vmovl_u8(vget_high_u8(b));
  } else {
    static_assert(sizeof(S) == 2, "one or two byte encodings");
    lo = vld1q_u16(reinterpret_cast<const std::uint16_t*>(in));
    hi = vld1q_u16(reinterpret_cast<const std::uint16_t*>(in) + 8);
  }
  v[0] = vandq_u32(vmovl_u16(vget_low_u16(lo)), valid);
  v[1] = vandq_u32(vmovl_u16(vget_high_u16(lo)), valid);
  v[2] = vandq_u32(vmovl_u16(vget_low_u16(hi)), valid);
  v[3] = vandq_u32(vmovl_u16(vget_high_u16(hi)), valid);
}

// Decodes 16 encodings.
template <class F, class S>
inline void decode16(const S* in, float* out) {
  uint32x4_t v[4];
  load16_codes<F>(in, v);
  for (int k = 0; k < 4; ++k) vst1q_f32(out + 4 * k, vreinterpretq_f32_u32(decode4<F>(v[k])));
}

template <class Fmt>
inline void decode(const typename Fmt::storage_type* in, float* out,
                   std::size_t n) {
  using F = typename Fmt::format;
  using S = typename Fmt::storage_type;
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) decode16<F>(in + i, out + i);
  if (i < n) through_padded_copy<16>(in + i, out + i, n - i, decode16<F, S>);
}

}  // namespace neon_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_NEON
