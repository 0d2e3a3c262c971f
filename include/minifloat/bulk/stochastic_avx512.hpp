// Stochastic rounding on AVX-512: generic/stochastic_lanes.hpp (the rule,
// and the fast path of the FP8 formats) compiled for AVX-512.
#pragma once

#include <cstddef>

#include "avx512.hpp"

#if MF_BULK_X86

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::bulk::avx512_kernels {
#include "generic/stochastic_lanes.hpp"
}  // namespace mf::bulk::avx512_kernels
MF_SIMD_REGION_END

#endif  // MF_BULK_X86
