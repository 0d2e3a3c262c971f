// The fast MatMul kernels against the reference triple loop, bit for bit,
// on every ISA this machine runs (the test names carry the ISA): wide-range
// random codes (uniform over each type's codes, so sums depend on their
// order), the edge sets (subnormals, max, Inf, NaN, saturating outputs),
// awkward shapes and leading dimensions, the scale options, and the thread
// counts. Sizes are kept small for CI (sanitizers, qemu); the random-shape
// comparison runs 10^4 shapes per model at MINIFLOAT_TEST_LEVEL=full (label
// `exhaustive`) and a sample at ci level.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include <minifloat/hybrid.hpp>

#include "kernel_test_support.hpp"
#include "support/test_level.hpp"

namespace {

namespace hy = mf::hybrid;
using hy::element_type;
using kernel_test::matches_reference;
using kernel_test::problem_of;
using kernel_test::random_problem;
using T = element_type;

class HybridKernels : public ::testing::TestWithParam<mf::target::isa> {
 protected:
  void SetUp() override {
    if (!mf::target::isa_supported(GetParam())) GTEST_SKIP() << mft::why_not_supported(GetParam());
    mf::target::set_isa(GetParam());
  }
  void TearDown() override { mf::target::reset_isa_from_environment(); }
};

hy::matmul_options with(const hy::accumulation_model& m) {
  hy::matmul_options o;
  o.model = m;
  return o;
}

TEST_P(HybridKernels, EveryTypeCombinationOnRandomFiniteCodes) {
  ASSERT_EQ(mf::target::active_isa(), GetParam());
  std::mt19937_64 rng(11);
  for (const auto& model : kernel_test::fast_models()) {
    for (const kernel_test::type_triple& types : kernel_test::float_triples(model.model)) {
      // Tile edges: 6- and 4-row tiles, 64/16/4-column tiles.
      const auto p = random_problem(types, 7, 19, 33, 0, rng, false);
      ASSERT_TRUE(matches_reference(p, with(model.model))) << model.name;
    }
  }
}

// BF16 codes of magnitudes outside 2^-40 .. 2^40 replaced by +-1, so that
// products stay within float32's normal range.
void keep_bf16_moderate(std::vector<std::uint32_t>& v, element_type t) {
  if (t != T::bf16) return;
  for (auto& code : v) {
    const float x = std::fabs(hy::decode_bits(t, code));
    if (x != 0.0f && (x < 0x1p-40f || x > 0x1p40f)) code = (code & 0x8000u) | 0x3F80u;  // +-1
  }
}

// A problem of 1-9 rows, 1-70 columns and depth k whose operands fit the
// pair models' FMA kernels (kernels::pairs_operands_fit, checked): BF16
// kept moderate; a quarter of the elements from the edge sets with
// `specials`.
kernel_test::problem fitting_pairs_problem(kernel_test::type_triple types, std::size_t k, std::mt19937_64& rng,
                                           bool specials) {
  auto p = random_problem(types, 1 + rng() % 9, 1 + rng() % 70, k, rng() % 3, rng, specials);
  keep_bf16_moderate(p.a, types.a);
  keep_bf16_moderate(p.b, types.b);
  EXPECT_TRUE(hy::kernels::pairs_operands_fit(types.a, types.b, kernel_test::reader_a(p), kernel_test::reader_b(p),
                                              p.m, p.n, p.k));
  return p;
}

// amx_tile_pairs runs on plain FMAs only where its DAZ/FTZ cannot act
// (kernels::pairs_operands_fit); these operands fit (BF16 values kept
// within 2^-40 .. 2^40, FP8 and FP16 over every code), so the comparison is
// with the fast kernel. A float32 output shows every bit of the sums;
// K crosses chunk boundaries and ends inside chunks and inside pairs.
TEST_P(HybridKernels, AmxTilePairsOnOperandsThatFit) {
  std::mt19937_64 rng(17);
  const hy::accumulation_model models[] = {hy::models::amx_tile_pairs(),
                                           hy::models::amx_tile_pairs(6),
                                           hy::models::amx_tile_pairs(2),
                                           hy::models::amx_tile_pairs(32, hy::amx_order::guide)};
  const element_type inputs[] = {T::hf8, T::bf8, T::f16, T::bf16};
  const std::size_t ks[] = {1, 31, 32, 33, 63, 64, 100, 257};
  int compared = 0;
  for (const auto& model : models) {
    for (element_type ta : inputs) {
      for (element_type tb : inputs) {
        if (!kernel_test::accepts(model, {ta, tb, T::f32})) continue;
        const std::size_t k = ks[rng() % 8];
        const auto p = fitting_pairs_problem({ta, tb, T::f32}, k, rng, false);
        hy::matmul_options o = with(model);
        o.threads = 1 + compared % 2;
        ASSERT_TRUE(matches_reference(p, o)) << "chunk " << model.chunk;
        ++compared;
      }
    }
  }
  EXPECT_GT(compared, 40);
}

// avx512_bf16_pairs on sequential_fp32's FMA tile, each pair's odd k first
// (kernels::bf16_pairs_on_fma_kernel_for; the kernel of CPUs without
// AVX512_BF16, run here on every ISA, the instruction's too), on operands
// that fit as above: every pair of HF8, BF8 and BF16, K odd and even, within
// one K block and across two and three (kc 1024), C of one and of several
// row blocks (mc 48) on 1-3 threads, float32 outputs. Wide-range codes: the
// pair order changes many sums, which the test checks (the same operands
// under sequential_fp32 differ in some outputs), so that a kernel summing
// in K's order could not pass.
TEST_P(HybridKernels, Bf16PairsOnFmaOperandsThatFit) {
  std::mt19937_64 rng(19);
  const element_type inputs[] = {T::hf8, T::bf8, T::bf16};
  const std::size_t ks[] = {1, 2, 7, 64, 1031, 2100};
  const hy::kernels::tile_kernel kernel = hy::kernels::bf16_pairs_on_fma_kernel_for(GetParam());
  int compared = 0, order_matters = 0;
  for (element_type ta : inputs) {
    for (element_type tb : inputs) {
      for (const std::size_t k : ks) {
        const std::size_t m = k <= 64 && compared % 2 == 1 ? 60 + rng() % 50 : 1 + rng() % 13;
        auto p = random_problem({ta, tb, T::f32}, m, 1 + rng() % 40, k, rng() % 3, rng, false);
        keep_bf16_moderate(p.a, ta);
        keep_bf16_moderate(p.b, tb);
        const hy::kernels::operand_reader a = kernel_test::reader_a(p), b = kernel_test::reader_b(p);
        ASSERT_TRUE(hy::kernels::pairs_operands_fit(ta, tb, a, b, p.m, p.n, p.k));
        hy::matmul_options o = with(hy::models::avx512_bf16_pairs());
        o.threads = 1 + compared % 3;
        const std::vector<std::uint32_t> fast = kernel_test::run_kernel(kernel, p, o);
        hy::matmul_options in_order = with(hy::models::sequential_fp32());
        in_order.reference_only = o.reference_only = true;
        const std::vector<std::uint32_t> reference = kernel_test::run(p, o, nullptr);
        ASSERT_TRUE(kernel_test::same_codes(fast, reference, p, o, "the FMA kernel"));
        if (reference != kernel_test::run(p, in_order, nullptr)) ++order_matters;
        ++compared;
      }
    }
  }
  EXPECT_GT(order_matters, compared / 4);
}

// nan_payload::propagate on the fast kernels, which compute every element
// and then each NaN one again from the operands' payloads (driver.hpp,
// with_instruction_nans): C's bits, NaN payloads included, are the
// reference's. A quarter of the operands from each type's edge set (every
// NaN code of BF16 and FP16, Inf, zeros, the largest; BF16 kept within
// 2^-40 .. 2^40 otherwise, for the pairs kernels on FMAs), float32 and BF16
// outputs, 1-3 threads.
TEST_P(HybridKernels, PairModelsPropagateTheInstructionsNans) {
  std::mt19937_64 rng(23);
  const auto propagate = hy::nan_payload::propagate;
  const hy::accumulation_model models[] = {hy::models::avx512_bf16_pairs(propagate),
                                           hy::models::amx_tile_pairs(32, hy::amx_order::sdm, propagate),
                                           hy::models::amx_tile_pairs(6, hy::amx_order::sdm, propagate),
                                           hy::models::amx_tile_pairs(32, hy::amx_order::guide, propagate)};
  const element_type inputs[] = {T::hf8, T::bf8, T::f16, T::bf16};
  const std::size_t ks[] = {1, 2, 31, 33, 64, 100};
  int compared = 0, payloads = 0;
  for (const auto& model : models) {
    for (element_type ta : inputs) {
      for (element_type tb : inputs) {
        for (element_type tc : {T::f32, T::bf16}) {
          if (!kernel_test::accepts(model, {ta, tb, tc})) continue;
          const auto p = fitting_pairs_problem({ta, tb, tc}, ks[rng() % 6], rng, true);
          hy::matmul_options o = with(model);
          o.threads = 1 + compared % 3;
          ASSERT_TRUE(matches_reference(p, o)) << "chunk " << model.chunk;
          ++compared;
          if (tc != T::f32) continue;
          for (const std::uint32_t code : kernel_test::run(p, o, nullptr)) {
            payloads += (code & 0x7FFFFFFFu) > 0x7FC00000u;  // a NaN with a payload
          }
        }
      }
    }
  }
  EXPECT_GT(compared, 40);
  EXPECT_GT(payloads, 100);
}

// BF16 operands that could reach the models' flushes (subnormals, or
// products below 2^-126) go to the reference where a pair model runs on
// plain FMAs: same bits, and the check says so.
TEST_P(HybridKernels, PairModelsOnTinyBf16FallBackToTheReference) {
  std::mt19937_64 rng(18);
  auto p = random_problem({T::bf16, T::bf16, T::f32}, 5, 20, 64, 0, rng, false);
  // Row 0 of C sums one product, 2^-133 (a BF16 subnormal, read as 0) x 1.
  std::fill(p.a.begin(), p.a.begin() + static_cast<std::ptrdiff_t>(p.k), 0u);
  p.a[3] = 0x0001u;
  std::fill(p.b.begin() + static_cast<std::ptrdiff_t>(3 * p.ldb),
            p.b.begin() + static_cast<std::ptrdiff_t>(4 * p.ldb), 0x3F80u);
  p.b[7] = 0x0080u;  // 2^-126
  const hy::kernels::operand_reader a = kernel_test::reader_a(p), b = kernel_test::reader_b(p);
  EXPECT_FALSE(hy::kernels::pairs_operands_fit(T::bf16, T::bf16, a, b, p.m, p.n, p.k));
  for (const auto& model : {hy::models::amx_tile_pairs(), hy::models::avx512_bf16_pairs()}) {
    ASSERT_TRUE(matches_reference(p, with(model)));
    const std::vector<std::uint32_t> c = kernel_test::run(p, with(model), nullptr);
    for (std::size_t j = 0; j < p.n; ++j) ASSERT_EQ(c[j], 0u) << "column " << j;
  }
}

TEST_P(HybridKernels, EdgeSetsAndSaturatingOutputs) {
  std::mt19937_64 rng(12);
  for (const auto& model : kernel_test::fast_models()) {
    for (const kernel_test::type_triple& types : kernel_test::float_triples(model.model)) {
      const auto p = random_problem(types, 9, 21, 24, 0, rng, true);
      hy::matmul_options o = with(model.model);
      ASSERT_TRUE(matches_reference(p, o)) << model.name;
      o.output.on_overflow = mf::overflow::saturating;
      o.scales.output = 1e30f;  // most outputs overflow: saturate (or Inf without saturation)
      ASSERT_TRUE(matches_reference(p, o)) << model.name << " saturating";
      o.output.on_overflow = mf::overflow::non_saturating;
      ASSERT_TRUE(matches_reference(p, o)) << model.name << " overflowing";
    }
  }
}

TEST_P(HybridKernels, ShapesAcrossTheBlockingAndLeadingDimensions) {
  std::mt19937_64 rng(13);
  const kernel_test::type_triple pairs[] = {{T::hf8, T::hf8, T::bf16}, {T::bf16, T::bf8, T::f32},
                                            {T::f16, T::hf8, T::f16}};
  struct shape {
    std::size_t m, n, k, pad;
  };
  // K = 0 and 1, M or N of 1 and 0, odd sizes, K past one K block (1024),
  // N past one column panel (1024) with a few rows, M past one row block
  // (48), and padded rows.
  const shape shapes[] = {{3, 5, 0, 0},   {0, 4, 6, 0},   {4, 0, 6, 2},  {1, 1, 1, 0},
                          {5, 67, 1, 3},  {13, 1, 17, 1}, {6, 64, 16, 0}, {25, 130, 9, 7},
                          {7, 17, 531, 5}, {7, 17, 1031, 5}, {2, 1031, 3, 2}, {53, 9, 5, 1}};
  for (const auto& model : kernel_test::fast_models()) {
    for (const auto& types : pairs) {
      if (!kernel_test::accepts(model.model, types)) continue;
      for (const shape& s : shapes) {
        const auto p = random_problem(types, s.m, s.n, s.k, s.pad, rng, false);
        ASSERT_TRUE(matches_reference(p, with(model.model))) << model.name;
      }
    }
  }
}

TEST_P(HybridKernels, ScaleOptionsBiasAndAmax) {
  std::mt19937_64 rng(14);
  const std::size_t m = 11, n = 23, k = 29;
  std::vector<float> a_rows(m), b_columns(n), bias(n);
  std::uniform_real_distribution<float> u(-4.0f, 4.0f);
  for (auto& x : a_rows) x = u(rng);
  for (auto& x : b_columns) x = u(rng);
  for (auto& x : bias) x = u(rng) * 1000.0f;
  for (const auto& model : kernel_test::fast_models()) {
    const auto p = random_problem({T::hf8, T::hf8, T::bf16}, m, n, k, 1, rng, false);
    hy::matmul_options o = with(model.model);
    o.scales.a = 0.375f;
    o.scales.b = 3.0f;
    o.scales.output = 0.1f;
    ASSERT_TRUE(matches_reference(p, o));
    o.scales.output_rule = hy::output_scale_rule::divide;
    ASSERT_TRUE(matches_reference(p, o));
    o.scales.a_rows = a_rows.data();
    o.scales.b_columns = b_columns.data();
    o.scales.bias = bias.data();
    ASSERT_TRUE(matches_reference(p, o));
    const auto q = random_problem({T::hf8, T::hf8, T::f16}, m, n, k, 0, rng, true);  // NaN amax
    ASSERT_TRUE(matches_reference(q, o));
    if (model.model.kind == hy::model_kind::sequential_fp32) {  // scales on the operands
      o.scales.where = hy::placement::operands;
      ASSERT_TRUE(matches_reference(p, o));
      ASSERT_TRUE(matches_reference(q, o));
      const auto r = random_problem({T::bf16, T::f16, T::f32}, m, n, 600, 2, rng, false);
      ASSERT_TRUE(matches_reference(r, o));  // across K blocks
      o.scales.a_rows = nullptr;
      o.scales.b_columns = nullptr;
      ASSERT_TRUE(matches_reference(r, o));
    }
  }
}

// reduced_precision (seq) with the scales on the operands: float32
// operands a' = RN32(a * sa) and b' = RN32(b * sb), whose products need
// not be exact in float32. Where the step is a directed FMA (AVX-512's
// static rounding, AVX2's FMA under MXCSR's rounding control) the
// kernel takes them within scaled_reduced_operands_fit's range
// (generic/reduced_tile.hpp, 8.) and gives the reference's bits: both
// truncations, bits 1, 14 and 24, per-row and per-column scales that are
// not powers of two, a bias, both output rules, K across promote_every,
// 1-3 threads. Elsewhere such requests take the reference. Then the
// range's edges: the smallest quanta summing to -126 (taken) and -127,
// sums at 2^103 and past it, and a scaled value that overflows to Inf
// (the reference for those).
TEST_P(HybridKernels, ReducedPrecisionWithScalesOnOperands) {
  const bool directed = GetParam() == mf::target::isa::avx512 || GetParam() == mf::target::isa::avx2;
  const auto seq = hy::reduced_variant::seq;
  const hy::accumulation_model models[] = {
      hy::models::reduced_precision(14, 128), hy::models::reduced_precision(14, 128, seq, 32, hy::truncation::floor),
      hy::models::reduced_precision(1, 7), hy::models::reduced_precision(24, 3, seq, 32, hy::truncation::floor)};
  const kernel_test::type_triple pairs[] = {{T::hf8, T::hf8, T::bf16}, {T::bf8, T::hf8, T::f32},
                                            {T::f16, T::bf8, T::f16}, {T::bf16, T::f16, T::f32}};
  std::mt19937_64 rng(31);
  std::uniform_real_distribution<float> u(-8.0f, 8.0f);
  int compared = 0;
  for (const auto& types : pairs) {
    for (const auto& model : models) {
      const std::size_t m = 1 + rng() % 13, n = 1 + rng() % 40, k = 1 + rng() % 300;
      auto p = random_problem(types, m, n, k, rng() % 3, rng, compared % 4 == 3);  // Inf, NaN in a quarter
      if (types.a == T::bf16) kernel_test::fill_bf16_within(p.a, -20, 20, rng);
      std::vector<float> a_rows(m), b_columns(n), bias(n);
      for (auto& x : a_rows) x = u(rng);
      for (auto& x : b_columns) x = u(rng);
      for (auto& x : bias) x = u(rng) * 100.0f;
      a_rows[0] = compared % 4 == 1 ? 0.0f : a_rows[0];  // a row of zeros (and NaN for Inf x 0)
      if (types.a == T::f16 && compared % 4 == 0) {
        // FP16 values within [2^-5, 2^5] and scales near 2^-40: the bound
        // from FP16's smallest value (2^-24) is too loose, and the pass over
        // the scaled values decides.
        std::uniform_real_distribution<double> e(-5.0, 5.0);
        for (auto& code : p.a) code = hybrid_test::encode(T::f16, std::exp2(e(rng)));
        for (auto& x : a_rows) x *= 0x1p-40f;
      }
      hy::matmul_options o = with(model);
      o.scales.where = hy::placement::operands;
      o.scales.a_rows = a_rows.data();
      o.scales.b_columns = b_columns.data();
      o.scales.bias = bias.data();
      o.scales.output = 0.3f;
      o.scales.output_rule = compared % 2 ? hy::output_scale_rule::divide : hy::output_scale_rule::multiply;
      o.threads = 1 + compared % 3;
      ++compared;
      const bool fast = hy::kernels::has_fast_kernel(types.a, types.b, types.c, k, o);
      EXPECT_EQ(fast, directed) << hy::name(types.a) << " x " << hy::name(types.b);
      if (!fast) continue;
      ASSERT_TRUE(hy::kernels::scaled_reduced_operands_fit(types.a, types.b, kernel_test::reader_a(p),
                                                           kernel_test::reader_b(p), m, n, k, o.scales));
      ASSERT_TRUE(matches_reference(p, o)) << hy::name(types.a) << " x " << hy::name(types.b);
    }
  }
  if (!directed) return;
  // Every value x (sign random in B) scaled: a' = x sa and b' = x sb
  // exactly. With x = 2^-9, E4M3's smallest value, the bound from the
  // type's range and the scales' extremes is exact and decides; with
  // x = 1 it is loose, and the pass over the scaled values decides.
  const auto uniform = [&](double x, std::size_t k, float sa, float sb) {
    auto p = random_problem({T::hf8, T::hf8, T::f32}, 3, 5, k, 0, rng, false);
    for (auto& code : p.a) code = hybrid_test::encode(T::hf8, x);
    for (auto& code : p.b) code = hybrid_test::encode(T::hf8, rng() % 2 ? x : -x);
    hy::matmul_options o = with(models[1]);
    o.scales.where = hy::placement::operands;
    o.scales.a = sa;
    o.scales.b = sb;
    const bool fits = hy::kernels::scaled_reduced_operands_fit(T::hf8, T::hf8, kernel_test::reader_a(p),
                                                               kernel_test::reader_b(p), p.m, p.n, p.k, o.scales);
    EXPECT_TRUE(matches_reference(p, o)) << x << " " << sa << " " << sb;
    return fits;
  };
  const float low = 1.0f + 0x1p-23f;  // 24 significant bits: a quantum 23 below the exponent
  EXPECT_TRUE(uniform(0x1p-9, 40, 0x1p-54f * low, 0x1p-8f * low));   // quanta -86 and -40: -126
  EXPECT_FALSE(uniform(0x1p-9, 40, 0x1p-54f * low, 0x1p-9f * low));  // -127
  EXPECT_TRUE(uniform(1.0, 40, 0x1p-63f * low, 0x1p-17f * low));     // -126
  EXPECT_FALSE(uniform(1.0, 40, 0x1p-63f * low, 0x1p-18f * low));    // -127
  EXPECT_TRUE(uniform(1.0, 4, 0x1p49f, 0x1p50f));  // exponents 49 and 50, K = 4: sums below 2^103
  EXPECT_FALSE(uniform(1.0, 8, 0x1p49f, 0x1p50f));                   // K = 8: 2^104
  EXPECT_FALSE(uniform(1.0, 4, 3e38f, 2.0f));  // a finite a' = 3e38: products past 2^104
  // Past the range, the case it guards against: FP16's 2^-24 and 1 scaled
  // to a' = 2^-77 (1 + 2^-13) and b' = 2^-50 (1 + 2^-22), whose product
  // 2^-127 (1 + 2^-13 + 2^-22 + 2^-35) cut to 14 bits is the float32
  // subnormal 2^-127 + 2^-140 in the model; the kernel's cut of a
  // subnormal would keep 13 bits (2^-127). Declined (quanta -100 and -73),
  // so the reference's bits.
  {
    auto q = random_problem({T::f16, T::f16, T::f32}, 2, 3, 1, 0, rng, false);
    for (auto& code : q.a) code = hybrid_test::encode(T::f16, 0x1p-24);
    for (auto& code : q.b) code = hybrid_test::encode(T::f16, 1.0);
    hy::matmul_options o = with(hy::models::reduced_precision(14, 128));
    o.scales.where = hy::placement::operands;
    o.scales.a = 0x1p-53f * (1.0f + 0x1p-13f);
    o.scales.b = 0x1p-50f * (1.0f + 0x1p-22f);
    EXPECT_FALSE(hy::kernels::scaled_reduced_operands_fit(T::f16, T::f16, kernel_test::reader_a(q),
                                                          kernel_test::reader_b(q), q.m, q.n, q.k, o.scales));
    EXPECT_TRUE(matches_reference(q, o));
    EXPECT_EQ(kernel_test::run(q, o, nullptr)[0], kernel_test::bits_of(0x1p-127f + 0x1p-140f));
  }
  auto p = random_problem({T::hf8, T::hf8, T::f32}, 3, 5, 9, 0, rng, false);
  p.a[0] = hybrid_test::encode(T::hf8, 448.0);
  hy::matmul_options o = with(models[1]);
  o.scales.where = hy::placement::operands;
  o.scales.a = 3e38f;  // a' = Inf: the reference
  EXPECT_FALSE(hy::kernels::scaled_reduced_operands_fit(T::hf8, T::hf8, kernel_test::reader_a(p),
                                                        kernel_test::reader_b(p), p.m, p.n, p.k, o.scales));
  EXPECT_TRUE(matches_reference(p, o));
}

TEST_P(HybridKernels, ThreadCountsGiveTheSameBits) {
  std::mt19937_64 rng(15);
  for (const auto& model : kernel_test::fast_models()) {
    // p: two column panels (split between threads); q: one panel of three
    // row blocks (M split between threads). 1, 2 and 3 threads split C
    // differently.
    const auto p = random_problem({T::hf8, T::hf8, T::f32}, 13, 1100, 5, 0, rng, false);
    const auto q = random_problem({T::bf16, T::hf8, T::bf16}, 200, 40, 20, 3, rng, true);
    for (unsigned threads : {1u, 2u, 3u}) {
      hy::matmul_options o = with(model.model);
      o.threads = threads;
      ASSERT_TRUE(matches_reference(p, o)) << threads << " threads";
      if (kernel_test::accepts(model.model, q.types)) {
        ASSERT_TRUE(matches_reference(q, o)) << threads << " threads";
      }
    }
  }
}

// The typed entry takes the same path.
TEST_P(HybridKernels, TypedEntry) {
  std::mt19937_64 rng(16);
  const std::size_t m = 10, n = 70, k = 40;
  std::vector<mf::e4m3fn> a(m * k);
  std::vector<mf::e4m3fn> b(k * n);
  for (auto& x : a) x = mf::e4m3fn::from_bits(static_cast<std::uint8_t>(hybrid_test::random_finite_code(T::hf8, rng)));
  for (auto& x : b) x = mf::e4m3fn::from_bits(static_cast<std::uint8_t>(hybrid_test::random_finite_code(T::hf8, rng)));
  for (const auto& model : kernel_test::fast_models()) {
    std::vector<mf::bfloat16> fast(m * n), reference(m * n);
    hy::matmul_options o = with(model.model);
    ASSERT_TRUE(hy::kernels::has_fast_kernel(T::hf8, T::hf8, T::bf16, k, o));
    hy::matmul<hy::any>(a.data(), k, b.data(), n, fast.data(), n, m, n, k, o);
    o.reference_only = true;
    hy::matmul<hy::any>(a.data(), k, b.data(), n, reference.data(), n, m, n, k, o);
    for (std::size_t i = 0; i < m * n; ++i) ASSERT_EQ(fast[i].bits(), reference[i].bits()) << i;
  }
}

// Below |acc + S| = 2^35 every chunk combination is exact in float64; past
// it, t = RN64(acc + S) can land on a float32 tie that acc + S is not on,
// and only the round-to-odd step keeps the one rounding. Here 168 chunks of
// 1024 products 448 * 448 make acc = 168 * 49 * 2^22 = 2^35 + 40 * 2^22
// (each step exact), then S = 2^11 + 2^-18: acc + S is just above the tie
// halfway between acc and acc + 2^12 (float32's ulp there), so the answer
// is acc + 2^12; t is that tie (2^-18 is half of float64's ulp, and the tie
// goes to the even tie point), which rounded to nearest even gives acc.
TEST_P(HybridKernels, ChunkedExactRoundsOncePastTheExactFloat64Range) {
  const std::size_t chunk = 1024, full = 168 * chunk, k = full + chunk;
  const std::uint32_t largest = hybrid_test::encode(T::hf8, 448.0);
  std::vector<std::uint32_t> a(k, largest), b(k, largest);
  for (std::size_t i = full; i < k; ++i) a[i] = b[i] = 0;
  a[full] = hybrid_test::encode(T::hf8, 32.0);  // 32 * 64 = 2^11
  b[full] = hybrid_test::encode(T::hf8, 64.0);
  a[full + 1] = b[full + 1] = hybrid_test::encode(T::hf8, 0x1p-9);  // 2^-18
  hy::matmul_options o = with(hy::models::chunked_exact(static_cast<int>(chunk)));
  o.check_z_multiple = false;
  ASSERT_TRUE(hy::kernels::has_fast_kernel(T::hf8, T::hf8, T::f32, k, o));
  std::uint32_t c = 0;
  hy::matmul(hy::table_id::any, T::hf8, T::hf8, T::f32, a.data(), k, b.data(), 1, &c, 1, 1, 1, k, o);
  const float acc = 0x1p35f + 40 * 0x1p22f;
  EXPECT_EQ(hybrid_test::as_float(c), acc + 0x1p12f);
  o.reference_only = true;
  std::uint32_t reference = 0;
  hy::matmul(hy::table_id::any, T::hf8, T::hf8, T::f32, a.data(), k, b.data(), 1, &reference, 1,
             1, 1, k, o);
  EXPECT_EQ(c, reference);
}

// reduced_precision (seq) on its kernel: bits 1, 2, 13, 14, 24, both
// truncations, promotions every 1, 7, 128, 1024 and 3000 products (longer
// than the driver's K block of 1024), K ending before, on and after a
// promotion and past a K block,
// every operand pair the kernel takes, a float32 output (every bit of the
// sums), wide-range codes and the edge sets. The kernel must be the one
// that runs (has_fast_kernel); past 24 bits, or with a BF16 operand, the
// reference computes the model. At ci level one of the three K per
// combination (drawn), all three at full level.
TEST_P(HybridKernels, ReducedPrecisionAcrossPromotionsAndBlocks) {
  std::mt19937_64 rng(19);
  const element_type inputs[] = {T::hf8, T::bf8, T::f16};
  const int bits[] = {1, 2, 13, 14, 24};
  const int promote[] = {1, 7, 128, 1024, 3000};
  int compared = 0;
  for (const hy::truncation trunc : {hy::truncation::toward_zero, hy::truncation::floor}) {
    for (const int b : bits) {
      for (const int every : promote) {
        const auto model = hy::models::reduced_precision(b, every, hy::reduced_variant::seq, 32, trunc);
        const element_type ta = inputs[rng() % 3], tb = inputs[rng() % 3];
        const std::size_t ks[] = {static_cast<std::size_t>(every) - (every > 1 ? 1 : 0),
                                  static_cast<std::size_t>(every) + 1, 1030 + rng() % 40};
        const std::size_t drawn = rng() % 3;
        for (std::size_t which = 0; which < 3; ++which) {
          if (!mft::full_level() && which != drawn) continue;
          const std::size_t k = ks[which];
          const auto p = random_problem({ta, tb, T::f32}, 1 + rng() % 8, 1 + rng() % 70, k, rng() % 2,
                                        rng, compared % 3 == 0);
          hy::matmul_options o = with(model);
          o.threads = 1 + compared % 3;
          ASSERT_TRUE(hy::kernels::has_fast_kernel(ta, tb, T::f32, k, o));
          ASSERT_TRUE(matches_reference(p, o)) << "bits " << b << " every " << every << " k " << k;
          ++compared;
        }
      }
    }
  }
  EXPECT_EQ(compared, 2 * 5 * 5 * (mft::full_level() ? 3 : 1));
  hy::matmul_options o = with(hy::models::reduced_precision(25, 128));
  EXPECT_FALSE(hy::kernels::has_fast_kernel(T::hf8, T::hf8, T::f32, 64, o));
  o.model = hy::models::reduced_precision(14, 128);
  // BF16: the kernel, where the values' range allows (ReducedPrecisionWithBf16Operands).
  EXPECT_TRUE(hy::kernels::has_fast_kernel(T::bf16, T::hf8, T::f32, 64, o));
}

// The partial register's cuts where they decide the answer: products of
// +-448 * 448 and small ones, so that every cut drops bits and sums cancel
// to exact zeros, for both truncations (floor moves negative partial sums
// down, toward zero moves them up).
TEST_P(HybridKernels, ReducedPrecisionCutsAndCancellations) {
  const std::uint32_t big = hybrid_test::encode(T::hf8, 448.0);
  const std::uint32_t tiny = hybrid_test::encode(T::hf8, 0x1p-9);
  const std::uint32_t three = hybrid_test::encode(T::hf8, 3.0);
  std::mt19937_64 rng(20);
  const std::size_t m = 4, n = 33, k = 300;
  kernel_test::problem p = random_problem({T::hf8, T::hf8, T::f32}, m, n, k, 0, rng, false);
  for (std::size_t i = 0; i < p.a.size(); ++i) {
    const std::uint32_t pick[] = {big, tiny, three, big | 0x80u, three | 0x80u};
    p.a[i] = pick[rng() % 5];
  }
  for (std::size_t i = 0; i < p.b.size(); ++i) p.b[i] = rng() % 2 ? big : (rng() % 2 ? tiny : three | 0x80u);
  for (const hy::reduced_variant variant : {hy::reduced_variant::seq, hy::reduced_variant::block}) {
    for (const hy::truncation trunc : {hy::truncation::toward_zero, hy::truncation::floor}) {
      for (const int b : {1, 3, 14, 24}) {
        hy::matmul_options o = with(hy::models::reduced_precision(b, 64, variant, 32, trunc));
        ASSERT_TRUE(hy::kernels::has_fast_kernel(T::hf8, T::hf8, T::f32, k, o));
        ASSERT_TRUE(matches_reference(p, o)) << "bits " << b << " variant " << static_cast<int>(variant);
      }
    }
  }
}

// reduced_precision with BF16 operands (kernels::reduced_operands_fit): on
// the kernels where the values' range lets them prove the model (seq:
// quanta of at least 2^-126 together and sums below 2^103; block: quanta of
// at least 2^-60 together), on the reference beyond. BF16 x BF16 and with
// every other type, both variants and truncations, bits 1, 14 and 24, K
// across promotions, signed values that cancel; then ranges one step past
// each bound (the same bits, from the reference).
TEST_P(HybridKernels, ReducedPrecisionWithBf16Operands) {
  std::mt19937_64 rng(25);
  const auto bf16_within = [&](std::vector<std::uint32_t>& v, int low, int high) {
    kernel_test::fill_bf16_within(v, low, high, rng);
  };
  const auto fits = [](const kernel_test::problem& p, hy::reduced_variant variant) {
    const hy::kernels::operand_reader a = kernel_test::reader_a(p), b = kernel_test::reader_b(p);
    return hy::kernels::reduced_operands_fit(p.types.a, p.types.b, a, b, p.m, p.n, p.k, variant);
  };
  const kernel_test::type_triple pairs[] = {{T::bf16, T::bf16, T::f32}, {T::bf16, T::hf8, T::bf16},
                                            {T::f16, T::bf16, T::f32}, {T::bf8, T::bf16, T::f16}};
  for (const auto& types : pairs) {
    auto p = random_problem(types, 1 + rng() % 9, 1 + rng() % 40, 1 + rng() % 300, rng() % 3, rng, false);
    if (types.a == T::bf16) bf16_within(p.a, -20, 20);
    if (types.b == T::bf16) bf16_within(p.b, -20, 20);
    for (const hy::reduced_variant variant : {hy::reduced_variant::seq, hy::reduced_variant::block}) {
      ASSERT_TRUE(fits(p, variant)) << hy::name(types.a) << " x " << hy::name(types.b);
      for (const hy::truncation trunc : {hy::truncation::toward_zero, hy::truncation::floor}) {
        for (const int bits : {1, 14, 24}) {
          const auto model = hy::models::reduced_precision(bits, 1 + static_cast<int>(rng() % 100), variant, 32, trunc);
          ASSERT_TRUE(matches_reference(p, with(model))) << hy::name(types.a) << " x " << hy::name(types.b);
        }
      }
    }
  }
  const auto seq = hy::models::reduced_precision(14, 64, hy::reduced_variant::seq, 32, hy::truncation::floor);
  const auto block = hy::models::reduced_precision(14, 64, hy::reduced_variant::block, 32, hy::truncation::floor);
  auto p = random_problem({T::bf16, T::bf16, T::f32}, 5, 19, 64, 0, rng, false);
  bf16_within(p.a, -56, -50);
  bf16_within(p.b, -56, -50);  // quanta from 2^-63 each: 2^-126 together
  EXPECT_TRUE(fits(p, hy::reduced_variant::seq));
  EXPECT_FALSE(fits(p, hy::reduced_variant::block));
  ASSERT_TRUE(matches_reference(p, with(seq)));
  ASSERT_TRUE(matches_reference(p, with(block)));
  bf16_within(p.a, -24, -18);
  bf16_within(p.b, -23, -18);  // quanta 2^-31 and 2^-30: 2^-61 < 2^-60 for block
  EXPECT_TRUE(fits(p, hy::reduced_variant::seq));
  EXPECT_FALSE(fits(p, hy::reduced_variant::block));
  ASSERT_TRUE(matches_reference(p, with(block)));
  bf16_within(p.a, -57, -50);
  bf16_within(p.b, -56, -50);  // 2^-64 and 2^-63: 2^-127 together, the reference for seq
  EXPECT_FALSE(fits(p, hy::reduced_variant::seq));
  ASSERT_TRUE(matches_reference(p, with(seq)));
  bf16_within(p.a, 40, 47);
  bf16_within(p.b, 40, 48);  // products below 2^97, K = 64: sums below 2^103
  EXPECT_TRUE(fits(p, hy::reduced_variant::seq));
  ASSERT_TRUE(matches_reference(p, with(seq)));
  EXPECT_TRUE(fits(p, hy::reduced_variant::block));
  ASSERT_TRUE(matches_reference(p, with(block)));
  bf16_within(p.b, 40, 49);  // 2^104: the reference for both variants
  EXPECT_FALSE(fits(p, hy::reduced_variant::seq));
  EXPECT_FALSE(fits(p, hy::reduced_variant::block));
  ASSERT_TRUE(matches_reference(p, with(seq)));
  ASSERT_TRUE(matches_reference(p, with(block)));
  // Products past float32's range, negative ones first: in the model the
  // first runs' parts are finite and C becomes -Inf, and a later positive
  // part leaves it -Inf; a part kept in float32 would be +Inf, and C NaN.
  const std::vector<double> a{-0x1.f8p122, -0x1.f8p122, -0x1.f8p122, 0x1.f2p115, 0x1.f2p115, 0x1.f2p115};
  auto q = random_problem({T::bf16, T::bf16, T::f32}, 1, 3, a.size(), 0, rng, false);
  for (std::size_t i = 0; i < a.size(); ++i) q.a[i] = hybrid_test::encode(T::bf16, a[i]);
  for (auto& code : q.b) code = hybrid_test::encode(T::bf16, 0x1.f2p115);
  EXPECT_FALSE(fits(q, hy::reduced_variant::block));
  ASSERT_TRUE(matches_reference(q, with(hy::models::reduced_precision(2, 2, hy::reduced_variant::block, 6))));
}

// The block variant: blocks of 1, 5, 32 and 64 products, ending inside and
// on promotion boundaries, every operand pair the kernel takes, bits 1 to
// 24, both truncations, with and without the edge sets (whose Inf and NaN
// blocks take the reference's block step inside the kernel). Blocks past
// 64 products run on the reference.
TEST_P(HybridKernels, ReducedPrecisionBlockVariant) {
  std::mt19937_64 rng(21);
  const element_type inputs[] = {T::hf8, T::bf8, T::f16};
  int compared = 0;
  for (const hy::truncation trunc : {hy::truncation::toward_zero, hy::truncation::floor}) {
    for (const int block : {1, 5, 32, 64}) {
      for (const int b : {1, 2, 14, 24}) {
        const int every = block * (1 + static_cast<int>(rng() % 4)) + static_cast<int>(rng() % 3);
        const auto model = hy::models::reduced_precision(b, every, hy::reduced_variant::block, block, trunc);
        const element_type ta = inputs[rng() % 3], tb = inputs[rng() % 3];
        const std::size_t k = 1 + rng() % 300;
        const auto p = random_problem({ta, tb, T::f32}, 1 + rng() % 9, 1 + rng() % 40, k, rng() % 2, rng,
                                      compared % 2 == 0);
        hy::matmul_options o = with(model);
        o.threads = 1 + compared % 2;
        ASSERT_TRUE(hy::kernels::has_fast_kernel(ta, tb, T::f32, k, o));
        ASSERT_TRUE(matches_reference(p, o)) << "block " << block << " bits " << b << " every " << every;
        ++compared;
      }
    }
  }
  hy::matmul_options o = with(hy::models::reduced_precision(14, 128, hy::reduced_variant::block, 65));
  EXPECT_FALSE(hy::kernels::has_fast_kernel(T::hf8, T::hf8, T::f32, 64, o));
}

// The exact model with E5M2 operands (split into parts >= 1 and below 1,
// kernels/split_sum.hpp): every FP8 pair, wide-range codes, K across the
// driver's K block, tile edges, 1-3 threads, a float32 output, rounded to
// float32 and carried exactly to the output (exact(true)). Then a sum
// whose float32 rounding needs every chain exactly: 2^24 + 1 + 2^-30 (from
// 2^12 * 2^12, 1 * 1 and 2^-15 * 2^-15) is above the tie 2^24 + 1, so it
// rounds to 2^24 + 2; summed in float64 first, the 2^-30 is lost and the
// tie goes to 2^24. Operands with Inf or NaN take the reference.
TEST_P(HybridKernels, ExactWithSplitE5M2Operands) {
  std::mt19937_64 rng(22);
  const kernel_test::type_triple pairs[] = {{T::bf8, T::bf8, T::f32}, {T::hf8, T::bf8, T::f32},
                                            {T::bf8, T::hf8, T::f32}, {T::bf8, T::bf8, T::bf16}};
  int compared = 0;
  for (const auto& types : pairs) {
    for (const std::size_t k : {1u, 17u, 300u, 1031u, 2100u}) {
      const auto p = random_problem(types, 1 + rng() % 13, 1 + rng() % 70, k, rng() % 3, rng, false);
      for (const bool to_output : {false, true}) {
        hy::matmul_options o = with(hy::models::exact(to_output));
        o.threads = 1 + compared % 3;
        ASSERT_TRUE(hy::kernels::has_fast_kernel(types.a, types.b, types.c, k, o));
        ASSERT_TRUE(matches_reference(p, o)) << hy::name(types.a) << " x " << hy::name(types.b) << " k " << k;
      }
      ++compared;
    }
  }
  const std::vector<std::uint32_t> a{hybrid_test::encode(T::bf8, 4096.0), hybrid_test::encode(T::bf8, 1.0),
                                     hybrid_test::encode(T::bf8, 0x1p-15)};
  std::uint32_t c = 0;
  hy::matmul_options o = with(hy::models::exact());
  o.check_z_multiple = false;
  hy::matmul(hy::table_id::any, T::bf8, T::bf8, T::f32, a.data(), 3, a.data(), 1, &c, 1, 1, 1, 3, o);
  EXPECT_EQ(hybrid_test::as_float(c), 0x1p24f + 2.0f);
  // Inf among the operands: the reference (Inf x 0 would meet a split's +0).
  auto p = random_problem({T::bf8, T::bf8, T::f32}, 4, 9, 40, 0, rng, false);
  p.a[5] = 0x7Cu;  // +Inf
  p.b[7] = 0xFCu;  // -Inf
  ASSERT_TRUE(matches_reference(p, with(hy::models::exact())));
}

// The exact model on E5M2 and FP16 operands as integers in two 52-bit
// limbs (kernels/limb_sum.hpp): with AVX512_IFMA every pair of E4M3, E5M2
// and FP16 but E4M3 x E4M3; on AVX2's float64 pieces the pairs with an
// FP16 (the FP8 pairs take the split chains there and on the scalar ISA,
// where FP16 takes the reference). Wide-range codes with K past the
// tiles' carry and fold intervals (2048 and 1024 steps) and across four K
// blocks; every product at the type's largest magnitude, with signs (the
// largest sums in the high limbs) and cancelling to +0; products whose
// packed low limbs are above 0.98 * 2^52 (E5M2 7 * 2^-10 x 7 * 2^-7, FP16
// 0.00780487060546875 x 64.0625), 8200 of which pass 2^64 unless carried.
// Each sum both rounded to float32 and carried exactly to the output
// (exact(true), times an output scale).
TEST_P(HybridKernels, ExactOnIntegerLimbs) {
  const bool limbs = kernel_test::has_limbs(GetParam());
  hy::matmul_options to_output = with(hy::models::exact(true));
  to_output.scales.output = 0.75f;
  const auto matches = [&](const kernel_test::problem& p) {
    return matches_reference(p, with(hy::models::exact())) && matches_reference(p, to_output);
  };
  const kernel_test::type_triple pairs[] = {{T::bf8, T::bf8, T::f32}, {T::f16, T::f16, T::f32},
                                            {T::f16, T::bf8, T::f16}, {T::hf8, T::f16, T::f32},
                                            {T::bf8, T::hf8, T::bf16}};
  std::mt19937_64 rng(23);
  for (const auto& types : pairs) {
    const auto kernel = hy::kernels::kernel_for(hy::models::exact(), types.a, types.b, 4096, GetParam());
    EXPECT_EQ(kernel.operands == hy::kernels::packing::offset_integers,
              kernel_test::limbs_take(GetParam(), types.a, types.b))
        << hy::name(types.a) << " x " << hy::name(types.b);
    if (kernel.run == nullptr) continue;  // FP16 on the scalar ISA: the reference
    for (const std::size_t k : {0u, 1u, 300u, 2049u, 4100u}) {
      const auto p = random_problem(types, 1 + rng() % 13, 1 + rng() % 40, k, rng() % 3, rng, false);
      ASSERT_TRUE(matches(p)) << hy::name(types.a) << " x " << hy::name(types.b) << " k " << k;
    }
  }
  const std::size_t k = 8200;
  for (const element_type t : {T::bf8, T::f16}) {
    if (t == T::f16 && !limbs) continue;
    auto p = random_problem({t, t, T::f32}, 3, 5, k, 0, rng, false);
    const std::uint32_t max = hybrid_test::encode(t, t == T::bf8 ? 57344.0 : 65504.0);
    const std::uint32_t sign = t == T::bf8 ? 0x80u : 0x8000u;
    for (std::size_t i = 0; i < p.a.size(); ++i) p.a[i] = max | (i % 3 == 0 ? sign : 0u);
    for (std::size_t i = 0; i < p.b.size(); ++i) p.b[i] = max | (i % 7 == 0 ? sign : 0u);
    ASSERT_TRUE(matches(p)) << hy::name(t);
    for (std::size_t i = 0; i < p.a.size(); ++i) p.a[i] = max | (i % 2 == 0 ? sign : 0u);
    for (std::size_t i = 0; i < p.b.size(); ++i) p.b[i] = max;
    ASSERT_TRUE(matches(p)) << hy::name(t);  // each row's sum cancels to +0
    const double x = t == T::bf8 ? 0x7p-10 : 0.00780487060546875, y = t == T::bf8 ? 0x7p-7 : 64.0625;
    for (auto& code : p.a) code = hybrid_test::encode(t, x);
    for (auto& code : p.b) code = hybrid_test::encode(t, y);
    p.a[k - 1] = hybrid_test::encode(t, t == T::bf8 ? 0x1p-16 : 0x1p-24);
    ASSERT_TRUE(matches(p)) << hy::name(t);
  }
  // AVX2's pieces (x86/avx2/limb_tile.hpp) at their bound: FP16 2^-4 and
  // E5M2 16 are n = 2^20 (of either sign), whose offset integer's low piece
  // is -2^20, so two chains gain about 2^40 in magnitude per step: 2^50
  // between two folds, past the bound 2^51 with folds twice as far apart.
  // The driver's K blocks of exact are 1024 steps; chunked_exact's hold
  // whole chunks, here all of K.
  // With an E4M3 operand (the narrow tiles), its largest magnitude 448.
  const auto bound_value = [](element_type t) { return t == T::f16 ? 0x1p-4 : t == T::bf8 ? 16.0 : 448.0; };
  for (const kernel_test::type_triple types : {kernel_test::type_triple{T::f16, T::f16, T::f32},
                                               kernel_test::type_triple{T::f16, T::bf8, T::f32},
                                               kernel_test::type_triple{T::f16, T::hf8, T::f32},
                                               kernel_test::type_triple{T::hf8, T::f16, T::f32}}) {
    if (!kernel_test::limbs_take(GetParam(), types.a, types.b)) continue;
    auto p = random_problem(types, 2, 5, 4100, 0, rng, false);
    const double a = bound_value(types.a), b = bound_value(types.b);
    for (auto& code : p.a) code = hybrid_test::encode(types.a, a);
    for (std::size_t i = 0; i < p.b.size(); ++i) p.b[i] = hybrid_test::encode(types.b, i % 5 == 0 ? -b : b);
    ASSERT_TRUE(matches(p)) << hy::name(types.a) << " x " << hy::name(types.b);
    ASSERT_TRUE(matches_reference(p, with(hy::models::chunked_exact(static_cast<int>(p.k)))))
        << hy::name(types.a) << " x " << hy::name(types.b);
  }
}

// BF16 operands on the limbs (kernels/limb_sum.hpp): the scale is read from
// each matrix, and a matrix whose values span more than 40 bits (largest
// exponent + 1 less the smallest quantum) goes to the reference. Spans of
// 32 and exactly 40 bits, with every other type; matrices of huge values
// (sums past float32's range: Inf) and of tiny ones (subnormal and zero
// results), where the last step cannot convert eight at a time. Each sum
// both rounded to float32 and carried exactly to the output (exact(true),
// divided by an output scale).
TEST_P(HybridKernels, ExactWithBf16OperandsOnLimbs) {
  if (!kernel_test::has_limbs(GetParam())) {  // the scalar ISA: BF16 exact takes the reference
    EXPECT_EQ(hy::kernels::kernel_for(hy::models::exact(), T::bf16, T::bf16, 64, GetParam()).run, nullptr);
    return;
  }
  std::mt19937_64 rng(24);
  const auto bf16_within = [&](std::vector<std::uint32_t>& v, int low, int high) {
    kernel_test::fill_bf16_within(v, low, high, rng);
  };
  const auto fits = [](const kernel_test::problem& p) {
    const hy::kernels::operand_reader a = kernel_test::reader_a(p), b = kernel_test::reader_b(p);
    int sa = 0, sb = 0;
    return hy::kernels::limb_scale_fits(p.types.a, a, p.m, p.k, sa) &&
           hy::kernels::limb_scale_fits(p.types.b, b, p.k, p.n, sb);
  };
  hy::matmul_options to_output = with(hy::models::exact(true));
  to_output.scales.output = 3.0f;
  to_output.scales.output_rule = hy::output_scale_rule::divide;
  const auto matches = [&](const kernel_test::problem& p) {
    return matches_reference(p, with(hy::models::exact())) && matches_reference(p, to_output);
  };
  const kernel_test::type_triple pairs[] = {{T::bf16, T::bf16, T::f32}, {T::bf16, T::hf8, T::bf16},
                                            {T::bf8, T::bf16, T::f32}, {T::bf16, T::f16, T::f16}};
  for (const auto& types : pairs) {
    for (const std::size_t k : {1u, 77u, 2100u}) {
      auto p = random_problem(types, 1 + rng() % 9, 1 + rng() % 40, k, rng() % 3, rng, false);
      if (types.a == T::bf16) bf16_within(p.a, -12, 12);  // quanta from 2^-19, below 2^13: 32 bits
      if (types.b == T::bf16) bf16_within(p.b, -20, 12);  // exactly 40 bits
      ASSERT_TRUE(fits(p)) << hy::name(types.a) << " x " << hy::name(types.b);
      ASSERT_TRUE(matches(p)) << hy::name(types.a) << " x " << hy::name(types.b) << " k " << k;
    }
  }
  auto p = random_problem({T::bf16, T::bf16, T::f32}, 5, 19, 300, 0, rng, false);
  bf16_within(p.a, -12, 12);
  bf16_within(p.b, -21, 12);  // 41 bits: the reference
  EXPECT_FALSE(fits(p));
  ASSERT_TRUE(matches(p));
  bf16_within(p.a, 95, 110);
  bf16_within(p.b, 100, 120);  // products up to 2^232: Inf sums
  ASSERT_TRUE(fits(p));
  ASSERT_TRUE(matches(p));
  bf16_within(p.a, -110, -95);
  bf16_within(p.b, -120, -100);  // products down to 2^-244: subnormal and zero sums
  ASSERT_TRUE(fits(p));
  ASSERT_TRUE(matches(p));
  bf16_within(p.a, -70, -66);
  bf16_within(p.b, -72, -68);  // sums near 2^-130: rounded once into float32's subnormals
  ASSERT_TRUE(fits(p));
  ASSERT_TRUE(matches(p));
}

// chunked_exact on the limbs (kernels/limb_sum.hpp; AVX512_IFMA, or AVX2's
// pieces): each chunk's sum folded into the float32 acc by the tile's
// chunk step. Pairs of E4M3, E5M2, FP16 and BF16 but E4M3 x E4M3; chunks
// of 1, 3, 64, 100 and 2048 products (past the tiles' carry and fold
// intervals); both roundings, with and without presum_round; K from 0 to
// past four K blocks; three threads on a C of several row blocks. BF16
// matrices: sums past float32's range (Inf, and Inf + -Inf = NaN with
// presum_round; FLT_MAX toward zero, also before chunks of +0, which the
// limbs leave to the reference where the products' unit exceeds 2^104),
// subnormal sums; and a negative sum that rounds to -0 followed by a chunk
// of -0 products, which the model keeps as -0 and the parts would not (the
// reference computes it: the quanta multiply to less than 2^-149).
TEST_P(HybridKernels, ChunkedExactOnIntegerLimbs) {
  for (const element_type t : {T::bf8, T::f16}) {
    EXPECT_EQ(hy::kernels::kernel_for(hy::models::chunked_exact(64), t, t, 4096, GetParam()).operands ==
                  hy::kernels::packing::offset_integers,
              kernel_test::limbs_take(GetParam(), t, t));
  }
  if (!kernel_test::has_limbs(GetParam())) return;  // the scalar ISA: FP16 and BF16 take the reference
  const std::size_t longest = hy::kernels::detail::limb_chunked_max_k;  // acc's parts exact up to it
  EXPECT_NE(hy::kernels::kernel_for(hy::models::chunked_exact(64), T::f16, T::f16, longest, GetParam()).run, nullptr);
  EXPECT_EQ(hy::kernels::kernel_for(hy::models::chunked_exact(64), T::f16, T::f16, longest + 1, GetParam()).run,
            nullptr);
  std::mt19937_64 rng(25);
  const kernel_test::type_triple pairs[] = {{T::bf8, T::bf8, T::f32}, {T::f16, T::f16, T::f32},
                                            {T::hf8, T::bf8, T::bf16}, {T::f16, T::bf8, T::f16},
                                            {T::bf16, T::bf16, T::f32}, {T::bf16, T::hf8, T::bf16}};
  int compared = 0;
  for (const auto& types : pairs) {
    for (const int chunk : {1, 3, 64, 100, 2048}) {
      for (const std::size_t k : {0u, 1u, 130u, 1100u, 4200u}) {
        if (chunk == 1 && k > 200) continue;  // a chunk step per product: slow, and nothing new
        auto p = random_problem(types, 1 + rng() % 9, 1 + rng() % 40, k, rng() % 3, rng, false);
        if (types.a == T::bf16) kernel_test::fill_bf16_within(p.a, -12, 12, rng);
        if (types.b == T::bf16) kernel_test::fill_bf16_within(p.b, -20, 12, rng);
        const auto rounding = compared % 2 == 0 ? hy::fp32_rounding::nearest_even : hy::fp32_rounding::toward_zero;
        hy::matmul_options o = with(hy::models::chunked_exact(chunk, rounding, compared % 4 >= 2));
        o.threads = 1 + compared % 3;
        ASSERT_TRUE(matches_reference(p, o))
            << hy::name(types.a) << " x " << hy::name(types.b) << " chunk " << chunk << " k " << k;
        ++compared;
      }
    }
  }
  for (const auto& types : {pairs[0], pairs[4]}) {  // several row blocks (mc = 48): several workers
    auto p = random_problem(types, 150, 40, 1100, 1, rng, false);
    if (types.a == T::bf16) kernel_test::fill_bf16_within(p.a, -12, 12, rng);
    if (types.b == T::bf16) kernel_test::fill_bf16_within(p.b, -20, 12, rng);
    hy::matmul_options o = with(hy::models::chunked_exact(100));
    o.threads = 3;
    ASSERT_TRUE(matches_reference(p, o)) << hy::name(types.a) << " on three threads";
  }
  auto p = random_problem({T::bf16, T::bf16, T::f32}, 4, 11, 300, 0, rng, false);
  for (const bool presum : {false, true}) {
    for (const auto rounding : {hy::fp32_rounding::nearest_even, hy::fp32_rounding::toward_zero}) {
      const hy::matmul_options o = with(hy::models::chunked_exact(7, rounding, presum));
      kernel_test::fill_bf16_within(p.a, 100, 110, rng);
      kernel_test::fill_bf16_within(p.b, 90, 100, rng);  // products up to 2^211: Inf, NaN, FLT_MAX
      ASSERT_TRUE(matches_reference(p, o));
      kernel_test::fill_bf16_within(p.a, -68, -66, rng);
      kernel_test::fill_bf16_within(p.b, -60, -58, rng);  // quanta 2^-142, sums near 2^-126
      ASSERT_TRUE(matches_reference(p, o));
    }
  }
  // Toward zero, a sum past float32's range becomes FLT_MAX = (2^24 - 1)
  // 2^104, not a multiple of the products' unit 2^186 here: the reference
  // takes these (a unit of at most 2^104 on the limbs), and later chunks of
  // +0 keep FLT_MAX.
  {
    const std::vector<std::uint32_t> a{hybrid_test::encode(T::bf16, 0x1p100), 0x0000u};
    const std::vector<std::uint32_t> b{hybrid_test::encode(T::bf16, 0x1p100), hybrid_test::encode(T::bf16, 0x1p100)};
    std::uint32_t c = 0;
    hy::matmul_options o = with(hy::models::chunked_exact(1, hy::fp32_rounding::toward_zero));
    o.check_z_multiple = false;
    hy::matmul(hy::table_id::any, T::bf16, T::bf16, T::f32, a.data(), 2, b.data(), 1, &c, 1, 1, 1, 2, o);
    EXPECT_EQ(c, 0x7f7fffffu);
    auto huge = random_problem({T::bf16, T::bf16, T::f32}, 3, 9, 50, 0, rng, false);
    kernel_test::fill_bf16_within(huge.a, 100, 110, rng);
    kernel_test::fill_bf16_within(huge.b, 90, 100, rng);
    for (std::size_t i = 0; i < huge.a.size(); i += 3) huge.a[i] = 0x0000u;  // chunks of +0 among huge ones
    ASSERT_TRUE(matches_reference(huge, with(hy::models::chunked_exact(2, hy::fp32_rounding::toward_zero))));
    kernel_test::fill_bf16_within(huge.a, 58, 70, rng);
    kernel_test::fill_bf16_within(huge.b, 58, 70, rng);  // quanta 2^51 x 2^51: the limbs, sums past 2^128
    for (std::size_t i = 0; i < huge.a.size(); i += 3) huge.a[i] = 0x0000u;
    int sa = 0, sb = 0;
    ASSERT_TRUE(hy::kernels::limb_scale_fits(T::bf16, kernel_test::reader_a(huge), huge.m, huge.k, sa) &&
                hy::kernels::limb_scale_fits(T::bf16, kernel_test::reader_b(huge), huge.k, huge.n, sb));
    EXPECT_EQ(sa + sb, -102);
    ASSERT_TRUE(matches_reference(huge, with(hy::models::chunked_exact(2, hy::fp32_rounding::toward_zero))));
  }
  const std::vector<std::uint32_t> a{hybrid_test::encode(T::bf16, -0x1p-100), 0x0000u};
  const std::vector<std::uint32_t> b{hybrid_test::encode(T::bf16, 0x1p-100), 0x8000u};  // then +0 x -0
  std::uint32_t c = 0;
  hy::matmul_options o = with(hy::models::chunked_exact(1));
  o.check_z_multiple = false;
  hy::matmul(hy::table_id::any, T::bf16, T::bf16, T::f32, a.data(), 2, b.data(), 1, &c, 1, 1, 1, 2, o);
  EXPECT_EQ(c, 0x80000000u);  // -2^-200 rounds to -0, and -0 + -0 is -0
}

// chunked_exact on split E5M2 operands (the chunk step in the float64 tile,
// generic/exact_tile.hpp): what CPUs without AVX512_IFMA run. Each
// request through the public entry (the split route where the limbs do
// not take the pair) and on the split kernel itself
// (kernels::split_kernel_for, so the AVX-512 tile is compared on a CPU
// with IFMA too), against the reference:
// every FP8 pair with an E5M2, chunks of 1, 3, 64, 100 and 2048 products,
// both roundings, with and without presum_round, K from 0 to past four K
// blocks, 1-3 threads (on a C of several row blocks). Then sums that only
// round right with every chain and each error term: 2^24 + 1 + 2^-30 (four
// chains) and 16 * 448 * 57344 + 16 + 2^-25 (two chains, the TwoSum of the
// chains inexact), each just above a float32 tie in one chunk; and 2^30,
// then a chunk of 64 + 2^-30, whose sum with acc is inexact in float64.
TEST_P(HybridKernels, ChunkedExactWithSplitE5M2Operands) {
  const auto split_matches = [&](const kernel_test::problem& p, const hy::matmul_options& o) {
    if (!kernel_test::limbs_take(GetParam(), p.types.a, p.types.b) && !matches_reference(p, o)) return false;
    const hy::kernels::tile_kernel kernel =
        hy::kernels::split_kernel_for(o.model, p.types.a, p.types.b, p.k, GetParam());
    EXPECT_TRUE(kernel.run != nullptr && kernel.chunk != 0);
    return kernel_test::kernel_matches_reference(kernel, p, o);
  };
  std::mt19937_64 rng(27);
  const kernel_test::type_triple pairs[] = {{T::bf8, T::bf8, T::f32}, {T::hf8, T::bf8, T::f32},
                                            {T::bf8, T::hf8, T::bf16}, {T::bf8, T::bf8, T::bf16}};
  int compared = 0;
  for (const auto& types : pairs) {
    for (const int chunk : {1, 3, 64, 100, 2048}) {
      for (const std::size_t k : {0u, 1u, 130u, 1100u, 4200u}) {
        if (chunk == 1 && k > 200) continue;  // nothing new, and slow on the reference
        const auto p = random_problem(types, 1 + rng() % 13, 1 + rng() % 40, k, rng() % 3, rng, false);
        const auto rounding = compared % 2 == 0 ? hy::fp32_rounding::nearest_even : hy::fp32_rounding::toward_zero;
        hy::matmul_options o = with(hy::models::chunked_exact(chunk, rounding, compared % 4 >= 2));
        o.threads = 1 + compared % 3;
        o.check_z_multiple = false;
        ASSERT_TRUE(split_matches(p, o)) << "chunk " << chunk;
        ++compared;
      }
    }
  }
  for (const unsigned threads : {2u, 3u}) {  // several row blocks (mc = 48), so several workers
    const auto p = random_problem({T::bf8, T::bf8, T::f32}, 150, 70, 300, 1, rng, false);
    hy::matmul_options o = with(hy::models::chunked_exact(64));
    o.threads = threads;
    o.check_z_multiple = false;
    ASSERT_TRUE(split_matches(p, o)) << threads << " threads";
  }
  struct tie_case {
    element_type a, b;
    std::vector<double> x, y;
    float expected, expected_presum;  // presum_round: the chunk's sum rounded first
    int chunk;                        // 0: all of K
  };
  const tie_case ties[] = {
      {T::bf8, T::bf8, {4096.0, 1.0, 0x1p-15}, {4096.0, 1.0, 0x1p-15}, 0x1p24f + 2.0f, 0x1p24f + 2.0f, 0},
      {T::hf8, T::bf8, std::vector<double>(16, 448.0), std::vector<double>(16, 57344.0), 0.0f, 0.0f, 0},
      {T::bf8, T::bf8, {32768.0, 0.0, 8.0, 0x1p-15}, {32768.0, 0.0, 8.0, 0x1p-15}, 0x1p30f + 128.0f, 0x1p30f, 2}};
  for (tie_case t : ties) {
    if (t.a == T::hf8) {  // 16 * 448 * 57344 = 2^28 * 1.53125, on float32's grid of 32 there
      t.x.insert(t.x.end(), {2.0, 0x1p-9});
      t.y.insert(t.y.end(), {8.0, 0x1p-16});  // + 16 (the tie) + 2^-25
      t.expected = t.expected_presum = 16.0f * 448.0f * 57344.0f + 32.0f;
    }
    const kernel_test::problem p = problem_of({t.a, t.b, T::f32}, 1, 1, t.x.size(), t.x, t.y);
    for (const bool presum : {false, true}) {
      const int chunk = t.chunk != 0 ? t.chunk : static_cast<int>(p.k);
      hy::matmul_options o = with(hy::models::chunked_exact(chunk, hy::fp32_rounding::nearest_even, presum));
      o.check_z_multiple = false;
      ASSERT_TRUE(split_matches(p, o));
      EXPECT_EQ(hybrid_test::as_float(kernel_test::run(p, o, nullptr)[0]), presum ? t.expected_presum : t.expected);
    }
  }
}

// The pair models on plain FMAs read a BF16 subnormal as 0 (DAZ) and flush
// a subnormal step to 0 (FTZ); pairs_operands_fit must turn away a
// subnormal operand however large the other one's values (their quanta
// together, 2^-133 x 2^13, pass the bound of 2^-126), and quanta that
// multiply to 2^-127, one step past the bound. Here 2^-133 x 2^20 would be
// 2^-113 on an FMA, and a pair of products that cancel to 2^-127 (from
// 2^-60 (1 + 2^-7) x 2^-53 (1 + 2^-7) less 2^-60 (1 + 2^-6) x 2^-53) stays
// 2^-127 on an FMA; the models give 0 for both.
TEST_P(HybridKernels, PairModelsDeclineOperandsAtTheFlushBounds) {
  struct flush_case {
    std::vector<double> a, b;
  };
  const double tiny = 0x1p-133;  // BF16's smallest subnormal
  const flush_case cases[] = {
      {{tiny, 0.0}, {0x1p20, 0x1p20}},  // A subnormal, B's quantum 2^13
      {{0x1p20, 0x1p20}, {tiny, 0.0}},  // B subnormal
      {{0x1p-60 * (1 + 0x1p-7), -0x1p-60 * (1 + 0x1p-6)}, {0x1p-53 * (1 + 0x1p-7), 0x1p-53}}};  // 2^-127
  for (const flush_case& c : cases) {
    const kernel_test::problem p = problem_of({T::bf16, T::bf16, T::f32}, 1, 1, 2, c.a, c.b);
    EXPECT_FALSE(hy::kernels::pairs_operands_fit(T::bf16, T::bf16, kernel_test::reader_a(p),
                                                 kernel_test::reader_b(p), p.m, p.n, p.k));
    for (const auto& model : {hy::models::amx_tile_pairs(), hy::models::avx512_bf16_pairs()}) {
      hy::matmul_options o = with(model);
      ASSERT_TRUE(matches_reference(p, o)) << c.a[0] << " " << c.b[0];
      EXPECT_EQ(hybrid_test::as_float(kernel_test::run(p, o, nullptr)[0]), 0.0f) << c.a[0] << " " << c.b[0];
    }
  }
}

// reduced_precision with one BF16 operand: reduced_operands_fit reads the
// BF16 matrix whichever side it is on, and a range past the kernels' proof
// takes the reference. E4M3 2^-9 times BF16 2^-118 and 2^-131 (a BF16
// subnormal) sum to 2^-127 + 2^-140, a float32 subnormal whose cut the
// kernels' float32 lanes would make at the wrong place; BF16 +-2^120 times
// E4M3 448 are products past float32's range (Inf in a float32 lane) that
// cancel in the model.
TEST_P(HybridKernels, ReducedPrecisionChecksABf16OperandOnEitherSide) {
  struct range_case {
    std::vector<double> e4m3, bf16;
  };
  const range_case cases[] = {{{0x1p-9, 0x1p-9}, {0x1p-118, 0x1p-131}},
                              {{448.0, 448.0}, {0x1p120, -0x1p120}}};
  for (const range_case& c : cases) {
    for (const bool bf16_first : {false, true}) {
      const kernel_test::problem p = bf16_first ? problem_of({T::bf16, T::hf8, T::f32}, 1, 1, 2, c.bf16, c.e4m3)
                                                : problem_of({T::hf8, T::bf16, T::f32}, 1, 1, 2, c.e4m3, c.bf16);
      for (const hy::reduced_variant variant : {hy::reduced_variant::seq, hy::reduced_variant::block}) {
        EXPECT_FALSE(hy::kernels::reduced_operands_fit(p.types.a, p.types.b, kernel_test::reader_a(p),
                                                       kernel_test::reader_b(p), p.m, p.n, p.k, variant))
            << c.bf16[0] << (bf16_first ? " BF16 first" : " BF16 second");
        for (const hy::truncation trunc : {hy::truncation::toward_zero, hy::truncation::floor}) {
          for (const int bits : {1, 14, 24}) {
            const auto model = hy::models::reduced_precision(bits, 2, variant, 32, trunc);
            ASSERT_TRUE(matches_reference(p, with(model)))
                << c.bf16[0] << (bf16_first ? " BF16 first" : " BF16 second") << " bits " << bits;
          }
        }
      }
    }
  }
}

// The limbs' conditions on the values (fast_path.hpp): a BF16 Inf or NaN
// has no integer, so such a matrix takes the reference; and chunked_exact
// takes them only for products' units 2^-(sa + sb) from 2^-149 to 2^104.
// Just past each end: quanta 2^-75 x 2^-75 (2^-150), where a chunk whose
// sum is -2^-150 rounds to -0 and a later chunk of -0 products keeps it
// -0; and 2^53 x 2^52 (2^105), where toward zero a sum past float32's
// range is FLT_MAX, not a multiple of the unit, from which a later chunk
// of -2^105 leaves FLT_MAX - 2^105.
TEST_P(HybridKernels, LimbsDeclineValuesPastTheirBounds) {
  if (!kernel_test::has_limbs(GetParam())) return;  // BF16 exact and chunked_exact take the reference
  std::mt19937_64 rng(29);
  for (const std::uint32_t special : {0x7F80u, 0xFF80u, 0x7FC0u}) {  // +Inf, -Inf, NaN
    auto p = random_problem({T::bf16, T::bf16, T::f32}, 3, 5, 40, 0, rng, false);
    kernel_test::fill_bf16_within(p.a, -12, 12, rng);
    kernel_test::fill_bf16_within(p.b, -12, 12, rng);
    p.a[7] = special;
    int scale = 0;
    EXPECT_FALSE(hy::kernels::limb_scale_fits(T::bf16, kernel_test::reader_a(p), p.m, p.k, scale));
    ASSERT_TRUE(matches_reference(p, with(hy::models::exact())));
    ASSERT_TRUE(matches_reference(p, with(hy::models::chunked_exact(8))));
    p.a[7] = 0x3F80u;
    p.b[11] = special;
    ASSERT_TRUE(matches_reference(p, with(hy::models::exact())));
    ASSERT_TRUE(matches_reference(p, with(hy::models::chunked_exact(8))));
  }
  const double x = 0x1p-68 * (1 + 0x1p-7);  // quanta 2^-75
  const kernel_test::problem small =
      problem_of({T::bf16, T::bf16, T::f32}, 1, 1, 4, {-x, 0x1p-68 * (1 + 0x1p-6), 0.0, 0.0}, {x, 0x1p-68, -0.0, -0.0});
  for (const auto rounding : {hy::fp32_rounding::nearest_even, hy::fp32_rounding::toward_zero}) {
    const hy::matmul_options o = with(hy::models::chunked_exact(2, rounding));
    ASSERT_TRUE(matches_reference(small, o));
    EXPECT_EQ(kernel_test::run(small, o, nullptr)[0], 0x80000000u);  // -2^-150 rounds to -0, then -0 + -0
  }
  // 2^130 toward zero, then a chunk of 2^119 (1 + 2^-6) - 2^119 (1 + 2^-6 + 2^-14) = -2^105:
  // FLT_MAX - 2^105 = (2^24 - 3) 2^104.
  const double y = 0x1p60 * (1 + 0x1p-7), z = 0x1p59 * (1 + 0x1p-7);
  const kernel_test::problem huge = problem_of({T::bf16, T::bf16, T::f32}, 1, 1, 4,
                                               {0x1p60, 0.0, -y, 0x1p60 * (1 + 0x1p-6)}, {0x1p70, 0x1p59, z, 0x1p59});
  for (const bool presum : {false, true}) {
    const hy::matmul_options o = with(hy::models::chunked_exact(2, hy::fp32_rounding::toward_zero, presum));
    ASSERT_TRUE(matches_reference(huge, o));
    EXPECT_EQ(kernel_test::run(huge, o, nullptr)[0], 0x7f7ffffdu);
  }
}

// The float64 chain of E4M3 products is exact only up to K = 2^17
// (exact_e4m3_max_k): past it the exact model, and chunked_exact with
// longer chunks, take the reference. ChunkedExactRoundsOncePastTheExact-
// Float64Range's sum in one chunk of K = 168 * 1024 + 2: 2^35 + 40 * 2^22
// from 448 * 448, then 2^11 + 2^-18 just above the float32 tie; a float64
// chain loses the 2^-18 (half its ulp there) and rounds to the even side.
TEST_P(HybridKernels, ExactE4m3PastTheFloat64ChainsLimitTakesTheReference) {
  const std::size_t full = 168 * 1024, k = full + 2;
  const std::uint32_t largest = hybrid_test::encode(T::hf8, 448.0);
  std::vector<std::uint32_t> a(k, largest), b(k, largest);
  a[full] = hybrid_test::encode(T::hf8, 32.0);  // 32 * 64 = 2^11
  b[full] = hybrid_test::encode(T::hf8, 64.0);
  a[full + 1] = b[full + 1] = hybrid_test::encode(T::hf8, 0x1p-9);  // 2^-18
  const float expected = 0x1p35f + 40 * 0x1p22f + 0x1p12f;
  const hy::accumulation_model models[] = {hy::models::exact(), hy::models::exact(true),
                                           hy::models::chunked_exact(static_cast<int>(k))};
  for (const auto& model : models) {
    hy::matmul_options o = with(model);
    o.check_z_multiple = false;
    EXPECT_FALSE(hy::kernels::has_fast_kernel(T::hf8, T::hf8, T::f32, k, o));
    std::uint32_t c = 0;
    hy::matmul(hy::table_id::any, T::hf8, T::hf8, T::f32, a.data(), k, b.data(), 1, &c, 1, 1, 1, k, o);
    EXPECT_EQ(hybrid_test::as_float(c), expected);
  }
}

// placement::operands on reduced_precision's seq kernel: a finite B value
// whose scaled b' = RN32(b * sb) overflows is neither in the type's range
// nor seen by the kernel's guard (which reads the unscaled operands), so
// scaled_reduced_operands_fit must find it in its pass over B's scaled
// values. Column 0's scale 3e38 makes both of its 448s Inf; row 0's
// 1 and -1 then make Inf - Inf = NaN, which the floor cut and the cut to
// one bit must keep.
TEST_P(HybridKernels, ReducedPrecisionDeclinesAScaledBOperandThatOverflows) {
  const auto seq = hy::reduced_variant::seq;
  const hy::accumulation_model models[] = {
      hy::models::reduced_precision(14, 128, seq, 32, hy::truncation::floor),
      hy::models::reduced_precision(1, 7), hy::models::reduced_precision(24, 3, seq, 32, hy::truncation::floor)};
  if (!hy::kernels::takes_scaled_operands(models[0], GetParam())) return;  // the reference's alone
  const kernel_test::problem p =
      problem_of({T::hf8, T::hf8, T::f32}, 2, 3, 2, {1.0, -1.0, 2.0, 0.5}, {448.0, 1.0, 2.0, 448.0, -3.0, 0.25});
  std::vector<float> b_columns{3e38f, 1.0f, 0.5f};
  for (const auto& model : models) {
    hy::matmul_options o = with(model);
    o.scales.where = hy::placement::operands;
    o.scales.b_columns = b_columns.data();
    EXPECT_FALSE(hy::kernels::scaled_reduced_operands_fit(T::hf8, T::hf8, kernel_test::reader_a(p),
                                                          kernel_test::reader_b(p), p.m, p.n, p.k, o.scales));
    ASSERT_TRUE(matches_reference(p, o)) << "bits " << model.bits;
    EXPECT_TRUE(std::isnan(hybrid_test::as_float(kernel_test::run(p, o, nullptr)[0]))) << "bits " << model.bits;
  }
}

// A stochastic output rounds each element with its own random bits
// (hybrid/output.hpp); the fast kernels' encoders round to nearest even,
// so such a request takes the reference, for every fast model.
TEST_P(HybridKernels, StochasticOutputTakesTheReference) {
  std::mt19937_64 rng(30);
  const auto p = random_problem({T::hf8, T::hf8, T::bf8}, 5, 17, 33, 1, rng, false);
  for (const auto& model : kernel_test::fast_models()) {
    hy::matmul_options o = with(model.model);
    o.output.stochastic = true;
    o.output.seed = 7;
    EXPECT_FALSE(hy::kernels::has_fast_kernel(T::hf8, T::hf8, T::bf8, p.k, o)) << model.name;
    const std::vector<std::uint32_t> c = kernel_test::run(p, o, nullptr);
    hy::matmul_options reference = o;
    reference.reference_only = true;
    ASSERT_TRUE(kernel_test::same_codes(c, kernel_test::run(p, reference, nullptr), p, o, model.name.c_str()));
    hy::matmul_options nearest = o;
    nearest.output.stochastic = false;
    EXPECT_NE(c, kernel_test::run(p, nearest, nullptr)) << model.name << ": the rounding must show";
  }
}

// The fast path rejects what the reference rejects, with the same message.
TEST_P(HybridKernels, RejectsWhatTheReferenceRejects) {
  std::vector<std::uint32_t> a(4 * 8), b(8 * 4), c(16);
  hy::matmul_options o;
  EXPECT_THROW(hy::matmul(hy::table_id::vendor_hybrid_fp8, T::hf8, T::hf8, T::bf16, a.data(), 8,
                          b.data(), 4, c.data(), 4, 4, 4, 8, o),
               hy::unsupported);
  EXPECT_THROW(hy::matmul(hy::table_id::vendor_hybrid_fp8, T::hf8, T::hf8, T::hf8, a.data(), 8,
                          b.data(), 4, c.data(), 4, 4, 4, 8, o),
               hy::unsupported);  // K = 8 is not a multiple of 16
}

// For every fast model, random shapes (M, N, K up to 64, leading dimensions
// padded at random, 1-3 threads), cycling through every float type
// combination, bit for bit against the reference: 10^4 shapes per model at
// full level, 16 at ci level. Half the shapes draw a quarter of their
// elements from the edge sets; a quarter have per-row/column scales, a bias
// and a divided output scale (half of those on the operands, for the
// kernels that take them there: takes_scaled_operands). The shapes are drawn for the models of the best ISA, the same
// sequence on every ISA, and compared where the ISA has the model's kernel.
TEST_P(HybridKernels, RandomShapesPerModel) {
  const int shapes_per_model = mft::full_level() ? 10000 : 16;
  std::mt19937_64 rng(2026);
  for (const auto& model : kernel_test::fast_models(mf::target::best_isa())) {
    const auto triples = kernel_test::float_triples(model.model, mf::target::best_isa());
    const bool compared = kernel_test::has_kernel(model.model, GetParam());
    for (int s = 0; s < shapes_per_model; ++s) {
      const auto& types = triples[static_cast<std::size_t>(s) % triples.size()];
      const std::size_t m = rng() % 65, n = rng() % 65, k = rng() % 65;
      const auto p = random_problem(types, m, n, k, rng() % 3, rng, s % 2 == 1);
      hy::matmul_options o;
      o.model = model.model;
      o.threads = 1 + static_cast<unsigned>(rng() % 3);
      if (rng() % 4 == 0) o.output.on_overflow = mf::overflow::saturating;
      std::vector<float> a_rows(m), b_columns(n), bias(n);
      if (rng() % 4 == 0) {
        std::uniform_real_distribution<float> u(-8.0f, 8.0f);
        for (auto& x : a_rows) x = u(rng);
        for (auto& x : b_columns) x = u(rng);
        for (auto& x : bias) x = u(rng) * 64.0f;
        o.scales.a_rows = a_rows.data();
        o.scales.b_columns = b_columns.data();
        o.scales.bias = bias.data();
        o.scales.output = 0.3f;
        o.scales.output_rule = hy::output_scale_rule::divide;
        if (rng() % 2 == 0 && hy::kernels::takes_scaled_operands(model.model, GetParam())) {
          o.scales.where = hy::placement::operands;
        }
      }
      if (compared && kernel_test::accepts(model.model, types, GetParam())) {
        ASSERT_TRUE(matches_reference(p, o))
            << model.name << " shape " << s << " (level " << mft::level_name() << ")";
      }
    }
  }
}

std::string isa_test_name(const ::testing::TestParamInfo<mf::target::isa>& info) {
  return mf::target::isa_name(info.param);
}

INSTANTIATE_TEST_SUITE_P(EveryIsa, HybridKernels, ::testing::ValuesIn(mft::architecture_isas()),
                         isa_test_name);

}  // namespace
