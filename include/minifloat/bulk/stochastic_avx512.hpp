// Stochastic rounding on AVX-512: generic/stochastic_lanes.hpp (the rule,
// and the fast path of the FP8 formats) compiled for AVX-512.
#pragma once

#include <cstddef>

#include "avx512.hpp"

#if MF_HAS_X86_KERNELS

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::bulk::avx512 {
#include "generic/stochastic_lanes.hpp"
}  // namespace mf::bulk::avx512
MF_SIMD_REGION_END

#endif  // MF_HAS_X86_KERNELS
