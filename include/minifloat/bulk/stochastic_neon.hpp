// Stochastic rounding on NEON: generic/stochastic_lanes.hpp (the rule, and
// the fast path of the FP8 formats) over simd/arm/neon/integer_ops.hpp.
// Integer instructions only, so the result does not depend on FPCR.
#pragma once

#include "neon.hpp"

#if MF_HAS_NEON_KERNELS

namespace mf::bulk::neon {
#include "generic/stochastic_lanes.hpp"
}  // namespace mf::bulk::neon

#endif  // MF_HAS_NEON_KERNELS
