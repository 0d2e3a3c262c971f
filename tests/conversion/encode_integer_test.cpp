// Encoding from integers of every width: one rounding of the exact integer
// value. The reference works in long double, whose 64-bit significand holds
// every 64-bit integer exactly (where long double is narrower, values above
// 2^53 are left out and the test says so).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "support/formats_under_test.hpp"

namespace {

constexpr bool kLongDoubleHoldsInt64 = std::numeric_limits<long double>::digits >= 64;

template <class I>
std::vector<I> integer_inputs(const mfref::reference& ref) {
  using L = long double;
  std::vector<I> out;
  const L top = static_cast<L>(std::numeric_limits<I>::max());
  const L bottom = static_cast<L>(std::numeric_limits<I>::min());
  const auto add = [&](L v) {
    if (v >= bottom && v <= top && v == std::floor(v)) out.push_back(static_cast<I>(v));
  };
  // The type's limits and small values.
  out.push_back(std::numeric_limits<I>::max());
  out.push_back(std::numeric_limits<I>::min());
  for (int k = -3; k <= 3; ++k) add(static_cast<L>(k));
  add(top - 1);
  add(bottom + 1);
  // Powers of two and their neighbours.
  for (int e = 1; e < 64; ++e) {
    for (int k = -2; k <= 2; ++k) {
      add(std::ldexp(L(1), e) + k);
      add(-std::ldexp(L(1), e) + k);
    }
  }
  // Around every representable value, midpoint and the virtual next value,
  // and the overflow region: floor(anchor) - 2 .. floor(anchor) + 2.
  const std::vector<double>& table = ref.table();
  std::vector<L> anchors;
  for (std::size_t i = 0; i < table.size(); ++i) {
    anchors.push_back(table[i]);
    if (i + 1 < table.size()) anchors.push_back((L(table[i]) + L(table[i + 1])) / 2);
  }
  anchors.push_back(L(ref.virtual_next()) * 2);
  for (L anchor : anchors) {
    if (anchor < 1 || anchor > std::ldexp(L(1), 65)) continue;
    const L base = std::floor(anchor);
    for (int k = -2; k <= 2; ++k) {
      add(base + k);
      add(-(base + k));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

template <class T, class I>
void expect_integers_round_once(mftest::mismatch_log& log, std::size_t& skipped) {
  const mfref::reference& ref = mftest::reference_for<T>();
  for (I v : integer_inputs<I>(ref)) {
    const long double exact = static_cast<long double>(v);
    if (!kLongDoubleHoldsInt64 && std::fabs(exact) > 0x1p53L) {
      ++skipped;
      continue;
    }
    // Up to 2^53 the integer is a double too, and double is faster.
    const bool fits_double = std::fabs(exact) <= 0x1p53L;
    for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
      const unsigned want =
          fits_double ? ref.encode(static_cast<double>(v), m.ref_rounding, m.ref_overflow)
                      : ref.encode(exact, m.ref_rounding, m.ref_overflow);
      log.expect_eq(mf::round_to<T>(v, m.rounding, m.overflow).bits(), want, [&] {
                      return std::string(ref.name()) + " " + mftest::to_string(m) +
                             " integer " + std::to_string(v) + " (" +
                             std::to_string(sizeof(I) * 8) +
                             (std::is_signed<I>::value ? "-bit signed)" : "-bit unsigned)");
                    });
    }
    // The constructor rounds the same way as nearest-even round_to.
    const unsigned nearest = fits_double
                                 ? ref.encode(static_cast<double>(v), mfref::round_mode::nearest_even)
                                 : ref.encode(exact, mfref::round_mode::nearest_even);
    log.expect_eq(T(v).bits(), nearest,
                  [&] { return std::string(ref.name()) + " T(" + std::to_string(v) + ")"; });
  }
}

template <class T>
class EncodeInteger : public ::testing::Test {};
TYPED_TEST_SUITE(EncodeInteger, mftest::AllFormats, mftest::format_names);

TYPED_TEST(EncodeInteger, EveryWidthRoundsTheExactValueOnce) {
  mftest::mismatch_log log;
  std::size_t skipped = 0;
  expect_integers_round_once<TypeParam, signed char>(log, skipped);
  expect_integers_round_once<TypeParam, unsigned char>(log, skipped);
  expect_integers_round_once<TypeParam, char>(log, skipped);
  expect_integers_round_once<TypeParam, short>(log, skipped);
  expect_integers_round_once<TypeParam, unsigned short>(log, skipped);
  expect_integers_round_once<TypeParam, int>(log, skipped);
  expect_integers_round_once<TypeParam, unsigned>(log, skipped);
  expect_integers_round_once<TypeParam, long>(log, skipped);
  expect_integers_round_once<TypeParam, unsigned long>(log, skipped);
  expect_integers_round_once<TypeParam, long long>(log, skipped);
  expect_integers_round_once<TypeParam, unsigned long long>(log, skipped);
  MFTEST_EXPECT_CLEAN(log, 5000);
  if (skipped > 0) {
    std::printf("note: %zu integers above 2^53 not checked (long double has %d digits)\n",
                skipped, std::numeric_limits<long double>::digits);
  }
}

TEST(EncodeIntegerPinned, Binary16RoundsIntegersAbove2048ToEven) {
  // Above 2048 binary16 holds only even integers; 2049 ties to 2048 (even
  // significand), 2051 ties to 2052.
  EXPECT_EQ(static_cast<float>(mf::binary16(2049)), 2048.0f);
  EXPECT_EQ(static_cast<float>(mf::binary16(2051)), 2052.0f);
  EXPECT_EQ(static_cast<float>(mf::binary16(4098)), 4096.0f);
  EXPECT_EQ(static_cast<float>(mf::binary16(4099)), 4100.0f);
  EXPECT_EQ(static_cast<float>(mf::binary16(-2049)), -2048.0f);
  EXPECT_EQ(mf::round_to<mf::binary16>(65519).bits(), 0x7BFFu);  // below the tie
  EXPECT_EQ(mf::round_to<mf::binary16>(65520).bits(), 0x7C00u);  // the tie: Inf
  EXPECT_EQ(mf::round_to<mf::binary16>(65520, mf::rounding::toward_zero).bits(), 0x7BFFu);
}

TEST(EncodeIntegerPinned, ExtremeSixtyFourBitValues) {
  const std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();
  const std::uint64_t uint64_max = std::numeric_limits<std::uint64_t>::max();
  // -2^63 and 2^64 - 1 in bfloat16: -2^63 exactly, and 2^64 (round up).
  EXPECT_EQ(static_cast<float>(mf::bfloat16(int64_min)), -0x1p63f);
  EXPECT_EQ(static_cast<float>(mf::bfloat16(uint64_max)), 0x1p64f);
  EXPECT_EQ(static_cast<float>(mf::round_to<mf::bfloat16>(uint64_max, mf::rounding::toward_zero)),
            0x1.FEp63f);
  EXPECT_EQ(mf::e8m0fnu(uint64_max).bits(), 127u + 64u);
  EXPECT_EQ(mf::e8m0fnu(int64_min).bits(), 0xFFu);  // negative: NaN
  EXPECT_EQ(mf::e4m3fn(int64_min).bits(), 0xFFu);   // overflow: NaN
  EXPECT_EQ(mf::e5m2(uint64_max).bits(), 0x7Cu);    // overflow: Inf
  EXPECT_EQ(mf::e4m3fnuz(int64_min).bits(), 0x80u);
  EXPECT_EQ(mf::e2m1fn(int64_min).bits(), 0xFu);    // MX: -max
  // 2^63 + 2^55 is the bfloat16 midpoint between 2^63 and 2^63 + 2^56; it
  // ties to even (2^63). One more is not a double (a double path would
  // lose the 1 and tie too) and must round up.
  const std::uint64_t just_above_tie = (std::uint64_t{1} << 63) + (std::uint64_t{1} << 55) + 1;
  EXPECT_EQ(mf::bfloat16(just_above_tie).bits(), 0x5F01u);
  const std::uint64_t tie = (std::uint64_t{1} << 63) + (std::uint64_t{1} << 55);
  EXPECT_EQ(mf::bfloat16(tie).bits(), 0x5F00u);
}

}  // namespace
