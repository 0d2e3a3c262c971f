// The integer MatMul's fast path (I8 x I8 -> I8 and U8 x U8 -> U8 on the
// byte tiles: VPDPBUSD, VPMADDWD pairs, scalar) on every ISA this machine
// runs, against a reference written here, differently from the library:
// the int32 accumulator as an int64 sum reduced modulo 2^32, and the
// requantization from exact arithmetic (`exact`: the product in long
// double, exact for an int32 times a float, rounded by nearbyintl; `fp32`:
// float(acc) * scale rounded by nearbyintf), saturated. Wide-range codes
// (uniform over all 256), tails in M, N and K (table `any`), 1-3 threads,
// both rules, scales from 2^-70 to 2^40 of both signs, the int32 wrap, the
// rounding modes (the fp32 rule follows MXCSR as the scalar rule does), and
// the library's own reference loop (`reference_only`) as a second check.
#include <gtest/gtest.h>

#include <algorithm>
#include <cfenv>
#include <climits>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <random>
#include <vector>

#include <minifloat/hybrid.hpp>

#include "support/isa_tests.hpp"

namespace {

namespace hy = mf::hybrid;

class IntegerMatMul : public mft::per_isa {};

struct integer_case {
  bool is_signed;
  std::size_t m, n, k;
  std::vector<std::uint8_t> a, b;  // the operands' bytes (two's complement for I8)
};

integer_case random_case(bool is_signed, std::size_t m, std::size_t n, std::size_t k,
                         std::mt19937_64& rng) {
  integer_case c{is_signed, m, n, k, std::vector<std::uint8_t>(m * k), std::vector<std::uint8_t>(k * n)};
  for (auto& x : c.a) x = static_cast<std::uint8_t>(rng());
  for (auto& x : c.b) x = static_cast<std::uint8_t>(rng());
  return c;
}

std::int64_t value_of(std::uint8_t byte, bool is_signed) {
  return is_signed ? static_cast<std::int64_t>(static_cast<std::int8_t>(byte)) : byte;
}

// sum_p a[i][p] * b[p][j] reduced modulo 2^32 to int32.
std::vector<std::int32_t> expected_accumulators(const integer_case& c) {
  std::vector<std::int32_t> acc(c.m * c.n);
  for (std::size_t i = 0; i < c.m; ++i) {
    for (std::size_t j = 0; j < c.n; ++j) {
      std::int64_t sum = 0;
      for (std::size_t p = 0; p < c.k; ++p) {
        sum += value_of(c.a[i * c.k + p], c.is_signed) * value_of(c.b[p * c.n + j], c.is_signed);
      }
      const auto wrapped = static_cast<std::uint32_t>(static_cast<std::uint64_t>(sum));
      acc[i * c.n + j] = static_cast<std::int32_t>(wrapped);
    }
  }
  return acc;
}

std::uint8_t expected_output(std::int32_t acc, float scale, hy::requantization rule, bool is_signed) {
  const long double lo = is_signed ? -128 : 0, hi = is_signed ? 127 : 255;
  long double r;
  if (rule == hy::requantization::exact) {
    r = std::nearbyintl(static_cast<long double>(acc) * static_cast<long double>(scale));
  } else {
    const float y = static_cast<float>(acc) * scale;
    r = std::isinf(y) ? (y > 0 ? hi : lo) : std::nearbyintf(y);
  }
  r = r < lo ? lo : (r > hi ? hi : r);
  return static_cast<std::uint8_t>(static_cast<std::int64_t>(r) & 0xFF);
}

template <class T>
std::vector<T> as(const std::vector<std::uint8_t>& bytes) {
  std::vector<T> out(bytes.size());
  for (std::size_t i = 0; i < bytes.size(); ++i) out[i] = static_cast<T>(bytes[i]);
  return out;
}

// Runs the case through the typed entry (fast unless reference_only) and
// checks the accumulators and the output bytes against the expectations.
template <class T>
::testing::AssertionResult check(const integer_case& c, hy::matmul_options o) {
  const std::vector<T> a = as<T>(c.a), b = as<T>(c.b);
  std::vector<T> out(c.m * c.n);
  std::vector<std::int32_t> acc(c.m * c.n, 0x5a5a5a5a);
  o.integer_accumulator = acc.data();
  hy::matmul<hy::any>(a.data(), c.k, b.data(), c.n, out.data(), c.n, c.m, c.n, c.k, o);
  const std::vector<std::int32_t> expected = expected_accumulators(c);
  for (std::size_t e = 0; e < expected.size(); ++e) {
    const std::uint8_t want = expected_output(expected[e], o.integer_scale, o.requant, c.is_signed);
    const auto got = static_cast<std::uint8_t>(out[e]);
    if (acc[e] != expected[e] || got != want) {
      return ::testing::AssertionFailure()
             << "element " << e << " of " << c.m << "x" << c.n << "x" << c.k << ": acc "
             << acc[e] << " (want " << expected[e] << "), out " << int(got) << " (want "
             << int(want) << "), scale " << o.integer_scale;
    }
  }
  return ::testing::AssertionSuccess();
}

::testing::AssertionResult check(const integer_case& c, const hy::matmul_options& o) {
  return c.is_signed ? check<std::int8_t>(c, o) : check<std::uint8_t>(c, o);
}

float random_scale(std::mt19937_64& rng) {
  const int e = static_cast<int>(rng() % 111) - 70;  // 2^-70 .. 2^40
  const float m = 1.0f + static_cast<float>(rng() % (1u << 23)) * 0x1p-23f;
  return (rng() & 1 ? -1.0f : 1.0f) * std::ldexp(rng() % 4 == 0 ? 1.0f : m, e);
}

TEST_P(IntegerMatMul, RandomCodesShapesScalesAndThreads) {
  std::mt19937_64 rng(41);
  const std::size_t ks[] = {0, 1, 3, 4, 5, 16, 33, 64, 67, 130, 515, 600};
  for (int trial = 0; trial < 240; ++trial) {
    const bool is_signed = trial % 2 == 0;
    const std::size_t m = 1 + rng() % 14, n = 1 + rng() % 140, k = ks[rng() % 12];
    const integer_case c = random_case(is_signed, m, n, k, rng);
    hy::matmul_options o;
    o.requant = trial % 4 < 2 ? hy::requantization::exact : hy::requantization::fp32;
    o.integer_scale = trial % 8 < 4 ? random_scale(rng) : std::ldexp(1.0f, -static_cast<int>(rng() % 20));
    o.threads = 1 + trial % 3;
    ASSERT_TRUE(check(c, o)) << "trial " << trial;
  }
}

TEST_P(IntegerMatMul, LargeBlocksAcrossKBlocksAndRowBlocks) {
  std::mt19937_64 rng(42);
  for (bool is_signed : {true, false}) {
    const integer_case c = random_case(is_signed, 101, 197, 1100, rng);
    hy::matmul_options o;
    o.integer_scale = 0x1p-14f;
    o.threads = 2;
    ASSERT_TRUE(check(c, o));
  }
}

// U8 x U8 at K = 33,056 with every code 255: 255^2 * K passes 2^31, so the
// int32 accumulator wraps (as the model says), and the output saturates
// or not by the wrapped value.
TEST_P(IntegerMatMul, Int32WrapsAtLargeK) {
  integer_case c{false, 2, 33, 33056, {}, {}};
  c.a.assign(c.m * c.k, 255);
  c.b.assign(c.k * c.n, 255);
  c.b[5] = 0;  // one column differs
  hy::matmul_options o;
  o.integer_scale = 0x1p-24f;
  ASSERT_LT(expected_accumulators(c)[0], 0);  // wrapped
  ASSERT_TRUE(check(c, o));
  o.requant = hy::requantization::fp32;
  ASSERT_TRUE(check(c, o));
}

TEST_P(IntegerMatMul, Fp32RuleFollowsTheRoundingMode) {
  std::mt19937_64 rng(43);
  for (int mode : {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
    ASSERT_EQ(std::fesetround(mode), 0);
    const integer_case c = random_case(true, 9, 70, 48, rng);
    hy::matmul_options o;
    o.requant = hy::requantization::fp32;
    o.integer_scale = 0.3f / 4096;  // not a power of two: the product rounds
    const auto result = check(c, o);
    // Several row blocks on 3 threads: the workers round in the caller's
    // mode too.
    const integer_case tall = random_case(true, 150, 40, 48, rng);
    o.threads = 3;
    const auto threaded = check(tall, o);
    std::fesetround(FE_TONEAREST);
    ASSERT_TRUE(result) << "rounding mode " << mode;
    ASSERT_TRUE(threaded) << "rounding mode " << mode << ", 3 threads";
  }
}

// The run-time entry (uint32 codes) with padded leading dimensions (junk
// in the padding), against the library's reference loop.
TEST_P(IntegerMatMul, SameBitsAsTheReferenceLoopOnRunTimeCodes) {
  std::mt19937_64 rng(44);
  for (auto type : {hy::element_type::i8, hy::element_type::u8}) {
    const std::size_t m = 13, n = 67, k = 48, lda = k + 3, ldb = n + 5, ldc = n + 2;
    std::vector<std::uint32_t> a(m * lda), b(k * ldb), fast(m * ldc, 7u), reference(m * ldc, 7u);
    for (auto& x : a) x = static_cast<std::uint32_t>(rng()) & 0xFFu;
    for (auto& x : b) x = static_cast<std::uint32_t>(rng()) & 0xFFu;
    for (auto rule : {hy::requantization::exact, hy::requantization::fp32}) {
      hy::matmul_options o;
      o.requant = rule;
      o.integer_scale = random_scale(rng);
      o.threads = 2;
      hy::matmul(hy::table_id::vendor_hybrid_fp8, type, type, type, a.data(), lda, b.data(), ldb,
                 fast.data(), ldc, m, n, k, o);
      o.reference_only = true;
      hy::matmul(hy::table_id::vendor_hybrid_fp8, type, type, type, a.data(), lda, b.data(), ldb,
                 reference.data(), ldc, m, n, k, o);
      ASSERT_EQ(fast, reference);
    }
  }
}

TEST_P(IntegerMatMul, EmptyShapesAndBadScale) {
  std::mt19937_64 rng(45);
  for (std::size_t m : {0u, 3u}) {
    for (std::size_t n : {0u, 5u}) {
      const integer_case c = random_case(true, m, n, 0, rng);
      ASSERT_TRUE(check(c, hy::matmul_options{}));
    }
  }
  const integer_case c = random_case(true, 2, 2, 16, rng);
  std::vector<std::int8_t> a = as<std::int8_t>(c.a), b = as<std::int8_t>(c.b), out(4);
  hy::matmul_options o;
  o.integer_scale = std::numeric_limits<float>::infinity();
  EXPECT_THROW(hy::matmul(a.data(), 16, b.data(), 2, out.data(), 2, 2, 2, 16, o), hy::unsupported);
}

// What an integer MatMul would ignore is rejected, on the fast path and the
// reference alike: the float MatMul's scales, bias and output scale, and
// model parameters that no request takes. The model itself is not used.
TEST_P(IntegerMatMul, RejectsWhatItWouldIgnore) {
  std::mt19937_64 rng(46);
  const integer_case c = random_case(true, 2, 2, 16, rng);
  const std::vector<std::int8_t> a = as<std::int8_t>(c.a), b = as<std::int8_t>(c.b);
  const float column_scales[2] = {1.0f, 1.0f};
  float float_acc[4] = {};
  std::vector<std::function<void(hy::matmul_options&)>> mistakes = {
      [&](hy::matmul_options& o) { o.accumulator = float_acc; },
      [](hy::matmul_options& o) { o.model.exact_to_output = true; },
      [](hy::matmul_options& o) { o.scales.a = 2.0f; },
      [](hy::matmul_options& o) { o.scales.b = std::numeric_limits<float>::quiet_NaN(); },
      [](hy::matmul_options& o) { o.scales.output = 0.5f; },
      [&](hy::matmul_options& o) { o.scales.b_columns = column_scales; },
      [&](hy::matmul_options& o) { o.scales.bias = column_scales; },
      [](hy::matmul_options& o) { o.model = hy::models::amx_tile_pairs(3); },
      [](hy::matmul_options& o) { o.model.nans = hy::nan_payload::propagate; }};
  for (const bool reference : {false, true}) {
    for (std::size_t i = 0; i < mistakes.size(); ++i) {
      hy::matmul_options o;
      o.reference_only = reference;
      mistakes[i](o);
      std::vector<std::int8_t> out(4, 7);
      EXPECT_THROW(hy::matmul(a.data(), 16, b.data(), 2, out.data(), 2, 2, 2, 16, o), hy::unsupported)
          << "mistake " << i << (reference ? " (reference)" : "");
      EXPECT_EQ(out, std::vector<std::int8_t>(4, 7));
    }
    hy::matmul_options o;  // a valid model: not used, accepted
    o.reference_only = reference;
    o.model = hy::models::chunked_exact(64);
    std::vector<std::int8_t> out(4);
    EXPECT_NO_THROW(hy::matmul(a.data(), 16, b.data(), 2, out.data(), 2, 2, 2, 16, o));
  }
}

// The requantization each ISA runs (its vector form,
// target_kernels::requantize, or the scalar rule where it has none) against
// this file's rule (expected_output), element for element: accumulators on
// each side of the exact rule's ties for every right shift an int32 can
// reach (scale 2^-s: acc = q * 2^s + 2^(s-1), +-1; the shifts of 1 to 23,
// those of scales from 1 to 2^23, through scales with a few fraction bits
// and small accumulators, which meet their ties often), the int32 extremes,
// random accumulators under random scales of both signs (2^-70 .. 2^40),
// signed and unsigned outputs, both rules, the fp32 rule in every rounding
// mode; rows of 37 (vectors and a tail).
TEST_P(IntegerMatMul, RequantizationMatchesTheRuleElementByElement) {
  const hy::kernels::requantize_function vector_form = hy::kernels::detail::target_for(GetParam()).requantize;
  std::mt19937_64 rng(46);
  const std::size_t n = 37;
  std::vector<std::int32_t> acc(n);
  std::vector<std::uint8_t> out(n);
  int compared = 0;
  const auto compare = [&](float scale, hy::requantization rule, bool is_signed) {
    const hy::detail::requantizer q(scale, rule, is_signed);
    if (vector_form != nullptr) {
      vector_form(q, acc.data(), n, out.data());
    } else {
      for (std::size_t j = 0; j < n; ++j) out[j] = q(acc[j]);
    }
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint8_t want = expected_output(acc[j], scale, rule, is_signed);
      if (out[j] != want) {
        ADD_FAILURE() << "acc " << acc[j] << " scale " << scale << (is_signed ? " signed" : " unsigned")
                      << (rule == hy::requantization::exact ? " exact" : " fp32") << ": " << int(out[j])
                      << ", want " << int(want) << (vector_form != nullptr ? " (vector form)" : "");
        return false;
      }
    }
    ++compared;
    return true;
  };
  for (int s = 1; s <= 30; ++s) {
    for (std::size_t j = 0; j < n; ++j) {
      const auto quotient = static_cast<std::int64_t>(rng() % 512) - 256;
      const std::int64_t tie = quotient * (std::int64_t{1} << s) + (std::int64_t{1} << (s - 1));
      const std::int64_t v = tie + static_cast<std::int64_t>(j % 3) - 1;
      acc[j] = static_cast<std::int32_t>(std::max<std::int64_t>(INT32_MIN, std::min<std::int64_t>(INT32_MAX, v)));
    }
    acc[0] = INT32_MIN;
    acc[1] = INT32_MAX;
    for (const bool is_signed : {true, false}) {
      for (const float sign : {1.0f, -1.0f}) {
        ASSERT_TRUE(compare(sign * std::ldexp(1.0f, -s), hy::requantization::exact, is_signed)) << "s " << s;
      }
    }
  }
  for (const float magnitude : {1.5f, 2.5f, 0.375f, 3.75f, 12.5f, 1000.5f, 0x1p22f + 0.5f, 0x1p23f - 0.5f}) {
    for (auto& a : acc) a = static_cast<std::int32_t>(rng() % 4001) - 2000;
    for (const bool is_signed : {true, false}) {
      for (const float sign : {1.0f, -1.0f}) {
        ASSERT_TRUE(compare(sign * magnitude, hy::requantization::exact, is_signed)) << magnitude;
      }
    }
  }
  for (int trial = 0; trial < 400; ++trial) {
    for (auto& a : acc) a = static_cast<std::int32_t>(static_cast<std::uint32_t>(rng()) >> (1 + rng() % 31));
    for (auto& a : acc) a = rng() % 2 ? a : -a;
    const float scale = random_scale(rng);
    const bool is_signed = trial % 2 == 0;
    ASSERT_TRUE(compare(scale, hy::requantization::exact, is_signed));
    for (int mode : {FE_TONEAREST, FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO}) {
      ASSERT_EQ(std::fesetround(mode), 0);
      const bool same = compare(scale, hy::requantization::fp32, is_signed);
      std::fesetround(FE_TONEAREST);
      ASSERT_TRUE(same) << "rounding mode " << mode;
    }
  }
  EXPECT_GT(compared, 2000);
}

// Each byte tile of the ISA on its own, whichever the CPU would pick:
// VPMADDWD pairs (or the scalar step) and, where the CPU has it for the
// ISA's registers, VPDPBUSD (AVX512_VNNI on zmm, AVX-VNNI on ymm). Packed
// words as generic/fma_tile.hpp lays them out: per step, `rows` words of A
// (unsigned bytes) and `columns` words of B (signed bytes); each int32
// accumulator against the four products per word summed in int64 here.
TEST_P(IntegerMatMul, EveryByteTileAgainstItsDefinition) {
  const auto isa = GetParam();
  const hy::kernels::target_kernels t = hy::kernels::detail::target_for(isa);
  const auto& f = mf::target::optional_features_of(isa);
  const bool vnni_runs = t.vnni_bytes != nullptr && (isa == mf::target::isa::avx512 ? f.avx512vnni : f.avxvnni);
  std::vector<hy::kernels::tile_function> tiles{t.bytes};
  if (vnni_runs) tiles.push_back(t.vnni_bytes);
  const auto rows = static_cast<std::size_t>(t.rows), columns = static_cast<std::size_t>(t.byte_columns);
  std::mt19937_64 rng(31);
  const std::size_t steps = 37;
  std::vector<std::int32_t> a(steps * rows), b(steps * columns);
  for (auto& w : a) w = static_cast<std::int32_t>(static_cast<std::uint32_t>(rng()));
  for (auto& w : b) w = static_cast<std::int32_t>(static_cast<std::uint32_t>(rng()));
  const auto byte = [](std::int32_t word, int q) { return (static_cast<std::uint32_t>(word) >> (8 * q)) & 0xFFu; };
  for (const hy::kernels::tile_function tile : tiles) {
    std::vector<std::int32_t> c(rows * columns, 12345);
    tile({a.data(), b.data(), c.data(), columns, steps, true, 0});
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t j = 0; j < columns; ++j) {
        std::int64_t sum = 0;
        for (std::size_t s = 0; s < steps; ++s) {
          for (int q = 0; q < 4; ++q) {
            sum += static_cast<std::int64_t>(byte(a[s * rows + r], q)) *
                   static_cast<std::int8_t>(byte(b[s * columns + j], q));
          }
        }
        ASSERT_EQ(c[r * columns + j], static_cast<std::int32_t>(sum))
            << (tile == t.bytes ? "byte tile" : "VNNI tile") << " element " << r << "," << j;
      }
    }
  }
}

MFT_INSTANTIATE_PER_ISA(IntegerMatMul);

}  // namespace
