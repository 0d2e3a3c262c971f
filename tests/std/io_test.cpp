// Text I/O: to_string prints the shortest decimal that reads back to the same
// encoding; parse rounds the exact value of decimal and hex-float text once;
// operator<< and operator>> round-trip through streams.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iomanip>
#include <limits>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <minifloat/minifloat.hpp>

#include "support/format_catalog.hpp"

namespace {

using mft::from_bits;
using mft::params;

template <class T>
class TextIo : public ::testing::Test {};
TYPED_TEST_SUITE(TextIo, mft::all_formats, mft::format_names);

// Parses or fails the test.
template <class T>
T parsed(const std::string& text, mf::rounding mode = mf::rounding::nearest_even,
         mf::overflow on_overflow = mf::overflow::non_saturating) {
  T x = from_bits<T>(0);
  EXPECT_TRUE(mf::parse(text, x, mode, on_overflow)) << '"' << text << '"';
  return x;
}

// Significant digits of a printed number: "448" -> 3, "1300" -> 2,
// "0.002" -> 1, "3.39e+38" -> 3.
int significant_digits(const std::string& text) {
  std::string digits;
  for (const char c : text.substr(0, text.find('e'))) {
    if (c >= '0' && c <= '9') digits += c;
  }
  const std::size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return 1;
  const std::size_t last = digits.find_last_not_of('0');
  return static_cast<int>(last - first + 1);
}

// The two decimals of `digits` significant digits that bracket |value|
// (floor and ceiling at that precision), from the exact decimal expansion
// that glibc's printf writes for a double.
std::vector<std::string> bracketing_decimals(double value, int digits) {
  char buffer[512];
  std::snprintf(buffer, sizeof buffer, "%.300e", std::fabs(value));
  const std::string exact(buffer);
  const std::size_t e = exact.find('e');
  const int exponent = std::atoi(exact.c_str() + e + 1);
  std::string all_digits;
  for (std::size_t i = 0; i < e; ++i) {
    if (exact[i] != '.') all_digits += exact[i];
  }
  const std::string sign = value < 0 ? "-" : "";
  const std::string floor_digits = all_digits.substr(0, static_cast<std::size_t>(digits));
  // floor + one unit in the last place, as a decimal string.
  std::string ceil_digits = floor_digits;
  int i = static_cast<int>(ceil_digits.size()) - 1;
  while (i >= 0 && ceil_digits[static_cast<std::size_t>(i)] == '9') {
    ceil_digits[static_cast<std::size_t>(i)] = '0';
    --i;
  }
  if (i < 0) {
    ceil_digits.insert(ceil_digits.begin(), '1');
  } else {
    ++ceil_digits[static_cast<std::size_t>(i)];
  }
  const std::string scale = "e" + std::to_string(exponent - digits + 1);
  return {sign + floor_digits + scale, sign + ceil_digits + scale};
}

TYPED_TEST(TextIo, ParseOfToStringGivesBackEveryNonNanEncoding) {
  using T = TypeParam;
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    const T x = from_bits<T>(bits);
    if (mf::isnan(x)) continue;
    const std::string text = mf::to_string(x);
    T back = from_bits<T>(0);
    ASSERT_TRUE(mf::parse(text, back)) << text;
    ASSERT_EQ(back.bits(), x.bits()) << mft::hex(bits) << " printed as " << text;
  }
}

// The decimals a value may print as are those below the overflow threshold
// (max + half an ulp of max): beyond it a decimal reads back to max only
// through overflow handling (saturation in the MX element types).
template <class T>
double overflow_threshold() {
  const double max_finite = static_cast<double>(std::numeric_limits<T>::max());
  const double below_max =
      static_cast<double>(mf::nextafter(std::numeric_limits<T>::max(), T(0.0f)));
  // The top binade's spacing, except e8m0fnu whose one step doubles.
  const double ulp = std::numeric_limits<T>::digits == 1 ? max_finite : max_finite - below_max;
  return max_finite + ulp / 2;
}

// The shortest decimal below the overflow threshold that reads back. If a
// decimal with fewer digits than to_string's read back to x, so would one of
// the two that bracket x at one digit fewer (the values that read back to x
// form an interval around x, and a shorter decimal is also a decimal of one
// digit fewer).
TYPED_TEST(TextIo, ToStringIsTheShortestDecimalBelowOverflowThatReadsBack) {
  using T = TypeParam;
  const double threshold = overflow_threshold<T>();
  int failures = 0;
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    const T x = from_bits<T>(bits);
    if (!mf::isfinite(x)) continue;
    const std::string text = mf::to_string(x);
    ASSERT_LT(std::fabs(std::strtod(text.c_str(), nullptr)), threshold) << text;
    const int digits = significant_digits(text);
    if (digits <= 1) continue;
    for (const std::string& shorter : bracketing_decimals(static_cast<double>(x), digits - 1)) {
      if (std::fabs(std::strtod(shorter.c_str(), nullptr)) >= threshold) continue;
      T back = from_bits<T>(0);
      ASSERT_TRUE(mf::parse(shorter, back)) << shorter;
      if (back.bits() == x.bits()) {
        ADD_FAILURE() << mft::format_name<T>() << " " << mft::hex(bits) << " = "
                      << static_cast<double>(x) << " prints as " << text << " (" << digits
                      << " digits) but " << shorter << " reads back to it";
        if (++failures >= 10) return;
      }
    }
  }
}

TYPED_TEST(TextIo, SpecialsPrintAsNanInfAndMinusInf) {
  using T = TypeParam;
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    const T x = from_bits<T>(bits);
    if (mf::isnan(x)) {
      ASSERT_EQ(mf::to_string(x), "nan");
    } else if (mf::isinf(x)) {
      ASSERT_EQ(mf::to_string(x), mf::signbit(x) ? "-inf" : "inf");
    }
  }
}

TYPED_TEST(TextIo, StreamsRoundTripEveryEncoding) {
  using T = TypeParam;
  std::stringstream stream;
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    stream << from_bits<T>(bits) << ' ';
  }
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    const T x = from_bits<T>(bits);
    T back = from_bits<T>(0);
    ASSERT_TRUE(static_cast<bool>(stream >> back)) << mft::hex(bits);
    if (mf::isnan(x)) {
      ASSERT_TRUE(mf::isnan(back)) << mft::hex(bits);
    } else {
      ASSERT_EQ(back.bits(), x.bits()) << mft::hex(bits);
    }
  }
  T extra = from_bits<T>(0);
  EXPECT_FALSE(static_cast<bool>(stream >> extra));
}

// The shortest decimal by default; a notation, showpos or uppercase asked
// of the stream writes the exact value as a double would be written.
TEST(StreamOutput, HonoursTheStreamsNotationShowposAndUppercase) {
  const mf::e4m3fn x(0.3125f);
  const auto written = [&](auto manipulate) {
    std::ostringstream out;
    manipulate(out);
    out << x;
    std::ostringstream as_double;
    manipulate(as_double);
    as_double << 0.3125;
    return std::make_pair(out.str(), as_double.str());
  };
  EXPECT_EQ(written([](std::ostream&) {}).first, "0.3");
  EXPECT_EQ(written([](std::ostream& o) { o << std::setprecision(4); }).first, "0.3");
  for (const auto& [got, want] :
       {written([](std::ostream& o) { o << std::fixed << std::setprecision(4); }),
        written([](std::ostream& o) { o << std::scientific; }),
        written([](std::ostream& o) { o << std::hexfloat; }),
        written([](std::ostream& o) { o << std::showpos; }),
        written([](std::ostream& o) { o << std::uppercase << std::scientific; })}) {
    EXPECT_EQ(got, want);
  }
  EXPECT_EQ(written([](std::ostream& o) { o << std::fixed << std::setprecision(4); }).first,
            "0.3125");
  std::ostringstream padded;
  padded << std::setw(6) << std::setfill('*') << x;
  EXPECT_EQ(padded.str(), "***0.3");
}

// Wide streams write and read the same text.
TEST(StreamOutput, WideStreamsWriteAndReadTheSameText) {
  std::wostringstream out;
  out << mf::e4m3fn(0.3125f) << L' ' << mf::e5m2(-57344.0f) << L' '
      << mf::bfloat16::from_bits(0x7F80);
  EXPECT_EQ(out.str(), L"0.3 -60000 inf");
  std::wistringstream in(L"0.25 -0x1.8p1 1\u00B75");
  mf::e5m2 a, b, c(1.0f);
  in >> a >> b;
  EXPECT_EQ(static_cast<float>(a), 0.25f);
  EXPECT_EQ(static_cast<float>(b), -3.0f);
  in >> c;  // a non-ASCII character is not part of a number
  EXPECT_TRUE(in.fail());
  EXPECT_EQ(static_cast<float>(c), 1.0f);
}

TEST(StreamInput, SetsFailbitOnTextThatIsNotANumberAndLeavesTheValue) {
  std::istringstream stream("abc");
  mf::e4m3fn x(1.0f);
  stream >> x;
  EXPECT_TRUE(stream.fail());
  EXPECT_EQ(x.bits(), 0x38);
  std::istringstream partly("1.5x");
  partly >> x;
  EXPECT_TRUE(partly.fail());
  EXPECT_EQ(x.bits(), 0x38);
}

TEST(StreamInput, ReadsWhitespaceSeparatedValues) {
  std::istringstream stream("  1.5\n-448\t0x1p-9 inf");
  mf::e4m3fn a{}, b{}, c{};
  mf::e5m2 d{};
  stream >> a >> b >> c >> d;
  ASSERT_FALSE(stream.fail());
  EXPECT_EQ(a.bits(), 0x3C);
  EXPECT_EQ(b.bits(), 0xFE);
  EXPECT_EQ(c.bits(), 0x01);
  EXPECT_EQ(d.bits(), 0x7C);
}

TEST(Parse, RejectsTextThatIsNotEntirelyANumber) {
  for (const char* text : {"", "abc", "1.5x", "1.5 ", " 1.5", "\t1.5", "--1", "0x", "e5"}) {
    mf::e4m3fn x(2.0f);
    EXPECT_FALSE(mf::parse(text, x)) << '"' << text << '"';
    EXPECT_EQ(x.bits(), 0x40) << '"' << text << '"';
  }
}

// The exact decimal is rounded, not the nearest double: 464 is the tie that
// goes to 448 in e4m3fn, and anything above it is NaN, however little above.
TEST(Parse, RoundsTheExactDecimalNotTheNearestDouble) {
  EXPECT_EQ(parsed<mf::e4m3fn>("464").bits(), 0x7E);
  EXPECT_EQ(parsed<mf::e4m3fn>("464.00000000000000000000001").bits(), 0x7F);
  EXPECT_EQ(parsed<mf::e4m3fn>("-464").bits(), 0xFE);
  EXPECT_EQ(parsed<mf::e4m3fn>("-464.00000000000000000000001").bits(), 0xFF);
  EXPECT_EQ(parsed<mf::e4m3fn>("463.99999999999999999999999").bits(), 0x7E);
  // e2m1fn: 2.5 ties to the even 2; a hair above goes to 3.
  EXPECT_EQ(static_cast<float>(parsed<mf::e2m1fn>("2.5")), 2.0f);
  EXPECT_EQ(static_cast<float>(parsed<mf::e2m1fn>("2.50000000000000000000000001")), 3.0f);
  EXPECT_EQ(static_cast<float>(parsed<mf::e2m1fn>("-2.50000000000000000000000001")), -3.0f);
  EXPECT_EQ(static_cast<float>(parsed<mf::e2m1fn>("-2.5")), -2.0f);
  // e4m3fn: 1.0625 ties to 1; above it, 1.125.
  EXPECT_EQ(parsed<mf::e4m3fn>("1.0625").bits(), 0x38);
  EXPECT_EQ(parsed<mf::e4m3fn>("1.0625000000000000000000000001").bits(), 0x39);
  // e5m2: 61440 ties to 65536, which overflows to Inf.
  EXPECT_EQ(parsed<mf::e5m2>("61439.99999999999999999999").bits(), 0x7B);
  EXPECT_EQ(parsed<mf::e5m2>("61440").bits(), 0x7C);
}

TEST(Parse, HonoursTheRoundingAndOverflowModes) {
  using mf::overflow;
  using mf::rounding;
  EXPECT_EQ(parsed<mf::e4m3fn>("1.0000000000000000000001", rounding::toward_positive).bits(), 0x39);
  EXPECT_EQ(parsed<mf::e4m3fn>("1.0000000000000000000001", rounding::toward_zero).bits(), 0x38);
  EXPECT_EQ(parsed<mf::e4m3fn>("-1.0000000000000000000001", rounding::toward_negative).bits(), 0xB9);
  EXPECT_EQ(parsed<mf::e4m3fn>("-1.0000000000000000000001", rounding::toward_positive).bits(), 0xB8);
  EXPECT_EQ(parsed<mf::e4m3fn>("1000").bits(), 0x7F);
  EXPECT_EQ(parsed<mf::e4m3fn>("1000", rounding::nearest_even, overflow::saturating).bits(), 0x7E);
  EXPECT_EQ(parsed<mf::e4m3fn>("1e400").bits(), 0x7F);
  EXPECT_EQ(parsed<mf::e4m3fn>("1e400", rounding::toward_zero).bits(), 0x7E);
  EXPECT_EQ(parsed<mf::e5m2>("-1e400").bits(), 0xFC);
}

// 1e-400 is below every double but not zero: directed rounding sees it.
TEST(Parse, TinyValuesBelowEveryDoubleStillRoundDirected) {
  using mf::rounding;
  EXPECT_EQ(parsed<mf::e4m3fn>("1e-400", rounding::toward_positive).bits(), 0x01);
  EXPECT_EQ(parsed<mf::e4m3fn>("1e-400").bits(), 0x00);
  EXPECT_EQ(parsed<mf::e4m3fn>("-1e-400").bits(), 0x80);
  EXPECT_EQ(parsed<mf::e4m3fn>("-1e-400", rounding::toward_negative).bits(), 0x81);
  EXPECT_EQ(parsed<mf::e4m3fn>("-1e-400", rounding::toward_positive).bits(), 0x80);
  EXPECT_EQ(parsed<mf::e5m2>("1e-400", rounding::toward_positive).bits(), 0x01);
  EXPECT_EQ(parsed<mf::bfloat16>("1e-400", rounding::toward_positive).bits(), 0x0001);
  EXPECT_EQ(parsed<mf::e4m3fnuz>("-1e-400").bits(), 0x00);  // never 0x80, the NaN
  EXPECT_EQ(parsed<mf::e4m3fnuz>("-1e-400", rounding::toward_negative).bits(), 0x81);
  EXPECT_EQ(parsed<mf::e8m0fnu>("1e-400", rounding::toward_positive).bits(), 0x00);
}

TEST(Parse, ReadsHexFloats) {
  EXPECT_EQ(parsed<mf::e4m3fn>("0x1.8p-3").bits(), 0x24);  // 0.1875
  EXPECT_EQ(parsed<mf::e4m3fn>("-0x1.8p-3").bits(), 0xA4);
  EXPECT_EQ(parsed<mf::e4m3fn>("0x1.1p0").bits(), 0x38);   // 1.0625: tie to 1
  EXPECT_EQ(parsed<mf::e4m3fn>("0x1.1000000000000000001p0").bits(), 0x39);
  EXPECT_EQ(parsed<mf::e5m2>("0x1p-16").bits(), 0x01);
  EXPECT_EQ(parsed<mf::e8m0fnu>("0x1p127").bits(), 0xFE);
}

TEST(Parse, ReadsInfinityAndNan) {
  EXPECT_EQ(parsed<mf::e5m2>("inf").bits(), 0x7C);
  EXPECT_EQ(parsed<mf::e5m2>("-inf").bits(), 0xFC);
  EXPECT_EQ(parsed<mf::e5m2>("infinity").bits(), 0x7C);
  EXPECT_TRUE(mf::isnan(parsed<mf::e5m2>("nan")));
  EXPECT_EQ(parsed<mf::e4m3fn>("inf").bits(), 0x7F);
  EXPECT_EQ(parsed<mf::e4m3fnuz>("nan").bits(), 0x80);
  EXPECT_EQ(parsed<mf::e2m1fn>("nan").bits(), 0x07);  // no NaN: +max
}

// Readable instances of the shortest-decimal rule; where two decimals of
// the shortest length read back, the nearer is printed (as printf's own
// rounding picks it, and as Python's repr does).
TEST(ToString, WritesModerateExponentsPositionallyAndOthersInScientificForm) {
  EXPECT_EQ(mf::to_string(mf::e4m3fn(1.5f)), "1.5");
  EXPECT_EQ(mf::to_string(mf::e4m3fn(-0.0f)), "-0");
  EXPECT_EQ(mf::to_string(mf::e4m3fn(0.0f)), "0");
  EXPECT_EQ(mf::to_string(mf::e4m3fnuz(-0.0f)), "0");
  EXPECT_EQ(mf::to_string(mf::e4m3fn::from_bits(0x01)), "0.002");  // 2^-9
  EXPECT_EQ(mf::to_string(mf::e2m1fn(6.0f)), "6");
  EXPECT_EQ(mf::to_string(mf::bfloat16::from_bits(0x7180)), "1.27e+30");  // 2^100
  EXPECT_EQ(mf::to_string(mf::e8m0fnu::from_bits(0x00)), "6e-39");  // 2^-127
}

// Shortest means shortest: where fewer digits read back, they are printed.
TEST(ToString, PrintsFewerDigitsThanTheExactValueWhenTheyReadBack) {
  EXPECT_EQ(mf::to_string(mf::e4m3fn(416.0f)), "420");       // (400, 432) read back
  EXPECT_EQ(mf::to_string(mf::e5m2fnuz(1280.0f)), "1300");   // (1152, 1408) read back
}

// A decimal that reads back only through overflow is never printed: 8 would
// read back to e2m3fn's max 7.5 by saturation, so 7.5 prints as "7.5". Within
// the rounding interval of max, the shortest wins: e4m3fn's 448 is "450"
// (below the threshold 464), as numpy prints float16's 65504 as "65500".
TEST(ToString, NeverPrintsANumberThatReadsBackOnlyThroughOverflow) {
  EXPECT_EQ(mf::to_string(mf::e2m3fn(7.5f)), "7.5");
  EXPECT_EQ(mf::to_string(mf::e2m3fn(-7.5f)), "-7.5");
  EXPECT_EQ(mf::to_string(mf::e2m1fn(6.0f)), "6");
  EXPECT_EQ(mf::to_string(mf::e4m3fn(448.0f)), "450");
  EXPECT_EQ(mf::to_string(mf::binary16(65504.0f)), "65500");
  EXPECT_EQ(mf::to_string(mf::e4m3fn(0.125f)), "0.13");  // a neighbour of printf's nearest
}

}  // namespace
