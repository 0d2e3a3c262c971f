// The NEON kernel set (AArch64 Advanced SIMD). NEON is part of the AArch64
// baseline, so no target attribute or CPU check is needed: dispatch.hpp
// reports it as supported whenever this header compiles its kernels.
//
// Encode and decode are generic/encode_lanes.hpp and decode_lanes.hpp over
// simd/arm/neon/integer_ops.hpp, four 32-bit lanes at a time (the loops are
// generic/decode_loop.hpp, here, and generic/encode_loop.hpp, in
// fused_neon.hpp). Only integer instructions touch the values, so the
// results do not depend on FPCR (rounding mode, FZ, DN), except the decode
// with a scale, whose one product is rounded as the scalar one is.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../target/dispatch.hpp"
#include "scalar.hpp"

#if MF_HAS_NEON_KERNELS
#include <arm_neon.h>

#include "../simd/arm/neon/integer_ops.hpp"

// The generic algorithms, compiled for NEON (baseline: no target region).
namespace mf::bulk::neon {
using ops = simd::neon::int32_ops;
#include "../lanes/decode_lanes.hpp"
#include "generic/decode_loop.hpp"
#include "../lanes/encode_lanes.hpp"
}  // namespace mf::bulk::neon

namespace mf {
namespace bulk {
namespace neon {

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

// generic/decode_loop.hpp.
template <class Fmt>
inline void decode(const typename Fmt::storage_type* in, float* out, std::size_t n) {
  decode_loop<Fmt, false>(in, out, n, 1.0f);
}

}  // namespace neon
}  // namespace bulk
}  // namespace mf

#endif  // MF_HAS_NEON_KERNELS
