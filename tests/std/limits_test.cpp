// std::numeric_limits: every member, for every format, against values found
// by brute force over all encodings with the independent decoder (never the
// library's own format traits).
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include <minifloat/minifloat.hpp>

#include "support/format_catalog.hpp"

namespace {

using mft::decoded;
using mft::value_class;

// Facts about a format, found by scanning every encoding.
template <class T>
struct brute_force {
  double max = -INFINITY, lowest = INFINITY, min_normal = INFINITY,
         min_positive = INFINITY, epsilon = 0;
  std::uint32_t max_bits = 0, lowest_bits = 0, min_normal_bits = 0, min_positive_bits = 0;
  bool any_negative = false, any_infinity = false, any_subnormal = false, any_nan = false;
  int nans_with_sign_clear = 0;
  int digits = 0;

  brute_force() {
    std::vector<double> values;
    for (std::uint32_t bits = 0; bits < mft::params<T>::count; ++bits) {
      const decoded d = mft::reference_decode<T>(bits);
      if (d.cls == value_class::nan) {
        any_nan = true;
        if (!d.sign_bit) ++nans_with_sign_clear;
        continue;
      }
      if (d.cls == value_class::infinite) {
        any_infinity = true;
        continue;
      }
      values.push_back(d.value);
      if (d.value < 0) any_negative = true;
      if (d.value > max) max = d.value, max_bits = bits;
      if (d.value < lowest) lowest = d.value, lowest_bits = bits;
      if (d.value > 0 && d.value < min_positive) min_positive = d.value, min_positive_bits = bits;
      if (d.cls == value_class::normal && d.value > 0 && d.value < min_normal) {
        min_normal = d.value, min_normal_bits = bits;
      }
      if (d.cls == value_class::subnormal) any_subnormal = true;
    }
    // epsilon: the next value after 1, minus 1.
    double next_after_one = INFINITY;
    for (const double v : values) {
      if (v > 1.0 && v < next_after_one) next_after_one = v;
    }
    epsilon = next_after_one - 1.0;
    // digits: epsilon = 2^(1 - digits).
    digits = 1 - std::ilogb(epsilon);
  }
};

template <class T>
class Limits : public ::testing::Test {};
TYPED_TEST_SUITE(Limits, mft::all_formats, mft::format_names);

template <class T>
void expect_value(T actual, double expected_value, std::uint32_t expected_bits) {
  EXPECT_EQ(static_cast<double>(actual), expected_value) << mft::format_name<T>();
  EXPECT_EQ(actual.bits(), expected_bits) << mft::format_name<T>();
}

TYPED_TEST(Limits, MaxIsTheLargestFiniteValue) {
  using T = TypeParam;
  const brute_force<T> facts;
  expect_value(std::numeric_limits<T>::max(), facts.max, facts.max_bits);
}

TYPED_TEST(Limits, LowestIsTheMostNegativeFiniteValue) {
  using T = TypeParam;
  const brute_force<T> facts;
  expect_value(std::numeric_limits<T>::lowest(), facts.lowest, facts.lowest_bits);
}

TYPED_TEST(Limits, MinIsTheSmallestPositiveNormalValue) {
  using T = TypeParam;
  const brute_force<T> facts;
  expect_value(std::numeric_limits<T>::min(), facts.min_normal, facts.min_normal_bits);
}

TYPED_TEST(Limits, DenormMinIsTheSmallestPositiveValue) {
  using T = TypeParam;
  const brute_force<T> facts;
  expect_value(std::numeric_limits<T>::denorm_min(), facts.min_positive,
               facts.min_positive_bits);
}

TYPED_TEST(Limits, EpsilonIsTheGapBetweenOneAndTheNextValue) {
  using T = TypeParam;
  const brute_force<T> facts;
  EXPECT_EQ(static_cast<double>(std::numeric_limits<T>::epsilon()), facts.epsilon);
}

TYPED_TEST(Limits, RoundErrorIsOneHalfForRoundToNearest) {
  using T = TypeParam;
  EXPECT_EQ(std::numeric_limits<T>::round_style, std::round_to_nearest);
  EXPECT_EQ(static_cast<double>(std::numeric_limits<T>::round_error()), 0.5);
}

TYPED_TEST(Limits, DigitsCountTheSignificandBits) {
  using T = TypeParam;
  const brute_force<T> facts;
  EXPECT_EQ(std::numeric_limits<T>::digits, facts.digits);
  EXPECT_EQ(std::numeric_limits<T>::radix, 2);
}

TYPED_TEST(Limits, Digits10IsFloorOfDigitsMinusOneTimesLog10Of2) {
  using T = TypeParam;
  const int digits = brute_force<T>().digits;
  EXPECT_EQ(std::numeric_limits<T>::digits10,
            static_cast<int>(std::floor((digits - 1) * std::log10(2.0))));
}

TYPED_TEST(Limits, MaxDigits10IsCeilOfOnePlusDigitsTimesLog10Of2) {
  using T = TypeParam;
  const int digits = brute_force<T>().digits;
  EXPECT_EQ(std::numeric_limits<T>::max_digits10,
            static_cast<int>(std::ceil(1 + digits * std::log10(2.0))));
}

// C's convention: the smallest normal is 2^(min_exponent - 1) and every
// finite value is below 2^max_exponent.
TYPED_TEST(Limits, MinExponentPlacesTheSmallestNormalAtTwoToMinExponentMinusOne) {
  using T = TypeParam;
  const brute_force<T> facts;
  EXPECT_EQ(std::ldexp(1.0, std::numeric_limits<T>::min_exponent - 1), facts.min_normal);
}

TYPED_TEST(Limits, MaxExponentIsTheSmallestPowerOfTwoAboveMax) {
  using T = TypeParam;
  const brute_force<T> facts;
  const int e = std::numeric_limits<T>::max_exponent;
  EXPECT_LT(facts.max, std::ldexp(1.0, e));
  EXPECT_GE(facts.max, std::ldexp(1.0, e - 1));
}

// min_exponent10: the smallest k such that 10^k is at least the smallest
// normal (C: the smallest negative k with 10^k normal).
TYPED_TEST(Limits, MinExponent10IsTheSmallestPowerOfTenThatIsNormal) {
  using T = TypeParam;
  const brute_force<T> facts;
  const int k = std::numeric_limits<T>::min_exponent10;
  EXPECT_GE(std::pow(10.0L, k), static_cast<long double>(facts.min_normal));
  EXPECT_LT(std::pow(10.0L, k - 1), static_cast<long double>(facts.min_normal));
}

TYPED_TEST(Limits, MaxExponent10IsTheLargestPowerOfTenThatIsFinite) {
  using T = TypeParam;
  const brute_force<T> facts;
  const int k = std::numeric_limits<T>::max_exponent10;
  EXPECT_LE(std::pow(10.0L, k), static_cast<long double>(facts.max));
  EXPECT_GT(std::pow(10.0L, k + 1), static_cast<long double>(facts.max));
}

TYPED_TEST(Limits, HasInfinityExactlyWhenAnEncodingIsInfinite) {
  using T = TypeParam;
  EXPECT_EQ(std::numeric_limits<T>::has_infinity, brute_force<T>().any_infinity);
}

TYPED_TEST(Limits, HasQuietNanExactlyWhenAnEncodingIsNan) {
  using T = TypeParam;
  EXPECT_EQ(std::numeric_limits<T>::has_quiet_NaN, brute_force<T>().any_nan);
}

// Signalling NaNs need a second NaN encoding per sign to tell apart: only
// the IEEE-style formats have one (mantissa top bit clear).
TYPED_TEST(Limits, HasSignalingNanExactlyWhenThereAreSeveralNansPerSign) {
  using T = TypeParam;
  EXPECT_EQ(std::numeric_limits<T>::has_signaling_NaN, brute_force<T>().nans_with_sign_clear > 1);
}

TYPED_TEST(Limits, HasDenormExactlyWhenThereAreSubnormals) {
  using T = TypeParam;
  EXPECT_EQ(std::numeric_limits<T>::has_denorm,
            brute_force<T>().any_subnormal ? std::denorm_present : std::denorm_absent);
  EXPECT_FALSE(std::numeric_limits<T>::has_denorm_loss);
}

TYPED_TEST(Limits, IsSignedExactlyWhenThereAreNegativeValues) {
  using T = TypeParam;
  EXPECT_EQ(std::numeric_limits<T>::is_signed, brute_force<T>().any_negative);
}

TYPED_TEST(Limits, OnlyBinary16IsIec559) {
  using T = TypeParam;
  EXPECT_EQ(std::numeric_limits<T>::is_iec559, (std::is_same<T, mf::binary16>::value));
}

TYPED_TEST(Limits, DescribeABoundedInexactNonModularNonTrappingFloatingType) {
  using T = TypeParam;
  using L = std::numeric_limits<T>;
  EXPECT_TRUE(L::is_specialized);
  EXPECT_FALSE(L::is_integer);
  EXPECT_FALSE(L::is_exact);
  EXPECT_TRUE(L::is_bounded);
  EXPECT_FALSE(L::is_modulo);
  EXPECT_FALSE(L::traps);
  EXPECT_FALSE(L::tinyness_before);
  // cv-qualified types see the same specialisation.
  EXPECT_EQ(std::numeric_limits<const T>::digits, L::digits);
  EXPECT_EQ(std::numeric_limits<const volatile T>::max().bits(), L::max().bits());
}

// infinity() and quiet_NaN() are, where the format has them, its Inf and its
// canonical NaN; where it has not, what converting float's Inf or NaN gives
// (the special-input table, docs/semantics.md 3.6).
TYPED_TEST(Limits, InfinityIsTheInfinityOrTheConversionOfFloatInfinity) {
  using T = TypeParam;
  const T inf = std::numeric_limits<T>::infinity();
  EXPECT_EQ(inf.bits(), static_cast<T>(std::numeric_limits<float>::infinity()).bits());
  const mft::decoded d = mft::reference_decode<T>(inf.bits());
  if (std::numeric_limits<T>::has_infinity) {
    EXPECT_EQ(d.cls, value_class::infinite);
    EXPECT_FALSE(d.sign_bit);
  }
}

TYPED_TEST(Limits, QuietNanIsTheCanonicalNanOrTheConversionOfFloatNan) {
  using T = TypeParam;
  const T nan = std::numeric_limits<T>::quiet_NaN();
  EXPECT_EQ(nan.bits(), static_cast<T>(std::numeric_limits<float>::quiet_NaN()).bits());
  if (std::numeric_limits<T>::has_quiet_NaN) {
    EXPECT_TRUE(mft::is_canonical_nan<T>(nan.bits()));
    EXPECT_FALSE(std::signbit(static_cast<float>(nan)));
  }
}

TYPED_TEST(Limits, SignalingNanIsANanWithTheQuietBitClearWhereThereIsOne) {
  using T = TypeParam;
  using p = mft::params<T>;
  const T snan = std::numeric_limits<T>::signaling_NaN();
  if (std::numeric_limits<T>::has_signaling_NaN) {
    EXPECT_EQ(mft::reference_decode<T>(snan.bits()).cls, value_class::nan);
    EXPECT_EQ(snan.bits() & (1u << (p::mantissa_bits - 1)), 0u);
  } else {
    EXPECT_EQ(snan.bits(), std::numeric_limits<T>::quiet_NaN().bits());
  }
}

// The special-input table (docs/semantics.md 3.6), where a format lacks Inf
// or NaN.
TEST(LimitsWithoutInfinity, InfinityAndNanFollowTheCastTable) {
  EXPECT_EQ(std::numeric_limits<mf::e4m3fn>::infinity().bits(), 0x7F);
  EXPECT_EQ(std::numeric_limits<mf::e4m3fn>::quiet_NaN().bits(), 0x7F);
  EXPECT_EQ(std::numeric_limits<mf::e4m3fnuz>::infinity().bits(), 0x80);
  EXPECT_EQ(std::numeric_limits<mf::e5m2fnuz>::quiet_NaN().bits(), 0x80);
  EXPECT_EQ(std::numeric_limits<mf::e2m1fn>::infinity().bits(), 0x07);   // +max
  EXPECT_EQ(std::numeric_limits<mf::e2m1fn>::quiet_NaN().bits(), 0x07);  // +max
  EXPECT_EQ(std::numeric_limits<mf::e2m3fn>::infinity().bits(), 0x1F);
  EXPECT_EQ(std::numeric_limits<mf::e3m2fn>::quiet_NaN().bits(), 0x1F);
  EXPECT_EQ(std::numeric_limits<mf::e8m0fnu>::infinity().bits(), 0xFF);
  EXPECT_EQ(std::numeric_limits<mf::e8m0fnu>::quiet_NaN().bits(), 0xFF);
  EXPECT_EQ(std::numeric_limits<mf::e5m2>::infinity().bits(), 0x7C);
  EXPECT_EQ(std::numeric_limits<mf::e5m2>::quiet_NaN().bits(), 0x7E);
}

// The format table (README.md, docs/formats/), as numbers.
TEST(LimitsOfTheNamedFormats, MatchTheFormatTable) {
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e4m3fn>::max()), 448.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e4m3fn>::denorm_min()), 0x1p-9f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e4m3fnuz>::max()), 240.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e4m3fnuz>::denorm_min()), 0x1p-10f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e5m2>::max()), 57344.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e5m2>::denorm_min()), 0x1p-16f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e5m2fnuz>::max()), 57344.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e5m2fnuz>::denorm_min()), 0x1p-17f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e2m1fn>::max()), 6.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e2m1fn>::denorm_min()), 0.5f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e2m3fn>::max()), 7.5f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e2m3fn>::denorm_min()), 0.125f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e3m2fn>::max()), 28.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e3m2fn>::denorm_min()), 0.0625f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e8m0fnu>::max()), 0x1p127f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e8m0fnu>::min()), 0x1p-127f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e8m0fnu>::lowest()), 0x1p-127f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e4m3>::max()), 240.0f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e3m4>::max()), 15.5f);
  EXPECT_EQ(static_cast<float>(std::numeric_limits<mf::e4m3b11fnuz>::max()), 30.0f);
}

// binary16 is IEEE 754's binary16: its limits are the C constants of
// _Float16 (FLT16_* in C23), which the values below restate.
TEST(LimitsOfBinary16, AreThoseOfIeeeBinary16) {
  using L = std::numeric_limits<mf::binary16>;
  EXPECT_EQ(L::digits, 11);
  EXPECT_EQ(L::digits10, 3);
  EXPECT_EQ(L::max_digits10, 5);
  EXPECT_EQ(L::min_exponent, -13);
  EXPECT_EQ(L::max_exponent, 16);
  EXPECT_EQ(L::min_exponent10, -4);
  EXPECT_EQ(L::max_exponent10, 4);
  EXPECT_EQ(static_cast<float>(L::max()), 65504.0f);
  EXPECT_EQ(static_cast<float>(L::min()), 0x1p-14f);
  EXPECT_EQ(static_cast<float>(L::denorm_min()), 0x1p-24f);
  EXPECT_EQ(static_cast<float>(L::epsilon()), 0x1p-10f);
  EXPECT_TRUE(L::is_iec559);
}

#ifdef __FLT16_MAX__
// The compiler's own description of _Float16 (the integer constants; the
// floating ones carry an F16 suffix that strict C++17 cannot spell).
TEST(LimitsOfBinary16, MatchTheCompilersFloat16Constants) {
  using L = std::numeric_limits<mf::binary16>;
  EXPECT_EQ(L::digits, __FLT16_MANT_DIG__);
  EXPECT_EQ(L::digits10, __FLT16_DIG__);
  EXPECT_EQ(L::max_digits10, __FLT16_DECIMAL_DIG__);
  EXPECT_EQ(L::min_exponent, __FLT16_MIN_EXP__);
  EXPECT_EQ(L::max_exponent, __FLT16_MAX_EXP__);
  EXPECT_EQ(L::min_exponent10, __FLT16_MIN_10_EXP__);
  EXPECT_EQ(L::max_exponent10, __FLT16_MAX_10_EXP__);
  EXPECT_EQ(L::has_infinity, __FLT16_HAS_INFINITY__ != 0);
  EXPECT_EQ(L::has_quiet_NaN, __FLT16_HAS_QUIET_NAN__ != 0);
  EXPECT_EQ(L::has_denorm == std::denorm_present, __FLT16_HAS_DENORM__ != 0);
}
#endif

// float's limits are those of binary32: bfloat16 shares its exponent range.
TEST(LimitsOfBfloat16, ShareFloatsExponentRange) {
  using L = std::numeric_limits<mf::bfloat16>;
  using F = std::numeric_limits<float>;
  EXPECT_EQ(L::digits, 8);
  EXPECT_EQ(L::min_exponent, F::min_exponent);
  EXPECT_EQ(L::max_exponent, F::max_exponent);
  EXPECT_EQ(L::min_exponent10, F::min_exponent10);
  EXPECT_EQ(L::max_exponent10, F::max_exponent10);
  EXPECT_EQ(static_cast<float>(L::min()), F::min());
}

}  // namespace
