// The exact model's micro-kernel for E5M2, FP16 and BF16 operands on AVX2
// (and on AVX-512 CPUs without AVX512_IFMA): the limbs of
// kernels/limb_sum.hpp, the same offset integers and the same last step,
// with the products formed by float64 FMAs on pieces of the integers.
// Included by kernels/targets.hpp after tile_args.
//
// Why pieces. AVX2 has no 52-bit multiply, and VPMULUDQ (32 x 32 -> 64
// bits) runs one per cycle on a Zen 3 (family 25 model 1): 2.8 G products
// per second for an integer tile, against 4.1-4.6 G for the float64 one
// below, in the same loop shape (measured; FMAs run two per cycle). Each
// offset integer a = n + 2^40 in [1, 2^41) is packed as two float64
// pieces, a = a1 2^21 + a0 with a0 in [-2^20, 2^20) and a1 in [0, 2^20]
// (a1 = floor((a + 2^20) / 2^21)). A product of two is at most 2^40 in
// magnitude, so
//   a b = a1 b1 2^42 + (a0 b1 + a1 b0) 2^21 + a0 b0
// is three exact float64 chains per element: c00 = sum a0 b0 and c11 =
// sum a1 b1 (at most 2^40 per step) and c01 (at most 2^41 per step). Over
// fold_steps = 1024 steps every partial sum is an integer of at most 2^51
// in magnitude, exact in float64 (generic/exact_tile.hpp: an FMA chain
// whose partial sums fit 53 bits is exact). Every 1024 steps the chains are
// converted to integers (exact: x + 1.5 2^52 has x in its low bits for
// integers |x| <= 2^51) and added into the element's two limbs, low in
// [0, 2^52) and high, as the AVX512_IFMA tile keeps them: the C layout,
// the operand sums and the last step are limb_sum.hpp's, unchanged.
//
// Packed operands (kernels/driver.hpp, packing::offset_integers, 16 bytes
// per value): `a` holds the tile's A as `steps` steps of Rows pairs
// (a0, a1); `b` holds B as `steps` steps of the 4 columns' a0, then their
// a1. `c` (row stride ldc) holds each row's 4 low limbs, then its 4 high
// limbs.
//
// Why this shape: 4 rows x 1 ymm of 4 columns, 12 chains, 2 of B and a
// broadcast in 16 registers; four FMAs per four products. 3 rows with
// c01 split in two chains (no chain with two FMAs per step) measured
// 3.8-4.0 G products per second, below 4 x 1. An E4M3 operand takes a
// tile of two FMAs per four products (narrow_operand, below): about 1.45x
// the rate of the four-FMA tile at 1024^3 on the Zen 3, a narrow B with
// A in vectors and B broadcast (with A broadcast, 1.2-1.35x: eight
// broadcasts per step bound it).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "../../../../simd/x86/avx2/vector_ops.hpp"
#include "../../../../target/region.hpp"
#include "../../limb_sum.hpp"

#if MF_HAS_X86_KERNELS
#include "../../../../target/x86_intrinsics.hpp"

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::hybrid::kernels::avx2_limbs {
#include "../../generic/fma_tile.hpp"  // rounded_sum_of

inline constexpr int rows = 4, lanes = 4;  // a tile of 4 x 4 elements
inline constexpr std::size_t fold_steps = 1024;
inline constexpr int piece_bits = 21;

// 1.5 2^52: an integer |x| <= 2^51 plus it is exact, with x in the low
// bits of the sum's encoding.
inline constexpr std::int64_t magic_bits = 0x4338000000000000;
// The integer x as x + 2^62 (so that logical shifts divide it, rounding
// down, and masks take it modulo a power of two): the encoding of
// x + 1.5 2^52, plus this.
inline constexpr std::int64_t biased_from_magic = (std::int64_t{1} << 62) - magic_bits;

MF_FORCE_INLINE __m256i biased_integers(const __m256d& chain) noexcept {
  const __m256d magic = _mm256_castsi256_pd(_mm256_set1_epi64x(magic_bits));
  return _mm256_add_epi64(_mm256_castpd_si256(_mm256_add_pd(chain, magic)), _mm256_set1_epi64x(biased_from_magic));
}

MF_FORCE_INLINE __m256i low_bits(const __m256i& x, int bits) noexcept {
  return _mm256_and_si256(x, _mm256_set1_epi64x((std::int64_t{1} << bits) - 1));
}

// Adds c11 2^42 + c01 2^21 + c00 to the limbs (low in [0, 2^52) before and
// after). With u = x + 2^62: the low limb takes each term's bits below 2^52
// (< 2^52 each), the high limb each term over 2^52, rounded down, and the
// carry of the low limb.
MF_FORCE_INLINE void fold(const __m256d& c00, const __m256d& c01, const __m256d& c11, __m256i& low,
                          __m256i& high) noexcept {
  constexpr int limb = detail::limb_bits;
  const __m256i u00 = biased_integers(c00), u01 = biased_integers(c01), u11 = biased_integers(c11);
  // The 2^62 of each term, after its shift.
  constexpr std::int64_t bias_sum = (std::int64_t{1} << (62 - limb)) + (std::int64_t{1} << (62 - limb + piece_bits)) +
                                    (std::int64_t{1} << (62 - limb + 2 * piece_bits));
  const __m256i bias = _mm256_set1_epi64x(bias_sum);
  low = _mm256_add_epi64(low, low_bits(u00, limb));
  low = _mm256_add_epi64(low, _mm256_slli_epi64(low_bits(u01, limb - piece_bits), piece_bits));
  low = _mm256_add_epi64(low, _mm256_slli_epi64(low_bits(u11, limb - 2 * piece_bits), 2 * piece_bits));
  high = _mm256_add_epi64(high, _mm256_srli_epi64(u00, limb));
  high = _mm256_add_epi64(high, _mm256_srli_epi64(u01, limb - piece_bits));
  high = _mm256_add_epi64(high, _mm256_srli_epi64(u11, limb - 2 * piece_bits));
  high = _mm256_sub_epi64(_mm256_add_epi64(high, _mm256_srli_epi64(low, limb)), bias);
  low = low_bits(low, limb);
}

// Which operand is E4M3, whose offset integers all have the high piece
// a1 = 2^19 (|n| < 2^18, so 0 < n + 2^20 < 2^21) and the low piece a0 = n:
// the products with a1 are 2^19 times the other operand's pieces, summed
// by additions, and two FMAs per four products remain. With a narrow A,
// c01 = sum a0 b1 + 2^19 sum b0 and c11 = 2^19 sum b1, the sums of B's
// pieces shared by the tile's rows; with a narrow B, c01 = sum a1 b0 +
// 2^19 sum a0 and c11 = 2^19 sum a1, the sums of each row's pieces. Over a
// segment the sums of pieces are below 2^30, the products' chains below
// 2^48 (an E4M3 n is below 2^18), and c01 below 2^50: exact, within the
// fold's 2^51.
enum class narrow_operand { none, a, b };

// Steps [begin, end) with a narrow B, folding as multiply_limb_steps does.
// A's pieces stay in vectors as packed, (a0, a1) of two rows per vector,
// times each column's b0 broadcast: acc[j][v] sums (a0 b0, a1 b0) of rows
// 2 v and 2 v + 1 with column j, a 4 x 4 transpose from the rows' chains.
// Four broadcasts per step, where broadcasting A takes eight, which bound
// that form (1.3x slower in L1 on a Zen 3).
template <std::size_t Rows>
MF_FORCE_INLINE void multiply_narrow_b_steps(const double* a, const double* b, std::size_t begin,
                                             std::size_t end, __m256i (&low)[Rows],
                                             __m256i (&high)[Rows]) noexcept {
  static_assert(Rows % 2 == 0 && lanes == 4, "two rows' pieces per vector, and a 4 x 4 transpose");
  constexpr std::size_t pairs = Rows / 2;
  const __m256d high_piece = _mm256_set1_pd(0x1p19);
  for (std::size_t segment = begin; segment < end; segment += fold_steps) {
    const std::size_t segment_end = end - segment < fold_steps ? end : segment + fold_steps;
    __m256d acc[lanes][pairs], row_pieces[pairs];
    MF_UNROLL
    for (std::size_t v = 0; v < pairs; ++v) {
      row_pieces[v] = _mm256_setzero_pd();
      MF_UNROLL
      for (std::size_t j = 0; j < lanes; ++j) acc[j][v] = _mm256_setzero_pd();
    }
    for (std::size_t p = segment; p < segment_end; ++p) {
      __m256d x[pairs];
      MF_UNROLL
      for (std::size_t v = 0; v < pairs; ++v) {
        x[v] = _mm256_loadu_pd(a + (p * Rows + 2 * v) * 2);
        row_pieces[v] = _mm256_add_pd(row_pieces[v], x[v]);
      }
      MF_UNROLL
      for (std::size_t j = 0; j < lanes; ++j) {
        const __m256d y = _mm256_broadcast_sd(b + p * 8 + j);
        MF_UNROLL
        for (std::size_t v = 0; v < pairs; ++v) acc[j][v] = _mm256_fmadd_pd(x[v], y, acc[j][v]);
      }
    }
    MF_UNROLL
    for (std::size_t v = 0; v < pairs; ++v) {
      // t0 = a0 products of columns 0, 1 (rows 2v, 2v + 1 in the halves),
      // t1 the a1 products; t2, t3 those of columns 2, 3.
      const __m256d t0 = _mm256_unpacklo_pd(acc[0][v], acc[1][v]), t1 = _mm256_unpackhi_pd(acc[0][v], acc[1][v]);
      const __m256d t2 = _mm256_unpacklo_pd(acc[2][v], acc[3][v]), t3 = _mm256_unpackhi_pd(acc[2][v], acc[3][v]);
      alignas(32) double sums[4];  // a0 and a1 of row 2v, then of row 2v + 1
      _mm256_store_pd(sums, row_pieces[v]);
      const std::size_t r = 2 * v;
      fold(_mm256_permute2f128_pd(t0, t2, 0x20),
           _mm256_fmadd_pd(_mm256_set1_pd(sums[0]), high_piece, _mm256_permute2f128_pd(t1, t3, 0x20)),
           _mm256_set1_pd(sums[1] * 0x1p19), low[r], high[r]);
      fold(_mm256_permute2f128_pd(t0, t2, 0x31),
           _mm256_fmadd_pd(_mm256_set1_pd(sums[2]), high_piece, _mm256_permute2f128_pd(t1, t3, 0x31)),
           _mm256_set1_pd(sums[3] * 0x1p19), low[r + 1], high[r + 1]);
    }
  }
}

// Steps [begin, end) of the products into the limbs, folding the chains
// every fold_steps steps and at the end.
template <narrow_operand Narrow, std::size_t Rows>
MF_FORCE_INLINE void multiply_limb_steps(const double* a, const double* b, std::size_t begin, std::size_t end,
                                         __m256i (&low)[Rows], __m256i (&high)[Rows]) noexcept {
  if constexpr (Narrow == narrow_operand::b) {
    multiply_narrow_b_steps<Rows>(a, b, begin, end, low, high);
    return;
  }
  const __m256d high_piece = _mm256_set1_pd(0x1p19);  // a narrow operand's a1
  for (std::size_t segment = begin; segment < end; segment += fold_steps) {
    const std::size_t segment_end = end - segment < fold_steps ? end : segment + fold_steps;
    // With a narrow A, c11[0] holds the sum of B's high pieces and low_sum
    // that of its low pieces, until the fold.
    __m256d c00[Rows], c01[Rows], c11[Rows], low_sum = _mm256_setzero_pd();
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) c00[r] = c01[r] = c11[r] = _mm256_setzero_pd();
    for (std::size_t p = segment; p < segment_end; ++p) {
      const __m256d b0 = _mm256_loadu_pd(b + p * 8);
      const __m256d b1 = _mm256_loadu_pd(b + p * 8 + 4);
      if constexpr (Narrow == narrow_operand::a) {
        low_sum = _mm256_add_pd(low_sum, b0);
        c11[0] = _mm256_add_pd(c11[0], b1);
        MF_UNROLL
        for (std::size_t r = 0; r < Rows; ++r) {
          const __m256d x0 = _mm256_broadcast_sd(a + (p * Rows + r) * 2);
          c00[r] = _mm256_fmadd_pd(x0, b0, c00[r]);
          c01[r] = _mm256_fmadd_pd(x0, b1, c01[r]);
        }
        continue;
      }
      MF_UNROLL
      for (std::size_t r = 0; r < Rows; ++r) {
        const double* pieces = a + (p * Rows + r) * 2;
        const __m256d x0 = _mm256_broadcast_sd(pieces);
        c00[r] = _mm256_fmadd_pd(x0, b0, c00[r]);
        c01[r] = _mm256_fmadd_pd(x0, b1, c01[r]);
        const __m256d x1 = _mm256_broadcast_sd(pieces + 1);
        c01[r] = _mm256_fmadd_pd(x1, b0, c01[r]);
        c11[r] = _mm256_fmadd_pd(x1, b1, c11[r]);
      }
    }
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) {
      if constexpr (Narrow == narrow_operand::a) {
        fold(c00[r], _mm256_fmadd_pd(low_sum, high_piece, c01[r]), _mm256_mul_pd(c11[0], high_piece), low[r],
             high[r]);
      } else {
        fold(c00[r], c01[r], c11[r], low[r], high[r]);
      }
    }
  }
}

template <narrow_operand Narrow, std::size_t Rows>
void limb_sum_tile(const tile_args& args) noexcept {
  auto* c = static_cast<std::uint64_t*>(args.c);
  __m256i low[Rows], high[Rows];
  MF_UNROLL
  for (std::size_t r = 0; r < Rows; ++r) {
    const auto* at = reinterpret_cast<const __m256i*>(c + r * args.ldc);
    low[r] = args.first ? _mm256_setzero_si256() : _mm256_loadu_si256(at);
    high[r] = args.first ? _mm256_setzero_si256() : _mm256_loadu_si256(at + 1);
  }
  multiply_limb_steps<Narrow, Rows>(static_cast<const double*>(args.a), static_cast<const double*>(args.b), 0,
                                    args.steps, low, high);
  MF_UNROLL
  for (std::size_t r = 0; r < Rows; ++r) {
    auto* at = reinterpret_cast<__m256i*>(c + r * args.ldc);
    _mm256_storeu_si256(at, low[r]);
    _mm256_storeu_si256(at + 1, high[r]);
  }
}

// An int64 |x| <= 2^51 as a double (exact; AVX2 has no such conversion).
MF_FORCE_INLINE __m256d exact_double(const __m256i& x) noexcept {
  const __m256d magic = _mm256_castsi256_pd(_mm256_set1_epi64x(magic_bits));
  return _mm256_sub_pd(_mm256_castsi256_pd(_mm256_add_epi64(x, _mm256_set1_epi64x(magic_bits))), magic);
}

// x / 2^bits rounded down, for |x| < 2^62 (AVX2 has no 64-bit arithmetic
// shift).
MF_FORCE_INLINE __m256i floor_shift(const __m256i& x, int bits) noexcept {
  const __m256i biased = _mm256_add_epi64(x, _mm256_set1_epi64x(std::int64_t{1} << 62));
  return _mm256_sub_epi64(_mm256_srli_epi64(biased, bits), _mm256_set1_epi64x(std::int64_t{1} << (62 - bits)));
}

// Four elements' S = H 2^52 + L (limb_sum.hpp's limb_parts_of) as exact
// doubles, from their limbs and the sums of their rows' and columns'
// integers; k_term = K 2^28. |H| < 2^49; L in (-2^52, 2^52) is converted
// in two halves of 32 bits.
struct four_parts {
  __m256d high, low;
};

MF_FORCE_INLINE four_parts four_parts_of(const __m256i& low, const __m256i& high, const __m256i& sums,
                                         const __m256i& k_term) noexcept {
  constexpr int q_shift = detail::limb_bits - detail::limb_offset_bits;
  const __m256i r = low_bits(sums, q_shift);
  const __m256i h = _mm256_sub_epi64(_mm256_sub_epi64(high, k_term), floor_shift(sums, q_shift));
  const __m256i l = _mm256_sub_epi64(low, _mm256_slli_epi64(r, detail::limb_offset_bits));
  const __m256d l_high = exact_double(floor_shift(l, 32)), l_low = exact_double(low_bits(l, 32));
  return {exact_double(h), _mm256_fmadd_pd(l_high, _mm256_set1_pd(0x1p32), l_low)};
}

// x + y for four pairs of doubles, rounded once to float32 in `mode`
// (limb_sum.hpp), as doubles.
MF_FORCE_INLINE __m256d rounded_sum(const __m256d& x, const __m256d& y, fp32_rounding mode) noexcept {
  return rounded_sum_of<simd::avx2::double_ops>(x, y, mode);
}

// limb_sum.hpp's chunk step for four elements, in registers (as
// x86/avx512/limb_tile.hpp's for eight): the acc after a chunk whose exact
// sum is s (in units of 2^-value_scale), from the acc before it, unit =
// 2^value_scale, c0_scale = 2^(52 - value_scale) and c1_scale =
// 2^-value_scale. Without presum_round, acc in units is hi 2^52 + lo
// (exact: a power of two, a floor and a difference), and H + hi, L + lo
// are exact doubles (below 2^53), added here rather than as int64.
struct chunk_step_constants {
  __m256d unit, c0_scale, c1_scale;
};

MF_FORCE_INLINE __m256d chunk_step(const four_parts& s, const __m256d& before, const chunk_step_constants& c,
                                   fp32_rounding mode, bool presum_round) noexcept {
  const auto once = [&](const __m256d& h, const __m256d& l) {
    return rounded_sum(_mm256_mul_pd(h, c.c0_scale), _mm256_mul_pd(l, c.c1_scale), mode);
  };
  if (presum_round) return rounded_sum(before, once(s.high, s.low), mode);  // Inf + -Inf: NaN
  const __m256d units = _mm256_mul_pd(before, c.unit);
  const __m256d hi = _mm256_floor_pd(_mm256_mul_pd(units, _mm256_set1_pd(0x1p-52)));
  const __m256d lo = _mm256_fnmadd_pd(hi, _mm256_set1_pd(0x1p52), units);
  const __m256d after = once(_mm256_add_pd(s.high, hi), _mm256_add_pd(s.low, lo));
  const __m256d magnitude = _mm256_andnot_pd(_mm256_set1_pd(-0.0), before);
  const __m256d finite = _mm256_cmp_pd(magnitude, _mm256_set1_pd(HUGE_VAL), _CMP_LT_OQ);
  return _mm256_blendv_pd(before, after, finite);  // Inf stays
}

// chunked_exact on the limbs: the tile's K block is whole chunks; each
// starts its limbs at 0, and at its end the chunk step folds every
// element's chunk sum into its model acc (tile_args::limb_chunks; read
// unless `first` and the first chunk, when it is +0).
template <narrow_operand Narrow, std::size_t Rows>
void limb_chunked_tile(const tile_args& args) noexcept {
  using ops = simd::avx2::double_ops;
  using hybrid::detail::power_of_two;
  const auto* a = static_cast<const double*>(args.a);
  const auto* b = static_cast<const double*>(args.b);
  const limb_chunk_sums& chunks = *args.limb_chunks;
  const int scale = chunks.value_scale;
  const chunk_step_constants constants{_mm256_set1_pd(power_of_two(scale)),
                                       _mm256_set1_pd(power_of_two(detail::limb_bits - scale)),
                                       _mm256_set1_pd(power_of_two(-scale))};
  for (std::size_t begin = 0; begin < args.steps; begin += args.chunk) {
    const std::size_t end = args.steps - begin < args.chunk ? args.steps : begin + args.chunk;
    __m256i low[Rows], high[Rows];
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) low[r] = high[r] = _mm256_setzero_si256();
    multiply_limb_steps<Narrow, Rows>(a, b, begin, end, low, high);
    const std::size_t index = begin / args.chunk;
    const std::int64_t* row_sums = chunks.row_sums + index * chunks.row_stride;
    const __m256i column_sums =
        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(chunks.column_sums + index * chunks.column_stride));
    constexpr int k_shift = 2 * detail::limb_offset_bits - detail::limb_bits;  // K 2^28
    const __m256i k_term = _mm256_set1_epi64x(static_cast<std::int64_t>((end - begin) << k_shift));
    const bool first = args.first && begin == 0;
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) {
      const __m256i sums = _mm256_add_epi64(_mm256_set1_epi64x(row_sums[r]), column_sums);
      float* out = chunks.model_acc + r * chunks.model_ld;
      const __m256d before = first ? _mm256_setzero_pd() : ops::load_widened(out);
      ops::store_narrowed(out, chunk_step(four_parts_of(low[r], high[r], sums, k_term), before, constants,
                                          args.rounding, args.presum_round));
    }
  }
}

template <narrow_operand Narrow, std::size_t Rows>
void limb_kernel(const tile_args& t) noexcept {
  if (t.limb_chunks != nullptr) {
    limb_chunked_tile<Narrow, Rows>(t);
  } else {
    limb_sum_tile<Narrow, Rows>(t);
  }
}

inline void any_pair_kernel(const tile_args& t) noexcept { limb_kernel<narrow_operand::none, rows>(t); }
inline void narrow_a_kernel(const tile_args& t) noexcept { limb_kernel<narrow_operand::a, rows>(t); }
inline void narrow_b_kernel(const tile_args& t) noexcept { limb_kernel<narrow_operand::b, rows>(t); }

// Four values of the packing (limb_sum.hpp): n = value 2^scale (an integer
// below 2^40 in magnitude), its offset integer a = n + 2^40 as the pieces
// a0 and a1 (above), and n as int64 for the operand sums.
struct packed_four {
  __m256d a0, a1;
  __m256i n;
};

// The values of `from` at [j, j + 4), those from `count` on (and all, for
// a null `from`) +0.
MF_FORCE_INLINE packed_four pack_four(const float* from, std::size_t j, std::size_t count,
                                      const __m256d& scale) noexcept {
  const std::size_t left = j < count ? count - j : 0;
  __m128 v = _mm_setzero_ps();
  if (from != nullptr && left >= 4) {
    v = _mm_loadu_ps(from + j);
  } else if (from != nullptr && left > 0) {
    const __m128i lane = _mm_setr_epi32(0, 1, 2, 3);
    v = _mm_maskload_ps(from + j, _mm_cmplt_epi32(lane, _mm_set1_epi32(static_cast<int>(left))));
  }
  const __m256d n = _mm256_mul_pd(_mm256_cvtps_pd(v), scale);
  const __m256d a = _mm256_add_pd(n, _mm256_set1_pd(0x1p40));
  const __m256d a1 = _mm256_floor_pd(_mm256_mul_pd(_mm256_add_pd(a, _mm256_set1_pd(0x1p20)), _mm256_set1_pd(0x1p-21)));
  const __m256d a0 = _mm256_fnmadd_pd(a1, _mm256_set1_pd(0x1p21), a);
  const __m256d magic = _mm256_castsi256_pd(_mm256_set1_epi64x(magic_bits));
  const __m256i integer =
      _mm256_sub_epi64(_mm256_castpd_si256(_mm256_add_pd(n, magic)), _mm256_set1_epi64x(magic_bits));
  return {a0, a1, integer};
}

// One step of B into every micro-panel of a panel (nr = 4: the 4 columns'
// a0, then their a1), each column's n added to column_sums[j] (j <
// columns).
inline void pack_b_step(const float* row, std::size_t columns, std::size_t padded_columns, std::size_t nr,
                        std::size_t steps, std::size_t step, int scale, void* panel_bytes,
                        std::int64_t* column_sums) noexcept {
  auto* panel = static_cast<double*>(panel_bytes);
  const __m256d factor = _mm256_set1_pd(std::ldexp(1.0, scale));
  for (std::size_t j = 0; j < padded_columns; j += lanes) {
    const packed_four v = pack_four(row, j, columns, factor);
    double* at = panel + 2 * b_panel_offset(j, nr, steps, step);
    _mm256_storeu_pd(at, v.a0);
    _mm256_storeu_pd(at + 4, v.a1);
    alignas(32) std::int64_t n[4];
    _mm256_store_si256(reinterpret_cast<__m256i*>(n), v.n);
    for (std::size_t l = 0; l < 4 && j + l < columns; ++l) column_sums[j + l] += n[l];
  }
}

// One row of an A block into its micro-panel (the pairs (a0, a1) of
// `block_steps` steps, mr pairs apart; a null row is a padding row, packed
// as +0's); returns the sum of its n.
inline std::int64_t pack_a_row(const float* row, std::size_t depth, std::size_t block_steps, std::size_t mr,
                               int scale, void* tile_bytes) noexcept {
  auto* tile = static_cast<double*>(tile_bytes);
  const __m256d factor = _mm256_set1_pd(std::ldexp(1.0, scale));
  __m256i sum = _mm256_setzero_si256();
  alignas(32) double a0[4], a1[4];
  for (std::size_t q = 0; q < block_steps; q += 4) {
    const packed_four v = pack_four(row, q, depth, factor);
    sum = _mm256_add_epi64(sum, v.n);
    _mm256_store_pd(a0, v.a0);
    _mm256_store_pd(a1, v.a1);
    for (std::size_t l = 0; l < 4 && q + l < block_steps; ++l) {
      tile[2 * (q + l) * mr] = a0[l];
      tile[2 * (q + l) * mr + 1] = a1[l];
    }
  }
  alignas(32) std::int64_t sums[4];
  _mm256_store_si256(reinterpret_cast<__m256i*>(sums), sum);
  return sums[0] + sums[1] + sums[2] + sums[3];
}

}  // namespace mf::hybrid::kernels::avx2_limbs
MF_SIMD_REGION_END
#endif
