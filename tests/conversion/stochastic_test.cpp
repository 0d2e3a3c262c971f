// Stochastic rounding: for |x| strictly between neighbours a < b,
// D = floor((|x| - a) / (b - a) * 2^R) and r = the low R bits of the random
// word; the magnitude becomes b when D + r >= 2^R, else a; the sign is kept.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "support/formats_under_test.hpp"

namespace {

using mf::overflow;

template <class T>
class Stochastic : public ::testing::Test {};
TYPED_TEST_SUITE(Stochastic, mftest::AllFormats, mftest::format_names);

constexpr int kR = 8;

template <class T, class X>
unsigned sr(X x, std::uint32_t r, overflow o = overflow::non_saturating, int bits = kR) {
  return mf::round_to_stochastic<T>(x, r, o, bits).bits();
}

// Inputs strictly between neighbours: a fraction k/2^R of the way from a
// to b (D = k exactly), a little more (D still k), in the subnormal range,
// among the normals, next to max, and between max and the virtual next
// value (above max). Positive.
std::vector<double> stochastic_inputs(const mfref::reference& ref) {
  const std::vector<double>& t = ref.table();
  const std::size_t n = t.size();  // t[n-1] is the virtual next value
  std::vector<std::size_t> lows = {0, 1, n / 4, n / 2, (3 * n) / 4, n - 3, n - 2};
  std::vector<double> out;
  for (std::size_t i : lows) {
    const double a = t[i];
    const double b = t[i + 1];
    for (double k : {1.0, 37.0, 37.5, 128.0, 200.25, 255.0, 255.875}) {
      out.push_back(a + (b - a) * k / 256.0);
    }
  }
  return out;
}

template <class T, class X>
void expect_exact_round_up_counts(X x, overflow o, mftest::mismatch_log& log) {
  const mfref::reference& ref = mftest::reference_for<T>();
  const mfref::round_mode mode = mfref::round_mode::stochastic;
  const mfref::overflow_mode ro = o == overflow::saturating
                                      ? mfref::overflow_mode::saturating
                                      : mfref::overflow_mode::non_saturating;
  const unsigned down = ref.encode(x, mfref::round_mode::toward_zero, ro);
  const unsigned up_code = ref.encode(x, mode, ro, 0xFFFFFFFFu, kR);
  const std::uint64_t d = ref.stochastic_fraction(x, kR);
  std::uint64_t ups = 0;
  for (std::uint32_t r = 0; r < (1u << kR); ++r) {
    const unsigned got = sr<T>(x, r, o);
    const auto describe = [&] {
      return std::string(ref.name()) + " SR(" + mftest::describe_input(x) + ", r=" +
             std::to_string(r) + ", R=8, " + mfref::to_string(ro) + ")";
    };
    log.expect_eq(got, ref.encode(x, mode, ro, r, kR), describe);
    if (got != down) ++ups;
    // The random word's bits above R are not used.
    log.expect_eq(sr<T>(x, r | 0xABCDEF00u, o), got, describe);
  }
  if (down != up_code) {
    // Exactly D of the 2^R random values round up.
    log.expect_eq(static_cast<unsigned>(ups), static_cast<unsigned>(d), [&] {
      return std::string(ref.name()) + " round-up count for " + mftest::describe_input(x);
    });
  }
}

TYPED_TEST(Stochastic, ExactlyDOfTheTwoToTheRRandomValuesRoundUp) {
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  mftest::mismatch_log log;
  std::size_t distinguishable = 0;
  for (double x : stochastic_inputs(ref)) {
    for (overflow o : {overflow::non_saturating, overflow::saturating}) {
      for (double signed_x : {x, -x}) {
        expect_exact_round_up_counts<TypeParam>(static_cast<float>(signed_x), o, log);
        expect_exact_round_up_counts<TypeParam>(signed_x, o, log);
      }
    }
    const mfref::overflow_mode ns = mfref::overflow_mode::non_saturating;
    if (ref.encode(x, mfref::round_mode::toward_zero, ns) !=
        ref.encode(x, mfref::round_mode::toward_positive, ns)) {
      ++distinguishable;
    }
  }
  MFTEST_EXPECT_CLEAN(log, 5000);
  EXPECT_GT(distinguishable, 20u);
}

TYPED_TEST(Stochastic, NegatingTheInputMirrorsTheResult) {
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  if (!ref.is_signed()) {
    // e8m0fnu: every negative input is NaN, whatever r.
    for (std::uint32_t r = 0; r < 256; ++r) {
      EXPECT_EQ(sr<TypeParam>(-1.25f, r), 0xFFu);
    }
    return;
  }
  const bool bitwise = ref.has_negative_zero();  // not FNUZ
  mftest::mismatch_log log;
  for (double x : stochastic_inputs(ref)) {
    for (overflow o : {overflow::non_saturating, overflow::saturating}) {
      for (std::uint32_t r = 0; r < 256; ++r) {
        const unsigned pos = sr<TypeParam>(x, r, o);
        const unsigned neg = sr<TypeParam>(-x, r, o);
        const auto describe = [&] {
          return std::string(ref.name()) + " SR(-x) vs SR(x), x=" +
                 mftest::describe_input(x) + " r=" + std::to_string(r);
        };
        if (bitwise) {
          log.expect_eq(neg, pos ^ ref.sign_bit(), describe);
        } else {
          // FNUZ: mirrored in value; zero and NaN have one encoding.
          const double p = ref.decode(pos).value;
          const double q = ref.decode(neg).value;
          if (std::isnan(p) || p == 0) {
            log.expect_eq(neg, pos, describe);
          } else {
            log.expect_eq(q == -p, 1u, describe);
          }
        }
      }
    }
  }
  MFTEST_EXPECT_CLEAN(log, 1000);
}

TYPED_TEST(Stochastic, RepresentableInputsNeverChange) {
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  mftest::mismatch_log log;
  const std::uint32_t words[] = {0u, 1u, 127u, 128u, 255u, 0x80000000u, 0xFFFFFFFFu};
  for (std::size_t i = 0; i < ref.magnitudes().size(); ++i) {
    const double v = ref.magnitudes()[i];
    for (double x : {v, -v}) {
      if (!ref.is_signed() && x < 0) continue;
      const unsigned exact = ref.encode(x, mfref::round_mode::nearest_even);
      for (std::uint32_t r : words) {
        for (int bits : {1, 8, 32}) {
          for (overflow o : {overflow::non_saturating, overflow::saturating}) {
            log.expect_eq(sr<TypeParam>(static_cast<float>(x), r, o, bits), exact, [&] {
              return std::string(ref.name()) + " SR(" + mftest::describe_input(x) +
                     ", r=" + mftest::hex(r) + ", R=" + std::to_string(bits) + ")";
            });
          }
        }
      }
    }
  }
  MFTEST_EXPECT_CLEAN(log, ref.magnitudes().size() * 7 * 3 * 2);
}

TYPED_TEST(Stochastic, DefaultUsesAll32BitsOfTheRandomWord) {
  // At the exact midpoint D = 2^31: r = 2^31 - 1 keeps a, r = 2^31 gives b.
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  std::size_t checked = 0;
  for (std::size_t i = 0; i + 2 < ref.table().size(); i += 3) {
    const double a = ref.table()[i];
    const double b = ref.table()[i + 1];
    const float mid = static_cast<float>((a + b) / 2);
    if (static_cast<double>(mid) != (a + b) / 2) continue;
    const unsigned down = ref.encode(mid, mfref::round_mode::toward_zero);
    const unsigned up = ref.encode(mid, mfref::round_mode::toward_positive);
    EXPECT_EQ(mf::round_to_stochastic<TypeParam>(mid, 0x7FFFFFFFu).bits(), down) << mid;
    EXPECT_EQ(mf::round_to_stochastic<TypeParam>(mid, 0x80000000u).bits(), up) << mid;
    EXPECT_EQ(mf::round_to_stochastic<TypeParam>(mid, 0u).bits(), down) << mid;
    EXPECT_EQ(mf::round_to_stochastic<TypeParam>(mid, 0xFFFFFFFFu).bits(), up) << mid;
    // A quarter of the way: D = 2^30.
    const double quarter = a + (b - a) / 4;
    EXPECT_EQ(mf::round_to_stochastic<TypeParam>(quarter, 0xBFFFFFFFu).bits(),
              ref.encode(quarter, mfref::round_mode::toward_zero));
    EXPECT_EQ(mf::round_to_stochastic<TypeParam>(quarter, 0xC0000000u).bits(),
              ref.encode(quarter, mfref::round_mode::toward_positive));
    ++checked;
  }
  EXPECT_GT(checked, 2u);
}

TEST(StochasticPinned, E4m3fnHalfwayBetweenOneAndNineEighths) {
  // 1.0625 is halfway: D = 128 with R = 8.
  EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(1.0625f, 127u, overflow::non_saturating, 8).bits(),
            0x38u);
  EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(1.0625f, 128u, overflow::non_saturating, 8).bits(),
            0x39u);
  EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(-1.0625f, 128u, overflow::non_saturating, 8).bits(),
            0xB9u);
  // Above max: 448 < 456 < 480 (the virtual next), D = 64 of 256.
  EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(456.0f, 191u, overflow::non_saturating, 8).bits(),
            0x7Eu);
  EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(456.0f, 192u, overflow::non_saturating, 8).bits(),
            0x7Fu);
  EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(456.0f, 192u, overflow::saturating, 8).bits(),
            0x7Eu);
  EXPECT_EQ(mf::round_to_stochastic<mf::e5m2>(-60000.0f, 0xFFFFFFFFu).bits(), 0xFCu);
  EXPECT_EQ(mf::round_to_stochastic<mf::e2m1fn>(7.9f, 0xFFFFFFFFu).bits(), 0x7u);
  // Beyond the virtual next value every r overflows.
  EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(1000.0f, 0u).bits(), 0x7Fu);
  EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(1000.0f, 0u, overflow::saturating).bits(), 0x7Eu);
}

TEST(StochasticPinned, IntegerAndMinifloatSourcesFollowTheSameRule) {
  // binary16: 2049 lies halfway between 2048 and 2050 (D = 128 of 256).
  EXPECT_EQ(mf::round_to_stochastic<mf::binary16>(2049, 127u, overflow::non_saturating, 8).bits(),
            0x6800u);
  EXPECT_EQ(mf::round_to_stochastic<mf::binary16>(2049, 128u, overflow::non_saturating, 8).bits(),
            0x6801u);
  EXPECT_EQ(mf::round_to_stochastic<mf::binary16>(-2049LL, 128u, overflow::non_saturating, 8).bits(),
            0xE801u);
  // 2^63 + 2^54: a quarter of the way from 2^63 to the next bfloat16 value.
  const std::uint64_t big = (std::uint64_t{1} << 63) + (std::uint64_t{1} << 54);
  EXPECT_EQ(mf::round_to_stochastic<mf::bfloat16>(big, 191u, overflow::non_saturating, 8).bits(),
            0x5F00u);
  EXPECT_EQ(mf::round_to_stochastic<mf::bfloat16>(big, 192u, overflow::non_saturating, 8).bits(),
            0x5F01u);
  // binary16 1.0625 into e4m3fn: halfway between 1 and 1.125.
  const mf::binary16 h = mf::binary16::from_bits(0x3C40);
  EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(h, 127u, overflow::non_saturating, 8).bits(), 0x38u);
  EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(h, 128u, overflow::non_saturating, 8).bits(), 0x39u);
}

}  // namespace
