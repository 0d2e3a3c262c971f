// MX dequantize written once, over one ISA's int32_ops (`ops`), for the
// block formats of block.hpp's simd_kernels_cover (MXFP8, MXFP4; blocks of
// a multiple of 16 elements). Same bits as quantize_scalar.hpp's
// dequantize, whatever the floating-point environment holds.
//
// Included inside the ISA's target region and MX kernel namespace after
// lanes/decode_lanes.hpp (mx/x86_lanes.hpp, mx/neon_lanes.hpp), which also
// declares `ops` there; no include guard, on purpose. The includer has
// included block.hpp, element.hpp, scale.hpp and quantize_scalar.hpp before
// opening the region.
//
// Per block: the elements decoded (8-bit ones from their fields by the bulk
// decoder, lanes/decode_lanes.hpp; FP4 through a table of its eight
// magnitudes; both exact) and multiplied by the scale where that
// product is a float normal for every element (scale.hpp's
// multiply_is_exact, true for every scale quantize gives a block that is
// neither all zeros nor near float's limits): one float multiply, exact, so
// no rounding mode, DAZ or FTZ can change it. A block with any other scale
// (2^-127, the largest scales, NaN) takes the scalar kernel's rule on the
// bits.

// The elements of one vector of a block from its storage, as float bits:
// 8-bit codes decoded from their fields (exact: the bulk decoder).
template <class Elem, int Bits = element_traits<Elem>::bits>
struct element_decoder {
  static_assert(Bits == 8, "the element widths the kernels cover: 8 bits, or 4 below");
  MF_FORCE_INLINE typename ops::vec operator()(const std::uint8_t* in) const {
    return decode_lanes<typename Elem::format, ops>(ops::template load_widened<std::uint8_t>(in));
  }
};

// FP4 codes, two to a byte: the magnitude (3 bits) through a table of the
// 8 magnitudes' float bits (ops::lookup8), the sign bit moved to bit 31;
// half the instructions of the decode from the fields. A 4-bit format with
// Inf or NaN (none in OCP MX) takes the fields.
template <class Elem>
struct element_decoder<Elem, 4> {
  using F = typename Elem::format;
  static constexpr bool by_table = F::is_signed && !F::has_inf && !F::has_nan;
  typename ops::table8 magnitudes;
  element_decoder() : magnitudes(make_magnitudes()) {}
  static typename ops::table8 make_magnitudes() {
    std::uint32_t bits[8];
    for (unsigned i = 0; i < 8; ++i) {
      const float magnitude = decode_element<Elem>(static_cast<std::uint8_t>(i));
      bits[i] = mf::detail::bit_cast<std::uint32_t>(magnitude);
    }
    return ops::make_table8(bits);
  }
  MF_FORCE_INLINE typename ops::vec operator()(const std::uint8_t* in) const {
    // The code in bits 0..3 of each lane, garbage above (ops::load_nibbles):
    // lookup8 reads the magnitude bits only, the shift keeps the sign alone.
    const typename ops::vec codes = ops::load_nibbles(in);
    if constexpr (by_table) {
      return ops::bit_or(ops::lookup8(magnitudes, codes),
                         ops::bit_and(ops::template shift_left<28>(codes),
                                      ops::splat(0x80000000u)));
    } else {
      return decode_lanes<F, ops>(ops::bit_and(codes, ops::splat(0xFu)));
    }
  }
};

// `blocks` whole blocks of Fmt::block_size elements.
template <class Fmt>
inline void dequantize(const std::uint8_t* scales, const std::uint8_t* elements,
                       std::size_t blocks, float* out) {
  static_assert(detail::simd_kernels_cover<Fmt>, "MXFP8 or MXFP4 with blocks of a multiple of 16");
  using Elem = typename Fmt::element;
  using vec = typename ops::vec;
  constexpr std::size_t lanes = ops::lanes;
  constexpr std::size_t k = Fmt::block_size;
  constexpr std::size_t vector_bytes = lanes * Fmt::element_bits / 8;
  const element_decoder<Elem> decode{};
  for (std::size_t j = 0; j < blocks; ++j) {
    const std::uint8_t code = scales[j];
    const std::uint8_t* in = elements + j * Fmt::element_bytes;
    float* o = out + j * k;
    if (!multiply_is_exact<Elem>(code)) {
      scalar::dequantize_block<Fmt>(code, in, k, o);
      continue;
    }
    const vec x = ops::splat(static_cast<std::uint32_t>(code) << 23);
    // Unrolled at -O2 too: a block is a few vectors, and the loop's own
    // instructions cost the AVX2 FP4 path 0.64x at -O2 on a Zen 5.
    MF_UNROLL
    for (std::size_t t = 0; t < k / lanes; ++t) {
      ops::store(o + lanes * t, ops::multiply_float(decode(in + vector_bytes * t), x));
    }
  }
}
