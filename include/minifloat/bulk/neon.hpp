// The NEON kernel set (AArch64 Advanced SIMD). NEON is part of the AArch64
// baseline, so no target attribute or CPU check is needed: dispatch.hpp
// reports it as supported whenever this header compiles its kernels.
//
// Encode and decode are generic/encode_lanes.hpp and decode_lanes.hpp over
// simd/arm/neon/integer_ops.hpp, four 32-bit lanes at a time (the encode
// loop is generic/encode_loop.hpp, in fused_neon.hpp). Only integer
// instructions touch the values, so the results do not depend on FPCR
// (rounding mode, FZ, DN).
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
using ops = simd::neon::int32_ops;
#include "generic/decode_lanes.hpp"
#include "generic/encode_lanes.hpp"
}  // namespace mf::bulk::neon_kernels

namespace mf {
namespace bulk {
namespace neon_kernels {

inline uint32x4_t splat(unsigned v) { return vdupq_n_u32(v); }

// Stores four vectors of encodings (32-bit lanes). They are below 2^16, so the
// narrowing moves (which keep the low half of each lane) are exact.
template <class S>
inline void store_vectors(S* out, uint32x4_t r0, uint32x4_t r1, uint32x4_t r2, uint32x4_t r3) {
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
// the same vector code over a zero-padded copy (a zero decodes without side
// effects and adds nothing to a product).
template <std::size_t N, class In, class Out, class Block>
inline void through_padded_copy(const In* in, Out* out, std::size_t rest, Block block) {
  In buffer[N];
  Out result[N];
  std::memset(static_cast<void*>(buffer), 0, sizeof buffer);
  std::memcpy(static_cast<void*>(buffer), static_cast<const void*>(in), rest * sizeof(In));
  block(static_cast<const In*>(buffer), result);
  std::memcpy(static_cast<void*>(out), static_cast<const void*>(result), rest * sizeof(Out));
}

// Decodes one vector of encodings (32-bit lanes, bits above the format's
// width cleared): generic/decode_lanes.hpp.
template <class F>
inline uint32x4_t decode_vector(uint32x4_t v) {
  return decode_lanes<F, ops>(v);
}

// Loads four vectors of encodings (16) of 32-bit lanes, the bits above the
// format's width cleared.
template <class F, class S>
inline void load_codes(const S* in, uint32x4_t (&v)[4]) {
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

// Decodes four vectors of encodings (16).
template <class F, class S>
inline void decode_vectors(const S* in, float* out) {
  uint32x4_t v[4];
  load_codes<F>(in, v);
  MF_UNROLL
  for (int k = 0; k < 4; ++k) vst1q_f32(out + 4 * k, vreinterpretq_f32_u32(decode_vector<F>(v[k])));
}

template <class Fmt>
inline void decode(const typename Fmt::storage_type* in, float* out,
                   std::size_t n) {
  using F = typename Fmt::format;
  using S = typename Fmt::storage_type;
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) decode_vectors<F>(in + i, out + i);
  if (i < n) through_padded_copy<16>(in + i, out + i, n - i, decode_vectors<F, S>);
}

}  // namespace neon_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_NEON
