// The integer max of |x| bits over an array (amax.hpp's bulk::amax), written
// once over one ISA's int32_ops (`ops`): |x| as an unsigned integer orders
// every float by magnitude, NaN above Inf (lanes::amax_from_bits). Same result as
// scalar::amax_bits (fused_scalar.hpp).
//
// Included inside the ISA's target region and kernel namespace
// (fused_avx2.hpp, fused_avx512.hpp, fused_neon.hpp); no include guard, on
// purpose.

// One vector's |x| bits into acc; with FiniteOnly, NaN and Inf lanes
// (magnitudes from 0x7F800000 on) are skipped.
template <bool FiniteOnly>
MF_FORCE_INLINE void amax_step(const float* p, typename ops::vec& acc) {
  const typename ops::vec a = ops::bit_and(ops::load(p), ops::splat(0x7FFFFFFFu));
  if constexpr (FiniteOnly) {
    acc = ops::max_unsigned(acc, ops::keep_where(ops::less(a, ops::splat(0x7F800000u)), a));
  } else {
    acc = ops::max_unsigned(acc, a);
  }
}

// Four vectors, each into its own maximum (independent chains).
template <bool FiniteOnly>
MF_FORCE_INLINE void amax_group(const float* p, typename ops::vec& acc0, typename ops::vec& acc1,
                                typename ops::vec& acc2, typename ops::vec& acc3) {
  amax_step<FiniteOnly>(p, acc0);
  amax_step<FiniteOnly>(p + ops::lanes, acc1);
  amax_step<FiniteOnly>(p + 2 * ops::lanes, acc2);
  amax_step<FiniteOnly>(p + 3 * ops::lanes, acc3);
}

template <bool FiniteOnly>
inline std::uint32_t amax_loop(const float* in, std::size_t n) {
  using vec = typename ops::vec;
  constexpr std::size_t group = 4 * ops::lanes;
  vec acc0 = ops::splat(0), acc1 = ops::splat(0), acc2 = ops::splat(0), acc3 = ops::splat(0);
  std::size_t i = 0;
  for (; i + group <= n; i += group) amax_group<FiniteOnly>(in + i, acc0, acc1, acc2, acc3);
  // The last n % group elements: the scalar rule. (A zero-padded copy through
  // the group made aarch64-linux-gnu-g++ 12 -O3 fail with an internal
  // compiler error in vect_transform_reduction where a caller inlined it.)
  const std::uint32_t tail = scalar::amax_bits(in + i, n - i, FiniteOnly);
  const std::uint32_t vectors = ops::reduce_max_unsigned(
      ops::max_unsigned(ops::max_unsigned(acc0, acc1), ops::max_unsigned(acc2, acc3)));
  return tail > vectors ? tail : vectors;
}

// With finite_only, NaN and Inf are skipped.
inline std::uint32_t amax_bits(const float* in, std::size_t n, bool finite_only) {
  return finite_only ? amax_loop<true>(in, n) : amax_loop<false>(in, n);
}
