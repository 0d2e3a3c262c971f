// The encode loop written once, over one ISA's int32_ops (`ops`): the plain
// encode and the fused ones (stochastic rounding, the fused scale, the fused
// absolute maximum) from float. Same bits as scalar::encode_fused
// (fused_scalar.hpp) for every input.
//
// Included inside the ISA's target region and kernel namespace after
// lanes/encode_lanes.hpp, stochastic_lanes.hpp and philox_lanes.hpp
// (fused_avx2.hpp, fused_avx512.hpp, fused_neon.hpp), which also declare
// there `philox_ops`, `binary16_ops` (generic/binary16_lanes.hpp),
// store_vectors(out, r0, r1, r2, r3) (four vectors of encodings narrowed to
// the storage type) and group_check_below_min_normal (whether a stochastic
// group first asks if a lane is below the format's min normal, a choice
// measured per ISA); no include guard, on purpose. The includer has
// included target/prefetch.hpp before opening the region.
//
// The loop takes a group of four vectors at a time (enough independent work
// to hide the latency of one vector's steps), 512 elements a step; the
// last, partial step runs through the same code from a zero-padded copy. A
// stochastic encode's steps each start on a Philox block boundary of the
// random stream, the elements before the first boundary taking the scalar
// kernel. The input is requested a fixed distance ahead
// (target/prefetch.hpp): from memory, the loop otherwise waits for it.

#include "binary16_lanes.hpp"

// The random values of a stochastic encode, a step of elements at a time
// (stochastic_values, generic/philox_lanes.hpp). The deterministic encodes
// take zeros.
template <bool Stochastic>
struct random_source;

template <>
struct random_source<false> {
  static constexpr std::size_t step = 512;
  detail::random_step_layout layout{4, 1, 0};
  explicit random_source(const conversion&) {}
  void fill(std::uint64_t, std::size_t) {}
  typename ops::vec values(std::size_t) const { return ops::splat(0); }
};

template <>
struct random_source<true> {
  static constexpr std::size_t step = 512;
  detail::philox_round_keys philox_keys;
  int align_shift;
  detail::random_step_layout layout;
  alignas(64) std::uint32_t words[step];
  explicit random_source(const conversion& c)
      : random_source(c.stream.seed, mf::detail::clamp_random_bits(c.stream.random_bits)) {}
  random_source(std::uint64_t seed, int random_bits)
      : philox_keys(detail::make_philox_round_keys(seed)),
        align_shift(32 - random_bits),
        layout(detail::stochastic_step_layout(random_bits, step)) {}
  // The values of `count` (<= step) elements from block `block` on.
  void fill(std::uint64_t block, std::size_t count) {
    stochastic_values<philox_ops>(philox_keys, block, layout.lane_bytes, align_shift, words,
                                  count);
  }
  // The values of vector v of the step.
  typename ops::vec values(std::size_t v) const {
    return ops::load_aligned(words + ops::lanes * v);
  }
};

// One vector of the group: loads it, folds |x| into the maximum, scales it.
template <bool Scale, bool Amax>
MF_FORCE_INLINE typename ops::vec load_fused(const float* in, typename ops::vec scale,
                                             typename ops::vec& amax) {
  const typename ops::vec x = ops::load(in);
  if constexpr (Amax) amax = ops::max_unsigned(amax, ops::bit_and(x, ops::splat(0x7FFFFFFFu)));
  if constexpr (Scale) {
    return ops::multiply_float(x, scale);
  } else {
    (void)scale;
    return x;
  }
}

// x: float bits, already scaled. MayBeBelow as in encode_lanes_stochastic.
template <class F, bool Stochastic, rounding Mode, overflow Ovf, bool FloatAddIsNearest,
          bool MayBeBelow>
MF_FORCE_INLINE typename ops::vec encode_fused_vector(typename ops::vec x,
                                                      typename ops::vec random_aligned) {
  if constexpr (Stochastic) {
    return encode_lanes_stochastic<F, Ovf, ops, MayBeBelow>(x, random_aligned);
  } else {
    (void)random_aligned;
    return encode_lanes<F, Mode, Ovf, ops, FloatAddIsNearest>(x);
  }
}

// Encodes four vectors (already scaled) into out, with the random values
// of vectors v..v+3 of the step.
template <class Fmt, bool Stochastic, rounding Mode, overflow Ovf, bool FloatAddIsNearest,
          bool MayBeBelow>
MF_FORCE_INLINE void encode_and_store(typename Fmt::storage_type* out, typename ops::vec x0,
                                      typename ops::vec x1, typename ops::vec x2,
                                      typename ops::vec x3,
                                      const random_source<Stochastic>& random, std::size_t v) {
  using F = typename Fmt::format;
  if constexpr (!Stochastic && takes_binary16_route<Fmt, Mode, binary16_ops>) {
    encode_through_binary16<Fmt, Ovf, binary16_ops, ops>(out, x0, x1, x2, x3);
    return;
  }
  store_vectors(out,
                encode_fused_vector<F, Stochastic, Mode, Ovf, FloatAddIsNearest, MayBeBelow>(
                    x0, random.values(v)),
                encode_fused_vector<F, Stochastic, Mode, Ovf, FloatAddIsNearest, MayBeBelow>(
                    x1, random.values(v + 1)),
                encode_fused_vector<F, Stochastic, Mode, Ovf, FloatAddIsNearest, MayBeBelow>(
                    x2, random.values(v + 2)),
                encode_fused_vector<F, Stochastic, Mode, Ovf, FloatAddIsNearest, MayBeBelow>(
                    x3, random.values(v + 3)));
}

// Four vectors of elements from in to out, with the random values of
// vectors v..v+3 of the step.
template <class Fmt, bool Stochastic, rounding Mode, overflow Ovf, bool Scale, bool Amax,
          bool FloatAddIsNearest>
MF_FORCE_INLINE void encode_fused_group(const float* in, typename Fmt::storage_type* out,
                                        const random_source<Stochastic>& random, std::size_t v,
                                        typename ops::vec scale, typename ops::vec& amax) {
  using vec = typename ops::vec;
  constexpr std::size_t lanes = ops::lanes;
  const vec x0 = load_fused<Scale, Amax>(in, scale, amax);
  const vec x1 = load_fused<Scale, Amax>(in + lanes, scale, amax);
  const vec x2 = load_fused<Scale, Amax>(in + 2 * lanes, scale, amax);
  const vec x3 = load_fused<Scale, Amax>(in + 3 * lanes, scale, amax);
  if constexpr (Stochastic && group_check_below_min_normal) {
    // The fast path skips the steps of the lanes below the format's min
    // normal when no lane of the group has one (rare in scaled data).
    const vec smallest = smallest_magnitude<ops>(
        smallest_magnitude<ops>(
            smallest_magnitude<ops>(ops::bit_and(x0, ops::splat(0x7FFFFFFFu)), x1), x2),
        x3);
    if (!any_below_min_normal<typename Fmt::format, ops>(smallest)) {
      encode_and_store<Fmt, Stochastic, Mode, Ovf, FloatAddIsNearest, false>(out, x0, x1, x2, x3,
                                                                            random, v);
      return;
    }
  }
  encode_and_store<Fmt, Stochastic, Mode, Ovf, FloatAddIsNearest, true>(out, x0, x1, x2, x3,
                                                                       random, v);
}

// Returns the integer max of |x| bits when Amax (see lanes::amax_from_bits).
template <class Fmt, bool Stochastic, rounding Mode, overflow Ovf, bool Scale, bool Amax,
          bool FloatAddIsNearest>
inline std::uint32_t encode_fused_loop(const float* in, typename Fmt::storage_type* out,
                                       std::size_t n, const conversion& c, float scale_factor) {
  using S = typename Fmt::storage_type;
  constexpr std::size_t group = 4 * ops::lanes;
  constexpr std::size_t step = random_source<Stochastic>::step;
  random_source<Stochastic> random(c);
  const std::uint64_t per_block = random.layout.elements_per_block;
  std::size_t head = 0;
  std::uint32_t amax = 0;
  if constexpr (Stochastic) {
    head = static_cast<std::size_t>((per_block - c.stream.offset % per_block) % per_block);
    if (head > n) head = n;
    MF_SIMD_CLEAR_UPPER_STATE();  // the scalar kernel is compiled without the region
    amax = scalar::encode_fused_range<Fmt, true, rounding::nearest_even, Ovf, Scale>(
        in, out, head, 0, c.stream, scale_factor);
  }
  const typename ops::vec scale = ops::splat(mf::detail::bit_cast<std::uint32_t>(scale_factor));
  typename ops::vec acc = ops::splat(0);
  std::uint64_t block = (c.stream.offset + head) / per_block;
  // The group's code appears once: the last, partial step runs through the
  // same loop from a zero-padded copy (a zero encodes without side effects
  // and adds nothing to the maximum), in whole groups.
  const mf::target::detail::input_prefetch prefetch(in, n);
  float padded_in[step];
  S padded_out[step];
  for (std::size_t i = head; i < n; i += step, block += random.layout.blocks_per_step) {
    const std::size_t count = n - i < step ? n - i : step;
    const std::size_t whole_groups = (count + group - 1) / group * group;
    const float* from = in + i;
    S* to = out + i;
    if (count < step) {
      std::memcpy(static_cast<void*>(padded_in), static_cast<const void*>(from),
                  count * sizeof(float));
      std::memset(static_cast<void*>(padded_in + count), 0,
                  (whole_groups - count) * sizeof(float));
      from = padded_in;
      to = padded_out;
    }
    random.fill(block, whole_groups);  // values for the padding too
    for (std::size_t at = 0; at < count; at += group) {
      prefetch.ahead_of(i + at, group);
      encode_fused_group<Fmt, Stochastic, Mode, Ovf, Scale, Amax, FloatAddIsNearest>(
          from + at, to + at, random, at / ops::lanes, scale, acc);
    }
    if (count < step) {
      std::memcpy(static_cast<void*>(out + i), static_cast<const void*>(padded_out),
                  count * sizeof(S));
    }
  }
  if constexpr (Amax) {
    const std::uint32_t lanes = ops::reduce_max_unsigned(acc);
    amax = lanes > amax ? lanes : amax;
  }
  return amax;
}

// Whether the nearest-even fast path of F needs the float add (which the
// loop may use only where it rounds to nearest-even).
template <class F, rounding Mode, overflow Ovf>
inline constexpr bool fast_path_needs_float_add =
    takes_nearest_fast_path<F, Mode, Ovf, true> != takes_nearest_fast_path<F, Mode, Ovf, false>;

// The fused encode's entry: the run-time modes become template constants,
// and the fast path's float add is used where it rounds to nearest-even.
// Each element is multiplied by `scale` first when Scale. Returns the
// integer max of |x| bits when Amax (see lanes::amax_from_bits).
template <class Fmt, bool Stochastic, bool Scale, bool Amax, class Ops = ops>
inline std::uint32_t encode_fused(const float* in, typename Fmt::storage_type* out,
                                  std::size_t n, const conversion& c, float scale) {
  using F = typename Fmt::format;
  const auto kernel = [&](auto mode, auto ovf) {
    constexpr rounding Mode = decltype(mode)::value;
    constexpr overflow Ovf = decltype(ovf)::value;
    constexpr bool add_is_nearest = Ops::float_add == simd::float_add_rounding::nearest_always;
    if constexpr (Ops::float_add == simd::float_add_rounding::environment && !Stochastic &&
                  fast_path_needs_float_add<F, Mode, Ovf>) {
      if (environment_float_add_is_nearest<Ops>()) {
        return encode_fused_loop<Fmt, Stochastic, Mode, Ovf, Scale, Amax, true>(in, out, n, c,
                                                                                scale);
      }
    }
    return encode_fused_loop<Fmt, Stochastic, Mode, Ovf, Scale, Amax, add_is_nearest>(
        in, out, n, c, scale);
  };
  return detail::with_mode_and_overflow<Stochastic>(c.mode, c.on_overflow, kernel);
}

// The plain encode (c deterministic), its output written through the
// caches.
template <class Fmt>
inline void encode_through_cache(const float* in, typename Fmt::storage_type* out, std::size_t n,
                                 const conversion& c) {
  encode_fused<Fmt, false, false, false>(in, out, n, c, 1.0f);
}
