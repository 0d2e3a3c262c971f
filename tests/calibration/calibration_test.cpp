// Static calibration: the observer (exact, batch-split independent, merge),
// the format grid against mf::round_to, the methods' known answers, the cost
// metrics against real quantization, the KL search against brute force over
// its candidates, and per-channel calibration feeding the scaling toolkit's
// quantize functions.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <minifloat/calibration.hpp>

#include "reference/reference.hpp"

namespace {

namespace cal = mf::calibration;
using cal::method;

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

std::vector<float> student_t(std::size_t n, float dof, std::uint32_t seed) {
  std::mt19937 g(seed);
  std::student_t_distribution<float> d(dof);
  std::vector<float> x(n);
  for (float& v : x) v = d(g);
  return x;
}

cal::calibration_options options(method how, bool power_of_two = false, double p = 99.99) {
  cal::calibration_options o;
  o.how = how;
  o.power_of_two = power_of_two;
  o.percentile = p;
  return o;
}

// ---- the format grid: the rounding the searches model ---------------------------

template <class Fmt>
void check_grid_rounding() {
  const cal::format_grid<Fmt>& grid = cal::format_grid<Fmt>::get();
  const auto library = [](double y) {
    return static_cast<double>(static_cast<float>(
        mf::round_to<Fmt>(y, mf::rounding::nearest_even, mf::overflow::saturating)));
  };
  EXPECT_EQ(grid.value(0), 0.0);
  EXPECT_EQ(grid.max(), static_cast<double>(mf::scaling::max_finite_value<Fmt>()));
  for (std::size_t i = 0; i + 1 < grid.size(); ++i) {
    const double m = grid.midpoint(i);
    for (double y : {grid.value(i), m, std::nextafter(m, 0.0), std::nextafter(m, 1e300)}) {
      ASSERT_EQ(grid.value(grid.nearest(y)), library(y)) << "y = " << y;
    }
  }
  for (double y : {grid.max() * 1.01, grid.max() * 4, 1e300}) {
    EXPECT_EQ(grid.value(grid.nearest(y)), library(y));
  }
}

TEST(FormatGrid, NearestIsTheLibrarysSaturatingNearestEven) {
  check_grid_rounding<mf::e4m3fn>();
  check_grid_rounding<mf::e4m3fnuz>();
  check_grid_rounding<mf::e5m2>();
  check_grid_rounding<mf::e5m2fnuz>();
  check_grid_rounding<mf::e4m3>();
  check_grid_rounding<mf::e3m4>();
  check_grid_rounding<mf::e4m3b11fnuz>();
  check_grid_rounding<mf::e2m3fn>();
  check_grid_rounding<mf::e3m2fn>();
  check_grid_rounding<mf::e2m1fn>();
  check_grid_rounding<mf::binary16>();
}

// ---- the observer ---------------------------------------------------------------

TEST(Histogram, CountsSpecialsAndKeepsTheExactAmax) {
  const std::vector<float> x = {0.0f, -0.0f, 1.5f, -3.25f, kNaN, -kNaN, kInf, -kInf,
                                1e-45f, -2.0f, 3.0f};
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  EXPECT_EQ(h.zeros(), 2u);
  EXPECT_EQ(h.nans(), 2u);
  EXPECT_EQ(h.infs(), 2u);
  EXPECT_EQ(h.finite_count(), 7u);
  EXPECT_EQ(h.amax(), 3.25f);
  // 1.5 lies in the bin [1.5, 1.5 + 2^-8): its edges are floats.
  const std::uint32_t i = 0x3FC00000u >> 15;
  EXPECT_EQ(h.bin(i).count, 1u);
  EXPECT_EQ(h.lower_edge(i), 1.5f);
  EXPECT_EQ(h.upper_edge(i), 1.5f + 0x1p-8f);
  EXPECT_EQ(h.bin_mean(i), 1.5);
  // The float32 subnormal 2^-149 has its own bin too.
  EXPECT_EQ(h.bin(1u >> 15).count, 1u);
  EXPECT_EQ(h.bin_sum(0), static_cast<double>(1e-45f));
}

TEST(Histogram, ManyEqualValuesHaveNoSpread) {
  // 1.99999988 is the largest offset in its bin (r = 2^15 - 1); 3 million of
  // them overflow double's exact range in (sum r)^2 but not the exact
  // integer spread.
  const std::vector<float> x(3000000, 1.99999988f);
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  const std::uint32_t i = 0x3FFFFFFFu >> 15;
  EXPECT_EQ(h.bin(i).count, 3000000u);
  EXPECT_EQ(h.bin_deviation_square_sum(i), 0.0);
  EXPECT_EQ(h.bin_mean(i), static_cast<double>(1.99999988f));
  // So the error of any scale is that of one value, times 3 million.
  const float scale = cal::calibrate<mf::e4m3fn>(h, options(method::mse)).scale;
  const double y = static_cast<double>(x[0]) * scale;
  const double q = static_cast<float>(
      mf::round_to<mf::e4m3fn>(y, mf::rounding::nearest_even, mf::overflow::saturating));
  const double e = (y - q) / scale;
  EXPECT_DOUBLE_EQ(cal::cost_of<mf::e4m3fn>(cal::histogram_model(h), scale).sse, 3e6 * e * e);
}

TEST(Histogram, BinSumsMatchADirectSum) {
  const std::vector<float> x = student_t(20000, 3, 5);
  for (int bits : {0, 3, 8, 12}) {
    cal::abs_histogram h(bits);
    h.observe(x.data(), x.size());
    std::vector<double> sum(h.end_bin()), square(h.end_bin()), count(h.end_bin());
    for (float v : x) {
      std::uint32_t a;
      std::memcpy(&a, &v, sizeof a);
      const std::uint32_t i = (a & 0x7FFFFFFFu) >> (23 - bits);
      ASSERT_GE(i, h.first_bin());
      ASSERT_LT(i, h.end_bin());
      EXPECT_LE(h.lower_edge(i), std::fabs(v));
      EXPECT_LT(std::fabs(v), h.upper_edge(i));
      sum[i] += std::fabs(static_cast<double>(v));
      square[i] += static_cast<double>(v) * v;
      count[i] += 1;
    }
    for (std::uint32_t i = h.first_bin(); i < h.end_bin(); ++i) {
      ASSERT_EQ(static_cast<double>(h.bin(i).count), count[i]);
      if (count[i] == 0) continue;
      EXPECT_NEAR(h.bin_sum(i), sum[i], 1e-12 * sum[i]);
      const double mean = sum[i] / count[i];
      const double spread = square[i] - count[i] * mean * mean;
      EXPECT_NEAR(h.bin_deviation_square_sum(i), spread, 1e-9 * square[i]);
    }
  }
}

TEST(Histogram, AnyBatchSplitAndAnyMergeOrderGiveTheSameHistogram) {
  std::vector<float> x = student_t(30000, 3, 11);
  x[100] = kNaN;
  x[2000] = 0.0f;
  x[29999] = -kInf;
  cal::abs_histogram whole;
  whole.observe(x.data(), x.size());
  std::mt19937 g(3);
  for (int trial = 0; trial < 10; ++trial) {
    // Random batches into one observer, and random batches into separate
    // observers merged in a shuffled order.
    cal::abs_histogram batched;
    std::vector<cal::abs_histogram> parts;
    std::size_t at = 0;
    while (at < x.size()) {
      const std::size_t n = std::min<std::size_t>(x.size() - at, 1 + g() % 5000);
      batched.observe(x.data() + at, n);
      parts.emplace_back();
      parts.back().observe(x.data() + at, n);
      at += n;
    }
    std::shuffle(parts.begin(), parts.end(), g);
    cal::abs_histogram merged;
    for (const auto& p : parts) merged.merge(p);
    ASSERT_TRUE(batched == whole) << "trial " << trial;
    ASSERT_TRUE(merged == whole) << "trial " << trial;
    if (trial > 0) continue;
    // So every method gives bit-identical results.
    for (method m : {method::max, method::percentile, method::mse, method::kl}) {
      const auto a = cal::calibrate<mf::e4m3fn>(whole, options(m));
      const auto b = cal::calibrate<mf::e4m3fn>(merged, options(m));
      ASSERT_EQ(a.scale, b.scale);
      ASSERT_EQ(a.cost.sse, b.cost.sse);
    }
  }
  // Different data is a different histogram.
  x[5] = std::nextafter(x[5], 0.0f);
  cal::abs_histogram other;
  other.observe(x.data(), x.size());
  EXPECT_FALSE(other == whole);
}

// The 128-bit sum of squared offsets carries into its high word, in observe
// and in merge. With mantissa_bits 0 a bin is a binade, offsets have 23
// bits: 1.99999988 = 1 + (2^23 - 1) * 2^-23 has r = 2^23 - 1, r^2 = 2^46 -
// 2^24 + 1, and 2^19 of them sum to 2^65 - 2^43 + 2^19, past 2^64 (two
// halves of 2^18 each stay below it, so only their merge carries). Equal
// values have spread exactly 0.
TEST(Histogram, SquareSumsCarryIntoTheHighWord) {
  const std::vector<float> x(std::size_t{1} << 19, 1.99999988f);
  const std::size_t half = x.size() / 2;
  cal::abs_histogram whole(0), first(0), second(0);
  whole.observe(x.data(), x.size());
  first.observe(x.data(), half);
  second.observe(x.data() + half, half);
  const std::uint32_t i = 0x3FFFFFFFu >> 23;
  EXPECT_EQ(whole.bin(i).count, x.size());
  EXPECT_EQ(whole.bin(i).offset_square_sum_high, 1u);
  EXPECT_EQ(whole.bin_deviation_square_sum(i), 0.0);
  EXPECT_EQ(whole.bin_mean(i), static_cast<double>(1.99999988f));
  first.merge(second);
  EXPECT_TRUE(first == whole);
  EXPECT_EQ(first.bin_deviation_square_sum(i), 0.0);
}

TEST(Histogram, SixteenBitSourcesWidenExactly) {
  const std::vector<float> x = student_t(5000, 5, 2);
  std::vector<mf::bfloat16> b;
  std::vector<mf::binary16> f;
  std::vector<float> wb, wf;
  for (float v : x) {
    b.push_back(mf::bfloat16(v));
    f.push_back(mf::binary16(v));
    wb.push_back(static_cast<float>(b.back()));
    wf.push_back(static_cast<float>(f.back()));
  }
  cal::abs_histogram hb, hf, hwb, hwf;
  hb.observe(b.data(), b.size());
  hf.observe(f.data(), f.size());
  hwb.observe(wb.data(), wb.size());
  hwf.observe(wf.data(), wf.size());
  EXPECT_TRUE(hb == hwb);
  EXPECT_TRUE(hf == hwf);
}

// ---- known answers ----------------------------------------------------------------

TEST(Calibrate, MaxIsComputeScale) {
  const std::vector<float> x = student_t(1000, 3, 1);
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  EXPECT_EQ(cal::calibrate<mf::e4m3fn>(h, options(method::max)).scale,
            mf::scaling::compute_scale<mf::e4m3fn>(h.amax()));
  EXPECT_EQ(cal::calibrate<mf::e5m2>(h, options(method::max, true)).scale,
            mf::scaling::compute_scale<mf::e5m2>(h.amax(), {0.0f, true}));
  cal::abs_histogram empty;
  EXPECT_EQ(cal::calibrate<mf::e4m3fn>(empty, options(method::mse)).scale, 1.0f);
  EXPECT_EQ(cal::calibrate<mf::e4m3fn>(empty, options(method::kl)).scale, 1.0f);
}

TEST(Calibrate, ExtremeMagnitudesGiveNormalFloatScales) {
  // The float32 subnormals and the largest floats: every method returns a
  // normal float scale, as compute_scale clamps.
  for (std::vector<float> x : {std::vector<float>{1e-45f, -3e-45f, 1e-40f},
                               std::vector<float>{3e38f, -1e38f, 1.0f},
                               std::vector<float>{std::numeric_limits<float>::max()}}) {
    cal::abs_histogram h;
    h.observe(x.data(), x.size());
    for (method m : {method::max, method::percentile, method::mse, method::kl}) {
      for (bool p2 : {false, true}) {
        const float s4 = cal::calibrate<mf::e4m3fn>(h, options(m, p2)).scale;
        const float s2 = cal::calibrate<mf::e2m1fn>(h, options(m, p2)).scale;
        for (float s : {s4, s2}) {
          EXPECT_TRUE(std::isnormal(s)) << s << " method " << static_cast<int>(m);
        }
      }
    }
  }
}

TEST(Calibrate, PercentileInterpolatesInsideABin) {
  // 1..1000: with 8 mantissa bits of bins, 1..256 sit alone in their bins.
  std::vector<float> x;
  for (int i = 1; i <= 1000; ++i) x.push_back(static_cast<float>(i));
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  // Rank 100 falls in the bin [100, 100.25) holding 100 alone: its whole
  // count is needed, so the value is the bin's upper edge.
  EXPECT_EQ(cal::abs_percentile(h, 10.0), 100.25f);
  // Rank 100.5: half of the next bin's count, [101, 101.25), half its width.
  EXPECT_EQ(cal::abs_percentile(h, 10.05), 101.125f);
  // 600 and 601 share the bin [600, 602): rank 600.5 is 1.5 of its 2 values.
  EXPECT_NEAR(cal::abs_percentile(h, 60.05), 601.5f, 1e-3f);
  EXPECT_EQ(cal::abs_percentile(h, 100.0), 1000.0f);  // never above amax
  EXPECT_EQ(cal::abs_percentile(h, 0.0), 0.0f);
}

// The cost's SQNR is 10 log10(sum x^2 / sse): 1, 1.1, 2.3 and 3.7 into
// e2m1fn at scale 1 become 1, 1, 2 and 4 (sse 0.19, signal 21.19).
TEST(Calibrate, SqnrIsTheSignalOverTheSquaredError) {
  const std::vector<float> x{1.0f, 1.1f, 2.3f, 3.7f};
  const cal::quantization_cost c =
      cal::cost_of<mf::e2m1fn>(cal::value_model(x.data(), x.size()), 1.0f);
  EXPECT_NEAR(c.sse, 0.19, 1e-6);
  EXPECT_NEAR(c.sqnr_db, 10.0 * std::log10(21.19 / 0.19), 1e-5);
}

// With mantissa_bits 0 one bin, [1, 2), holds both 1 and 1.5, and the
// model quantizes them at their mean 1.25. The SQNR's signal is still
// sum x^2 = 1 + 2.25 = 3.25 (cost.hpp), the bin's spread about its mean
// included, not 2 * 1.25^2 = 3.125. sse: the spread
// 2 * 0.25^2 = 0.125, plus 2 (1.25 - 384 / s)^2 at the max method's scale
// s = 448 / 1.5 (1.25 s = 373.3 rounds to 384 on e4m3fn's [256, 512) grid
// of step 32; s is rounded toward zero, 1e-7 relative, so the tolerance).
TEST(Calibrate, HistogramModelSqnrCountsTheWholeSignal) {
  const std::vector<float> x{1.0f, 1.5f};
  cal::abs_histogram h(0);
  h.observe(x.data(), x.size());
  const cal::quantization_cost c = cal::calibrate<mf::e4m3fn>(h, options(method::max)).cost;
  const double e = 1.25 - 384.0 * 1.5 / 448.0;
  EXPECT_NEAR(c.sse, 0.125 + 2 * e * e, 1e-7);
  EXPECT_NEAR(c.sqnr_db, 10.0 * std::log10(3.25 / c.sse), 1e-9);
}

// The percentile's population is every finite value, zeros included
// (percentile.hpp): 4 zeros and 1, 2, 3, 4. Rank 50 % of 8 = 4 falls among
// the zeros: 0. Rank 75 % of 8 = 6 is the whole of 2's bin [2, 2 + 2^-7):
// its upper edge, 2.0078125.
TEST(Calibrate, PercentileCountsTheZeros) {
  const std::vector<float> x{0.0f, 1.0f, -0.0f, 2.0f, 0.0f, 3.0f, 0.0f, 4.0f};
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  EXPECT_EQ(cal::abs_percentile(h, 50.0), 0.0f);
  EXPECT_EQ(cal::abs_percentile(h, 75.0), 2.0078125f);
}

// The documented default percentile, 99.99, is the one a default-built
// calibration_options uses (the tests' options() helper always sets it).
TEST(Calibrate, PercentileDefaultsTo99Point99) {
  std::vector<float> x;
  for (int i = 1; i <= 10000; ++i) x.push_back(static_cast<float>(i));
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  cal::calibration_options defaults;
  defaults.how = method::percentile;
  const float scale = cal::calibrate<mf::e4m3fn>(h, defaults).scale;
  EXPECT_EQ(scale, cal::calibrate<mf::e4m3fn>(h, options(method::percentile, false, 99.99)).scale);
  EXPECT_NE(scale, cal::calibrate<mf::e4m3fn>(h, options(method::percentile, false, 99.9)).scale);
}

TEST(Calibrate, OneOutlierMovesMaxButNotThePercentile) {
  std::vector<float> x = student_t(100000, 5, 9);
  for (float& v : x) v = std::fmin(std::fmax(v, -8.0f), 8.0f);
  cal::abs_histogram before, after;
  before.observe(x.data(), x.size());
  x[777] = 1.0e4f;
  after.observe(x.data(), x.size());
  // The percentile moves by at most the one rank the outlier took (here
  // under 1 %); max by the outlier's factor.
  const auto p = options(method::percentile, false, 99.9);
  const float p_before = cal::calibrate<mf::e4m3fn>(before, p).scale;
  const float p_after = cal::calibrate<mf::e4m3fn>(after, p).scale;
  EXPECT_NEAR(p_after, p_before, 0.01f * p_before);
  EXPECT_GT(cal::calibrate<mf::e4m3fn>(before, options(method::max)).scale,
            1000 * cal::calibrate<mf::e4m3fn>(after, options(method::max)).scale);
  // mse does not clip it: (1e4 - 8)^2 alone is more than all the rounding
  // error of the other values at any scale.
  EXPECT_EQ(cal::calibrate<mf::e4m3fn>(after, options(method::mse)).cost.saturated_fraction, 0.0);
}

template <class Fmt>
void check_exact_data_has_zero_error() {
  // Every value of the format (both signs) times 2^-5: at scale 2^5 every
  // one is exact, and amax lands on max finite.
  const cal::format_grid<Fmt>& grid = cal::format_grid<Fmt>::get();
  std::vector<float> x;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    x.push_back(static_cast<float>(std::ldexp(grid.value(i), -5)));
    x.push_back(-x.back());
  }
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  for (bool p2 : {false, true}) {
    for (method m : {method::max, method::mse}) {
      const auto r = cal::calibrate<Fmt>(h, options(m, p2));
      EXPECT_EQ(r.scale, 32.0f) << static_cast<int>(m) << " " << p2;
      EXPECT_EQ(r.cost.sse, 0.0);
      EXPECT_EQ(r.cost.sqnr_db, std::numeric_limits<double>::infinity());
      EXPECT_EQ(r.cost.saturated_fraction, 0.0);
      EXPECT_EQ(r.cost.flushed_fraction, 0.0);
    }
  }
  // Half the scale: the smallest subnormal's ties flush (to even, 0), and
  // the error is no longer 0.
  const auto half = cal::cost_of<Fmt>(cal::histogram_model(h), 16.0f);
  EXPECT_GT(half.sse, 0.0);
  EXPECT_EQ(half.flushed_fraction, 2.0 / static_cast<double>(x.size()));
}

TEST(Calibrate, DataExactAtAPowerOfTwoScaleHasZeroError) {
  check_exact_data_has_zero_error<mf::e4m3fn>();
  check_exact_data_has_zero_error<mf::e5m2>();
  check_exact_data_has_zero_error<mf::e2m3fn>();
  check_exact_data_has_zero_error<mf::e3m2fn>();
  check_exact_data_has_zero_error<mf::e2m1fn>();
}

// Lossless at many scales: {1, 2, 3} * s is on the e5m2 grid for every
// power of two s from 2^-16 (the subnormals' step; at 2^-17 the 1 would be
// half a step) up to where 3 s saturates, and at no other scale (3 s needs
// the spacing of s's binade). The least error, 0, is tied by all of them:
// the smallest is 2^-16, far below the s_max / 2 the search starts at.
TEST(Calibrate, MseTiesGoToTheSmallestScale) {
  const std::vector<float> x = {1.0f, 2.0f, 3.0f, -3.0f, 2.0f};
  const cal::histogram_model model = cal::value_model(x.data(), x.size());
  EXPECT_EQ(cal::mse_scale<mf::e5m2>(model), 0x1p-16f);
  EXPECT_EQ(cal::mse_scale<mf::e5m2>(model, true), 0x1p-16f);
  EXPECT_EQ(cal::cost_of<mf::e5m2>(model, 0x1p-16f).sse, 0.0);
  EXPECT_GT(cal::cost_of<mf::e5m2>(model, 0x1p-17f).sse, 0.0);
  // bfloat16 is float-like over [0.1, 3]: the least error repeats binade
  // after binade (at 10 * 2^k the data are nearly the integers 1..30) until
  // the data's smallest value leaves bfloat16's normal range.
  std::vector<float> y;
  for (int i = 1; i <= 30; ++i) y.push_back(0.1f * static_cast<float>(i));
  const cal::histogram_model wide = cal::value_model(y.data(), y.size());
  const float s = cal::mse_scale<mf::bfloat16>(wide);
  EXPECT_LT(s, 1e-30f);
  const double least = cal::cost_of<mf::bfloat16>(wide, s).sse;
  EXPECT_EQ(cal::cost_of<mf::bfloat16>(wide, 2 * s).sse, least);
  EXPECT_EQ(cal::cost_of<mf::bfloat16>(wide, 0x1p20f * s).sse, least);
  // Here the ties reach the bottom of the scales searched (2^-126 and up,
  // compute_scale's range): 10 * 2^-129.
  EXPECT_EQ(s, 0x1.9p-126f);
}

TEST(Calibrate, ValueModelIsTheDataItself) {
  const std::vector<float> x = {0.0f, -1.5f, 1.5f, 0.3f, std::numeric_limits<float>::quiet_NaN(),
                                std::numeric_limits<float>::infinity(), 7.0f};
  const cal::histogram_model m = cal::value_model(x.data(), x.size());
  EXPECT_EQ(m.population, 5.0);  // NaN and Inf are not part of it; the zero is
  ASSERT_EQ(m.mean.size(), 3u);
  EXPECT_EQ(m.mean[0], 0.3f);
  EXPECT_EQ(m.mean[1], 1.5);
  EXPECT_EQ(m.count[1], 2.0);
  EXPECT_EQ(m.amax, 7.0f);
  EXPECT_EQ(m.spread, 0.0);
}

TEST(Calibrate, SymmetricAndOneSidedDataGiveTheSameScales) {
  // The histogram is of |x|: x, -x and any mix of signs are one population
  // (the formats are sign-magnitude, so the error is symmetric too).
  const std::vector<float> x = student_t(20000, 3, 4);
  std::vector<float> positive, negative;
  for (float v : x) {
    positive.push_back(std::fabs(v));
    negative.push_back(-std::fabs(v));
  }
  cal::abs_histogram hx, hp, hn;
  hx.observe(x.data(), x.size());
  hp.observe(positive.data(), positive.size());
  hn.observe(negative.data(), negative.size());
  EXPECT_TRUE(hx == hp);
  EXPECT_TRUE(hx == hn);
  for (method m : {method::max, method::percentile, method::mse, method::kl}) {
    EXPECT_EQ(cal::calibrate<mf::e4m3fn>(hx, options(m)).scale,
              cal::calibrate<mf::e4m3fn>(hn, options(m)).scale);
  }
}

TEST(Calibrate, CostMatchesRealQuantizationOnExactData) {
  // Values with 8 significant bits (one value per bin) and a power-of-two
  // scale: the model's error and fractions are those of quantizing with
  // the scaling toolkit and dequantizing.
  std::vector<float> x = student_t(5000, 3, 21);
  for (float& v : x) {
    std::uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    u &= 0xFFFF8000u;
    std::memcpy(&v, &u, sizeof v);
  }
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  for (method m : {method::max, method::percentile, method::mse, method::kl}) {
    const auto r = cal::calibrate<mf::e4m3fn>(h, options(m, true, 99.0));
    std::vector<std::uint8_t> q(x.size());
    std::vector<float> y(x.size());
    const float inv = mf::scaling::quantize_per_tensor_with_scale<mf::e4m3fn>(x.data(), q.data(),
                                                                             x.size(), r.scale);
    mf::scaling::dequantize_per_tensor<mf::e4m3fn>(q.data(), y.data(), x.size(), inv);
    double sse = 0, saturated = 0, flushed = 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double d = static_cast<double>(x[i]) - y[i];  // exact: power-of-two scale
      sse += d * d;
      if (std::fabs(x[i]) * r.scale > 448.0f) ++saturated;
      if (x[i] != 0 && y[i] == 0) ++flushed;
    }
    EXPECT_NEAR(r.cost.sse, sse, 1e-12 * sse) << static_cast<int>(m);
    EXPECT_EQ(r.cost.saturated_fraction, saturated / static_cast<double>(x.size()));
    EXPECT_EQ(r.cost.flushed_fraction, flushed / static_cast<double>(x.size()));
    EXPECT_NEAR(r.cost.mse, sse / static_cast<double>(x.size()), 1e-12 * sse);
  }
}

TEST(Calibrate, MseHasTheLeastErrorOfTheMethods) {
  for (float dof : {3.0f, 5.0f}) {
    const std::vector<float> x = student_t(50000, dof, 8);
    cal::abs_histogram h;
    h.observe(x.data(), x.size());
    for (bool p2 : {false, true}) {
      const double best = cal::calibrate<mf::e4m3fn>(h, options(method::mse, p2)).cost.sse;
      for (method m : {method::max, method::percentile, method::kl}) {
        EXPECT_LE(best, cal::calibrate<mf::e4m3fn>(h, options(m, p2)).cost.sse);
      }
    }
  }
}

TEST(Calibrate, KlClipsWithinTensorRtsRange) {
  const std::vector<float> x = student_t(50000, 3, 12);
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  const float max_scale = mf::scaling::compute_scale<mf::e4m3fn>(h.amax());
  const auto r = cal::calibrate<mf::e4m3fn>(h, options(method::kl));
  // The threshold 448 / scale lies in [amax / 16, amax].
  EXPECT_GE(r.scale, max_scale);
  EXPECT_LE(r.scale, 16.0f * max_scale * 1.0001f);
  const auto p2 = cal::calibrate<mf::e4m3fn>(h, options(method::kl, true));
  EXPECT_EQ(std::exp2(std::round(std::log2(p2.scale))), p2.scale);
  // The divergence is zero when Q is P: one value per cell.
  cal::abs_histogram single;
  const float one = 1.0f;
  single.observe(&one, 1);
  const cal::detail::kl_bins b = cal::detail::kl_bins_of(single);
  EXPECT_EQ(cal::detail::kl_divergence<mf::e4m3fn>(b, 1.0, 448.0), 0.0);
}

TEST(Calibrate, KlDivergenceKnownAnswers) {
  // e2m1fn: 0, 0.5, 1, 1.5, 2, 3, 4, 6.
  const auto kl = [](std::vector<float> x, double threshold, double scale) {
    cal::abs_histogram h;
    h.observe(x.data(), x.size());
    return cal::detail::kl_divergence<mf::e2m1fn>(cal::detail::kl_bins_of(h), threshold, scale);
  };
  // 1 (x3) and 1.125 share the cell of 1; equal bin widths: Q = 1/2, 1/2.
  EXPECT_NEAR(kl({1, 1, 1, 1.125f}, 6, 1), 0.75 * std::log(1.5) + 0.25 * std::log(0.5), 1e-15);
  // 0.75 (a tie, to the even 1) and 1 share the cell of 1; 0.75's bin is half
  // as wide (binade [0.5, 1)), so Q = 1/3, 2/3 of the mass 2.
  EXPECT_NEAR(kl({0.75f, 1}, 6, 1), 0.5 * std::log(1.125), 1e-15);
  // Threshold 1 at scale 6: the two values 3 are clipped onto 1's bin,
  // P = 1/4, 3/4; 0.9375 * 6 rounds to 6 as well: Q = 1/3, 2/3.
  EXPECT_NEAR(kl({0.9375f, 1, 3, 3}, 1, 6), 0.25 * std::log(0.75) + 0.75 * std::log(1.125),
              1e-15);
  // Threshold 2 at scale 3: 1 and 2 land on the cells of 3 and 6, and the
  // two values 3 are clipped onto 2's bin: P = 1/4, 3/4. Q holds the kept
  // values only, 1/2 and 1/2: the clipping is what the divergence sees.
  EXPECT_NEAR(kl({1, 2, 3, 3}, 2, 3), 0.25 * std::log(0.5) + 0.75 * std::log(1.5), 1e-15);
}

// TensorRT's Q is built from the kept bins as observed, so a threshold that
// clips most values diverges from P. With the clipped values in Q as well,
// every threshold whose kept bins fall in separate cells would score 0, and
// the smallest of them (about amax / 16) would win on a few hundred values,
// saturating most of them.
// A threshold that keeps one bin has P = Q whatever it clips: it is no
// candidate, or three values would be clipped onto the smallest.
TEST(Calibrate, KlDoesNotClipMostOfASmallSample) {
  for (std::uint32_t seed = 1; seed <= 8; ++seed) {
    for (std::size_t n : {20u, 300u}) {
      SCOPED_TRACE(std::to_string(n) + " values, seed " + std::to_string(seed));
      const std::vector<float> x = student_t(n, 30, seed);
      cal::abs_histogram h;
      h.observe(x.data(), x.size());
      const auto kl = cal::calibrate<mf::e4m3fn>(h, options(method::kl));
      EXPECT_LE(kl.cost.saturated_fraction, 0.1);
    }
  }
  const std::vector<float> three = {1, 2, 3};
  cal::abs_histogram h;
  h.observe(three.data(), three.size());
  EXPECT_EQ(cal::calibrate<mf::e4m3fn>(h, options(method::kl)).scale,
            cal::calibrate<mf::e4m3fn>(h, options(method::max)).scale);
}

// ---- the KL search against brute force ---------------------------------------------

// The divergence of the entropy method (kl.hpp's definition), written here
// from the data and the independent format reference of tests/reference/:
// the values keep 9 significant bits, so each bin of the default observer
// (8 mantissa bits) holds one distinct value v, its mean, of width
// 2^(ilogb(v) - 8). P: the bins with v <= T, the counts above T added to the
// last of them. Q: the same bins with their own counts (the clipped values
// left out), grouped by the format value v * s rounds to (nearest even,
// saturating), each group's mass spread in proportion to the bins' widths.
// Each normalised to 1. One kept bin with values clipped is no candidate.
struct kl_data {
  std::vector<double> value, count, width;  // one entry per distinct |x|, ascending
};

kl_data kl_data_of(const std::vector<float>& x) {
  std::map<double, double> counts;
  for (float v : x) {
    if (v != 0.0f && std::isfinite(v)) counts[std::fabs(static_cast<double>(v))] += 1.0;
  }
  kl_data d;
  for (const auto& entry : counts) {
    d.value.push_back(entry.first);
    d.count.push_back(entry.second);
    d.width.push_back(std::ldexp(1.0, std::ilogb(entry.first) - 8));
  }
  return d;
}

double brute_force_kl(const mfref::reference& ref, const kl_data& d, double threshold,
                      double scale) {
  double kept_count = 0.0, clipped = 0.0;
  std::size_t kept = 0;
  for (std::size_t j = 0; j < d.value.size(); ++j) {
    if (d.value[j] <= threshold) {
      kept = j + 1;
      kept_count += d.count[j];
    } else {
      clipped += d.count[j];
    }
  }
  if (kept == 0 || (kept == 1 && clipped > 0)) return std::numeric_limits<double>::infinity();
  std::vector<double> p(d.count.begin(), d.count.begin() + static_cast<std::ptrdiff_t>(kept));
  p.back() += clipped;
  const double total = kept_count + clipped;
  // The format value each bin's value lands on: v * s is exact in double
  // (9 by 24 significant bits).
  std::vector<unsigned> cell(kept);
  for (std::size_t j = 0; j < kept; ++j) {
    cell[j] = ref.encode(d.value[j] * scale, mfref::round_mode::nearest_even,
                         mfref::overflow_mode::saturating);
  }
  std::map<unsigned, std::pair<double, double>> group;  // cell -> count, width
  for (std::size_t j = 0; j < kept; ++j) {
    group[cell[j]].first += d.count[j];
    group[cell[j]].second += d.width[j];
  }
  double kl = 0.0;
  for (std::size_t j = 0; j < kept; ++j) {
    const auto& g = group[cell[j]];
    const double q = g.first / kept_count * d.width[j] / g.second;
    kl += p[j] / total * std::log(p[j] / total / q);
  }
  return kl;
}

// The largest float32 s with s * T <= max (T has 9 significant bits, s 24:
// the product is exact in double).
float scale_for_threshold(double max, double threshold) {
  float s = static_cast<float>(max / threshold);
  while (static_cast<double>(s) * threshold > max) s = std::nextafter(s, 0.0f);
  return s;
}

// Every candidate of the search, computed here: thresholds T at every bin
// edge in [amax / 16, amax) and amax itself (the edges are the numbers of 9
// significant bits), or for the power-of-two search the scales 2^k whose
// T = max / 2^k lies in [amax / 16, 2 amax). The scale calibrate returns
// must be the candidate of the least divergence.
template <class Fmt>
void check_kl_is_the_minimum(const mfref::format_spec& spec, const std::vector<float>& x,
                             bool power_of_two) {
  SCOPED_TRACE(std::string(spec.name) + (power_of_two ? " power of two" : ""));
  const mfref::reference ref(spec);
  const double max = ref.max_finite();
  const kl_data d = kl_data_of(x);
  const double amax = d.value.back();
  // Bins below the data's smallest value exist in no histogram: the edge
  // candidates are those of the bins above it only if the data reaches
  // below amax / 16.
  ASSERT_LT(d.value.front(), amax / 16);
  std::vector<std::pair<double, float>> candidates;  // (T, s), T ascending
  if (power_of_two) {
    for (int k = 127; k >= -126; --k) {
      const double threshold = max / std::ldexp(1.0, k);
      if (threshold >= amax / 16 && threshold < 2 * amax) {
        candidates.emplace_back(threshold, std::ldexp(1.0f, k));
      }
    }
  } else {
    const int e_low = std::ilogb(amax / 16);
    for (int e = e_low; e <= std::ilogb(amax); ++e) {
      for (int m = 256; m < 512; ++m) {
        const double edge = std::ldexp(static_cast<double>(m), e - 8);
        if (edge >= amax / 16 && edge < amax) {
          candidates.emplace_back(edge, scale_for_threshold(max, edge));
        }
      }
    }
    candidates.emplace_back(amax, scale_for_threshold(max, amax));
  }
  ASSERT_GT(candidates.size(), power_of_two ? 3u : 1000u);
  double best = std::numeric_limits<double>::infinity(), second = best;
  float best_scale = 0.0f;
  for (const auto& c : candidates) {
    const double kl = brute_force_kl(ref, d, c.first, c.second);
    if (kl < best) {
      second = best;
      best = kl;
      best_scale = c.second;
    } else if (kl < second) {
      second = kl;
    }
  }
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  const float got = cal::calibrate<Fmt>(h, options(method::kl, power_of_two)).scale;
  const double got_kl = brute_force_kl(ref, d, max / got, got);
  // Summation orders differ between the two computations: a candidate within
  // a relative 1e-12 of the least is a tie.
  EXPECT_LE(got_kl, best * (1 + 1e-12)) << "scale " << got << " (KL " << got_kl
                                        << "), the least KL " << best << " at scale "
                                        << best_scale;
  if (second > best * (1 + 1e-12)) {
    EXPECT_EQ(got, best_scale);
  }
}

// Values of 9 significant bits (truncated), so that the histogram holds them
// exactly.
std::vector<float> nine_bit(std::vector<float> x) {
  for (float& v : x) {
    std::uint32_t u;
    std::memcpy(&u, &v, sizeof u);
    u &= 0xFFFF8000u;
    std::memcpy(&v, &u, sizeof v);
  }
  return x;
}

TEST(Calibrate, KlReturnsTheLeastDivergenceOfEveryCandidate) {
  for (float dof : {3.0f, 8.0f}) {
    const std::vector<float> x = nine_bit(student_t(20000, dof, 17));
    for (bool p2 : {false, true}) {
      check_kl_is_the_minimum<mf::e4m3fn>({"e4m3fn", 4, 3, 7, mfref::kind::fn}, x, p2);
      check_kl_is_the_minimum<mf::e5m2>({"e5m2", 5, 2, 15, mfref::kind::ieee}, x, p2);
      check_kl_is_the_minimum<mf::e2m1fn>({"e2m1fn", 2, 1, 1, mfref::kind::finite}, x, p2);
    }
  }
}

// The least divergence is often reached by several thresholds (the same
// bins kept, the same cells): the entropy method takes the first, the
// smallest T (kl.hpp, TensorRT's argmin), and its candidates reach down to
// amax / 16. e2m1fn (0, 0.5, 1, 1.5, 2, 3, 4, 6), data {1, 1, 1.125, 16}:
// - T in [1, 1.125): only 1 kept, the rest clipped: no candidate;
// - T = 1.125 (a bin edge, >= amax / 16 = 1): s = 6 / 1.125 = 5.33; 1 s and
//   1.125 s both round to 6, one cell. P = (2, 1 + 1) / 4 (16 clipped onto
//   the last kept bin), Q = the cell's 3 values spread over two bins of
//   equal width: (1/2, 1/2) = P, so KL = 0, the least possible;
// - larger T in (1.125, 16) keep the same bins, and wherever 1 s and
//   1.125 s share a cell (T = 2: 3 and 3.375 -> 3) KL is 0 again: a tie;
// - T = amax = 16: s = 0.375, 1 s and 1.125 s -> 0.5, 16 s = 6:
//   P = (2, 1, 1) / 4, Q = (1.5, 1.5, 1) / 4, KL > 0.
// So the scale is that of T = 1.125.
TEST(Calibrate, KlTiesGoToTheSmallestThreshold) {
  const std::vector<float> x{1.0f, 1.0f, 1.125f, 16.0f};
  const mfref::reference ref({"e2m1fn", 2, 1, 1, mfref::kind::finite});
  const kl_data d = kl_data_of(x);
  EXPECT_EQ(brute_force_kl(ref, d, 1.125, scale_for_threshold(6.0, 1.125)), 0.0);
  EXPECT_EQ(brute_force_kl(ref, d, 2.0, scale_for_threshold(6.0, 2.0)), 0.0);
  EXPECT_GT(brute_force_kl(ref, d, 16.0, scale_for_threshold(6.0, 16.0)), 0.0);
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  EXPECT_EQ(cal::calibrate<mf::e2m1fn>(h, options(method::kl)).scale,
            scale_for_threshold(6.0, 1.125));
}

// The same rule for power-of-two scales, whose candidates run from the
// largest threshold down. e2m1fn (max 6), data {1, 1, 1.125, 8}: the
// divergence is 0 at s = 1, 2 and 4 (T = 6, 3, 1.5) and positive at s = 1/2
// (T = 12), by the brute force above. The smallest T of the tie is 1.5: s = 4.
TEST(Calibrate, KlPowerOfTwoTiesGoToTheSmallestThreshold) {
  const std::vector<float> x{1.0f, 1.0f, 1.125f, 8.0f};
  const mfref::reference ref({"e2m1fn", 2, 1, 1, mfref::kind::finite});
  const kl_data d = kl_data_of(x);
  for (const double s : {1.0, 2.0, 4.0}) EXPECT_EQ(brute_force_kl(ref, d, 6.0 / s, s), 0.0) << s;
  EXPECT_GT(brute_force_kl(ref, d, 12.0, 0.5), 0.0);
  cal::abs_histogram h;
  h.observe(x.data(), x.size());
  EXPECT_EQ(cal::calibrate<mf::e2m1fn>(h, options(method::kl, true)).scale, 4.0f);
}

// ---- per channel --------------------------------------------------------------------

TEST(PerChannel, OneObserverPerRowOrColumnFeedsTheQuantizeFunctions) {
  const std::size_t rows = 6, cols = 500;
  std::vector<float> x = student_t(rows * cols, 3, 31);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c) x[r * cols + c] *= static_cast<float>(1 + 10 * r);
  }
  for (auto axis : {cal::channel_axis::rows, cal::channel_axis::columns}) {
    const std::size_t channels = mf::scaling::channel_count(rows, cols, axis);
    // Two batches of rows (three each), as streamed.
    std::vector<cal::abs_histogram> observers(channels);
    if (axis == cal::channel_axis::columns) {
      cal::observe_channels(x.data(), 3, cols, axis, observers);
      cal::observe_channels(x.data() + 3 * cols, 3, cols, axis, observers);
    } else {
      cal::observe_channels(x.data(), rows, cols, axis, observers);
    }
    for (method m : {method::max, method::mse}) {
      const auto results = cal::calibrate_channels<mf::e4m3fn>(observers, options(m));
      const std::vector<float> scales = cal::scales_of(results);
      // Each channel's scale is that of its own data calibrated alone.
      for (std::size_t k = 0; k < channels; ++k) {
        std::vector<float> own;
        for (std::size_t i = 0; i < rows * cols; ++i) {
          if ((axis == cal::channel_axis::rows ? i / cols : i % cols) == k) own.push_back(x[i]);
        }
        cal::abs_histogram h;
        h.observe(own.data(), own.size());
        ASSERT_EQ(scales[k], cal::calibrate<mf::e4m3fn>(h, options(m)).scale);
      }
      std::vector<std::uint8_t> q(rows * cols), q_max(rows * cols);
      std::vector<float> inv(channels), inv_max(channels);
      mf::scaling::quantize_per_channel_with_scales<mf::e4m3fn>(x.data(), scales.data(), q.data(),
                                                                inv.data(), rows, cols, axis);
      for (std::size_t k = 0; k < channels; ++k) EXPECT_EQ(inv[k], 1.0f / scales[k]);
      if (m == method::max) {
        // The max method is what quantize_per_channel does by itself.
        mf::scaling::quantize_per_channel<mf::e4m3fn>(x.data(), q_max.data(), inv_max.data(), rows,
                                                      cols, axis);
        EXPECT_EQ(q, q_max);
        EXPECT_EQ(inv, inv_max);
      }
    }
  }
}

}  // namespace
