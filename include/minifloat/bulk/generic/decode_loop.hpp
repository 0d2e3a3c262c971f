// The decode loop written once, over one ISA's int32_ops (`ops`): the plain
// decode and the decode with a scale (the exact decode times the scale,
// one float product rounded as the thread's floating-point environment
// says, as the scalar product is). Same bits as scalar::decode and
// decode_scaled (fused_scalar.hpp) for every encoding.
//
// Included inside the ISA's target region and kernel namespace after
// lanes/decode_lanes.hpp (avx2.hpp, avx512.hpp, neon.hpp); no include
// guard, on purpose. Needs from `ops`: load_widened (one vector of
// encodings widened to 32-bit lanes) or, where widens_four_at_once,
// load_four_widened (four of them), store and multiply_float.
//
// A group of four vectors at a time, as in the encode loop; the last,
// partial group runs through the same code from a zero-padded copy (a zero
// decodes without side effects).

// Four vectors of encodings, zero-extended to the lanes. Ops: `ops`, named
// through the template so that each set is asked only for the load it has.
template <class S, class Ops = ops>
MF_FORCE_INLINE void load_encodings(const S* in, typename Ops::vec& v0, typename Ops::vec& v1,
                                    typename Ops::vec& v2, typename Ops::vec& v3) {
  if constexpr (Ops::widens_four_at_once) {
    Ops::load_four_widened(in, v0, v1, v2, v3);
  } else {
    v0 = Ops::load_widened(in);
    v1 = Ops::load_widened(in + Ops::lanes);
    v2 = Ops::load_widened(in + 2 * Ops::lanes);
    v3 = Ops::load_widened(in + 3 * Ops::lanes);
  }
}

// The float bits of one vector of encodings (bits above the format's
// width cleared), times the factor when Scale.
template <class F, bool Scale>
MF_FORCE_INLINE typename ops::vec decode_scaled_lanes(typename ops::vec encoding,
                                                      typename ops::vec factor) {
  const typename ops::vec bits = decode_lanes<F, ops>(encoding);
  if constexpr (Scale) {
    return ops::multiply_float(bits, factor);
  } else {
    (void)factor;
    return bits;
  }
}

template <class Fmt, bool Scale>
MF_FORCE_INLINE void decode_group(const typename Fmt::storage_type* in, float* out,
                                  typename ops::vec factor) {
  using F = typename Fmt::format;
  using vec = typename ops::vec;
  constexpr std::size_t lanes = ops::lanes;
  const vec valid = ops::splat(::mf::lanes::decode_constants<F>::valid_mask);
  vec v0, v1, v2, v3;
  load_encodings(in, v0, v1, v2, v3);
  ops::store(out, decode_scaled_lanes<F, Scale>(ops::bit_and(v0, valid), factor));
  ops::store(out + lanes, decode_scaled_lanes<F, Scale>(ops::bit_and(v1, valid), factor));
  ops::store(out + 2 * lanes, decode_scaled_lanes<F, Scale>(ops::bit_and(v2, valid), factor));
  ops::store(out + 3 * lanes, decode_scaled_lanes<F, Scale>(ops::bit_and(v3, valid), factor));
}

template <class Fmt, bool Scale>
inline void decode_loop(const typename Fmt::storage_type* in, float* out, std::size_t n,
                        float scale) {
  using S = typename Fmt::storage_type;
  constexpr std::size_t group = 4 * ops::lanes;
  const typename ops::vec factor = ops::splat(mf::detail::bit_cast<std::uint32_t>(scale));
  std::size_t i = 0;
  for (; i + group <= n; i += group) decode_group<Fmt, Scale>(in + i, out + i, factor);
  if (i < n) {
    S padded_in[group] = {};
    float padded_out[group];
    std::memcpy(static_cast<void*>(padded_in), static_cast<const void*>(in + i),
                (n - i) * sizeof(S));
    decode_group<Fmt, Scale>(padded_in, padded_out, factor);
    std::memcpy(static_cast<void*>(out + i), static_cast<const void*>(padded_out),
                (n - i) * sizeof(float));
  }
}
