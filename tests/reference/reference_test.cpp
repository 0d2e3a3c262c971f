// Checks the reference model itself against the numbers the specification
// states, so that the conformance tests compare the library with something
// known to be right.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "reference/reference.hpp"

namespace {

struct stated {
  const char* name;
  double max;
  double min_subnormal;  // the smallest positive value
  unsigned positive_nan;  // canonical NaN for a positive NaN input
  unsigned negative_nan;
};

// Straight from the specification's format list.
const stated kStated[] = {
    {"e4m3fn", 448, 0x1p-9, 0x7F, 0xFF},
    {"e4m3fnuz", 240, 0x1p-10, 0x80, 0x80},
    {"e5m2", 57344, 0x1p-16, 0x7E, 0xFE},
    {"e5m2fnuz", 57344, 0x1p-17, 0x80, 0x80},
    {"e2m1fn", 6, 0.5, 0x7, 0x7},
    {"e2m3fn", 7.5, 0.125, 0x1F, 0x1F},
    {"e3m2fn", 28, 0.0625, 0x1F, 0x1F},
    {"e8m0fnu", 0x1p127, 0x1p-127, 0xFF, 0xFF},
    {"e4m3", 240, 0x1p-9, 0x7C, 0xFC},
    {"e3m4", 15.5, 0x1p-6, 0x78, 0xF8},
    {"e4m3b11fnuz", 30, 0x1p-13, 0x80, 0x80},
    {"binary16", 65504, 0x1p-24, 0x7E00, 0xFE00},
    {"bfloat16", 0x1.FEp127, 0x1p-133, 0x7FC0, 0xFFC0},
};

const mfref::format_spec& spec_named(const std::string& name) {
  for (const auto& spec : mfref::specification_formats()) {
    if (name == spec.name) return spec;
  }
  throw std::invalid_argument(name);
}

TEST(ReferenceModel, MatchesTheStatedMaxMinAndNaNOfEveryFormat) {
  ASSERT_EQ(std::size(kStated), mfref::specification_formats().size());
  for (const stated& s : kStated) {
    SCOPED_TRACE(s.name);
    const mfref::reference ref(spec_named(s.name));
    EXPECT_EQ(ref.max_finite(), s.max);
    EXPECT_EQ(ref.smallest_positive(), s.min_subnormal);
    EXPECT_EQ(ref.nan_code(false), s.positive_nan);
    EXPECT_EQ(ref.nan_code(true), s.negative_nan);
  }
}

TEST(ReferenceModel, CountsOfFiniteValuesFollowFromTheEncodingKinds) {
  // Non-negative finite magnitudes: all magnitude encodings minus those
  // spent on Inf/NaN.
  EXPECT_EQ(mfref::reference(spec_named("e4m3fn")).magnitudes().size(), 127u);
  EXPECT_EQ(mfref::reference(spec_named("e4m3fnuz")).magnitudes().size(), 128u);
  EXPECT_EQ(mfref::reference(spec_named("e5m2")).magnitudes().size(), 124u);
  EXPECT_EQ(mfref::reference(spec_named("e2m1fn")).magnitudes().size(), 8u);
  EXPECT_EQ(mfref::reference(spec_named("e8m0fnu")).magnitudes().size(), 255u);
  EXPECT_EQ(mfref::reference(spec_named("binary16")).magnitudes().size(), 31744u);
}

TEST(ReferenceModel, PinnedBoundariesHoldInTheModel) {
  using mfref::overflow_mode;
  using mfref::round_mode;
  const mfref::reference e4m3fn(spec_named("e4m3fn"));
  EXPECT_EQ(e4m3fn.encode(464.0, round_mode::nearest_even), 0x7Eu);
  EXPECT_EQ(e4m3fn.encode(std::nextafter(464.0, 1e9), round_mode::nearest_even), 0x7Fu);
  EXPECT_EQ(e4m3fn.encode(std::nextafter(464.0, 1e9), round_mode::nearest_even,
                          overflow_mode::saturating),
            0x7Eu);
  const mfref::reference e5m2(spec_named("e5m2"));
  EXPECT_EQ(e5m2.encode(61440.0, round_mode::nearest_even), 0x7Cu);
  EXPECT_EQ(e5m2.encode(std::nextafter(61440.0, 0.0), round_mode::nearest_even), 0x7Bu);
  const mfref::reference e8m0(spec_named("e8m0fnu"));
  EXPECT_EQ(e8m0.encode(1.5, round_mode::nearest_even), 0x80u);
  EXPECT_EQ(e8m0.encode(0x1p-130, round_mode::toward_negative), 0x00u);
  const mfref::reference e2m1(spec_named("e2m1fn"));
  EXPECT_EQ(e2m1.encode(0.25, round_mode::nearest_even), 0x0u);  // tie at 0 -> 0
  EXPECT_EQ(e2m1.encode(-0.25, round_mode::nearest_even), 0x8u);
  EXPECT_EQ(e2m1.encode(1e9, round_mode::nearest_even), 0x7u);
}

TEST(ReferenceModel, SweepAgreesWithBinarySearch) {
  for (const auto& spec : mfref::specification_formats()) {
    SCOPED_TRACE(spec.name);
    const mfref::reference ref(spec);
    mfref::sweeper sweep(ref);
    sweep.seek(0.0);
    std::size_t checked = 0;
    for (double x = 0; x < ref.virtual_next() * 4; x = x * 1.0009765625 + 0x1p-140) {
      sweep.advance(x);
      for (double signed_x : {x, -x}) {
        ASSERT_EQ(sweep.encode(signed_x, mfref::round_mode::nearest_even,
                               mfref::overflow_mode::non_saturating),
                  ref.encode(signed_x, mfref::round_mode::nearest_even))
            << signed_x;
        ++checked;
      }
    }
    EXPECT_GT(checked, 1000u);
  }
}

}  // namespace
