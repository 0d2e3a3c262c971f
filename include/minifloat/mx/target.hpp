// The MX kernels' view of the bulk dispatcher: MF_BULK_X86 (from
// bulk/dispatch.hpp), the intrinsics, and the target attributes of the
// kernels (the same feature sets the bulk kernels ask for). The dispatch
// table (kernel_sets.hpp) chooses them.
#pragma once

#include "../bulk/dispatch.hpp"
#include "../simd/target_region.hpp"

#if MF_BULK_X86
#include "../bulk/x86_intrinsics.hpp"

#define MF_MX_TARGET_AVX2 MF_SIMD_TARGET_ATTRIBUTE_AVX2
#define MF_MX_TARGET_AVX512 MF_SIMD_TARGET_ATTRIBUTE_AVX512
// The same plus VBMI, used where the dispatch table's optional features
// report it.
#define MF_MX_TARGET_AVX512VBMI MF_SIMD_TARGET_ATTRIBUTE_AVX512_VBMI
#endif
