// Requirements on the value types, checked at compile time: size, trivial
// copyability, standard layout, and conversions usable in constant
// expressions. A violation fails the build of this test.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <type_traits>

#include "support/formats_under_test.hpp"

namespace {

template <class T>
constexpr bool layout_ok(std::size_t size) {
  return sizeof(T) == size && alignof(T) == size && std::is_trivially_copyable<T>::value &&
         std::is_standard_layout<T>::value &&
         std::is_trivially_default_constructible<T>::value &&
         std::is_trivially_destructible<T>::value && std::is_nothrow_constructible<T, float>::value;
}

static_assert(layout_ok<mf::e4m3fn>(1), "e4m3fn is one trivial byte");
static_assert(layout_ok<mf::e4m3fnuz>(1), "e4m3fnuz is one trivial byte");
static_assert(layout_ok<mf::e5m2>(1), "e5m2 is one trivial byte");
static_assert(layout_ok<mf::e5m2fnuz>(1), "e5m2fnuz is one trivial byte");
static_assert(layout_ok<mf::e2m1fn>(1), "e2m1fn is one trivial byte");
static_assert(layout_ok<mf::e2m3fn>(1), "e2m3fn is one trivial byte");
static_assert(layout_ok<mf::e3m2fn>(1), "e3m2fn is one trivial byte");
static_assert(layout_ok<mf::e8m0fnu>(1), "e8m0fnu is one trivial byte");
static_assert(layout_ok<mf::e4m3>(1), "e4m3 is one trivial byte");
static_assert(layout_ok<mf::e3m4>(1), "e3m4 is one trivial byte");
static_assert(layout_ok<mf::e4m3b11fnuz>(1), "e4m3b11fnuz is one trivial byte");
static_assert(layout_ok<mf::binary16>(2), "binary16 is two trivial bytes");
static_assert(layout_ok<mf::bfloat16>(2), "bfloat16 is two trivial bytes");

// Construction from a wider type is explicit; decoding to float implicit.
static_assert(!std::is_convertible<float, mf::e4m3fn>::value, "no implicit narrowing");
static_assert(std::is_convertible<mf::e4m3fn, float>::value, "decoding is implicit");

// Conversions in constant expressions.
static_assert(mf::e4m3fn(464.0f).bits() == 0x7E, "464 rounds to 448");
static_assert(mf::e4m3fn(465.0f).bits() == 0x7F, "above 464 is NaN");
static_assert(mf::round_to<mf::e4m3fn>(465.0f, mf::rounding::nearest_even,
                                       mf::overflow::saturating).bits() == 0x7E,
              "saturates to 448");
static_assert(mf::e5m2(61440.0).bits() == 0x7C, "from double: 61440 is Inf");
static_assert(mf::e4m3fnuz(-0.0f).bits() == 0x00, "no negative zero");
static_assert(mf::e2m1fn(-7).bits() == 0xF, "from int: MX types saturate");
static_assert(mf::e8m0fnu(1.5f).bits() == 0x80, "e8m0 midpoints round up");
static_assert(mf::binary16(2049).bits() == 0x6800, "2049 ties to 2048");
static_assert(static_cast<float>(mf::e4m3fn::from_bits(0x7E)) == 448.0f, "decode");
static_assert(static_cast<double>(mf::e8m0fnu::from_bits(0x00)) == 0x1p-127, "decode");
static_assert(static_cast<float>(mf::bfloat16::from_bits(0x0001)) == 0x1p-133f, "decode");
static_assert(mf::e4m3fn(mf::binary16::from_bits(0x3C41)).bits() == 0x39, "format to format");
static_assert(mf::round_to_stochastic<mf::e4m3fn>(1.0625f, 0x80000000u).bits() == 0x39,
              "stochastic rounding in a constant expression");
static_assert(mf::round_to<mf::e5m2>(1e6f, mf::rounding::toward_zero).bits() == 0x7B,
              "toward zero gives max");

TEST(TypeRequirements, ValuesCopyAsTheirStorageBytes) {
  // What the static_asserts promise, used: a minifloat array is its bytes.
  const mf::e4m3fn values[3] = {mf::e4m3fn(1.0f), mf::e4m3fn(-2.0f), mf::e4m3fn(448.0f)};
  unsigned char bytes[3];
  std::memcpy(bytes, values, sizeof values);
  EXPECT_EQ(bytes[0], 0x38);
  EXPECT_EQ(bytes[1], 0xC0);
  EXPECT_EQ(bytes[2], 0x7E);
  mf::binary16 h[2];
  const std::uint16_t raw[2] = {0x3C00, 0xC000};
  std::memcpy(h, raw, sizeof raw);
  EXPECT_EQ(static_cast<float>(h[0]), 1.0f);
  EXPECT_EQ(static_cast<float>(h[1]), -2.0f);
}

TEST(TypeRequirements, ValueInitialisedIsTheZeroEncoding) {
  EXPECT_EQ(mf::e4m3fn{}.bits(), 0x00u);
  EXPECT_EQ(static_cast<float>(mf::e4m3fn{}), 0.0f);
  EXPECT_EQ(mf::bfloat16{}.bits(), 0x0000u);
  EXPECT_EQ(static_cast<double>(mf::e8m0fnu{}), 0x1p-127);
}

}  // namespace
