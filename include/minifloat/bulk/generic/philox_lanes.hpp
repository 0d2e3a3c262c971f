// Philox4x32-10 (random.hpp) written once, for many counters at a time, over
// one ISA's philox_ops (simd/<arch>/<isa>/philox_ops.hpp): word j of the
// stream from block b on is mf::stochastic_random_word(seed, 4 * b + j), bit
// for bit, whatever the vector width. Included inside a target region in
// each ISA's kernel namespace (philox_simd.hpp); no include guard, on
// purpose. Needs detail::philox_round_keys and MF_FORCE_INLINE / MF_NOINLINE
// declared before the region.
//
// A round, with (hi, lo) the halves of a 32x32 -> 64-bit product:
//   x0' = hi(M1 x2) ^ x1 ^ k0,  x1' = lo(M1 x2),
//   x2' = hi(M0 x0) ^ x3 ^ k1,  x3' = lo(M0 x0)
// (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011).
// The chains (Ops::chains sets of blocks) advance round by round together,
// so that the multiplications of one hide the latency of another: the
// state is held in arrays of vectors, the one place in the generic code
// that does, for that interleaving.

// Ops::chains * Ops::blocks_per_vector blocks from `block` on (or one
// chain's worth when Chains is 1), their words stored in stream order to
// bytes (16 bytes a block).
template <class Ops, int Chains>
MF_FORCE_INLINE void philox_blocks(const detail::philox_round_keys& keys, std::uint64_t block,
                                   std::uint8_t* bytes) {
  using vec = typename Ops::vec;
  const vec m0 = Ops::multiplier(mf::detail::philox4x32_multiplier_0);
  const vec m1 = Ops::multiplier(mf::detail::philox4x32_multiplier_1);
  constexpr std::size_t chains = Chains;
  vec x0[chains], x1[chains], x2[chains], x3[chains];
  MF_UNROLL
  for (int c = 0; c < Chains; ++c) {
    // Round 1: counter words 2 and 3 are zero, so one product and no xor
    // with them.
    vec counter_lo, counter_hi, hi, lo;
    Ops::counter_words(block + static_cast<std::uint64_t>(c) * Ops::blocks_per_vector,
                       counter_lo, counter_hi);
    Ops::multiply(counter_lo, m0, hi, lo);
    x0[c] = Ops::bit_xor(counter_hi, Ops::splat(keys.k0[0]));
    x2[c] = Ops::bit_xor(hi, Ops::splat(keys.k1[0]));
    x3[c] = lo;
    // Round 2: word 1 is still zero.
    vec hi0, lo0, hi1, lo1;
    Ops::multiply(x0[c], m0, hi0, lo0);
    Ops::multiply(x2[c], m1, hi1, lo1);
    x0[c] = Ops::bit_xor(hi1, Ops::splat(keys.k0[1]));
    x1[c] = lo1;
    x2[c] = Ops::xor3(hi0, x3[c], Ops::splat(keys.k1[1]));
    x3[c] = lo0;
  }
  MF_UNROLL
  for (int r = 2; r < 10; ++r) {
    MF_UNROLL
    for (int c = 0; c < Chains; ++c) {
      vec hi0, lo0, hi1, lo1;
      Ops::multiply(x0[c], m0, hi0, lo0);
      Ops::multiply(x2[c], m1, hi1, lo1);
      x0[c] = Ops::xor3(hi1, x1[c], Ops::splat(keys.k0[r]));
      x1[c] = lo1;
      x2[c] = Ops::xor3(hi0, x3[c], Ops::splat(keys.k1[r]));
      x3[c] = lo0;
    }
  }
  MF_UNROLL
  for (int c = 0; c < Chains; ++c) {
    Ops::store_blocks(x0[c], x1[c], x2[c], x3[c], bytes + 16 * Ops::blocks_per_vector * c);
  }
}

// Each of `groups` vectors of LaneBytes-byte stream lanes, widened and
// shifted (Ops::store_widened), to out.
template <class Ops, int LaneBytes>
MF_FORCE_INLINE void widen_lanes(const std::uint8_t* bytes, int shift, std::uint32_t* out,
                                 std::size_t groups) {
  for (std::size_t g = 0; g < groups; ++g) {
    Ops::store_widened(bytes + std::size_t{Ops::lanes * LaneBytes} * g, LaneBytes, shift,
                       out + Ops::lanes * g);
  }
}

// The random values of `count` (<= 512) consecutive elements whose lanes
// start at Philox block `block`, as the rounding kernels take them: element
// e's lane (lane_bytes bytes of the stream, see random.hpp) shifted left by
// `shift` (32 - random_bits), to out[e]; out is aligned to a vector, with
// room for count rounded up to Ops::lanes. Not inlined: the kernels call it
// once per 512 elements, and it is the same code for every format, source
// and mode, so one copy serves them all (inlined into each, it multiplied
// the compile time of the stochastic kernels by 2.5).
template <class Ops>
MF_NOINLINE void stochastic_values(const detail::philox_round_keys& keys, std::uint64_t block,
                                   int lane_bytes, int shift, std::uint32_t* out,
                                   std::size_t count) {
  constexpr std::size_t chain_bytes = 16 * Ops::blocks_per_vector;
  constexpr std::size_t wide_bytes = chain_bytes * Ops::chains;
  alignas(64) std::uint8_t bytes[2048];
  static_assert(sizeof(bytes) % wide_bytes == 0, "whole steps fit the buffer");
  const std::size_t groups = (count + Ops::lanes - 1) / Ops::lanes;
  const std::size_t needed = Ops::lanes * groups * static_cast<std::size_t>(lane_bytes);
  // All chains at a time where there is enough to do; bytes past `needed`
  // may be written, never past the buffer.
  for (std::size_t done = 0; done < needed;) {
    if (needed - done >= wide_bytes) {
      philox_blocks<Ops, Ops::chains>(keys, block, bytes + done);
      done += wide_bytes;
      block += static_cast<std::uint64_t>(Ops::blocks_per_vector) * Ops::chains;
    } else {
      philox_blocks<Ops, 1>(keys, block, bytes + done);
      done += chain_bytes;
      block += Ops::blocks_per_vector;
    }
  }
  // One loop per lane width, so the width is a constant inside each (g++ -O2
  // does not unswitch the loop itself: the 16-bit AVX2 encode lost 14%).
  if (lane_bytes == 1) {
    widen_lanes<Ops, 1>(bytes, shift, out, groups);
  } else if (lane_bytes == 2) {
    widen_lanes<Ops, 2>(bytes, shift, out, groups);
  } else {
    widen_lanes<Ops, 4>(bytes, shift, out, groups);
  }
}
