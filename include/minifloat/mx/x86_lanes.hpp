// The MX kernels of the x86 ISAs, in mx::avx2 and mx::avx512: the generic
// quantize and dequantize (generic/quantize_loop.hpp,
// generic/dequantize_loop.hpp) over each ISA's int32_ops, with the lane-wise
// conversions they use (lanes/encode_lanes.hpp, lanes/decode_lanes.hpp).
// AVX-512 takes its own dequantize (dequantize_avx512.hpp: the byte-table
// decoders, which the bulk decode measured faster than the decode from the
// fields there), so only the generic quantize is compiled into mx::avx512.
// Included once by every MX x86 kernel header, so the generic sources are
// included once per namespace.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../config.hpp"
#include "../lanes/constants.hpp"
#include "../simd/x86/avx2/integer_ops.hpp"
#include "../simd/x86/avx512/integer_ops.hpp"
#include "../target/isa.hpp"
#include "../target/prefetch.hpp"
#include "../target/region.hpp"
#include "block.hpp"
#include "element.hpp"
#include "quantize_scalar.hpp"
#include "scale.hpp"

#if MF_HAS_X86_KERNELS
#include "../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::mx::avx2 {
using ops = simd::avx2::int32_ops;
#include "../lanes/decode_lanes.hpp"
#include "../lanes/encode_lanes.hpp"
#include "generic/dequantize_loop.hpp"
#include "generic/quantize_loop.hpp"
}  // namespace mf::mx::avx2
MF_SIMD_REGION_END

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::mx::avx512 {
using ops = simd::avx512::int32_ops;
#include "../lanes/decode_lanes.hpp"
#include "../lanes/encode_lanes.hpp"
#include "generic/quantize_loop.hpp"

MF_FORCE_INLINE __m512i splat(unsigned v) { return _mm512_set1_epi32(static_cast<int>(v)); }
}  // namespace mf::mx::avx512
MF_SIMD_REGION_END

#endif  // MF_HAS_X86_KERNELS
