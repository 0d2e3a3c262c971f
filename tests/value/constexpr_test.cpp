// Everything but text I/O and std::hash is usable in constant expressions in
// C++17: conversions in and out, every rounding mode, the operators, the
// limits and the <cmath>-style functions. The checks are static_asserts, so
// this file failing to compile is the failure; the test body re-checks a few
// of them at run time so that the executable has something to report.
// Built as C++17 (the minimum) and, where the build adds it, as C++20.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include <gtest/gtest.h>

#include <minifloat/minifloat.hpp>

namespace {

// --- Conversions into a format, from every source type ----------------------
constexpr mf::e4m3fn one(1.0f);
static_assert(one.bits() == 0x38, "from float");
static_assert(mf::e4m3fn(1.5).bits() == 0x3C, "from double");
static_assert(mf::e4m3fn(464.0).bits() == 0x7E, "464 ties to the even 448");
static_assert(mf::e4m3fn(464.0 + 0x1p-40).bits() == 0x7F, "above 464: NaN, from double directly");
static_assert(mf::e4m3fn(3).bits() == 0x44, "from int");
static_assert(mf::e4m3fn(-7LL).bits() == 0xCE, "from long long");
static_assert(mf::e4m3fn(mf::e5m2::from_bits(0x3C)).bits() == 0x38, "from another format");
static_assert(mf::e5m2(std::numeric_limits<float>::infinity()).bits() == 0x7C, "Inf");
static_assert(mf::e4m3fnuz(-0.0f).bits() == 0x00, "FNUZ has no -0");
static_assert(mf::e8m0fnu(0.0f).bits() == 0x00, "e8m0fnu: 0 becomes 2^-127");
static_assert(mf::bfloat16(1.0f).bits() == 0x3F80, "bfloat16");
static_assert(mf::binary16(65504.0f).bits() == 0x7BFF, "binary16 max");
static_assert(mf::e2m1fn(100.0f).bits() == 0x07, "MX element types saturate");

// --- Conversions out ---------------------------------------------------------
static_assert(static_cast<float>(mf::e4m3fn::from_bits(0x7E)) == 448.0f, "to float");
static_assert(static_cast<double>(mf::e5m2::from_bits(0x01)) == 0x1p-16, "to double");
static_assert(static_cast<float>(mf::e8m0fnu::from_bits(0x00)) == 0x1p-127f, "float subnormal");
static_assert(static_cast<float>(mf::bfloat16::from_bits(0x0001)) == 0x1p-133f, "bfloat16 subnormal");
constexpr float widened = mf::e2m1fn::from_bits(0x5);  // implicit, exact
static_assert(widened == 3.0f, "implicit conversion to float");
static_assert(mf::e4m3fn::from_bits(0xFFu).bits() == 0xFF, "from_bits keeps 8-bit patterns");
static_assert(mf::e2m1fn::from_bits(0xF5u).bits() == 0x05, "from_bits masks the unused high bits");

// --- Every rounding mode, overflow mode and stochastic rounding -------------
static_assert(mf::round_to<mf::e4m3fn>(1.1f, mf::rounding::toward_zero).bits() == 0x38, "");
static_assert(mf::round_to<mf::e4m3fn>(1.1f, mf::rounding::toward_positive).bits() == 0x39, "");
static_assert(mf::round_to<mf::e4m3fn>(-1.1f, mf::rounding::toward_negative).bits() == 0xB9, "");
static_assert(mf::round_to<mf::e4m3fn>(1000.0f, mf::rounding::nearest_even,
                                       mf::overflow::saturating).bits() == 0x7E, "");
static_assert(mf::round_to<mf::e4m3fn>(480.0, mf::rounding::toward_zero).bits() == 0x7E, "");
// 1.0625 is halfway between 1 and 1.125: D = 2^31 of 2^32.
static_assert(mf::round_to_stochastic<mf::e4m3fn>(1.0625f, 0x7FFFFFFFu).bits() == 0x38, "");
static_assert(mf::round_to_stochastic<mf::e4m3fn>(1.0625f, 0x80000000u).bits() == 0x39, "");
static_assert(mf::round_to_stochastic<mf::e4m3fn>(1.0f, 0xFFFFFFFFu).bits() == 0x38,
              "representable values never move");

// --- Operators -----------------------------------------------------------------
constexpr mf::e4m3fn two(2.0f), three(3.0f);
static_assert((two + three).bits() == mf::e4m3fn(5.0f).bits(), "+");
static_assert((two - three).bits() == mf::e4m3fn(-1.0f).bits(), "-");
static_assert((two * three).bits() == mf::e4m3fn(6.0f).bits(), "*");
static_assert((two / three).bits() == mf::e4m3fn(0.6875f).bits(), "/ rounds 0.666.. to 0.6875");
static_assert((-two).bits() == 0xC0 && (+two).bits() == 0x40, "unary");
static_assert((-mf::e4m3fnuz(0.0f)).bits() == 0x00, "FNUZ -0 is 0");
static_assert(two < three && three > two && two <= two && two >= two && two != three, "compare");
static_assert(mf::e4m3fn(0.0f) == mf::e4m3fn(-0.0f), "+0 == -0");
static_assert(!(mf::e4m3fn::from_bits(0x7F) == mf::e4m3fn::from_bits(0x7F)), "NaN != NaN");
static_assert(two + 1.0f == 3.0f && two * 0.5 == 1.0 && two - 1 == 1.0f, "mixed");
static_assert((mf::bfloat16(1.0f) + two).bits() == mf::bfloat16(3.0f).bits(), "mixed formats");

constexpr mf::e4m3fn compound() {
  mf::e4m3fn x(1.0f);
  x += mf::e4m3fn(2.0f);
  x *= 2.0f;
  x -= 1;
  x /= 0.5;
  return x;  // ((1 + 2) * 2 - 1) / 0.5 = 10
}
static_assert(compound().bits() == mf::e4m3fn(10.0f).bits(), "compound assignment");

// --- numeric_limits ----------------------------------------------------------
static_assert(std::numeric_limits<mf::e4m3fn>::max().bits() == 0x7E, "");
static_assert(std::numeric_limits<mf::e4m3fn>::lowest().bits() == 0xFE, "");
static_assert(std::numeric_limits<mf::e4m3fn>::min().bits() == 0x08, "");
static_assert(std::numeric_limits<mf::e4m3fn>::denorm_min().bits() == 0x01, "");
static_assert(std::numeric_limits<mf::e4m3fn>::epsilon().bits() == 0x20, "");
static_assert(std::numeric_limits<mf::e4m3fn>::round_error().bits() == 0x30, "");
static_assert(std::numeric_limits<mf::e4m3fn>::infinity().bits() == 0x7F, "");
static_assert(std::numeric_limits<mf::e5m2>::infinity().bits() == 0x7C, "");
static_assert(std::numeric_limits<mf::e5m2>::quiet_NaN().bits() == 0x7E, "");
static_assert(std::numeric_limits<mf::e5m2>::signaling_NaN().bits() == 0x7D, "");
static_assert(std::numeric_limits<mf::binary16>::max_exponent10 == 4, "");
static_assert(std::numeric_limits<mf::binary16>::min_exponent10 == -4, "");
static_assert(std::numeric_limits<mf::e8m0fnu>::max_exponent == 128, "");
static_assert(std::numeric_limits<mf::e2m1fn>::digits == 2, "");

// --- <cmath>-style functions ---------------------------------------------------
static_assert(mf::isnan(mf::e4m3fn::from_bits(0x7F)) && !mf::isnan(one), "isnan");
static_assert(mf::isinf(mf::e5m2::from_bits(0xFC)) && !mf::isinf(one), "isinf");
static_assert(mf::isfinite(one) && !mf::isfinite(mf::e5m2::from_bits(0x7C)), "isfinite");
static_assert(mf::isnormal(one) && !mf::isnormal(mf::e4m3fn::from_bits(0x01)), "isnormal");
static_assert(mf::iszero(mf::e4m3fn::from_bits(0x80)) && !mf::iszero(one), "iszero");
static_assert(mf::signbit(-one) && !mf::signbit(mf::e4m3fnuz::from_bits(0x80)), "signbit");
static_assert(mf::fpclassify(mf::e4m3fn::from_bits(0x01)) == FP_SUBNORMAL, "fpclassify");
static_assert(mf::fpclassify(mf::e8m0fnu::from_bits(0x00)) == FP_NORMAL, "fpclassify");
static_assert(mf::abs(-two).bits() == 0x40 && mf::fabs(-two).bits() == 0x40, "abs");
static_assert(mf::copysign(two, -one).bits() == 0xC0, "copysign");
static_assert(mf::nextafter(one, two).bits() == 0x39, "nextafter up");
static_assert(mf::nextafter(mf::e4m3fn::from_bits(0x81), one).bits() == 0x80, "to -0");
static_assert(mf::nextafter(mf::e4m3fn::from_bits(0x00), -one).bits() == 0x81, "from 0 down");

// --- Type properties -------------------------------------------------------------
static_assert(sizeof(mf::e4m3fn) == 1 && sizeof(mf::e2m1fn) == 1 && sizeof(mf::e8m0fnu) == 1, "");
static_assert(sizeof(mf::binary16) == 2 && sizeof(mf::bfloat16) == 2, "");
static_assert(std::is_trivially_copyable<mf::e4m3fn>::value, "");
static_assert(std::is_standard_layout<mf::e4m3fn>::value, "");
static_assert(std::is_trivially_copyable<mf::bfloat16>::value, "");
static_assert(std::is_trivially_default_constructible<mf::e5m2>::value, "");

// The same expressions, evaluated at run time, agree with the constants.
TEST(Constexpr, RuntimeEvaluationAgreesWithTheConstantExpressions) {
  volatile float input = 1.5f;  // defeats constant folding
  EXPECT_EQ(mf::e4m3fn(static_cast<float>(input)).bits(), 0x3C);
  EXPECT_EQ(compound().bits(), mf::e4m3fn(10.0f).bits());
  const mf::e4m3fn two_rt(static_cast<float>(input) + 0.5f);
  EXPECT_EQ((two_rt / three).bits(), (two / three).bits());
  EXPECT_EQ(mf::nextafter(mf::e4m3fn(static_cast<float>(input) - 0.5f), two_rt).bits(), 0x39);
}

}  // namespace
