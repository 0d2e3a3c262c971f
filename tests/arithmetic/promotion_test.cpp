// Type promotion of mixed operations, decided at compile time:
//   same type -> same type; with float -> float; with double -> double;
//   with an integer -> float; two formats -> the one of the two that
//   represents every value of the other exactly (the smaller if both do),
//   otherwise float.
// The static_asserts pin the rule on named pairs; the runtime test proves the
// compile-time rule on every pair of formats by brute force over encodings.
#include <cmath>
#include <cstdint>
#include <set>
#include <string>
#include <type_traits>
#include <utility>

#include <gtest/gtest.h>

#include <minifloat/minifloat.hpp>

#include "support/format_catalog.hpp"

namespace {

using mf::promote_t;
using std::is_same;

// ---------------------------------------------------------------------------
// Same type -> same type.
// ---------------------------------------------------------------------------
static_assert(is_same<promote_t<mf::e4m3fn, mf::e4m3fn>, mf::e4m3fn>::value, "");
static_assert(is_same<promote_t<mf::e5m2fnuz, mf::e5m2fnuz>, mf::e5m2fnuz>::value, "");
static_assert(is_same<promote_t<mf::e2m1fn, mf::e2m1fn>, mf::e2m1fn>::value, "");
static_assert(is_same<promote_t<mf::e8m0fnu, mf::e8m0fnu>, mf::e8m0fnu>::value, "");
static_assert(is_same<promote_t<mf::bfloat16, mf::bfloat16>, mf::bfloat16>::value, "");
static_assert(is_same<mf::half, mf::binary16>::value, "half is binary16");

// ---------------------------------------------------------------------------
// With a built-in type.
// ---------------------------------------------------------------------------
static_assert(is_same<promote_t<mf::e4m3fn, float>, float>::value, "");
static_assert(is_same<promote_t<float, mf::e4m3fn>, float>::value, "");
static_assert(is_same<promote_t<mf::bfloat16, float>, float>::value, "");
static_assert(is_same<promote_t<mf::e8m0fnu, float>, float>::value, "");
static_assert(is_same<promote_t<mf::e4m3fn, double>, double>::value, "");
static_assert(is_same<promote_t<double, mf::binary16>, double>::value, "");
static_assert(is_same<promote_t<mf::e2m1fn, int>, float>::value, "");
static_assert(is_same<promote_t<unsigned, mf::e5m2>, float>::value, "");
static_assert(is_same<promote_t<mf::e5m2, long long>, float>::value, "");
static_assert(is_same<promote_t<mf::e4m3fnuz, std::int8_t>, float>::value, "");
static_assert(is_same<promote_t<std::uint64_t, mf::binary16>, float>::value, "");

// ---------------------------------------------------------------------------
// Two formats. Worked out from "the one that represents every value of the
// other exactly, otherwise float" (values include -0, Inf and NaN):
// ---------------------------------------------------------------------------
// The examples of docs/semantics.md, section 6.
static_assert(is_same<promote_t<mf::bfloat16, mf::e4m3fn>, mf::bfloat16>::value, "");
static_assert(is_same<promote_t<mf::e4m3fn, mf::bfloat16>, mf::bfloat16>::value, "");
static_assert(is_same<promote_t<mf::binary16, mf::e5m2>, mf::binary16>::value, "");
static_assert(is_same<promote_t<mf::e5m2, mf::binary16>, mf::binary16>::value, "");
static_assert(is_same<promote_t<mf::e4m3fn, mf::e2m1fn>, mf::e4m3fn>::value, "");
static_assert(is_same<promote_t<mf::e2m1fn, mf::e4m3fn>, mf::e4m3fn>::value, "");
// e4m3fn has 448 (e5m2 does not: 2 mantissa bits); e5m2 has 57344 and Inf.
static_assert(is_same<promote_t<mf::e4m3fn, mf::e5m2>, float>::value, "");
// e5m2 lacks e4m3fnuz's 3-bit mantissas; e4m3fnuz lacks 57344.
static_assert(is_same<promote_t<mf::e5m2, mf::e4m3fnuz>, float>::value, "");
// e5m2 lacks e5m2fnuz's 2^-17; e5m2fnuz lacks Inf and -0.
static_assert(is_same<promote_t<mf::e5m2, mf::e5m2fnuz>, float>::value, "");
// e4m3fn lacks e4m3fnuz's smallest subnormal 2^-10 (its own is 2^-9);
// e4m3fnuz lacks 448 and -0.
static_assert(is_same<promote_t<mf::e4m3fn, mf::e4m3fnuz>, float>::value, "");
// An FNUZ format has no -0, so it cannot hold e2m1fn's -0.
static_assert(is_same<promote_t<mf::e4m3fnuz, mf::e2m1fn>, float>::value, "");
static_assert(is_same<promote_t<mf::e5m2fnuz, mf::e2m1fn>, float>::value, "");
// The MX element types nest: e2m1fn in e2m3fn and e3m2fn, all in e4m3fn.
static_assert(is_same<promote_t<mf::e2m3fn, mf::e2m1fn>, mf::e2m3fn>::value, "");
static_assert(is_same<promote_t<mf::e3m2fn, mf::e2m1fn>, mf::e3m2fn>::value, "");
static_assert(is_same<promote_t<mf::e3m2fn, mf::e2m3fn>, float>::value, "");
static_assert(is_same<promote_t<mf::e4m3fn, mf::e2m3fn>, mf::e4m3fn>::value, "");
static_assert(is_same<promote_t<mf::e4m3fn, mf::e3m2fn>, mf::e4m3fn>::value, "");
static_assert(is_same<promote_t<mf::e5m2, mf::e3m2fn>, mf::e5m2>::value, "");
static_assert(is_same<promote_t<mf::e5m2, mf::e2m3fn>, float>::value, "");
static_assert(is_same<promote_t<mf::e3m4, mf::e2m3fn>, mf::e3m4>::value, "");
static_assert(is_same<promote_t<mf::e4m3, mf::e2m1fn>, mf::e4m3>::value, "");
// e4m3 has Inf (e4m3fn does not); e4m3fn has 448 (e4m3 stops at 240).
static_assert(is_same<promote_t<mf::e4m3, mf::e4m3fn>, float>::value, "");
static_assert(is_same<promote_t<mf::e4m3b11fnuz, mf::e4m3fnuz>, float>::value, "");
// e8m0fnu: powers of two 2^-127..2^127 and NaN; only bfloat16 reaches them.
static_assert(is_same<promote_t<mf::e8m0fnu, mf::bfloat16>, mf::bfloat16>::value, "");
static_assert(is_same<promote_t<mf::e8m0fnu, mf::binary16>, float>::value, "");
static_assert(is_same<promote_t<mf::e8m0fnu, mf::e4m3fn>, float>::value, "");
// binary16 holds every 8-bit format except e8m0fnu (and bfloat16 holds them
// all); binary16 and bfloat16 do not hold each other.
static_assert(is_same<promote_t<mf::binary16, mf::e4m3fnuz>, mf::binary16>::value, "");
static_assert(is_same<promote_t<mf::e5m2fnuz, mf::binary16>, mf::binary16>::value, "");
static_assert(is_same<promote_t<mf::e4m3b11fnuz, mf::binary16>, mf::binary16>::value, "");
static_assert(is_same<promote_t<mf::bfloat16, mf::e5m2fnuz>, mf::bfloat16>::value, "");
static_assert(is_same<promote_t<mf::binary16, mf::bfloat16>, float>::value, "");

// ---------------------------------------------------------------------------
// The operators' result types follow promote_t.
// ---------------------------------------------------------------------------
template <class A, class B>
using sum_t = decltype(std::declval<A>() + std::declval<B>());
template <class A, class B>
using difference_t = decltype(std::declval<A>() - std::declval<B>());
template <class A, class B>
using product_t = decltype(std::declval<A>() * std::declval<B>());
template <class A, class B>
using quotient_t = decltype(std::declval<A>() / std::declval<B>());
template <class A, class B>
using less_t = decltype(std::declval<A>() < std::declval<B>());

static_assert(is_same<sum_t<mf::e4m3fn, mf::e4m3fn>, mf::e4m3fn>::value, "");
static_assert(is_same<product_t<mf::e4m3fn, mf::e2m1fn>, mf::e4m3fn>::value, "");
static_assert(is_same<difference_t<mf::e2m1fn, mf::e4m3fn>, mf::e4m3fn>::value, "");
static_assert(is_same<quotient_t<mf::e4m3fn, mf::e5m2>, float>::value, "");
static_assert(is_same<sum_t<mf::bfloat16, mf::e4m3fn>, mf::bfloat16>::value, "");
static_assert(is_same<product_t<mf::e5m2, mf::binary16>, mf::binary16>::value, "");
static_assert(is_same<sum_t<mf::e4m3fn, float>, float>::value, "");
static_assert(is_same<product_t<double, mf::e4m3fn>, double>::value, "");
static_assert(is_same<difference_t<mf::e4m3fn, int>, float>::value, "");
static_assert(is_same<quotient_t<unsigned char, mf::e8m0fnu>, float>::value, "");
static_assert(is_same<less_t<mf::e4m3fn, mf::e5m2>, bool>::value, "");
static_assert(is_same<decltype(-std::declval<mf::e4m3fn>()), mf::e4m3fn>::value, "");
// Conversion to float is implicit (exact); construction from float is explicit.
static_assert(std::is_convertible<mf::e4m3fn, float>::value, "");
static_assert(!std::is_convertible<float, mf::e4m3fn>::value, "");
static_assert(!std::is_convertible<double, mf::e4m3fn>::value, "");
static_assert(!std::is_convertible<int, mf::e4m3fn>::value, "");
static_assert(std::is_constructible<mf::e4m3fn, double>::value, "");

// ---------------------------------------------------------------------------
// The runtime proof: brute force decides, for every ordered pair of formats,
// whether each represents every value of the other, and checks that
// promote_t agrees; where promote_t names a format, every value of the other
// also converts into it exactly through the library's conversion.
// ---------------------------------------------------------------------------
struct value_set {
  std::set<double> finite;  // +0 and -0 compare equal here; tracked below
  bool negative_zero = false;
  bool infinity = false;
  bool nan = false;
};

template <class T>
value_set values_of() {
  value_set set;
  for (std::uint32_t bits = 0; bits < mft::params<T>::count; ++bits) {
    const mft::decoded d = mft::reference_decode<T>(bits);
    if (d.cls == mft::value_class::nan) {
      set.nan = true;
    } else if (d.cls == mft::value_class::infinite) {
      set.infinity = true;
    } else {
      set.finite.insert(d.value);
      if (d.cls == mft::value_class::zero && d.sign_bit) set.negative_zero = true;
    }
  }
  return set;
}

bool holds(const value_set& holder, const value_set& other) {
  if (other.nan && !holder.nan) return false;
  if (other.infinity && !holder.infinity) return false;
  if (other.negative_zero && !holder.negative_zero) return false;
  for (const double v : other.finite) {
    if (holder.finite.count(v) == 0) return false;
  }
  return true;
}

// Every value of From converts into To exactly (NaN to NaN, -0 to -0).
template <class To, class From>
void expect_every_value_converts_exactly() {
  for (std::uint32_t bits = 0; bits < mft::params<From>::count; ++bits) {
    const From x = mft::from_bits<From>(bits);
    const float original = static_cast<float>(x);
    const float converted = static_cast<float>(static_cast<To>(x));
    if (std::isnan(original)) {
      ASSERT_TRUE(std::isnan(converted)) << mft::hex(bits);
    } else {
      ASSERT_EQ(converted, original) << mft::format_name<From>() << " " << mft::hex(bits)
                                     << " into " << mft::format_name<To>();
      ASSERT_EQ(std::signbit(converted), std::signbit(original)) << mft::hex(bits);
    }
  }
}

TEST(Promotion, OfTwoFormatsIsTheOneHoldingEveryValueOfTheOtherElseFloat) {
  int pairs_checked = 0, pairs_promoting_to_a_format = 0;
  mft::for_each_type(mft::all_format_list{}, [&](auto* a_tag) {
    using A = std::remove_pointer_t<decltype(a_tag)>;
    mft::for_each_type(mft::all_format_list{}, [&](auto* b_tag) {
      using B = std::remove_pointer_t<decltype(b_tag)>;
      using P = promote_t<A, B>;
      const value_set a = values_of<A>();
      const value_set b = values_of<B>();
      const bool a_holds_b = holds(a, b);
      const bool b_holds_a = holds(b, a);
      std::string expected = "float";
      if (a_holds_b && b_holds_a) {
        expected = sizeof(B) < sizeof(A) ? mft::format_name<B>() : mft::format_name<A>();
      } else if (a_holds_b) {
        expected = mft::format_name<A>();
      } else if (b_holds_a) {
        expected = mft::format_name<B>();
      }
      std::string actual = "float";
      if constexpr (!std::is_same<P, float>::value) actual = mft::format_name<P>();
      EXPECT_EQ(actual, expected) << "promote_t<" << mft::format_name<A>() << ", "
                                  << mft::format_name<B>() << ">";
      if constexpr (mf::is_minifloat_v<P>) {
        ++pairs_promoting_to_a_format;
        expect_every_value_converts_exactly<P, A>();
        expect_every_value_converts_exactly<P, B>();
      }
      ++pairs_checked;
    });
  });
  EXPECT_EQ(pairs_checked, 13 * 13);
  EXPECT_GT(pairs_promoting_to_a_format, 13);  // more than the diagonal
}

}  // namespace
