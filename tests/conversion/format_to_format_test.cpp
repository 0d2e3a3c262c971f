// Format -> format: every pair of formats, every source bit pattern, rounds
// once from the source's exact value.
#include <gtest/gtest.h>

#include <string>
#include <type_traits>

#include "support/formats_under_test.hpp"

namespace {

template <class To>
class FormatToFormat : public ::testing::Test {};
TYPED_TEST_SUITE(FormatToFormat, mftest::AllFormats, mftest::format_names);

template <class To, class From>
void expect_every_source_pattern_rounds_once(mftest::mismatch_log& log) {
  const mfref::reference& from_ref = mftest::reference_for<From>();
  const mfref::reference& to_ref = mftest::reference_for<To>();
  for (unsigned code = 0; code < from_ref.encoding_count(); ++code) {
    const From x = From::from_bits(static_cast<typename From::storage_type>(code));
    const double exact = from_ref.decode(code).value;
    for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
      log.expect_eq(mf::round_to<To>(x, m.rounding, m.overflow).bits(),
                    to_ref.encode(exact, m.ref_rounding, m.ref_overflow), [&] {
                      return std::string(from_ref.name()) + " " + mftest::hex(code) +
                             " -> " + to_ref.name() + " " + mftest::to_string(m);
                    });
    }
    // Construction is the nearest-even, non-saturating conversion (from
    // the same type it is the copy constructor, which keeps NaN payloads).
    if (std::is_same<To, From>::value) continue;
    log.expect_eq(To(x).bits(), to_ref.encode(exact, mfref::round_mode::nearest_even),
                  [&] {
                    return std::string(to_ref.name()) + "(" + from_ref.name() + " " +
                           mftest::hex(code) + ")";
                  });
  }
}

TYPED_TEST(FormatToFormat, EverySourcePatternOfEveryFormatRoundsOnce) {
  mftest::mismatch_log log;
  mftest::for_each_format([&](auto from) {
    expect_every_source_pattern_rounds_once<TypeParam, typename decltype(from)::type>(log);
  });
  // 11 byte formats (two of them 4 and 6 bits wide), 2 sixteen-bit ones.
  MFTEST_EXPECT_CLEAN(log, 8u * (2u * 65536u + 8u * 256u + 16u + 2u * 64u));
}

TEST(FormatToFormatPinned, WideToNarrowRoundsTheExactValue) {
  // binary16 1.0625 + 2^-10 lies just above the e4m3fn midpoint 1.0625.
  const mf::binary16 h = mf::binary16::from_bits(0x3C41);
  EXPECT_EQ(static_cast<double>(h), 1.0625 + 0x1p-10);
  EXPECT_EQ(mf::e4m3fn(h).bits(), 0x39u);
  // bfloat16 max overflows e5m2 (Inf), e4m3fn (NaN), e2m1fn (max).
  const mf::bfloat16 big = mf::bfloat16::from_bits(0x7F7F);
  EXPECT_EQ(mf::e5m2(big).bits(), 0x7Cu);
  EXPECT_EQ(mf::e4m3fn(big).bits(), 0x7Fu);
  EXPECT_EQ(mf::e2m1fn(big).bits(), 0x7u);
  // e5m2 -Inf into e4m3fnuz is NaN, into e8m0fnu NaN, into e2m1fn -max.
  const mf::e5m2 minus_inf = mf::e5m2::from_bits(0xFC);
  EXPECT_EQ(mf::e4m3fnuz(minus_inf).bits(), 0x80u);
  EXPECT_EQ(mf::e8m0fnu(minus_inf).bits(), 0xFFu);
  EXPECT_EQ(mf::e2m1fn(minus_inf).bits(), 0xFu);
  // e4m3fn -0 into the FNUZ formats is 0x00.
  EXPECT_EQ(mf::e4m3fnuz(mf::e4m3fn::from_bits(0x80)).bits(), 0x00u);
}

}  // namespace
