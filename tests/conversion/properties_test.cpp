// Properties every conversion must have, checked without the reference's
// rounding: exact values survive a round trip, rounding is monotone, and
// negation mirrors the result.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "reference/boundary_set.hpp"
#include "support/formats_under_test.hpp"

namespace {

using mf::overflow;
using mf::rounding;

template <class T>
class Properties : public ::testing::Test {};
TYPED_TEST_SUITE(Properties, mftest::AllFormats, mftest::format_names);

TYPED_TEST(Properties, EveryNonNaNValueRoundTripsExactlyInEveryMode) {
  // decode(encode(v)) == v: every value of the format is an exact input.
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  mftest::mismatch_log log;
  for (unsigned code = 0; code < ref.encoding_count(); ++code) {
    const TypeParam x = TypeParam::from_bits(static_cast<typename TypeParam::storage_type>(code));
    const float f = static_cast<float>(x);
    if (std::isnan(f)) continue;
    const double d = static_cast<double>(x);
    for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
      // Saturating conversion clamps an infinity to max by rule.
      if (std::isinf(f) && m.overflow == overflow::saturating) continue;
      const auto describe = [&] {
        return std::string(ref.name()) + " " + mftest::hex(code) + " " + mftest::to_string(m);
      };
      log.expect_eq(mf::round_to<TypeParam>(f, m.rounding, m.overflow).bits(), code, describe);
      log.expect_eq(mf::round_to<TypeParam>(d, m.rounding, m.overflow).bits(), code, describe);
    }
    log.expect_eq(TypeParam(f).bits(), code, [&] { return mftest::hex(code); });
  }
  MFTEST_EXPECT_CLEAN(log, ref.encoding_count() / 2 * 17);
}

TYPED_TEST(Properties, RoundingIsMonotoneOverSortedInputsInEveryMode) {
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  std::vector<float> inputs;
  for (float x : mfref::boundary_values<float>(ref)) {
    if (!std::isnan(x)) inputs.push_back(x);
  }
  ASSERT_TRUE(std::is_sorted(inputs.begin(), inputs.end()));
  std::size_t compared = 0;
  for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
    double previous = -INFINITY;
    float previous_input = -INFINITY;
    for (float x : inputs) {
      const double v = static_cast<double>(mf::round_to<TypeParam>(x, m.rounding, m.overflow));
      if (std::isnan(v)) continue;  // overflow to NaN: no place in the order
      ASSERT_GE(v, previous) << ref.name() << " " << mftest::to_string(m) << ": "
                             << mftest::describe_input(x) << " rounds below "
                             << mftest::describe_input(previous_input);
      previous = v;
      previous_input = x;
      ++compared;
    }
  }
  // Stochastic rounding with a fixed random word is monotone too.
  for (std::uint32_t r : {0u, 0x80000000u, 0xFFFFFFFFu}) {
    double previous = -INFINITY;
    for (float x : inputs) {
      const double v = static_cast<double>(mf::round_to_stochastic<TypeParam>(x, r));
      if (std::isnan(v)) continue;
      ASSERT_GE(v, previous) << ref.name() << " stochastic r=" << mftest::hex(r) << ": "
                             << mftest::describe_input(x);
      previous = v;
      ++compared;
    }
  }
  EXPECT_GT(compared, inputs.size());
}

TYPED_TEST(Properties, NegatingTheInputMirrorsTheResult) {
  // Nearest-even and toward-zero are symmetric; toward +inf of -x is the
  // mirror of toward -inf of x. Where the format has -0 the mirror is
  // bit-for-bit (sign bit flipped); FNUZ formats mirror the value, with
  // zero and NaN their own mirror; e8m0fnu has no negative values.
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  if (!ref.is_signed()) {
    // No sign bit: the mirror of every positive value is NaN.
    std::size_t checked = 0;
    for (float x : mfref::boundary_values<float>(ref)) {
      if (!(x > 0)) continue;
      for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
        EXPECT_EQ(mf::round_to<TypeParam>(-x, m.rounding, m.overflow).bits(), 0xFFu) << x;
        ++checked;
      }
    }
    EXPECT_GT(checked, 1000u);
    return;
  }
  const bool bitwise = ref.has_negative_zero();
  struct pairing {
    rounding for_x, for_minus_x;
  };
  const pairing pairings[] = {{rounding::nearest_even, rounding::nearest_even},
                              {rounding::toward_zero, rounding::toward_zero},
                              {rounding::toward_negative, rounding::toward_positive},
                              {rounding::toward_positive, rounding::toward_negative}};
  mftest::mismatch_log log;
  for (float x : mfref::boundary_values<float>(ref)) {
    // NaN inputs: the MX types give +max for both signs.
    if (std::isnan(x) && ref.encoding_kind() == mfref::kind::finite) continue;
    for (const pairing& p : pairings) {
      for (overflow o : {overflow::non_saturating, overflow::saturating}) {
        const unsigned pos = mf::round_to<TypeParam>(x, p.for_x, o).bits();
        const unsigned neg = mf::round_to<TypeParam>(-x, p.for_minus_x, o).bits();
        const auto describe = [&] {
          return std::string(ref.name()) + " -x vs x, x=" + mftest::describe_input(x);
        };
        if (bitwise) {
          log.expect_eq(neg, pos ^ ref.sign_bit(), describe);
        } else {
          const double a = ref.decode(pos).value;
          const double b = ref.decode(neg).value;
          if (std::isnan(a) || a == 0) {
            log.expect_eq(neg, pos, describe);
          } else {
            log.expect_eq(b == -a, 1u, describe);
          }
        }
      }
    }
  }
  MFTEST_EXPECT_CLEAN(log, 1000);
}

}  // namespace
