// The MX dot product (OCP MX v1.0 §6.1/§6.2) against exact double
// arithmetic, and its documented summation order; NVFP4 against a double
// model of its three formulas, with the edge cases worked by hand.
#include <limits>

#include "mx_reference.hpp"
#include "mx_test_support.hpp"

namespace {

using namespace mx_test;

// Random blocks of random codes and scales, against the value dot.hpp
// documents: the products (exact in float32, checked) added in float32 from
// i = 0 upwards, rounding to nearest even after each addition, then the sum
// times X_a * X_b rounded once to float32. The element values come from the
// test's own decoder (mx_reference.hpp). Where every float sum is exact
// (float_sum_is_exact), the sequential sum must also equal the exact dot
// product in double (every product and partial sum of those formats fits
// in 53 bits).
template <class FmtA, class FmtB>
void check_exact(bool float_sum_is_exact) {
  lcg rng{42};
  constexpr std::size_t k = FmtA::block_size;
  int order_matters = 0;  // trials whose float sum differs from the double one
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<std::uint8_t> codes_a(k), codes_b(k);
    for (std::size_t i = 0; i < k; ++i) {
      do {
        codes_a[i] = static_cast<std::uint8_t>(rng.next() & ((1u << FmtA::element_bits) - 1));
      } while (!std::isfinite(mx_ref::element_value<typename FmtA::element>(codes_a[i])));
      do {
        codes_b[i] = static_cast<std::uint8_t>(rng.next() & ((1u << FmtB::element_bits) - 1));
      } while (!std::isfinite(mx_ref::element_value<typename FmtB::element>(codes_b[i])));
    }
    const std::vector<std::uint8_t> a = mx_ref::pack(codes_a, FmtA::element_bits);
    const std::vector<std::uint8_t> b = mx_ref::pack(codes_b, FmtB::element_bits);
    const auto sa = static_cast<std::uint8_t>(100 + rng.next() % 50);
    const auto sb = static_cast<std::uint8_t>(100 + rng.next() % 50);
    double exact = 0.0;
    float sequential = 0.0f;
    for (std::size_t i = 0; i < k; ++i) {
      const double p = mx_ref::element_value<typename FmtA::element>(codes_a[i]) *
                       mx_ref::element_value<typename FmtB::element>(codes_b[i]);
      ASSERT_EQ(static_cast<double>(static_cast<float>(p)), p) << "a product is not exact";
      exact += p;
      sequential += static_cast<float>(p);
    }
    const int exponent = sa + sb - 254;
    const float expected = static_cast<float>(std::ldexp(static_cast<double>(sequential), exponent));
    const float got = mf::mx::dot_block<FmtA, FmtB>(sa, a.data(), sb, b.data());
    ASSERT_EQ(mx_ref::float_bits(got), mx_ref::float_bits(expected))
        << trial << ": got " << got << ", the sequential float32 sum gives " << expected;
    if (float_sum_is_exact) {
      ASSERT_EQ(static_cast<double>(sequential), exact) << trial;
    } else if (static_cast<double>(sequential) != exact) {
      ++order_matters;
    }
  }
  // For FP8 the inputs must exercise the order: most sums round somewhere.
  if (!float_sum_is_exact) {
    EXPECT_GT(order_matters, 1000);
  }
}

// FP4 x FP4 (multiples of 1/4, |sum| <= 32 * 36), FP6 e2m3 (multiples of
// 2^-6, small), INT8 (integers times 2^-12, |sum| < 2^19): float sums are
// exact, so the result is the exact value rounded once.
TEST(MxDot, ExactForSmallFormats) {
  check_exact<mf::mx::mxfp4, mf::mx::mxfp4>(true);
  check_exact<mf::mx::mxfp6_e2m3, mf::mx::mxfp6_e2m3>(true);
  check_exact<mf::mx::mxint8, mf::mx::mxint8>(true);
  check_exact<mf::mx::mxfp4, mf::mx::mxfp6_e2m3>(true);
}

TEST(MxDot, SequentialFloat32SumForFp8) {
  check_exact<mf::mx::mxfp8_e4m3, mf::mx::mxfp8_e4m3>(false);
  check_exact<mf::mx::mxfp8_e5m2, mf::mx::mxfp8_e4m3>(false);
}

// The documented order: sequential float32 sum. 448^2 + 2^-18 rounds to
// 448^2 (its ulp is 2^-6), then - 448^2 leaves 0, while the exact sum is
// 2^-18 (pairwise or exact accumulation would return it).
TEST(MxDot, SumsSequentiallyInFloat) {
  mf::mx::block<mf::mx::mxfp8_e4m3> a{}, b{};
  a.scale = b.scale = 127;
  a.elements[0] = 0x7E; b.elements[0] = 0x7E;  // 448 * 448
  a.elements[1] = 0x01; b.elements[1] = 0x01;  // 2^-9 * 2^-9
  a.elements[2] = 0xFE; b.elements[2] = 0x7E;  // -448 * 448
  EXPECT_EQ(mf::mx::dot_block(a, b), 0.0f);
  // Reordered so that the small product comes last, it survives.
  a.elements[1] = 0xFE; b.elements[1] = 0x7E;
  a.elements[2] = 0x01; b.elements[2] = 0x01;
  EXPECT_EQ(mf::mx::dot_block(a, b), std::ldexp(1.0f, -18));
}

TEST(MxDot, ScalesAndSpecials) {
  mf::mx::block<mf::mx::mxfp4> a{}, b{};
  a.elements[0] = 0x7;  // 6
  b.elements[0] = 0x6;  // 4
  a.scale = 127 + 3;
  b.scale = 127 - 5;
  EXPECT_EQ(mf::mx::dot_block(a, b), 24.0f * 0.25f);
  // 2^-127 * 2^-127 is far below float, but the sum times it is rounded once.
  a.scale = 0;
  b.scale = 127 + 100;
  EXPECT_EQ(mf::mx::dot_block(a, b), std::ldexp(24.0f, -154 + 127));
  b.scale = 0xFF;
  EXPECT_TRUE(std::isnan(mf::mx::dot_block(a, b)));
}

TEST(MxDot, DotGeneralSumsBlocksInOrder) {
  // Two blocks of FP4, tensor layout: block 0 gives 6*4*2 = 48, block 1 gives
  // -1 * 1 * 0.5 = -0.5; a partial third block of 3 elements gives 1.5.
  std::vector<std::uint8_t> sa = {128, 126, 127}, sb = {127, 127, 127};
  std::vector<std::uint8_t> ea(34, 0), eb(34, 0);
  ea[0] = 0x07; eb[0] = 0x06;
  ea[16] = 0x0A; eb[16] = 0x02;  // element 32: -1 * 1
  ea[32] = 0x23; eb[32] = 0x22;  // element 64: 1.5 * 1; element 65: 1 * 1
  ea[33] = 0x0F; eb[33] = 0x00;  // element 66: -6 * 0
  EXPECT_EQ((mf::mx::dot<mf::mx::mxfp4, mf::mx::mxfp4>(sa.data(), ea.data(), sb.data(),
                                                         eb.data(), 67)),
            48.0f - 0.5f + 2.5f);
}

// ---- NVFP4 -------------------------------------------------------------------

std::uint8_t nibble(const std::vector<std::uint8_t>& packed, std::size_t i) {
  return static_cast<std::uint8_t>((packed[i / 2] >> (4 * (i % 2))) & 0xF);
}

TEST(Nvfp4, KnownAnswers) {
  // amax 2688 = 448 * 6: tensor scale 1. Block 0 amax 2688 -> 448 (0x7E),
  // 2688 / 448 = 6 (7). Block 1 amax 3 -> 0.5 (0x30): 3 -> 6 (7), 1 -> 2
  // (4), -0.75 -> -1.5 (0xB). Block 2 all zero -> scale 0, elements 0.
  // Block 3 amax 1e-5: 1e-5 / 6 < 2^-10 rounds to scale 0; elements keep
  // their sign (-0 is 0x8).
  std::vector<float> x(64, 0.0f);
  x[0] = 2688.0f;
  x[16] = 3.0f;
  x[17] = 1.0f;
  x[18] = -0.75f;
  x[48] = 1e-5f;
  x[49] = -1e-5f;
  std::vector<std::uint8_t> scales(4), elements(32);
  const float s_t = mf::mx::nvfp4::quantize(x.data(), scales.data(), elements.data(), 64);
  EXPECT_EQ(s_t, 1.0f);
  EXPECT_EQ(scales[0], 0x7E);
  EXPECT_EQ(scales[1], 0x30);
  EXPECT_EQ(scales[2], 0x00);
  EXPECT_EQ(scales[3], 0x00);
  EXPECT_EQ(nibble(elements, 0), 7);
  EXPECT_EQ(nibble(elements, 16), 7);
  EXPECT_EQ(nibble(elements, 17), 4);
  EXPECT_EQ(nibble(elements, 18), 0xB);
  EXPECT_EQ(nibble(elements, 48), 0);
  EXPECT_EQ(nibble(elements, 49), 8);
  std::vector<float> back(64);
  mf::mx::nvfp4::dequantize(scales.data(), elements.data(), back.data(), 64, s_t);
  EXPECT_EQ(back[0], 2688.0f);
  EXPECT_EQ(back[16], 3.0f);
  EXPECT_EQ(back[17], 1.0f);
  EXPECT_EQ(back[18], -0.75f);
  EXPECT_EQ(back[48], 0.0f);
}

TEST(Nvfp4, ZeroAndNonFiniteTensors) {
  std::vector<float> x(20, 0.0f);
  std::vector<std::uint8_t> scales(2, 0xA5), elements(10, 0xA5);
  EXPECT_EQ(mf::mx::nvfp4::quantize(x.data(), scales.data(), elements.data(), 20), 1.0f);
  for (auto s : scales) EXPECT_EQ(s, 0);
  for (auto e : elements) EXPECT_EQ(e, 0);
  x[3] = std::numeric_limits<float>::infinity();
  const float s_t = mf::mx::nvfp4::quantize(x.data(), scales.data(), elements.data(), 20);
  EXPECT_TRUE(std::isnan(s_t));
  for (auto s : scales) EXPECT_EQ(s, 0x7F);
  std::vector<float> back(20);
  mf::mx::nvfp4::dequantize(scales.data(), elements.data(), back.data(), 20, s_t);
  for (float f : back) EXPECT_TRUE(std::isnan(f));
}

// Against the formulas evaluated in long double / double, on random data.
TEST(Nvfp4, MatchesFormulas) {
  lcg rng{9};
  const std::size_t n = 16 * 500 + 7;
  std::vector<float> x(n);
  for (auto& f : x) {
    f = static_cast<float>(static_cast<std::int32_t>(rng.next())) *
        std::ldexp(1.0f, static_cast<int>(rng.next() % 40) - 60);
  }
  std::vector<std::uint8_t> scales(mf::mx::nvfp4::scale_count(n)),
      elements(mf::mx::nvfp4::element_bytes(n));
  const float s_t = mf::mx::nvfp4::quantize(x.data(), scales.data(), elements.data(), n);
  double amax = 0;
  for (float f : x) amax = std::fmax(amax, std::fabs(static_cast<double>(f)));
  EXPECT_EQ(s_t, static_cast<float>(amax) / 2688.0f);
  std::vector<float> back(n);
  mf::mx::nvfp4::dequantize(scales.data(), elements.data(), back.data(), n, s_t);
  for (std::size_t j = 0; j * 16 < n; ++j) {
    long double block_amax = 0;
    for (std::size_t i = j * 16; i < std::min(n, j * 16 + 16); ++i) {
      block_amax = std::fmax(block_amax, std::fabs(static_cast<long double>(x[i])));
    }
    const mf::e4m3fn s_b = mf::round_to<mf::e4m3fn>(
        static_cast<double>(block_amax / 6.0L / static_cast<long double>(s_t)),
        mf::rounding::nearest_even, mf::overflow::saturating);
    ASSERT_EQ(scales[j], s_b.bits()) << j;
    for (std::size_t i = j * 16; i < std::min(n, j * 16 + 16); ++i) {
      const long double q = static_cast<long double>(x[i]) /
                            (static_cast<long double>(static_cast<float>(s_b)) *
                             static_cast<long double>(s_t));
      const mf::e2m1fn p = static_cast<float>(s_b) == 0.0f
                               ? mf::e2m1fn::from_bits(std::signbit(x[i]) ? 8 : 0)
                               : mf::round_to<mf::e2m1fn>(static_cast<double>(q),
                                                          mf::rounding::nearest_even,
                                                          mf::overflow::saturating);
      ASSERT_EQ(nibble(elements, i), p.bits()) << i;
      ASSERT_EQ(back[i], static_cast<float>(p) * static_cast<float>(s_b) * s_t) << i;
    }
  }
}

}  // namespace
