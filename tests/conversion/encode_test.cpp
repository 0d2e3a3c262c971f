// Encoding from float32: every format, every deterministic rounding mode,
// both overflow modes, on the structured boundary set and a strided sweep
// of all float32 bit patterns, against the independent reference; and the
// specification's pinned boundaries and special-value table as named tests.
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
using mftest::hex;

template <class T>
unsigned lib(float x, rounding mode = rounding::nearest_even,
             overflow on_overflow = overflow::non_saturating) {
  return mf::round_to<T>(x, mode, on_overflow).bits();
}

template <class T>
class EncodeFloat : public ::testing::Test {};
TYPED_TEST_SUITE(EncodeFloat, mftest::AllFormats, mftest::format_names);

TYPED_TEST(EncodeFloat, BoundarySetRoundsAsTheReferenceInEveryMode) {
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  const std::vector<float> inputs = mfref::boundary_values<float>(ref);
  mftest::mismatch_log log;
  for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
    for (float x : inputs) {
      log.expect_eq(lib<TypeParam>(x, m.rounding, m.overflow),
                    ref.encode(x, m.ref_rounding, m.ref_overflow), [&] {
                      return std::string(ref.name()) + " " + mftest::to_string(m) +
                             " input " + mftest::describe_input(x);
                    });
    }
  }
  MFTEST_EXPECT_CLEAN(log, inputs.size() * 8);
}

TYPED_TEST(EncodeFloat, StridedSweepOverAllFloat32PatternsRoundsAsTheReference) {
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  const auto& modes = mftest::deterministic_modes();
  mftest::mismatch_log log;
  // Within each sign half the bit patterns grow in magnitude, so the
  // reference's sweep follows them; it restarts at the negative half.
  mfref::sweeper sweep(ref);
  sweep.seek(0.0);
  bool negative_half = false;
  mfref::for_each_strided_float_bits(4099, [&](std::uint32_t bits) {
    const float x = mfref::from_bits<float>(bits);
    const bool finite = std::isfinite(x);
    if (!negative_half && (bits >> 31) != 0) {
      negative_half = true;
      sweep.seek(0.0);
    }
    if (finite) sweep.advance(static_cast<double>(std::fabs(x)));
    for (float input : {x, -x}) {
      for (const mftest::mode_pair& m : modes) {
        const unsigned want = finite ? sweep.encode(static_cast<double>(input), m.ref_rounding,
                                                    m.ref_overflow)
                                     : ref.encode(input, m.ref_rounding, m.ref_overflow);
        log.expect_eq(lib<TypeParam>(input, m.rounding, m.overflow), want, [&] {
          return std::string(ref.name()) + " " + mftest::to_string(m) + " input " +
                 mftest::describe_input(input);
        });
      }
    }
  });
  MFTEST_EXPECT_CLEAN(log, 2u * 8u * 1000000u);
}

TYPED_TEST(EncodeFloat, EveryFloatSubnormalSampleRoundsAsTheReference) {
  // Float subnormals lie far below every format's smallest value except
  // bfloat16's (which shares float's range) and e8m0fnu's 2^-127.
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  mftest::mismatch_log log;
  for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
    for (float sub : mfref::subnormal_samples<float>()) {
      for (float x : {sub, -sub}) {
        log.expect_eq(lib<TypeParam>(x, m.rounding, m.overflow),
                      ref.encode(x, m.ref_rounding, m.ref_overflow), [&] {
                        return std::string(ref.name()) + " " + mftest::to_string(m) +
                               " input " + mftest::describe_input(x);
                      });
      }
    }
  }
  MFTEST_EXPECT_CLEAN(log, 8 * 2 * 1000);
}

// ---- pinned boundaries (nearest even, non-saturating unless named) -----

const float kInf = std::numeric_limits<float>::infinity();

TEST(PinnedBoundaries, E4m3fn464RoundsDownTo448AndAnythingAboveIsNaN) {
  EXPECT_EQ(lib<mf::e4m3fn>(464.0f), 0x7Eu);
  EXPECT_EQ(lib<mf::e4m3fn>(std::nextafter(464.0f, kInf)), 0x7Fu);
  EXPECT_EQ(lib<mf::e4m3fn>(-464.0f), 0xFEu);
  EXPECT_EQ(lib<mf::e4m3fn>(-std::nextafter(464.0f, kInf)), 0xFFu);
  EXPECT_EQ(lib<mf::e4m3fn>(1e9f), 0x7Fu);
}

TEST(PinnedBoundaries, E4m3fnAbove464SaturatesTo448) {
  EXPECT_EQ(lib<mf::e4m3fn>(std::nextafter(464.0f, kInf), rounding::nearest_even,
                            overflow::saturating),
            0x7Eu);
  EXPECT_EQ(lib<mf::e4m3fn>(-1e9f, rounding::nearest_even, overflow::saturating), 0xFEu);
}

TEST(PinnedBoundaries, E5m2At61440IsInfinityJustBelowIsMax) {
  EXPECT_EQ(lib<mf::e5m2>(61440.0f), 0x7Cu);
  EXPECT_EQ(lib<mf::e5m2>(-61440.0f), 0xFCu);
  EXPECT_EQ(lib<mf::e5m2>(std::nextafter(61440.0f, 0.0f)), 0x7Bu);
  EXPECT_EQ(static_cast<float>(mf::e5m2::from_bits(0x7B)), 57344.0f);
  EXPECT_EQ(lib<mf::e5m2>(61440.0f, rounding::nearest_even, overflow::saturating), 0x7Bu);
}

TEST(PinnedBoundaries, E4m3fnuzAt248IsNaNJustBelowIs240) {
  EXPECT_EQ(lib<mf::e4m3fnuz>(248.0f), 0x80u);
  EXPECT_EQ(lib<mf::e4m3fnuz>(-248.0f), 0x80u);
  EXPECT_EQ(lib<mf::e4m3fnuz>(std::nextafter(248.0f, 0.0f)), 0x7Fu);
  EXPECT_EQ(static_cast<float>(mf::e4m3fnuz::from_bits(0x7F)), 240.0f);
  EXPECT_EQ(lib<mf::e4m3fnuz>(248.0f, rounding::nearest_even, overflow::saturating), 0x7Fu);
}

TEST(PinnedBoundaries, E5m2fnuzAt61440IsNaN) {
  EXPECT_EQ(lib<mf::e5m2fnuz>(61440.0f), 0x80u);
  EXPECT_EQ(lib<mf::e5m2fnuz>(std::nextafter(61440.0f, 0.0f)), 0x7Fu);
  EXPECT_EQ(lib<mf::e5m2fnuz>(61440.0f, rounding::nearest_even, overflow::saturating), 0x7Fu);
}

TEST(PinnedBoundaries, TowardZeroGivesMaxFiniteAtEveryBoundary) {
  for (overflow o : {overflow::non_saturating, overflow::saturating}) {
    EXPECT_EQ(lib<mf::e4m3fn>(464.0f, rounding::toward_zero, o), 0x7Eu);
    EXPECT_EQ(lib<mf::e4m3fn>(1e9f, rounding::toward_zero, o), 0x7Eu);
    EXPECT_EQ(lib<mf::e4m3fn>(-1e9f, rounding::toward_zero, o), 0xFEu);
    EXPECT_EQ(lib<mf::e5m2>(61440.0f, rounding::toward_zero, o), 0x7Bu);
    EXPECT_EQ(lib<mf::e5m2>(-1e9f, rounding::toward_zero, o), 0xFBu);
    EXPECT_EQ(lib<mf::e4m3fnuz>(248.0f, rounding::toward_zero, o), 0x7Fu);
    EXPECT_EQ(lib<mf::e4m3fnuz>(-248.0f, rounding::toward_zero, o), 0xFFu);
    EXPECT_EQ(lib<mf::e5m2fnuz>(61440.0f, rounding::toward_zero, o), 0x7Fu);
  }
}

// ---- overflow in the directed modes ------------------------------------

TEST(DirectedOverflow, TowardPositiveOverflowsPositivesAndClampsNegatives) {
  EXPECT_EQ(lib<mf::e5m2>(1e6f, rounding::toward_positive), 0x7Cu);   // +Inf
  EXPECT_EQ(lib<mf::e5m2>(-1e6f, rounding::toward_positive), 0xFBu);  // -max
  EXPECT_EQ(lib<mf::e5m2>(std::nextafter(57344.0f, kInf), rounding::toward_positive), 0x7Cu);
  EXPECT_EQ(lib<mf::e4m3fn>(1e6f, rounding::toward_positive), 0x7Fu);   // NaN: no Inf
  EXPECT_EQ(lib<mf::e4m3fn>(-1e6f, rounding::toward_positive), 0xFEu);  // -max
  EXPECT_EQ(lib<mf::e4m3fnuz>(241.0f, rounding::toward_positive), 0x80u);
}

TEST(DirectedOverflow, TowardNegativeIsTheMirror) {
  EXPECT_EQ(lib<mf::e5m2>(-1e6f, rounding::toward_negative), 0xFCu);  // -Inf
  EXPECT_EQ(lib<mf::e5m2>(1e6f, rounding::toward_negative), 0x7Bu);   // +max
  EXPECT_EQ(lib<mf::e4m3fn>(-1e6f, rounding::toward_negative), 0xFFu);
  EXPECT_EQ(lib<mf::e4m3fn>(1e6f, rounding::toward_negative), 0x7Eu);
  EXPECT_EQ(lib<mf::e4m3fnuz>(-241.0f, rounding::toward_negative), 0x80u);
}

TEST(DirectedOverflow, SaturatingGivesMaxInEveryMode) {
  for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
    if (m.overflow != overflow::saturating) continue;
    SCOPED_TRACE(mftest::to_string(m));
    EXPECT_EQ(lib<mf::e5m2>(1e6f, m.rounding, m.overflow), 0x7Bu);
    EXPECT_EQ(lib<mf::e5m2>(-1e6f, m.rounding, m.overflow), 0xFBu);
    EXPECT_EQ(lib<mf::e4m3fn>(1e6f, m.rounding, m.overflow), 0x7Eu);
    EXPECT_EQ(lib<mf::e4m3fnuz>(-1e6f, m.rounding, m.overflow), 0xFFu);
    EXPECT_EQ(lib<mf::bfloat16>(3.4e38f, m.rounding, m.overflow), 0x7F7Fu);
    EXPECT_EQ(lib<mf::bfloat16>(-3.4e38f, m.rounding, m.overflow), 0xFF7Fu);
  }
}

TEST(MxElementTypes, FiniteOverflowGivesMaxInEveryMode) {
  for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
    SCOPED_TRACE(mftest::to_string(m));
    EXPECT_EQ(lib<mf::e2m1fn>(7.0f, m.rounding, m.overflow), 0x7u);
    EXPECT_EQ(lib<mf::e2m1fn>(-7.0f, m.rounding, m.overflow), 0xFu);
    EXPECT_EQ(lib<mf::e2m1fn>(1e30f, m.rounding, m.overflow), 0x7u);
    EXPECT_EQ(lib<mf::e2m1fn>(-1e30f, m.rounding, m.overflow), 0xFu);
    EXPECT_EQ(lib<mf::e2m3fn>(1e30f, m.rounding, m.overflow), 0x1Fu);
    EXPECT_EQ(lib<mf::e2m3fn>(-8.0f, m.rounding, m.overflow), 0x3Fu);
    EXPECT_EQ(lib<mf::e3m2fn>(30.0f, m.rounding, m.overflow), 0x1Fu);
    EXPECT_EQ(lib<mf::e3m2fn>(-1e30f, m.rounding, m.overflow), 0x3Fu);
  }
}

TEST(MxElementTypes, SubByteFormatsOccupyTheLowBits) {
  EXPECT_EQ(lib<mf::e2m1fn>(-6.0f), 0xFu);
  EXPECT_EQ(lib<mf::e2m1fn>(-0.5f), 0x9u);
  EXPECT_EQ(lib<mf::e2m3fn>(-7.5f), 0x3Fu);
  EXPECT_EQ(lib<mf::e3m2fn>(-28.0f), 0x3Fu);
  EXPECT_EQ(lib<mf::e3m2fn>(-0.0625f), 0x21u);
}

// ---- special inputs ------------------------------------------------------

struct special_row {
  unsigned pos_zero, neg_zero, pos_nan, neg_nan;
  unsigned pos_inf, neg_inf;          // non-saturating
  unsigned pos_inf_sat, neg_inf_sat;  // saturating
};

// The specification's table of special inputs, one row per format.
template <class T>
void expect_special_row(const special_row& row) {
  SCOPED_TRACE(mftest::spec_for<T>::value.name);
  const auto modes = {rounding::nearest_even, rounding::toward_zero,
                      rounding::toward_positive, rounding::toward_negative};
  for (rounding mode : modes) {
    SCOPED_TRACE(static_cast<int>(mode));
    for (overflow o : {overflow::non_saturating, overflow::saturating}) {
      const bool sat = o == overflow::saturating;
      EXPECT_EQ(lib<T>(0.0f, mode, o), row.pos_zero);
      EXPECT_EQ(lib<T>(-0.0f, mode, o), row.neg_zero);
      for (float nan : mfref::nan_inputs<float>()) {
        EXPECT_EQ(lib<T>(nan, mode, o), std::signbit(nan) ? row.neg_nan : row.pos_nan)
            << hex(mfref::bits_of(nan));
      }
      for (double nan : mfref::nan_inputs<double>()) {
        EXPECT_EQ(mf::round_to<T>(nan, mode, o).bits(),
                  std::signbit(nan) ? row.neg_nan : row.pos_nan)
            << hex(mfref::bits_of(nan));
      }
      EXPECT_EQ(lib<T>(kInf, mode, o), sat ? row.pos_inf_sat : row.pos_inf);
      EXPECT_EQ(lib<T>(-kInf, mode, o), sat ? row.neg_inf_sat : row.neg_inf);
      EXPECT_EQ(mf::round_to<T>(static_cast<double>(kInf), mode, o).bits(),
                sat ? row.pos_inf_sat : row.pos_inf);
      EXPECT_EQ(mf::round_to<T>(-static_cast<double>(kInf), mode, o).bits(),
                sat ? row.neg_inf_sat : row.neg_inf);
    }
  }
  // The default constructor rounding (nearest even, non-saturating).
  EXPECT_EQ(T(-kInf).bits(), row.neg_inf);
  EXPECT_EQ(T(std::numeric_limits<float>::quiet_NaN()).bits(), row.pos_nan);
}

TEST(SpecialInputs, FollowTheSpecificationTable) {
  //                          +0    -0    +NaN  -NaN  +Inf  -Inf  +Inf  -Inf (sat)
  expect_special_row<mf::e4m3fn>({0x00, 0x80, 0x7F, 0xFF, 0x7F, 0xFF, 0x7E, 0xFE});
  expect_special_row<mf::e4m3fnuz>({0x00, 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80});
  expect_special_row<mf::e5m2>({0x00, 0x80, 0x7E, 0xFE, 0x7C, 0xFC, 0x7B, 0xFB});
  expect_special_row<mf::e5m2fnuz>({0x00, 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80});
  expect_special_row<mf::e2m1fn>({0x0, 0x8, 0x7, 0x7, 0x7, 0xF, 0x7, 0xF});
  expect_special_row<mf::e2m3fn>({0x00, 0x20, 0x1F, 0x1F, 0x1F, 0x3F, 0x1F, 0x3F});
  expect_special_row<mf::e3m2fn>({0x00, 0x20, 0x1F, 0x1F, 0x1F, 0x3F, 0x1F, 0x3F});
  expect_special_row<mf::e8m0fnu>({0x00, 0x00, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 0xFF});
  expect_special_row<mf::e4m3>({0x00, 0x80, 0x7C, 0xFC, 0x78, 0xF8, 0x77, 0xF7});
  expect_special_row<mf::e3m4>({0x00, 0x80, 0x78, 0xF8, 0x70, 0xF0, 0x6F, 0xEF});
  expect_special_row<mf::e4m3b11fnuz>({0x00, 0x00, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80});
  expect_special_row<mf::binary16>(
      {0x0000, 0x8000, 0x7E00, 0xFE00, 0x7C00, 0xFC00, 0x7BFF, 0xFBFF});
  expect_special_row<mf::bfloat16>(
      {0x0000, 0x8000, 0x7FC0, 0xFFC0, 0x7F80, 0xFF80, 0x7F7F, 0xFF7F});
}

TEST(SpecialInputs, StochasticRoundingKeepsTheSpecialTable) {
  for (std::uint32_t r : {0u, 0xFFFFFFFFu}) {
    EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(-0.0f, r).bits(), 0x80u);
    EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fnuz>(-0.0f, r).bits(), 0x00u);
    EXPECT_EQ(mf::round_to_stochastic<mf::e5m2>(-kInf, r).bits(), 0xFCu);
    EXPECT_EQ(mf::round_to_stochastic<mf::e5m2>(kInf, r, overflow::saturating).bits(), 0x7Bu);
    EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(std::nanf(""), r).bits(), 0x7Fu);
    EXPECT_EQ(mf::round_to_stochastic<mf::e2m1fn>(-std::nanf(""), r).bits(), 0x7u);
    EXPECT_EQ(mf::round_to_stochastic<mf::e8m0fnu>(kInf, r, overflow::saturating).bits(), 0xFEu);
    EXPECT_EQ(mf::round_to_stochastic<mf::e8m0fnu>(-kInf, r, overflow::saturating).bits(), 0xFFu);
  }
}

// ---- FNUZ: no negative zero -----------------------------------------------

template <class T>
void expect_negative_underflow_gives_zero() {
  SCOPED_TRACE(mftest::spec_for<T>::value.name);
  const float smallest = static_cast<float>(T::from_bits(1));
  const float tiny[] = {smallest / 4, smallest / 2, std::nextafter(smallest / 2, 0.0f),
                        std::numeric_limits<float>::denorm_min(), 1e-30f, 0.0f};
  for (float t : tiny) {
    for (rounding mode : {rounding::nearest_even, rounding::toward_zero,
                          rounding::toward_positive}) {
      EXPECT_EQ(lib<T>(-t, mode), 0x00u) << t;
      EXPECT_EQ(mf::round_to<T>(-static_cast<double>(t), mode).bits(), 0x00u) << t;
    }
    EXPECT_EQ(mf::round_to_stochastic<T>(-t, 0u).bits(), 0x00u) << t;
  }
  // Toward -inf a negative tiny value goes to -smallest, not to zero.
  EXPECT_EQ(lib<T>(-smallest / 4, rounding::toward_negative), 0x81u);
}

TEST(FnuzFormats, NegativeValuesThatRoundToZeroGiveZeroNeverNaN) {
  expect_negative_underflow_gives_zero<mf::e4m3fnuz>();
  expect_negative_underflow_gives_zero<mf::e5m2fnuz>();
  expect_negative_underflow_gives_zero<mf::e4m3b11fnuz>();
}

// ---- E8M0FNU ------------------------------------------------------------------

const rounding kAllModes[] = {rounding::nearest_even, rounding::toward_zero,
                              rounding::toward_positive, rounding::toward_negative};

TEST(E8m0fnu, ValuesBelowTwoToTheMinus127GiveTheSmallestEncodingInEveryMode) {
  const float below[] = {0.0f,     -0.0f,   0x1p-128f, 0x1.8p-128f,
                         0x1.FFFFFCp-128f, 0x1p-149f, 0x1p-140f};
  for (rounding mode : kAllModes) {
    for (overflow o : {overflow::non_saturating, overflow::saturating}) {
      for (float x : below) {
        EXPECT_EQ(lib<mf::e8m0fnu>(x, mode, o), 0x00u) << x;
        EXPECT_EQ(mf::round_to<mf::e8m0fnu>(static_cast<double>(x), mode, o).bits(), 0x00u);
      }
      EXPECT_EQ(mf::round_to<mf::e8m0fnu>(0x1p-1000, mode, o).bits(), 0x00u);
      EXPECT_EQ(mf::round_to<mf::e8m0fnu>(0, mode, o).bits(), 0x00u);
    }
  }
  for (std::uint32_t r : {0u, 0x80000000u, 0xFFFFFFFFu}) {
    EXPECT_EQ(mf::round_to_stochastic<mf::e8m0fnu>(0x1p-130f, r).bits(), 0x00u);
  }
}

TEST(E8m0fnu, NegativeValuesAndNegativeInfinityAreNaNInEveryMode) {
  const float negatives[] = {-1.0f, -0x1p-130f, -0x1p-149f, -3e38f, -kInf, -0x1p127f};
  for (rounding mode : kAllModes) {
    for (overflow o : {overflow::non_saturating, overflow::saturating}) {
      for (float x : negatives) {
        EXPECT_EQ(lib<mf::e8m0fnu>(x, mode, o), 0xFFu) << x;
        EXPECT_EQ(mf::round_to<mf::e8m0fnu>(static_cast<double>(x), mode, o).bits(), 0xFFu);
      }
      EXPECT_EQ(mf::round_to<mf::e8m0fnu>(-1, mode, o).bits(), 0xFFu);
      EXPECT_EQ(mf::round_to<mf::e8m0fnu>(-1e-300, mode, o).bits(), 0xFFu);
    }
  }
  EXPECT_EQ(mf::round_to_stochastic<mf::e8m0fnu>(-2.5f, 0u).bits(), 0xFFu);
}

TEST(E8m0fnu, NearestEvenRoundsTheMidpointOneAndAHalfTimesAPowerOfTwoUp) {
  for (int k = -126; k <= 126; ++k) {
    const float mid = std::ldexp(1.5f, k);
    EXPECT_EQ(lib<mf::e8m0fnu>(mid), static_cast<unsigned>(k + 1 + 127)) << k;
    EXPECT_EQ(lib<mf::e8m0fnu>(std::nextafter(mid, 0.0f)), static_cast<unsigned>(k + 127)) << k;
  }
  EXPECT_EQ(lib<mf::e8m0fnu>(0x1.8p-127f), 0x01u);
}

TEST(E8m0fnu, DirectedModesTakeFloorOrCeilingPowerOfTwo) {
  const float x = 5.0f;  // between 2^2 (0x81) and 2^3 (0x82)
  EXPECT_EQ(lib<mf::e8m0fnu>(x, rounding::toward_zero), 0x81u);
  EXPECT_EQ(lib<mf::e8m0fnu>(x, rounding::toward_negative), 0x81u);
  EXPECT_EQ(lib<mf::e8m0fnu>(x, rounding::toward_positive), 0x82u);
  EXPECT_EQ(lib<mf::e8m0fnu>(7.9f, rounding::nearest_even), 0x82u);
  EXPECT_EQ(lib<mf::e8m0fnu>(4.0f, rounding::toward_positive), 0x81u);
  EXPECT_EQ(lib<mf::e8m0fnu>(0x1.000004p-127f, rounding::toward_positive), 0x01u);
}

TEST(E8m0fnu, OverflowFollowsTheOverflowMode) {
  EXPECT_EQ(lib<mf::e8m0fnu>(0x1.8p127f), 0xFFu);  // midpoint rounds up, past max
  EXPECT_EQ(lib<mf::e8m0fnu>(0x1.7FFFFEp127f), 0xFEu);
  EXPECT_EQ(lib<mf::e8m0fnu>(0x1.8p127f, rounding::nearest_even, overflow::saturating), 0xFEu);
  EXPECT_EQ(lib<mf::e8m0fnu>(0x1.FFFFFEp127f, rounding::toward_zero), 0xFEu);
  EXPECT_EQ(lib<mf::e8m0fnu>(0x1.000002p127f, rounding::toward_positive), 0xFFu);
  EXPECT_EQ(mf::round_to<mf::e8m0fnu>(0x1p200, rounding::toward_zero).bits(), 0xFEu);
  EXPECT_EQ(mf::round_to<mf::e8m0fnu>(0x1p200).bits(), 0xFFu);
}

}  // namespace
