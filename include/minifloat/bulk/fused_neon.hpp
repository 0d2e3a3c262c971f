// The NEON encode loop (generic/encode_loop.hpp: the plain encode and the
// fused ones: stochastic rounding with the Philox words of philox_simd.hpp,
// the fused scale, the fused absolute maximum), the decode with the fused
// scale, and amax alone. Same bits as the scalar kernels of fused_scalar.hpp
// for every input. Tails run the same vector code over a zero-padded copy.
//
// The fused scale is a vector FMUL, which rounds as the scalar `x * scale`
// does: AArch64 Advanced SIMD follows FPCR (rounding mode, FZ) like scalar
// floating point.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "fused_scalar.hpp"
#include "neon.hpp"
#include "philox_simd.hpp"
#include "../target/prefetch.hpp"
#include "stochastic_neon.hpp"

#if MF_HAS_NEON_KERNELS

// NEON is baseline on AArch64: no target region.
namespace mf::bulk::neon {
// A stochastic group goes straight to the general steps: the check for a
// lane below min normal is not measured on an AArch64 core, and on AVX2 it
// makes the stochastic encodes slower (fused_avx2.hpp).
inline constexpr bool group_check_below_min_normal = false;
using philox_ops = simd::neon::philox_ops;
// No encode through binary16: NEON converts to it in FPCR's rounding mode only.
using binary16_ops = void;
#include "generic/amax_loop.hpp"
#include "generic/encode_loop.hpp"
}  // namespace mf::bulk::neon

namespace mf {
namespace bulk {
namespace neon {

template <class Fmt>
inline void encode(const float* in, typename Fmt::storage_type* out, std::size_t n,
                   const conversion& c) {
  encode_through_cache<Fmt>(in, out, n, c);
}

// generic/decode_loop.hpp (neon.hpp).
template <class Fmt>
inline void decode_scaled(const typename Fmt::storage_type* in, float* out, std::size_t n,
                          float scale) {
  decode_loop<Fmt, true>(in, out, n, scale);
}

}  // namespace neon
}  // namespace bulk
}  // namespace mf

#endif  // MF_HAS_NEON_KERNELS
