// MX quantize / dequantize: known-answer blocks worked by hand (OCP MX v1.0
// §6.3 and the scale rules of docs/mx.md), the storage sizes, and the bulk
// (every ISA, in the test's name) against the independent double model of mx_reference.hpp on
// structured and random inputs, every format and scale rule.
#include <algorithm>
#include <limits>
#include <string>

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

#include "mx_reference.hpp"
#include "mx_test_support.hpp"

namespace {

using mf::mx::scale_rounding;
using namespace mx_test;

constexpr scale_rounding kModes[] = {scale_rounding::floor, scale_rounding::ceil,
                                     scale_rounding::even};

// Quantizes one 32-element block (the given values, then zeros) on the
// selected ISA and checks the scale and the first codes (unpacked) against `scale`
// and `codes` for each mode.
template <class Fmt>
void expect_block(std::vector<float> values, scale_rounding mode, int scale,
                  std::vector<unsigned> codes) {
  values.resize(32, 0.0f);
  mf::mx::block<Fmt> b{};
  mf::mx::quantize_blocks<Fmt>(values.data(), &b, 1, mode);
  EXPECT_EQ(b.scale, scale) << "mode " << static_cast<int>(mode);
  const std::vector<std::uint8_t> got =
      mx_ref::unpack(b.elements, 32, Fmt::element_bits);
  for (std::size_t i = 0; i < codes.size(); ++i) {
    EXPECT_EQ(got[i], codes[i]) << "element " << i << " mode " << static_cast<int>(mode);
  }
  for (std::size_t i = codes.size(); i < 32; ++i) EXPECT_EQ(got[i], 0u) << "element " << i;
}

template <class Fmt>
void expect_block_all_modes(std::vector<float> values, int scale, std::vector<unsigned> codes) {
  for (scale_rounding m : kModes) expect_block<Fmt>(values, m, scale, codes);
}

TEST(MxStorage, BlockSizesAreTheRfcs) {
  EXPECT_EQ(mf::mx::mxfp8_e4m3::block_bytes, 33u);
  EXPECT_EQ(mf::mx::mxfp8_e5m2::block_bytes, 33u);
  EXPECT_EQ(mf::mx::mxfp6_e2m3::block_bytes, 25u);
  EXPECT_EQ(mf::mx::mxfp6_e3m2::block_bytes, 25u);
  EXPECT_EQ(mf::mx::mxfp4::block_bytes, 17u);
  EXPECT_EQ(mf::mx::mxint8::block_bytes, 33u);
  EXPECT_EQ(sizeof(mf::mx::block<mf::mx::mxfp4>), 17u);
  EXPECT_EQ(sizeof(mf::mx::block<mf::mx::mxfp6_e2m3>), 25u);
  EXPECT_EQ(sizeof(mf::mx::block<mf::mx::mxfp8_e4m3>), 33u);
  // Tensor layout: 100 elements = 3 full blocks + one of 4.
  EXPECT_EQ(mf::mx::scale_count<mf::mx::mxfp4>(100), 4u);
  EXPECT_EQ(mf::mx::element_bytes<mf::mx::mxfp4>(100), 50u);
  EXPECT_EQ(mf::mx::element_bytes<mf::mx::mxfp4>(101), 51u);
  EXPECT_EQ(mf::mx::element_bytes<mf::mx::mxfp6_e3m2>(101), 76u);  // 606 bits
  EXPECT_EQ(mf::mx::element_bytes<mf::mx::mxfp8_e5m2>(101), 101u);
  // A non-default block size.
  using mxfp4_k16 = mf::mx::block_format<mf::e2m1fn, 16>;
  EXPECT_EQ(mxfp4_k16::block_bytes, 9u);
}

TEST(MxScale, EmaxElemIsTheSpecs) {
  EXPECT_EQ(mf::mx::element_traits<mf::e4m3fn>::emax, 8);
  EXPECT_EQ(mf::mx::element_traits<mf::e5m2>::emax, 15);
  EXPECT_EQ(mf::mx::element_traits<mf::e2m3fn>::emax, 2);
  EXPECT_EQ(mf::mx::element_traits<mf::e3m2fn>::emax, 4);
  EXPECT_EQ(mf::mx::element_traits<mf::e2m1fn>::emax, 2);
  EXPECT_EQ(mf::mx::element_traits<mf::mx::int8_element>::emax, 0);
}

// amax = 4 = 2^2: floor, ceil and even agree. e4m3fn: X = 2^(2-8), so
// V * 64: 256 -> 0x78, 64 -> 0x68, -32 -> 0xE0, 24 = 1.5 * 16 -> 0x5C,
// 211.2 -> 208 = 1.625 * 128 -> 0x75.
class MxKnownAnswer : public mft::per_isa {};

TEST_P(MxKnownAnswer, PowerOfTwoAmaxMxfp8E4m3) {
  expect_block_all_modes<mf::mx::mxfp8_e4m3>({4.0f, 1.0f, -0.5f, 0.375f, 3.3f}, 121,
                                             {0x78, 0x68, 0xE0, 0x5C, 0x75});
}
// e2m1fn, X = 2^(2-2) = 1: 4 -> 6 (0b110), 1 -> 2, -0.5 -> 9, 0.375 -> 0.5
// (1), 3.3 -> 3 (5).
TEST_P(MxKnownAnswer, PowerOfTwoAmaxMxfp4) {
  expect_block_all_modes<mf::mx::mxfp4>({4.0f, 1.0f, -0.5f, 0.375f, 3.3f}, 127,
                                        {6, 2, 9, 1, 5});
}
// e5m2, X = 2^(2-15): V * 2^13: 2^15 -> field 30 (0x78), 2^13 -> 0x70,
// -2^12 -> 0xEC, 0.375 * 2^13 = 1.5 * 2^11 -> 0x6A.
TEST_P(MxKnownAnswer, PowerOfTwoAmaxMxfp8E5m2) {
  expect_block_all_modes<mf::mx::mxfp8_e5m2>({4.0f, 1.0f, -0.5f, 0.375f}, 114,
                                             {0x78, 0x70, 0xEC, 0x6A});
}
// e2m3fn X = 1: 4 -> 0b11000 (24), 1 -> 8, -0.5 -> 0x24 (sign 0x20 | 4),
// 0.375 -> 3, 3.3 -> 3.25 (0b10101 = 21).
TEST_P(MxKnownAnswer, PowerOfTwoAmaxMxfp6E2m3) {
  expect_block_all_modes<mf::mx::mxfp6_e2m3>({4.0f, 1.0f, -0.5f, 0.375f, 3.3f}, 127,
                                             {24, 8, 0x24, 3, 21});
}
// e3m2fn (emax 4) X = 2^-2: V * 4: 16 -> 0b11100 (28), 4 -> 20, -2 -> 0x30,
// 1.5 -> 0b01110 (14), 13.2 = 1.65 * 8 -> 14 (0b11011 = 27).
TEST_P(MxKnownAnswer, PowerOfTwoAmaxMxfp6E3m2) {
  expect_block_all_modes<mf::mx::mxfp6_e3m2>({4.0f, 1.0f, -0.5f, 0.375f, 3.3f}, 125,
                                             {28, 20, 0x30, 14, 27});
}
// INT8 (emax 0) X = 2^2: V / 4 * 64: 64, 16, -8 (0xF8), 6, 52.8 -> 53.
TEST_P(MxKnownAnswer, PowerOfTwoAmaxMxint8) {
  expect_block_all_modes<mf::mx::mxint8>({4.0f, 1.0f, -0.5f, 0.375f, 3.3f}, 129,
                                         {64, 16, 0xF8, 6, 53});
}

// amax = 7 = 1.75 * 4 in FP4: floor keeps X = 1 and clips 7 and -6.5 to
// +-6; ceil and even take X = 2 (7 > 6; 1.75 rounds up to 2 at one
// mantissa bit): 3.5 ties to 4 (even), -3.25 -> -3, 0.5.
TEST_P(MxKnownAnswer, FloorClipsCeilAndEvenDoNotMxfp4) {
  expect_block<mf::mx::mxfp4>({7.0f, -6.5f, 1.0f}, scale_rounding::floor, 127, {7, 15, 2});
  expect_block<mf::mx::mxfp4>({7.0f, -6.5f, 1.0f}, scale_rounding::ceil, 128, {6, 13, 1});
  expect_block<mf::mx::mxfp4>({7.0f, -6.5f, 1.0f}, scale_rounding::even, 128, {6, 13, 1});
}

// amax = 470 = 1.836 * 256 in e4m3fn (max 448 = 1.75 * 256): floor and even
// (1.836 < 1.9375) keep X = 1 and saturate to 448 (0x7E); ceil takes X = 2:
// 235 -> 240 (0x77), 0.5 -> 0.25 (0x28).
// e2m3fn (M = 3): amax 7.75 = (2 - 2^-4) * 4 is the even rule's tie, which
// goes up to X = 2 (7.75 / 2 = 3.875 ties to 4, 0b11000 = 24); floor keeps X = 1
// and clips to 7.5 (31); ceil also takes X = 2.
TEST_P(MxKnownAnswer, EvenRuleTieGoesUpMxfp6E2m3) {
  expect_block<mf::mx::mxfp6_e2m3>({7.75f}, scale_rounding::even, 128, {24});
  expect_block<mf::mx::mxfp6_e2m3>({7.75f}, scale_rounding::ceil, 128, {24});
  expect_block<mf::mx::mxfp6_e2m3>({7.75f}, scale_rounding::floor, 127, {31});
  // Just below the tie, even keeps X = 1 (7.7 -> 7.5).
  expect_block<mf::mx::mxfp6_e2m3>({7.7f}, scale_rounding::even, 127, {31});
}

TEST_P(MxKnownAnswer, CeilDiffersFromEvenMxfp8E4m3) {
  expect_block<mf::mx::mxfp8_e4m3>({470.0f, 0.5f}, scale_rounding::floor, 127, {0x7E, 0x30});
  expect_block<mf::mx::mxfp8_e4m3>({470.0f, 0.5f}, scale_rounding::even, 127, {0x7E, 0x30});
  expect_block<mf::mx::mxfp8_e4m3>({470.0f, 0.5f}, scale_rounding::ceil, 128, {0x77, 0x28});
  // 500 = 1.953 * 256: even also moves to X = 2; 250 -> 256 (0x78).
  expect_block<mf::mx::mxfp8_e4m3>({500.0f, 0.5f}, scale_rounding::even, 128, {0x78, 0x28});
}

// Float subnormals: 2^-130 and 2^-131 clamp the scale to 2^-127 (code 0);
// divided by it they are 2^-3 and 2^-4.
TEST_P(MxKnownAnswer, FloatSubnormalBlock) {
  const std::vector<float> v = {std::ldexp(1.0f, -130), std::ldexp(1.0f, -131),
                                -std::ldexp(3.0f, -149)};
  expect_block_all_modes<mf::mx::mxfp8_e4m3>(v, 0, {0x20, 0x18, 0x80});
  expect_block_all_modes<mf::mx::mxfp8_e5m2>(v, 0, {0x30, 0x2C, 0x80});
  expect_block_all_modes<mf::mx::mxint8>(v, 0, {8, 4, 0});
  // 0.125 and 0.0625 are below e2m1fn's 0.25 midpoint.
  expect_block_all_modes<mf::mx::mxfp4>(v, 0, {0, 0, 8});
}

// Values in the element's subnormal range: amax 1 gives X = 2^-8 for
// e4m3fn; 2^-16 -> 2^-8 = 2 quanta (0x02); 3 * 2^-18 -> 1.5 quanta ties to
// 2 (0x02); 2^-18 -> half a quantum ties to 0; 5 * 2^-19 -> 1.25 -> 1.
TEST_P(MxKnownAnswer, ElementSubnormalsMxfp8E4m3) {
  expect_block_all_modes<mf::mx::mxfp8_e4m3>(
      {1.0f, std::ldexp(1.0f, -16), std::ldexp(3.0f, -18), std::ldexp(1.0f, -18),
       -std::ldexp(5.0f, -19)},
      119, {0x78, 0x02, 0x02, 0x00, 0x81});
}

TEST_P(MxKnownAnswer, NanOrInfGivesNanScale) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  expect_block_all_modes<mf::mx::mxfp8_e4m3>({1.0f, nan, 2.0f}, 0xFF, {0, 0, 0});
  expect_block_all_modes<mf::mx::mxfp4>({1.0f, -inf, 2.0f}, 0xFF, {0, 0, 0});
  expect_block_all_modes<mf::mx::mxint8>({inf}, 0xFF, {0});
  expect_block_all_modes<mf::mx::mxfp6_e2m3>({-nan}, 0xFF, {0});
}

TEST_P(MxKnownAnswer, AllZerosGiveSmallestScale) {
  expect_block_all_modes<mf::mx::mxfp8_e4m3>({0.0f, -0.0f}, 0, {0x00, 0x80});
  expect_block_all_modes<mf::mx::mxfp4>({0.0f, -0.0f}, 0, {0x0, 0x8});
  expect_block_all_modes<mf::mx::mxint8>({0.0f, -0.0f}, 0, {0, 0});
}

// 1.8125 * 2^127 next to tiny values. e4m3fn floor: X = 2^119, 464 ties
// to 448 (0x7E); ceil: X = 2^120, 232 ties to 224 (0x76); even keeps 2^119.
// -2^100 and 2^-149 vanish (-0 keeps its sign).
TEST_P(MxKnownAnswer, HugeAndTinyMixed) {
  const std::vector<float> v = {from_bits(0x7F680000u), 1e-30f, -std::ldexp(1.0f, 100),
                                std::ldexp(1.0f, -149)};
  expect_block<mf::mx::mxfp8_e4m3>(v, scale_rounding::floor, 246, {0x7E, 0, 0x80, 0});
  expect_block<mf::mx::mxfp8_e4m3>(v, scale_rounding::ceil, 247, {0x76, 0, 0x80, 0});
  expect_block<mf::mx::mxfp8_e4m3>(v, scale_rounding::even, 246, {0x7E, 0, 0x80, 0});
  // FP4: floor X = 2^125 clips 7.25 to 6; ceil/even X = 2^126: 3.625 -> 4.
  expect_block<mf::mx::mxfp4>(v, scale_rounding::floor, 252, {7, 0, 8, 0});
  expect_block<mf::mx::mxfp4>(v, scale_rounding::ceil, 253, {6, 0, 8, 0});
  expect_block<mf::mx::mxfp4>(v, scale_rounding::even, 253, {6, 0, 8, 0});
}

// INT8 (emax 0): FLT_MAX = 1.99999988 * 2^127. floor: X = 2^127, P = 127.99
// -> 127 (saturated). ceil and even need 2^128: the scale is NaN.
TEST_P(MxKnownAnswer, ScaleAbove127IsNan) {
  const float big = std::numeric_limits<float>::max();
  expect_block<mf::mx::mxint8>({big, -1.0f}, scale_rounding::floor, 254, {127, 0});
  expect_block<mf::mx::mxint8>({big}, scale_rounding::ceil, 0xFF, {0});
  expect_block<mf::mx::mxint8>({big}, scale_rounding::even, 0xFF, {0});
  expect_block<mf::mx::mxint8>({-big}, scale_rounding::floor, 254, {0x81});
}

TEST_P(MxKnownAnswer, Dequantize) {
  // X = 2^-6: 0x7E = 448 -> 7; 0xE0 = -32 -> -0.5.
  mf::mx::block<mf::mx::mxfp8_e4m3> b{};
  b.scale = 121;
  b.elements[0] = 0x7E;
  b.elements[1] = 0xE0;
  b.elements[2] = 0x7F;  // NaN element
  float out[32];
  mf::mx::dequantize_blocks(&b, out, 1);
  EXPECT_EQ(out[0], 7.0f);
  EXPECT_EQ(out[1], -0.5f);
  EXPECT_TRUE(std::isnan(out[2]));
  EXPECT_EQ(to_bits(out[3]), 0u);
  // Smallest scale, smallest element: 2^-9 * 2^-127 = 2^-136, exact.
  b.scale = 0;
  b.elements[0] = 0x01;
  mf::mx::dequantize_blocks(&b, out, 1);
  EXPECT_EQ(out[0], std::ldexp(1.0f, -136));
  // Largest scale: 448 * 2^127 overflows float.
  b.scale = 254;
  b.elements[0] = 0x7E;
  mf::mx::dequantize_blocks(&b, out, 1);
  EXPECT_EQ(out[0], std::numeric_limits<float>::infinity());
  // NaN scale: every element NaN.
  b.scale = 0xFF;
  mf::mx::dequantize_blocks(&b, out, 1);
  for (float f : out) EXPECT_EQ(to_bits(f), 0x7FC00000u);
  // FP4 packed: 0x7 (6) and 0xA (-1) in one byte, X = 2.
  mf::mx::block<mf::mx::mxfp4> q{};
  q.scale = 128;
  q.elements[0] = 0xA7;
  mf::mx::dequantize_blocks(&q, out, 1);
  EXPECT_EQ(out[0], 12.0f);
  EXPECT_EQ(out[1], -2.0f);
  // INT8: 0x81 = -127 -> -127/64 * 2^0; 0x80 = -128 decodes to -2.
  mf::mx::block<mf::mx::mxint8> i8{};
  i8.scale = 127;
  i8.elements[0] = 0x81;
  i8.elements[1] = 0x80;
  mf::mx::dequantize_blocks(&i8, out, 1);
  EXPECT_EQ(out[0], -127.0f / 64.0f);
  EXPECT_EQ(out[1], -2.0f);
}

// ---- bulk == independent model ---------------------------------------------

// Inputs: per block a random binade spread over float's range, element
// values at the element's boundaries (every value and midpoint, +-1 ulp)
// times that binade, random signs, plus random specials, zeros and float
// subnormals.
template <class Elem>
std::vector<float> structured_inputs(std::size_t n, std::uint64_t seed) {
  std::vector<double> grid;
  if constexpr (std::is_same<Elem, mf::mx::int8_element>::value) {
    for (int p = 0; p <= 128; ++p) grid.push_back(p / 64.0);
  } else {
    for (unsigned b = 0; b < (1u << (Elem::format::bits - 1)); ++b) {
      const double v = static_cast<double>(static_cast<float>(Elem::from_bits(static_cast<typename Elem::storage_type>(b))));
      if (std::isfinite(v)) grid.push_back(v);
    }
  }
  std::sort(grid.begin(), grid.end());
  const std::size_t points = grid.size();
  for (std::size_t i = 0; i + 1 < points; ++i) grid.push_back((grid[i] + grid[i + 1]) / 2);
  // Where the ceil and even rules change the scale: just above the max, the
  // even rule's tie 2 - 2^-(M+1) below the next binade, and that binade.
  const int emax = mx_ref::info<Elem>::emax();
  const int m = mx_ref::info<Elem>::mantissa;
  grid.push_back(std::ldexp(2.0 - std::ldexp(1.0, -(m + 1)), emax));
  grid.push_back(std::ldexp(2.0, emax));
  grid.push_back(mx_ref::info<Elem>::max_value() * (1.0 + std::ldexp(1.0, -20)));
  lcg rng{seed};
  std::vector<float> v(n);
  int binade = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 32 == 0) binade = static_cast<int>(rng.next() % 300) - 160;
    const std::uint32_t r = rng.next();
    float x = static_cast<float>(std::ldexp(grid[r % grid.size()], binade));
    switch ((r >> 20) % 16) {
      case 0: x = from_bits(to_bits(x) + 1); break;
      case 1: x = from_bits(to_bits(x) - (to_bits(x) ? 1u : 0u)); break;
      case 2: x = from_bits(rng.next() & 0x807FFFFFu); break;  // float subnormal
      case 3: if ((r & 0xFF) == 0) x = std::numeric_limits<float>::quiet_NaN(); break;
      case 4: if ((r & 0xFF) == 1) x = std::numeric_limits<float>::infinity(); break;
      case 5: x = 0.0f; break;
      default: break;
    }
    if (r & 0x80000000u) x = -x;
    v[i] = x;
  }
  return v;
}

// Random float bit patterns (finite mostly; any NaN makes its block NaN).
inline std::vector<float> random_bits_inputs(std::size_t n, std::uint64_t seed) {
  lcg rng{seed};
  std::vector<float> v(n);
  for (auto& x : v) {
    std::uint32_t u = rng.next();
    if ((u & 0x7F800000u) == 0x7F800000u && (rng.next() % 64) != 0) u &= 0xBFFFFFFFu;
    x = from_bits(u);
  }
  return v;
}

template <class Fmt>
void check_against_model(const std::vector<float>& data, std::size_t offset, std::size_t n,
                         scale_rounding mode) {
  const float* in = data.data() + offset;
  std::vector<std::uint8_t> ref_scales, ref_elements;
  mx_ref::quantize<Fmt>(in, n, ref_scales, ref_elements, mode);
  const std::vector<std::uint32_t> ref_out =
      mx_ref::dequantize<Fmt>(ref_scales.data(), ref_elements.data(), n);
  // Guard bytes after each output catch writes past the end.
  std::vector<std::uint8_t> scales(mf::mx::scale_count<Fmt>(n) + 4, 0xA5);
  std::vector<std::uint8_t> elements(mf::mx::element_bytes<Fmt>(n) + 4, 0xA5);
  mf::mx::quantize<Fmt>(in, scales.data(), elements.data(), n, mode);
  for (std::size_t j = 0; j < ref_scales.size(); ++j) {
    ASSERT_EQ(scales[j], ref_scales[j]) << "block " << j << " n " << n;
  }
  for (std::size_t b = 0; b < ref_elements.size(); ++b) {
    ASSERT_EQ(elements[b], ref_elements[b]) << "byte " << b << " n " << n;
  }
  for (std::size_t g = 0; g < 4; ++g) {
    ASSERT_EQ(scales[ref_scales.size() + g], 0xA5);
    ASSERT_EQ(elements[ref_elements.size() + g], 0xA5);
  }
  std::vector<float> out(n + 4, from_bits(0xDEADBEEFu));
  mf::mx::dequantize<Fmt>(ref_scales.data(), ref_elements.data(), out.data(), n);
  for (std::size_t i = 0; i < n; ++i) {
    ASSERT_EQ(to_bits(out[i]), ref_out[i]) << "element " << i << " n " << n;
  }
  for (std::size_t g = 0; g < 4; ++g) ASSERT_EQ(to_bits(out[n + g]), 0xDEADBEEFu);
}

using AllMx = mft::type_list<mf::mx::mxfp8_e4m3, mf::mx::mxfp8_e5m2, mf::mx::mxfp6_e2m3,
                             mf::mx::mxfp6_e3m2, mf::mx::mxfp4, mf::mx::mxint8,
                             mf::mx::block_format<mf::e4m3fn, 16>,
                             mf::mx::block_format<mf::e2m1fn, 64>>;
struct MxNames {
  template <class T>
  static std::string GetName(int i) { return "format" + std::to_string(i); }
};

MFT_TYPED_PER_ISA_TEST(MxFormat, StructuredInputsMatchModel, AllMx, MxNames) {
  using Fmt = TypeParam;
  const auto data = structured_inputs<typename Fmt::element>(32 * 2048 + 8, 11);
  for (scale_rounding m : kModes) check_against_model<Fmt>(data, 0, 32 * 2048, m);
}

MFT_TYPED_PER_ISA_TEST(MxFormat, RandomBitPatternsMatchModel, AllMx, MxNames) {
  using Fmt = TypeParam;
  const auto data = random_bits_inputs(32 * 1024 + 8, 5);
  for (scale_rounding m : kModes) check_against_model<Fmt>(data, 0, 32 * 1024, m);
}

// Every length up to four blocks and a bit, at unaligned starts: partial
// last blocks, odd FP4 counts, partial FP6 groups.
MFT_TYPED_PER_ISA_TEST(MxFormat, LengthsAndOffsetsMatchModel, AllMx, MxNames) {
  using Fmt = TypeParam;
  const auto data = structured_inputs<typename Fmt::element>(4 * 64 + 16, 3);
  for (std::size_t n = 0; n <= 4 * Fmt::block_size + 5; ++n) {
    for (std::size_t offset = 0; offset < 3; ++offset) {
      check_against_model<Fmt>(data, offset, n, scale_rounding::floor);
    }
  }
}

#if defined(__x86_64__) || defined(_M_X64)
// The division by the scale and the element rounding are done on the bits
// (and with embedded rounding), so FTZ, DAZ and the rounding direction in
// MXCSR do not change what quantize writes.
MFT_TYPED_PER_ISA_TEST(MxFormat, QuantizeIndependentOfMxcsr, AllMx, MxNames) {
  using Fmt = TypeParam;
  const auto data = structured_inputs<typename Fmt::element>(32 * 256, 17);
  const std::size_t n = data.size();
  for (scale_rounding m : kModes) {
    std::vector<std::uint8_t> s0(mf::mx::scale_count<Fmt>(n)), e0(mf::mx::element_bytes<Fmt>(n));
    mf::mx::quantize<Fmt>(data.data(), s0.data(), e0.data(), n, m);
    const unsigned saved = _mm_getcsr();
    for (unsigned csr : {0x9FC0u /* FTZ|DAZ */, 0x7FC0u /* toward zero */, 0x5FC0u /* up */,
                         0xBFC0u /* down, FTZ */}) {
      std::vector<std::uint8_t> s1(s0.size()), e1(e0.size());
      _mm_setcsr(csr);
      mf::mx::quantize<Fmt>(data.data(), s1.data(), e1.data(), n, m);
      _mm_setcsr(saved);
      ASSERT_EQ(s1, s0) << std::hex << csr;
      ASSERT_EQ(e1, e0) << std::hex << csr;
    }
  }
}
#endif

MFT_INSTANTIATE_PER_ISA(MxKnownAnswer);

}  // namespace
