// MX dequantize on every ISA (and the AVX-512 kernel's decoder without
// VBMI) against the double model of mx_reference.hpp: every element pattern
// under every scale code 0..255 (2^-127, 2^127, the NaN scale 0xFF, the
// codes where the product becomes a float subnormal or overflows), under
// several MXCSR settings, and every length across the kernel's groups and
// runs with random scales and elements.
#include <string>

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

#include "mx_reference.hpp"
#include "mx_test_support.hpp"

namespace {

using namespace mx_test;

// The element codes and scales of a tensor, packed as quantize writes them.
struct tensor {
  std::vector<std::uint8_t> scales;
  std::vector<std::uint8_t> elements;
  std::size_t n = 0;
};

template <class Fmt>
tensor make_tensor(const std::vector<std::uint8_t>& codes, std::vector<std::uint8_t> scales) {
  tensor t;
  t.n = codes.size();
  t.scales = std::move(scales);
  t.elements = mx_ref::pack(codes, Fmt::element_bits);
  return t;
}

// The dequantize path of the selected ISA (and, on AVX-512, the decoder
// without VBMI), each compared bit for bit with the model; guard floats
// after the output catch writes past the end.
template <class Fmt>
std::vector<std::uint32_t> model(const tensor& t) {
  return mx_ref::dequantize<Fmt>(t.scales.data(), t.elements.data(), t.n);
}

// `ref` is the model's result, computed under the default MXCSR.
template <class Fmt>
void check_dequantize(const tensor& t, const std::vector<std::uint32_t>& ref,
                      const std::string& what) {
  auto check = [&](auto&& run, const std::string& path) {
    std::vector<float> out(t.n + 4, from_bits(0xDEADBEEFu));
    run(out.data());
    for (std::size_t i = 0; i < t.n; ++i) {
      ASSERT_EQ(to_bits(out[i]), ref[i])
          << what << " " << path << " element " << i << " of " << t.n << ", scale "
          << static_cast<int>(t.scales[i / Fmt::block_size]);
    }
    for (std::size_t g = 0; g < 4; ++g) ASSERT_EQ(to_bits(out[t.n + g]), 0xDEADBEEFu) << path;
  };
  const mf::target::isa isa = mf::target::active_isa();
  check(
      [&](float* out) { mf::mx::dequantize<Fmt>(t.scales.data(), t.elements.data(), out, t.n); },
      mf::target::isa_name(isa));
#if MF_HAS_X86_KERNELS
  if constexpr (mf::mx::detail::simd_kernels_cover<Fmt>) {
    if (isa == mf::target::isa::avx512) {
      // The whole blocks through the decoder without VBMI, the rest scalar.
      check(
          [&](float* out) {
            const std::size_t blocks = t.n / Fmt::block_size;
            mf::mx::avx512::dequantize<Fmt>(t.scales.data(), t.elements.data(), blocks,
                                                       out, /*allow_vbmi=*/false);
            mf::mx::scalar::dequantize<Fmt>(
                t.scales.data() + blocks, t.elements.data() + blocks * Fmt::element_bytes,
                t.n - blocks * Fmt::block_size, out + blocks * Fmt::block_size);
          },
          "avx512 without vbmi");
    }
  }
#endif
}

// Every scale code 0..255, each over enough blocks to hold every element
// pattern once (in order, so groups and runs hold only safe codes in the
// middle of the range and a mix at its ends).
template <class Fmt>
tensor every_pattern_every_scale() {
  constexpr std::size_t k = Fmt::block_size;
  constexpr std::size_t patterns = std::size_t{1} << Fmt::element_bits;
  const std::size_t parts = (patterns + k - 1) / k;
  std::vector<std::uint8_t> codes, scales;
  for (unsigned code = 0; code < 256; ++code) {
    for (std::size_t q = 0; q < parts; ++q) {
      scales.push_back(static_cast<std::uint8_t>(code));
      for (std::size_t i = 0; i < k; ++i) {
        codes.push_back(static_cast<std::uint8_t>((q * k + i + code) % patterns));
      }
    }
  }
  return make_tensor<Fmt>(codes, scales);
}

// n elements: random codes; per run of 64 blocks (the kernel's unit for
// FP4) either only codes in the middle of the range or a mix with the
// extremes and the NaN scale.
template <class Fmt>
tensor random_tensor(std::size_t n, std::uint64_t seed) {
  static constexpr std::uint8_t extremes[] = {0, 1, 2, 9, 10, 16, 17, 127, 239, 240,
                                              246, 247, 252, 253, 254, 255};
  lcg rng{seed};
  std::vector<std::uint8_t> codes(n), scales(mf::mx::scale_count<Fmt>(n));
  for (auto& c : codes) c = static_cast<std::uint8_t>(rng.next() & ((1u << Fmt::element_bits) - 1u));
  bool mixed = false;
  for (std::size_t j = 0; j < scales.size(); ++j) {
    if (j % 64 == 0) mixed = (rng.next() & 1u) != 0;
    const std::uint32_t r = rng.next();
    scales[j] = mixed && (r & 3u) == 0 ? extremes[(r >> 2) % 16]
                                      : static_cast<std::uint8_t>(20 + (r >> 8) % 211);
  }
  return make_tensor<Fmt>(codes, scales);
}

using AllMx = mft::type_list<mf::mx::mxfp8_e4m3, mf::mx::mxfp8_e5m2, mf::mx::mxfp6_e2m3,
                             mf::mx::mxfp6_e3m2, mf::mx::mxfp4, mf::mx::mxint8,
                             mf::mx::block_format<mf::e4m3fn, 16>,
                             mf::mx::block_format<mf::e5m2, 48>,
                             mf::mx::block_format<mf::e2m1fn, 64>>;
struct MxNames {
  template <class T>
  static std::string GetName(int i) { return "format" + std::to_string(i); }
};

MFT_TYPED_PER_ISA_TEST(MxDequantize, EveryElementUnderEveryScale, AllMx, MxNames) {
  const tensor t = every_pattern_every_scale<TypeParam>();
  check_dequantize<TypeParam>(t, model<TypeParam>(t), "every pattern");
}

// The kernels work on 64 elements and (FP4) runs of 64 blocks at a time:
// every length up to three blocks and a bit, and around the end of the
// first run.
MFT_TYPED_PER_ISA_TEST(MxDequantize, LengthsAcrossChunksMatchModel, AllMx, MxNames) {
  using Fmt = TypeParam;
  constexpr std::size_t k = Fmt::block_size;
  for (std::size_t n = 0; n <= 3 * k + 20; ++n) {
    const tensor t = random_tensor<Fmt>(n, n);
    check_dequantize<Fmt>(t, model<Fmt>(t), "n " + std::to_string(n));
  }
  for (std::size_t n = 64 * k - 20; n <= 65 * k + 20; ++n) {
    const tensor t = random_tensor<Fmt>(n, n);
    check_dequantize<Fmt>(t, model<Fmt>(t), "n " + std::to_string(n));
  }
  const tensor t = random_tensor<Fmt>(100 * k + 7, 1);
  check_dequantize<Fmt>(t, model<Fmt>(t), "n 100k+7");
}

#if defined(__x86_64__) || defined(_M_X64)
// The products are formed on the bits or by exact multiplies, so FTZ, DAZ
// (which would read the scale 2^-127 as 0) and the rounding direction
// (which would turn an overflow into FLT_MAX) change nothing.
MFT_TYPED_PER_ISA_TEST(MxDequantize, IndependentOfMxcsr, AllMx, MxNames) {
  using Fmt = TypeParam;
  const tensor t = every_pattern_every_scale<Fmt>();
  const std::vector<std::uint32_t> ref = model<Fmt>(t);
  const unsigned saved = _mm_getcsr();
  for (unsigned csr : {0x9FC0u /* FTZ|DAZ */, 0x7FC0u /* toward zero */, 0x5FC0u /* up */,
                       0xBFC0u /* down, FTZ */, 0x1FC0u /* nearest, DAZ only */}) {
    _mm_setcsr(csr);
    check_dequantize<Fmt>(t, ref, "MXCSR " + std::to_string(csr));
    _mm_setcsr(saved);
  }
}
#endif

// multiply_by_scale on products that the MX element types never make (their
// dequantized values are exact floats): a product below float's normal range
// rounds to nearest even on the subnormal grid of 2^-149, ties included.
TEST(MxMultiplyByScale, SubnormalProductsRoundToNearestEven) {
  constexpr std::uint8_t two_to_minus_24 = 127 - 24;
  // 2^-126 * 2^-24 = 2^-150: the tie between 0 and 2^-149 goes to 0.
  EXPECT_EQ(mf::mx::multiply_by_scale(0x00800000u, two_to_minus_24), 0x00000000u);
  // 1.5 * 2^-150, above the tie: 2^-149.
  EXPECT_EQ(mf::mx::multiply_by_scale(0x00C00000u, two_to_minus_24), 0x00000001u);
  // -1.5 * 2^-149: the tie between 1 and 2 quanta goes to the even 2.
  EXPECT_EQ(mf::mx::multiply_by_scale(0x81400000u, two_to_minus_24), 0x80000002u);
  // 2.5 * 2^-149: the tie between 2 and 3 quanta stays at 2.
  EXPECT_EQ(mf::mx::multiply_by_scale(0x01A00000u, two_to_minus_24), 0x00000002u);
}

}  // namespace
