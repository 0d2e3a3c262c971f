// The <cmath>-style functions on every encoding of every format, and
// std::hash. Classification is checked against the exact float the encoding
// decodes to (std::isnan etc. on static_cast<float>(x)) and against the
// independent decoder's class; isnormal and fpclassify follow the format's
// own subnormal range, which differs from float's (a subnormal of e4m3fn is
// a normal float; e8m0fnu has no subnormals, though 2^-127 is a float
// subnormal).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include <minifloat/minifloat.hpp>

#include "support/format_catalog.hpp"

namespace {

using mft::decoded;
using mft::from_bits;
using mft::params;
using mft::value_class;

template <class T>
class Cmath : public ::testing::Test {};
TYPED_TEST_SUITE(Cmath, mft::all_formats, mft::format_names);

template <class T>
class CmathOnEveryPair : public ::testing::Test {};
TYPED_TEST_SUITE(CmathOnEveryPair, mft::byte_formats, mft::format_names);

TYPED_TEST(Cmath, IsnanIsinfIsfiniteAgreeWithTheDecodedFloat) {
  using T = TypeParam;
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    const T x = from_bits<T>(bits);
    const float f = static_cast<float>(x);
    const decoded d = mft::reference_decode<T>(bits);
    ASSERT_EQ(mf::isnan(x), std::isnan(f)) << mft::hex(bits);
    ASSERT_EQ(mf::isnan(x), d.cls == value_class::nan) << mft::hex(bits);
    ASSERT_EQ(mf::isinf(x), std::isinf(f)) << mft::hex(bits);
    ASSERT_EQ(mf::isinf(x), d.cls == value_class::infinite) << mft::hex(bits);
    ASSERT_EQ(mf::isfinite(x), std::isfinite(f)) << mft::hex(bits);
  }
}

TYPED_TEST(Cmath, IsnormalAndFpclassifyFollowTheFormatsOwnClasses) {
  using T = TypeParam;
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    const T x = from_bits<T>(bits);
    const decoded d = mft::reference_decode<T>(bits);
    int expected = FP_NORMAL;
    switch (d.cls) {
      case value_class::zero: expected = FP_ZERO; break;
      case value_class::subnormal: expected = FP_SUBNORMAL; break;
      case value_class::normal: expected = FP_NORMAL; break;
      case value_class::infinite: expected = FP_INFINITE; break;
      case value_class::nan: expected = FP_NAN; break;
    }
    ASSERT_EQ(mf::fpclassify(x), expected) << mft::hex(bits);
    ASSERT_EQ(mf::isnormal(x), d.cls == value_class::normal) << mft::hex(bits);
    ASSERT_EQ(mf::iszero(x), d.cls == value_class::zero) << mft::hex(bits);
    // Where the format's class is also float's, the float agrees.
    const float f = static_cast<float>(x);
    if (d.cls != value_class::subnormal && d.cls != value_class::normal) {
      ASSERT_EQ(mf::fpclassify(x), std::fpclassify(f)) << mft::hex(bits);
    }
  }
}

// signbit is the sign of the decoded float: the sign bit, except that an
// FNUZ format's NaN (0x80) and every e8m0fnu value are not negative.
TYPED_TEST(Cmath, SignbitIsTheSignOfTheDecodedFloat) {
  using T = TypeParam;
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    const T x = from_bits<T>(bits);
    const decoded d = mft::reference_decode<T>(bits);
    ASSERT_EQ(mf::signbit(x), std::signbit(static_cast<float>(x))) << mft::hex(bits);
    const bool fnuz_nan =
        params<T>::encoding == mf::specials::fnuz && d.cls == value_class::nan;
    ASSERT_EQ(mf::signbit(x), d.sign_bit && !fnuz_nan) << mft::hex(bits);
  }
}

TYPED_TEST(Cmath, AbsClearsTheSignAndKeepsTheMagnitude) {
  using T = TypeParam;
  using p = params<T>;
  for (std::uint32_t bits = 0; bits < p::count; ++bits) {
    const T x = from_bits<T>(bits);
    const T a = mf::abs(x);
    ASSERT_EQ(mf::fabs(x).bits(), a.bits());
    const decoded d = mft::reference_decode<T>(bits);
    if (p::encoding == mf::specials::fnuz && d.cls == value_class::nan) {
      ASSERT_EQ(a.bits(), bits);  // 0x80 is the NaN, not -0
      continue;
    }
    ASSERT_EQ(a.bits(), bits & ~p::sign_bit) << mft::hex(bits);
    ASSERT_FALSE(mf::signbit(a));
    if (d.cls == value_class::nan) {
      ASSERT_TRUE(mf::isnan(a));
    } else {
      ASSERT_EQ(static_cast<double>(a), std::fabs(d.value)) << mft::hex(bits);
    }
  }
}

// copysign(x, y): x's magnitude (NaN payload included) with y's sign, where
// the sign is signbit(y). An FNUZ zero or NaN has no sign to change, and
// e8m0fnu values are never negative, so x comes back unchanged.
template <class T>
::testing::AssertionResult copysign_is_right(std::uint32_t x_bits, std::uint32_t y_bits) {
  using p = params<T>;
  const T x = from_bits<T>(x_bits);
  const T y = from_bits<T>(y_bits);
  const T result = mf::copysign(x, y);
  const float reference = std::copysign(static_cast<float>(x), static_cast<float>(y));
  std::uint32_t expected = (x_bits & ~p::sign_bit) | (mf::signbit(y) ? p::sign_bit : 0u);
  const bool unsigned_magnitude =
      (p::encoding == mf::specials::fnuz && (x_bits & ~p::sign_bit) == 0) ||
      p::encoding == mf::specials::fnu;
  if (unsigned_magnitude) expected = x_bits;
  // The same as float's copysign, where the format can hold float's answer.
  const bool same_as_float =
      std::isnan(reference) || unsigned_magnitude ||
      (static_cast<float>(result) == reference &&
       std::signbit(static_cast<float>(result)) == std::signbit(reference));
  if (result.bits() == expected && same_as_float) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << mft::format_name<T>() << " copysign(" << mft::hex(x_bits) << ", "
         << mft::hex(y_bits) << ") gave " << mft::hex(result.bits()) << ", expected "
         << mft::hex(expected);
}

TYPED_TEST(Cmath, CopysignGivesTheMagnitudeOfXWithTheSignOfY) {
  using T = TypeParam;
  if (params<T>::count <= 256) {
    for (std::uint32_t x = 0; x < params<T>::count; ++x) {
      for (std::uint32_t y = 0; y < params<T>::count; ++y) {
        ASSERT_TRUE(copysign_is_right<T>(x, y));
      }
    }
  } else {
    std::mt19937 generator(99u);
    std::uniform_int_distribution<std::uint32_t> encoding(0, params<T>::count - 1);
    for (std::uint32_t x = 0; x < params<T>::count; ++x) {
      ASSERT_TRUE(copysign_is_right<T>(x, encoding(generator)));
      ASSERT_TRUE(copysign_is_right<T>(x, 0u));
      ASSERT_TRUE(copysign_is_right<T>(x, params<T>::sign_bit));
    }
  }
}

// ---------------------------------------------------------------------------
// nextafter walks the representable values in order.
// ---------------------------------------------------------------------------

// The distinct values of a format in increasing order (+0 and -0 are one
// value), infinities included.
template <class T>
std::vector<double> ordered_values() {
  std::vector<double> values;
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    const decoded d = mft::reference_decode<T>(bits);
    if (d.cls == value_class::nan) continue;
    if (d.cls == value_class::zero && d.sign_bit) continue;
    values.push_back(d.value);
  }
  std::sort(values.begin(), values.end());
  return values;
}

template <class T>
bool same_value_and_sign(T x, double value, bool negative_zero) {
  const float f = static_cast<float>(x);
  return static_cast<double>(f) == value && (value != 0 || std::signbit(f) == negative_zero);
}

// From the lowest value up to the highest (+Inf where the format has it) and
// back: each step is the next value; the zero reached from below is -0 and
// the one reached from above +0 (IEEE: the result has x's sign), and in an
// FNUZ format both are 0x00. At the end nextafter(x, x) is x.
TYPED_TEST(Cmath, NextafterWalksEveryValueInOrderUpAndDown) {
  using T = TypeParam;
  using p = params<T>;
  const std::vector<double> values = ordered_values<T>();
  const bool signed_zero = p::encoding == mf::specials::ieee ||
                           p::encoding == mf::specials::fn ||
                           p::encoding == mf::specials::finite;
  const T top = std::numeric_limits<T>::has_infinity ? std::numeric_limits<T>::infinity()
                                                     : std::numeric_limits<T>::max();
  const T bottom = std::numeric_limits<T>::has_infinity ? -std::numeric_limits<T>::infinity()
                                                        : std::numeric_limits<T>::lowest();
  ASSERT_EQ(static_cast<double>(bottom), values.front());
  ASSERT_EQ(static_cast<double>(top), values.back());

  T x = bottom;
  for (std::size_t i = 1; i < values.size(); ++i) {
    x = mf::nextafter(x, top);
    ASSERT_TRUE(same_value_and_sign(x, values[i], signed_zero)) << "step " << i << " up: "
        << mft::hex(x.bits()) << " instead of " << values[i];
  }
  ASSERT_EQ(mf::nextafter(x, top).bits(), top.bits());  // it stays at the end
  for (std::size_t i = values.size() - 1; i-- > 0;) {
    x = mf::nextafter(x, bottom);
    ASSERT_TRUE(same_value_and_sign(x, values[i], false)) << "step " << i << " down: "
        << mft::hex(x.bits()) << " instead of " << values[i];
  }
  ASSERT_EQ(mf::nextafter(x, bottom).bits(), bottom.bits());
}

// Every pair: nextafter(x, y) is y when x == y (so nextafter(+0, -0) is -0),
// NaN when either is NaN, else x's neighbour toward y.
TYPED_TEST(CmathOnEveryPair, NextafterIsTheNeighbourOfXTowardY) {
  using T = TypeParam;
  const std::vector<double> values = ordered_values<T>();
  for (std::uint32_t xb = 0; xb < params<T>::count; ++xb) {
    for (std::uint32_t yb = 0; yb < params<T>::count; ++yb) {
      const T x = from_bits<T>(xb), y = from_bits<T>(yb);
      const T r = mf::nextafter(x, y);
      const double a = mft::reference_decode<T>(xb).value;
      const double b = mft::reference_decode<T>(yb).value;
      if (std::isnan(a) || std::isnan(b)) {
        ASSERT_TRUE(mf::isnan(r)) << mft::hex(xb) << " " << mft::hex(yb);
        continue;
      }
      if (a == b) {
        ASSERT_EQ(r.bits(), yb);
        continue;
      }
      const std::size_t i = static_cast<std::size_t>(
          std::find(values.begin(), values.end(), a) - values.begin());
      const double expected = b > a ? values[i + 1] : values[i - 1];
      const float rf = static_cast<float>(r);
      ASSERT_EQ(static_cast<double>(rf), expected) << mft::hex(xb) << " " << mft::hex(yb);
      if (expected == 0) {
        const bool fnuz = params<T>::encoding == mf::specials::fnuz;
        ASSERT_EQ(std::signbit(rf), !fnuz && a < 0) << mft::hex(xb) << " " << mft::hex(yb);
      }
      if (a == 0) {
        ASSERT_EQ(std::signbit(rf), b < 0);
      }
    }
  }
}

TEST(Nextafter, OfE8m0fnuStopsAtItsSmallestAndLargestValues) {
  const mf::e8m0fnu smallest = std::numeric_limits<mf::e8m0fnu>::min();
  const mf::e8m0fnu largest = std::numeric_limits<mf::e8m0fnu>::max();
  EXPECT_EQ(mf::nextafter(smallest, largest).bits(), 0x01);
  EXPECT_EQ(mf::nextafter(largest, smallest).bits(), 0xFD);
  EXPECT_EQ(mf::nextafter(smallest, smallest).bits(), 0x00);
  EXPECT_EQ(mf::nextafter(largest, largest).bits(), 0xFE);
  EXPECT_EQ(mf::nextafter(largest, mf::e8m0fnu::from_bits(0xFF)).bits(), 0xFF);
}

TEST(Nextafter, FromMaxTowardInfinityIsInfinity) {
  const mf::e5m2 inf = std::numeric_limits<mf::e5m2>::infinity();
  EXPECT_EQ(mf::nextafter(std::numeric_limits<mf::e5m2>::max(), inf).bits(), 0x7C);
  EXPECT_EQ(mf::nextafter(inf, mf::e5m2(0.0f)).bits(), 0x7B);
  EXPECT_EQ(mf::nextafter(-inf, mf::e5m2(0.0f)).bits(), 0xFB);
}

// ---------------------------------------------------------------------------
// std::hash agrees with ==.
// ---------------------------------------------------------------------------
TYPED_TEST(CmathOnEveryPair, HashIsEqualForEqualValues) {
  using T = TypeParam;
  const std::hash<T> hash;
  for (std::uint32_t a = 0; a < params<T>::count; ++a) {
    for (std::uint32_t b = 0; b < params<T>::count; ++b) {
      if (from_bits<T>(a) == from_bits<T>(b)) {
        ASSERT_EQ(hash(from_bits<T>(a)), hash(from_bits<T>(b))) << mft::hex(a) << " "
                                                                  << mft::hex(b);
      }
    }
  }
}

// In the 16-bit formats the only distinct encodings that compare equal are
// +0 and -0.
TEST(Hash, OfPositiveAndNegativeZeroIsEqualIn16BitFormats) {
  EXPECT_EQ(std::hash<mf::binary16>{}(mf::binary16::from_bits(0x0000)),
            std::hash<mf::binary16>{}(mf::binary16::from_bits(0x8000)));
  EXPECT_EQ(std::hash<mf::bfloat16>{}(mf::bfloat16::from_bits(0x0000)),
            std::hash<mf::bfloat16>{}(mf::bfloat16::from_bits(0x8000)));
}

TYPED_TEST(Cmath, HashMakesTheTypeUsableInUnorderedSet) {
  using T = TypeParam;
  std::unordered_set<T> set;
  bool negative_zero = false;
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    set.insert(from_bits<T>(bits));
    const decoded d = mft::reference_decode<T>(bits);
    if (d.cls == value_class::zero && d.sign_bit) negative_zero = true;
  }
  // Every NaN is a new element (NaN != NaN); -0 is the element +0.
  EXPECT_EQ(set.size(), params<T>::count - (negative_zero ? 1u : 0u));
  for (std::uint32_t bits = 0; bits < params<T>::count; ++bits) {
    const T x = from_bits<T>(bits);
    if (!mf::isnan(x)) {
      ASSERT_EQ(set.count(x), 1u) << mft::hex(bits);
    } else {
      ASSERT_EQ(set.count(x), 0u) << "NaN is found by no lookup";
    }
  }
}

}  // namespace
