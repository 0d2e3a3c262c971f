// The exact model's micro-kernel for E5M2 and FP16 operands on
// AVX512_IFMA: the sum of products as an integer in two 52-bit limbs per
// element (kernels/limb_sum.hpp says why that is exact and how it becomes
// float32), with its packing and its last step. Included by
// kernels/targets.hpp after tile_args.
//
// Packed operands (kernels/driver.hpp, packing::offset_integers): `a` holds
// the tile's A as `steps` steps of Rows unsigned integers, `b` holds B as
// `steps` steps of Vectors * 8. `c` (row stride ldc) holds each row's
// Vectors * 8 low limbs, then its Vectors * 8 high limbs, carried from the
// previous K block (low limbs below 2^52) unless `first` (then 0). For
// chunked_exact (tile_args::limb_chunks) the limbs stay in registers and
// the tile updates the model's float32 acc instead.
//
// Why this shape: two instructions per eight products, and on an AMD Zen 5
// (family 26 model 2) VPMADD52LUQ/HUQ on zmm run two per cycle, as FMAs do
// (measured: 64 GFLOP/s for this loop, against 128 for a float64 FMA tile
// and 40 for float64 FMAs into two chains chosen by a compare mask). 6 rows
// x 2 zmm: 24 accumulators, 2 of B and a broadcast in 32 registers.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "../../../../simd/x86/avx512/vector_ops.hpp"
#include "../../../../target/region.hpp"
#include "../../limb_sum.hpp"

#if MF_HAS_X86_KERNELS
#include "../../../../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX512_IFMA
namespace mf::hybrid::kernels::avx512_ifma {
#include "../../generic/fma_tile.hpp"  // rounded_sum_of

inline constexpr int rows = 6, vectors = 2;

// Steps [begin, end) of the products into the limbs, carrying the low
// limbs into the high ones after every limb_steps_per_carry steps and at
// the end (so low limbs leave below 2^52).
template <std::size_t Rows, std::size_t Vectors>
MF_FORCE_INLINE void multiply_limb_steps(const std::uint64_t* a, const std::uint64_t* b, std::size_t begin,
                                         std::size_t end, __m512i (&low)[Rows][Vectors],
                                         __m512i (&high)[Rows][Vectors]) noexcept {
  constexpr std::size_t width = Vectors * 8;
  const __m512i low_mask = _mm512_set1_epi64(static_cast<long long>(detail::low_limb_mask));
  for (std::size_t segment = begin; segment < end; segment += detail::limb_steps_per_carry) {
    const std::size_t segment_end =
        end - segment < detail::limb_steps_per_carry ? end : segment + detail::limb_steps_per_carry;
    for (std::size_t p = segment; p < segment_end; ++p) {
      __m512i row[Vectors];
      MF_UNROLL
      for (std::size_t v = 0; v < Vectors; ++v) row[v] = _mm512_loadu_si512(b + p * width + v * 8);
      MF_UNROLL
      for (std::size_t r = 0; r < Rows; ++r) {
        const __m512i x = _mm512_set1_epi64(static_cast<long long>(a[p * Rows + r]));
        MF_UNROLL
        for (std::size_t v = 0; v < Vectors; ++v) {
          low[r][v] = _mm512_madd52lo_epu64(low[r][v], x, row[v]);
          high[r][v] = _mm512_madd52hi_epu64(high[r][v], x, row[v]);
        }
      }
    }
    // The carry: high += low >> 52, low keeps its 52 bits.
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) {
      MF_UNROLL
      for (std::size_t v = 0; v < Vectors; ++v) {
        high[r][v] = _mm512_add_epi64(high[r][v], _mm512_srli_epi64(low[r][v], detail::limb_bits));
        low[r][v] = _mm512_and_si512(low[r][v], low_mask);
      }
    }
  }
}

template <std::size_t Rows, std::size_t Vectors>
void limb_sum_tile(const tile_args& args) noexcept {
  constexpr std::size_t width = Vectors * 8;
  auto* c = static_cast<std::uint64_t*>(args.c);
  __m512i low[Rows][Vectors], high[Rows][Vectors];
  MF_UNROLL
  for (std::size_t r = 0; r < Rows; ++r) {
    MF_UNROLL
    for (std::size_t v = 0; v < Vectors; ++v) {
      low[r][v] = args.first ? _mm512_setzero_si512() : _mm512_loadu_si512(c + r * args.ldc + v * 8);
      high[r][v] = args.first ? _mm512_setzero_si512() : _mm512_loadu_si512(c + r * args.ldc + width + v * 8);
    }
  }
  multiply_limb_steps<Rows, Vectors>(static_cast<const std::uint64_t*>(args.a),
                                     static_cast<const std::uint64_t*>(args.b), 0, args.steps, low, high);
  MF_UNROLL
  for (std::size_t r = 0; r < Rows; ++r) {
    MF_UNROLL
    for (std::size_t v = 0; v < Vectors; ++v) {
      _mm512_storeu_si512(c + r * args.ldc + v * 8, low[r][v]);
      _mm512_storeu_si512(c + r * args.ldc + width + v * 8, high[r][v]);
    }
  }
}


// Eight elements' S = H 2^52 + L (limb_sum.hpp's limb_parts_of), from
// their carried limbs (low limbs at `low`, high limbs nr further) and the
// sums of their rows' and columns' integers; k_term = K 2^28.
struct eight_limb_parts {
  __m512i high, low;
};

MF_FORCE_INLINE eight_limb_parts eight_parts_of(const __m512i& low, const __m512i& high, const __m512i& sums,
                                                const __m512i& k_term) noexcept {
  constexpr int q_shift = detail::limb_bits - detail::limb_offset_bits;
  const __m512i r = _mm512_and_si512(sums, _mm512_set1_epi64((1 << q_shift) - 1));
  const __m512i q = _mm512_srai_epi64(_mm512_sub_epi64(sums, r), q_shift);
  return {_mm512_sub_epi64(_mm512_sub_epi64(high, k_term), q),
          _mm512_sub_epi64(low, _mm512_slli_epi64(r, detail::limb_offset_bits))};
}

MF_FORCE_INLINE eight_limb_parts eight_parts_at(const std::uint64_t* low, std::size_t nr, const __m512i& sums,
                                                const __m512i& k_term) noexcept {
  return eight_parts_of(_mm512_loadu_si512(low), _mm512_loadu_si512(low + nr), sums, k_term);
}

MF_FORCE_INLINE __m512i limb_k_term(std::size_t k) noexcept {
  return _mm512_set1_epi64(static_cast<long long>(k << (2 * detail::limb_offset_bits - detail::limb_bits)));
}

// One row of finished elements (limb_sum.hpp's last step): the carried
// limbs of `columns` elements, in micro-panels of nr columns (nr low limbs,
// then nr high limbs; nr a multiple of 8), the sum of the row's n and
// those of the columns', each element rounded once to float32.
// Eight at a time where every |H| < 2^11 and the scale keeps the results
// normal (then S is an int64 and VCVTQQ2PS rounds it, nearest even, as
// limb_sum_to_fp32 does); the other elements through limb_sum_to_fp32.
inline void limb_row(const std::uint64_t* acc, std::size_t nr, std::int64_t row_sum,
                     const std::int64_t* column_sums, std::size_t k, int value_scale, std::size_t columns,
                     float* out) noexcept {
  const __m512i k_term = limb_k_term(k);
  const __m256 scale = _mm256_set1_ps(std::ldexp(1.0f, -value_scale));
  const bool fast = detail::limb_fast_conversion(value_scale);
  for (std::size_t jr = 0; jr < columns; jr += nr) {
    const std::uint64_t* low = acc + 2 * jr;
    const std::size_t width = nr < columns - jr ? nr : columns - jr;
    std::size_t j = 0;
    for (; j + 8 <= width; j += 8) {
      const __m512i sums =
          _mm512_add_epi64(_mm512_set1_epi64(row_sum), _mm512_loadu_si512(column_sums + jr + j));
      const eight_limb_parts parts = eight_parts_at(low + j, nr, sums, k_term);
      const __m512i h = parts.high, l = parts.low;
      // h in (-2^11, 2^11): h + 2047 below 4095, unsigned.
      const __mmask8 small =
          _mm512_cmplt_epu64_mask(_mm512_add_epi64(h, _mm512_set1_epi64(2047)), _mm512_set1_epi64(4095));
      if (small == 0xFF && fast) {
        const __m256 s = _mm512_cvtepi64_ps(_mm512_add_epi64(_mm512_slli_epi64(h, detail::limb_bits), l));
        _mm256_storeu_ps(out + jr + j, _mm256_mul_ps(s, scale));
        continue;
      }
      for (std::size_t e = j; e < j + 8; ++e) {
        out[jr + e] =
            detail::limb_sum_to_fp32(low[e], low[nr + e], row_sum + column_sums[jr + e], k, value_scale);
      }
    }
    for (; j < width; ++j) {
      out[jr + j] =
          detail::limb_sum_to_fp32(low[j], low[nr + j], row_sum + column_sums[jr + j], k, value_scale);
    }
  }
}

// x + y for eight pairs of doubles, rounded once to float32 in `mode`
// (limb_sum.hpp), as doubles.
MF_FORCE_INLINE __m512d rounded_sum(const __m512d& x, const __m512d& y, fp32_rounding mode) noexcept {
  return rounded_sum_of<simd::avx512::double_ops>(x, y, mode);
}

// Eight sums (H 2^52 + L) 2^-value_scale rounded once, from c0_scale =
// 2^(52 - value_scale) and c1_scale = 2^-value_scale.
MF_FORCE_INLINE __m512d rounded_once(const __m512i& h, const __m512i& l, const __m512d& c0_scale,
                                     const __m512d& c1_scale, fp32_rounding mode) noexcept {
  return rounded_sum(_mm512_mul_pd(_mm512_cvtepi64_pd(h), c0_scale), _mm512_mul_pd(_mm512_cvtepi64_pd(l), c1_scale),
                     mode);
}

// The chunk step's constants for one value scale (sa + sb).
struct chunk_step_constants {
  __m512d to_units, to_high, high_unit, c0_scale, c1_scale;
};

MF_FORCE_INLINE chunk_step_constants chunk_constants(int value_scale) noexcept {
  using hybrid::detail::power_of_two;  // not ldexp: this runs for every tile
  return {_mm512_set1_pd(power_of_two(value_scale)), _mm512_set1_pd(power_of_two(-detail::limb_bits)),
          _mm512_set1_pd(power_of_two(detail::limb_bits)),
          _mm512_set1_pd(power_of_two(detail::limb_bits - value_scale)),
          _mm512_set1_pd(power_of_two(-value_scale))};
}

// Eight elements' model acc after a chunk whose exact sum is s, from the
// acc before it (limb_sum.hpp's chunk step).
// Without optimisation g++'s header makes _mm512_roundscale_pd a macro whose
// all-ones mask (-1 into a char) a consumer's -Wsign-conversion would report
// here, in this file.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wsign-conversion"
#endif
MF_FORCE_INLINE __m512d chunk_step(const eight_limb_parts& s, const __m512d& before, const chunk_step_constants& c,
                                   fp32_rounding mode, bool presum_round) noexcept {
  if (presum_round) {
    // Opposite Infs give a NaN, which the epilogue makes the model's NaN.
    return rounded_sum(before, rounded_once(s.high, s.low, c.c0_scale, c.c1_scale, mode), mode);
  }
  // acc in units: hi 2^52 + lo, added to the chunk's parts.
  const __m512d units = _mm512_mul_pd(before, c.to_units);
  const __m512d hi = _mm512_roundscale_pd(_mm512_mul_pd(units, c.to_high), _MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC);
  const __m512d lo = _mm512_fnmadd_pd(hi, c.high_unit, units);
  const __m512d after = rounded_once(_mm512_add_epi64(s.high, _mm512_cvtpd_epi64(hi)),
                                     _mm512_add_epi64(s.low, _mm512_cvtpd_epi64(lo)), c.c0_scale, c.c1_scale, mode);
  const __m512d infinity = _mm512_set1_pd(std::numeric_limits<double>::infinity());
  const __mmask8 finite = _mm512_cmp_pd_mask(_mm512_abs_pd(before), infinity, _CMP_LT_OQ);
  return _mm512_mask_mov_pd(before, finite, after);  // Inf stays
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

// chunked_exact on the limbs: the tile's K block is whole chunks; each
// starts its limbs at 0, and at its end the step above folds every
// element's chunk sum into its model acc (tile_args::limb_chunks; read
// unless `first` and the first chunk, when it is +0), in registers.
template <std::size_t Rows, std::size_t Vectors>
void limb_chunked_tile(const tile_args& args) noexcept {
  using ops = simd::avx512::double_ops;
  const auto* a = static_cast<const std::uint64_t*>(args.a);
  const auto* b = static_cast<const std::uint64_t*>(args.b);
  const limb_chunk_sums& chunks = *args.limb_chunks;
  const chunk_step_constants constants = chunk_constants(chunks.value_scale);
  for (std::size_t begin = 0; begin < args.steps; begin += args.chunk) {
    const std::size_t end = args.steps - begin < args.chunk ? args.steps : begin + args.chunk;
    __m512i low[Rows][Vectors], high[Rows][Vectors];
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) {
      MF_UNROLL
      for (std::size_t v = 0; v < Vectors; ++v) low[r][v] = high[r][v] = _mm512_setzero_si512();
    }
    multiply_limb_steps<Rows, Vectors>(a, b, begin, end, low, high);
    const std::size_t index = begin / args.chunk;
    const std::int64_t* row_sums = chunks.row_sums + index * chunks.row_stride;
    const std::int64_t* column_sums = chunks.column_sums + index * chunks.column_stride;
    const __m512i k_term = limb_k_term(end - begin);
    const bool first = args.first && begin == 0;
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) {
      const __m512i row_sum = _mm512_set1_epi64(row_sums[r]);
      MF_UNROLL
      for (std::size_t v = 0; v < Vectors; ++v) {
        const __m512i sums = _mm512_add_epi64(row_sum, _mm512_loadu_si512(column_sums + v * 8));
        float* out = chunks.model_acc + r * chunks.model_ld + v * 8;
        const __m512d before = first ? _mm512_setzero_pd() : ops::load_widened(out);
        ops::store_narrowed(out, chunk_step(eight_parts_of(low[r][v], high[r][v], sums, k_term), before, constants,
                                            args.rounding, args.presum_round));
      }
    }
  }
}

inline void limb_kernel(const tile_args& t) noexcept {
  if (t.limb_chunks != nullptr) {
    limb_chunked_tile<rows, vectors>(t);
  } else {
    limb_sum_tile<rows, vectors>(t);
  }
}

// The packing (kernels/generic/pack.hpp's layouts, the values as offset
// integers, limb_sum.hpp): eight values of `from` from j on (+0 from
// `count` on, all +0 for a null `from`) times 2^scale, converted to int64
// (exact: integers below 2^40 in magnitude, VCVTPD2QQ).
MF_FORCE_INLINE __m512i integers_at(const float* from, std::size_t j, std::size_t count,
                                    const __m512d& scale) noexcept {
  const std::size_t left = j < count ? count - j : 0;
  const __mmask8 present = left >= 8 ? __mmask8{0xFF} : static_cast<__mmask8>((1u << left) - 1);
  const __m256 v = from == nullptr ? _mm256_setzero_ps() : _mm256_maskz_loadu_ps(present, from + j);
  return _mm512_cvtpd_epi64(_mm512_mul_pd(_mm512_cvtps_pd(v), scale));
}

// One step of B into every micro-panel of a panel (pack.hpp's pack_b_step
// layout), each column's n added to column_sums[j] (j < columns).
inline void pack_b_step(const float* row, std::size_t columns, std::size_t padded_columns, std::size_t nr,
                        std::size_t steps, std::size_t step, int scale, void* panel_bytes,
                        std::int64_t* column_sums) noexcept {
  auto* panel = static_cast<std::uint64_t*>(panel_bytes);
  const __m512d factor = _mm512_set1_pd(std::ldexp(1.0, scale));
  const __m512i offset = _mm512_set1_epi64(detail::limb_operand_offset);
  for (std::size_t j = 0; j < padded_columns; j += 8) {
    const __m512i n = integers_at(row, j, columns, factor);
    _mm512_storeu_si512(panel + b_panel_offset(j, nr, steps, step), _mm512_add_epi64(n, offset));
    if (j + 8 <= columns) {
      _mm512_storeu_si512(column_sums + j, _mm512_add_epi64(_mm512_loadu_si512(column_sums + j), n));
    } else if (j < columns) {
      const auto present = static_cast<__mmask8>((1u << (columns - j)) - 1);
      _mm512_mask_storeu_epi64(column_sums + j, present,
                               _mm512_add_epi64(_mm512_maskz_loadu_epi64(present, column_sums + j), n));
    }
  }
}

// One row of an A block into its micro-panel (pack.hpp's pack_a_row
// layout; a null row is a padding row, packed as +0's); returns the sum of
// its n.
inline std::int64_t pack_a_row(const float* row, std::size_t depth, std::size_t block_steps, std::size_t mr,
                               int scale, void* tile_bytes) noexcept {
  auto* tile = static_cast<std::uint64_t*>(tile_bytes);
  const __m512d factor = _mm512_set1_pd(std::ldexp(1.0, scale));
  const __m512i offset = _mm512_set1_epi64(detail::limb_operand_offset);
  __m512i sum = _mm512_setzero_si512();
  alignas(64) std::uint64_t eight[8];
  for (std::size_t q = 0; q < block_steps; q += 8) {
    const __m512i n = integers_at(row, q, depth, factor);
    sum = _mm512_add_epi64(sum, n);
    _mm512_store_si512(eight, _mm512_add_epi64(n, offset));
    for (std::size_t l = 0; l < 8 && q + l < block_steps; ++l) tile[(q + l) * mr] = eight[l];
  }
  return _mm512_reduce_add_epi64(sum);
}

}  // namespace mf::hybrid::kernels::avx512_ifma
MF_SIMD_REGION_END
#endif
