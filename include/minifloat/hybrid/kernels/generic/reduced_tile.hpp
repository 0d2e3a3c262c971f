// The micro-kernel of the reduced_precision model in its `seq` variant
// (docs/hybrid.md): per C element, runs of `promote_every` products are
// summed into a partial register, part = cut_bits(part + a_k * b_k) from
// part = +0, the cut a truncation of the exact sum to `bits` significant
// bits (toward zero, or toward -Inf for `floor`) with an unbounded
// exponent; after each run C = RN32(C + part). Written once over a
// target's float operations (Ops: simd/*/vector_ops.hpp). No include
// guard, on purpose: kernels/targets.hpp includes it once per target,
// inside that target's region and namespace.
//
// Why float32 lanes give the model's bits, for the operand types the
// kernel takes (E4M3, E5M2, FP16 in any pair; micro_kernel_for in
// targets.hpp checks them; bits <= 24; BF16 and float32 operands within
// the ranges fast_path.hpp checks, 8.):
// 1. Every product is exact in float32: at most 11 + 11 = 22 significant
//    bits, below 2^32 (65504^2). Every nonzero product, partial sum and cut
//    value is a multiple of 2^(qa + qb) >= 2^-48, the product of the two
//    types' smallest magnitudes, so none is a float32 subnormal (DAZ and
//    FTZ never act). Cut toward zero, a part never exceeds the sum of its
//    run's magnitudes (below 2^32 K, far below 2^128). Cut toward
//    -Inf, a negative part can grow by up to a factor 1 + 2^(1 - bits) per
//    step, past float32's range; see 7.
// 2. Rounding the exact part + a*b once toward zero (toward -Inf) to
//    float32's 24 bits, then cutting that to `bits` bits in the same
//    direction, is the exact value cut to `bits` bits: the numbers of
//    `bits` significant bits are a subset of those of 24 (the exponent is
//    unbounded in both), and for a set C inside a set F, rounding down to F
//    and then down to C is rounding down to C (the largest element of C at
//    or below x is also at or below the largest element of F at or below x,
//    and is the largest element of C there); toward zero is that rule on
//    the magnitude.
// 3. The 24-bit step: AVX-512 has the FMA in both directed roundings
//    (static rounding). AVX2's FMA rounds as MXCSR says: the tile sets the
//    direction for each run's products and back to nearest even for the
//    promotion (Ops::rounding_begin, Ops::rounding_end), the same single
//    rounding of part + x * y. Elsewhere (the scalar set) the product is
//    exact (1.), so s = RN(part + p) and its exact error e (TwoSum: Knuth,
//    TAOCP vol. 2, 4.2.2) give the directed result: s itself, or s's
//    neighbour toward zero (toward -Inf) when s + e lies on the other side
//    of s (Ops::nudge_toward_zero, Ops::nudge_down).
// 4. The cut: float32's bit pattern is sign and magnitude, and its
//    magnitude bits order the magnitudes, so clearing the low 24 - bits
//    significand bits cuts toward zero, and adding 2^(24 - bits) - 1 before
//    clearing (negative values, `floor`) rounds the magnitude up, a carry
//    into the exponent included (Ops::bit_and, Ops::floor_significand).
// 5. Zeros: the model's part starts at +0 and a cut of a nonzero value is
//    nonzero, so an exact zero of part + a*b is +0 in the model (its exact
//    sum adds the +0 part). Toward zero, IEEE 754 gives +0 too (clause 6.3:
//    -0 only for -0 + -0); toward -Inf it gives -0, which the kernel keeps:
//    a zero part of either sign adds the same nonzero products, and
//    RN32(C + part) is the same for both, since C, from +0 and rounded to
//    nearest, is never -0 (IEEE 754 gives -0 there only for -0 + -0).
// 6. NaN and Inf: a NaN or Inf operand makes the FMA's result NaN or Inf,
//    which the cut leaves as it is (a quiet NaN keeps its top significand
//    bit when bits >= 2; with bits == 1 and in `floor` NaN lanes are
//    excluded from the cut, since rounding a negative NaN's magnitude up
//    can carry out of its exponent field and leave a number), and
//    RN32(C + part) then gives what the model's exact sums give: NaN for
//    NaN, Inf - Inf or 0 * Inf, else the Inf. Where the operands are
//    finite (tile_args::operands_finite) no lane is NaN (products are
//    finite, a part is finite or, under `floor`, -Inf), and that exclusion
//    is left out.
// 7. A negative part past float32's range (`floor`): the directed FMA, or
//    the nudge from -FLT_MAX, gives -Inf, and so does the model. The
//    model's part, a number of at most 24 bits beyond FLT_MAX, is at most
//    -2^128, and it stays there: a cut rounds its magnitude up to a number
//    of `bits` bits, the nearest below 2^128 being 2^104 away, more than a
//    product (below 2^32; below 2^104 for the BF16 and float32 operands of
//    8.) can take off. C stays far below 2^103 in magnitude on the
//    positive side (sums of products), so RN32(C + part) is -Inf.
// 8. Float32 operands (placement::operands: a' = RN32(a * sa),
//    b' = RN32(b * sb); AVX-512 and AVX2): products of 24-bit values need not
//    be exact in float32, but the directed FMA rounds the exact
//    part + a' * b' once, so 2. holds as it is. The rest of 1. holds
//    where fast_path.hpp's scaled_reduced_operands_fit does: no scaled
//    value is a float32 subnormal (DAZ would read it as 0), every nonzero
//    one is a multiple of 2^q with qa + qb >= -126 for the smallest quanta
//    of A's and B's (so every nonzero product, part and cut value is a
//    normal float32: a truncation of a multiple of 2^(qa + qb) is one), a
//    finite value stays finite when scaled, and the largest exponents with
//    K keep products below 2^104 and sums below 2^103 (7.). The steps
//    without a directed FMA (3.) need the product exact and do not take
//    these operands (targets.hpp, takes_scaled_operands). The scaling
//    itself (a' and b', at packing) runs before the tile, at nearest even.
// The promotion C = RN32(C + part) is one float32 addition, rounded once.
//
// Packed operands as fma_tile's (one float per k, packing::float32).
// `steps` is the block's K, a whole number of runs (the driver's K blocks
// are multiples of args.chunk, promote_every or K if that is shorter)
// except at the end of K,
// where the model's last run is shorter too. `c` holds C, carried between
// K blocks (+0 when `first`); the partial registers stay in registers, and
// C is read and written once per run.

// One step, part = cut(part + x * y), in the direction Mode.
template <class Ops, truncation Mode, bool GuardNan>
MF_FORCE_INLINE typename Ops::vec reduced_step(const typename Ops::vec& x, const typename Ops::vec& y,
                                               const typename Ops::vec& part,
                                               const typename Ops::vec& keep) noexcept {
  using vec = typename Ops::vec;
  vec rounded;
  if constexpr (Ops::has_directed_fma) {
    rounded = Mode == truncation::floor ? Ops::fma_downward(x, y, part) : Ops::fma_toward_zero(x, y, part);
  } else if constexpr (Ops::has_rounding_control) {
    rounded = Ops::fma(x, y, part);  // in the direction the run set (3.)
  } else {
    const two_sum_of<Ops> s(part, Ops::mul(x, y));  // the product is exact (1.)
    rounded = Mode == truncation::floor ? Ops::nudge_down(s.sum, s.error) : Ops::nudge_toward_zero(s.sum, s.error);
  }
  if constexpr (Mode == truncation::floor) {
    return GuardNan ? Ops::floor_significand(rounded, keep) : Ops::floor_significand_of_number(rounded, keep);
  } else if constexpr (GuardNan) {
    return Ops::where_nan(rounded, Ops::bit_and(rounded, keep));
  } else {
    return Ops::bit_and(rounded, keep);
  }
}

template <class Ops, std::size_t Rows, std::size_t Vectors, truncation Mode, bool GuardNan>
void reduced_seq_tile_in(const tile_args& args) noexcept {
  using vec = typename Ops::vec;
  const auto* a = static_cast<const float*>(args.a);
  const auto* b = static_cast<const float*>(args.b);
  auto* c = static_cast<float*>(args.c);
  const std::size_t ldc = args.ldc;
  constexpr std::size_t width = Vectors * Ops::lanes;
  // Sign, exponent and the leading bits - 1 stored significand bits.
  const vec keep = Ops::broadcast_bits(~std::uint32_t{0} << (24 - args.bits));
  if (args.first) store_zero_tile<Ops, Rows, Vectors>(c, ldc);
  for (std::size_t begin = 0; begin < args.steps; begin += args.chunk) {
    const std::size_t end = begin + args.chunk < args.steps ? begin + args.chunk : args.steps;
    vec start;
    if constexpr (Ops::has_rounding_control) {
      start = Ops::rounding_begin(Mode == truncation::floor);
    } else {
      start = Ops::zero();
    }
    vec part[Rows][Vectors];
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) {
      MF_UNROLL
      for (std::size_t v = 0; v < Vectors; ++v) part[r][v] = start;
    }
    for (std::size_t p = begin; p < end; ++p) {
      vec row[Vectors];
      MF_UNROLL
      for (std::size_t v = 0; v < Vectors; ++v) row[v] = Ops::loadu(b + p * width + v * Ops::lanes);
      MF_UNROLL
      for (std::size_t r = 0; r < Rows; ++r) {
        const vec x = Ops::broadcast(a[p * Rows + r]);
        MF_UNROLL
        for (std::size_t v = 0; v < Vectors; ++v) {
          part[r][v] = reduced_step<Ops, Mode, GuardNan>(x, row[v], part[r][v], keep);
        }
      }
    }
    if constexpr (Ops::has_rounding_control) {
      vec every = part[0][0];
      MF_UNROLL
      for (std::size_t r = 0; r < Rows; ++r) {
        MF_UNROLL
        for (std::size_t v = r == 0 ? 1 : 0; v < Vectors; ++v) every = Ops::bit_or(every, part[r][v]);
      }
      const vec zero = Ops::rounding_end(every);
      MF_UNROLL
      for (std::size_t r = 0; r < Rows; ++r) {
        MF_UNROLL
        for (std::size_t v = 0; v < Vectors; ++v) part[r][v] = Ops::bit_or(part[r][v], zero);
      }
    }
    add_to_tile<Ops, Rows, Vectors>(c, ldc, part);
  }
}

template <class Ops, std::size_t Rows, std::size_t Vectors>
void reduced_seq_tile(const tile_args& args) noexcept {
  if (args.trunc == truncation::floor) {
    if (args.operands_finite) {
      reduced_seq_tile_in<Ops, Rows, Vectors, truncation::floor, false>(args);
    } else {
      reduced_seq_tile_in<Ops, Rows, Vectors, truncation::floor, true>(args);
    }
  } else if (args.bits == 1 && !args.operands_finite) {
    reduced_seq_tile_in<Ops, Rows, Vectors, truncation::toward_zero, true>(args);
  } else {
    reduced_seq_tile_in<Ops, Rows, Vectors, truncation::toward_zero, false>(args);
  }
}
