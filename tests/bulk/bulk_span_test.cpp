// The std::span overloads (C++20; this file is built with -std=c++20) give
// the same bits as the pointer + length forms they forward to.
#include <array>
#include <span>

#include "support/bulk_helpers.hpp"

namespace {

using bulk_test::float_bits;

static_assert(__cplusplus >= 202002L, "built as C++20, or the overloads are not tested");

const std::vector<float> kFloats = {0.0f, -1.5f, 448.0f, 1e9f, 3.14159f, -0.001f, 17.0f,
                                    -240.0f, 0x1p-10f, 5.5f};

TEST(BulkSpan, FloatEncodeAndDecode) {
  std::vector<std::uint8_t> a(kFloats.size()), b(kFloats.size());
  mf::bulk::encode<mf::e4m3fn>(std::span<const float>(kFloats), std::span<std::uint8_t>(a),
                               mf::conversion::toward_zero().saturating());
  mf::bulk::encode<mf::e4m3fn>(kFloats.data(), b.data(), kFloats.size(),
                               mf::conversion::toward_zero().saturating());
  EXPECT_EQ(a, b);
  std::vector<float> fa(a.size()), fb(a.size());
  mf::bulk::decode<mf::e4m3fn>(std::span<const std::uint8_t>(a), std::span<float>(fa));
  mf::bulk::decode<mf::e4m3fn>(a.data(), fb.data(), a.size());
  for (std::size_t k = 0; k < a.size(); ++k) EXPECT_EQ(float_bits(fa[k]), float_bits(fb[k]));
}

TEST(BulkSpan, OtherSources) {
  const std::size_t n = kFloats.size();
  std::vector<double> doubles(kFloats.begin(), kFloats.end());
  doubles[4] = 3.14159265358979;
  std::vector<std::uint8_t> a(n), b(n);
  mf::bulk::encode<mf::e5m2>(std::span<const double>(doubles), std::span<std::uint8_t>(a),
                             mf::conversion::toward_positive());
  mf::bulk::encode<mf::e5m2>(doubles.data(), b.data(), n, mf::conversion::toward_positive());
  EXPECT_EQ(a, b);

  std::vector<mf::bfloat16> brain;
  for (float f : kFloats) brain.push_back(mf::bfloat16(f));
  mf::bulk::encode<mf::e4m3fn>(std::span<const mf::bfloat16>(brain), std::span<std::uint8_t>(a));
  mf::bulk::encode<mf::e4m3fn>(brain.data(), b.data(), n);
  EXPECT_EQ(a, b);

  std::vector<std::uint8_t> codes = {0x00, 0x01, 0x38, 0x7E, 0x7F, 0x80, 0xC5, 0xFE, 0x08, 0x44};
  mf::bulk::convert<mf::e5m2, mf::e4m3fn>(std::span<const std::uint8_t>(codes),
                                          std::span<std::uint8_t>(a));
  mf::bulk::convert<mf::e5m2, mf::e4m3fn>(codes.data(), b.data(), n);
  EXPECT_EQ(a, b);

  std::vector<std::uint16_t> ha(n), hb(n);
  mf::bulk::decode_to_binary16<mf::e4m3fn>(std::span<const std::uint8_t>(codes),
                                           std::span<std::uint16_t>(ha));
  mf::bulk::decode_to_binary16<mf::e4m3fn>(codes.data(), hb.data(), n);
  EXPECT_EQ(ha, hb);
  mf::bulk::decode_to_bfloat16<mf::e4m3fn>(std::span<const std::uint8_t>(codes),
                                           std::span<std::uint16_t>(ha));
  mf::bulk::decode_to_bfloat16<mf::e4m3fn>(codes.data(), hb.data(), n);
  EXPECT_EQ(ha, hb);
}

// The source's element type is deduced from any contiguous range, not only
// from a std::span<const T>.
TEST(BulkSpan, SourcesFromAnyContiguousRange) {
  const std::size_t n = kFloats.size();
  std::vector<std::uint8_t> want(n), got(n);
  mf::bulk::encode<mf::e4m3fn>(kFloats.data(), want.data(), n);
  mf::bulk::encode<mf::e4m3fn>(kFloats, got);  // a std::vector<float>
  EXPECT_EQ(got, want);
  std::vector<float> mutable_floats = kFloats;
  std::vector<mf::e4m3fn> values(n);
  mf::bulk::encode<mf::e4m3fn>(std::span<float>(mutable_floats), values);
  for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(values[k].bits(), want[k]) << k;
  const std::array<double, 3> doubles = {1.0625, -3.0e-3, 1e300};
  std::array<std::uint8_t, 3> a{}, b{};
  mf::bulk::encode<mf::e4m3fn>(doubles, a, mf::conversion::toward_zero().saturating());
  mf::bulk::encode<mf::e4m3fn>(doubles.data(), b.data(), 3,
                               mf::conversion::toward_zero().saturating());
  EXPECT_EQ(a, b);
}

TEST(BulkSpan, ConversionAndFusedSteps) {
  const std::size_t n = kFloats.size();
  const std::span<const float> in(kFloats);
  std::vector<std::uint8_t> a(n), b(n);
  float amax_a = 0, amax_b = 1;
  const mf::conversion sr = mf::conversion::stochastic({12345u, 7u}).saturating();
  mf::bulk::encode<mf::e4m3fn>(in, std::span<std::uint8_t>(a), sr, {0.25f, &amax_a});
  mf::bulk::encode<mf::e4m3fn>(kFloats.data(), b.data(), n, sr, {0.25f, &amax_b});
  EXPECT_EQ(a, b);
  EXPECT_EQ(amax_a, 1e9f);
  EXPECT_EQ(amax_a, amax_b);
  std::vector<float> fa(n), fb(n);
  mf::bulk::decode<mf::e4m3fn>(std::span<const std::uint8_t>(a), std::span<float>(fa), 3.0f);
  mf::bulk::decode<mf::e4m3fn>(a.data(), fb.data(), n, 3.0f);
  for (std::size_t k = 0; k < n; ++k) EXPECT_EQ(float_bits(fa[k]), float_bits(fb[k]));
  std::vector<std::uint16_t> half(n);
  for (std::size_t k = 0; k < n; ++k) half[k] = mf::round_to<mf::binary16>(kFloats[k]).bits();
  mf::bulk::encode_from_binary16<mf::e5m2>(std::span<const std::uint16_t>(half),
                                           std::span<std::uint8_t>(a), sr);
  mf::bulk::encode_from_binary16<mf::e5m2>(half.data(), b.data(), n, sr);
  EXPECT_EQ(a, b);
  EXPECT_EQ(mf::bulk::amax(in), mf::bulk::amax(kFloats.data(), n));
}

}  // namespace
