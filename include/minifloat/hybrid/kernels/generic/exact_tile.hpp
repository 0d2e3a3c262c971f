// The exact models for E4M3 x E4M3 (HF8 x HF8), written once over a
// target's float64 operations (Ops::value = double). No include guard: see
// generic/fma_tile.hpp, which must be included first (multiply_steps).
//
// Why a float64 FMA chain is the exact sum. An E4M3FN value is a multiple of
// 2^-9 (the smallest subnormal) of magnitude <= 448, with at most 4
// significant bits. A product of two is exact in float64 (8 bits), a
// multiple of 2^-18, of magnitude <= 448^2 = 200704 < 2^17.62. A sum of
// n <= 2^17 such products is a multiple of 2^-18 of magnitude
// < 2^17 * 2^17.62 < 2^35, so it is an integer times 2^-18 below 2^53 units:
// representable in float64. Every partial sum of acc = fma(a_k, b_k, acc),
// from acc = +0, is such a sum, so each FMA's exact result is
// representable and none rounds: the chain gives the exact sum, in any
// order. A zero sum is +0 (each FMA of an exact zero rounds to nearest:
// +0, and acc starts at +0), as the models' sum with the accumulator's +0
// added. NaN operands give NaN. Longer K (exact model) runs on the
// reference (kernels/fast_path.hpp).
//
// `exact`: fma_tile over float64 operations, the float64 accumulators
// carried between K blocks; the driver rounds the final sum to float32
// once (static_cast, nearest even), as round_to_fp32 does.
//
// `chunked_exact{chunk}` (nearest even, no pre-rounding): per chunk the
// exact sum S (float64, as above), then acc = RN32(acc + S), ONE rounding of
// the exact acc + S. In float64, t = RN64(acc + S) with its exact error e
// (TwoSum: Knuth, TAOCP vol. 2, 4.2.2; no overflow here, |acc| <= FLT_MAX).
// If e != 0 and t's last significand bit is even, t is replaced by its
// neighbour toward e (odd): that is acc + S rounded to odd in 53 bits, and
// rounding a round-to-odd value of p >= q + 2 bits to q bits gives the
// correctly rounded result (Boldo and Melquiond, "Emulation of FMA and
// correctly rounded sums: proved algorithms using rounding to odd", IEEE
// Trans. Computers 57(4), 2008): 53 >= 24 + 2, so RN32(t) = RN32(acc + S),
// subnormal results included (float32's grid is coarser still there).
// The same holds for rounding toward zero (Boldo and Melquiond: any
// rounding of the round-to-odd value, to p <= 51 bits, is that rounding of
// the exact value), whose overflow is +-FLT_MAX. `presum_round` rounds S to
// float32 first, in the same mode (S is exact in float64, so that is one
// rounding of the exact chunk sum), and then proceeds with that float.

// v rounded to float32 in Mode, as a float64.
template <class Ops, fp32_rounding Mode>
MF_FORCE_INLINE typename Ops::vec narrowed_in(const typename Ops::vec& v) noexcept {
  return Mode == fp32_rounding::toward_zero ? Ops::narrowed_toward_zero(v) : Ops::narrowed(v);
}

template <class Ops, int Rows, int Vectors, fp32_rounding Mode, bool PresumRound>
void chunked_exact_tile_in(const tile_args& args) noexcept {
  using vec = typename Ops::vec;
  const auto* a = static_cast<const double*>(args.a);
  const auto* b = static_cast<const double*>(args.b);
  auto* c = static_cast<float*>(args.c);  // the float32 acc of each element
  bool first = args.first;
  for (std::size_t begin = 0; begin < args.steps; begin += args.chunk) {
    const std::size_t end = begin + args.chunk < args.steps ? begin + args.chunk : args.steps;
    vec sum[Rows][Vectors];
#pragma GCC unroll 16
    for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 16
      for (int v = 0; v < Vectors; ++v) sum[r][v] = Ops::zero();
    }
    multiply_steps<Ops, Rows, Vectors>(a, b, begin, end, sum);
#pragma GCC unroll 16
    for (int r = 0; r < Rows; ++r) {
#pragma GCC unroll 16
      for (int v = 0; v < Vectors; ++v) {
        float* out = c + r * args.ldc + v * Ops::lanes;
        const vec acc = first ? Ops::zero() : Ops::load_widened(out);
        const vec chunk_sum = PresumRound ? narrowed_in<Ops, Mode>(sum[r][v]) : sum[r][v];
        const vec t = Ops::add(acc, chunk_sum);
        const vec back = Ops::sub(t, acc);  // TwoSum
        const vec error = Ops::add(Ops::sub(acc, Ops::sub(t, back)), Ops::sub(chunk_sum, back));
        const vec odd = Ops::round_to_odd(t, error);
        if constexpr (Mode == fp32_rounding::nearest_even) {
          Ops::store_narrowed(out, odd);
        } else {
          Ops::store_narrowed(out, narrowed_in<Ops, Mode>(odd));  // exact: already a float32
        }
      }
    }
    first = false;
  }
}

template <class Ops, int Rows, int Vectors>
void chunked_exact_tile(const tile_args& args) noexcept {
  constexpr auto nearest = fp32_rounding::nearest_even, toward_zero = fp32_rounding::toward_zero;
  if (args.rounding == toward_zero) {
    if (args.presum_round) {
      chunked_exact_tile_in<Ops, Rows, Vectors, toward_zero, true>(args);
    } else {
      chunked_exact_tile_in<Ops, Rows, Vectors, toward_zero, false>(args);
    }
  } else if (args.presum_round) {
    chunked_exact_tile_in<Ops, Rows, Vectors, nearest, true>(args);
  } else {
    chunked_exact_tile_in<Ops, Rows, Vectors, nearest, false>(args);
  }
}
