// Encoding from double and long double: rounds once, directly from the
// source, never through float (or, for long double, through double).
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "reference/boundary_set.hpp"
#include "support/formats_under_test.hpp"

namespace {

using mf::overflow;
using mf::rounding;

template <class T>
class EncodeDouble : public ::testing::Test {};
TYPED_TEST_SUITE(EncodeDouble, mftest::AllFormats, mftest::format_names);

template <class T>
void expect_matches_reference(const std::vector<double>& inputs, std::size_t minimum) {
  const mfref::reference& ref = mftest::reference_for<T>();
  mftest::mismatch_log log;
  for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
    for (double x : inputs) {
      log.expect_eq(mf::round_to<T>(x, m.rounding, m.overflow).bits(),
                    ref.encode(x, m.ref_rounding, m.ref_overflow), [&] {
                      return std::string(ref.name()) + " " + mftest::to_string(m) +
                             " input " + mftest::describe_input(x);
                    });
    }
  }
  MFTEST_EXPECT_CLEAN(log, minimum);
}

TYPED_TEST(EncodeDouble, BoundarySetRoundsAsTheReferenceInEveryMode) {
  const auto inputs = mfref::boundary_values<double>(mftest::reference_for<TypeParam>());
  expect_matches_reference<TypeParam>(inputs, inputs.size() * 8);
}

TYPED_TEST(EncodeDouble, DoublesJustAboveAndBelowEveryMidpointRoundOnce) {
  const auto inputs = mfref::double_rounding_traps(mftest::reference_for<TypeParam>());
  expect_matches_reference<TypeParam>(inputs, inputs.size() * 8);
}

TYPED_TEST(EncodeDouble, DoublesOutsideFloatRangeRoundAsTheReference) {
  const double dmax = std::numeric_limits<double>::max();
  const std::vector<double> inputs = {
      1e39,    -1e39,   0x1p128,  -0x1p128, 0x1.FFp127, 1e300, -1e300,
      dmax,    -dmax,   1e-46,    -1e-46,   0x1p-150,   0x1p-1074, -0x1p-1074,
      0x1p-1022, 0x1p-134, -0x1p-134, 0x1.8p-134, 0x1.0000000000001p-133};
  expect_matches_reference<TypeParam>(inputs, inputs.size() * 8);
}

// The same inputs rounded through float would land elsewhere: proof that
// the tests above can tell a double path from a float path.
TYPED_TEST(EncodeDouble, RoundingThroughFloatWouldDifferOnTheTraps) {
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  std::size_t differ = 0;
  for (double x : mfref::double_rounding_traps(ref)) {
    const unsigned once = ref.encode(x, mfref::round_mode::nearest_even);
    const unsigned twice =
        ref.encode(static_cast<float>(x), mfref::round_mode::nearest_even);
    const unsigned via_float =
        mf::round_to<TypeParam>(static_cast<float>(x)).bits();
    EXPECT_EQ(via_float, twice);  // the float path of the library
    if (once != twice) ++differ;
  }
  EXPECT_GT(differ, 0u) << "no trap input separates one rounding from two";
}

// long double inputs halfway between two neighbouring doubles, on both sides
// of each boundary value and trap: such an input is no double, so a
// conversion through double rounds it to one of them first, and where that
// double is a midpoint or a value of the format, the second rounding goes
// wrong in some mode. Checked in every deterministic mode, in stochastic
// rounding, and in every rounding direction of the caller (the conversion to
// double inside rounds in that direction).
template <class T>
void expect_long_doubles_match_reference(const std::vector<double>& centres) {
  const mfref::reference& ref = mftest::reference_for<T>();
  std::vector<long double> inputs;
  for (double centre : centres) {
    if (!std::isfinite(centre)) continue;
    for (double toward : {-HUGE_VAL, HUGE_VAL}) {
      const double neighbour = std::nextafter(centre, toward);
      if (!std::isfinite(neighbour)) continue;
      inputs.push_back((static_cast<long double>(centre) + neighbour) / 2);
    }
  }
  const long double huge = static_cast<long double>(std::numeric_limits<double>::max()) * 4;
  const long double tiny = static_cast<long double>(0x1p-1074) / 4;
  for (long double x : {huge, -huge, tiny, -tiny}) inputs.push_back(x);
  mftest::mismatch_log log;
  for (int direction : {FE_TONEAREST, FE_TOWARDZERO, FE_UPWARD, FE_DOWNWARD}) {
    ASSERT_EQ(std::fesetround(direction), 0);
    for (long double x : inputs) {
      const auto describe = [&] {
        return std::string(ref.name()) + " direction " + std::to_string(direction) + " input " +
               mftest::describe_input(static_cast<double>(x)) + " + " +
               mftest::describe_input(static_cast<double>(x - static_cast<double>(x)));
      };
      for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
        log.expect_eq(mf::round_to<T>(x, m.rounding, m.overflow).bits(),
                      ref.encode(x, m.ref_rounding, m.ref_overflow),
                      [&] { return describe() + " " + mftest::to_string(m); });
      }
      for (std::uint32_t random : {0u, 0x7FFFFFFFu, 0x80000000u, 0xFFFFFFFFu, 0x12345678u}) {
        log.expect_eq(mf::round_to_stochastic<T>(x, random, mf::overflow::non_saturating, 32).bits(),
                      ref.encode(x, mfref::round_mode::stochastic,
                                 mfref::overflow_mode::non_saturating, random, 32),
                      [&] { return describe() + " stochastic " + std::to_string(random); });
      }
      log.expect_eq(T(x).bits(), mf::round_to<T>(x).bits(), describe);
    }
  }
  ASSERT_EQ(std::fesetround(FE_TONEAREST), 0);
  MFTEST_EXPECT_CLEAN(log, inputs.size() * 4 * (8 + 5 + 1));
}

TYPED_TEST(EncodeDouble, LongDoublesBetweenDoublesRoundOnceAsTheReference) {
  if (std::numeric_limits<long double>::digits <= std::numeric_limits<double>::digits) {
    GTEST_SKIP() << "long double is double on this platform";
  }
  std::vector<double> centres = mfref::boundary_values<double>(mftest::reference_for<TypeParam>());
  const auto traps = mfref::double_rounding_traps(mftest::reference_for<TypeParam>());
  centres.insert(centres.end(), traps.begin(), traps.end());
  // The 16-bit formats have 70,000 and more: a stride through them (a prime,
  // so that it meets every kind of point in turn) keeps the test to ~0.1 s.
  std::vector<double> sample;
  const std::size_t stride = centres.size() > 8000 ? 31 : 1;
  for (std::size_t i = 0; i < centres.size(); i += stride) sample.push_back(centres[i]);
  expect_long_doubles_match_reference<TypeParam>(sample);
}

// The inputs above would round differently through a double rounded to
// nearest (the route that a long double -> double -> format conversion
// takes): proof that the test can tell one rounding from two.
TEST(LongDoubleRounding, ThroughANearestDoubleWouldDifferFromTheReference) {
  if (std::numeric_limits<long double>::digits <= std::numeric_limits<double>::digits) {
    GTEST_SKIP() << "long double is double on this platform";
  }
  // Just above e4m3fn's midpoint 1.0625 by half a double ulp: the nearest
  // double is the midpoint itself (a tie, to even: 1.0), the exact value
  // rounds up (1.125).
  const long double x = 1.0625L + static_cast<long double>(0x1p-53);
  EXPECT_EQ(static_cast<double>(x), 1.0625);
  EXPECT_EQ(mf::round_to<mf::e4m3fn>(static_cast<double>(x)).bits(), 0x38u);
  EXPECT_EQ(mf::e4m3fn(x).bits(), 0x39u);
  EXPECT_EQ(mf::round_to<mf::e4m3fn>(-x).bits(), 0xB9u);
  EXPECT_EQ(mftest::reference_for<mf::e4m3fn>().encode(x, mfref::round_mode::nearest_even), 0x39u);
}

TEST(DoubleRounding, OneAndASixteenthPlusOneUlpRoundsUpInE4m3fn) {
  // 1.0625 is the midpoint of 1 and 1.125 in e4m3fn. The double just above
  // it rounds up; the float it would be rounded to first is the midpoint
  // itself, which ties to even (1.0).
  const double x = std::nextafter(1.0625, 2.0);
  EXPECT_EQ(static_cast<float>(x), 1.0625f);
  EXPECT_EQ(mf::round_to<mf::e4m3fn>(x).bits(), 0x39u);
  EXPECT_EQ(mf::e4m3fn(x).bits(), 0x39u);
  EXPECT_EQ(mf::round_to<mf::e4m3fn>(static_cast<float>(x)).bits(), 0x38u);
  EXPECT_EQ(mf::round_to<mf::e4m3fn>(-x).bits(), 0xB9u);
}

TEST(DoubleRounding, JustBelowTheOverflowTieStaysFinite) {
  // 61440 is the e5m2 midpoint that ties up to Inf. A double a hair below
  // it stays at max, but the nearest float is 61440 itself, so rounding
  // through float would give Inf.
  const double below = 61440.0 - 0x1p-37;
  EXPECT_EQ(static_cast<float>(below), 61440.0f);
  EXPECT_EQ(mf::round_to<mf::e5m2>(below).bits(), 0x7Bu);
  EXPECT_EQ(mf::round_to<mf::e5m2>(static_cast<float>(below)).bits(), 0x7Cu);
  const double above = 464.0 + 0x1p-40;
  EXPECT_EQ(mf::round_to<mf::e4m3fn>(above).bits(), 0x7Fu);
  EXPECT_EQ(mf::round_to<mf::e4m3fn>(above, rounding::nearest_even, overflow::saturating).bits(),
            0x7Eu);
}

}  // namespace
