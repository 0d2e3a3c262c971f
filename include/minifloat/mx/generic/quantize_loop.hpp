// MX quantize written once (OCP MX v1.0 §6.3), over one ISA's int32_ops
// (`ops`), for the block formats of block.hpp's simd_kernels_cover (MXFP8,
// MXFP4; blocks of a multiple of 16 elements). Same bytes as
// quantize_scalar.hpp for every input, whatever the floating-point
// environment holds.
//
// Included inside the ISA's target region and MX kernel namespace after
// lanes/encode_lanes.hpp (mx/x86_lanes.hpp, mx/neon_lanes.hpp), which also
// declares `ops` there; no include guard, on purpose. The includer has
// included <cstring>, block.hpp, element.hpp, scale.hpp and
// target/prefetch.hpp before opening the region.
//
// Per `ops::lanes` blocks: their largest magnitudes by integer maxima
// (a NaN or Inf anywhere gives a pattern >= 0x7F800000), gathered into one
// vector, the scale rule of scale.hpp on that vector, then each block's
// elements divided by the scale on their bits and rounded to the element
// (nearest even, saturating) by the bulk encoder (lanes/encode_lanes.hpp).
// The gathering holds the blocks' vectors in an array (ops::reduce_max_each):
// a fixed-width shape, unlike the lane-wise conversions, which a
// scalable-vector ISA would write another way.

// Float-subnormal magnitudes (integers below 2^23 as bits, standing for
// a * 2^-149) made float normals by an exact conversion to float, halved
// (times_power_of_two's range), so that their exponent field is 148 below
// the value's; the other lanes unchanged.
MF_FORCE_INLINE typename ops::vec normalise_subnormals(typename ops::vec magnitude,
                                                       typename ops::mask subnormal) {
  return ops::select(subnormal,
                     ops::template times_power_of_two<-1>(ops::keep_where(subnormal, magnitude)),
                     magnitude);
}

// scale.hpp's shared_scale on the amax bit patterns of ops::lanes blocks.
template <class Elem, scale_rounding Mode>
MF_FORCE_INLINE typename ops::vec shared_scale_lanes(typename ops::vec amax) {
  using vec = typename ops::vec;
  using T = element_traits<Elem>;
  const typename ops::mask special = ops::greater(amax, ops::splat(0x7F7FFFFFu));
  const typename ops::mask zero = ops::is_zero(amax);
  const typename ops::mask subnormal = ops::less(amax, ops::splat(0x00800000u));
  const vec f = normalise_subnormals(amax, subnormal);
  const vec fraction = ops::bit_and(f, ops::splat(0x7FFFFFu));
  constexpr auto offset = static_cast<std::uint32_t>(127 + T::emax);
  vec x = ops::sub(ops::template shift_right<23>(f),
                   ops::select(subnormal, ops::splat(offset + 148u), ops::splat(offset)));
  if constexpr (Mode == scale_rounding::ceil) {
    x = ops::increment_where(
        ops::greater(fraction, ops::splat(T::max_fraction << (23 - T::mantissa_bits))), x);
  } else if constexpr (Mode == scale_rounding::even) {
    x = ops::increment_where(
        ops::greater(fraction, ops::splat((1u << 23) - (1u << (22 - T::mantissa_bits)) - 1u)), x);
  }
  // The code x + 127, clamped below at 0 (2^-127); above 254 the scale is NaN.
  vec code = ops::add(ops::max_signed(x, ops::splat(static_cast<std::uint32_t>(-127))),
                      ops::splat(127));
  code = ops::select(ops::greater(code, ops::splat(254)), ops::splat(scale_nan), code);
  code = ops::select(special, ops::splat(scale_nan), code);
  return ops::clear_where(zero, code);
}

// scale.hpp's scale_by_power_of_two on the lanes: V * 2^shift exactly,
// below 2^-126 +-0. shift_subnormal is shift - 148, for the float-subnormal
// V that normalise_subnormals moves.
MF_FORCE_INLINE typename ops::vec scale_lanes(typename ops::vec x, typename ops::vec shift,
                                              typename ops::vec shift_subnormal) {
  using vec = typename ops::vec;
  const vec a = ops::bit_and(x, ops::splat(0x7FFFFFFFu));
  const typename ops::mask subnormal = ops::less(a, ops::splat(0x00800000u));
  const vec source = normalise_subnormals(a, subnormal);
  const vec adjust = ops::select(subnormal, shift_subnormal, shift);
  // The result's exponent field; at 0 or below, |result| < 2^-126.
  const vec field = ops::add(ops::template shift_right<23>(source), adjust);
  const vec r = ops::clear_where(ops::is_zero(ops::max_signed(field, ops::splat(0))),
                                 ops::add(source, ops::template shift_left<23>(adjust)));
  return ops::bit_or_and(r, x, ops::splat(0x80000000u));
}

// One vector of element codes (32-bit lanes) to the block's storage:
// a byte each (8-bit elements) or packed two to a byte (FP4).
template <int Bits>
MF_FORCE_INLINE void store_element_codes(std::uint8_t* out, typename ops::vec codes) {
  static_assert(Bits == 8 || Bits == 4, "the element widths the kernels cover");
  if constexpr (Bits == 8) {
    ops::store_low_bytes(out, codes);
  } else {
    ops::store_nibble_pairs(out, codes);
  }
}

// The blocks whose elements may take the encode with the scale folded in
// (encode_lanes_scaled_saturating): a float-subnormal or zero V gives
// garbage below 2^(s - 126) there, which rounds to +-0 when
// s <= 125 + (emin - M), s = 127 - code.
template <class Elem>
inline constexpr int scaled_encode_min_code =
    127 - (125 + Elem::format::min_exponent - Elem::format::mantissa_bits);

// The elements of one block whose scale code is known. FloatAddIsNearest:
// ops::add_float_nearest rounds to nearest even here (always with AVX-512's
// embedded rounding; with AVX2 when MXCSR says so), which the folded encode
// and the encoder's subnormal path need. Forced inline: called once per
// block, and g++ -O2 left it out of line (MX quantize ran at 0.76-0.80x of
// its -O3 speed on AVX-512).
template <class Fmt, bool FloatAddIsNearest>
MF_FORCE_INLINE void quantize_block_elements(const float* p, std::uint8_t* out,
                                             std::uint32_t code) {
  using F = typename Fmt::element::format;
  using vec = typename ops::vec;
  constexpr std::size_t lanes = ops::lanes;
  constexpr std::size_t vector_bytes = lanes * Fmt::element_bits / 8;
  constexpr std::size_t vectors = Fmt::block_size / lanes;
  if (code == scale_nan) {
    // A NaN scale makes the block NaN whatever P_i hold (§6.3): zeros.
    std::memset(out, 0, Fmt::element_bytes);
    return;
  }
  const int shift = 127 - static_cast<int>(code);
  if constexpr (FloatAddIsNearest) {
    if (code >= static_cast<std::uint32_t>(scaled_encode_min_code<typename Fmt::element>)) {
      const auto bias = static_cast<std::uint32_t>(F::bias);
      const auto s = static_cast<std::uint32_t>(shift);
      constexpr unsigned normal_shift = static_cast<unsigned>(23 - F::mantissa_bits);
      // Per block: the exponent rebiased by the element's bias and the
      // scale, plus half an element ulp minus one; the element's min normal
      // 2^emin in units of V.
      const vec normal_add =
          ops::splat(((s + bias - 127u) << 23) + (1u << (normal_shift - 1)) - 1u);
      const vec scale_add = ops::splat(s << 23);
      const vec subnormal_below =
          ops::splat(static_cast<std::uint32_t>(F::min_exponent + 127 - shift) << 23);
      for (std::size_t t = 0; t < vectors; ++t) {
        store_element_codes<Fmt::element_bits>(
            out + vector_bytes * t,
            encode_lanes_scaled_saturating<F, ops>(ops::load(p + lanes * t), normal_add,
                                                   scale_add, subnormal_below));
      }
      return;
    }
  }
  const vec shift_v = ops::splat(static_cast<std::uint32_t>(shift));
  const vec shift_subnormal = ops::splat(static_cast<std::uint32_t>(shift - 148));
  for (std::size_t t = 0; t < vectors; ++t) {
    store_element_codes<Fmt::element_bits>(
        out + vector_bytes * t,
        encode_lanes<F, rounding::nearest_even, overflow::saturating, ops, FloatAddIsNearest>(
            scale_lanes(ops::load(p + lanes * t), shift_v, shift_subnormal)));
  }
}

template <class Fmt, scale_rounding Mode, bool FloatAddIsNearest>
inline void quantize_blocks(const float* in, std::size_t blocks, std::uint8_t* scales,
                            std::uint8_t* elements) {
  using Elem = typename Fmt::element;
  using vec = typename ops::vec;
  constexpr std::size_t lanes = ops::lanes;
  constexpr std::size_t k = Fmt::block_size;
  constexpr std::size_t vectors = k / lanes;
  const vec magnitude = ops::splat(0x7FFFFFFFu);
  const mf::target::detail::input_prefetch prefetch(in, blocks * k);
  std::size_t j = 0;
  // ops::lanes blocks at a time: their amaxes in one vector, the scale rule
  // on it.
  for (; j + lanes <= blocks; j += lanes) {
    vec m[lanes];
    MF_UNROLL
    for (std::size_t b = 0; b < lanes; ++b) {
      const float* p = in + (j + b) * k;
      prefetch.ahead_of((j + b) * k, k);
      m[b] = ops::bit_and(ops::load(p), magnitude);
      for (std::size_t t = 1; t < vectors; ++t) {
        m[b] = ops::max_unsigned(m[b], ops::bit_and(ops::load(p + lanes * t), magnitude));
      }
    }
    alignas(64) std::uint32_t codes[lanes];
    const vec code_v = shared_scale_lanes<Elem, Mode>(ops::reduce_max_each(m));
    ops::store(codes, code_v);
    ops::store_low_bytes(scales + j, code_v);
    for (std::size_t b = 0; b < lanes; ++b) {
      quantize_block_elements<Fmt, FloatAddIsNearest>(
          in + (j + b) * k, elements + (j + b) * Fmt::element_bytes, codes[b]);
    }
  }
  for (; j < blocks; ++j) {
    const float* p = in + j * k;
    vec amax = ops::splat(0);
    for (std::size_t t = 0; t < vectors; ++t) {
      amax = ops::max_unsigned(amax, ops::bit_and(ops::load(p + lanes * t), magnitude));
    }
    const std::uint8_t code = shared_scale<Elem>(ops::reduce_max_unsigned(amax), Mode);
    scales[j] = code;
    quantize_block_elements<Fmt, FloatAddIsNearest>(p, elements + j * Fmt::element_bytes, code);
  }
}

// `blocks` whole blocks of Fmt::block_size elements: the scale rule and
// whether the float add rounds to nearest become template constants.
template <class Fmt, class Ops = ops>
inline void quantize(const float* in, std::size_t blocks, std::uint8_t* scales,
                     std::uint8_t* elements, scale_rounding mode) {
  static_assert(detail::simd_kernels_cover<Fmt>, "MXFP8 or MXFP4 with blocks of a multiple of 16");
  const auto run = [&](auto rule) {
    constexpr scale_rounding Mode = decltype(rule)::value;
    if constexpr (Ops::float_add == simd::float_add_rounding::nearest_always) {
      quantize_blocks<Fmt, Mode, true>(in, blocks, scales, elements);
    } else if constexpr (Ops::float_add == simd::float_add_rounding::environment) {
      if (environment_float_add_is_nearest<Ops>()) {
        quantize_blocks<Fmt, Mode, true>(in, blocks, scales, elements);
      } else {
        quantize_blocks<Fmt, Mode, false>(in, blocks, scales, elements);
      }
    } else {
      quantize_blocks<Fmt, Mode, false>(in, blocks, scales, elements);
    }
  };
  switch (mode) {
    case scale_rounding::floor:
      return run(std::integral_constant<scale_rounding, scale_rounding::floor>{});
    case scale_rounding::ceil:
      return run(std::integral_constant<scale_rounding, scale_rounding::ceil>{});
    case scale_rounding::even:
      return run(std::integral_constant<scale_rounding, scale_rounding::even>{});
  }
}
