// Decode written once: the float bits of each lane's encoding of format F,
// over one ISA's 32-bit integer operations (simd/<arch>/<isa>/
// integer_ops.hpp). Included inside a target region, in the per-ISA
// namespace of the module that uses it (bulk/avx2.hpp, bulk/avx512.hpp,
// bulk/neon.hpp, mx/x86_lanes.hpp, mx/neon_lanes.hpp), so it compiles to
// that ISA's instructions; no include guard, on purpose. Needs constants.hpp
// and MF_FORCE_INLINE (config.hpp) declared before the region.
//
// Exact for every encoding: a normal moves its fields into place and
// rebiases the exponent; a subnormal is magnitude * 2^(emin - M) (exact in
// float, or a float subnormal with the same quantum when emin is -126);
// Inf, NaN and e8m0fnu's 2^-127 are selected by compare, the sign OR'ed
// in last (the order the MX decoders had: fewer operations than keeping it). Bits above the
// format's width must be cleared by the caller.

// The lanes whose encoding is a NaN of F.
template <class F, class Ops>
MF_FORCE_INLINE typename Ops::mask nan_lanes(typename Ops::vec encoding,
                                             typename Ops::vec magnitude) {
  if constexpr (F::encoding == specials::ieee) {
    return Ops::greater(magnitude, Ops::splat(F::inf_magnitude));
  } else if constexpr (F::encoding == specials::fnuz) {
    (void)magnitude;
    return Ops::equal(encoding, Ops::splat(F::sign_mask));  // the "negative zero"
  } else {
    (void)encoding;
    return Ops::equal(magnitude, Ops::splat(F::magnitude_mask));
  }
}

template <class F, class Ops>
MF_FORCE_INLINE typename Ops::vec decode_lanes(typename Ops::vec encoding) {
  using constants = ::mf::lanes::decode_constants<F>;
  const typename Ops::vec magnitude = Ops::bit_and(encoding, Ops::splat(F::magnitude_mask));
  typename Ops::vec bits = Ops::add(Ops::template shift_left<constants::shift>(magnitude),
                                    Ops::splat(constants::exponent_offset));
  if constexpr (F::has_subnormals) {
    typename Ops::vec subnormal;
    if constexpr (F::min_exponent == -126) {
      // Float subnormals with the same quantum: the magnitude moved into place.
      subnormal = Ops::template shift_left<constants::shift>(magnitude);
    } else {
      // magnitude * 2^(emin - M): exact, and a normal float.
      subnormal = Ops::template times_power_of_two<constants::subnormal_exponent>(magnitude);
    }
    bits = Ops::select(Ops::less(magnitude, Ops::splat(1u << constants::M)), subnormal, bits);
  } else if constexpr (F::bias == 127) {
    // e8m0fnu: encoding 0 is 2^-127, a float subnormal.
    bits = Ops::select(Ops::is_zero(magnitude), Ops::splat(0x00400000u), bits);
  }
  // Inf and a signed NaN take the sign below, with every other value; an
  // unsigned NaN (fnuz: the "negative zero" encoding) replaces it after.
  if constexpr (F::has_inf) {
    bits = Ops::select(Ops::equal(magnitude, Ops::splat(F::inf_magnitude)),
                       Ops::splat(0x7F800000u), bits);
  }
  if constexpr (F::has_nan && constants::signed_nan) {
    bits = Ops::select(nan_lanes<F, Ops>(encoding, magnitude), Ops::splat(0x7FC00000u), bits);
  }
  if constexpr (F::is_signed) {
    bits = Ops::bit_or(bits, Ops::template shift_left<constants::sign_shift>(
                                 Ops::bit_and(encoding, Ops::splat(F::sign_mask))));
  }
  if constexpr (F::has_nan && !constants::signed_nan) {
    bits = Ops::select(nan_lanes<F, Ops>(encoding, magnitude), Ops::splat(0x7FC00000u), bits);
  }
  return bits;
}
