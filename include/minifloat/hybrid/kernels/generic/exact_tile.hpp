// The exact models on float64 chains (E4M3 x E4M3, and the chains of split
// E5M2 operands below), written once over a target's float64 operations
// (Ops::value = double). No include guard: see generic/fma_tile.hpp, which
// must be included first (multiply_steps), as must <type_traits>.
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
//
// Short K (tile_args::join_exact, K <= chunked_join_exact_max_k): acc + S
// is exact in float64, so t = RN64(acc + S) needs no TwoSum and no rounding
// to odd. S and acc are multiples of u = 2^-18: S as above; acc is +0 or a
// float32 rounding of such a multiple below 2^35, which is one too (at and
// above 2^5 float32's spacing is a multiple of u; below 2^5 the value has at
// most 23 bits from 2^4 down to u, so it is on float32's grid already). With
// K * 448^2 <= 2^33 every |S| and every exact partial sum is at most 2^33,
// and |acc| at most (1 + 2^-24)^chunks times that (each rounding to nearest
// or toward zero grows a magnitude by at most that factor; chunks <= 2^15):
// below 2^34. So |acc + S| < 2^35 = 2^53 u: t is exact, and its rounding to
// float32 in the mode is the model's. The same holds for acc plus the
// pre-rounded S, itself a rounding of a multiple of u below 2^34.

// v rounded to float32 in Mode, as a float64.
template <class Ops, fp32_rounding Mode>
MF_FORCE_INLINE typename Ops::vec narrowed_in(const typename Ops::vec& v) noexcept {
  return Mode == fp32_rounding::toward_zero ? Ops::narrowed_toward_zero(v) : Ops::narrowed(v);
}

// The exact sums of steps [begin, end), from +0.
template <class Ops, std::size_t Rows, std::size_t Vectors>
MF_FORCE_INLINE void exact_sums_of_steps(const double* a, const double* b, std::size_t begin, std::size_t end,
                                         typename Ops::vec (&sum)[Rows][Vectors]) noexcept {
  MF_UNROLL
  for (std::size_t r = 0; r < Rows; ++r) {
    MF_UNROLL
    for (std::size_t v = 0; v < Vectors; ++v) sum[r][v] = Ops::zero();
  }
  multiply_steps<Ops, Rows, Vectors>(a, b, begin, end, sum);
}

// The chunk step of `chunked_exact`, run in the tile's registers after each
// chunk. E4M3 x E4M3: S is one chain, and each element's model acc is a
// float32 in `c` (as above). With E5M2 operands split (SplitA and/or SplitB;
// split_sum.hpp, driver.hpp's "Split operands"), the same register tile runs
// over the doubled operand, so each C element's two or four chains (its
// large and small rows of A, its large and small columns of B) are in the
// tile's registers. Each chain of at most 2^17 products is exact
// (split_sum.hpp's bounds, a chunk being at most 2^17 products). Their sum S
// is made two doubles, high + low = S exactly: two chains by TwoSum; four as
// split_sum.hpp combines them (m = c1 + c2 exact, (t1, e1) = TwoSum(m, c3),
// (high, e2) = TwoSum(c0, t1), low = e1 + e2 exact). Every value here is a
// multiple of the products' unit u (2^-25 for E4M3 x E5M2, 2^-32 for
// E5M2 x E5M2), and so is the float32 acc (a rounding of such a sum: where
// float32's spacing is below u the sum is already on its grid). Then
// (v, f) = TwoSum(acc, high), and g = f + low is exact: both are multiples of u,
// |low| <= 2^-53 (|t1| + |high|) < 1 (a chunk's chains are below
// 2^17 * 57344^2 < 2^48.7), and |f| <= 2^-53 |v| < 2^20 while |acc| < 2^72.7: a
// rounding that moves acc adds at most |S| plus half a unit in its last
// place, at most 2 |S|, so |acc| is below twice the sum of K < 2^40 products
// below 2^31.61 (split_kernel_for checks K); so |g| < 2^21 = 2^53 u for the
// smaller unit. Then (t, e) = TwoSum(v, g) is acc + S = t + e exactly, and
// the rounding to odd of t and its rounding to float32 in the chunk's mode
// are the rounding of acc + S (as above: Boldo and Melquiond). With
// presum_round, S is rounded first (TwoSum of high and low, to odd, to
// float32), and acc plus that is rounded as above. No nonzero sum is below
// u >= 2^-32, so no rounding makes a zero or a subnormal; a zero S is +0. The
// model's acc of each element is kept, as a float64, in its first chain's
// slot of `c` (large row, large column); the driver reads it there.
template <class Ops, std::size_t Rows, std::size_t Vectors, bool SplitA, bool SplitB, fp32_rounding Mode,
          bool PresumRound, bool JoinExact>
void chunked_exact_tile_in(const tile_args& args) noexcept {
  using vec = typename Ops::vec;
  constexpr bool split = SplitA || SplitB;  // S has a low part, acc is kept as a float64
  static_assert(!(JoinExact && split), "the short-K join is proved for one E4M3 chain");
  using acc_type = std::conditional_t<split, double, float>;
  constexpr std::size_t c_rows = SplitA ? Rows / 2 : Rows;  // of C; the small rows follow
  constexpr std::size_t c_vectors = SplitB ? Vectors / 2 : Vectors;
  static_assert(c_rows * (SplitA ? 2 : 1) == Rows && c_vectors * (SplitB ? 2 : 1) == Vectors,
                "a split operand's chains take half the tile");
  const auto* a = static_cast<const double*>(args.a);
  const auto* b = static_cast<const double*>(args.b);
  auto* c = static_cast<acc_type*>(args.c);
  bool first = args.first;
  for (std::size_t begin = 0; begin < args.steps; begin += args.chunk) {
    const std::size_t end = begin + args.chunk < args.steps ? begin + args.chunk : args.steps;
    vec sum[Rows][Vectors];
    exact_sums_of_steps<Ops, Rows, Vectors>(a, b, begin, end, sum);
    MF_UNROLL
    for (std::size_t r = 0; r < c_rows; ++r) {
      MF_UNROLL
      for (std::size_t v = 0; v < c_vectors; ++v) {
        acc_type* out = c + r * args.ldc + v * Ops::lanes;
        vec acc = Ops::zero();
        if constexpr (split) {
          if (!first) acc = Ops::loadu(out);
        } else if (!first) {
          acc = Ops::load_widened(out);
        }
        vec high = sum[r][v], low = Ops::zero();  // S = high + low
        if constexpr (SplitA && SplitB) {
          const two_sum_of<Ops> small(Ops::add(sum[r][v + c_vectors], sum[r + c_rows][v]),  // m = c1 + c2
                                      sum[r + c_rows][v + c_vectors]);                      // + c3
          const two_sum_of<Ops> all(sum[r][v], small.sum);
          high = all.sum;
          low = Ops::add(small.error, all.error);
        } else if constexpr (split) {
          const two_sum_of<Ops> all(sum[r][v], SplitA ? sum[r + c_rows][v] : sum[r][v + c_vectors]);
          high = all.sum;
          low = all.error;
        }
        vec joined;  // acc + S, exact or rounded to odd: its rounding to float32 is the model's
        if constexpr (JoinExact) {
          joined = Ops::add(acc, PresumRound ? narrowed_in<Ops, Mode>(high) : high);  // exact
        } else if constexpr (PresumRound) {
          vec presum;  // S rounded to float32 in Mode
          if constexpr (split) {
            presum = narrowed_in<Ops, Mode>(two_sum_of<Ops>(high, low).to_odd());
          } else {
            presum = narrowed_in<Ops, Mode>(high);
          }
          joined = two_sum_of<Ops>(acc, presum).to_odd();
        } else if constexpr (split) {
          const two_sum_of<Ops> with_high(acc, high);
          joined = two_sum_of<Ops>(with_high.sum, Ops::add(with_high.error, low)).to_odd();
        } else {
          joined = two_sum_of<Ops>(acc, high).to_odd();
        }
        if constexpr (split) {
          Ops::storeu(out, narrowed_in<Ops, Mode>(joined));
        } else if constexpr (Mode == fp32_rounding::nearest_even) {
          Ops::store_narrowed(out, joined);  // the narrowing rounds to nearest
        } else {
          Ops::store_narrowed(out, narrowed_in<Ops, Mode>(joined));  // exact: already a float32
        }
      }
    }
    first = false;
  }
}

template <class Ops, std::size_t Rows, std::size_t Vectors, bool SplitA, bool SplitB, bool JoinExact>
void chunked_exact_tile_for(const tile_args& args) noexcept {
  constexpr auto nearest = fp32_rounding::nearest_even, toward_zero = fp32_rounding::toward_zero;
  if (args.rounding == toward_zero) {
    if (args.presum_round) {
      chunked_exact_tile_in<Ops, Rows, Vectors, SplitA, SplitB, toward_zero, true, JoinExact>(args);
    } else {
      chunked_exact_tile_in<Ops, Rows, Vectors, SplitA, SplitB, toward_zero, false, JoinExact>(args);
    }
  } else if (args.presum_round) {
    chunked_exact_tile_in<Ops, Rows, Vectors, SplitA, SplitB, nearest, true, JoinExact>(args);
  } else {
    chunked_exact_tile_in<Ops, Rows, Vectors, SplitA, SplitB, nearest, false, JoinExact>(args);
  }
}

template <class Ops, std::size_t Rows, std::size_t Vectors>
void chunked_exact_tile(const tile_args& args) noexcept {
  if (args.split_a && args.split_b) {
    chunked_exact_tile_for<Ops, Rows, Vectors, true, true, false>(args);
  } else if (args.split_a) {
    chunked_exact_tile_for<Ops, Rows, Vectors, true, false, false>(args);
  } else if (args.split_b) {
    chunked_exact_tile_for<Ops, Rows, Vectors, false, true, false>(args);
  } else if (args.join_exact) {
    chunked_exact_tile_for<Ops, Rows, Vectors, false, false, true>(args);
  } else {
    chunked_exact_tile_for<Ops, Rows, Vectors, false, false, false>(args);
  }
}
