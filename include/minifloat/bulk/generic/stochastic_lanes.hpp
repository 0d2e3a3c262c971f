// Stochastic rounding written once, lane for lane the rule of
// mf::round_to_stochastic (scalar_convert.hpp, round_finite): with s the
// number of significand bits below the format's quantum, kept = sig >> s,
// D = the top 32 bits of the discarded fraction, and the magnitude rounds up
// when D + r carries out of 32 bits, r being the random word shifted left by
// 32 - random_bits (so only its low random_bits bits take part, aligned with
// the top of D; the bits of D below them cannot carry). Overflow goes away
// from zero, as under nearest-even.
//
// Included after lanes/encode_lanes.hpp, inside the same target region and
// kernel namespace (stochastic_avx2.hpp, stochastic_avx512.hpp,
// stochastic_neon.hpp); no include guard, on purpose.

// The fast path: signed formats with subnormals whose min normal is a float
// normal and whose quantum is so far above float's subnormals that those
// never round up (2^-126 < 2^(emin - M - 32)): the FP8 formats.
template <class F>
struct stochastic_fast_path {
  static constexpr bool eligible = F::has_subnormals && F::is_signed &&
                                   F::min_exponent > -126 &&
                                   F::min_exponent - F::mantissa_bits >= -94;
  static constexpr int shift = 23 - F::mantissa_bits;
  // In the format's normal range s = 23 - M, D = (discarded bits) << (9 + M),
  // and D + r carries exactly when discarded + (r >> (9 + M)) reaches
  // 2^(23 - M): the random word is added below the kept bits and the sum
  // truncated (a carry out of the mantissa bumps the exponent).
  static constexpr int random_shift = 9 + F::mantissa_bits;
  static constexpr unsigned rebias = static_cast<unsigned>(127 - F::bias) << F::mantissa_bits;
  static constexpr unsigned min_normal_bits = static_cast<unsigned>(F::min_exponent + 127) << 23;
  // Below min normal: s = shift_base - E (E >= 1 there; float subnormals
  // get s >= 56, so kept = D = 0, as the scalar rule gives).
  static constexpr int shift_base = F::min_exponent + 127 + 23 - F::mantissa_bits;
};

// The smallest magnitude seen so far: min(smallest, |x| bits). A loop
// folds several vectors into it, then asks any_below_min_normal once, since
// such lanes are rare in scaled data.
template <class Ops>
MF_FORCE_INLINE typename Ops::vec smallest_magnitude(typename Ops::vec smallest,
                                                     typename Ops::vec x) {
  return Ops::min_signed(smallest, Ops::bit_and(x, Ops::splat(0x7FFFFFFFu)));
}

// Whether a lane of smallest (magnitudes) is below F's min normal, where the
// fast path needs the general rule; always true where there is no fast path.
template <class F, class Ops>
MF_FORCE_INLINE bool any_below_min_normal(typename Ops::vec smallest) {
  if constexpr (!stochastic_fast_path<F>::eligible) {
    (void)smallest;
    return true;
  } else {
    return Ops::any(Ops::less(smallest, Ops::splat(stochastic_fast_path<F>::min_normal_bits)));
  }
}

// The carry of D + r out of 32 bits: the sum wrapped below r.
template <class Ops>
MF_FORCE_INLINE typename Ops::mask carries(typename Ops::vec fraction,
                                           typename Ops::vec random_aligned) {
  return Ops::less_unsigned(Ops::add(fraction, random_aligned), random_aligned);
}

// D = significand * 2^(32 - shift) truncated to 32 bits: a left shift while
// shift <= 32 (the kept bits leave at the top), a right shift beyond.
template <class Ops>
MF_FORCE_INLINE typename Ops::vec discarded_fraction(typename Ops::vec significand,
                                                     typename Ops::vec shift) {
  return Ops::shift_left_signed(significand, Ops::sub(Ops::splat(32), shift));
}

// MayBeBelow false: the caller has checked that no lane is below min normal.
template <class F, overflow Ovf, bool MayBeBelow, class Ops>
MF_FORCE_INLINE typename Ops::vec encode_lanes_stochastic_fast(typename Ops::vec x,
                                                               typename Ops::vec random_aligned) {
  using vec = typename Ops::vec;
  using path = stochastic_fast_path<F>;
  const vec magnitude = Ops::bit_and(x, Ops::splat(0x7FFFFFFFu));
  vec rounded = Ops::sub(
      Ops::template shift_right<path::shift>(Ops::add(
          magnitude, Ops::template shift_right<path::random_shift>(random_aligned))),
      Ops::splat(path::rebias));
  if constexpr (MayBeBelow) {
    const typename Ops::mask below = Ops::less(magnitude, Ops::splat(path::min_normal_bits));
    if (Ops::any(below)) {
      // Subnormal results (rare in scaled data): the general rule.
      const vec exponent = Ops::template shift_right<23>(magnitude);
      const vec significand = Ops::bit_or_and(Ops::splat(0x00800000u), magnitude,
                                              Ops::splat(0x007FFFFFu));
      vec shift = Ops::sub(Ops::splat(static_cast<unsigned>(path::shift_base)), exponent);
      if constexpr (path::shift_base > Ops::variable_shift_limit) {
        shift = Ops::min_signed(shift, Ops::splat(static_cast<unsigned>(Ops::variable_shift_limit)));
      }
      const vec kept = Ops::shift_right_variable(significand, shift);
      rounded = Ops::select(
          below,
          Ops::increment_where(carries<Ops>(discarded_fraction<Ops>(significand, shift),
                                            random_aligned),
                               kept),
          rounded);
    }
  }
  // Overflow, NaN and Inf as nearest-even (the magnitude of an overflowing
  // or special lane is above max finite here too).
  return finish_fast_path<F, Ovf, Ops>(x, magnitude, rounded);
}

// x: float bit patterns; random_aligned: random lanes << (32 - random_bits).
// MayBeBelow false promises that any_below_min_normal was false for x.
template <class F, overflow Ovf, class Ops, bool MayBeBelow = true>
MF_FORCE_INLINE typename Ops::vec encode_lanes_stochastic(typename Ops::vec x,
                                                          typename Ops::vec random_aligned) {
  using vec = typename Ops::vec;
  if constexpr (stochastic_fast_path<F>::eligible) {
    return encode_lanes_stochastic_fast<F, Ovf, MayBeBelow, Ops>(x, random_aligned);
  } else {
    using constants = ::mf::lanes::encode_constants<F, rounding::nearest_even, Ovf>;
    vec magnitude, exponent, significand, shift, base;
    typename Ops::mask negative;
    // The shift clamped only where the ISA's shifts need it: D takes every
    // bit below the quantum.
    split_float<constants, Ops::variable_shift_limit, Ops>(x, magnitude, negative, exponent,
                                                           significand, shift, base);
    const vec kept = Ops::shift_right_variable(significand, shift);
    const typename Ops::mask carry =
        carries<Ops>(discarded_fraction<Ops>(significand, shift), random_aligned);
    vec result = signed_encoding<F, constants, Ops>(
        Ops::increment_where(carry, Ops::add(base, kept)), negative);
    if constexpr (!F::has_subnormals) {
      // fnu (e8m0fnu): below min normal is the smallest value, encoding 0...
      result = Ops::clear_where(below_min_normal<F, Ops>(exponent), result);
      if constexpr (F::min_exponent == -127) {
        // ...except [2^-127, 2^-126) (float subnormals with bit 22 set): kept
        // is 2^-127, encoding 0, the fraction is bits 0..21, and its carry
        // takes it to encoding 1.
        const typename Ops::mask up =
            Ops::mask_and(carries<Ops>(Ops::template shift_left<10>(magnitude), random_aligned),
                          Ops::greater(magnitude, Ops::splat(0x3FFFFFu)));
        result = Ops::select(Ops::is_zero(exponent), Ops::keep_where(up, Ops::splat(1)), result);
      }
    }
    return with_special_inputs<F, constants, Ops>(result, magnitude, negative);
  }
}
