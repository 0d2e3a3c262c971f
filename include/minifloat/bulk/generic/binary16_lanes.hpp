// Encode through binary16, written once: round toward zero to binary16 in
// one hardware conversion, then keep the encoding's bits, in 16-bit lanes
// (twice as many per vector as the 32-bit lanes of encode_lanes.hpp).
//
// Why the bits are the same as encode_lanes_general's: scaled by
// 2^(bias - 15), a format value with exponent field E and mantissa m (normal
// or subnormal) is the binary16 value with exponent field E and mantissa
// m << (10 - M), when the format's exponent fields fit binary16's finite ones
// (at most 4 exponent bits, or binary16's own 5 with Inf and NaN at the top)
// and bias <= 15 (the scaling cannot overflow). Truncating to binary16 and
// then dropping the low 10 - M mantissa bits is truncating to the format
// (truncation composes); the scaling is exact except where the product falls
// below float's normals, far below binary16's smallest subnormal, where it
// truncates to zero whatever MXCSR says. Proved on every float input, format
// and overflow mode by the exhaustive tier (Isa/BulkEveryFloat32).
//
// Round to nearest-even takes the same route once the conversion rounds to
// odd (toward zero, then the last bit set where it was inexact: binary16
// keeps at least two bits more than these formats, so the second rounding
// is then correct). The conversion back and compare that find the inexact
// lanes made it slower than encode_lanes_nearest on AVX2 (Zen 1) and no
// faster on AVX-512 (Zen 4); two directed conversions instead (their
// smaller magnitude is the truncation, their difference the sticky bit)
// were no faster on a Zen 5, AVX2 or AVX-512 (docs/performance.md). So no
// set takes that route.
//
// Included by generic/encode_loop.hpp in each ISA's kernel namespace; the
// set names its 16-bit operations `binary16_ops` (void where it has no
// conversion to binary16). No include guard, on purpose.

// Whether F's encodings are binary16's with the low 10 - M mantissa bits
// dropped, after the scaling (above).
template <class F>
inline constexpr bool binary16_layout_matches =
    F::is_signed && F::has_subnormals && F::mantissa_bits <= 8 && F::bias <= 15 &&
    (F::exponent_bits <= 4 ||
     (F::exponent_bits == 5 && F::bias == 15 && F::encoding == specials::ieee));

// Whether a deterministic encode of Fmt in Mode goes through binary16 with
// the operations Ops16 (void: the set has none).
template <class Fmt, rounding Mode, class Ops16>
inline constexpr bool takes_binary16_route =
    !std::is_void_v<Ops16> && Mode == rounding::toward_zero &&
    sizeof(typename Fmt::storage_type) == 1 && binary16_layout_matches<typename Fmt::format>;

// The encodings of F, toward zero, from the binary16 bit patterns h of the
// scaled inputs.
template <class F, overflow Ovf, class Ops16>
MF_FORCE_INLINE typename Ops16::vec encode_binary16_toward_zero(typename Ops16::vec h) {
  using vec = typename Ops16::vec;
  using constants = ::mf::lanes::encode_constants<F, rounding::toward_zero, Ovf>;
  const vec magnitude = Ops16::bit_and(h, Ops16::splat(0x7FFFu));
  const typename Ops16::mask negative = Ops16::negative_lanes(h);
  const vec kept = Ops16::template shift_right<10 - F::mantissa_bits>(magnitude);
  // Only Inf and NaN inputs reach binary16's Inf and NaN (0x7C00 and up).
  return with_special_inputs<F, constants, Ops16, 0x7C00u>(
      signed_encoding<F, constants, Ops16>(kept, negative), magnitude, negative);
}

// The encodings toward zero of the float bit patterns x0..x3 (four vectors
// of Ops32), one byte each, in order in one vector of Ops16.
template <class Fmt, overflow Ovf, class Ops16, class Ops32>
MF_FORCE_INLINE typename Ops16::vec encoded_through_binary16(typename Ops32::vec x0,
                                                              typename Ops32::vec x1,
                                                              typename Ops32::vec x2,
                                                              typename Ops32::vec x3) {
  using F = typename Fmt::format;
  static_assert(2 * Ops32::lanes == Ops16::lanes, "two float vectors fill one 16-bit vector");
  if constexpr (F::bias != 15) {
    const typename Ops32::vec scale =
        Ops32::splat(static_cast<std::uint32_t>(127 + F::bias - 15) << 23);
    x0 = Ops32::multiply_float(x0, scale);
    x1 = Ops32::multiply_float(x1, scale);
    x2 = Ops32::multiply_float(x2, scale);
    x3 = Ops32::multiply_float(x3, scale);
  }
  return Ops16::low_bytes(
      encode_binary16_toward_zero<F, Ovf, Ops16>(Ops16::binary16_toward_zero(x0, x1)),
      encode_binary16_toward_zero<F, Ovf, Ops16>(Ops16::binary16_toward_zero(x2, x3)));
}

// Encodes the float bit patterns x0..x3 (four vectors of Ops32) into out,
// toward zero.
template <class Fmt, overflow Ovf, class Ops16, class Ops32>
MF_FORCE_INLINE void encode_through_binary16(typename Fmt::storage_type* out,
                                             typename Ops32::vec x0, typename Ops32::vec x1,
                                             typename Ops32::vec x2, typename Ops32::vec x3) {
  Ops16::store(out, encoded_through_binary16<Fmt, Ovf, Ops16, Ops32>(x0, x1, x2, x3));
}
