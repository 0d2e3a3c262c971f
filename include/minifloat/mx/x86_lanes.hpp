// The lane-wise conversions (lanes/encode_lanes.hpp, lanes/decode_lanes.hpp)
// compiled for the MX kernels' x86 ISAs, in mx::avx2 and mx::avx512, plus
// the one-register constant those kernels build everything from. Included
// once by every MX x86 kernel header, so the generic sources are included
// once per namespace.
#pragma once

#include "../config.hpp"
#include "../lanes/constants.hpp"
#include "../simd/x86/avx2/integer_ops.hpp"
#include "../simd/x86/avx512/integer_ops.hpp"
#include "../target/isa.hpp"
#include "../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include "../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::mx::avx2 {
#include "../lanes/decode_lanes.hpp"

MF_FORCE_INLINE __m256i splat(unsigned v) { return _mm256_set1_epi32(static_cast<int>(v)); }
}  // namespace mf::mx::avx2
MF_SIMD_REGION_END

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::mx::avx512 {
#include "../lanes/decode_lanes.hpp"
#include "../lanes/encode_lanes.hpp"

MF_FORCE_INLINE __m512i splat(unsigned v) { return _mm512_set1_epi32(static_cast<int>(v)); }
}  // namespace mf::mx::avx512
MF_SIMD_REGION_END

#endif  // MF_HAS_X86_KERNELS
