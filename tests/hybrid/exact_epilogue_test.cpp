// exact(true)'s post-processing in 128-bit integers (the fast kernels'
// path, hybrid/exact_epilogue.hpp) against big_dyadic's (the reference
// loop's): wherever the 128-bit path answers, the same value and the same
// y2, bit for bit; and it declines, rather than answers, where a value
// would not fit or a zero's sign is at stake.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>

#include <minifloat/hybrid/exact_epilogue.hpp>

namespace {

namespace hy = mf::hybrid;
namespace hd = mf::hybrid::detail;

std::uint64_t bits_of(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

struct inputs {
  double terms[4];
  std::size_t n;
  double s;
  float bias;
  bool has_bias;
  float output;
  hy::output_scale_rule rule;
};

struct outcome {
  bool applies;
  double value, y2;
};

outcome general(const inputs& in) {
  hd::big_dyadic sum;
  for (std::size_t t = 0; t < in.n; ++t) sum.add(hd::big_dyadic::from_double(in.terms[t]));
  outcome r{false, 0.0, 0.0};
  r.applies = hd::exact_post_processing(sum, in.s, in.bias, in.has_bias, in.output, in.rule, &r.value, &r.y2);
  return r;
}

outcome narrow(const inputs& in) {
  outcome r{false, 0.0, 0.0};
  r.applies = hd::exact_post_processing_in_128_bits(in.terms, in.n, in.s, in.bias, in.has_bias, in.output,
                                                      in.rule, &r.value, &r.y2);
  return r;
}

// A float of `bits` random significant bits (1 to 24) times 2^e, e drawn
// so that float32's normal and subnormal ranges both occur.
float random_float(std::mt19937_64& rng) {
  const int bits = 1 + static_cast<int>(rng() % 24);
  const auto significand = static_cast<float>((rng() >> (64 - bits)) | 1u);
  const int e = static_cast<int>(rng() % 300) - 170;
  const float x = std::ldexp(significand, e - bits);
  return rng() % 2 ? -x : x;
}

// The sign of a zero result, which only big_dyadic decides (the 128-bit
// path declines a zero): a sum that cancels is +0, y1 = +0 * s takes s's
// sign, adding a bias keeps -0 only when the bias is -0 too, and the output
// scale's sign comes last, as the float32 path's zeros.
TEST(ExactEpilogue, SignOfAZeroResult) {
  const auto value_bits = [](double s, float bias, bool has_bias, float output) {
    const inputs in{{1.0, -1.0, 0.0, 0.0}, 2, s, bias, has_bias, output,
                    hy::output_scale_rule::multiply};
    const outcome r = general(in);
    EXPECT_TRUE(r.applies);
    return bits_of(r.value);
  };
  constexpr std::uint64_t plus_zero = 0, minus_zero = 0x8000000000000000u;
  EXPECT_EQ(value_bits(1.0, 0.0f, false, 1.0f), plus_zero);
  EXPECT_EQ(value_bits(-1.0, 0.0f, false, 1.0f), minus_zero);
  EXPECT_EQ(value_bits(1.0, -0.0f, true, 1.0f), plus_zero);
  EXPECT_EQ(value_bits(-1.0, -0.0f, true, 1.0f), minus_zero);
  EXPECT_EQ(value_bits(-1.0, 0.0f, true, 1.0f), plus_zero);
  EXPECT_EQ(value_bits(1.0, 0.0f, false, -1.0f), minus_zero);
}

// Sums that are float64 terms of the kinds the kernels make (one chain of
// up to 53 bits, two or four chains, limb terms of two magnitudes), scale
// products of two floats (powers of two, 1, zero among them), biases and
// output scales of every size, both rules. Where the 128-bit path answers,
// big_dyadic gives the same bits; both paths' answers are counted, so that
// a generator that never reaches one of them fails.
TEST(ExactEpilogue, IntegerPathEqualsBigDyadic) {
#if !defined(__SIZEOF_INT128__)
  GTEST_SKIP() << "no 128-bit integers: big_dyadic serves every element";
#endif
  std::mt19937_64 rng(2611);
  long narrow_answers = 0, declined = 0, declined_at_zero = 0;
  for (int c = 0; c < 300000; ++c) {
    inputs in{};
    in.n = 1 + rng() % 4;
    const int base = static_cast<int>(rng() % 520) - 298;  // the sums' unit: 2^-298 and up
    for (std::size_t t = 0; t < in.n; ++t) {
      const int bits = 1 + static_cast<int>(rng() % 53);
      const double m = static_cast<double>((rng() >> (64 - bits)) | 1u);
      const int spread = rng() % 3 == 0 ? static_cast<int>(rng() % 120) : static_cast<int>(rng() % 8);
      in.terms[t] = std::ldexp(rng() % 2 ? -m : m, base + spread);
    }
    if (rng() % 16 == 0 && in.n >= 2) in.terms[1] = -in.terms[0];  // cancellation, maybe to zero
    switch (rng() % 5) {
      case 0: in.s = 1.0; break;
      case 1: in.s = std::ldexp(1.0, static_cast<int>(rng() % 200) - 100); break;
      case 2: in.s = rng() % 2 ? 0.0 : -0.0; break;
      default: in.s = static_cast<double>(random_float(rng)) * random_float(rng);
    }
    in.has_bias = rng() % 2 == 0;
    if (in.has_bias) {
      switch (rng() % 4) {
        case 0: in.bias = rng() % 2 ? 0.0f : -0.0f; break;
        case 1:  // minus the product where it is a float: y2 = 0
          in.bias = static_cast<float>(-(in.terms[0] * in.s));
          if (in.n > 1) in.terms[1] = 0.0;
          break;
        default: in.bias = random_float(rng);
      }
    }
    in.output = rng() % 3 == 0 ? std::ldexp(1.0f, static_cast<int>(rng() % 60) - 30) : random_float(rng);
    in.rule = rng() % 2 ? hy::output_scale_rule::divide : hy::output_scale_rule::multiply;
    const outcome a = narrow(in), b = general(in);
    if (!a.applies) {
      ++declined;
      if (b.applies && b.value == 0) ++declined_at_zero;
      continue;
    }
    ++narrow_answers;
    ASSERT_TRUE(b.applies) << "case " << c;
    ASSERT_EQ(bits_of(a.value), bits_of(b.value)) << "case " << c << ": " << a.value << " vs " << b.value;
    ASSERT_EQ(bits_of(a.y2), bits_of(b.y2)) << "case " << c << ": " << a.y2 << " vs " << b.y2;
  }
  EXPECT_GT(narrow_answers, 120000);  // 143,187 with this seed
  EXPECT_GT(declined, 100000);  // 156,813
  EXPECT_GT(declined_at_zero, 30000);  // 60,335
}

// The path at its widths: 53-bit sums times 48-bit scale products times
// 24-bit output scales (125 bits); a 123-bit sum times a 5-bit scale
// product (128 bits), divided with no room to shift, and declined where an
// output scale would take it past 128 bits; sums at the 125-bit limit of
// an addition and past it; a zero sum with a bias. Then quotients.
TEST(ExactEpilogue, IntegerPathAtItsWidestAndOnRemainders) {
#if !defined(__SIZEOF_INT128__)
  GTEST_SKIP() << "no 128-bit integers: big_dyadic serves every element";
#endif
  const double widest_term = 0x1.fffffffffffffp+40;  // 53 bits
  const double widest_scale = static_cast<double>(0x1.fffffep+0f) * 0x1.fffffep-3f;  // 48 bits
  for (const auto rule : {hy::output_scale_rule::multiply, hy::output_scale_rule::divide}) {
    for (const float output : {3.0f, 0x1.fffffep+0f, 0x1.000002p-7f, -0.1f}) {
      for (const double term : {1.0, 3.0, widest_term, -widest_term}) {
        for (const double s : {1.0, widest_scale}) {
          const inputs in{{term}, 1, s, 0.0f, false, output, rule};
          const outcome a = narrow(in), b = general(in);
          ASSERT_TRUE(a.applies) << term << " " << s << " " << output;
          ASSERT_TRUE(b.applies);
          EXPECT_EQ(bits_of(a.value), bits_of(b.value)) << term << " " << s << " " << output;
          EXPECT_EQ(bits_of(a.y2), bits_of(b.y2));
        }
      }
    }
  }
  const auto same_as_big_dyadic = [](const inputs& in, bool applies) {
    const outcome a = narrow(in), b = general(in);
    ASSERT_EQ(a.applies, applies);
    ASSERT_TRUE(b.applies);
    if (!applies) return;
    EXPECT_EQ(bits_of(a.value), bits_of(b.value)) << in.terms[0] << " " << in.s << " " << in.output;
    EXPECT_EQ(bits_of(a.y2), bits_of(b.y2));
  };
  const double wide_sum_part = 0x1.fffffffffffffp+122;  // (2^53 - 1) 2^70; plus 1: 123 bits
  const auto divide = hy::output_scale_rule::divide, multiply = hy::output_scale_rule::multiply;
  same_as_big_dyadic({{wide_sum_part, 1.0}, 2, 31.0, 0.0f, false, 3.0f, divide}, true);     // 128 bits
  same_as_big_dyadic({{wide_sum_part, -1.0}, 2, -31.0, 0.0f, false, -0.1f, divide}, true);  // 128 bits
  same_as_big_dyadic({{wide_sum_part, 1.0}, 2, 31.0, 0.0f, false, 1.0f, multiply}, false);  // 129 bits
  same_as_big_dyadic({{wide_sum_part, 1.0}, 2, 63.0, 0.0f, false, 3.0f, divide}, false);    // 129 bits
  same_as_big_dyadic({{0x1p124, 1.0}, 2, 1.0, 0.0f, false, 3.0f, multiply}, true);          // 125 bits
  same_as_big_dyadic({{0x1p125, 1.0}, 2, 1.0, 0.0f, false, 3.0f, multiply}, false);         // 126 bits
  same_as_big_dyadic({{0x1p125}, 1, 1.0, 1.0f, true, 3.0f, multiply}, false);               // bias too
  same_as_big_dyadic({{0x1p124}, 1, 1.0, 1.0f, true, 3.0f, divide}, true);
  same_as_big_dyadic({{2.0, -2.0}, 2, 0.3, -1.5f, true, 3.0f, divide}, true);               // y2 = bias
  same_as_big_dyadic({{2.0}, 1, 0.0, 1.5f, true, 3.0f, multiply}, true);
  same_as_big_dyadic({{2.0, -2.0}, 2, 0.3, 0.0f, true, 3.0f, divide}, false);               // y2 = 0
  // 1 / 3 rounded to odd: 0x1.5555555555555p-2 is odd already; 2 / 3's
  // truncation 0x1.5555555555555p-1 too; 4 / 3 the same one binade up.
  for (const double term : {1.0, 2.0, 4.0}) {
    const inputs in{{term}, 1, 1.0, 0.0f, false, 3.0f, hy::output_scale_rule::divide};
    const outcome a = narrow(in);
    ASSERT_TRUE(a.applies);
    EXPECT_EQ(a.value, term * 0x1.5555555555555p-2);
  }
  // (d 2^100 + 1) / d = 2^100 + 1/d for d = 2^24 - 1 (y2 = S + bias, 124
  // bits): shifted 4 bits up and divided, the quotient is 2^104 exactly,
  // and only the remainder, 16, says it is inexact; rounded to odd it is
  // 2^100 + 2^48. Both signs.
  const float d = 0xffffffp0f;
  for (const double sign : {1.0, -1.0}) {
    const inputs in{{sign * d * 0x1p100}, 1, 1.0, static_cast<float>(sign), true, d,
                    hy::output_scale_rule::divide};
    const outcome a = narrow(in), b = general(in);
    ASSERT_TRUE(a.applies);
    EXPECT_EQ(a.value, sign * (0x1p100 + 0x1p48));
    EXPECT_EQ(bits_of(a.value), bits_of(b.value));
  }
}

}  // namespace
