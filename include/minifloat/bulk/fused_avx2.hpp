// The AVX2 encode loop (generic/encode_loop.hpp: the plain encode and the
// fused ones), and the AVX2 decode with the fused scale and amax alone.
// Tails run the same vector code over a zero-padded copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "avx2.hpp"
#include "fused_scalar.hpp"
#include "philox_simd.hpp"
#include "../target/prefetch.hpp"
#include "stochastic_avx2.hpp"

#if MF_HAS_X86_KERNELS

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::bulk::avx2 {
// A stochastic group goes straight to the general steps: asking first
// whether a lane is below min normal made the AVX2 stochastic encodes 5-11%
// slower (Zen 1, docs/performance.md).
inline constexpr bool group_check_below_min_normal = false;
using philox_ops = simd::avx2::philox_ops;
using binary16_ops = simd::avx2::int16_ops;
#include "generic/amax_loop.hpp"
#include "generic/encode_loop.hpp"
}  // namespace mf::bulk::avx2
MF_SIMD_REGION_END

namespace mf {
namespace bulk {
namespace avx2 {

template <class Fmt>
MF_TARGET_AVX2 inline void encode(const float* in, typename Fmt::storage_type* out, std::size_t n,
                                  const conversion& c) {
  encode_through_cache<Fmt>(in, out, n, c);
}

// generic/decode_loop.hpp (avx2.hpp).
template <class Fmt>
MF_TARGET_AVX2 inline void decode_scaled(const typename Fmt::storage_type* in, float* out,
                                         std::size_t n, float scale) {
  decode_loop<Fmt, true>(in, out, n, scale);
}

}  // namespace avx2
}  // namespace bulk
}  // namespace mf

#endif  // MF_HAS_X86_KERNELS
