// Decoding: static_cast<float>(x) and static_cast<double>(x) give exactly
// the value the format's encoding denotes, for every bit pattern.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "support/formats_under_test.hpp"

namespace {

using mftest::hex;

template <class T>
class Decode : public ::testing::Test {};
TYPED_TEST_SUITE(Decode, mftest::AllFormats, mftest::format_names);

// The class the library's float result falls in, as far as float can tell:
// NaN, infinite, zero or a finite non-zero number.
mfref::value_class coarse_class(double v) {
  if (std::isnan(v)) return mfref::value_class::nan;
  if (std::isinf(v)) return mfref::value_class::infinite;
  if (v == 0) return mfref::value_class::zero;
  return mfref::value_class::normal;
}

mfref::value_class coarse(mfref::value_class c) {
  return c == mfref::value_class::subnormal ? mfref::value_class::normal : c;
}

template <class T, class Out>
void expect_every_pattern_decodes_exactly() {
  const mfref::reference& ref = mftest::reference_for<T>();
  const bool nan_keeps_sign = ref.encoding_kind() == mfref::kind::ieee ||
                              ref.encoding_kind() == mfref::kind::fn;
  mftest::mismatch_log log;
  for (unsigned code = 0; code < ref.encoding_count(); ++code) {
    const T x = T::from_bits(static_cast<typename T::storage_type>(code));
    const Out got = static_cast<Out>(x);
    const mfref::decoded want = ref.decode(code);
    const auto describe = [&] {
      return std::string(ref.name()) + " " + hex(code) + " decodes to " +
             mftest::describe_input(got) + ", reference " +
             mftest::describe_input(want.value) + " (" + mfref::to_string(want.cls) + ")";
    };
    // Same class, same value (bit for bit, so the sign of zero counts), and
    // a NaN keeps its sign where the format's NaNs are signed; the one NaN
    // of the FNUZ formats and e8m0fnu decodes to +NaN (docs/semantics.md 2).
    log.expect_eq(static_cast<unsigned>(coarse_class(static_cast<double>(got))),
                  static_cast<unsigned>(coarse(want.cls)), describe);
    if (want.cls == mfref::value_class::nan) {
      if (nan_keeps_sign) {
        log.expect_eq(std::signbit(got), std::signbit(want.value), describe);
      } else {
        log.expect_eq(std::signbit(got), false, describe);
      }
    } else {
      log.expect_eq(static_cast<double>(got) == want.value, 1u, describe);
      log.expect_eq(std::signbit(got), std::signbit(want.value), describe);
    }
  }
  MFTEST_EXPECT_CLEAN(log, ref.encoding_count() * 2);
}

TYPED_TEST(Decode, EveryBitPatternToFloatIsExact) {
  expect_every_pattern_decodes_exactly<TypeParam, float>();
}

TYPED_TEST(Decode, EveryBitPatternToDoubleIsExact) {
  expect_every_pattern_decodes_exactly<TypeParam, double>();
}

TYPED_TEST(Decode, SubnormalsLieBelowTheSmallestNormalAndNormalsAtOrAbove) {
  // The reference's classes, checked against the library's values: a
  // subnormal encoding decodes below 2^(1-bias), a normal one at or above
  // (2^-bias for e8m0fnu, which has no subnormals).
  const mfref::reference& ref = mftest::reference_for<TypeParam>();
  const mfref::format_spec& spec = ref.spec();
  const double smallest_normal =
      std::ldexp(1.0, (spec.encoding == mfref::kind::fnu ? 0 : 1) - spec.bias);
  std::size_t checked = 0;
  for (unsigned code = 0; code < ref.encoding_count(); ++code) {
    const double v = static_cast<double>(
        TypeParam::from_bits(static_cast<typename TypeParam::storage_type>(code)));
    switch (ref.decode(code).cls) {
      case mfref::value_class::subnormal:
        EXPECT_LT(std::fabs(v), smallest_normal) << hex(code);
        EXPECT_GT(std::fabs(v), 0.0) << hex(code);
        ++checked;
        break;
      case mfref::value_class::normal:
        EXPECT_GE(std::fabs(v), smallest_normal) << hex(code);
        ++checked;
        break;
      default:
        break;
    }
  }
  EXPECT_GT(checked, 0u);
}

// The numbers the specification states for every format, read through the
// library's decoder: the largest finite value and the smallest positive
// value, at the encodings they must have.
struct stated_format {
  unsigned max_code;
  double max;
  unsigned min_code;
  double min_positive;
};

template <class T>
void expect_stated(const stated_format& s) {
  using S = typename T::storage_type;
  EXPECT_EQ(static_cast<double>(T::from_bits(static_cast<S>(s.max_code))), s.max)
      << mftest::spec_for<T>::value.name;
  EXPECT_EQ(static_cast<double>(T::from_bits(static_cast<S>(s.min_code))), s.min_positive)
      << mftest::spec_for<T>::value.name;
}

TEST(DecodeSpecificationTable, MaxFiniteAndSmallestPositiveOfEveryFormat) {
  expect_stated<mf::e4m3fn>({0x7E, 448, 0x01, 0x1p-9});
  expect_stated<mf::e4m3fnuz>({0x7F, 240, 0x01, 0x1p-10});
  expect_stated<mf::e5m2>({0x7B, 57344, 0x01, 0x1p-16});
  expect_stated<mf::e5m2fnuz>({0x7F, 57344, 0x01, 0x1p-17});
  expect_stated<mf::e2m1fn>({0x7, 6, 0x1, 0.5});
  expect_stated<mf::e2m3fn>({0x1F, 7.5, 0x01, 0.125});
  expect_stated<mf::e3m2fn>({0x1F, 28, 0x01, 0.0625});
  expect_stated<mf::e8m0fnu>({0xFE, 0x1p127, 0x00, 0x1p-127});
  expect_stated<mf::e4m3>({0x77, 240, 0x01, 0x1p-9});
  expect_stated<mf::e3m4>({0x6F, 15.5, 0x01, 0x1p-6});
  expect_stated<mf::e4m3b11fnuz>({0x7F, 30, 0x01, 0x1p-13});
  expect_stated<mf::binary16>({0x7BFF, 65504, 0x0001, 0x1p-24});
  expect_stated<mf::bfloat16>({0x7F7F, 0x1.FEp127, 0x0001, 0x1p-133});
}

TEST(DecodeSpecificationTable, SpecialEncodingsDecodeToTheirSpecialValues) {
  EXPECT_TRUE(std::isnan(static_cast<float>(mf::e4m3fn::from_bits(0x7F))));
  EXPECT_TRUE(std::isnan(static_cast<float>(mf::e4m3fn::from_bits(0xFF))));
  EXPECT_TRUE(std::signbit(static_cast<float>(mf::e4m3fn::from_bits(0xFF))));
  EXPECT_TRUE(std::signbit(static_cast<float>(mf::e4m3fn::from_bits(0x80))));
  EXPECT_EQ(static_cast<float>(mf::e4m3fn::from_bits(0x80)), 0.0f);
  EXPECT_TRUE(std::isnan(static_cast<float>(mf::e4m3fnuz::from_bits(0x80))));
  EXPECT_TRUE(std::isnan(static_cast<float>(mf::e5m2fnuz::from_bits(0x80))));
  EXPECT_TRUE(std::isnan(static_cast<float>(mf::e4m3b11fnuz::from_bits(0x80))));
  EXPECT_EQ(static_cast<float>(mf::e5m2::from_bits(0x7C)), INFINITY);
  EXPECT_EQ(static_cast<float>(mf::e5m2::from_bits(0xFC)), -INFINITY);
  EXPECT_TRUE(std::isnan(static_cast<float>(mf::e5m2::from_bits(0x7D))));
  EXPECT_TRUE(std::isnan(static_cast<float>(mf::e8m0fnu::from_bits(0xFF))));
  EXPECT_EQ(static_cast<float>(mf::e8m0fnu::from_bits(0x7F)), 1.0f);
  EXPECT_EQ(static_cast<float>(mf::e2m1fn::from_bits(0xF)), -6.0f);
  EXPECT_EQ(static_cast<float>(mf::e2m1fn::from_bits(0x8)), 0.0f);
  EXPECT_TRUE(std::signbit(static_cast<float>(mf::e2m1fn::from_bits(0x8))));
  EXPECT_EQ(static_cast<float>(mf::e4m3::from_bits(0x78)), INFINITY);
  EXPECT_EQ(static_cast<float>(mf::e3m4::from_bits(0x70)), INFINITY);
  EXPECT_EQ(static_cast<float>(mf::binary16::from_bits(0x7C00)), INFINITY);
  EXPECT_EQ(static_cast<float>(mf::bfloat16::from_bits(0xFF80)), -INFINITY);
}

}  // namespace
