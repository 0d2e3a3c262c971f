// Known answers worked by hand for the hybrid MatMul: one test per model and
// per rule of docs/hybrid.md. Each comment shows the arithmetic.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <minifloat/formats.hpp>
#include <minifloat/hybrid.hpp>

#include "hybrid_test_support.hpp"

namespace {

namespace hy = mf::hybrid;
using hy::element_type;
using hybrid_test::as_float;
using hybrid_test::dot;
using T = element_type;

constexpr auto any = hy::table_id::any;
constexpr auto vendor = hy::table_id::vendor_hybrid_fp8;

hy::matmul_options with(hy::accumulation_model m) {
  hy::matmul_options o;
  o.model = m;
  return o;
}

// The StableHLO FNUZ RFC's example: arange(16) in e5m2fnuz (9 -> 8, 11 and 13
// -> 12, 15 -> 16) dotted with itself: 1252 exactly in FP32, 1280 in e5m2fnuz
// (spacing 256 there). The hybrid types have E5M2 (BF8), whose values in this
// range are the same, and whose rounding of 1252 is the same 1280.
TEST(HybridKnownAnswers, FnuzRfcArangeDotProduct) {
  std::vector<double> a;
  for (int i = 0; i < 16; ++i) {
    const double fnuz = static_cast<float>(mf::e5m2fnuz(static_cast<float>(i)));
    EXPECT_EQ(fnuz, static_cast<float>(mf::e5m2(static_cast<float>(i))));
    a.push_back(fnuz);
  }
  EXPECT_EQ(static_cast<float>(mf::e5m2fnuz(1252.0f)), 1280.0f);
  EXPECT_EQ(as_float(dot(any, T::bf8, T::bf8, T::f32, a, a)), 1252.0f);
  EXPECT_EQ(dot(vendor, T::bf8, T::bf8, T::bf8, a, a), mf::e5m2(1280.0f).bits());
}

// 1 + 2^-24 + 2^-24: in order, each addition ties back to 1; the exact sum
// 1 + 2^-23 is a float.
TEST(HybridKnownAnswers, SequentialAndExactDiffer) {
  const std::vector<double> a{1, 0x1p-12, 0x1p-12}, b{1, 0x1p-12, 0x1p-12};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b)), 1.0f);
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, with(hy::models::exact()))),
            1.0f + 0x1p-23f);
}

// The accumulator starts at +0: a sum of -0 products is +0 (0x00 in HF8),
// where a kernel starting from the first product would give -0 (0x80).
TEST(HybridKnownAnswers, SumOfNegativeZerosIsPositiveZero) {
  const std::vector<double> a(16, -0.0), b(16, 1.0);
  for (auto m : {hy::models::sequential_fp32(), hy::models::exact(), hy::models::exact(true),
                 hy::models::avx512_bf16_pairs(), hy::models::amx_tile_pairs(),
                 hy::models::chunked_exact(4), hy::models::reduced_precision(14, 8)}) {
    EXPECT_EQ(dot(vendor, T::hf8, T::hf8, T::hf8, a, b, with(m)), 0x00u);
  }
}

// Zeros after the start follow IEEE 754: -2^-100 * 2^-100 underflows to -0,
// and -0 + (-0 * 1) stays -0 (0x80000000). chunked_exact{1} reads its exact
// sums the same way, so it stays sequential_fp32 here too; `exact` rounds
// the sum -2^-200 once, to -0 as well.
TEST(HybridKnownAnswers, ZeroSignsAfterTheStart) {
  const std::vector<double> a{-0x1p-100, -0.0}, b{0x1p-100, 1};
  EXPECT_EQ(dot(any, T::bf16, T::bf16, T::f32, a, b), 0x80000000u);
  EXPECT_EQ(dot(any, T::bf16, T::bf16, T::f32, a, b, with(hy::models::chunked_exact(1))), 0x80000000u);
  EXPECT_EQ(dot(any, T::bf16, T::bf16, T::f32, a, b, with(hy::models::exact())), 0x80000000u);
}

// VDPBF16PS: 2^-63 * 2^-64 = 2^-127 is below 2^-126 and flushed to +0;
// sequential_fp32 keeps the subnormal.
TEST(HybridKnownAnswers, Bf16PairsFlushesASubnormalSum) {
  const std::vector<double> a{0x1p-63}, b{0x1p-64};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b)), 0x1p-127f);
  EXPECT_EQ(dot(any, T::bf16, T::bf16, T::f32, a, b, with(hy::models::avx512_bf16_pairs())), 0u);
}

// Tininess after rounding: 2^-126 (odd pair, first) plus -0.75 * 2^-150 is
// 2^-126 - 0.75 ulp of the 24-bit grid below 2^-126 (ulp 2^-150): rounded to
// 24 bits it is 2^-126 - 2^-150 < 2^-126, so it is flushed to +0. On the
// subnormal grid (spacing 2^-149) it would round up to 2^-126.
TEST(HybridKnownAnswers, FlushDecidedAfterRoundingTo24Bits) {
  EXPECT_EQ(hy::fma_ftz(-0x1.8p-76f, 0x1p-75f, 0x1p-126f), 0.0f);
  EXPECT_FALSE(std::signbit(hy::fma_ftz(-0x1.8p-76f, 0x1p-75f, 0x1p-126f)));
  EXPECT_EQ(std::fma(-0x1.8p-76f, 0x1p-75f, 0x1p-126f), 0x1p-126f);  // the gradual-underflow reading
  // 2^-126 - 0.25 ulp rounds to 2^-126 in both readings: kept.
  EXPECT_EQ(hy::fma_ftz(-0x1p-76f, 0x1p-76f, 0x1p-126f), 0x1p-126f);
  const std::vector<double> a{-0x1.8p-76, 0x1p-63}, b{0x1p-75, 0x1p-63};
  EXPECT_EQ(dot(any, T::bf16, T::bf16, T::f32, a, b, with(hy::models::avx512_bf16_pairs())), 0u);
  // A negative tiny result flushes to -0.
  EXPECT_EQ(hy::fma_ftz(0x1p-63f, -0x1p-64f, 0.0f), -0.0f);
  EXPECT_TRUE(std::signbit(hy::fma_ftz(0x1p-63f, -0x1p-64f, 0.0f)));
  // BF16 input denormals are read as zero: 2^-130 * 2^10 would be 2^-120.
  const std::vector<double> c{0x1p-130}, d{0x1p10};
  EXPECT_EQ(dot(any, T::bf16, T::bf16, T::f32, c, d, with(hy::models::avx512_bf16_pairs())), 0u);
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, c, d)), 0x1p-120f);
}

// Odd K = 5, products p0..p4 = 1, 0, 2^-24, -2^-24, 0. In order:
// (1 + 2^-24) ties to 1, minus 2^-24 gives 1 - 2^-24. In pairs, odd first:
// (p1, p0), (p3, p2), (+0 padding, p4): 1 - 2^-24 is exact, + 2^-24 gives 1.
TEST(HybridKnownAnswers, Bf16PairsOddFirstAndOddK) {
  const std::vector<double> a{1, 0, 0x1p-12, -0x1p-12, 0}, b{1, 0, 0x1p-12, 0x1p-12, 0};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b)), 1.0f - 0x1p-24f);
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, with(hy::models::avx512_bf16_pairs()))),
            1.0f);
  // Odd K with a -0 last product: the padding pair adds +0*+0 first, so
  // acc = +0 + (-0) = +0 in either order.
  const std::vector<double> z{-0.0}, one{1.0};
  EXPECT_EQ(dot(any, T::bf16, T::bf16, T::f32, z, one, with(hy::models::avx512_bf16_pairs())), 0u);
}

// AMX, products 1, -1, 2^-24, 2^-30 in one instruction. SDM order: even =
// 1 + 2^-24 -> 1, odd = -1 + 2^-30 -> -1, t = 0, dst = 0. Guide order: 1 - 1
// = 0, + 2^-24, + 2^-30 = 2^-24 + 2^-30.
TEST(HybridKnownAnswers, AmxOrders) {
  const std::vector<double> a{1, -1, 0x1p-12, 0x1p-15}, b{1, 1, 0x1p-12, 0x1p-15};
  EXPECT_EQ(dot(any, T::bf16, T::bf16, T::f32, a, b, with(hy::models::amx_tile_pairs())), 0u);
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b,
                         with(hy::models::amx_tile_pairs(32, hy::amx_order::guide)))),
            0x1p-24f + 0x1p-30f);
  // Two instructions (chunk 2): dst = RN(RN(p0 + p1)) then + (p2 + p3).
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, with(hy::models::amx_tile_pairs(2)))),
            0x1p-24f + 0x1p-30f);
  // TDPFP16PS keeps FP16 input subnormals (2^-24 * 2^-1 = 2^-25); TDPBF16PS
  // would not see a subnormal BF16 here at all, but flushes its own.
  const std::vector<double> s{0x1p-24}, h{0.5};
  EXPECT_EQ(as_float(dot(any, T::f16, T::f16, T::f32, s, h, with(hy::models::amx_tile_pairs()))),
            0x1p-25f);
}

// chunked_exact with chunk 2: chunk 0 = {1, 0} -> acc = 1; chunk 1 = {2^-24,
// 2^-60}. One rounding of 1 + 2^-24 + 2^-60 is above the tie: 1 + 2^-23.
// presum_round rounds the chunk to 2^-24 first: 1 + 2^-24 ties to 1.
TEST(HybridKnownAnswers, ChunkedExactAndPresumRound) {
  const std::vector<double> a{1, 0, 0x1p-12, 0x1p-30}, b{1, 0, 0x1p-12, 0x1p-30};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, with(hy::models::chunked_exact(2)))),
            1.0f + 0x1p-23f);
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b,
                         with(hy::models::chunked_exact(2, hy::fp32_rounding::nearest_even, true)))),
            1.0f);
  // The chunk boundary matters: one chunk of 4 gives the same single rounding.
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, with(hy::models::chunked_exact(4)))),
            1.0f + 0x1p-23f);
  // Toward zero: 1 + 2^-23 - 2^-60 is cut to 1; overflow gives FLT_MAX.
  const std::vector<double> c{1, 0x1p-12, -0x1p-30}, d{1, 0x1p-11, 0x1p-30};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, c, d,
                         with(hy::models::chunked_exact(4, hy::fp32_rounding::toward_zero)))),
            1.0f);
  const std::vector<double> big{0x1p127, 0x1p127}, two{2, 2};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, big, two,
                         with(hy::models::chunked_exact(2, hy::fp32_rounding::toward_zero)))),
            std::numeric_limits<float>::max());
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, big, two, with(hy::models::chunked_exact(2)))),
            std::numeric_limits<float>::infinity());
}

// reduced_precision, 4 bits. seq: 1 - 2^-5 = 0.11111b is cut to 0.1111b =
// 0.9375; the negative -0.96875 is cut to -0.9375 toward zero and to -1 by
// floor.
TEST(HybridKnownAnswers, ReducedPrecisionSequentialTruncation) {
  using hy::truncation;
  const std::vector<double> a{1, -0x1p-5}, b{1, 1};
  const auto seq = [](truncation t) {
    return hy::models::reduced_precision(4, 128, hy::reduced_variant::seq, 32, t);
  };
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, with(seq(truncation::toward_zero)))), 0.9375f);
  const std::vector<double> n{-1, 0x1p-5};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, n, b, with(seq(truncation::toward_zero)))), -0.9375f);
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, n, b, with(seq(truncation::floor)))), -1.0f);
  // Promotion every 1 product: each product is cut alone, then added in FP32.
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b,
                         with(hy::models::reduced_precision(4, 1)))), 0.96875f);
}

// The partial register's exponent is unbounded: with bits = 1 and floor,
// -1 followed by n products -2^-18 is -(2^k + 2^-18) at each step, cut
// to -2^(k+1): -2^n after n of them, far past any fixed point sized for
// E4M3 products (multiples of 2^-18 below 2^18). -2^100 is promoted as it
// is; -2^129 rounds to -Inf. Toward zero, the same sums stay at -1. Both on
// the fast kernel and on the reference.
TEST(HybridKnownAnswers, ReducedPrecisionFloorGrowsWithoutBound) {
  using hy::truncation;
  for (const bool reference_only : {false, true}) {
    for (const std::size_t n : {100u, 129u}) {
      std::vector<double> a(n + 1, 0x1p-9), b(n + 1, -0x1p-9);
      a[0] = -1;
      b[0] = 1;
      hy::matmul_options o = with(hy::models::reduced_precision(1, 256, hy::reduced_variant::seq, 32, truncation::floor));
      o.reference_only = reference_only;
      EXPECT_EQ(as_float(dot(any, T::hf8, T::hf8, T::f32, a, b, o)), n == 100 ? -0x1p100f : -std::numeric_limits<float>::infinity())
          << n << (reference_only ? " reference" : " fast");
      o.model.trunc = truncation::toward_zero;
      EXPECT_EQ(as_float(dot(any, T::hf8, T::hf8, T::f32, a, b, o)), -1.0f);
    }
  }
}

// The block variant, 4 bits, products 2^-4 x 4 then 1. seq: 2^-4, 2^-3,
// 3 * 2^-4, 2^-2, then 1.25 (1.010b). block: emax = 0, quantum 2^-3, each
// 2^-4 is cut to 0: 1. With -2^-4 terms, floor cuts each to -2^-3: 1 - 0.5.
TEST(HybridKnownAnswers, ReducedPrecisionBlockVariant) {
  using hy::truncation;
  const std::vector<double> a{0.25, 0.25, 0.25, 0.25, 1}, b{0.25, 0.25, 0.25, 0.25, 1};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, with(hy::models::reduced_precision(4, 128)))),
            1.25f);
  const auto block = [](truncation t) {
    return hy::models::reduced_precision(4, 128, hy::reduced_variant::block, 32, t);
  };
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, with(block(truncation::toward_zero)))), 1.0f);
  const std::vector<double> n{-0.25, -0.25, -0.25, -0.25, 1};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, n, b, with(block(truncation::toward_zero)))), 1.0f);
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, n, b, with(block(truncation::floor)))), 0.5f);
}

// y3 = RN32(y2 / so), not y2 * RN32(1 / so): 1.1f / 10 = 0.11f, while
// 1.1f * 0.1f = 0.11000001f.
TEST(HybridKnownAnswers, OutputScaleDivisionIsADivision) {
  hy::matmul_options o;
  o.scales.a = 1.1f;
  o.scales.output = 10.0f;
  o.scales.output_rule = hy::output_scale_rule::divide;
  const std::vector<double> one{1};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, one, one, o)), 1.1f / 10.0f);
  EXPECT_NE(1.1f / 10.0f, 1.1f * (1.0f / 10.0f));
  o.scales.output_rule = hy::output_scale_rule::multiply;
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, one, one, o)), 11.0f);
}

// The epilogue's roundings: s = RN32(sa * sb), y1 = RN32(acc * s), y2 =
// RN32(y1 + bias), amax before the output scale, then out(). With sa = sb =
// 1 + 2^-12, s = 1 + 2^-11 (2^-24 lost), acc = 3: y1 = 3 + 3 * 2^-11.
TEST(HybridKnownAnswers, EpilogueRoundings) {
  hy::matmul_options o;
  o.scales.a = 1.0f + 0x1p-12f;
  o.scales.b = 1.0f + 0x1p-12f;
  const float bias = 0.5f;
  o.scales.bias = &bias;
  o.scales.output = 2.0f;
  float amax = 0;
  o.amax = &amax;
  const std::vector<double> a{1, 2}, b{1, 1};
  const float y1 = 3.0f * (1.0f + 0x1p-11f);
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, o)), (y1 + 0.5f) * 2.0f);
  EXPECT_EQ(amax, y1 + 0.5f);
  // amax is max |y2|: a negative y2 counts by its magnitude.
  hy::matmul_options negative;
  float negative_amax = 0;
  negative.amax = &negative_amax;
  const std::vector<double> minus_three{-3, 1};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, minus_three, b, negative)), -2.0f);
  EXPECT_EQ(negative_amax, 2.0f);
  // exact to the output type: (3 * (1 + 2^-12)^2 + 0.5) * 2, rounded once.
  o.model = hy::models::exact(true);
  const double exact = (3.0 * (1.0 + 0x1p-12) * (1.0 + 0x1p-12) + 0.5) * 2.0;
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, o)), static_cast<float>(exact));
  // ... and into HF8 with saturation: 7 * 100 = 700 -> 448.
  hy::matmul_options s;
  s.scales.output = 100.0f;
  s.output.on_overflow = mf::overflow::saturating;
  const std::vector<double> c{1, 2, 2}, d{1, 1, 2};
  EXPECT_EQ(dot(any, T::hf8, T::hf8, T::hf8, c, d, s), 0x7Eu);
  s.output.on_overflow = mf::overflow::non_saturating;
  EXPECT_EQ(dot(any, T::hf8, T::hf8, T::hf8, c, d, s), 0x7Fu);  // NaN
  // FP32 output: saturating maps Inf to FLT_MAX; NaN stays NaN.
  hy::matmul_options f;
  f.scales.output = 0x1p127f;
  f.output.on_overflow = mf::overflow::saturating;
  EXPECT_EQ(as_float(dot(any, T::hf8, T::hf8, T::f32, c, d, f)), std::numeric_limits<float>::max());
  f.output.on_overflow = mf::overflow::non_saturating;
  EXPECT_EQ(as_float(dot(any, T::hf8, T::hf8, T::f32, c, d, f)), INFINITY);
  const std::vector<double> nan{NAN, 1, 1};
  f.output.on_overflow = mf::overflow::saturating;
  EXPECT_TRUE(std::isnan(as_float(dot(any, T::bf16, T::bf16, T::f32, nan, d, f))));
  s.scales.output = 10000.0f;  // 70000 is past E5M2's rounding threshold 61440
  EXPECT_EQ(dot(any, T::bf8, T::bf8, T::bf8, c, d, s), 0x7Cu);  // +Inf
  s.output.on_overflow = mf::overflow::saturating;
  EXPECT_EQ(dot(any, T::bf8, T::bf8, T::bf8, c, d, s), 0x7Bu);  // 57344
}

// Per-row scales of A and per-column scales of B (docs/hybrid.md, "Post-
// processing", step 1: s = RN32(sa_i * sb_j) per element). A = [1; 1]
// (2 x 1), B = [1 1] (1 x 2), a_rows = {2, 3}, b_columns = {5, 7}:
// C = [2*5 2*7; 3*5 3*7] = [10 14; 15 21], all exact.
TEST(HybridKnownAnswers, PerRowAndPerColumnScales) {
  const std::vector<std::uint32_t> a(2, hybrid_test::encode(T::bf16, 1.0)), b(2, hybrid_test::encode(T::bf16, 1.0));
  const float a_rows[] = {2.0f, 3.0f}, b_columns[] = {5.0f, 7.0f};
  hy::matmul_options o;
  o.check_z_multiple = false;
  o.scales.a_rows = a_rows;
  o.scales.b_columns = b_columns;
  for (const auto& m : {hy::models::sequential_fp32(), hy::models::exact(), hy::models::exact(true)}) {
    o.model = m;
    std::uint32_t c[4] = {};
    hy::matmul(any, T::bf16, T::bf16, T::f32, a.data(), 1, b.data(), 2, c, 2, 2, 2, 1, o);
    EXPECT_EQ(as_float(c[0]), 10.0f);
    EXPECT_EQ(as_float(c[1]), 14.0f);
    EXPECT_EQ(as_float(c[2]), 15.0f);
    EXPECT_EQ(as_float(c[3]), 21.0f);
  }
}

// A saturating FP32 output keeps the sign of an overflow (docs/hybrid.md,
// "Output conversion": +-Inf to +-FLT_MAX): -2^127 * 1 + -2^127 * 1 is
// -2^128, -Inf in RN32, so -FLT_MAX.
TEST(HybridKnownAnswers, SaturatingFp32OutputKeepsTheSign) {
  hy::matmul_options o;
  o.output.on_overflow = mf::overflow::saturating;
  const std::vector<double> a{-0x1p127, -0x1p127}, b{1, 1};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, o)), -std::numeric_limits<float>::max());
  o.output.on_overflow = mf::overflow::non_saturating;
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, o)), -INFINITY);
}

// The DAZ reading of fma_ftz's inputs (fp32_rounding.hpp, as VDPBF16PS
// reads its source and accumulator, Intel SDM): a denormal is a zero of its
// own sign, and the accumulator c is read that way too. 1 * 2^-126 plus c =
// -2^-149 is 2^-126 with c read as -0; read as a denormal, the sum would be
// 2^-126 - 2^-149, tiny, and flushed to +0.
TEST(HybridKnownAnswers, DenormalsAreReadAsZerosOfTheirSign) {
  EXPECT_TRUE(std::signbit(hy::denormal_as_zero(-0x1p-149f)));
  EXPECT_EQ(hy::denormal_as_zero(-0x1p-149f), 0.0f);
  EXPECT_FALSE(std::signbit(hy::denormal_as_zero(0x1p-127f)));
  EXPECT_EQ(hy::denormal_as_zero(0x1p-126f), 0x1p-126f);  // the smallest normal is kept
  EXPECT_EQ(hy::fma_ftz(1.0f, 0x1p-126f, -0x1p-149f), 0x1p-126f);
}

// exact(true) gives a zero the sign the rounded path gives it: acc = -1
// times a +0 scale is -0 (0x80 in HF8), as IEEE's (-1) x (+0).
TEST(HybridKnownAnswers, ExactToOutputZeroSign) {
  hy::matmul_options o = with(hy::models::exact(true));
  o.scales.a = 0.0f;
  std::vector<double> a(16, 0.0), b(16, 0.0);
  a[0] = -1;
  b[0] = 1;
  EXPECT_EQ(dot(vendor, T::hf8, T::hf8, T::hf8, a, b, o), 0x80u);
  o.model = hy::models::sequential_fp32();
  EXPECT_EQ(dot(vendor, T::hf8, T::hf8, T::hf8, a, b, o), 0x80u);
  // Stochastic rounding needs an FP8 or 16-bit output: not FP32, not the
  // integer MatMul's requantized output.
  o.output.stochastic = true;
  EXPECT_THROW(dot(any, T::hf8, T::hf8, T::f32, a, b, o), hy::unsupported);
  EXPECT_THROW(dot(vendor, T::i8, T::i8, T::i8, a, b, o), hy::unsupported);
}

// exact(true) carries y2 = S * s + bias exactly into the output scale: a
// bias of the other sign and a larger magnitude gives the bias's sign; a
// division by the output scale and a sum just past a float32 tie are each
// rounded once (twice, through a double, 1 + 2^-24 + 2^-80 would become the
// tie 1 + 2^-24 and then 1).
TEST(HybridKnownAnswers, ExactToOutputBiasSignsDivisionAndTies) {
  hy::matmul_options o = with(hy::models::exact(true));
  float bias = -5.0f;
  float amax = -1.0f;
  o.scales.bias = &bias;
  o.scales.output = 2.0f;
  o.amax = &amax;
  const std::vector<double> a{1, 2}, b{1, 1};
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, o)), -4.0f);  // (3 - 5) * 2
  EXPECT_EQ(amax, 2.0f);
  bias = -1.0f;
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, a, b, o)), 4.0f);  // (3 - 1) * 2
  bias = 0.0f;
  o.scales.output = 3.0f;
  o.scales.output_rule = hy::output_scale_rule::divide;
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, {1}, {1}, o)), 1.0f / 3.0f);
  bias = -1.0f;  // (1 - 1) / 3 = +0, and 1 - 7 = -6 divided: -2
  EXPECT_EQ(dot(any, T::bf16, T::bf16, T::f32, {1}, {1}, o), 0u);
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, {1}, {-7}, o)), -8.0f / 3.0f);
  o.scales.bias = nullptr;
  const std::vector<double> c{1, 0x1p-12, 0x1p-40}, d{1, 0x1p-12, 0x1p-40};
  o.scales.output = 1.0f;
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, c, d, o)), 1.0f + 0x1p-23f);
  o.scales.output_rule = hy::output_scale_rule::multiply;
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, c, d, o)), 1.0f + 0x1p-23f);
  EXPECT_EQ(as_float(dot(any, T::bf16, T::bf16, T::f32, {1, 0x1p-12}, {1, 0x1p-12}, o)), 1.0f);  // the tie: even
}

// Integer MatMul: int32 accumulation, round-half-even(acc * scale).
// acc = 1024 * (-128)^2 + 1 = 2^24 + 1, scale 2^-25: exactly 0.5 + 2^-25,
// which rounds to 1; the fp32 sequence first rounds acc to 2^24 and gets the
// tie 0.5 -> 0.
TEST(HybridKnownAnswers, IntegerRequantization) {
  std::vector<double> a(1040, 0), b(1040, 0);
  for (int i = 0; i < 1024; ++i) a[i] = b[i] = -128;
  a[1024] = b[1024] = 1;
  hy::matmul_options o;
  o.integer_scale = 0x1p-25f;
  EXPECT_EQ(dot(vendor, T::i8, T::i8, T::i8, a, b, o), 1u);
  o.requant = hy::requantization::fp32;
  EXPECT_EQ(dot(vendor, T::i8, T::i8, T::i8, a, b, o), 0u);
  // Ties to even: 5 * 0.5 = 2.5 -> 2, 7 * 0.5 = 3.5 -> 4; saturation.
  hy::matmul_options h;
  h.integer_scale = 0.5f;
  EXPECT_EQ(dot(vendor, T::i8, T::i8, T::i8, {5}, {1}, h), 2u);
  EXPECT_EQ(dot(vendor, T::i8, T::i8, T::i8, {7}, {1}, h), 4u);
  EXPECT_EQ(dot(vendor, T::i8, T::i8, T::i8, {-7}, {1}, h), static_cast<std::uint8_t>(-4));
  EXPECT_EQ(dot(vendor, T::i8, T::i8, T::i8, {127, 127}, {127, 127}, h), 127u);
  EXPECT_EQ(dot(vendor, T::i8, T::i8, T::i8, {-127, -127}, {127, 127}, h), 0x80u);
  EXPECT_EQ(dot(vendor, T::u8, T::u8, T::u8, {255, 255}, {255, 255}, h), 255u);
}

// U8 x U8 past K = 33026 wraps modulo 2^32: 33040 * 65025 = 2148426000 is
// 2148426000 - 2^32 = -2146541296 as int32; scale 2^-24 -> -127.94 -> -128,
// saturated to 0 for U8.
TEST(HybridKnownAnswers, IntegerAccumulatorWraps) {
  const std::vector<double> a(33040, 255);
  hy::matmul_options o;
  o.integer_scale = 0x1p-24f;
  EXPECT_EQ(dot(vendor, T::u8, T::u8, T::u8, a, a, o), 0u);
  // Below the limit no wrap: 33024 * 65025 = 2147385600 < 2^31 -> 127.99 -> 128.
  const std::vector<double> b(33024, 255);
  EXPECT_EQ(dot(vendor, T::u8, T::u8, T::u8, b, b, o), 128u);
}

// options.accumulator: each element's float32 acc, before the epilogue. In
// SequentialAndExactDiffer's sum, sequential_fp32's acc is 1 and exact's
// 1 + 2^-23; scales, bias and the output conversion do not touch it; C is
// the same bits as without the request (which runs the reference loop).
TEST(HybridKnownAnswers, AccumulatorIsReturned) {
  const std::vector<double> a{1, 0x1p-12, 0x1p-12}, b{1, 0x1p-12, 0x1p-12};
  for (const bool exact : {false, true}) {
    hy::matmul_options o = with(exact ? hy::models::exact(true) : hy::models::sequential_fp32());
    o.scales.a = 4.0f;
    const std::uint32_t c = dot(any, T::bf16, T::bf16, T::f32, a, b, o);
    float acc = -1.0f;
    o.accumulator = &acc;
    EXPECT_EQ(dot(any, T::bf16, T::bf16, T::f32, a, b, o), c);
    EXPECT_EQ(acc, exact ? 1.0f + 0x1p-23f : 1.0f);
    EXPECT_EQ(as_float(c), 4.0f * acc);
  }
  // An M x N request: row-major, row stride N. A = [1 2; 3 4] (HF8), B = I.
  const std::vector<std::uint32_t> am{hybrid_test::encode(T::hf8, 1), hybrid_test::encode(T::hf8, 2),
                                      hybrid_test::encode(T::hf8, 3), hybrid_test::encode(T::hf8, 4)};
  std::vector<std::uint32_t> ak(2 * 16, hybrid_test::encode(T::hf8, 0));
  for (int i = 0; i < 2; ++i) {
    for (int p = 0; p < 2; ++p) ak[i * 16 + p] = am[i * 2 + p];
  }
  std::vector<std::uint32_t> bk(16 * 2, hybrid_test::encode(T::hf8, 0));
  bk[0 * 2 + 0] = bk[1 * 2 + 1] = hybrid_test::encode(T::hf8, 1);
  std::vector<std::uint32_t> c(4);
  std::vector<float> acc(4, -1.0f);
  hy::matmul_options o;
  o.accumulator = acc.data();
  hy::matmul(vendor, T::hf8, T::hf8, T::hf8, ak.data(), 16, bk.data(), 2, c.data(), 2, 2, 2, 16, o);
  EXPECT_EQ(acc, (std::vector<float>{1, 2, 3, 4}));
}

// options.integer_accumulator: the int32 sums, wrapped, before
// requantization: 33040 * 65025 - 2^32 (IntegerAccumulatorWraps).
TEST(HybridKnownAnswers, IntegerAccumulatorIsReturned) {
  const std::vector<double> a(33040, 255);
  hy::matmul_options o;
  o.integer_scale = 0x1p-24f;
  std::int32_t acc = 0;
  o.integer_accumulator = &acc;
  EXPECT_EQ(dot(vendor, T::u8, T::u8, T::u8, a, a, o), 0u);
  EXPECT_EQ(acc, -2146541296);
  const std::vector<double> m{-128};
  EXPECT_EQ(dot(any, T::i8, T::i8, T::i8, m, {5}, o), 0u);
  EXPECT_EQ(acc, -640);
}

// ---- nan_payload::propagate: the NaN the instruction writes -------------
// BF16 codes: P1 = 0x7FC1 (quiet, payload 1, float 0x7FC10000), P2 = 0xFFC2
// (0xFFC20000), S3 = 0x7F83 (signalling; quieted 0x7FC30000).
constexpr std::uint32_t p1 = 0x7FC1, p2 = 0xFFC2, s3 = 0x7F83, one = 0x3F80, inf = 0x7F80;

// One dot product of BF16 (or other) codes, 1 x k times k x 1, on the fast
// path and on the reference: both must give the same bits, which it
// returns (FP32 output: the accumulator's bits).
std::uint32_t nan_dot(const hy::accumulation_model& m, const std::vector<std::uint32_t>& a,
                      const std::vector<std::uint32_t>& b, T ta = T::bf16, T tb = T::bf16,
                      hy::matmul_options o = {}) {
  o.model = m;
  o.check_z_multiple = false;
  std::uint32_t fast = 0, reference = 0;
  hy::matmul(any, ta, tb, T::f32, a.data(), a.size(), b.data(), 1, &fast, 1, 1, 1, a.size(), o);
  o.reference_only = true;
  hy::matmul(any, ta, tb, T::f32, a.data(), a.size(), b.data(), 1, &reference, 1, 1, 1, a.size(), o);
  EXPECT_EQ(fast, reference) << "the fast path and the reference differ";
  return reference;
}

const hy::accumulation_model vdpbf16ps = hy::models::avx512_bf16_pairs(hy::nan_payload::propagate);
hy::accumulation_model amx(int chunk, hy::amx_order order = hy::amx_order::sdm) {
  return hy::models::amx_tile_pairs(chunk, order, hy::nan_payload::propagate);
}

// VDPBF16PS (the SDM's Table 5-1, and the instruction on AMD family 26):
// src1 low, src2 low, src1 high, src2 high, srcdest; A is src1.
TEST(HybridKnownAnswers, Vdpbf16psNanPriority) {
  EXPECT_EQ(nan_dot(vdpbf16ps, {p1, one}, {p2, one}), 0x7FC10000u);  // src1 low first
  EXPECT_EQ(nan_dot(vdpbf16ps, {one, p1}, {p2, one}), 0xFFC20000u);  // src2 low before src1 high
  EXPECT_EQ(nan_dot(vdpbf16ps, {one, p1}, {one, p2}), 0x7FC10000u);  // src1 high before src2 high
  EXPECT_EQ(nan_dot(vdpbf16ps, {s3, one}, {one, one}), 0x7FC30000u);  // a signalling NaN quieted
  // A NaN carried in srcdest from the first pair yields to the second
  // pair's operand.
  EXPECT_EQ(nan_dot(vdpbf16ps, {p1, one, s3, one}, {one, one, one, one}), 0x7FC30000u);
  // Inf x 0 without NaN operands: the default NaN, carried to the end.
  EXPECT_EQ(nan_dot(vdpbf16ps, {inf, one, one, one}, {0, one, one, one}), 0xFFC00000u);
  // The default model: the one canonical NaN.
  EXPECT_EQ(nan_dot(hy::models::avx512_bf16_pairs(), {one, p2}, {one, one}), 0x7FC00000u);
}

// TDPBF16PS, the SDM order: within a step a, b, then the accumulator; t =
// even + odd takes the even chain's NaN; dst + t takes C's.
TEST(HybridKnownAnswers, AmxNanPriority) {
  EXPECT_EQ(nan_dot(amx(32), {p1, one}, {p2, one}), 0x7FC10000u);  // a before b
  EXPECT_EQ(nan_dot(amx(32), {one, p1}, {one, one}), 0x7FC10000u);  // the odd chain's
  // Even chain P1, odd chain P2: t is P1. The guide order steps through
  // the even then the odd product on dst: P2 (a before the accumulator).
  EXPECT_EQ(nan_dot(amx(32), {p1, p2}, {one, one}), 0x7FC10000u);
  EXPECT_EQ(nan_dot(amx(32, hy::amx_order::guide), {p1, p2}, {one, one}), 0xFFC20000u);
  // Chunk 2: P1 is C after the first instruction, P2 the second one's t:
  // C's NaN stays, where VDPBF16PS takes the later operand's.
  EXPECT_EQ(nan_dot(amx(2), {p1, one, p2, one}, {one, one, one, one}), 0x7FC10000u);
  EXPECT_EQ(nan_dot(vdpbf16ps, {p1, one, p2, one}, {one, one, one, one}), 0xFFC20000u);
  // Invalid operations: Inf x 0 in a chain, Inf - Inf in t.
  EXPECT_EQ(nan_dot(amx(32), {inf, one}, {0, one}), 0xFFC00000u);
  EXPECT_EQ(nan_dot(amx(32), {inf, inf}, {one, 0xBF80}), 0xFFC00000u);
  // An operand's NaN after an invalid step: a before the accumulator.
  EXPECT_EQ(nan_dot(amx(32), {inf, one, s3, one}, {0, one, one, one}), 0x7FC30000u);
  EXPECT_EQ(nan_dot(hy::models::amx_tile_pairs(), {p1, one}, {one, one}), 0x7FC00000u);
}

// Operands of other types: an FP16 NaN widens with its payload shifted up
// 13 (TDPFP16PS), quieted; an FP8 NaN reaches the instruction as the
// library's BF16 of it, the canonical NaN with its sign.
// A chunk longer than K pads it with +0 products, whose one effect is to
// make a chain's -0 (left by a flush to zero) +0: 2^-126 - 2^-126 x (1 +
// 2^-7) flushes to -0, which a chunk of 2 keeps and any longer chunk makes
// +0, however long (the reference stops at K and applies that effect).
TEST(HybridKnownAnswers, AmxPaddingPastKOnlyMakesNegativeZeroPositive) {
  const float a[2] = {0x1p-126f, -0x1p-126f}, b[2] = {1.0f, 1.0f + 0x1p-7f};
  const auto sum = [&](int chunk) {
    return mf::detail::bit_cast<std::uint32_t>(
        hy::accumulate(hy::models::amx_tile_pairs(chunk, hy::amx_order::guide), a, b, 2));
  };
  EXPECT_EQ(sum(2), 0x80000000u);
  EXPECT_EQ(sum(4), 0x00000000u);
  EXPECT_EQ(sum(1 << 30), 0x00000000u);  // as fast as chunk 4
}

TEST(HybridKnownAnswers, NanPayloadsOfFp16AndFp8Operands) {
  EXPECT_EQ(nan_dot(amx(32), {0xFC05, 0x3C00}, {0x3C00, 0x3C00}, T::f16, T::f16), 0xFFC0A000u);
  EXPECT_EQ(nan_dot(amx(32), {0x7E01, 0x3C00}, {0x3C00, 0x3C00}, T::f16, T::f16), 0x7FC02000u);
  EXPECT_EQ(nan_dot(vdpbf16ps, {0xFF, 0x38}, {p1, one}, T::hf8, T::bf16), 0xFFC00000u);
  EXPECT_EQ(nan_dot(vdpbf16ps, {0x38, 0x38}, {0x7D, 0x3C}, T::hf8, T::bf8), 0x7FC00000u);
}

// Past the accumulator: a NaN accumulator is y3 unchanged whatever the
// scales and bias (here a NaN bias of another payload), options.accumulator
// receives it, and a narrower output is that type's NaN from the library's
// conversion (BF16: the canonical one with the sign).
TEST(HybridKnownAnswers, PropagatedNanThroughTheEpilogue) {
  hy::matmul_options o;
  const float bias = as_float(0x7FC00055u);
  o.scales.a = 2.0f;
  o.scales.bias = &bias;
  EXPECT_EQ(nan_dot(amx(32), {p2, one}, {one, one}, T::bf16, T::bf16, o), 0xFFC20000u);
  o = with(vdpbf16ps);
  o.check_z_multiple = false;
  float acc = 0.0f;
  o.accumulator = &acc;
  const std::uint32_t a[2] = {one, p2}, b[2] = {one, one};
  std::uint32_t c = 0;
  hy::matmul(any, T::bf16, T::bf16, T::bf16, a, 2, b, 1, &c, 1, 1, 1, 2, o);
  std::uint32_t acc_bits = 0;
  std::memcpy(&acc_bits, &acc, 4);
  EXPECT_EQ(acc_bits, 0xFFC20000u);
  EXPECT_EQ(c, 0xFFC0u);
}

TEST(HybridKnownAnswers, NanPropagationIsThePairModelsOnly) {
  hy::accumulation_model m = hy::models::sequential_fp32();
  m.nans = hy::nan_payload::propagate;
  EXPECT_THROW(nan_dot(m, {one}, {one}), hy::unsupported);
}

}  // namespace
