// The AVX-512 encode loop (generic/encode_loop.hpp: the plain encode and
// the fused ones: stochastic rounding with the Philox words of
// philox_simd.hpp, the fused scale, the fused absolute maximum), the plain
// encode's streamed stores for large outputs, the decode with the fused
// scale, and amax alone. Same bits as the scalar kernels of fused_scalar.hpp
// for every input.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "avx512.hpp"
#include "fused_scalar.hpp"
#include "philox_simd.hpp"
#include "../target/prefetch.hpp"
#include "stochastic_avx512.hpp"

#if MF_HAS_X86_KERNELS

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::bulk::avx512 {
// A stochastic group asks first whether a lane is below min normal, and
// skips those steps when none is: one vpminud per 64 elements, against the
// general steps' per-lane work in every group. Unlike AVX2's choice
// (fused_avx2.hpp), it has no measurement of the check switched off.
inline constexpr bool group_check_below_min_normal = true;
using philox_ops = simd::avx512::philox_ops;
// Toward zero goes through binary16 (generic/binary16_lanes.hpp): 2.3-2.7x
// as fast as the 32-bit lanes on a Zen 4 (docs/performance.md).
using binary16_ops = simd::avx512::int16_ops;
#include "generic/amax_loop.hpp"
#include "generic/encode_loop.hpp"

// 64 floats to their one-byte encodings through binary16, for the streamed
// stores of encode_streamed (avx512.hpp).
template <class Fmt, overflow Ovf>
struct encode_block_through_binary16 {
  static MF_FORCE_INLINE __m512i encode(const float* in) {
    return encoded_through_binary16<Fmt, Ovf, binary16_ops, ops>(
        ops::load(in), ops::load(in + 16), ops::load(in + 32), ops::load(in + 48));
  }
};
}  // namespace mf::bulk::avx512
MF_SIMD_REGION_END

namespace mf {
namespace bulk {
namespace avx512 {

template <class Fmt>
MF_TARGET_AVX512 inline void encode(const float* in, typename Fmt::storage_type* out,
                                    std::size_t n, const conversion& c) {
  if constexpr (sizeof(typename Fmt::storage_type) == 1) {
    if (n >= nontemporal_threshold_bytes) {
      detail::with_mode_and_overflow(c.mode, c.on_overflow, [&](auto m, auto o) {
        constexpr rounding mode = decltype(m)::value;
        constexpr overflow ovf = decltype(o)::value;
        if constexpr (takes_binary16_route<Fmt, mode, binary16_ops>) {
          encode_streamed<Fmt, mode, ovf, encode_block_through_binary16<Fmt, ovf>>(in, out, n);
        } else {
          encode_streamed<Fmt, mode, ovf>(in, out, n);
        }
      });
      return;
    }
  }
  encode_through_cache<Fmt>(in, out, n, c);
}

// generic/decode_loop.hpp (avx512.hpp).
template <class Fmt>
MF_TARGET_AVX512 inline void decode_scaled(const typename Fmt::storage_type* in, float* out,
                                           std::size_t n, float scale) {
  decode_loop<Fmt, true>(in, out, n, scale);
}

}  // namespace avx512
}  // namespace bulk
}  // namespace mf

#endif  // MF_HAS_X86_KERNELS
