// The micro-kernels of each instruction set: the generic sources of
// kernels/generic/ included once per target, inside that target's region
// (simd/target_region.hpp) and namespace, with the tile shape chosen for
// the target's register file. kernel_for(isa) is the one place that maps
// the active ISA (bulk/dispatch.hpp) to a kernel set.
#pragma once

#include <cstddef>

#include "../../bulk/dispatch.hpp"
#include "../../simd/scalar/vector_ops.hpp"
#include "../../simd/target_region.hpp"
#include "../../simd/x86/avx2/vector_ops.hpp"
#include "../../simd/x86/avx512/vector_ops.hpp"
#include "../accumulation.hpp"
#include "x86/avx512/bf16_pair_ops.hpp"

namespace mf::hybrid::kernels {

// One micro-kernel call: a rows x columns tile of float32 accumulators over
// `steps` steps of packed A and B (generic/fma_tile.hpp has the layout).
using tile_function = void (*)(const float* a, const float* b, float* c, std::size_t ldc,
                               std::size_t steps, bool first) noexcept;

// How the driver packs the operands for a kernel: one float32 per k, or a
// pair of BF16 values per 32-bit word (k and k + 1, K padded to even with
// +0, as detail::bf16_pairs_sum pads).
enum class packing : unsigned char { float32, bf16_pairs };

struct tile_kernel {
  int rows = 0;
  int columns = 0;
  tile_function run = nullptr;  // null: no fast kernel
  packing operands = packing::float32;
};

}  // namespace mf::hybrid::kernels

// Scalar: a 4 x 4 tile of plain floats (16 accumulators), the fallback on
// every CPU and the kernel the driver is tested with everywhere.
namespace mf::hybrid::kernels::scalar {
#include "generic/fma_tile.hpp"
inline constexpr int fma_rows = 4;
inline constexpr int fma_vectors = 4;
inline void fma_kernel(const float* a, const float* b, float* c, std::size_t ldc, std::size_t kc,
                       bool first) noexcept {
  fma_tile<simd::scalar::float_ops, fma_rows, fma_vectors>(a, b, c, ldc, kc, first);
}
}  // namespace mf::hybrid::kernels::scalar

#if MF_SIMD_X86
// AVX2: 6 x 16 (two ymm per row): 12 accumulators, 2 of B and a broadcast
// in the 16 ymm registers.
MF_SIMD_REGION_BEGIN_AVX2
namespace mf::hybrid::kernels::avx2 {
#include "generic/fma_tile.hpp"
inline constexpr int fma_rows = 6;
inline constexpr int fma_vectors = 2;
inline void fma_kernel(const float* a, const float* b, float* c, std::size_t ldc, std::size_t kc,
                       bool first) noexcept {
  fma_tile<simd::avx2::float_ops, fma_rows, fma_vectors>(a, b, c, ldc, kc, first);
}
}  // namespace mf::hybrid::kernels::avx2
MF_SIMD_REGION_END

// AVX-512: 6 x 64 (four zmm per row): 24 accumulators, 4 of B and a
// broadcast in the 32 zmm registers; 24 independent FMA chains hide the
// FMA latency on one or two 512-bit FMA units.
MF_SIMD_REGION_BEGIN_AVX512
namespace mf::hybrid::kernels::avx512 {
#include "generic/fma_tile.hpp"
inline constexpr int fma_rows = 6;
inline constexpr int fma_vectors = 4;
inline void fma_kernel(const float* a, const float* b, float* c, std::size_t ldc, std::size_t kc,
                       bool first) noexcept {
  fma_tile<simd::avx512::float_ops, fma_rows, fma_vectors>(a, b, c, ldc, kc, first);
}
}  // namespace mf::hybrid::kernels::avx512
MF_SIMD_REGION_END

// AVX512_BF16: the same 6 x 64 tile, each step a k-pair (VDPBF16PS).
MF_SIMD_REGION_BEGIN_AVX512_BF16
namespace mf::hybrid::kernels::avx512_bf16 {
#include "generic/fma_tile.hpp"
inline constexpr int pair_rows = 6;
inline constexpr int pair_vectors = 4;
inline void pair_kernel(const float* a, const float* b, float* c, std::size_t ldc,
                        std::size_t steps, bool first) noexcept {
  fma_tile<pair_ops, pair_rows, pair_vectors>(a, b, c, ldc, steps, first);
}
}  // namespace mf::hybrid::kernels::avx512_bf16
MF_SIMD_REGION_END
#endif

namespace mf::hybrid::kernels {

// The sequential_fp32 micro-kernel for a kernel set (NEON and every ISA
// without its own kernel: the scalar one).
inline tile_kernel fma_kernel_for(bulk::isa isa) noexcept {
#if MF_SIMD_X86
  if (isa == bulk::isa::avx512) {
    return {avx512::fma_rows, avx512::fma_vectors * simd::avx512::float_ops::lanes,
            &avx512::fma_kernel, packing::float32};
  }
  if (isa == bulk::isa::avx2) {
    return {avx2::fma_rows, avx2::fma_vectors * simd::avx2::float_ops::lanes, &avx2::fma_kernel,
            packing::float32};
  }
#endif
  (void)isa;
  return {scalar::fma_rows, scalar::fma_vectors, &scalar::fma_kernel, packing::float32};
}

// The kernel of a model on a kernel set; run == nullptr where there is none
// (the model runs on the reference).
inline tile_kernel kernel_for(const accumulation_model& model, bulk::isa isa) noexcept {
  switch (model.kind) {
    case model_kind::sequential_fp32: return fma_kernel_for(isa);
    case model_kind::avx512_bf16_pairs:
#if MF_SIMD_X86
      // The instruction itself: only where the CPU has it.
      if (isa == bulk::isa::avx512 && bulk::detail::cpu().avx512bf16) {
        return {avx512_bf16::pair_rows, avx512_bf16::pair_vectors * avx512_bf16::pair_ops::lanes,
                &avx512_bf16::pair_kernel, packing::bf16_pairs};
      }
#endif
      return {};
    default: return {};
  }
}

}  // namespace mf::hybrid::kernels
