// Stochastic rounding on AVX2: generic/stochastic_lanes.hpp (the rule, and
// the fast path of the FP8 formats) compiled for AVX2.
#pragma once

#include "avx2.hpp"

#if MF_HAS_X86_KERNELS

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::bulk::avx2 {
#include "generic/stochastic_lanes.hpp"
}  // namespace mf::bulk::avx2
MF_SIMD_REGION_END

#endif  // MF_HAS_X86_KERNELS
