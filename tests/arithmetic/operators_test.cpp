// The operators + - * / are correctly rounded: the result is the exact real
// result rounded once, nearest-even and non-saturating, through the format's
// overflow and NaN rules. Checked on every pair of every 8-bit (and smaller)
// format against the exact reference of support/exact_rounding.hpp, and on
// sampled pairs of the 16-bit formats. Also: comparisons (IEEE 754), compound
// assignment, unary + and -, mixed operations with float, double, integers
// and other formats.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <minifloat/minifloat.hpp>

#include "support/exact_rounding.hpp"
#include "support/format_catalog.hpp"

namespace {

using mft::expected_encoding;
using mft::from_bits;
using mft::op;
using mft::params;

constexpr int kMaxReportedFailures = 10;

template <class T>
T apply(op o, T x, T y) {
  static_assert(std::is_same<decltype(x + y), T>::value, "same type -> same type");
  switch (o) {
    case op::add: return x + y;
    case op::subtract: return x - y;
    case op::multiply: return x * y;
    case op::divide: return x / y;
  }
  return x;
}

template <class T>
bool matches(T result, expected_encoding expected) {
  if (expected.any_canonical_nan) return mft::is_canonical_nan<T>(result.bits());
  return result.bits() == expected.bits;
}

template <class T>
std::string describe(expected_encoding expected) {
  return expected.any_canonical_nan ? std::string("a canonical NaN")
                                    : mft::hex(expected.bits);
}

// Checks x op y == round(exact x op y) for the given pairs of encodings.
template <class T, class Pairs>
void expect_correctly_rounded(op o, const Pairs& pairs) {
  int failures = 0;
  for (const auto& pair : pairs) {
    const T x = from_bits<T>(pair.first);
    const T y = from_bits<T>(pair.second);
    const T result = apply(o, x, y);
    const expected_encoding expected = mft::exact_operation<T>(
        o, mft::reference_decode<T>(pair.first).value,
        mft::reference_decode<T>(pair.second).value);
    if (!matches(result, expected)) {
      ADD_FAILURE() << mft::format_name<T>() << ": " << mft::hex(pair.first) << " ("
                    << static_cast<float>(x) << ") " << mft::op_name(o) << " "
                    << mft::hex(pair.second) << " (" << static_cast<float>(y)
                    << ") gave " << mft::hex(result.bits()) << " ("
                    << static_cast<float>(result) << "), expected "
                    << describe<T>(expected);
      if (++failures >= kMaxReportedFailures) return;
    }
  }
}

// Every pair of encodings of a format of at most 8 bits.
template <class T>
std::vector<std::pair<std::uint32_t, std::uint32_t>> all_pairs() {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  pairs.reserve(std::size_t{params<T>::count} * params<T>::count);
  for (std::uint32_t a = 0; a < params<T>::count; ++a) {
    for (std::uint32_t b = 0; b < params<T>::count; ++b) pairs.emplace_back(a, b);
  }
  return pairs;
}

// For the 16-bit formats: every pair of a structured set (zeros, the ends of
// the subnormal and normal ranges, one, the specials) plus 2^20 random pairs
// from a fixed seed.
template <class T>
std::vector<std::pair<std::uint32_t, std::uint32_t>> sampled_pairs() {
  using p = params<T>;
  const std::uint32_t m = p::mantissa_bits;
  std::vector<std::uint32_t> structured = {
      0u, 1u, 2u, (1u << m) - 1, 1u << m, (1u << m) + 1,
      static_cast<std::uint32_t>(p::bias) << m,                 // 1.0
      (static_cast<std::uint32_t>(p::bias) << m) | 1u,          // 1 + ulp
      ((p::exponent_all_ones - 1) << m) | p::mantissa_all_ones,  // max finite
      ((p::exponent_all_ones - 1) << m),
      p::exponent_all_ones << m,                                // inf
      (p::exponent_all_ones << m) | (1u << (m - 1)),            // NaN
  };
  const std::size_t n = structured.size();
  for (std::size_t i = 0; i < n; ++i) structured.push_back(structured[i] | p::sign_bit);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> pairs;
  for (std::uint32_t a : structured) {
    for (std::uint32_t b : structured) pairs.emplace_back(a, b);
  }
  std::mt19937 generator(20240611u);
  std::uniform_int_distribution<std::uint32_t> encoding(0, p::count - 1);
  for (int i = 0; i < (1 << 20); ++i) pairs.emplace_back(encoding(generator), encoding(generator));
  return pairs;
}

template <class T>
class OperatorsOnEveryPair : public ::testing::Test {};
TYPED_TEST_SUITE(OperatorsOnEveryPair, mft::byte_formats, mft::format_names);

template <class T>
class OperatorsOnSampledPairs : public ::testing::Test {};
TYPED_TEST_SUITE(OperatorsOnSampledPairs, mft::wide_formats, mft::format_names);

template <class T>
class OperatorsOnEveryEncoding : public ::testing::Test {};
TYPED_TEST_SUITE(OperatorsOnEveryEncoding, mft::all_formats, mft::format_names);

template <class T>
class UnaryMinusWithSignedZero : public ::testing::Test {};
using formats_with_negative_zero =
    ::testing::Types<mf::e4m3fn, mf::e5m2, mf::e2m1fn, mf::e2m3fn, mf::e3m2fn, mf::e4m3,
                     mf::e3m4, mf::binary16, mf::bfloat16>;
TYPED_TEST_SUITE(UnaryMinusWithSignedZero, formats_with_negative_zero, mft::format_names);

template <class T>
class UnaryMinusInFnuz : public ::testing::Test {};
using fnuz_formats = ::testing::Types<mf::e4m3fnuz, mf::e5m2fnuz, mf::e4m3b11fnuz>;
TYPED_TEST_SUITE(UnaryMinusInFnuz, fnuz_formats, mft::format_names);

// ---------------------------------------------------------------------------
// + - * / are correctly rounded.
// ---------------------------------------------------------------------------
TYPED_TEST(OperatorsOnEveryPair, AdditionIsTheCorrectlyRoundedExactSum) {
  expect_correctly_rounded<TypeParam>(op::add, all_pairs<TypeParam>());
}
TYPED_TEST(OperatorsOnEveryPair, SubtractionIsTheCorrectlyRoundedExactDifference) {
  expect_correctly_rounded<TypeParam>(op::subtract, all_pairs<TypeParam>());
}
TYPED_TEST(OperatorsOnEveryPair, MultiplicationIsTheCorrectlyRoundedExactProduct) {
  expect_correctly_rounded<TypeParam>(op::multiply, all_pairs<TypeParam>());
}
TYPED_TEST(OperatorsOnEveryPair, DivisionIsTheCorrectlyRoundedExactQuotient) {
  expect_correctly_rounded<TypeParam>(op::divide, all_pairs<TypeParam>());
}

TYPED_TEST(OperatorsOnSampledPairs, AdditionIsTheCorrectlyRoundedExactSum) {
  expect_correctly_rounded<TypeParam>(op::add, sampled_pairs<TypeParam>());
}
TYPED_TEST(OperatorsOnSampledPairs, SubtractionIsTheCorrectlyRoundedExactDifference) {
  expect_correctly_rounded<TypeParam>(op::subtract, sampled_pairs<TypeParam>());
}
TYPED_TEST(OperatorsOnSampledPairs, MultiplicationIsTheCorrectlyRoundedExactProduct) {
  expect_correctly_rounded<TypeParam>(op::multiply, sampled_pairs<TypeParam>());
}
TYPED_TEST(OperatorsOnSampledPairs, DivisionIsTheCorrectlyRoundedExactQuotient) {
  expect_correctly_rounded<TypeParam>(op::divide, sampled_pairs<TypeParam>());
}

// The overflow boundaries of docs/semantics.md (3.4, 3.5), as readable
// instances of the rule above.
TEST(OperatorWorkedExamples, OverflowFollowsEachFormatsRule) {
  // e4m3fn: 448 + 16 = 464 is the tie between 448 and 480; 448 is even.
  EXPECT_EQ((mf::e4m3fn(448.0f) + mf::e4m3fn(16.0f)).bits(), 0x7E);
  // ... and anything past it is NaN (no Inf), with the sign of the result.
  EXPECT_EQ((mf::e4m3fn(448.0f) + mf::e4m3fn(32.0f)).bits(), 0x7F);
  EXPECT_EQ((mf::e4m3fn(-448.0f) - mf::e4m3fn(32.0f)).bits(), 0xFF);
  // e5m2: 57344 + 4096 = 61440 ties to the even 65536, which overflows.
  EXPECT_EQ((mf::e5m2(57344.0f) + mf::e5m2(4096.0f)).bits(), 0x7C);
  EXPECT_EQ((mf::e5m2(-57344.0f) - mf::e5m2(4096.0f)).bits(), 0xFC);
  // e4m3fnuz: 240 + 8 = 248 ties to 256: NaN 0x80.
  EXPECT_EQ((mf::e4m3fnuz(240.0f) + mf::e4m3fnuz(8.0f)).bits(), 0x80);
  EXPECT_EQ((mf::e4m3fnuz(240.0f) + mf::e4m3fnuz(7.0f)).bits(), 0x7F);
  // e2m1fn has neither Inf nor NaN: overflow saturates.
  EXPECT_EQ((mf::e2m1fn(6.0f) + mf::e2m1fn(6.0f)).bits(), 0x07);
  EXPECT_EQ((mf::e2m1fn(-6.0f) * mf::e2m1fn(6.0f)).bits(), 0x0F);
  // e8m0fnu: 2^127 * 2 overflows to its NaN; 1 - 1 = 0 becomes 2^-127; a
  // negative result is NaN.
  EXPECT_EQ((std::numeric_limits<mf::e8m0fnu>::max() * mf::e8m0fnu(2.0f)).bits(), 0xFF);
  EXPECT_EQ((mf::e8m0fnu(1.0f) - mf::e8m0fnu(1.0f)).bits(), 0x00);
  EXPECT_EQ((mf::e8m0fnu(1.0f) - mf::e8m0fnu(2.0f)).bits(), 0xFF);
  // e8m0fnu: 2 + 1 = 3 = 1.5 * 2^1 is a tie, which goes up to 4.
  EXPECT_EQ(static_cast<float>(mf::e8m0fnu(2.0f) + mf::e8m0fnu(1.0f)), 4.0f);
}

TEST(OperatorWorkedExamples, DivisionByZeroGivesIeeeResultsThenTheFormatsRules) {
  const mf::e5m2 one5(1.0f), zero5(0.0f), minus_zero5(-0.0f);
  EXPECT_EQ((one5 / zero5).bits(), 0x7C);
  EXPECT_EQ((one5 / minus_zero5).bits(), 0xFC);
  EXPECT_TRUE(mf::isnan(zero5 / zero5));
  const mf::e4m3fn one4(1.0f), zero4(0.0f);
  EXPECT_EQ((one4 / zero4).bits(), 0x7F);       // +Inf -> 0x7F
  EXPECT_EQ(((-one4) / zero4).bits(), 0xFF);    // -Inf -> 0xFF
  EXPECT_EQ((mf::e4m3fnuz(1.0f) / mf::e4m3fnuz(0.0f)).bits(), 0x80);
  const mf::e2m1fn one2(1.0f), zero2(0.0f);
  EXPECT_EQ((one2 / zero2).bits(), 0x07);       // +Inf -> +max
  EXPECT_EQ(((-one2) / zero2).bits(), 0x0F);    // -Inf -> -max
  EXPECT_EQ((zero2 / zero2).bits(), 0x07);      // NaN -> +max
}

TEST(OperatorWorkedExamples, NegativeResultsThatRoundToZeroInFnuzAreZeroNotNan) {
  const mf::e4m3fnuz smallest = mf::e4m3fnuz::from_bits(0x01);  // 2^-10
  // -2^-10 * 2^-3 = -2^-13 rounds to zero: 0x00, never 0x80.
  EXPECT_EQ((-smallest * mf::e4m3fnuz(0.125f)).bits(), 0x00);
  EXPECT_EQ((-smallest / mf::e4m3fnuz(8.0f)).bits(), 0x00);
  EXPECT_EQ((smallest - smallest).bits(), 0x00);
}

// ---------------------------------------------------------------------------
// Comparisons: IEEE 754, NaN unordered, +0 == -0.
// ---------------------------------------------------------------------------
template <class T, class Pairs>
void expect_ieee_comparisons(const Pairs& pairs) {
  int failures = 0;
  for (const auto& pair : pairs) {
    const T x = from_bits<T>(pair.first);
    const T y = from_bits<T>(pair.second);
    const double a = mft::reference_decode<T>(pair.first).value;
    const double b = mft::reference_decode<T>(pair.second).value;
    const bool ok = (x == y) == (a == b) && (x != y) == (a != b) && (x < y) == (a < b) &&
                    (x <= y) == (a <= b) && (x > y) == (a > b) && (x >= y) == (a >= b);
    if (!ok) {
      ADD_FAILURE() << mft::format_name<T>() << ": comparing " << mft::hex(pair.first)
                    << " (" << a << ") with " << mft::hex(pair.second) << " (" << b
                    << ")";
      if (++failures >= kMaxReportedFailures) return;
    }
  }
}

TYPED_TEST(OperatorsOnEveryPair, ComparisonsAgreeWithIeee754OnTheExactValues) {
  expect_ieee_comparisons<TypeParam>(all_pairs<TypeParam>());
}

TYPED_TEST(OperatorsOnSampledPairs, ComparisonsAgreeWithIeee754OnTheExactValues) {
  expect_ieee_comparisons<TypeParam>(sampled_pairs<TypeParam>());
}

TEST(ComparisonRules, NanIsUnorderedAndUnequalToItself) {
  const mf::e4m3fn nan = mf::e4m3fn::from_bits(0x7F);
  const mf::e4m3fn one(1.0f);
  EXPECT_FALSE(nan == nan);
  EXPECT_TRUE(nan != nan);
  EXPECT_FALSE(nan < one);
  EXPECT_FALSE(nan >= one);
  EXPECT_FALSE(one <= nan);
  const mf::e5m2fnuz nanuz = mf::e5m2fnuz::from_bits(0x80);
  EXPECT_FALSE(nanuz == nanuz);
  EXPECT_FALSE(nanuz == mf::e5m2fnuz(0.0f));
}

TEST(ComparisonRules, PositiveAndNegativeZeroCompareEqual) {
  EXPECT_TRUE(mf::e4m3fn::from_bits(0x00) == mf::e4m3fn::from_bits(0x80));
  EXPECT_FALSE(mf::e4m3fn::from_bits(0x00) < mf::e4m3fn::from_bits(0x80));
  EXPECT_TRUE(mf::e2m1fn::from_bits(0x0) == mf::e2m1fn::from_bits(0x8));
  EXPECT_TRUE(mf::bfloat16::from_bits(0x0000) == mf::bfloat16::from_bits(0x8000));
}

// ---------------------------------------------------------------------------
// Compound assignment and unary operators.
// ---------------------------------------------------------------------------
TYPED_TEST(OperatorsOnEveryPair, CompoundAssignmentEqualsTheBinaryOperator) {
  using T = TypeParam;
  int failures = 0;
  for (const auto& pair : all_pairs<T>()) {
    const T x = from_bits<T>(pair.first);
    const T y = from_bits<T>(pair.second);
    T sum = x, difference = x, product = x, quotient = x;
    static_assert(std::is_same<decltype(sum += y), T&>::value, "returns the left operand");
    EXPECT_EQ(&(sum += y), &sum);
    difference -= y;
    product *= y;
    quotient /= y;
    // Bit for bit, except that IEEE 754 leaves the sign of a NaN result
    // (which operand's NaN propagates) unspecified.
    const auto same = [](T a, T b) {
      return a.bits() == b.bits() || (mf::isnan(a) && mf::isnan(b));
    };
    const bool ok = same(sum, x + y) && same(difference, x - y) && same(product, x * y) &&
                    same(quotient, x / y);
    if (!ok) {
      ADD_FAILURE() << mft::format_name<T>() << ": " << mft::hex(pair.first) << " op= "
                    << mft::hex(pair.second);
      if (++failures >= kMaxReportedFailures) return;
    }
  }
}

TYPED_TEST(OperatorsOnEveryEncoding, UnaryPlusReturnsTheOperandUnchanged) {
  using T = TypeParam;
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    static_assert(std::is_same<decltype(+from_bits<T>(bits)), T>::value, "unary + keeps the type");
    ASSERT_EQ((+from_bits<T>(bits)).bits(), bits) << mft::format_name<T>();
  }
}

// ++x and --x are the correctly rounded x + 1 and x - 1 (the exact reference
// of the pairs above), for every encoding; x++ and x-- return x before.
TYPED_TEST(OperatorsOnEveryEncoding, IncrementAndDecrementAddAndSubtractOneRoundedOnce) {
  using T = TypeParam;
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    const double value = mft::reference_decode<T>(bits).value;
    for (const op o : {op::add, op::subtract}) {
      const expected_encoding expected = mft::exact_operation<T>(o, value, 1.0);
      T prefix = from_bits<T>(bits), postfix = from_bits<T>(bits);
      const T returned = o == op::add ? ++prefix : --prefix;
      const T before = o == op::add ? postfix++ : postfix--;
      ASSERT_TRUE(matches(prefix, expected))
          << mft::format_name<T>() << " " << mft::hex(bits) << " " << mft::op_name(o) << " 1 gave "
          << mft::hex(prefix.bits()) << ", expected " << describe<T>(expected);
      ASSERT_EQ(returned.bits(), prefix.bits());
      ASSERT_EQ(postfix.bits(), prefix.bits());
      ASSERT_EQ(before.bits(), bits);
    }
  }
}

// a op= b with b of another format is the exact a op b rounded once into
// a's type (not first into the promoted type, then again): every pair of
// 8-bit encodings, a stride through the 16-bit ones.
template <class T, class B>
void expect_compound_rounds_once() {
  const std::uint32_t a_step = params<T>::count > 256 ? 61 : 1;
  const std::uint32_t b_step = params<B>::count > 256 ? 67 : 1;
  int failures = 0;
  for (std::uint32_t x = 0; x < params<T>::count; x += a_step) {
    for (std::uint32_t y = 0; y < params<B>::count; y += b_step) {
      for (const op o : {op::add, op::subtract, op::multiply, op::divide}) {
        T a = from_bits<T>(x);
        const B b = from_bits<B>(y);
        switch (o) {
          case op::add: a += b; break;
          case op::subtract: a -= b; break;
          case op::multiply: a *= b; break;
          case op::divide: a /= b; break;
        }
        const expected_encoding expected = mft::exact_operation<T>(
            o, mft::reference_decode<T>(x).value, mft::reference_decode<B>(y).value);
        if (!matches(a, expected)) {
          ADD_FAILURE() << mft::format_name<T>() << " " << mft::hex(x) << " " << mft::op_name(o)
                        << "= " << mft::format_name<B>() << " " << mft::hex(y) << " gave "
                        << mft::hex(a.bits()) << ", expected " << describe<T>(expected);
          if (++failures >= kMaxReportedFailures) return;
        }
      }
    }
  }
}

TEST(CompoundAssignment, AnotherFormatRoundsOnceIntoTheLeftType) {
  expect_compound_rounds_once<mf::e4m3fn, mf::bfloat16>();
  expect_compound_rounds_once<mf::e4m3fn, mf::binary16>();
  expect_compound_rounds_once<mf::e4m3fn, mf::e5m2>();
  expect_compound_rounds_once<mf::e5m2, mf::e4m3fn>();
  expect_compound_rounds_once<mf::e2m1fn, mf::e4m3fn>();
  expect_compound_rounds_once<mf::e4m3fnuz, mf::e5m2fnuz>();
  expect_compound_rounds_once<mf::e8m0fnu, mf::e4m3fn>();
  expect_compound_rounds_once<mf::bfloat16, mf::binary16>();
  expect_compound_rounds_once<mf::binary16, mf::bfloat16>();
  // The case that rounded twice: 1 + (0.0625 + 2^-10) through bfloat16 was the
  // e4m3fn tie 1.0625, then 1; once, it is above the tie: 1.125.
  mf::e4m3fn a(1.0f);
  a += mf::bfloat16(0.0625f + 0x1p-10f);
  EXPECT_EQ(static_cast<float>(a), 1.125f);
  // 2^-16 + 288 needs 25 bits (in float the e5m2 tie 288, then 256): 320.
  mf::e5m2 small = mf::e5m2::from_bits(0x01);
  small += mf::e4m3fn(288.0f);
  EXPECT_EQ(static_cast<float>(small), 320.0f);
  // A sum past double's 53 bits: the bfloat16 2^-133 only breaks the tie of
  // 1 + 2^-8, upward (to 1 + 2^-7) when added, downward when subtracted.
  mf::bfloat16 tiny = mf::bfloat16::from_bits(0x0001), negative_tiny = tiny;
  tiny += mf::binary16(1.0f + 0x1p-8f);
  EXPECT_EQ(tiny.bits(), 0x3F81u);
  negative_tiny -= mf::binary16(1.0f + 0x1p-8f);
  EXPECT_EQ(negative_tiny.bits(), 0xBF80u);  // -(1 + 2^-8 - 2^-133): -1
}

// IEEE-style, fn and the MX element types: -x flips the sign bit, for every
// encoding (zeros and NaNs included), so the value is negated.
TYPED_TEST(UnaryMinusWithSignedZero, FlipsTheSignBitOfEveryEncoding) {
  using T = TypeParam;
  using p = params<T>;
  for (std::uint32_t bits = 0; bits < p::count; ++bits) {
    const T negated = -from_bits<T>(bits);
    ASSERT_EQ(negated.bits(), bits ^ p::sign_bit) << mft::format_name<T>() << " " << mft::hex(bits);
    const double value = mft::reference_decode<T>(bits).value;
    if (!std::isnan(value)) {
      ASSERT_EQ(static_cast<double>(negated), -value);
      ASSERT_NE(std::signbit(static_cast<float>(negated)), std::signbit(value));
    }
  }
}

// FNUZ: 0x80 is the NaN, so -0 stays 0x00 and -NaN stays 0x80; every other
// value is negated by flipping the sign bit.
TYPED_TEST(UnaryMinusInFnuz, KeepsZeroAndNanInPlaceAndNegatesEveryOtherValue) {
  using T = TypeParam;
  using p = params<T>;
  EXPECT_EQ((-from_bits<T>(0x00)).bits(), 0x00);
  EXPECT_EQ((-from_bits<T>(p::sign_bit)).bits(), p::sign_bit);
  for (std::uint32_t bits = 0; bits < p::count; ++bits) {
    if (bits == 0x00 || bits == p::sign_bit) continue;
    const T negated = -from_bits<T>(bits);
    ASSERT_EQ(negated.bits(), bits ^ p::sign_bit) << mft::hex(bits);
    ASSERT_EQ(static_cast<double>(negated), -mft::reference_decode<T>(bits).value);
  }
}

// e8m0fnu has no negative values: -x is its NaN for every x.
TEST(UnaryMinus, OfEveryE8m0fnuValueIsNan) {
  for (std::uint32_t bits = 0; bits < 256; ++bits) {
    ASSERT_EQ((-mf::e8m0fnu::from_bits(static_cast<std::uint8_t>(bits))).bits(), 0xFF)
        << mft::hex(bits);
  }
}

// ---------------------------------------------------------------------------
// Mixed operations: the promoted type's operation on the widened operands.
// ---------------------------------------------------------------------------
template <class R>
bool same_result(R actual, R expected) {
  if (std::isnan(expected)) return std::isnan(actual);
  return actual == expected && std::signbit(actual) == std::signbit(expected);
}

const std::vector<float>& float_operands() {
  static const std::vector<float> values = {
      0.0f, -0.0f, 1.0f, -1.5f, 0.1f, 3.0e-3f, 1.0e-7f, 300.0f, -1000.0f, 65504.0f,
      1.0e30f, std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::max(),
      std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
      std::numeric_limits<float>::quiet_NaN()};
  return values;
}

const std::vector<double>& double_operands() {
  static const std::vector<double> values = {
      0.0, -0.0, 1.0, -1.5, 0.1, 1.0e-300, 1.0 + 0x1p-40, 464.0 + 0x1p-30, 1.0e300,
      std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()};
  return values;
}

const std::vector<long long>& integer_operands() {
  static const std::vector<long long> values = {0, 1, -1, 7, -300, 1000, 16777217, -2147483648LL,
                                                9007199254740993LL};
  return values;
}

TYPED_TEST(OperatorsOnEveryEncoding, MixedWithFloatIsTheFloatOperation) {
  using T = TypeParam;
  for (std::uint32_t bits = 0; bits < params<T>::count; bits += (params<T>::count > 256 ? 97 : 1)) {
    const T x = from_bits<T>(bits);
    const float a = static_cast<float>(x);
    for (const float f : float_operands()) {
      static_assert(std::is_same<decltype(x + f), float>::value, "with float -> float");
      static_assert(std::is_same<decltype(f / x), float>::value, "with float -> float");
      ASSERT_TRUE(same_result(x + f, a + f));
      ASSERT_TRUE(same_result(f - x, f - a));
      ASSERT_TRUE(same_result(x * f, a * f));
      ASSERT_TRUE(same_result(f / x, f / a));
      ASSERT_EQ(x < f, a < f);
      ASSERT_EQ(f == x, f == a);
    }
  }
}

TYPED_TEST(OperatorsOnEveryEncoding, MixedWithDoubleIsTheDoubleOperation) {
  using T = TypeParam;
  for (std::uint32_t bits = 0; bits < params<T>::count; bits += (params<T>::count > 256 ? 97 : 1)) {
    const T x = from_bits<T>(bits);
    const double a = static_cast<double>(x);
    for (const double d : double_operands()) {
      static_assert(std::is_same<decltype(x + d), double>::value, "with double -> double");
      static_assert(std::is_same<decltype(d * x), double>::value, "with double -> double");
      ASSERT_TRUE(same_result(x + d, a + d));
      ASSERT_TRUE(same_result(d - x, d - a));
      ASSERT_TRUE(same_result(x * d, a * d));
      ASSERT_TRUE(same_result(d / x, d / a));
      ASSERT_EQ(x > d, a > d);
      ASSERT_EQ(d != x, d != a);
    }
  }
}

// An integer operand converts to float, as in float + int.
TYPED_TEST(OperatorsOnEveryEncoding, MixedWithAnIntegerIsTheFloatOperation) {
  using T = TypeParam;
  for (std::uint32_t bits = 0; bits < params<T>::count; bits += (params<T>::count > 256 ? 97 : 1)) {
    const T x = from_bits<T>(bits);
    const float a = static_cast<float>(x);
    for (const long long n : integer_operands()) {
      static_assert(std::is_same<decltype(x + n), float>::value, "with an integer -> float");
      static_assert(std::is_same<decltype(1 * x), float>::value, "with an integer -> float");
      static_assert(std::is_same<decltype(x - 1u), float>::value, "with an integer -> float");
      const float f = static_cast<float>(n);
      ASSERT_TRUE(same_result(x + n, a + f));
      ASSERT_TRUE(same_result(n - x, f - a));
      ASSERT_TRUE(same_result(x * n, a * f));
      ASSERT_TRUE(same_result(n / x, f / a));
      ASSERT_EQ(x <= n, a <= f);
    }
  }
}

// Compound assignment computes in float (double with a double operand) and
// rounds that result once into the left operand's type.
TYPED_TEST(OperatorsOnEveryEncoding, CompoundAssignmentWithABuiltinTypeRoundsThatResultOnce) {
  using T = TypeParam;
  int failures = 0;
  const auto check = [&](T actual, double computed, const char* what) {
    const expected_encoding expected = mft::round_double_exactly<T>(computed);
    if (!matches(actual, expected) && failures++ < kMaxReportedFailures) {
      ADD_FAILURE() << mft::format_name<T>() << " " << what << ": got "
                    << mft::hex(actual.bits()) << ", expected " << describe<T>(expected)
                    << " for " << computed;
    }
  };
  for (std::uint32_t bits = 0; bits < params<T>::count; bits += (params<T>::count > 256 ? 97 : 1)) {
    const T x = from_bits<T>(bits);
    const float a = static_cast<float>(x);
    for (const float f : float_operands()) {
      T y = x;
      y += f;
      check(y, static_cast<double>(a + f), "+= float");
      y = x;
      y /= f;
      check(y, static_cast<double>(a / f), "/= float");
    }
    for (const double d : double_operands()) {
      T y = x;
      y -= d;
      check(y, static_cast<double>(a) - d, "-= double");
      y = x;
      y *= d;
      check(y, static_cast<double>(a) * d, "*= double");
    }
    for (const long long n : integer_operands()) {
      T y = x;
      y *= n;
      check(y, static_cast<double>(a * static_cast<float>(n)), "*= integer");
    }
  }
}

// Two formats promote to the one holding all values of the other: the
// exact result is rounded once into it.
template <class A, class B, class Generator>
void expect_mixed_correctly_rounded(Generator&& pairs) {
  using R = mf::promote_t<A, B>;
  static_assert(mf::is_minifloat_v<R>, "these pairs promote to a format");
  int failures = 0;
  for (const auto& pair : pairs) {
    const A x = from_bits<A>(pair.first);
    const B y = from_bits<B>(pair.second);
    const double a = mft::reference_decode<A>(pair.first).value;
    const double b = mft::reference_decode<B>(pair.second).value;
    const R results[] = {x + y, x - y, x * y, x / y};
    const op ops[] = {op::add, op::subtract, op::multiply, op::divide};
    for (int i = 0; i < 4; ++i) {
      const expected_encoding expected = mft::exact_operation<R>(ops[i], a, b);
      if (!matches(results[i], expected) && failures++ < kMaxReportedFailures) {
        ADD_FAILURE() << mft::format_name<A>() << " " << mft::hex(pair.first) << " "
                      << mft::op_name(ops[i]) << " " << mft::format_name<B>() << " "
                      << mft::hex(pair.second) << " gave " << mft::hex(results[i].bits())
                      << ", expected " << describe<R>(expected);
      }
    }
  }
}

TEST(MixedFormats, AreRoundedOnceIntoTheFormatHoldingTheOther) {
  std::vector<std::pair<std::uint32_t, std::uint32_t>> e4m3fn_e2m1fn;
  for (std::uint32_t a = 0; a < 256; ++a) {
    for (std::uint32_t b = 0; b < 16; ++b) e4m3fn_e2m1fn.emplace_back(a, b);
  }
  expect_mixed_correctly_rounded<mf::e4m3fn, mf::e2m1fn>(e4m3fn_e2m1fn);

  std::mt19937 generator(7u);
  std::uniform_int_distribution<std::uint32_t> wide(0, 0xFFFF);
  std::vector<std::pair<std::uint32_t, std::uint32_t>> wide_narrow;
  for (std::uint32_t b = 0; b < 256; ++b) {
    for (int i = 0; i < 512; ++i) wide_narrow.emplace_back(wide(generator), b);
  }
  expect_mixed_correctly_rounded<mf::binary16, mf::e5m2>(wide_narrow);
  expect_mixed_correctly_rounded<mf::bfloat16, mf::e4m3fn>(wide_narrow);
  expect_mixed_correctly_rounded<mf::bfloat16, mf::e8m0fnu>(wide_narrow);
}

// Two formats neither of which holds the other meet in float: the result is
// float's operation on the exact (decoded) operands.
TEST(MixedFormats, WithoutACommonFormatAreComputedInFloat) {
  for (std::uint32_t a = 0; a < 256; ++a) {
    for (std::uint32_t b = 0; b < 256; ++b) {
      const mf::e4m3fn x = mf::e4m3fn::from_bits(static_cast<std::uint8_t>(a));
      const mf::e5m2 y = mf::e5m2::from_bits(static_cast<std::uint8_t>(b));
      static_assert(std::is_same<decltype(x * y), float>::value, "e4m3fn with e5m2 -> float");
      const float fx = static_cast<float>(x), fy = static_cast<float>(y);
      ASSERT_TRUE(same_result(x + y, fx + fy));
      ASSERT_TRUE(same_result(y - x, fy - fx));
      ASSERT_TRUE(same_result(x * y, fx * fy));
      ASSERT_TRUE(same_result(x / y, fx / fy));
      ASSERT_EQ(x < y, fx < fy);
      ASSERT_EQ(x == y, fx == fy);
    }
  }
}

}  // namespace
