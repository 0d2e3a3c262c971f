// Fuzz target: MX quantize and dequantize (mf::mx::quantize / dequantize,
// on every ISA the machine has: scalar, AVX2, AVX-512, NEON) against an
// independent model of the OCP MX v1.0 rules, byte for byte and bit for
// bit. Not against mf::mx::scalar: the library's kernels share their
// scale and element code, so that would be a self-comparison. The model:
//   - the shared scale X of each block from tests/mx/mx_reference.hpp
//     (std::ilogb / std::ldexp / std::nearbyint on the block's amax in
//     double, MX v1.0 §6.3 and the ceil / even variants);
//   - each FP element as V_i / X rounded to nearest-even with saturation
//     (§6.3) by the runtime-parameter reference of tests/reference/ (a
//     table of the format's values; not mf::round_to, which the library's
//     element encoder calls); each MXINT8 element as nearbyint(V_i / X *
//     2^6) clamped to ±127 (§5.3);
//   - packing bit by bit (mx_ref::pack), little endian within a byte;
//   - dequantize as the exact double product P_i * X rounded once to float,
//     P_i decoded by the same runtime-parameter reference; a NaN scale makes
//     the whole block NaN.
// The first input byte picks the format and the scale rounding; the rest is
// float32 bit patterns (any length: partial last blocks too) for quantize,
// and the same bytes as scales + elements for dequantize.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/mx.hpp>

#include "mx/mx_reference.hpp"
#include "reference/reference.hpp"

namespace {

constexpr mf::target::isa all_isas[] = {mf::target::isa::scalar, mf::target::isa::avx2,
                                        mf::target::isa::avx512, mf::target::isa::neon};

// The element formats as the specification's parameters (MX v1.0 §5.3),
// one runtime reference each, built once; nullptr for MXINT8.
template <class Elem>
const mfref::reference* element_reference() {
  static const mfref::reference e4m3({"e4m3fn", 4, 3, 7, mfref::kind::fn});
  static const mfref::reference e5m2({"e5m2", 5, 2, 15, mfref::kind::ieee});
  static const mfref::reference e2m3({"e2m3fn", 2, 3, 1, mfref::kind::finite});
  static const mfref::reference e3m2({"e3m2fn", 3, 2, 3, mfref::kind::finite});
  static const mfref::reference e2m1({"e2m1fn", 2, 1, 1, mfref::kind::finite});
  if constexpr (std::is_same<Elem, mf::e4m3fn>::value) return &e4m3;
  if constexpr (std::is_same<Elem, mf::e5m2>::value) return &e5m2;
  if constexpr (std::is_same<Elem, mf::e2m3fn>::value) return &e2m3;
  if constexpr (std::is_same<Elem, mf::e3m2fn>::value) return &e3m2;
  if constexpr (std::is_same<Elem, mf::e2m1fn>::value) return &e2m1;
  return nullptr;
}

template <class Elem>
std::uint8_t reference_element(float v, int scale) {
  if (scale == 255) return 0;  // a NaN block's elements are written as zeros
  // V / X is exact in double: a float times a power of two within range.
  const double q = std::ldexp(static_cast<double>(v), 127 - scale);
  if constexpr (std::is_same<Elem, mf::mx::int8_element>::value) {
    double p = std::nearbyint(std::ldexp(q, 6));  // nearest-even (default FE mode)
    if (p > 127) p = 127;
    if (p < -127) p = -127;
    return static_cast<std::uint8_t>(static_cast<int>(p) & 0xFF);
  } else {
    return static_cast<std::uint8_t>(element_reference<Elem>()->encode(
        q, mfref::round_mode::nearest_even, mfref::overflow_mode::saturating));
  }
}

template <class Elem>
double reference_element_value(std::uint8_t code) {
  if constexpr (std::is_same<Elem, mf::mx::int8_element>::value) {
    return static_cast<double>(static_cast<std::int8_t>(code)) / 64.0;
  } else {
    const mfref::reference& ref = *element_reference<Elem>();
    return ref.decode(code & ((1u << ref.width()) - 1u)).value;
  }
}

std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

template <class Fmt>
void check(const std::uint8_t* data, std::size_t size, mf::mx::scale_rounding mode) {
  using Elem = typename Fmt::element;
  constexpr std::size_t k = Fmt::block_size;
  const std::size_t n = size / sizeof(float);
  if (n == 0) return;
  std::vector<float> in(n);
  std::memcpy(in.data(), data, n * sizeof(float));
  const std::size_t blocks = (n + k - 1) / k;

  // The model's quantize.
  std::vector<std::uint8_t> want_scales(blocks), codes(n);
  for (std::size_t j = 0; j < blocks; ++j) {
    const std::size_t count = j + 1 < blocks ? k : n - j * k;
    const int s = mx_ref::scale_code<Elem>(in.data() + j * k, count, mode);
    want_scales[j] = static_cast<std::uint8_t>(s);
    for (std::size_t i = 0; i < count; ++i) {
      codes[j * k + i] = reference_element<Elem>(in[j * k + i], s);
    }
  }
  const std::vector<std::uint8_t> want_elements = mx_ref::pack(codes, Fmt::element_bits);

  // Dequantize input: the raw bytes as scales, then elements.
  std::vector<std::uint8_t> raw_scales(blocks), raw_elements(blocks * Fmt::element_bytes);
  for (std::size_t i = 0; i < raw_scales.size(); ++i) raw_scales[i] = data[i % size];
  for (std::size_t i = 0; i < raw_elements.size(); ++i) raw_elements[i] = data[(i * 7 + 3) % size];
  const std::vector<std::uint8_t> raw_codes =
      mx_ref::unpack(raw_elements.data(), n, Fmt::element_bits);
  std::vector<std::uint32_t> want_out(n);
  for (std::size_t i = 0; i < n; ++i) {
    const int s = raw_scales[i / k];
    const double p = reference_element_value<Elem>(raw_codes[i]);
    if (s == 255) {
      want_out[i] = 0x7FC00000u;
    } else if (std::isnan(p)) {
      want_out[i] = std::signbit(p) ? 0xFFC00000u : 0x7FC00000u;
    } else {
      want_out[i] = float_bits(static_cast<float>(std::ldexp(p, s - 127)));
    }
  }

  std::vector<std::uint8_t> scales(blocks), elements(blocks * Fmt::element_bytes);
  std::vector<float> out(n);
  // The last block's unused element bytes are not compared (a partial
  // block leaves them as they were).
  const std::size_t used = want_elements.size();
  for (const mf::target::isa isa : all_isas) {
    if (!mf::target::isa_supported(isa)) continue;
    mf::target::set_isa(isa);
    mf::mx::quantize<Fmt>(in.data(), scales.data(), elements.data(), n, mode);
    if (scales != want_scales) std::abort();
    if (std::memcmp(elements.data(), want_elements.data(), used) != 0) std::abort();
    mf::mx::dequantize<Fmt>(raw_scales.data(), raw_elements.data(), out.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      if (float_bits(out[i]) != want_out[i]) std::abort();
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t control = data[0];
  const auto mode = static_cast<mf::mx::scale_rounding>((control >> 4) % 3u);
  switch (control & 7u) {
    case 0: case 5: check<mf::mx::mxfp8_e4m3>(data + 1, size - 1, mode); break;
    case 1: case 6: check<mf::mx::mxfp4>(data + 1, size - 1, mode); break;
    case 2: check<mf::mx::mxfp8_e5m2>(data + 1, size - 1, mode); break;
    case 3: check<mf::mx::mxfp6_e2m3>(data + 1, size - 1, mode); break;
    case 4: check<mf::mx::mxfp6_e3m2>(data + 1, size - 1, mode); break;
    default: check<mf::mx::mxint8>(data + 1, size - 1, mode); break;
  }
  mf::target::set_isa(mf::target::isa::scalar);
  return 0;
}
