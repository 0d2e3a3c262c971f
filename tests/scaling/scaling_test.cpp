// The scaling toolkit: compute_scale's corner cases, per-tensor / per-channel
// / per-block quantization against hand-computed answers, the round-trip
// error bound, the edge cases (all zero, a NaN in a block, one huge
// outlier), and delayed scaling's amax history.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include <minifloat/scaling.hpp>

#include "support/bulk_helpers.hpp"

namespace {

using mf::scaling::block_shape;
using mf::scaling::channel_axis;
using mf::scaling::compute_scale;
using mf::scaling::quantize_options;
using mf::scaling::scale_options;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

quantize_options power_of_two() {
  quantize_options o;
  o.scale.power_of_two = true;
  return o;
}

// ---- compute_scale ------------------------------------------------------------

TEST(ComputeScale, MapsAmaxOntoMaxFinite) {
  EXPECT_EQ(compute_scale<mf::e4m3fn>(448.0f), 1.0f);
  EXPECT_EQ(compute_scale<mf::e4m3fn>(2.0f), 224.0f);
  EXPECT_EQ(compute_scale<mf::e4m3fn>(-2.0f), 224.0f);
  EXPECT_EQ(compute_scale<mf::e5m2>(57344.0f * 4), 0.25f);
  EXPECT_EQ(compute_scale<mf::e2m1fn>(3.0f), 2.0f);
}

TEST(ComputeScale, MarginAndPowerOfTwo) {
  EXPECT_EQ(compute_scale<mf::e4m3fn>(2.0f, {1.0f}), 112.0f);
  EXPECT_EQ(compute_scale<mf::e4m3fn>(2.0f, {0.0f, true}), 128.0f);
  EXPECT_EQ(compute_scale<mf::e4m3fn>(2.0f, {1.0f, true}), 64.0f);
  EXPECT_EQ(compute_scale<mf::e4m3fn>(448.0f, {0.0f, true}), 1.0f);  // already one
  EXPECT_EQ(compute_scale<mf::e5m2>(3.0f, {0.0f, true}), 16384.0f);
}

TEST(ComputeScale, ZeroInfAndNanGiveTheFallback) {
  EXPECT_EQ(compute_scale<mf::e4m3fn>(0.0f), 1.0f);
  EXPECT_EQ(compute_scale<mf::e4m3fn>(-0.0f), 1.0f);
  EXPECT_EQ(compute_scale<mf::e4m3fn>(kInf, {0.0f, false, 3.0f}), 3.0f);
  EXPECT_EQ(compute_scale<mf::e4m3fn>(-kInf, {0.0f, false, 3.0f}), 3.0f);
  EXPECT_EQ(compute_scale<mf::e4m3fn>(kNaN, {0.0f, false, 3.0f}), 3.0f);
  EXPECT_EQ(compute_scale<mf::e4m3fn>(0.0f, {0.0f, true, 0.5f}), 0.5f);
}

TEST(ComputeScale, TinyAndHugeAmaxClampToNormalFloats) {
  EXPECT_EQ(compute_scale<mf::e4m3fn>(1e-40f), std::numeric_limits<float>::max());
  EXPECT_EQ(compute_scale<mf::e4m3fn>(1e-40f, {0.0f, true}), std::ldexp(1.0f, 127));
  EXPECT_EQ(compute_scale<mf::e4m3fn>(1.0f, {200.0f}), std::ldexp(1.0f, -126));
  EXPECT_EQ(compute_scale<mf::e4m3fn>(std::numeric_limits<float>::max(), {0.0f, true}),
            std::ldexp(1.0f, -120));  // 448 / 2^128 = 1.75 * 2^-120
}

// The scale is rounded toward zero, so amax * scale (rounded to float) never
// exceeds max finite: amax itself never saturates.
TEST(ComputeScale, AmaxTimesScaleNeverExceedsMaxFinite) {
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> exponent(-30.0f, 30.0f);
  for (int i = 0; i < 100000; ++i) {
    const float amax = std::exp2(exponent(gen));
    EXPECT_LE(amax * compute_scale<mf::e4m3fn>(amax), 448.0f) << amax;
    EXPECT_LE(amax * compute_scale<mf::e5m2>(amax), 57344.0f) << amax;
  }
}

// ---- known answers -----------------------------------------------------------------

TEST(QuantizePerTensor, HandComputed) {
  const std::vector<float> x = {1.0f, -2.0f, 0.5f, 4.0f};
  std::vector<std::uint8_t> q(4);
  // amax 4: scale 448 / 4 = 112: 112, -224, 56, 448.
  EXPECT_EQ(mf::scaling::quantize_per_tensor<mf::e4m3fn>(x.data(), q.data(), 4), 1.0f / 112);
  EXPECT_EQ(q, (std::vector<std::uint8_t>{0x6E, 0xF6, 0x66, 0x7E}));
  // Power of two: scale 64: 64, -128, 32, 256, exact both ways.
  EXPECT_EQ(mf::scaling::quantize_per_tensor<mf::e4m3fn>(x.data(), q.data(), 4, power_of_two()),
            1.0f / 64);
  EXPECT_EQ(q, (std::vector<std::uint8_t>{0x68, 0xF0, 0x60, 0x78}));
  std::vector<float> back(4);
  mf::scaling::dequantize_per_tensor<mf::e4m3fn>(q.data(), back.data(), 4, 1.0f / 64);
  EXPECT_EQ(back, x);
}

TEST(QuantizePerChannel, HandComputedRowsAndColumns) {
  const std::vector<float> x = {1.0f, 2.0f, 4.0f,     //
                                0.5f, -8.0f, 0.0f};
  std::vector<std::uint8_t> q(6);
  std::vector<float> s(3);
  // Rows: amax 4 -> 112 -> 64; amax 8 -> 56 -> 32.
  mf::scaling::quantize_per_channel<mf::e4m3fn>(x.data(), q.data(), s.data(), 2, 3,
                                                channel_axis::rows, power_of_two());
  EXPECT_EQ(q, (std::vector<std::uint8_t>{0x68, 0x70, 0x78, 0x58, 0xF8, 0x00}));
  EXPECT_EQ(s[0], 1.0f / 64);
  EXPECT_EQ(s[1], 1.0f / 32);
  std::vector<float> back(6);
  mf::scaling::dequantize_per_channel<mf::e4m3fn>(q.data(), s.data(), back.data(), 2, 3,
                                                  channel_axis::rows);
  EXPECT_EQ(back, x);
  // Columns: amax 1, 8, 4 -> 256, 32, 64.
  mf::scaling::quantize_per_channel<mf::e4m3fn>(x.data(), q.data(), s.data(), 2, 3,
                                                channel_axis::columns, power_of_two());
  EXPECT_EQ(q, (std::vector<std::uint8_t>{0x78, 0x68, 0x78, 0x70, 0xF8, 0x00}));
  EXPECT_EQ(s, (std::vector<float>{1.0f / 256, 1.0f / 32, 1.0f / 64}));
  mf::scaling::dequantize_per_channel<mf::e4m3fn>(q.data(), s.data(), back.data(), 2, 3,
                                                  channel_axis::columns);
  EXPECT_EQ(back, x);
}

TEST(QuantizePerBlock, HandComputedTwoByTwoTilesOnThreeByThree) {
  const std::vector<float> x = {1.0f, 2.0f, 100.0f,  //
                                3.0f, 4.0f, 0.0f,    //
                                5.0f, 6.0f, 7.0f};
  ASSERT_EQ(mf::scaling::block_count(3, 3, {2, 2}), 4u);
  std::vector<std::uint8_t> q(9);
  std::vector<float> s(4);
  // Tiles: {1,2,3,4} amax 4 -> 64; {100,0} -> 4; {5,6} -> 64; {7} -> 64.
  // 100 * 4 = 400 is halfway between 384 and 416: ties to even, 384.
  mf::scaling::quantize_per_block<mf::e4m3fn>(x.data(), q.data(), s.data(), 3, 3, {2, 2},
                                              power_of_two());
  EXPECT_EQ(q, (std::vector<std::uint8_t>{0x68, 0x70, 0x7C, 0x74, 0x78, 0x00, 0x7A, 0x7C, 0x7E}));
  EXPECT_EQ(s, (std::vector<float>{1.0f / 64, 1.0f / 4, 1.0f / 64, 1.0f / 64}));
  std::vector<float> back(9);
  mf::scaling::dequantize_per_block<mf::e4m3fn>(q.data(), s.data(), back.data(), 3, 3, {2, 2});
  std::vector<float> expected = x;
  expected[2] = 96.0f;  // 384 / 4
  EXPECT_EQ(back, expected);
}

// ---- the round-trip bound ------------------------------------------------------

// The format's spacing at y: 2^(max(floor(log2 |y|), emin) - M).
template <class Fmt>
double ulp_at(double y) {
  using F = typename Fmt::format;
  int e = F::min_exponent;
  if (y != 0) {
    int exponent = 0;
    std::frexp(std::fabs(y), &exponent);
    e = std::max(exponent - 1, F::min_exponent);
  }
  return std::ldexp(1.0, e - F::mantissa_bits);
}

std::vector<float> test_matrix(std::size_t rows, std::size_t cols) {
  std::mt19937 gen(5);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::vector<float> x(rows * cols);
  for (float& f : x) f = normal(gen) * 0.02f;
  for (std::size_t i = 0; i < x.size(); i += 997) x[i] *= 300.0f;  // outliers
  return x;
}

// |dequantize(quantize(x)) - x| <= 1/2 ulp of the format at x * scale, in x's
// units (a whole ulp for stochastic rounding). With power-of-two scales the
// scaling is exact; otherwise x * scale, q * scale_inv and scale_inv = 1 /
// scale are each rounded to float once, which adds at most 3 * 2^-24 |x|
// (taken generously as 4 * 2^-24 |x|).
template <class Fmt>
void expect_round_trip(const std::vector<float>& x, const std::vector<float>& back,
                       const std::function<float(std::size_t)>& scale_inv_of, bool exact_scale,
                       bool stochastic, const char* what) {
  std::size_t worst = 0;
  double worst_ratio = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double scale = 1.0 / static_cast<double>(scale_inv_of(i));
    const double y = static_cast<double>(x[i]) * scale;
    const double ulp = ulp_at<Fmt>(y) / scale;
    const double bound = (stochastic ? 1.0 : 0.5) * ulp +
                         (exact_scale ? 0.0 : std::ldexp(4.0, -24) * std::fabs(x[i]));
    const double error = std::fabs(static_cast<double>(back[i]) - x[i]);
    ASSERT_LE(error, bound) << what << " element " << i << " x=" << x[i];
    if (error / ulp > worst_ratio) {
      worst_ratio = error / ulp;
      worst = i;
    }
  }
  // The bound is reached in practice (so the check is not vacuous).
  EXPECT_GT(worst_ratio, stochastic ? 0.6 : 0.4) << what << " worst at " << worst;
}

template <class Fmt>
void round_trip_all_schemes(bool power_of_two_scales, bool stochastic) {
  constexpr std::size_t rows = 130, cols = 300;
  const std::vector<float> x = test_matrix(rows, cols);
  quantize_options o;
  o.scale.power_of_two = power_of_two_scales;
  if (stochastic) o.conversion = mf::conversion::stochastic({17}).saturating();
  std::vector<typename Fmt::storage_type> q(x.size());
  std::vector<float> back(x.size());
  {
    const float s = mf::scaling::quantize_per_tensor<Fmt>(x.data(), q.data(), x.size(), o);
    mf::scaling::dequantize_per_tensor<Fmt>(q.data(), back.data(), x.size(), s);
    expect_round_trip<Fmt>(x, back, [&](std::size_t) { return s; }, power_of_two_scales,
                           stochastic, "per tensor");
  }
  for (channel_axis axis : {channel_axis::rows, channel_axis::columns}) {
    std::vector<float> s(mf::scaling::channel_count(rows, cols, axis));
    mf::scaling::quantize_per_channel<Fmt>(x.data(), q.data(), s.data(), rows, cols, axis, o);
    mf::scaling::dequantize_per_channel<Fmt>(q.data(), s.data(), back.data(), rows, cols, axis);
    expect_round_trip<Fmt>(
        x, back,
        [&](std::size_t i) { return axis == channel_axis::rows ? s[i / cols] : s[i % cols]; },
        power_of_two_scales, stochastic, "per channel");
  }
  for (block_shape b : {block_shape{1, 128}, block_shape{128, 128}}) {
    std::vector<float> s(mf::scaling::block_count(rows, cols, b));
    mf::scaling::quantize_per_block<Fmt>(x.data(), q.data(), s.data(), rows, cols, b, o);
    mf::scaling::dequantize_per_block<Fmt>(q.data(), s.data(), back.data(), rows, cols, b);
    const std::size_t tiles_per_row = (cols + b.cols - 1) / b.cols;
    expect_round_trip<Fmt>(
        x, back,
        [&](std::size_t i) {
          return s[(i / cols / b.rows) * tiles_per_row + (i % cols) / b.cols];
        },
        power_of_two_scales, stochastic, "per block");
  }
}

TEST(RoundTrip, WithinHalfAnUlpE4m3fn) {
  round_trip_all_schemes<mf::e4m3fn>(false, false);
  round_trip_all_schemes<mf::e4m3fn>(true, false);
}
TEST(RoundTrip, WithinHalfAnUlpE5m2) {
  round_trip_all_schemes<mf::e5m2>(false, false);
  round_trip_all_schemes<mf::e5m2>(true, false);
}
TEST(RoundTrip, StochasticWithinOneUlp) {
  round_trip_all_schemes<mf::e4m3fn>(true, true);
  round_trip_all_schemes<mf::e5m2>(false, true);
}

// Stochastic quantization numbers elements by their place in the matrix:
// 1 x cols blocks and per-row channels give the same bits.
TEST(RoundTrip, StochasticBitsDependOnTheElementNotTheGrouping) {
  constexpr std::size_t rows = 9, cols = 77;
  const std::vector<float> x = test_matrix(rows, cols);
  quantize_options o;
  o.conversion = mf::conversion::stochastic({4}).saturating();
  std::vector<std::uint8_t> a(x.size()), b(x.size());
  std::vector<float> sa(rows), sb(rows);
  mf::scaling::quantize_per_channel<mf::e4m3fn>(x.data(), a.data(), sa.data(), rows, cols,
                                                channel_axis::rows, o);
  mf::scaling::quantize_per_block<mf::e4m3fn>(x.data(), b.data(), sb.data(), rows, cols, {1, cols},
                                              o);
  EXPECT_EQ(a, b);
  EXPECT_EQ(sa, sb);
  // Per column: each column's elements draw the bits of their own positions,
  // as a {rows, 1} block does.
  std::vector<float> sc(cols), sd(cols);
  mf::scaling::quantize_per_channel<mf::e4m3fn>(x.data(), a.data(), sc.data(), rows, cols,
                                                channel_axis::columns, o);
  mf::scaling::quantize_per_block<mf::e4m3fn>(x.data(), b.data(), sd.data(), rows, cols, {rows, 1},
                                              o);
  EXPECT_EQ(a, b);
  EXPECT_EQ(sc, sd);
}

// ---- edge cases -----------------------------------------------------------------

TEST(Edges, AllZeroTensorGivesZerosAndUnitScale) {
  const std::vector<float> x(300, 0.0f);
  std::vector<std::uint8_t> q(300, 0xAA);
  EXPECT_EQ(mf::scaling::quantize_per_tensor<mf::e4m3fn>(x.data(), q.data(), x.size()), 1.0f);
  EXPECT_EQ(q, std::vector<std::uint8_t>(300, 0));
  std::vector<float> s(mf::scaling::block_count(3, 100, {1, 32}));
  mf::scaling::quantize_per_block<mf::e5m2>(x.data(), q.data(), s.data(), 3, 100, {1, 32});
  EXPECT_EQ(s, std::vector<float>(s.size(), 1.0f));
}

// A NaN does not move its block's scale: the block quantizes as if the NaN
// were 0, except that element, which is NaN (and dequantizes to NaN).
TEST(Edges, NanInABlockLeavesTheOtherElementsAlone) {
  std::vector<float> x = test_matrix(4, 256);
  std::vector<float> zeroed = x;
  x[300] = kNaN;  // row 1, block 0 of {1, 128} and of {2, 128}
  zeroed[300] = 0.0f;
  for (block_shape b : {block_shape{1, 128}, block_shape{2, 128}}) {
    std::vector<std::uint8_t> q(x.size()), qz(x.size());
    std::vector<float> s(mf::scaling::block_count(4, 256, b)), sz(s.size());
    mf::scaling::quantize_per_block<mf::e4m3fn>(x.data(), q.data(), s.data(), 4, 256, b);
    mf::scaling::quantize_per_block<mf::e4m3fn>(zeroed.data(), qz.data(), sz.data(), 4, 256, b);
    EXPECT_EQ(s, sz);
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (i == 300) {
        EXPECT_TRUE(mf::e4m3fn::from_bits(q[i]).bits() == 0x7F ||
                    mf::e4m3fn::from_bits(q[i]).bits() == 0xFF);
      } else {
        EXPECT_EQ(q[i], qz[i]) << i;
      }
    }
    std::vector<float> back(x.size());
    mf::scaling::dequantize_per_block<mf::e4m3fn>(q.data(), s.data(), back.data(), 4, 256, b);
    EXPECT_TRUE(std::isnan(back[300]));
  }
}

// Per column too: a NaN or an Inf does not move its column's scale.
TEST(Edges, NanAndInfInAColumnLeaveItsScaleAlone) {
  const std::vector<float> x{1.0f, 2.0f, kNaN, 2.0f, kInf, 2.0f};  // 3 x 2
  const std::vector<float> zeroed{1.0f, 2.0f, 0.0f, 2.0f, 0.0f, 2.0f};
  std::vector<std::uint8_t> q(6), qz(6);
  std::vector<float> s(2), sz(2);
  mf::scaling::quantize_per_channel<mf::e4m3fn>(x.data(), q.data(), s.data(), 3, 2,
                                                channel_axis::columns);
  mf::scaling::quantize_per_channel<mf::e4m3fn>(zeroed.data(), qz.data(), sz.data(), 3, 2,
                                                channel_axis::columns);
  EXPECT_EQ(s, sz);
  EXPECT_EQ(s[0], 1.0f / 448);
}

// Per tensor and per row as well (docs/scaling.md: "A group's scale comes
// from the amax of its finite elements"): the NaN and the Inf are skipped,
// not turned into compute_scale's fallback of 1.
TEST(Edges, NanAndInfLeaveThePerTensorAndPerRowScalesAlone) {
  // Finite amax 4: scale 448 / 4 = 112; 1 -> 112 (0x6E), -2 -> -224 (0xF6),
  // 4 -> 448 (0x7E).
  const std::vector<float> x{1.0f, kNaN, -2.0f, kInf, 4.0f};
  std::vector<std::uint8_t> q(x.size());
  EXPECT_EQ(mf::scaling::quantize_per_tensor<mf::e4m3fn>(x.data(), q.data(), x.size()),
            1.0f / 112);
  EXPECT_EQ(q[0], 0x6E);
  EXPECT_TRUE(q[1] == 0x7F || q[1] == 0xFF);  // NaN
  EXPECT_EQ(q[2], 0xF6);
  EXPECT_EQ(q[4], 0x7E);
  // Rows of 2 x 3: {1, NaN, 2} amax 2 -> scale 224: 224 (0x76), 448 (0x7E);
  // {Inf, 4, -0.5} amax 4 -> scale 112: 448 (0x7E), -56 (0xE6).
  const std::vector<float> m{1.0f, kNaN, 2.0f, kInf, 4.0f, -0.5f};
  std::vector<std::uint8_t> qm(m.size());
  std::vector<float> s(2);
  mf::scaling::quantize_per_channel<mf::e4m3fn>(m.data(), qm.data(), s.data(), 2, 3,
                                                channel_axis::rows);
  EXPECT_EQ(s, (std::vector<float>{1.0f / 224, 1.0f / 112}));
  EXPECT_EQ(qm[0], 0x76);
  EXPECT_EQ(qm[2], 0x7E);
  EXPECT_EQ(qm[4], 0x7E);
  EXPECT_EQ(qm[5], 0xE6);
}

TEST(Edges, ColumnAmaxNanPolicies) {
  const std::vector<float> x{1.0f, kInf, kNaN, -2.0f};  // 2 x 2
  std::vector<float> m(2);
  mf::scaling::column_amax(x.data(), m.data(), 2, 2, mf::scaling::amax_nan::finite_only);
  EXPECT_EQ(m, (std::vector<float>{1.0f, 2.0f}));
  mf::scaling::column_amax(x.data(), m.data(), 2, 2);
  EXPECT_TRUE(std::isnan(m[0]));
  EXPECT_EQ(m[1], kInf);
}

// One huge outlier sets the per-tensor scale (and round-trips within the
// bound itself, at max finite), flushing small values; per-block scaling
// confines it to its tile.
TEST(Edges, OneHugeOutlier) {
  std::vector<float> x = test_matrix(2, 256);
  std::vector<float> without = x;
  x[5] = 1.0e6f;
  std::vector<std::uint8_t> q(x.size());
  const float s = mf::scaling::quantize_per_tensor<mf::e4m3fn>(x.data(), q.data(), x.size(),
                                                               power_of_two());
  EXPECT_EQ(s, 1.0f / compute_scale<mf::e4m3fn>(1.0e6f, {0.0f, true}));
  std::vector<float> back(x.size());
  mf::scaling::dequantize_per_tensor<mf::e4m3fn>(q.data(), back.data(), x.size(), s);
  EXPECT_LE(std::fabs(back[5] - x[5]), 0.5 * ulp_at<mf::e4m3fn>(x[5] / s) * s);
  std::size_t flushed = 0;
  for (std::size_t i = 0; i < x.size(); ++i) flushed += q[i] == 0 || q[i] == 0x80;
  EXPECT_GT(flushed, x.size() / 2);  // 1e6 / 2^10 per quantum: the 0.02-sized values vanish
  std::vector<float> sb(mf::scaling::block_count(2, 256, {1, 128})), sw(sb.size());
  std::vector<std::uint8_t> qw(x.size());
  mf::scaling::quantize_per_block<mf::e4m3fn>(x.data(), q.data(), sb.data(), 2, 256, {1, 128});
  mf::scaling::quantize_per_block<mf::e4m3fn>(without.data(), qw.data(), sw.data(), 2, 256,
                                              {1, 128});
  EXPECT_NE(sb[0], sw[0]);
  for (std::size_t t = 1; t < sb.size(); ++t) EXPECT_EQ(sb[t], sw[t]);
  for (std::size_t i = 128; i < x.size(); ++i) EXPECT_EQ(q[i], qw[i]);
}

// ---- delayed scaling -------------------------------------------------------------

TEST(DelayedScaling, MaxOverTheWindow) {
  mf::scaling::delayed_scaling<mf::e4m3fn> d(3, mf::scaling::amax_reduction::max);
  EXPECT_EQ(d.scale(), 1.0f);
  d.record(2.0f);
  EXPECT_EQ(d.scale(), 224.0f);
  d.record(4.0f);
  EXPECT_EQ(d.scale(), 112.0f);
  d.record(1.0f);  // window {2, 4, 1}
  EXPECT_EQ(d.scale(), 112.0f);
  d.record(1.0f);  // {4, 1, 1}
  EXPECT_EQ(d.scale(), 112.0f);
  d.record(1.0f);  // {1, 1, 1}: the 4 aged out
  EXPECT_EQ(d.scale(), 448.0f);
  EXPECT_EQ(d.scale_inv(), 1.0f / 448);
}

// The window's length: 1024 by default (TransformerEngine's), and a length
// of 0 is 1, so the newest amax alone sets the scale.
TEST(DelayedScaling, HistoryLength) {
  EXPECT_EQ(mf::scaling::delayed_scaling<mf::e4m3fn>{}.history_length(), 1024u);
  mf::scaling::delayed_scaling<mf::e4m3fn> d(0);
  EXPECT_EQ(d.history_length(), 1u);
  d.record(4.0f);
  d.record(1.0f);
  EXPECT_EQ(d.scale(), 448.0f);
}

// An amax is a magnitude: a negative one counts as its absolute value.
TEST(DelayedScaling, NegativeAmaxCountsByMagnitude) {
  mf::scaling::delayed_scaling<mf::e4m3fn> d(4);
  d.record(-8.0f);
  EXPECT_EQ(d.reduced_amax(), 8.0f);
  EXPECT_EQ(d.scale(), 56.0f);
}

TEST(DelayedScaling, MostRecent) {
  mf::scaling::delayed_scaling<mf::e5m2> d(8, mf::scaling::amax_reduction::most_recent,
                                           {0.0f, true});
  d.record(2.0f);
  EXPECT_EQ(d.scale(), 16384.0f);
  d.record(57344.0f);
  EXPECT_EQ(d.scale(), 1.0f);
  d.record(0.5f);
  EXPECT_EQ(d.scale(), 65536.0f);
}

TEST(DelayedScaling, ZeroAndNanKeepTheScaleUntilTheyAgeOut) {
  mf::scaling::delayed_scaling<mf::e4m3fn> d(2);
  d.record(2.0f);
  EXPECT_EQ(d.scale(), 224.0f);
  d.record(kNaN);  // {2, NaN}
  EXPECT_EQ(d.scale(), 224.0f);
  d.record(4.0f);  // {NaN, 4}: still NaN in the window
  EXPECT_EQ(d.scale(), 224.0f);
  d.record(4.0f);  // {4, 4}
  EXPECT_EQ(d.scale(), 112.0f);
  mf::scaling::delayed_scaling<mf::e4m3fn> z(1);
  z.record(0.0f);
  EXPECT_EQ(z.scale(), 1.0f);
  z.record(kInf);
  EXPECT_EQ(z.scale(), 1.0f);
}

// The loop the header documents: quantize with the current scale, record the
// amax the fused encode returned.
TEST(DelayedScaling, WithTheFusedAmaxEncode) {
  mf::scaling::delayed_scaling<mf::e4m3fn> d(4);
  std::vector<float> x(1000);
  std::vector<std::uint8_t> q(x.size());
  for (int step = 0; step < 6; ++step) {
    for (std::size_t i = 0; i < x.size(); ++i) {
      x[i] = std::sin(static_cast<float>(i + 31 * step)) * static_cast<float>(step + 1);
    }
    float amax = 0.0f;
    mf::bulk::encode<mf::e4m3fn>(x.data(), q.data(), x.size(), {}, {d.scale(), &amax});
    EXPECT_EQ(amax, mf::bulk::amax(x.data(), x.size()));
    d.record(amax);
    EXPECT_EQ(d.scale(), compute_scale<mf::e4m3fn>(d.reduced_amax()));
  }
}

}  // namespace
