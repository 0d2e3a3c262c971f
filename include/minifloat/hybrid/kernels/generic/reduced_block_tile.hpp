// The micro-kernel of the reduced_precision model in its `block` variant
// (docs/hybrid.md; DeepSeek-V3's description of FP8 tensor-core
// accumulation): per C element and promotion run, per block of `block`
// products, the partial sum and the block's products are aligned to the
// largest exponent emax among them, each cut to a multiple of
// Q = 2^(emax - bits + 1) (toward zero, or toward -Inf for `floor`), summed
// exactly, and the sum cut to `bits` significant bits is the new partial
// sum; after each run C = RN32(C + part). Written once over a target's
// float operations (Ops: simd/*/vector_ops.hpp), with their integer lanes.
// No include guard, on purpose: kernels/targets.hpp includes it once per
// target, inside that target's region and namespace, after
// generic/reduced_tile.hpp.
//
// Why the lanes give the model's bits, for E4M3, E5M2 and FP16 operands in
// any pair, bits <= 24 and block <= 64 (micro_kernel_for checks them):
// 1. Products are exact in float32 (at most 22 bits, multiples of 2^-48,
//    below 2^32), as in generic/reduced_tile.hpp. A first pass over the
//    block keeps them (in a buffer in L1) and their largest magnitude m
//    beside the part's; comparing float32 bit patterns of magnitudes
//    compares the magnitudes, and puts Inf and NaN above every number.
// 2. emax is m's exponent field minus the bias. While emax < 64 (and every
//    term is finite), 1/Q = 2^(bits - 1 - emax) and Q are normal float32
//    powers of two, and every term times 1/Q is exact and normal (terms are
//    at least 2^-48, so at least 2^(bits - 112)). Each term is below
//    2^(emax + 1), so its cut (the conversion to int32 toward zero or
//    toward -Inf) is an integer of at most `bits` bits, and the block's
//    sum of at most 65 of them is below 2^31: the int32 sum is exact.
// 3. Cutting that integer to `bits` bits: the conversion to float32 in the
//    same direction cuts it to 24 bits, and clearing (or, for negative
//    values under `floor`, rounding up in magnitude) the low 24 - bits
//    significand bits cuts it to `bits`; the two cuts compose as in
//    generic/reduced_tile.hpp (2., 4.). Times Q (a power of two, exact)
//    it is the model's part. An exact zero sum is +0, as the model's.
// 4. A block where some element's terms include Inf or NaN, or reach 2^64
//    (a part that `floor` made grow), is computed for every element of the
//    tile by the reference's own block step (hybrid::detail::
//    reduced_block_step), so those rare cases are the model by
//    construction; a part past float32's range is -Inf, which the
//    promotion turns into the model's -Inf (generic/reduced_tile.hpp, 7.).
//
// Packed operands as fma_tile's (one float per k, packing::float32);
// `chunk` is promote_every (the driver's K blocks hold whole runs), `block`
// the block size.

inline constexpr std::size_t max_reduced_block = 64;

// A term's cut in units of Q: term / Q (exact, 2.) converted to int32 toward
// zero, or toward -Inf under `floor`.
template <class Ops, truncation Mode>
MF_FORCE_INLINE typename Ops::ivec cut_to_units(const typename Ops::vec& term,
                                                const typename Ops::vec& inverse_quantum) noexcept {
  const typename Ops::vec scaled = Ops::mul(term, inverse_quantum);
  return Mode == truncation::floor ? Ops::to_int_floor(scaled) : Ops::to_int_toward_zero(scaled);
}

template <class Ops, std::size_t Rows, std::size_t Vectors, std::size_t SumRows, truncation Mode>
void reduced_block_tile_in(const tile_args& args) noexcept {
  static_assert(Rows % SumRows == 0, "the second pass takes whole groups of SumRows rows");
  using vec = typename Ops::vec;
  using ivec = typename Ops::ivec;
  constexpr std::size_t lanes = Ops::lanes;
  constexpr std::size_t width = Vectors * lanes;
  const auto* a = static_cast<const float*>(args.a);
  const auto* b = static_cast<const float*>(args.b);
  auto* c = static_cast<float*>(args.c);
  const std::size_t ldc = args.ldc;
  const int bits = args.bits;
  const vec keep = Ops::broadcast_bits(~std::uint32_t{0} << (24 - bits));
  const vec below_every_term = Ops::broadcast_bits(std::uint32_t{127 - 60} << 23);  // 2^-60
  const vec slow_limit = Ops::broadcast_bits(std::uint32_t{127 + 64} << 23);       // 2^64
  const ivec inverse_bias = Ops::int_broadcast(bits + 253);  // 1/Q's biased exponent + m's
  const ivec quantum_bias = Ops::int_broadcast(bits - 1);     // m's biased exponent - Q's
  accumulation_model model = models::reduced_precision(bits, 1, reduced_variant::block,
                                                       static_cast<int>(args.block), Mode);
  if (args.first) store_zero_tile<Ops, Rows, Vectors>(c, ldc);
  vec products[max_reduced_block][Rows][Vectors];
  for (std::size_t run = 0; run < args.steps; run += args.chunk) {
    const std::size_t run_end = run + args.chunk < args.steps ? run + args.chunk : args.steps;
    vec part[Rows][Vectors];
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) {
      MF_UNROLL
      for (std::size_t v = 0; v < Vectors; ++v) part[r][v] = Ops::zero();
    }
    for (std::size_t first = run; first < run_end; first += args.block) {
      const std::size_t n = first + args.block < run_end ? args.block : run_end - first;
      // Pass 1: the products and the largest magnitude per element.
      vec largest[Rows][Vectors];
      MF_UNROLL
      for (std::size_t r = 0; r < Rows; ++r) {
        MF_UNROLL
        for (std::size_t v = 0; v < Vectors; ++v) largest[r][v] = Ops::max_magnitude(below_every_term, part[r][v]);
      }
      for (std::size_t s = 0; s < n; ++s) {
        const std::size_t p = first + s;
        vec row[Vectors];
        MF_UNROLL
        for (std::size_t v = 0; v < Vectors; ++v) row[v] = Ops::loadu(b + p * width + v * lanes);
        MF_UNROLL
        for (std::size_t r = 0; r < Rows; ++r) {
          const vec x = Ops::broadcast(a[p * Rows + r]);
          MF_UNROLL
          for (std::size_t v = 0; v < Vectors; ++v) {
            products[s][r][v] = Ops::mul(x, row[v]);
            largest[r][v] = Ops::max_magnitude(largest[r][v], products[s][r][v]);
          }
        }
      }
      bool slow = false;
      MF_UNROLL
      for (std::size_t r = 0; r < Rows; ++r) {
        MF_UNROLL
        for (std::size_t v = 0; v < Vectors; ++v) slow = slow || Ops::any_at_least(largest[r][v], slow_limit);
      }
      if (slow) {  // 4.: the reference's block step, element by element
        float column_a[max_reduced_block], column_b[max_reduced_block];
        for (std::size_t r = 0; r < Rows; ++r) {
          for (std::size_t v = 0; v < Vectors; ++v) {
            alignas(64) float values[lanes];
            Ops::storeu(values, part[r][v]);
            for (std::size_t lane = 0; lane < lanes; ++lane) {
              for (std::size_t s = 0; s < n; ++s) {
                column_a[s] = a[(first + s) * Rows + r];
                column_b[s] = b[(first + s) * width + v * lanes + lane];
              }
              values[lane] = static_cast<float>(hybrid::detail::reduced_block_step(
                  model, static_cast<double>(values[lane]), column_a, column_b, n, sum_layout{}));
            }
            part[r][v] = Ops::loadu(values);
          }
        }
        continue;
      }
      // Pass 2: the cut terms summed in int32, the sum cut to `bits`. The
      // loop over the products runs outside the loop over the elements, so
      // a group's sums are independent chains. A group of SumRows rows
      // keeps its sums and 1/Q in registers: where the whole tile's do not
      // fit (16 ymm), reloading 1/Q with each product doubles the loads
      // that bound this loop.
      vec inverse[Rows][Vectors];
      ivec sum[Rows][Vectors];
      MF_UNROLL
      for (std::size_t r = 0; r < Rows; ++r) {
        MF_UNROLL
        for (std::size_t v = 0; v < Vectors; ++v) {
          inverse[r][v] = Ops::power_of_two(Ops::int_sub(inverse_bias, Ops::biased_exponent(largest[r][v])));
          sum[r][v] = cut_to_units<Ops, Mode>(part[r][v], inverse[r][v]);
        }
      }
      MF_UNROLL
      for (std::size_t group = 0; group < Rows; group += SumRows) {
        for (std::size_t s = 0; s < n; ++s) {
          MF_UNROLL
          for (std::size_t r = group; r < group + SumRows; ++r) {
            MF_UNROLL
            for (std::size_t v = 0; v < Vectors; ++v) {
              sum[r][v] = Ops::int_add(sum[r][v], cut_to_units<Ops, Mode>(products[s][r][v], inverse[r][v]));
            }
          }
        }
      }
      MF_UNROLL
      for (std::size_t r = 0; r < Rows; ++r) {
        MF_UNROLL
        for (std::size_t v = 0; v < Vectors; ++v) {
          const vec quantum = Ops::power_of_two(Ops::int_sub(Ops::biased_exponent(largest[r][v]), quantum_bias));
          const vec cut = Mode == truncation::floor
                              ? Ops::floor_significand(Ops::from_int_floor(sum[r][v]), keep)
                              : Ops::bit_and(Ops::from_int_toward_zero(sum[r][v]), keep);
          part[r][v] = Ops::mul(cut, quantum);
        }
      }
    }
    add_to_tile<Ops, Rows, Vectors>(c, ldc, part);
  }
}

template <class Ops, std::size_t Rows, std::size_t Vectors, std::size_t SumRows>
void reduced_block_tile(const tile_args& args) noexcept {
  if (args.trunc == truncation::floor) {
    reduced_block_tile_in<Ops, Rows, Vectors, SumRows, truncation::floor>(args);
  } else {
    reduced_block_tile_in<Ops, Rows, Vectors, SumRows, truncation::toward_zero>(args);
  }
}
