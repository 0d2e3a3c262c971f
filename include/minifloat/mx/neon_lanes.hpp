// The MX kernels of NEON, in mx::neon: the generic quantize and dequantize
// (generic/quantize_loop.hpp, generic/dequantize_loop.hpp) over
// simd/arm/neon/integer_ops.hpp, with the lane-wise conversions they use.
// NEON is baseline on AArch64: no target region. Only integer instructions
// and exact products touch the values, so FPCR (rounding mode, FZ) cannot
// change them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../config.hpp"
#include "../lanes/constants.hpp"
#include "../target/dispatch.hpp"
#include "../target/prefetch.hpp"
#include "block.hpp"
#include "element.hpp"
#include "quantize_scalar.hpp"
#include "scale.hpp"

#if MF_HAS_NEON_KERNELS
#include <arm_neon.h>

#include "../simd/arm/neon/integer_ops.hpp"

namespace mf::mx::neon {
using ops = simd::neon::int32_ops;
#include "../lanes/decode_lanes.hpp"
#include "../lanes/encode_lanes.hpp"
#include "generic/dequantize_loop.hpp"
#include "generic/quantize_loop.hpp"
}  // namespace mf::mx::neon

#endif  // MF_HAS_NEON_KERNELS
