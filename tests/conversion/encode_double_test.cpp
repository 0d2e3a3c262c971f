// Encoding from double: rounds once, directly from the double, never
// through float.
#include <gtest/gtest.h>

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
