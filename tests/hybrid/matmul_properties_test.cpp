// Properties of the hybrid models on random matrices, the tables, and the
// exact model against an independent integer sum.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <random>
#include <iterator>
#include <stdexcept>
#include <utility>
#include <vector>

#include <minifloat/hybrid.hpp>

#include "hybrid_test_support.hpp"

namespace {

namespace hy = mf::hybrid;
using hy::element_type;
using hybrid_test::as_float;
using T = element_type;

std::vector<std::uint32_t> run(hy::table_id table, T ta, T tb, T tc,
                               const std::vector<std::uint32_t>& a,
                               const std::vector<std::uint32_t>& b, std::size_t m, std::size_t n,
                               std::size_t k, hy::matmul_options o) {
  std::vector<std::uint32_t> c(m * n);
  o.check_z_multiple = false;
  hy::matmul(table, ta, tb, tc, a.data(), k, b.data(), n, c.data(), n, m, n, k, o);
  return c;
}

hy::matmul_options with(hy::accumulation_model m) {
  hy::matmul_options o;
  o.model = m;
  return o;
}

std::vector<hy::accumulation_model> all_models() {
  return {hy::models::sequential_fp32(),
          hy::models::exact(),
          hy::models::exact(true),
          hy::models::avx512_bf16_pairs(),
          hy::models::amx_tile_pairs(),
          hy::models::amx_tile_pairs(32, hy::amx_order::guide),
          hy::models::chunked_exact(64),
          hy::models::chunked_exact(16, hy::fp32_rounding::toward_zero),
          hy::models::chunked_exact(8, hy::fp32_rounding::nearest_even, true),
          hy::models::reduced_precision(14, 128),
          hy::models::reduced_precision(14, 128, hy::reduced_variant::block),
          hy::models::reduced_precision(14, 32, hy::reduced_variant::block, 32, hy::truncation::floor)};
}

// Small integers: every partial sum is exact in FP32 and within 14 bits, and
// no sum is tiny, so every model gives the exact answer.
TEST(HybridProperties, EveryModelIsExactWhenPartialSumsAreRepresentable) {
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<int> small(-4, 4);
  const std::size_t m = 5, n = 7, k = 64;
  std::vector<std::uint32_t> a(m * k), b(k * n);
  for (auto& v : a) v = mf::e4m3fn(static_cast<float>(small(rng))).bits();
  for (auto& v : b) v = mf::e4m3fn(static_cast<float>(small(rng))).bits();
  const auto exact = run(hy::table_id::any, T::hf8, T::hf8, T::f32, a, b, m, n, k, with(hy::models::exact()));
  for (const auto& model : all_models()) {
    EXPECT_EQ(run(hy::table_id::any, T::hf8, T::hf8, T::f32, a, b, m, n, k, with(model)), exact)
        << "model kind " << static_cast<int>(model.kind);
  }
}

// chunked_exact with chunk 1 is sequential_fp32: each product is added with
// one rounding. Wide-range codes make the order visible.
TEST(HybridProperties, ChunkOfOneIsSequential) {
  std::mt19937_64 rng(2);
  for (T t : {T::hf8, T::bf8, T::bf16, T::f16}) {
    const std::size_t m = 6, n = 6, k = 37;
    const auto a = hybrid_test::random_matrix(t, m * k, rng);
    const auto b = hybrid_test::random_matrix(t, k * n, rng);
    EXPECT_EQ(run(hy::table_id::any, t, t, T::f32, a, b, m, n, k, with(hy::models::chunked_exact(1))),
              run(hy::table_id::any, t, t, T::f32, a, b, m, n, k, with(hy::models::sequential_fp32())));
  }
}

// Reversing k changes sequential_fp32 exactly as an fma chain in the
// reversed order predicts (computed here with std::fma), and on this data it
// does change some results.
TEST(HybridProperties, PermutationChangesSequentialAsPredicted) {
  std::mt19937_64 rng(3);
  const std::size_t m = 8, n = 8, k = 48;
  const auto a = hybrid_test::random_matrix(T::hf8, m * k, rng);
  const auto b = hybrid_test::random_matrix(T::hf8, k * n, rng);
  std::vector<std::uint32_t> ar(m * k), br(k * n);
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t p = 0; p < k; ++p) ar[i * k + p] = a[i * k + (k - 1 - p)];
  for (std::size_t p = 0; p < k; ++p)
    for (std::size_t j = 0; j < n; ++j) br[p * n + j] = b[(k - 1 - p) * n + j];
  const auto forward = run(hy::table_id::any, T::hf8, T::hf8, T::f32, a, b, m, n, k, {});
  const auto reversed = run(hy::table_id::any, T::hf8, T::hf8, T::f32, ar, br, m, n, k, {});
  int changed = 0;
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      float acc = 0.0f;
      for (std::size_t p = k; p-- > 0;) {
        acc = std::fma(float(mf::e4m3fn::from_bits(static_cast<std::uint8_t>(a[i * k + p]))),
                       float(mf::e4m3fn::from_bits(static_cast<std::uint8_t>(b[p * n + j]))), acc);
      }
      EXPECT_EQ(as_float(reversed[i * n + j]), acc);
      changed += forward[i * n + j] != reversed[i * n + j];
    }
  }
  EXPECT_GT(changed, 0);
}

// Power-of-two scales commute: scaling in the epilogue or on the operands
// gives the same bits when nothing under- or overflows (values near 1).
TEST(HybridProperties, PowerOfTwoScalesCommute) {
  std::mt19937_64 rng(4);
  std::uniform_real_distribution<double> u(-2, 2);
  const std::size_t m = 4, n = 5, k = 32;
  std::vector<std::uint32_t> a(m * k), b(k * n);
  for (auto& v : a) v = mf::e4m3fn(u(rng)).bits();
  for (auto& v : b) v = mf::e5m2(u(rng)).bits();
  for (const auto& model : {hy::models::sequential_fp32(), hy::models::exact(),
                            hy::models::chunked_exact(8), hy::models::reduced_precision(14, 16)}) {
    hy::matmul_options e = with(model);
    e.scales.a = 0.25f;
    e.scales.b = 8.0f;
    hy::matmul_options p = e;
    p.scales.where = hy::placement::operands;
    EXPECT_EQ(run(hy::table_id::any, T::hf8, T::bf8, T::f32, a, b, m, n, k, e),
              run(hy::table_id::any, T::hf8, T::bf8, T::f32, a, b, m, n, k, p));
  }
}

// The exact model against an independent sum: E4M3 values are integers
// times 2^-9, so a sum of products is an int64 times 2^-18 (|sum| < 2^40
// here), exact in a double, rounded once to float.
TEST(HybridProperties, ExactAgainstIntegerSum) {
  std::mt19937_64 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    const std::size_t k = 1 + rng() % 300;
    const auto a = hybrid_test::random_matrix(T::hf8, k, rng);
    const auto b = hybrid_test::random_matrix(T::hf8, k, rng);
    long long sum = 0;
    for (std::size_t p = 0; p < k; ++p) {
      const auto ia = std::llround(std::ldexp(hy::decode_bits(T::hf8, a[p]), 9));
      const auto ib = std::llround(std::ldexp(hy::decode_bits(T::hf8, b[p]), 9));
      sum += ia * ib;
    }
    const float expected = static_cast<float>(std::ldexp(static_cast<double>(sum), -18));
    EXPECT_EQ(as_float(run(hy::table_id::any, T::hf8, T::hf8, T::f32, a, b, 1, 1, k,
                           with(hy::models::exact()))[0]),
              expected);
  }
}

// The largest |C| of a float32 output, and whether C holds a NaN.
struct output_magnitude {
  float largest = 0.0f;
  bool nan = false;
};
output_magnitude magnitude_of(const std::vector<std::uint32_t>& c) {
  output_magnitude m;
  for (std::uint32_t bits : c) {
    const float v = as_float(bits);
    m.nan = m.nan || std::isnan(v);
    m.largest = std::fabs(v) > m.largest ? std::fabs(v) : m.largest;
  }
  return m;
}

// exact(true) computes C from the exact y2 = S * s + bias: with an FP32
// output and no output scale, C is that y2 rounded once to float32, so
// amax = max |y2| must be max |C|, element for element the same roundings
// (the float32 path's y2, rounded twice, differs from it on wide-range
// data). Random wide-range FP16 and BF16 codes, with and without bias.
TEST(HybridProperties, ExactToOutputAmaxIsThatOfTheExactY2) {
  std::mt19937_64 rng(20261129);
  const std::size_t m = 3, n = 4, k = 37;
  int cases_where_rounding_twice_differs = 0;
  for (int trial = 0; trial < 200; ++trial) {
    for (T t : {T::f16, T::bf16}) {
      const auto a = hybrid_test::random_matrix(t, m * k, rng);
      const auto b = hybrid_test::random_matrix(t, k * n, rng);
      hy::matmul_options o = with(hy::models::exact(true));
      std::vector<float> bias(n);
      for (auto& v : bias) v = std::ldexp(static_cast<float>(rng() % 2001) - 1000.0f, -3);
      if (trial % 2 == 1) o.scales.bias = bias.data();
      float amax = -1.0f;
      o.amax = &amax;
      const output_magnitude c =
          magnitude_of(run(hy::table_id::any, t, t, T::f32, a, b, m, n, k, o));
      if (c.nan) {
        EXPECT_TRUE(std::isnan(amax));
        continue;
      }
      ASSERT_EQ(amax, c.largest) << "trial " << trial;
      float rounded_amax = -1.0f;
      o.model = hy::models::exact();
      o.amax = &rounded_amax;
      run(hy::table_id::any, t, t, T::f32, a, b, m, n, k, o);
      if (rounded_amax != amax) ++cases_where_rounding_twice_differs;
    }
  }
  // The data must tell the two roundings apart, or the check above proves nothing.
  EXPECT_GT(cases_where_rounding_twice_differs, 0);
}

// Every model's amax is max |y2|; with an FP32 output and no output scale
// C is y2 itself, so amax must be max |C|, negative outputs included.
// Wide-range random codes, with a bias of both signs, shapes large enough
// for the fast kernels.
TEST(HybridProperties, AmaxIsTheLargestMagnitudeOfTheOutput) {
  std::mt19937_64 rng(20261201);
  const std::size_t m = 8, n = 48, k = 64;
  const hy::accumulation_model models[] = {
      hy::models::sequential_fp32(), hy::models::exact(), hy::models::chunked_exact(32),
      hy::models::amx_tile_pairs(), hy::models::avx512_bf16_pairs(),
      hy::models::reduced_precision(14, 32)};
  for (const hy::accumulation_model& model : models) {
    for (T t : {T::hf8, T::bf16}) {
      const auto a = hybrid_test::random_matrix(t, m * k, rng);
      const auto b = hybrid_test::random_matrix(t, k * n, rng);
      std::vector<float> bias(n);
      for (auto& v : bias) v = std::ldexp(static_cast<float>(rng() % 2001) - 1000.0f, -3);
      hy::matmul_options o = with(model);
      o.scales.bias = bias.data();
      float amax = -1.0f;
      o.amax = &amax;
      const output_magnitude c =
          magnitude_of(run(hy::table_id::any, t, t, T::f32, a, b, m, n, k, o));
      if (c.nan) {
        EXPECT_TRUE(std::isnan(amax));
      } else {
        EXPECT_EQ(amax, c.largest) << hy::name(t);
      }
    }
  }
}

// The accumulator is sized per type pair: E4M3 x E4M3 sums of up to 2^27 - 1
// products fit one 64-bit limb (36 + 27 bits), E5M2 x E5M2 needs two from
// the first product (64 bits), BF16 x BF16 nine.
TEST(HybridProperties, AccumulatorWidthPerTypePair) {
  using hy::sum_layout_for;
  EXPECT_EQ(sum_layout_for(T::hf8, T::hf8, (std::size_t{1} << 27) - 1).limbs, 1);
  EXPECT_EQ(sum_layout_for(T::hf8, T::hf8, (std::size_t{1} << 27) - 1).lsb_exponent, -18);
  EXPECT_EQ(sum_layout_for(T::hf8, T::hf8, std::size_t{1} << 28).limbs, 2);
  EXPECT_EQ(sum_layout_for(T::bf8, T::bf8, 1).limbs, 2);
  EXPECT_EQ(sum_layout_for(T::bf16, T::bf16, 4096).limbs, 9);
  EXPECT_EQ(sum_layout_for(T::f32, T::f32, std::size_t{1} << 32).limbs, 10);
  // The largest E4M3 sums in one limb, exactly: 448 * 448 * K plus one
  // smallest product, K = 2^26 (bits above and below cancel nowhere).
  const std::size_t k = std::size_t{1} << 14;
  const std::vector<float> a(k, 448.0f), b(k, -448.0f);
  hy::operand_kinds kinds;
  kinds.layout = sum_layout_for(T::hf8, T::hf8, k);
  EXPECT_EQ(kinds.layout.limbs, 1);
  EXPECT_EQ(hy::accumulate(hy::models::exact(), a.data(), b.data(), k, kinds), -448.0f * 448.0f * k);
}

// The models under specials: NaN in, NaN out; Inf - Inf is NaN; Inf stays.
TEST(HybridProperties, Specials) {
  const std::vector<std::uint32_t> inf_a{mf::bfloat16(INFINITY).bits(), mf::bfloat16(1.0f).bits()};
  const std::vector<std::uint32_t> ones{mf::bfloat16(1.0f).bits(), mf::bfloat16(1.0f).bits()};
  const std::vector<std::uint32_t> cancel{mf::bfloat16(INFINITY).bits(), mf::bfloat16(-INFINITY).bits()};
  const std::vector<std::uint32_t> nan_a{mf::bfloat16(NAN).bits(), mf::bfloat16(1.0f).bits()};
  for (const auto& model : all_models()) {
    const auto r = [&](const std::vector<std::uint32_t>& a) {
      return as_float(run(hy::table_id::any, T::bf16, T::bf16, T::f32, a, ones, 1, 1, 2, with(model))[0]);
    };
    EXPECT_EQ(r(inf_a), INFINITY) << static_cast<int>(model.kind);
    EXPECT_TRUE(std::isnan(r(cancel))) << static_cast<int>(model.kind);
    EXPECT_TRUE(std::isnan(r(nan_a))) << static_cast<int>(model.kind);
    // One NaN from every model (the accumulator's; an FP32 output keeps it).
    EXPECT_EQ(run(hy::table_id::any, T::bf16, T::bf16, T::f32, nan_a, ones, 1, 1, 2, with(model))[0],
              0x7FC00000u) << static_cast<int>(model.kind);
  }
}

// Every row of every table runs; every other combination is rejected with
// a message that names the pair and the table.
TEST(HybridTables, AcceptedRowsRunAndOthersAreRejected) {
  std::mt19937_64 rng(6);
  int accepted = 0, rejected = 0;
  for (auto table : {hy::table_id::vendor_hybrid_fp8, hy::table_id::cublaslt_fp8, hy::table_id::any}) {
    for (T ta : hy::all_element_types) {
      for (T tb : hy::all_element_types) {
        for (T tc : hy::all_element_types) {
          const bool ok = hy::matmul_supported(table, ta, tb, tc);
          const std::size_t k = 16;
          std::vector<std::uint32_t> a(k), b(k), c(1);
          for (auto& v : a) v = ta == T::f32 ? 0u : hybrid_test::random_finite_code(ta, rng);
          for (auto& v : b) v = tb == T::f32 ? 0u : hybrid_test::random_finite_code(tb, rng);
          hy::matmul_options o;
          if (ok) {
            EXPECT_NO_THROW(hy::matmul(table, ta, tb, tc, a.data(), k, b.data(), 1, c.data(), 1, 1, 1, k, o));
            ++accepted;
          } else {
            try {
              hy::matmul(table, ta, tb, tc, a.data(), k, b.data(), 1, c.data(), 1, 1, 1, k, o);
              ADD_FAILURE() << "accepted " << hy::name(ta) << " x " << hy::name(tb) << " -> " << hy::name(tc);
            } catch (const hy::unsupported& e) {
              if (ta != T::f32 && tb != T::f32) {
                EXPECT_NE(std::string(e.what()).find(std::string(hy::name(table))), std::string::npos);
              }
            }
            ++rejected;
          }
        }
      }
    }
  }
  // vendor: 19 rows; cuBLASLt: 14; any: I8xI8->I8, U8xU8->U8, and the 32
  // other pairs of the six input types (not I8xU8, U8xI8) times 5 float outputs.
  EXPECT_EQ(accepted, 19 + 14 + 2 + 32 * 5);
  EXPECT_GT(rejected, 0);
}

TEST(HybridTables, ZMultipleAndModelChecks) {
  const std::vector<std::uint32_t> a(8, 0x38), b(8, 0x38);
  std::uint32_t c = 0;
  hy::matmul_options o;
  EXPECT_THROW(hy::matmul(hy::table_id::vendor_hybrid_fp8, T::hf8, T::hf8, T::hf8, a.data(), 8,
                          b.data(), 1, &c, 1, 1, 1, 8, o), hy::unsupported);
  o.check_z_multiple = false;
  EXPECT_NO_THROW(hy::matmul(hy::table_id::vendor_hybrid_fp8, T::hf8, T::hf8, T::hf8, a.data(), 8,
                             b.data(), 1, &c, 1, 1, 1, 8, o));
  EXPECT_EQ(c, mf::e4m3fn(8.0f).bits());  // 8 x (1 x 1)
  o.model = hy::models::avx512_bf16_pairs();
  EXPECT_THROW(hy::matmul(hy::table_id::any, T::f16, T::hf8, T::f16, a.data(), 8, b.data(), 1, &c, 1,
                          1, 1, 8, o), hy::unsupported);
  o.model = hy::models::amx_tile_pairs();
  EXPECT_THROW(hy::matmul(hy::table_id::any, T::bf16, T::f16, T::f32, a.data(), 8, b.data(), 1, &c, 1,
                          1, 1, 8, o), hy::unsupported);
  o.scales.where = hy::placement::operands;
  EXPECT_THROW(hy::matmul(hy::table_id::any, T::hf8, T::hf8, T::f32, a.data(), 8, b.data(), 1, &c, 1,
                          1, 1, 8, o), hy::unsupported);
}

// The matrices are checked as BLAS checks them, on both entries: rows that
// would overlap (ld below the row length), a null matrix with elements, and
// a reach past size_t are std::invalid_argument; a one-row matrix may have
// any ld, and an empty one may be null.
TEST(HybridTables, MatrixArgumentsAreChecked) {
  const std::vector<std::uint32_t> a(4, 0x38), b(4, 0x38);
  std::vector<std::uint32_t> c(4, 0);
  hy::matmul_options o;
  o.check_z_multiple = false;
  const auto call = [&](const std::uint32_t* pa, std::size_t lda, const std::uint32_t* pb,
                        std::size_t ldb, std::uint32_t* pc, std::size_t ldc, std::size_t m,
                        std::size_t n, std::size_t k) {
    hy::matmul(hy::table_id::any, T::hf8, T::hf8, T::f16, pa, lda, pb, ldb, pc, ldc, m, n, k, o);
  };
  EXPECT_NO_THROW(call(a.data(), 2, b.data(), 2, c.data(), 2, 2, 2, 2));
  EXPECT_EQ(c, std::vector<std::uint32_t>(4, 0x4000));  // FP16 2 = 1 x 1 + 1 x 1
  c.assign(4, 0);
  EXPECT_THROW(call(a.data(), 1, b.data(), 2, c.data(), 2, 2, 2, 2), std::invalid_argument);
  EXPECT_THROW(call(a.data(), 0, b.data(), 2, c.data(), 2, 2, 2, 2), std::invalid_argument);
  EXPECT_THROW(call(a.data(), 2, b.data(), 1, c.data(), 2, 2, 2, 2), std::invalid_argument);
  EXPECT_THROW(call(a.data(), 2, b.data(), 2, c.data(), 1, 2, 2, 2), std::invalid_argument);
  EXPECT_THROW(call(nullptr, 2, b.data(), 2, c.data(), 2, 2, 2, 2), std::invalid_argument);
  EXPECT_THROW(call(a.data(), 2, nullptr, 2, c.data(), 2, 2, 2, 2), std::invalid_argument);
  EXPECT_THROW(call(a.data(), 2, b.data(), 2, nullptr, 2, 2, 2, 2), std::invalid_argument);
  const std::size_t huge = (SIZE_MAX >> 2) + 2;  // (huge - 1) * 4 + 4 wraps
  EXPECT_THROW(call(a.data(), 4, b.data(), 2, c.data(), 2, huge, 2, 4), std::invalid_argument);
  EXPECT_EQ(c, std::vector<std::uint32_t>(4, 0));  // nothing written by a rejected call
  EXPECT_NO_THROW(call(a.data(), 0, b.data(), 2, c.data(), 0, 1, 2, 2));  // one row: ld unused
  EXPECT_NO_THROW(call(nullptr, 0, nullptr, 0, c.data(), 2, 2, 2, 0));    // K = 0: no A or B
  EXPECT_EQ(c[3], 0u);
  std::vector<mf::e4m3fn> va(4, mf::e4m3fn(1.0f)), vb(4, mf::e4m3fn(1.0f));
  std::vector<mf::binary16> vc(4);
  EXPECT_THROW(hy::matmul<hy::any>(va.data(), 1, vb.data(), 2, vc.data(), 2, 2, 2, 2, o),
               std::invalid_argument);
  EXPECT_THROW(hy::matmul<hy::any>(va.data(), 2, vb.data(), 2, static_cast<mf::binary16*>(nullptr),
                                   2, 2, 2, 2, o),
               std::invalid_argument);
}

// A float MatMul rejects the integer MatMul's options (it would ignore
// them), and exact_to_output belongs to the exact model alone; on the fast
// path and the reference alike.
TEST(HybridTables, FloatMatMulRejectsWhatItWouldIgnore) {
  const std::vector<std::uint32_t> a(4, 0x38), b(4, 0x38);
  std::int32_t integer_acc[4] = {};
  const std::vector<std::function<void(hy::matmul_options&)>> mistakes = {
      [](hy::matmul_options& o) { o.integer_scale = 0.5f; },
      [](hy::matmul_options& o) { o.requant = hy::requantization::fp32; },
      [&](hy::matmul_options& o) { o.integer_accumulator = integer_acc; },
      [](hy::matmul_options& o) {
        o.model = hy::models::chunked_exact(64);
        o.model.exact_to_output = true;
      }};
  for (const bool reference : {false, true}) {
    for (std::size_t i = 0; i < mistakes.size(); ++i) {
      hy::matmul_options o;
      o.check_z_multiple = false;
      o.reference_only = reference;
      mistakes[i](o);
      std::vector<std::uint32_t> c(4, 7);
      EXPECT_THROW(hy::matmul(hy::table_id::any, T::hf8, T::hf8, T::f16, a.data(), 2, b.data(), 2,
                              c.data(), 2, 2, 2, 2, o),
                   hy::unsupported)
          << "mistake " << i << (reference ? " (reference)" : "");
      EXPECT_EQ(c, std::vector<std::uint32_t>(4, 7));
    }
  }
}

// Every row of every table through the typed entry (so each accepted
// combination compiles) under every model that takes it: A = [1, 2, 0...],
// B = [3, 2, 0...] is 1 * 3 + 2 * 2 = 7, exact in every output type.
template <class Table, T RowA, T RowB, T RowOut>
void seven_by_every_model() {
  using A = hy::element_t<RowA>;
  using B = hy::element_t<RowB>;
  using C = hy::element_t<RowOut>;
  std::vector<A> a(16, A(0));
  std::vector<B> b(16, B(0));
  a[0] = A(1);
  a[1] = A(2);
  b[0] = B(3);
  b[1] = B(2);
  std::vector<hy::accumulation_model> models{hy::models::sequential_fp32()};
  if (!hy::is_integer(RowA)) models = all_models();
  for (const auto& m : models) {
    const bool fp16 = RowA == T::f16 || RowB == T::f16;
    const bool bf16 = RowA == T::bf16 || RowB == T::bf16;
    if (m.kind == hy::model_kind::avx512_bf16_pairs && fp16) continue;
    if (m.kind == hy::model_kind::amx_tile_pairs && fp16 && bf16) continue;
    C c[1] = {C(0)};
    hy::matmul_options o;
    o.model = m;
    hy::matmul<Table>(a.data(), 16, b.data(), 1, c, 1, 1, 1, 16, o);
    EXPECT_EQ(static_cast<float>(c[0]), 7.0f)
        << hy::name(Table::id) << " " << hy::name(RowA) << " x " << hy::name(RowB) << " -> "
        << hy::name(RowOut) << ", model " << static_cast<int>(m.kind);
  }
}

template <class Table, const auto& Rows, std::size_t... I>
void every_row(std::index_sequence<I...>) {
  (seven_by_every_model<Table, Rows[I].a, Rows[I].b, Rows[I].out>(), ...);
}

TEST(HybridTables, EveryRowCompilesAndComputesUnderEveryModel) {
  every_row<hy::vendor_hybrid_fp8, hy::detail::vendor_matmul_rows>(
      std::make_index_sequence<std::size(hy::detail::vendor_matmul_rows)>());
  every_row<hy::cublaslt_fp8, hy::detail::cublaslt_matmul_rows>(
      std::make_index_sequence<std::size(hy::detail::cublaslt_matmul_rows)>());
}

// The typed entry compiles for the accepted pairs (the rejected ones are the
// compile-fail test in CMakeLists.txt).
TEST(HybridTables, TypedEntry) {
  std::vector<mf::e4m3fn> a(16, mf::e4m3fn(1.0f));
  std::vector<mf::e5m2> b(16, mf::e5m2(2.0f));
  mf::e4m3fn c;
  hy::matmul(a.data(), 16, b.data(), 1, &c, 1, 1, 1, 16);  // vendor: HF8 x BF8 -> HF8
  EXPECT_EQ(static_cast<float>(c), 32.0f);
  float f = 0;
  hy::matmul<hy::any>(a.data(), 16, b.data(), 1, &f, 1, 1, 1, 16);
  EXPECT_EQ(f, 32.0f);
}

}  // namespace
