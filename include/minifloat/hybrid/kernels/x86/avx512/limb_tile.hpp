// The exact model's E5M2 x E5M2 micro-kernel on AVX512_IFMA: the sum of
// products as an integer in two 52-bit limbs per element (kernels/
// limb_sum.hpp says why that is exact and how it becomes float32).
// Included by kernels/targets.hpp after tile_args.
//
// Packed operands (kernels/driver.hpp, packing::offset_integers): `a` holds
// the tile's A as `steps` steps of Rows unsigned integers, `b` holds B as
// `steps` steps of Vectors * 8. `c` (row stride ldc) holds each row's
// Vectors * 8 low limbs, then its Vectors * 8 high limbs, carried from the
// previous K block (low limbs below 2^52) unless `first` (then 0).
//
// Why this shape: two instructions per eight products, and on an AMD Zen 5
// (family 26 model 2) VPMADD52LUQ/HUQ on zmm run two per cycle, as FMAs do
// (measured: 64 GFLOP/s for this loop, against 128 for a float64 FMA tile
// and 40 for float64 FMAs into two chains chosen by a compare mask). 6 rows
// x 2 zmm: 24 accumulators, 2 of B and a broadcast in 32 registers.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../../../../target/region.hpp"
#include "../../limb_sum.hpp"

#if MF_HAS_X86_KERNELS
#include "../../../../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX512_IFMA
namespace mf::hybrid::kernels::avx512_ifma {

inline constexpr int rows = 6, vectors = 2;

template <int Rows, int Vectors>
void limb_tile(const tile_args& args) noexcept {
  constexpr int width = Vectors * 8;
  const auto* a = static_cast<const std::uint64_t*>(args.a);
  const auto* b = static_cast<const std::uint64_t*>(args.b);
  auto* c = static_cast<std::uint64_t*>(args.c);
  __m512i low[Rows][Vectors], high[Rows][Vectors];
  MF_UNROLL
  for (int r = 0; r < Rows; ++r) {
    MF_UNROLL
    for (int v = 0; v < Vectors; ++v) {
      low[r][v] = args.first ? _mm512_setzero_si512() : _mm512_loadu_si512(c + r * args.ldc + v * 8);
      high[r][v] = args.first ? _mm512_setzero_si512() : _mm512_loadu_si512(c + r * args.ldc + width + v * 8);
    }
  }
  const __m512i low_mask = _mm512_set1_epi64(static_cast<long long>(detail::low_limb_mask));
  for (std::size_t begin = 0; begin < args.steps; begin += detail::limb_steps_per_carry) {
    const std::size_t end = args.steps - begin < detail::limb_steps_per_carry ? args.steps
                                                                              : begin + detail::limb_steps_per_carry;
    for (std::size_t p = begin; p < end; ++p) {
      __m512i row[Vectors];
      MF_UNROLL
      for (int v = 0; v < Vectors; ++v) row[v] = _mm512_loadu_si512(b + p * width + v * 8);
      MF_UNROLL
      for (int r = 0; r < Rows; ++r) {
        const __m512i x = _mm512_set1_epi64(static_cast<long long>(a[p * Rows + r]));
        MF_UNROLL
        for (int v = 0; v < Vectors; ++v) {
          low[r][v] = _mm512_madd52lo_epu64(low[r][v], x, row[v]);
          high[r][v] = _mm512_madd52hi_epu64(high[r][v], x, row[v]);
        }
      }
    }
    // The carry: high += low >> 52, low keeps its 52 bits.
    MF_UNROLL
    for (int r = 0; r < Rows; ++r) {
      MF_UNROLL
      for (int v = 0; v < Vectors; ++v) {
        high[r][v] = _mm512_add_epi64(high[r][v], _mm512_srli_epi64(low[r][v], detail::limb_bits));
        low[r][v] = _mm512_and_si512(low[r][v], low_mask);
      }
    }
  }
  MF_UNROLL
  for (int r = 0; r < Rows; ++r) {
    MF_UNROLL
    for (int v = 0; v < Vectors; ++v) {
      _mm512_storeu_si512(c + r * args.ldc + v * 8, low[r][v]);
      _mm512_storeu_si512(c + r * args.ldc + width + v * 8, high[r][v]);
    }
  }
}

inline void limb_kernel(const tile_args& t) noexcept { limb_tile<rows, vectors>(t); }

// One row of finished elements (limb_sum.hpp's last step): the carried
// limbs of `columns` elements, in micro-panels of nr columns (nr low limbs,
// then nr high limbs; nr a multiple of 8), the sum of the row's A values and
// those of the columns' B values, each element rounded once to float32.
// Eight at a time where every |H| < 2^11 (then S is an int64 and
// VCVTQQ2PS rounds it, nearest even, as limb_sum_to_fp32 does); the other
// elements through limb_sum_to_fp32.
inline void limb_row(const std::uint64_t* acc, std::size_t nr, double row_sum, const double* column_sums,
                     std::size_t k, std::size_t columns, float* out) noexcept {
  const __m512i k_term = _mm512_set1_epi64(static_cast<long long>(k << 12));
  const __m512i r_mask = _mm512_set1_epi64((1 << 20) - 1);
  for (std::size_t jr = 0; jr < columns; jr += nr) {
    const std::uint64_t* low = acc + 2 * jr;
    const std::size_t width = nr < columns - jr ? nr : columns - jr;
    std::size_t j = 0;
    for (; j + 8 <= width; j += 8) {
      const __m512d sums = _mm512_add_pd(_mm512_set1_pd(row_sum), _mm512_loadu_pd(column_sums + jr + j));
      const __m512i n = _mm512_cvtpd_epi64(_mm512_mul_pd(sums, _mm512_set1_pd(65536.0)));  // exact
      const __m512i r = _mm512_and_si512(n, r_mask);
      const __m512i q = _mm512_srai_epi64(_mm512_sub_epi64(n, r), 20);
      const __m512i h = _mm512_sub_epi64(_mm512_sub_epi64(_mm512_loadu_si512(low + nr + j), k_term), q);
      const __m512i l = _mm512_sub_epi64(_mm512_loadu_si512(low + j), _mm512_slli_epi64(r, 32));
      // h in (-2^11, 2^11): h + 2047 below 4095, unsigned.
      const __mmask8 small = _mm512_cmplt_epu64_mask(_mm512_add_epi64(h, _mm512_set1_epi64(2047)),
                                                     _mm512_set1_epi64(4095));
      if (small == 0xFF) {
        const __m256 s = _mm512_cvtepi64_ps(_mm512_add_epi64(_mm512_slli_epi64(h, detail::limb_bits), l));
        _mm256_storeu_ps(out + jr + j, _mm256_mul_ps(s, _mm256_set1_ps(0x1p-32f)));
        continue;
      }
      for (std::size_t e = j; e < j + 8; ++e) {
        out[jr + e] = detail::limb_sum_to_fp32(low[e], low[nr + e], row_sum + column_sums[jr + e], k);
      }
    }
    for (; j < width; ++j) {
      out[jr + j] = detail::limb_sum_to_fp32(low[j], low[nr + j], row_sum + column_sums[jr + j], k);
    }
  }
}

// The packing (kernels/generic/pack.hpp's layouts and signatures, the
// values as offset integers, limb_sum.hpp): eight values of `from` from j
// on (+0 from `count` on) times 2^16, converted to int64 (exact: integers
// below 2^32 in magnitude, VCVTPD2QQ), plus 2^32.
MF_FORCE_INLINE __m512i operands_at(const float* from, std::size_t j, std::size_t count) noexcept {
  const std::size_t left = j < count ? count - j : 0;
  const __mmask8 present = left >= 8 ? __mmask8{0xFF} : static_cast<__mmask8>((1u << left) - 1);
  const __m256 v = from == nullptr ? _mm256_setzero_ps() : _mm256_maskz_loadu_ps(present, from + j);
  const __m512d scaled = _mm512_mul_pd(_mm512_cvtps_pd(v), _mm512_set1_pd(65536.0));
  return _mm512_add_epi64(_mm512_cvtpd_epi64(scaled), _mm512_set1_epi64(detail::limb_operand_offset));
}

inline void pack_b_step(const float* row, const float*, std::size_t columns, std::size_t padded_columns,
                        std::size_t nr, std::size_t steps, std::size_t step, void* panel_bytes) noexcept {
  auto* panel = static_cast<std::uint64_t*>(panel_bytes);
  for (std::size_t j = 0; j < padded_columns; j += 8) {
    _mm512_storeu_si512(panel + (j / nr) * nr * steps + step * nr + j % nr, operands_at(row, j, columns));
  }
}

inline void pack_a_row(const float* row, std::size_t depth, std::size_t block_steps, std::size_t mr,
                       void* tile_bytes) noexcept {
  auto* tile = static_cast<std::uint64_t*>(tile_bytes);
  alignas(64) std::uint64_t eight[8];
  for (std::size_t q = 0; q < block_steps; q += 8) {
    _mm512_store_si512(eight, operands_at(row, q, depth));
    for (std::size_t l = 0; l < 8 && q + l < block_steps; ++l) tile[(q + l) * mr] = eight[l];
  }
}

}  // namespace mf::hybrid::kernels::avx512_ifma
MF_SIMD_REGION_END
#endif
