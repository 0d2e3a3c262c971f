// Encode written once: float bit patterns to the encodings of format F, one
// per 32-bit lane, mirroring mf::detail::round_float_bits lane-wise, over one
// ISA's 32-bit integer operations (simd/<arch>/<isa>/integer_ops.hpp).
// Included inside a target region, in the per-ISA namespace of the module
// that uses it (bulk/avx2.hpp, bulk/avx512.hpp, bulk/neon.hpp,
// mx/x86_lanes.hpp, mx/neon_lanes.hpp), so it compiles to that ISA's
// instructions; no include guard, on purpose. Needs constants.hpp and
// MF_FORCE_INLINE (config.hpp) declared before the region.
//
// Vectors stay in locals and reference parameters, never in structs or
// arrays, so that a scalable-vector ISA (SVE, RVV) can use the same source.
// A mask is whatever Ops::mask is (an opmask register, or a vector of
// all-ones lanes); the code only combines masks through Ops.

// For each lane, if_negative where the lane's mask is set, if_positive
// elsewhere.
template <class Ops>
MF_FORCE_INLINE typename Ops::vec select_by_sign(typename Ops::mask negative,
                                                 unsigned if_positive, unsigned if_negative) {
  if (if_positive == if_negative) return Ops::splat(if_positive);
  return Ops::select(negative, Ops::splat(if_negative), Ops::splat(if_positive));
}

// What the general encoders take apart in the float bit patterns x, through
// the reference parameters. Constants: ::mf::lanes::encode_constants. The shift
// is clamped to MaxShift where it could be more: 25 for the deterministic
// modes (a shift of 25 rounds any 24-bit significand to 0 or 1 quantum, and
// keeps the rounding constants' shifts below 32), the ISA's
// variable_shift_limit for the stochastic rule, which needs every bit below
// the quantum.
template <class Constants, int MaxShift, class Ops>
MF_FORCE_INLINE void split_float(typename Ops::vec x,
                                 typename Ops::vec& magnitude,     // |x| bits
                                 typename Ops::mask& negative,     // lanes holding a negative x
                                 typename Ops::vec& exponent,      // the float exponent field
                                 typename Ops::vec& significand,   // with its hidden bit
                                 typename Ops::vec& shift,         // to the format's quantum
                                 typename Ops::vec& base) {        // (q + bias - 1) << M
  using vec = typename Ops::vec;
  magnitude = Ops::bit_and(x, Ops::splat(0x7FFFFFFFu));
  negative = Ops::negative_lanes(x);
  exponent = Ops::template shift_right<23>(magnitude);
  // Float subnormals (exponent field 0) have the quantum of exponent 1 and
  // no hidden bit.
  const vec effective_exponent = Ops::max_signed(exponent, Ops::splat(1));
  // magnitude minus the exponent field, plus one hidden bit where it is >= 1.
  significand = Ops::sub(magnitude, Ops::template shift_left<23>(
                                        Ops::sub(effective_exponent, Ops::splat(1))));
  // 23 - M in the format's normal range, more below it.
  shift = Ops::max_signed(
      Ops::sub(Ops::splat(static_cast<unsigned>(Constants::shift_base)), effective_exponent),
      Ops::splat(static_cast<unsigned>(Constants::normal_shift)));
  if constexpr (Constants::shift_base - 1 > MaxShift) {
    shift = Ops::min_signed(shift, Ops::splat(static_cast<unsigned>(MaxShift)));
  }
  base = Ops::template shift_left<Constants::M>(Ops::max_signed(
      Ops::sub(effective_exponent, Ops::splat(static_cast<unsigned>(Constants::base_offset))),
      Ops::splat(0)));
}

// The encoding of a rounded magnitude (at most 2^16, or past max finite):
// the sign, fnuz's single zero, overflow.
template <class F, class Constants, class Ops>
MF_FORCE_INLINE typename Ops::vec signed_encoding(typename Ops::vec rounded,
                                                  typename Ops::mask negative) {
  typename Ops::vec result = rounded;
  if constexpr (F::is_signed) {
    result = Ops::or_where(negative, result, Ops::splat(Constants::sign_mask));
  }
  if constexpr (F::encoding == specials::fnuz) {
    // No negative zero: a negative value rounding to 0 is +0.
    result = Ops::clear_where(Ops::is_zero(rounded), result);
  }
  return Ops::select(Ops::greater(rounded, Ops::splat(Constants::max_finite)),
                     select_by_sign<Ops>(negative, Constants::overflow_pos,
                                         Constants::overflow_neg),
                     result);
}

// fnu formats: the lanes whose float exponent field is below min normal.
template <class F, class Ops>
MF_FORCE_INLINE typename Ops::mask below_min_normal(typename Ops::vec exponent) {
  return Ops::less(exponent, Ops::splat(static_cast<unsigned>(F::min_exponent + 127)));
}

// result with the inputs that do not round by magnitude put right: negative
// non-zero values in the unsigned formats, Inf and NaN. magnitude is |x| in
// a binary format whose Inf has the bits InfBits (float's, or binary16's for
// generic/binary16_lanes.hpp).
template <class F, class Constants, class Ops, unsigned InfBits = 0x7F800000u>
MF_FORCE_INLINE typename Ops::vec with_special_inputs(typename Ops::vec result,
                                                      typename Ops::vec magnitude,
                                                      typename Ops::mask negative) {
  if constexpr (!F::has_subnormals) {
    // No sign: negative non-zero values are NaN (-0 is +0's encoding, as
    // the scalar rule has it).
    result = Ops::select(Ops::nonzero_within(negative, magnitude), Ops::splat(F::positive_nan),
                         result);
  }
  result = Ops::select(Ops::greater(magnitude, Ops::splat(InfBits - 1u)),
                       select_by_sign<Ops>(negative, Constants::nan_pos, Constants::nan_neg),
                       result);
  if constexpr (Constants::inf_pos == Constants::nan_pos &&
                Constants::inf_neg == Constants::nan_neg) {
    return result;  // Inf is among the lanes above max finite, and encodes as NaN does
  } else {
    return Ops::select(Ops::equal(magnitude, Ops::splat(InfBits)),
                       select_by_sign<Ops>(negative, Constants::inf_pos, Constants::inf_neg),
                       result);
  }
}

// The general encoder, any rounding mode: the significand shifted right to
// the format's quantum with the mode's increment added first, the exponent
// field (base) added above it, so that a carry out of the significand moves
// into the exponent as it should.
template <class F, rounding Mode, overflow Ovf, class Ops>
MF_FORCE_INLINE typename Ops::vec encode_lanes_general(typename Ops::vec x) {
  using vec = typename Ops::vec;
  using constants = ::mf::lanes::encode_constants<F, Mode, Ovf>;
  vec magnitude, exponent, significand, shift, base;
  typename Ops::mask negative;
  split_float<constants, 25, Ops>(x, magnitude, negative, exponent, significand, shift, base);
  const vec ones = Ops::splat(0xFFFFFFFFu);
  vec kept;
  if constexpr (Mode == rounding::nearest_even) {
    // (significand + half - 1 + lsb(kept)) >> shift
    const vec half_minus_one = Ops::shift_right_variable(ones, Ops::sub(Ops::splat(33), shift));
    const vec lsb = Ops::bit_and(Ops::shift_right_variable(significand, shift), Ops::splat(1));
    kept = Ops::shift_right_variable(Ops::add(Ops::add(significand, half_minus_one), lsb), shift);
  } else if constexpr (Mode == rounding::toward_zero) {
    kept = Ops::shift_right_variable(significand, shift);
  } else {
    // Away from zero on the side the mode points to: add quantum - 1.
    vec quantum_minus_one = Ops::shift_right_variable(ones, Ops::sub(Ops::splat(32), shift));
    quantum_minus_one = Mode == rounding::toward_positive
                            ? Ops::clear_where(negative, quantum_minus_one)
                            : Ops::keep_where(negative, quantum_minus_one);
    kept = Ops::shift_right_variable(Ops::add(significand, quantum_minus_one), shift);
  }
  vec result = signed_encoding<F, constants, Ops>(Ops::add(base, kept), negative);
  if constexpr (!F::has_subnormals) {
    // fnu: values below min normal go to the smallest value (encoding 0)...
    result = Ops::clear_where(below_min_normal<F, Ops>(exponent), result);
    if constexpr (F::min_exponent == -127) {
      // ...except [2^-127, 2^-126), float subnormals with bit 22 set: kept is
      // 1 (odd), the half point is bit 21; the result is 0 or 1.
      if constexpr (Mode == rounding::nearest_even || Mode == rounding::toward_positive) {
        constexpr unsigned threshold = Mode == rounding::nearest_even ? 0x600000u : 0x400001u;
        const vec up = Ops::keep_where(Ops::greater(magnitude, Ops::splat(threshold - 1)),
                                       Ops::splat(1));
        result = Ops::select(Ops::is_zero(exponent), up, result);
      }
    }
  }
  return with_special_inputs<F, constants, Ops>(result, magnitude, negative);
}

// ---- the nearest-even fast path ------------------------------------------
// Signed formats with subnormals, and e8m0fnu (unsigned, no subnormals, min
// normal 2^-127 just below float's): integer rounding for the format's
// normals, one float add of a magic number for its subnormals, the specials
// chosen on the magnitude where the negative encoding is the positive one
// with the sign bit, then the sign. Same bits as encode_lanes_general.

// Whether an encoding for a negative input is the positive one with the
// sign bit set, so that it can be chosen on the magnitude before the sign is
// applied.
template <class F>
constexpr bool sign_symmetric(unsigned if_positive, unsigned if_negative) {
  return if_negative == (if_positive | F::sign_mask);
}

template <class F, overflow Ovf>
struct nearest_fast_path {
  using constants = ::mf::lanes::encode_constants<F, rounding::nearest_even, Ovf>;
  static constexpr bool unsigned_fnu =
      !F::has_subnormals && !F::is_signed && F::min_exponent == -127;
  static constexpr bool eligible = (F::has_subnormals && F::is_signed) || unsigned_fnu;
  static constexpr bool overflow_symmetric =
      sign_symmetric<F>(constants::overflow_pos, constants::overflow_neg);
  static constexpr bool nan_symmetric = sign_symmetric<F>(constants::nan_pos, constants::nan_neg);
  static constexpr bool inf_symmetric = sign_symmetric<F>(constants::inf_pos, constants::inf_neg);
  static constexpr bool inf_like_nan =
      constants::inf_pos == constants::nan_pos && constants::inf_neg == constants::nan_neg;
  // The formats without NaN: a NaN input is +max for both signs, +-Inf is
  // +-max. Both go through the symmetric path, then NaN lanes drop the sign.
  static constexpr bool nan_unsigned_inf_signed =
      constants::nan_pos == constants::nan_neg && constants::inf_pos == constants::nan_pos &&
      constants::inf_neg == (constants::inf_pos | F::sign_mask) && F::is_signed;
  static constexpr bool nan_split =
      nan_unsigned_inf_signed && overflow_symmetric && !nan_symmetric;
  // Normal range: (a + 2^(s-1) - 1 + lsb - rebias) >> s with s = 23 - M.
  static constexpr int shift = 23 - F::mantissa_bits;
  static constexpr unsigned add =
      ((1u << (shift - 1)) - 1u) - (static_cast<unsigned>(127 - F::bias) << 23);
  // Below min normal: a + 2^(emin - M + 23) rounds at the subnormal quantum
  // (ties to even). Not needed when min normal is float's: the integer
  // formula covers it.
  static constexpr bool small_path = F::has_subnormals && F::min_exponent > -126;
  static constexpr unsigned min_normal_bits = static_cast<unsigned>(F::min_exponent + 127) << 23;
  static constexpr unsigned magic_bits =
      static_cast<unsigned>(F::min_exponent - F::mantissa_bits + 23 + 127) << 23;
  static constexpr int sign_shift = F::is_signed ? 31 - (F::bits - 1) : 0;
  // Whether one min puts every lane above max finite at the overflow
  // encoding: an overflow the same for both signs, max finite itself
  // (saturating) or the encoding just above it (e4m3fn's NaN, e5m2's Inf).
  static constexpr bool overflow_by_min =
      overflow_symmetric && (constants::overflow_pos == constants::max_finite ||
                             constants::overflow_pos == constants::max_finite + 1);
  // Inf and NaN inputs (magnitude >= 255 << 23) round, here and in the
  // stochastic fast path, to at least (128 + bias) << M, above max finite
  // for every format of at most 8 exponent bits (bias 127 where there are
  // 8), so the overflow handling takes them first and the special inputs
  // are put right afterwards.
  static_assert(!eligible || ((0x7F800000u + add) >> shift) > constants::max_finite,
                "Inf and NaN inputs round above max finite");
};

// Nearest-even rounding of the magnitudes |x| bits to the format's magnitude
// encodings. Out-of-range lanes are left above max finite for
// finish_fast_path.
template <class F, overflow Ovf, class Ops>
MF_FORCE_INLINE typename Ops::vec nearest_magnitude(typename Ops::vec magnitude) {
  using vec = typename Ops::vec;
  using path = nearest_fast_path<F, Ovf>;
  // The kept significand's last bit; with no mantissa bits it is the hidden
  // bit, always 1 (ties round up to the next power of two).
  vec lsb;
  if constexpr (F::mantissa_bits == 0) {
    lsb = Ops::splat(1);
  } else {
    lsb = Ops::bit_and(Ops::template shift_right<path::shift>(magnitude), Ops::splat(1));
  }
  vec rounded = Ops::template shift_right<path::shift>(
      Ops::add(Ops::add(magnitude, Ops::splat(path::add)), lsb));
  if constexpr (path::small_path) {
    const vec magic = Ops::splat(path::magic_bits);
    rounded = Ops::select(Ops::less(magnitude, Ops::splat(path::min_normal_bits)),
                          Ops::sub(Ops::add_float_nearest(magnitude, magic), magic), rounded);
  }
  if constexpr (path::unsigned_fnu) {
    // Float subnormals: 2^-127 (encoding 0) up to the midpoint 1.5 * 2^-127
    // (a tie goes to 2^-126, encoding 1, whose significand is even), and the
    // values below 2^-127 go to it too (no zero in the format).
    rounded = Ops::select(
        Ops::less(magnitude, Ops::splat(0x00800000u)),
        Ops::keep_where(Ops::greater(magnitude, Ops::splat(0x005FFFFFu)), Ops::splat(1)),
        rounded);
  }
  return rounded;
}

// The rest of a fast-path encode, after rounding: from the input x, its
// magnitude and the rounded magnitude encoding (above max finite when it
// overflowed, and for NaN and Inf inputs), the specials chosen on the
// magnitude, then the sign. Shared by nearest-even and stochastic rounding,
// which overflow alike.
template <class F, overflow Ovf, class Ops>
MF_FORCE_INLINE typename Ops::vec finish_fast_path(typename Ops::vec x,
                                                   typename Ops::vec magnitude,
                                                   typename Ops::vec rounded) {
  using vec = typename Ops::vec;
  using path = nearest_fast_path<F, Ovf>;
  using constants = typename path::constants;
  const typename Ops::mask special = Ops::greater(magnitude, Ops::splat(0x7F7FFFFFu));
  typename Ops::mask overflowed = Ops::greater(rounded, Ops::splat(constants::max_finite));
  if constexpr (!path::overflow_symmetric && path::nan_symmetric) {
    overflowed = Ops::mask_and_not(overflowed, special);
  }
  // Choices on the magnitude (the sign is applied below).
  if constexpr (path::overflow_by_min) {
    // Inf and NaN inputs become the overflow encoding too (nearest_fast_path
    // asserts that they round above max finite), then are put right where
    // they encode otherwise: one operation for e4m3fn, whose overflow, Inf
    // and NaN are all 0x7F, three for e5m2 (NaN apart).
    rounded = Ops::min_signed(rounded, Ops::splat(constants::overflow_pos));
    if constexpr ((path::nan_symmetric || path::nan_split) &&
                  constants::nan_pos != constants::overflow_pos) {
      const typename Ops::mask nan_lanes =
          path::inf_like_nan ? special : Ops::greater(magnitude, Ops::splat(0x7F800000u));
      rounded = Ops::select(nan_lanes, Ops::splat(constants::nan_pos), rounded);
    }
    if constexpr (!path::inf_like_nan && path::inf_symmetric && path::nan_symmetric &&
                  constants::inf_pos != constants::overflow_pos) {
      rounded = Ops::select(Ops::equal(magnitude, Ops::splat(0x7F800000u)),
                            Ops::splat(constants::inf_pos), rounded);
    }
  } else {
    if constexpr (path::overflow_symmetric) {
      rounded = Ops::select(overflowed, Ops::splat(constants::overflow_pos), rounded);
    }
    if constexpr (path::nan_symmetric || path::nan_split) {
      rounded = Ops::select(special, Ops::splat(constants::nan_pos), rounded);
    }
    if constexpr (!path::inf_like_nan && path::inf_symmetric && path::nan_symmetric) {
      rounded = Ops::select(Ops::equal(magnitude, Ops::splat(0x7F800000u)),
                            Ops::splat(constants::inf_pos), rounded);
    }
  }
  // rounded | (sign & sign_mask); a format without -0 keeps +0.
  vec result = rounded;
  if constexpr (F::encoding == specials::fnuz) {
    result = Ops::bit_or_and_if_nonzero(rounded, Ops::template shift_right<path::sign_shift>(x),
                                        Ops::splat(F::sign_mask));
  } else if constexpr (F::is_signed) {
    result = Ops::bit_or_and(rounded, Ops::template shift_right<path::sign_shift>(x),
                             Ops::splat(F::sign_mask));
  }
  // Choices that depend on the sign.
  if constexpr (path::nan_split) {
    result = Ops::select(Ops::greater(magnitude, Ops::splat(0x7F800000u)),
                         Ops::splat(constants::nan_pos), result);
  } else if constexpr (!path::overflow_symmetric || !path::nan_symmetric ||
                       !path::inf_symmetric) {
    const typename Ops::mask negative = Ops::negative_lanes(x);
    if constexpr (!path::overflow_symmetric) {
      result = Ops::select(overflowed,
                           select_by_sign<Ops>(negative, constants::overflow_pos,
                                               constants::overflow_neg),
                           result);
    }
    if constexpr (!path::nan_symmetric) {
      result = Ops::select(special,
                           select_by_sign<Ops>(negative, constants::nan_pos, constants::nan_neg),
                           result);
    }
    if constexpr (!path::inf_like_nan && !(path::inf_symmetric && path::nan_symmetric)) {
      result = Ops::select(Ops::equal(magnitude, Ops::splat(0x7F800000u)),
                           select_by_sign<Ops>(negative, constants::inf_pos, constants::inf_neg),
                           result);
    }
  }
  if constexpr (!F::is_signed) {
    // No sign: a negative non-zero input is NaN (-0 is +0's encoding).
    result = Ops::select(Ops::nonzero_within(Ops::negative_lanes(x), magnitude),
                         Ops::splat(F::positive_nan), result);
  }
  return result;
}

// Nearest-even encode on the fast path. Same bits as encode_lanes_general.
template <class F, overflow Ovf, class Ops>
MF_FORCE_INLINE typename Ops::vec encode_lanes_nearest(typename Ops::vec x) {
  const typename Ops::vec magnitude = Ops::bit_and(x, Ops::splat(0x7FFFFFFFu));
  return finish_fast_path<F, Ovf, Ops>(x, magnitude, nearest_magnitude<F, Ovf, Ops>(magnitude));
}

// Whether encode_lanes takes the fast path: FloatAddIsNearest says whether
// Ops::add_float_nearest rounds to nearest-even where the caller runs
// (always with AVX-512's embedded rounding; with AVX2 when MXCSR holds
// round-to-nearest, no DAZ, exceptions masked); formats whose subnormals
// need no float add take it regardless.
template <class F, rounding Mode, overflow Ovf, bool FloatAddIsNearest>
inline constexpr bool takes_nearest_fast_path =
    Mode == rounding::nearest_even && nearest_fast_path<F, Ovf>::eligible &&
    (FloatAddIsNearest || !nearest_fast_path<F, Ovf>::small_path);

// Ops::float_add_is_nearest(), which only the sets whose float_add is
// `environment` have (MXCSR checked per call): named through a template, so
// that the other sets' instantiations never look the name up.
template <class Ops>
MF_FORCE_INLINE bool environment_float_add_is_nearest() {
  return Ops::float_add_is_nearest();
}

// Encodes the float bit patterns x into encodings of F (32-bit lanes), in
// rounding Mode and overflow Ovf.
template <class F, rounding Mode, overflow Ovf, class Ops, bool FloatAddIsNearest>
MF_FORCE_INLINE typename Ops::vec encode_lanes(typename Ops::vec x) {
  if constexpr (takes_nearest_fast_path<F, Mode, Ovf, FloatAddIsNearest>) {
    return encode_lanes_nearest<F, Ovf, Ops>(x);
  } else {
    return encode_lanes_general<F, Mode, Ovf, Ops>(x);
  }
}

// Nearest-even, saturating encode of finite V * 2^k with the scale folded
// into the fast path's constants (the MX block quantizers): with
// the per-block constants normal_add = ((k + bias - 127) << 23) + 2^(22 - M)
// - 1, scale_add = k << 23 and subnormal_below = the bits of 2^(emin - k),
// V * 2^k has the bits a + (k << 23) whenever it is a float normal, so the
// integer rounding of the format's normals and the magic-number add of its
// subnormals take the scale on the way. A float-subnormal or zero V gives
// garbage here, but garbage below 2^(k - 126), which rounds to +-0 when
// k <= 125 + (emin - M): the callers check it per block.
template <class F, class Ops>
MF_FORCE_INLINE typename Ops::vec encode_lanes_scaled_saturating(typename Ops::vec x,
                                                                 typename Ops::vec normal_add,
                                                                 typename Ops::vec scale_add,
                                                                 typename Ops::vec subnormal_below) {
  using vec = typename Ops::vec;
  using path = nearest_fast_path<F, overflow::saturating>;
  static_assert(F::is_signed && F::has_subnormals && F::encoding != specials::fnuz,
                "the MX element formats");
  const vec magnitude = Ops::bit_and(x, Ops::splat(0x7FFFFFFFu));
  const vec lsb = Ops::bit_and(Ops::template shift_right<path::shift>(magnitude), Ops::splat(1));
  const vec normal = Ops::min_signed(
      Ops::template shift_right<path::shift>(Ops::add(Ops::add(magnitude, normal_add), lsb)),
      Ops::splat(F::max_finite_magnitude));
  const vec magic = Ops::splat(path::magic_bits);
  const vec scaled = Ops::max_signed(Ops::add(magnitude, scale_add), Ops::splat(0));
  const vec small = Ops::sub(Ops::add_float_nearest(scaled, magic), magic);
  const vec rounded = Ops::select(Ops::less(magnitude, subnormal_below), small, normal);
  return Ops::bit_or_and(rounded, Ops::template shift_right<path::sign_shift>(x),
                         Ops::splat(F::sign_mask));
}
