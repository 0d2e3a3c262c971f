// The MX kernels' view of the bulk dispatcher: MF_BULK_X86 (from
// bulk/dispatch.hpp), the intrinsics, and the target attributes of the
// kernels (simd/target_region.hpp's MF_TARGET_AVX2 / AVX512 / AVX512VBMI,
// which the bulk kernels use too). The dispatch table (kernel_sets.hpp)
// chooses them.
#pragma once

#include "../bulk/dispatch.hpp"
#include "../simd/target_region.hpp"

#if MF_BULK_X86
#include "../bulk/x86_intrinsics.hpp"
#endif
