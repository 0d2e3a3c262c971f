// The micro-kernel of the amx_tile_pairs model in its `sdm` order (Intel
// SDM, TDPBF16PS / TDPFP16PS: per C element, within each chunk of `chunk`
// k, the even k accumulate in one FP32 chain and the odd k in another, both
// from +0; then t = even + odd and C = C + t), written once over a target's
// float operations (Ops: simd/*/vector_ops.hpp). No include guard, on
// purpose: kernels/targets.hpp includes it once per target, inside that
// target's region and namespace.
//
// The model's steps flush tiny results to zero and read subnormal inputs
// and C as zero (DAZ/FTZ, tininess after rounding). This kernel uses plain
// FMAs and additions: the fast path (kernels/fast_path.hpp) runs it only
// on operands for which no step can give a subnormal or be given one, so
// the flushes never fire and the plain operations are the model's
// (kernels::pairs_operands_fit says why).

// One k of one chain for the whole tile: chain[r][v] += a[r] * b[v], the
// k's B vectors loaded once.
template <class Ops, std::size_t Rows, std::size_t Vectors>
MF_FORCE_INLINE void amx_pairs_chain_step(const float* a, const float* b,
                                          typename Ops::vec (&chain)[Rows][Vectors]) noexcept {
  typename Ops::vec row[Vectors];
  MF_UNROLL
  for (std::size_t v = 0; v < Vectors; ++v) row[v] = Ops::loadu(b + v * Ops::lanes);
  MF_UNROLL
  for (std::size_t r = 0; r < Rows; ++r) {
    const typename Ops::vec x = Ops::broadcast(a[r]);
    MF_UNROLL
    for (std::size_t v = 0; v < Vectors; ++v) chain[r][v] = Ops::fma(x, row[v], chain[r][v]);
  }
}

// Both k of a pair for the whole tile, row by row: even[r][v] += a0[r] *
// b0[v] beside odd[r][v] += a1[r] * b1[v], both k's B vectors loaded once.
// Two more B vectors live than the step above, for FMAs of the two chains
// side by side (1.07x on a Zen 5's AVX-512 tile, whose 32 registers hold
// them).
template <class Ops, std::size_t Rows, std::size_t Vectors>
MF_FORCE_INLINE void amx_pairs_pair_step(const float* a, const float* b, std::size_t width,
                                         typename Ops::vec (&even)[Rows][Vectors],
                                         typename Ops::vec (&odd)[Rows][Vectors]) noexcept {
  typename Ops::vec row_even[Vectors], row_odd[Vectors];
  MF_UNROLL
  for (std::size_t v = 0; v < Vectors; ++v) {
    row_even[v] = Ops::loadu(b + v * Ops::lanes);
    row_odd[v] = Ops::loadu(b + width + v * Ops::lanes);
  }
  MF_UNROLL
  for (std::size_t r = 0; r < Rows; ++r) {
    const typename Ops::vec x_even = Ops::broadcast(a[r]);
    const typename Ops::vec x_odd = Ops::broadcast(a[Rows + r]);
    MF_UNROLL
    for (std::size_t v = 0; v < Vectors; ++v) {
      even[r][v] = Ops::fma(x_even, row_even[v], even[r][v]);
      odd[r][v] = Ops::fma(x_odd, row_odd[v], odd[r][v]);
    }
  }
}

// Packed operands as fma_tile's (one float per k, packing::float32).
// `steps` is the block's K (a whole number of chunks, but the last block of
// K may end inside a chunk: the model pads a chunk with +0 products, which
// leave a chain unchanged, so the missing steps are skipped). `c` holds
// C, carried between K blocks (+0 when `first`). The even and odd chains
// of the tile stay in registers (2 * Rows * Vectors of them); C is read and
// written once per chunk. SideBySide steps both chains of each pair row by
// row (amx_pairs_pair_step); otherwise each pair of k steps the even chains,
// then the odd ones, so only one k's B vectors are live beside the chains:
// AVX2's 16 registers then hold the 3 x 16 tile's 12 chains, its 2 B vectors
// and a broadcast, and no B vector is loaded again per row (1.06x on a Zen 3).
template <class Ops, std::size_t Rows, std::size_t Vectors, bool SideBySide>
void amx_pairs_tile(const tile_args& args) noexcept {
  using vec = typename Ops::vec;
  const auto* a = static_cast<const float*>(args.a);
  const auto* b = static_cast<const float*>(args.b);
  auto* c = static_cast<float*>(args.c);
  const std::size_t ldc = args.ldc;
  constexpr std::size_t width = Vectors * Ops::lanes;
  if (args.first) store_zero_tile<Ops, Rows, Vectors>(c, ldc);
  for (std::size_t begin = 0; begin < args.steps; begin += args.chunk) {
    const std::size_t end = begin + args.chunk < args.steps ? begin + args.chunk : args.steps;
    vec even[Rows][Vectors], odd[Rows][Vectors];
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) {
      MF_UNROLL
      for (std::size_t v = 0; v < Vectors; ++v) even[r][v] = odd[r][v] = Ops::zero();
    }
    std::size_t p = begin;
    for (; p + 2 <= end; p += 2) {
      if constexpr (SideBySide) {
        amx_pairs_pair_step<Ops, Rows, Vectors>(a + p * Rows, b + p * width, width, even, odd);
      } else {
        amx_pairs_chain_step<Ops, Rows, Vectors>(a + p * Rows, b + p * width, even);
        amx_pairs_chain_step<Ops, Rows, Vectors>(a + (p + 1) * Rows, b + (p + 1) * width, odd);
      }
    }
    if (p < end) {  // an odd K: the last pair's odd k is +0, skipped
      amx_pairs_chain_step<Ops, Rows, Vectors>(a + p * Rows, b + p * width, even);
    }
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) {
      MF_UNROLL
      for (std::size_t v = 0; v < Vectors; ++v) {
        float* out = c + r * ldc + v * Ops::lanes;
        Ops::storeu(out, Ops::add(Ops::loadu(out), Ops::add(even[r][v], odd[r][v])));
      }
    }
  }
}
