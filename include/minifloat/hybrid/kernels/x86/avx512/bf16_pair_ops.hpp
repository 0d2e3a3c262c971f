// The "vector operations" of the avx512_bf16_pairs kernel: the generic
// micro-kernel (kernels/generic/fma_tile.hpp) run over k-pairs instead of
// single k steps. Each 32-bit lane holds a pair of BF16 values, the even k
// in the low half and the odd k in the high half (packed by
// kernels/driver.hpp; FP8 and BF16 values are BF16-exact). The step
// operation is VDPBF16PS: per lane, acc + odd product, then + even product,
// each rounded with DAZ/FTZ (Intel SDM; the model detail::bf16_pairs_sum,
// checked against the instruction by tests/hybrid/vdpbf16ps_test.cpp).
#pragma once

#include "../../../../target/region.hpp"

#if MF_HAS_X86_KERNELS
#include "../../../../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX512_BF16
namespace mf::hybrid::kernels::avx512_bf16 {

struct pair_ops {
  using value = float;  // a pair word's bits (operands) or a float32 accumulator
  using vec = __m512;  // 16 lanes of float32 accumulators, or 16 BF16 pairs
  static constexpr int lanes = 16;
  static MF_FORCE_INLINE vec zero() noexcept { return _mm512_setzero_ps(); }
  static MF_FORCE_INLINE vec loadu(const float* p) noexcept { return _mm512_loadu_ps(p); }
  // `pair` is a pair word's bits held in a float (never used as a number).
  static MF_FORCE_INLINE vec broadcast(float pair) noexcept { return _mm512_set1_ps(pair); }
  // acc + a.odd * b.odd + a.even * b.even per lane (VDPBF16PS).
  static MF_FORCE_INLINE vec fma(const vec& a, const vec& b, const vec& acc) noexcept {
    return _mm512_dpbf16_ps(acc, reinterpret_cast<__m512bh>(a), reinterpret_cast<__m512bh>(b));
  }
  static MF_FORCE_INLINE void storeu(float* p, const vec& v) noexcept { _mm512_storeu_ps(p, v); }
};

}  // namespace mf::hybrid::kernels::avx512_bf16
MF_SIMD_REGION_END
#endif
