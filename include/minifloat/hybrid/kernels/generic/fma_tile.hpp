// The register-blocked outer-product micro-kernel of the sequential_fp32
// model, written once over a target's float operations (Ops: simd/*/
// vector_ops.hpp). No include guard, on purpose: kernels/targets.hpp (and
// the x86/*/limb_tile.hpp files, for rounded_sum_of) includes this file once per
// target, inside that target's region and namespace, so each copy is
// compiled for its instruction set.
//
// A Rows x (Vectors * Ops::lanes) tile of C: each step k broadcasts the
// tile's Rows elements of A's column k and multiplies them into the
// Vectors vectors of B's row k. Every element of C gets exactly
// acc = fma(a_k, b_k, acc) for k in order, the model's own recurrence
// (detail::sequential_sum), so the kernel gives the model's bits.
//
// Packed operands (kernels/driver.hpp, tile_args): `a` holds the tile's A
// as `steps` steps of Rows values, `b` holds B as `steps` steps of
// Vectors * lanes values. `c` (row stride ldc) holds the accumulators
// carried from the previous K block, read unless `first` (then they start
// at +0, as the model's acc does). A step is one k, or one k-pair for the
// BF16 pair operations (kernels/x86/avx512/bf16_pair_ops.hpp), whose
// Ops::fma is VDPBF16PS. Over float64 operations (Ops::value = double) the
// same loop is the `exact` model's exact sum (generic/exact_tile.hpp says
// why it is exact).

// Steps [begin, end) of the outer product into the accumulators: per step,
// acc[r][v] = fma(a[r], b[v], acc[r][v]) (the step's Ops::fma).
template <class Ops, std::size_t Rows, std::size_t Vectors>
MF_FORCE_INLINE void multiply_steps(const typename Ops::value* a, const typename Ops::value* b,
                                    std::size_t begin, std::size_t end,
                                    typename Ops::vec (&acc)[Rows][Vectors]) noexcept {
  using vec = typename Ops::vec;
  constexpr std::size_t width = Vectors * Ops::lanes;
  for (std::size_t p = begin; p < end; ++p) {
    vec row[Vectors];
    MF_UNROLL
    for (std::size_t v = 0; v < Vectors; ++v) row[v] = Ops::loadu(b + p * width + v * Ops::lanes);
    MF_UNROLL
    for (std::size_t r = 0; r < Rows; ++r) {
      const vec x = Ops::broadcast(a[p * Rows + r]);
      MF_UNROLL
      for (std::size_t v = 0; v < Vectors; ++v) acc[r][v] = Ops::fma(x, row[v], acc[r][v]);
    }
  }
}

// A Rows x (Vectors * lanes) float32 tile of C (row stride ldc) set to +0,
// the accumulators' start where a tile opens K (tile_args::first).
template <class Ops, std::size_t Rows, std::size_t Vectors>
MF_FORCE_INLINE void store_zero_tile(float* c, std::size_t ldc) noexcept {
  MF_UNROLL
  for (std::size_t r = 0; r < Rows; ++r) {
    MF_UNROLL
    for (std::size_t v = 0; v < Vectors; ++v) Ops::storeu(c + r * ldc + v * Ops::lanes, Ops::zero());
  }
}

// C += part, one float32 addition (one rounding) per element: a promotion
// of a partial register into C.
template <class Ops, std::size_t Rows, std::size_t Vectors>
MF_FORCE_INLINE void add_to_tile(float* c, std::size_t ldc,
                                 const typename Ops::vec (&part)[Rows][Vectors]) noexcept {
  MF_UNROLL
  for (std::size_t r = 0; r < Rows; ++r) {
    MF_UNROLL
    for (std::size_t v = 0; v < Vectors; ++v) {
      float* out = c + r * ldc + v * Ops::lanes;
      Ops::storeu(out, Ops::add(Ops::loadu(out), part[r][v]));
    }
  }
}

// TwoSum (Knuth, TAOCP vol. 2, 4.2.2): x + y = sum + error exactly,
// sum = RN(x + y), for a finite sum (an Inf sum gives a NaN error).
template <class Ops>
struct two_sum_of {
  typename Ops::vec sum, error;
  MF_FORCE_INLINE two_sum_of(const typename Ops::vec& x, const typename Ops::vec& y) noexcept
      : sum(Ops::add(x, y)) {
    const typename Ops::vec back = Ops::sub(sum, x);
    error = Ops::add(Ops::sub(x, Ops::sub(sum, back)), Ops::sub(y, back));
  }
  // sum rounded to odd: a value whose float32 rounding is x + y's.
  MF_FORCE_INLINE typename Ops::vec to_odd() const noexcept { return Ops::round_to_odd(sum, error); }
};

// x + y rounded once to float32 in `mode`, as doubles: the TwoSum rounded
// to odd, then narrowed. An Inf gives a NaN error and no step: the IEEE
// sum.
template <class Ops>
MF_FORCE_INLINE typename Ops::vec rounded_sum_of(const typename Ops::vec& x, const typename Ops::vec& y,
                                                 fp32_rounding mode) noexcept {
  const typename Ops::vec odd = two_sum_of<Ops>(x, y).to_odd();
  return mode == fp32_rounding::toward_zero ? Ops::narrowed_toward_zero(odd) : Ops::narrowed(odd);
}

template <class Ops, std::size_t Rows, std::size_t Vectors>
void fma_tile(const tile_args& args) noexcept {
  using vec = typename Ops::vec;
  using value = typename Ops::value;  // float, or double for the exact model
  const auto* a = static_cast<const value*>(args.a);
  const auto* b = static_cast<const value*>(args.b);
  auto* c = static_cast<value*>(args.c);
  const std::size_t ldc = args.ldc;
  // Fully unrolled, the accumulators live in registers (Rows * Vectors of
  // them: 24 zmm of 32 for AVX-512's 6 x 64 tile).
  vec acc[Rows][Vectors];
  MF_UNROLL
  for (std::size_t r = 0; r < Rows; ++r) {
    MF_UNROLL
    for (std::size_t v = 0; v < Vectors; ++v) {
      if (args.first) {
        acc[r][v] = Ops::zero();
      } else {
        acc[r][v] = Ops::loadu(c + r * ldc + v * Ops::lanes);
      }
    }
  }
  multiply_steps<Ops, Rows, Vectors>(a, b, 0, args.steps, acc);
  MF_UNROLL
  for (std::size_t r = 0; r < Rows; ++r) {
    MF_UNROLL
    for (std::size_t v = 0; v < Vectors; ++v) Ops::storeu(c + r * ldc + v * Ops::lanes, acc[r][v]);
  }
}
