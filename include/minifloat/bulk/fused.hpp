// Runtime choice among the fused kernel sets (fused_scalar.hpp,
// fused_avx2.hpp, fused_avx512.hpp, fused_neon.hpp) through the dispatch
// table (kernel_sets.hpp), like api.hpp does for the plain conversions: every
// ISA has its own stochastic, scaled and amax kernels, the scalar set serving
// only isa::scalar (and the few head elements before a SIMD kernel's first
// Philox block boundary). The public entry is encode.hpp's mf::bulk::encode
// (its run_fused_steps is the one caller of run_fused); encode.hpp and
// amax.hpp dispatch the scaled decode and amax the same way.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>

#include "api.hpp"
#include "../target/dispatch.hpp"
#include "fused_scalar.hpp"
#include "kernel_sets.hpp"

namespace mf {
namespace bulk {
namespace detail {

// Encodes with the fused steps the template flags select; returns the
// integer max of |x| bits (meaningful when Amax).
template <class Fmt, bool Stochastic, bool Scale, bool Amax>
inline std::uint32_t run_fused(const float* in, typename Fmt::storage_type* out, std::size_t n,
                               const conversion& c, float scale) {
  static_assert(is_minifloat_v<Fmt>, "encode into a minifloat type");
  assert(!ranges_overlap(in, n * sizeof(float), out, n * sizeof(typename Fmt::storage_type)));
  return active_kernels<fused_kernels<Fmt, Stochastic, Scale, Amax>>()(in, out, n, c, scale);
}

}  // namespace detail
}  // namespace bulk
}  // namespace mf
