// The properties of stochastic rounding, checked on the bulk path of every
// ISA: the exact round-up count, unbiasedness on average, representable
// values never moving, and the overflow and NaN rules of nearest-even.
#include <cmath>

#include "support/bulk_entries.hpp"
#include "support/stochastic_helpers.hpp"

namespace {

using namespace stochastic_test;

using bulk_test::finite_nonnegative_values;

// The byte formats of every special-value encoding and exponent range (the
// statistical checks take seconds per format).
using Fp8Formats = mft::type_list<mf::e4m3fn, mf::e5m2, mf::e4m3fnuz, mf::e5m2fnuz,
                                  mf::e2m1fn, mf::e3m2fn, mf::e8m0fnu>;

// With R random bits, an input D/2^R of the way from a to b rounds up for
// exactly those elements whose random word's low R bits r satisfy
// r >= 2^R - D. Over a tensor of N copies, the number of round-ups is the
// number of words (a histogram of the known Philox stream) at or above that
// threshold, for every D = 0..2^R - 1: the scalar rule's "exactly D of the
// 2^R random values" (docs/stochastic-rounding.md) at bulk level.
MFT_TYPED_PER_ISA_TEST(StochasticProperties, RoundUpCountIsExactForEveryFractionWithFourBits, Fp8Formats,
                       mft::format_names) {
  constexpr int R = 4;
  constexpr std::size_t N = 4099;
  constexpr std::uint64_t seed = 2024, offset = 3;
  std::size_t histogram[1u << R] = {};
  for (std::size_t i = 0; i < N; ++i) {
    ++histogram[mf::stochastic_random_bits(seed, offset + i, R)];
  }
  const std::vector<double> values = finite_nonnegative_values<TypeParam>();
  for (std::size_t low : {std::size_t{0}, std::size_t{1}, values.size() / 2, values.size() - 2}) {
    const double a = values[low], b = values[low + 1];
    for (unsigned D = 0; D < (1u << R); ++D) {
      // A little above D/2^R of the gap: the top R bits of the fraction are D.
      const float x = static_cast<float>(a + (b - a) * (D + 0.25) / (1u << R));
      const std::vector<float> in(N, x);
      std::vector<typename TypeParam::storage_type> out(N);
      mft::bulk_encode<TypeParam>(
          in.data(), out.data(), N,
          mf::conversion::stochastic({seed, offset, R}).with_overflow(mf::overflow::saturating));
      const auto down = mf::round_to<TypeParam>(x, mf::rounding::toward_zero).bits();
      std::size_t ups = 0;
      for (auto code : out) ups += code != down;
      std::size_t expected = 0;
      for (unsigned r = (1u << R) - D; r < (1u << R); ++r) expected += histogram[r];
      EXPECT_EQ(ups, expected) << mf::target::isa_name(isa) << " a=" << a << " D=" << D;
    }
  }
}

// Unbiased on average: the mean of N = 2^16 stochastic roundings of x tends
// to x. For x a fraction p of the way from a to b the mean is a + (b - a) *
// ups / N with ups ~ Binomial(N, p'), p' = floor(p * 2^32) / 2^32; we allow
// 6 standard deviations, (b - a) * 6 * sqrt(p(1-p)/N), plus (b - a) * 2^-32.
// The seeds are fixed, so the outcome is the same on every run and ISA (the
// bits are a function of (seed, index)): the test cannot flake; 6 sigma only
// makes a pass meaningful (a biased rounding, e.g. always down, is off by
// many sigma).
MFT_TYPED_PER_ISA_TEST(StochasticProperties, MeanOfManyRoundingsConvergesToTheInput, Fp8Formats,
                       mft::format_names) {
  constexpr std::size_t N = std::size_t{1} << 16;
  const std::vector<double> values = finite_nonnegative_values<TypeParam>();
  for (std::size_t low : {std::size_t{1}, values.size() / 3, values.size() - 3}) {
    const double a = values[low], b = values[low + 1];
    for (double p : {0.1, 0.5, 0.7731}) {
      const float x = static_cast<float>(a + (b - a) * p);
      const double exact_p = (static_cast<double>(x) - a) / (b - a);
      const std::vector<float> in(N, x);
      std::vector<typename TypeParam::storage_type> out(N);
      mft::bulk_encode<TypeParam>(in.data(), out.data(), N,
                                  mf::conversion::stochastic({77 + low}));
      double sum = 0;
      for (auto code : out) sum += static_cast<float>(TypeParam::from_bits(code));
      const double mean = sum / N;
      const double tolerance =
          (b - a) * (6 * std::sqrt(exact_p * (1 - exact_p) / N) + std::ldexp(1.0, -32));
      EXPECT_NEAR(mean, static_cast<double>(x), tolerance)
          << mf::target::isa_name(isa) << " between " << a << " and " << b;
    }
  }
}

// A representable value is returned unchanged whatever the random word.
MFT_TYPED_PER_ISA_TEST(StochasticProperties, RepresentableValuesNeverChange, Fp8Formats,
                       mft::format_names) {
  using F = typename TypeParam::format;
  std::vector<float> in;
  std::vector<typename TypeParam::storage_type> expected;
  for (unsigned b = 0; b < (1u << F::bits); ++b) {
    const auto v = TypeParam::from_bits(static_cast<typename TypeParam::storage_type>(b));
    const float f = static_cast<float>(v);
    if (!std::isfinite(f)) continue;
    for (int copy = 0; copy < 37; ++copy) {
      in.push_back(f);
      expected.push_back(mf::round_to<TypeParam>(f).bits());
    }
  }
  for (mf::overflow ovf : kOverflows) {
    std::vector<typename TypeParam::storage_type> out(in.size());
    mft::bulk_encode<TypeParam>(in.data(), out.data(), in.size(),
                                mf::conversion::stochastic({5}).with_overflow(ovf));
    EXPECT_EQ(out, expected) << mf::target::isa_name(isa);
  }
}

// NaN, +-Inf and magnitudes at or beyond twice max finite: the stochastic
// encoding is the nearest-even one, in both overflow modes. Between max and
// the next value of an unbounded range it is max or the nearest-even
// overflow encoding.
MFT_TYPED_PER_ISA_TEST(StochasticProperties, OverflowAndNanFollowNearestEven, Fp8Formats,
                       mft::format_names) {
  using F = typename TypeParam::format;
  const double max_value = finite_nonnegative_values<TypeParam>().back();
  const double next = max_value + std::ldexp(1.0, F::max_exponent - F::mantissa_bits);
  std::vector<float> beyond;
  for (float f : {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                  bits_float(0x7F800001u), bits_float(0x7FFFFFFFu),
                  static_cast<float>(2 * max_value), static_cast<float>(next),
                  std::numeric_limits<float>::max()}) {
    for (int copy = 0; copy < 20; ++copy) {
      beyond.push_back(f);
      beyond.push_back(-f);
    }
  }
  std::vector<float> between(200, static_cast<float>((max_value + next) / 2));
  for (std::size_t i = 0; i < between.size(); i += 2) between[i] = -between[i];
  for (mf::overflow ovf : kOverflows) {
    std::vector<typename TypeParam::storage_type> out(beyond.size());
    mft::bulk_encode<TypeParam>(beyond.data(), out.data(), beyond.size(),
                                mf::conversion::stochastic({9}).with_overflow(ovf));
    for (std::size_t i = 0; i < beyond.size(); ++i) {
      EXPECT_EQ(out[i], mf::round_to<TypeParam>(beyond[i], mf::rounding::nearest_even, ovf).bits())
          << mf::target::isa_name(isa) << " input " << beyond[i];
    }
    out.resize(between.size());
    mft::bulk_encode<TypeParam>(between.data(), out.data(), between.size(),
                                mf::conversion::stochastic({9}).with_overflow(ovf));
    std::size_t overflowed = 0;
    for (std::size_t i = 0; i < between.size(); ++i) {
      const auto max_code = mf::round_to<TypeParam>(between[i], mf::rounding::toward_zero,
                                                    mf::overflow::saturating).bits();
      const auto overflow_code =
          mf::round_to<TypeParam>(2 * between[i], mf::rounding::nearest_even, ovf).bits();
      EXPECT_TRUE(out[i] == max_code || out[i] == overflow_code) << mf::target::isa_name(isa);
      overflowed += out[i] != max_code;
    }
    // Halfway: about half overflow (fixed seed; 200 trials, 100 +- 8 sigma),
    // where overflow has its own encoding (not in the MX types, not saturating).
    const bool distinguishable =
        mf::round_to<TypeParam>(static_cast<float>(2 * max_value), mf::rounding::nearest_even,
                                ovf).bits() !=
        mf::round_to<TypeParam>(static_cast<float>(max_value)).bits();
    if (distinguishable) {
      EXPECT_GT(overflowed, 40u);
      EXPECT_LT(overflowed, 160u);
    }
  }
}

}  // namespace
