// The std::span overloads (C++20) of the MX, NVFP4, packing and scaling
// entries give the bytes and floats of their pointer forms.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include <minifloat/mx.hpp>
#include <minifloat/scaling.hpp>

namespace {

std::vector<float> inputs(std::size_t n) {
  std::vector<float> x(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = std::sin(static_cast<float>(i) * 0.7f) * static_cast<float>(1 + i % 13) * 3.0f;
  }
  return x;
}

bool same_floats(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

TEST(SpanEntries, MxQuantizeAndDequantize) {
  using Fmt = mf::mx::mxfp6_e2m3;
  const std::size_t n = 3 * 32 + 7;  // a partial last block
  const std::vector<float> x = inputs(n);
  std::vector<std::uint8_t> s1(mf::mx::scale_count<Fmt>(n)), e1(mf::mx::element_bytes<Fmt>(n));
  std::vector<std::uint8_t> s2 = s1, e2 = e1;
  mf::mx::quantize<Fmt>(std::span<const float>(x), std::span<std::uint8_t>(s1),
                        std::span<std::uint8_t>(e1), mf::mx::scale_rounding::ceil);
  mf::mx::quantize<Fmt>(x.data(), s2.data(), e2.data(), n, mf::mx::scale_rounding::ceil);
  EXPECT_EQ(s1, s2);
  EXPECT_EQ(e1, e2);
  std::vector<float> y1(n), y2(n);
  mf::mx::dequantize<Fmt>(std::span<const std::uint8_t>(s1), std::span<const std::uint8_t>(e1),
                          std::span<float>(y1));
  mf::mx::dequantize<Fmt>(s2.data(), e2.data(), y2.data(), n);
  EXPECT_TRUE(same_floats(y1, y2));

  std::vector<mf::mx::block<Fmt>> b1(3), b2(3);
  mf::mx::quantize_blocks<Fmt>(std::span<const float>(x.data(), 96),
                               std::span<mf::mx::block<Fmt>>(b1));
  mf::mx::quantize_blocks<Fmt>(x.data(), b2.data(), 3);
  EXPECT_EQ(0, std::memcmp(b1.data(), b2.data(), sizeof(b1[0]) * 3));
  std::vector<float> z1(96), z2(96);
  mf::mx::dequantize_blocks<Fmt>(std::span<const mf::mx::block<Fmt>>(b1), std::span<float>(z1));
  mf::mx::dequantize_blocks<Fmt>(b2.data(), z2.data(), 3);
  EXPECT_TRUE(same_floats(z1, z2));
}

TEST(SpanEntries, Nvfp4) {
  namespace nv = mf::mx::nvfp4;
  const std::size_t n = 40;
  const std::vector<float> x = inputs(n);
  std::vector<std::uint8_t> s1(nv::scale_count(n)), e1(nv::element_bytes(n));
  std::vector<std::uint8_t> s2 = s1, e2 = e1;
  const float t1 = nv::quantize(std::span<const float>(x), std::span<std::uint8_t>(s1),
                                std::span<std::uint8_t>(e1));
  const float t2 = nv::quantize(x.data(), s2.data(), e2.data(), n);
  EXPECT_EQ(t1, t2);
  EXPECT_EQ(s1, s2);
  EXPECT_EQ(e1, e2);
  std::vector<float> y1(n), y2(n);
  nv::dequantize(std::span<const std::uint8_t>(s1), std::span<const std::uint8_t>(e1),
                 std::span<float>(y1), t1);
  nv::dequantize(s2.data(), e2.data(), y2.data(), n, t2);
  EXPECT_TRUE(same_floats(y1, y2));
  EXPECT_EQ(nv::tensor_scale(std::span<const float>(x)), nv::tensor_scale(x.data(), n));
  EXPECT_EQ(nv::tensor_scale(std::span<const float>(x)), t1);
}

TEST(SpanEntries, MxDot) {
  using A = mf::mx::mxfp4;
  using B = mf::mx::mxfp8_e4m3;
  const std::size_t n = 2 * 32 + 5;  // a partial last block
  const std::vector<float> x = inputs(n);
  std::vector<float> y = inputs(n + 3);
  y.erase(y.begin(), y.begin() + 3);
  std::vector<std::uint8_t> sa(mf::mx::scale_count<A>(n)), ea(mf::mx::element_bytes<A>(n));
  std::vector<std::uint8_t> sb(mf::mx::scale_count<B>(n)), eb(mf::mx::element_bytes<B>(n));
  mf::mx::quantize<A>(x.data(), sa.data(), ea.data(), n);
  mf::mx::quantize<B>(y.data(), sb.data(), eb.data(), n);
  const float by_pointers = mf::mx::dot<A, B>(sa.data(), ea.data(), sb.data(), eb.data(), n);
  const float by_spans = mf::mx::dot<A, B>(
      std::span<const std::uint8_t>(sa), std::span<const std::uint8_t>(ea),
      std::span<const std::uint8_t>(sb), std::span<const std::uint8_t>(eb), n);
  EXPECT_NE(by_pointers, 0.0f);
  EXPECT_EQ(std::memcmp(&by_pointers, &by_spans, sizeof(float)), 0);
}

TEST(SpanEntries, Packing) {
  const std::size_t n = 77;
  const std::vector<float> x = inputs(n);
  const auto c = mf::conversion::stochastic({5, 9}).saturating();
  std::vector<std::uint8_t> p1(mf::mx::packed_bytes<6>(n)), p2(p1.size());
  mf::mx::encode_packed<mf::e3m2fn>(std::span<const float>(x), std::span<std::uint8_t>(p1), c);
  mf::mx::encode_packed<mf::e3m2fn>(x.data(), p2.data(), n, c);
  EXPECT_EQ(p1, p2);
  std::vector<float> y1(n), y2(n);
  mf::mx::decode_packed<mf::e3m2fn>(std::span<const std::uint8_t>(p1), std::span<float>(y1));
  mf::mx::decode_packed<mf::e3m2fn>(p2.data(), y2.data(), n);
  EXPECT_TRUE(same_floats(y1, y2));
  std::vector<std::uint8_t> codes1(n), codes2(n);
  mf::mx::unpack<mf::e3m2fn>(std::span<const std::uint8_t>(p1), std::span<std::uint8_t>(codes1));
  mf::mx::unpack<mf::e3m2fn>(p2.data(), codes2.data(), n);
  EXPECT_EQ(codes1, codes2);
  std::vector<std::uint8_t> q1(p1.size()), q2(p1.size());
  mf::mx::pack<mf::e3m2fn>(std::span<const std::uint8_t>(codes1), std::span<std::uint8_t>(q1));
  mf::mx::pack<mf::e3m2fn>(codes2.data(), q2.data(), n);
  EXPECT_EQ(q1, q2);
  EXPECT_EQ(q1, p1);
  // The width-named forms.
  std::vector<std::uint8_t> r1(p1.size()), r2(p1.size());
  mf::mx::pack_fp6(std::span<const std::uint8_t>(codes1), std::span<std::uint8_t>(r1));
  mf::mx::pack_fp6(codes2.data(), r2.data(), n);
  EXPECT_EQ(r1, r2);
  std::vector<std::uint8_t> u1(n), u2(n);
  mf::mx::unpack_fp6(std::span<const std::uint8_t>(r1), std::span<std::uint8_t>(u1));
  mf::mx::unpack_fp6(r2.data(), u2.data(), n);
  EXPECT_EQ(u1, codes1);
  EXPECT_EQ(u1, u2);
  std::vector<std::uint8_t> nibbles(n);
  for (std::size_t i = 0; i < n; ++i) nibbles[i] = static_cast<std::uint8_t>(codes1[i] & 0x0F);
  std::vector<std::uint8_t> f1(mf::mx::packed_bytes<4>(n)), f2(f1.size());
  mf::mx::pack_fp4(std::span<const std::uint8_t>(nibbles), std::span<std::uint8_t>(f1));
  mf::mx::pack_fp4(nibbles.data(), f2.data(), n);
  EXPECT_EQ(f1, f2);
  std::vector<std::uint8_t> g1(n), g2(n);
  mf::mx::unpack_fp4(std::span<const std::uint8_t>(f1), std::span<std::uint8_t>(g1));
  mf::mx::unpack_fp4(f2.data(), g2.data(), n);
  EXPECT_EQ(g1, nibbles);
  EXPECT_EQ(g1, g2);
}

TEST(SpanEntries, Scaling) {
  const std::size_t rows = 5, cols = 70;
  const std::vector<float> x = inputs(rows * cols);
  mf::scaling::quantize_options o;
  o.conversion = mf::conversion::stochastic({3}).saturating();
  std::vector<std::uint8_t> q1(x.size()), q2(x.size());
  std::vector<float> s1(mf::scaling::block_count(rows, cols, {2, 32})), s2(s1.size());
  mf::scaling::quantize_per_block<mf::e5m2>(std::span<const float>(x),
                                            std::span<std::uint8_t>(q1), std::span<float>(s1),
                                            rows, cols, {2, 32}, o);
  mf::scaling::quantize_per_block<mf::e5m2>(x.data(), q2.data(), s2.data(), rows, cols, {2, 32},
                                            o);
  EXPECT_EQ(q1, q2);
  EXPECT_TRUE(same_floats(s1, s2));
  std::vector<float> y1(x.size()), y2(x.size());
  mf::scaling::dequantize_per_block<mf::e5m2>(std::span<const std::uint8_t>(q1),
                                              std::span<const float>(s1), std::span<float>(y1),
                                              rows, cols, {2, 32});
  mf::scaling::dequantize_per_block<mf::e5m2>(q2.data(), s2.data(), y2.data(), rows, cols,
                                              {2, 32});
  EXPECT_TRUE(same_floats(y1, y2));

  std::vector<float> c1(cols), c2(cols);
  mf::scaling::quantize_per_channel<mf::e4m3fn>(std::span<const float>(x),
                                                std::span<std::uint8_t>(q1), std::span<float>(c1),
                                                rows, cols, mf::scaling::channel_axis::columns, o);
  mf::scaling::quantize_per_channel<mf::e4m3fn>(x.data(), q2.data(), c2.data(), rows, cols,
                                                mf::scaling::channel_axis::columns, o);
  EXPECT_EQ(q1, q2);
  EXPECT_TRUE(same_floats(c1, c2));
  mf::scaling::column_amax(std::span<const float>(x), std::span<float>(c1), rows, cols);
  mf::scaling::column_amax(x.data(), c2.data(), rows, cols);
  EXPECT_TRUE(same_floats(c1, c2));

  const float inv1 = mf::scaling::quantize_per_tensor<mf::e4m3fn>(std::span<const float>(x),
                                                                  std::span<std::uint8_t>(q1), o);
  const float inv2 = mf::scaling::quantize_per_tensor<mf::e4m3fn>(x.data(), q2.data(), x.size(), o);
  EXPECT_EQ(inv1, inv2);
  EXPECT_EQ(q1, q2);
}

}  // namespace
