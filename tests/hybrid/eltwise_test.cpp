// The element-wise unit: the scale rules of the vendor's "Hybrid FP8 ONNX"
// notes, each rounding worked by hand, the exact option and the operands
// placement, broadcasting.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include <minifloat/hybrid.hpp>

#include "hybrid_test_support.hpp"

namespace {

namespace hy = mf::hybrid;
using T = hy::element_type;
using hybrid_test::encode;

std::uint32_t one(T ta, T tb, T tc, double a, double b, hy::eltwise_options o) {
  const std::uint32_t ea = encode(ta, a), eb = encode(tb, b);
  std::uint32_t c = 0;
  o.check_z_multiple = false;
  hy::eltwise(hy::table_id::vendor_hybrid_fp8, ta, tb, tc, &ea, &eb, 1, &c, 1, 1, o);
  return c;
}

hy::eltwise_options scaled(hy::eltwise_op op, T scale_type, float sa, float sb) {
  hy::eltwise_options o;
  o.op = op;
  o.scale_type = scale_type;
  o.a_scale = {true, sa};
  o.b_scale = {true, sb};
  return o;
}

// add: out(RN32(a*sa + b*sb)), the products exact, the sum rounded once.
TEST(HybridEltwise, AddRoundsTheSumOnce) {
  auto o = scaled(hy::eltwise_op::add, T::bf16, 0x1p100f, 0x1p100f);
  EXPECT_EQ(one(T::hf8, T::hf8, T::bf16, 448, -448, o), 0u);
  // 448 * 2^120 twice is about 2^129.8: past FP32, Inf.
  o = scaled(hy::eltwise_op::add, T::bf16, 0x1p120f, 0x1p120f);
  EXPECT_EQ(one(T::hf8, T::hf8, T::bf16, 448, 448, o), mf::bfloat16(INFINITY).bits());
  // sub with FP16 scales: 3 * 0.5 - 1 * 0.25 = 1.25.
  o = scaled(hy::eltwise_op::sub, T::f16, 0.5f, 0.25f);
  EXPECT_EQ(one(T::hf8, T::bf8, T::f16, 3, 1, o), mf::binary16(1.25f).bits());
}

// The double rounding of add, and the exact option: a*sa = 1 * (1 + 2^-8),
// b*sb = 2^-9 * 2^-21 = 2^-30 (FP16 scales), BF16 output. RN32 of the sum
// drops 2^-30 (below half of float's ulp 2^-23), leaving 1 + 2^-8, a tie in
// BF16 (ulp 2^-7) -> 1. Rounded once, the sum is above the tie -> 1 + 2^-7.
TEST(HybridEltwise, ExactAvoidsTheDoubleRounding) {
  auto o = scaled(hy::eltwise_op::add, T::f16, 1.0f + 0x1p-8f, 0x1p-21f);
  EXPECT_EQ(one(T::hf8, T::hf8, T::bf16, 1, 0x1p-9, o), mf::bfloat16(1.0f).bits());
  o.exact = true;
  EXPECT_EQ(one(T::hf8, T::hf8, T::bf16, 1, 0x1p-9, o), mf::bfloat16(1.0f + 0x1p-7f).bits());
}

// mul: out(RN32(RN32(a*b) * RN32(sa*sb))): the scales are combined.
TEST(HybridEltwise, MulCombinesScalesAfterTheProduct) {
  auto o = scaled(hy::eltwise_op::mul, T::bf16, 3.0f, 0.5f);
  EXPECT_EQ(one(T::hf8, T::bf8, T::bf16, 1.5, 4, o), mf::bfloat16(9.0f).bits());
  // sa*sb = (1 + 2^-7)^2 = 1 + 2^-6 + 2^-14 in FP32 exactly; times a*b = 1.
  // BF16 output (8 bits): 1 + 2^-6 + 2^-14 rounds to 1 + 2^-6.
  o = scaled(hy::eltwise_op::mul, T::bf16, 1.0f + 0x1p-7f, 1.0f + 0x1p-7f);
  EXPECT_EQ(one(T::hf8, T::hf8, T::bf16, 1, 1, o), mf::bfloat16(1.0f + 0x1p-6f).bits());
}

// The notes' rules ("Rules for Eltwise Add/Sub"), each an error when broken.
TEST(HybridEltwise, ScaleRules) {
  // FP8 op 16-bit: the FP8 scale must be in the 16-bit tensor's format.
  auto o = scaled(hy::eltwise_op::add, T::bf16, 2.0f, 1.0f);
  o.b_scale = {};
  EXPECT_EQ(one(T::hf8, T::bf16, T::bf16, 1.5, 0.25, o), mf::bfloat16(3.25f).bits());
  o.scale_type = T::f16;
  EXPECT_THROW(one(T::hf8, T::bf16, T::bf16, 1.5, 0.25, o), hy::unsupported);
  // ... and the 16-bit tensor takes no scale.
  o = scaled(hy::eltwise_op::add, T::bf16, 2.0f, 1.0f);
  EXPECT_THROW(one(T::hf8, T::bf16, T::bf16, 1.5, 0.25, o), hy::unsupported);
  // A scale that is not a value of the scale format.
  o = scaled(hy::eltwise_op::add, T::f16, 0.1f, 1.0f);
  EXPECT_THROW(one(T::hf8, T::hf8, T::f16, 1, 1, o), hy::unsupported);
  // FP8 scales must be FP16 or BF16.
  o = scaled(hy::eltwise_op::add, T::f32, 1.0f, 1.0f);
  EXPECT_THROW(one(T::hf8, T::hf8, T::f16, 1, 1, o), hy::unsupported);
  // A pair outside the table: HF8 x HF8 -> HF8 is a MatMul row, not an element-wise one.
  EXPECT_THROW(one(T::hf8, T::hf8, T::hf8, 1, 1, {}), hy::unsupported);
  // The innermost dimension: a multiple of 16 on the vendor unit.
  const std::uint32_t a[8] = {}, b[8] = {};
  std::uint32_t c[8];
  EXPECT_THROW(hy::eltwise(hy::table_id::vendor_hybrid_fp8, T::hf8, T::hf8, T::f16, a, b, 8, c, 1,
                           8, {}), hy::unsupported);
}

// Integer element-wise: exact, saturated.
TEST(HybridEltwise, Integers) {
  hy::eltwise_options o;
  EXPECT_EQ(one(T::i8, T::i8, T::i8, 100, 100, o), 127u);
  o.op = hy::eltwise_op::sub;
  EXPECT_EQ(one(T::i8, T::i8, T::i8, -100, 100, o), 0x80u);
  o.op = hy::eltwise_op::mul;
  EXPECT_EQ(one(T::u8, T::u8, T::u8, 20, 20, o), 255u);
  EXPECT_EQ(one(T::u8, T::u8, T::u8, 3, 5, o), 15u);
}

// The any table's integer beside a float (a float output): the integer's
// value in the float rule, whichever side it is on.
TEST(HybridEltwise, AnIntegerBesideAFloatTakesTheFloatRule) {
  const struct {
    T ta, tb;
    double a, b;
    hy::eltwise_op op;
    double want;
  } cases[] = {{T::i8, T::hf8, 3, 1, hy::eltwise_op::add, 4},
               {T::i8, T::hf8, -3, 0.75, hy::eltwise_op::add, -2.25},
               {T::i8, T::hf8, 100, 448, hy::eltwise_op::add, 548},
               {T::i8, T::hf8, -128, 1, hy::eltwise_op::add, -127},
               {T::u8, T::bf8, 200, 0.5, hy::eltwise_op::mul, 100},
               {T::i8, T::f16, -7, 0.25, hy::eltwise_op::sub, -7.25}};
  for (const auto& t : cases) {
    hy::eltwise_options o;
    o.op = t.op;
    o.check_z_multiple = false;
    const std::uint32_t ea = encode(t.ta, t.a), eb = encode(t.tb, t.b);
    std::uint32_t c = 0, mirrored = 0;
    hy::eltwise(hy::table_id::any, t.ta, t.tb, T::f16, &ea, &eb, 1, &c, 1, 1, o);
    EXPECT_EQ(c, encode(T::f16, t.want)) << t.a << " " << t.b;
    if (t.op != hy::eltwise_op::sub) {
      hy::eltwise(hy::table_id::any, t.tb, t.ta, T::f16, &eb, &ea, 1, &mirrored, 1, 1, o);
      EXPECT_EQ(mirrored, c) << t.a << " " << t.b;
    }
  }
}

// A scale value without `given` would be ignored, and null arrays with
// elements would be read: both rejected, nothing written.
TEST(HybridEltwise, RejectsAScaleValueNotGivenAndNullArrays) {
  const std::uint32_t a[2] = {0x38, 0x38}, b[2] = {0x38, 0x38};
  std::uint32_t c[2] = {7, 7};
  hy::eltwise_options o;
  o.check_z_multiple = false;
  o.a_scale.value = 0.5f;
  EXPECT_THROW(hy::eltwise(hy::table_id::any, T::hf8, T::hf8, T::f16, a, b, 2, c, 1, 2, o),
               hy::unsupported);
  o.a_scale = {};
  o.b_scale.value = 4.0f;
  EXPECT_THROW(hy::eltwise(hy::table_id::any, T::f16, T::hf8, T::f16, a, b, 2, c, 1, 2, o),
               hy::unsupported);
  o.b_scale = {};
  EXPECT_THROW(hy::eltwise(hy::table_id::any, T::hf8, T::hf8, T::f16, nullptr, b, 2, c, 1, 2, o),
               std::invalid_argument);
  EXPECT_THROW(hy::eltwise(hy::table_id::any, T::hf8, T::hf8, T::f16, a, nullptr, 1, c, 1, 2, o),
               std::invalid_argument);
  EXPECT_THROW(hy::eltwise(hy::table_id::any, T::hf8, T::hf8, T::f16, a, b, 2, nullptr, 1, 2, o),
               std::invalid_argument);
  EXPECT_EQ(c[0], 7u);
  EXPECT_NO_THROW(hy::eltwise(hy::table_id::any, T::hf8, T::hf8, T::f16, nullptr, b, 2, nullptr, 0,
                              2, o));  // no rows: nothing to read or write
}

// operands placement: dequantize the FP8 tensor to the 16-bit format first.
// mul, HF8 3 with BF16 scale 1 + 2^-7, times BF16 1.5:
//   epilogue: RN32(RN32(3 * 1.5) * (1 + 2^-7)) = 4.53515625 -> BF16 4.53125;
//   operands: a' = RN16(3 + 3 * 2^-7) = 3.03125 (a tie, to even), then
//             3.03125 * 1.5 = 4.546875, a tie in BF16 -> 4.5625.
TEST(HybridEltwise, OperandsPlacementRoundsTheOperands) {
  auto o = scaled(hy::eltwise_op::mul, T::bf16, 1.0f + 0x1p-7f, 1.0f);
  o.b_scale = {};
  EXPECT_EQ(one(T::hf8, T::bf16, T::bf16, 3, 1.5, o), mf::bfloat16(4.53125f).bits());
  o.where = hy::placement::operands;
  EXPECT_EQ(one(T::hf8, T::bf16, T::bf16, 3, 1.5, o), mf::bfloat16(4.5625f).bits());
}

// Broadcast: B as a scalar or one value per column.
TEST(HybridEltwise, Broadcast) {
  std::vector<std::uint32_t> a(2 * 16), c(2 * 16);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = mf::binary16(static_cast<float>(i)).bits();
  const std::uint32_t s = mf::binary16(100.0f).bits();
  hy::eltwise(hy::table_id::vendor_hybrid_fp8, T::f16, T::f16, T::f16, a.data(), &s, 1, c.data(), 2, 16, {});
  for (std::size_t i = 0; i < c.size(); ++i) EXPECT_EQ(c[i], mf::binary16(100.0f + i).bits());
  std::vector<std::uint32_t> row(16);
  for (std::size_t j = 0; j < 16; ++j) row[j] = mf::binary16(1000.0f * j).bits();
  hy::eltwise(hy::table_id::vendor_hybrid_fp8, T::f16, T::f16, T::f16, a.data(), row.data(), 16, c.data(), 2, 16, {});
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t j = 0; j < 16; ++j)
      EXPECT_EQ(c[i * 16 + j], mf::binary16(static_cast<float>(i * 16 + j) + 1000.0f * j).bits());
}

// exact mul rounds a*b*sa*sb once (docs/hybrid.md, "exact"). HF8 2.5 * 4.5
// = 11.25, FP16 scales 1985/1024 and 229/128: sa*sb = 454565 * 2^-17,
// exact in FP32 (19 bits). 11.25 * 454565 * 2^-17 = 39 + 2^-6 + 2^-19. The
// rule's RN32 (ulp 2^-18 in [32, 64)) meets a tie and goes to the even
// 39 + 2^-6, itself an FP16 tie (ulp 2^-5) that goes to the even 39.
// Rounded once, the value is above that tie: 39 + 2^-5.
TEST(HybridEltwise, ExactMulRoundsOnce) {
  auto o = scaled(hy::eltwise_op::mul, T::f16, 1985.0f / 1024.0f, 229.0f / 128.0f);
  EXPECT_EQ(one(T::hf8, T::hf8, T::f16, 2.5, 4.5, o), mf::binary16(39.0f).bits());
  o.exact = true;
  EXPECT_EQ(one(T::hf8, T::hf8, T::f16, 2.5, 4.5, o), mf::binary16(39.03125f).bits());
}

// operands placement with two FP8 tensors: each is dequantized with its own
// scale. HF8 3 * 2 + HF8 5 * 0.5 = 6 + 2.5 = 8.5 (both exact in FP16).
TEST(HybridEltwise, OperandsPlacementScalesEachTensorByItsOwnScale) {
  auto o = scaled(hy::eltwise_op::add, T::f16, 2.0f, 0.5f);
  o.where = hy::placement::operands;
  EXPECT_EQ(one(T::hf8, T::hf8, T::f16, 3, 5, o), mf::binary16(8.5f).bits());
  o.op = hy::eltwise_op::sub;
  EXPECT_EQ(one(T::hf8, T::hf8, T::f16, 3, 5, o), mf::binary16(3.5f).bits());
}

// Without a scale there is no scale format to match: HF8 1.5 + BF16 0.25 =
// 1.75 with the default options (scale_type FP16), as the vendor table
// accepts HF8 x BF16 -> BF16; with a scale the formats must match.
TEST(HybridEltwise, UnscaledFp8BesideBf16NeedsNoScaleFormat) {
  const hy::eltwise_options o;
  EXPECT_EQ(one(T::hf8, T::bf16, T::bf16, 1.5, 0.25, o), mf::bfloat16(1.75f).bits());
  EXPECT_EQ(one(T::bf16, T::bf8, T::bf16, 0.25, 1.5, o), mf::bfloat16(1.75f).bits());
}

// The default scale format is FP16 (eltwise_options::scale_type), so an FP8
// tensor beside an FP16 one takes a scale with the default options: HF8
// 1.5 * 2 + FP16 0.25 = 3.25. Its BF16 counterpart needs scale_type = BF16.
TEST(HybridEltwise, DefaultScaleFormatIsFp16) {
  hy::eltwise_options o;
  o.a_scale = {true, 2.0f};
  EXPECT_EQ(one(T::hf8, T::f16, T::f16, 1.5, 0.25, o), mf::binary16(3.25f).bits());
  EXPECT_THROW(one(T::hf8, T::bf16, T::bf16, 1.5, 0.25, o), hy::unsupported);
}

// A NaN scale is a value of FP16 (the rule asks each scale to be one), so it
// is accepted, and the result is NaN as IEEE 754 makes it (docs/hybrid.md,
// "NaN"), on the fast path and on the reference loop.
TEST(HybridEltwise, NanScaleGivesNan) {
  auto o = scaled(hy::eltwise_op::add, T::f16, NAN, 1.0f);
  for (const bool reference : {false, true}) {
    o.reference_only = reference;
    const std::uint32_t c = one(T::hf8, T::hf8, T::f16, 1, 1, o);
    EXPECT_TRUE(std::isnan(static_cast<float>(mf::binary16::from_bits(static_cast<std::uint16_t>(c)))))
        << std::hex << c;
  }
}

// Integer tensors take no scale factor ("16-bit op 16-bit, integers: no
// scales"): a given one is an error, not ignored.
TEST(HybridEltwise, IntegersTakeNoScale) {
  hy::eltwise_options o;
  o.a_scale = {true, 2.0f};
  EXPECT_THROW(one(T::i8, T::i8, T::i8, 1, 1, o), hy::unsupported);
  o = {};
  o.b_scale = {true, 1.0f};
  EXPECT_THROW(one(T::u8, T::u8, T::u8, 1, 1, o), hy::unsupported);
}

// "Input Z multiple 16" applies to the innermost dimension, not to the
// element count: 2 x 8 is rejected although it holds 16 elements, 1 x 16 is
// accepted.
TEST(HybridEltwise, ZMultipleIsTheInnermostDimension) {
  const std::vector<std::uint32_t> a(16, encode(T::f16, 1.0)), b(16, encode(T::f16, 2.0));
  std::vector<std::uint32_t> c(16);
  EXPECT_THROW(hy::eltwise(hy::table_id::vendor_hybrid_fp8, T::f16, T::f16, T::f16, a.data(), b.data(), 16,
                           c.data(), 2, 8, {}), hy::unsupported);
  EXPECT_NO_THROW(hy::eltwise(hy::table_id::vendor_hybrid_fp8, T::f16, T::f16, T::f16, a.data(), b.data(), 16,
                              c.data(), 1, 16, {}));
  EXPECT_EQ(c[15], mf::binary16(3.0f).bits());
}

// A saturating FP32 output maps -Inf to -FLT_MAX, keeping the sign
// (docs/hybrid.md, "Output conversion"): BF16 -2^127 + -2^127 = -2^128 is
// past FP32 in RN32, on the fast path and on the reference loop (table any).
TEST(HybridEltwise, SaturatingFp32OutputKeepsTheSign) {
  const std::vector<std::uint32_t> a(16, encode(T::bf16, -0x1p127)), b = a;
  hy::eltwise_options o;
  o.check_z_multiple = false;
  for (const bool reference : {false, true}) {
    o.reference_only = reference;
    std::vector<std::uint32_t> c(16);
    o.output.on_overflow = mf::overflow::saturating;
    hy::eltwise(hy::table_id::any, T::bf16, T::bf16, T::f32, a.data(), b.data(), 16, c.data(), 1, 16, o);
    for (const std::uint32_t x : c) EXPECT_EQ(hybrid_test::as_float(x), -std::numeric_limits<float>::max());
    o.output.on_overflow = mf::overflow::non_saturating;
    hy::eltwise(hy::table_id::any, T::bf16, T::bf16, T::f32, a.data(), b.data(), 16, c.data(), 1, 16, o);
    for (const std::uint32_t x : c) EXPECT_EQ(hybrid_test::as_float(x), -INFINITY);
  }
}

// A stochastic output takes element (i, j)'s random bits from the library's
// stream at offset + i * columns + j (docs/hybrid.md, "Output conversion").
// FP16 1 + 2^-11 (exact in FP32) is halfway between FP16 1 and 1 + 2^-10,
// so each element rounds up or down by its own random bits; 2 x 16
// elements tell a wrong stream index, a lost offset or a nearest-even
// rounding apart.
TEST(HybridEltwise, StochasticOutputTakesTheStreamAtOffsetPlusIndex) {
  const std::size_t rows = 2, columns = 16;
  const std::vector<std::uint32_t> a(rows * columns, encode(T::f16, 1.0));
  const std::uint32_t tiny = encode(T::f16, 0x1p-11);
  hy::eltwise_options o;
  o.output.stochastic = true;
  o.output.seed = 12345;
  o.output.offset = 1000;
  o.output.random_bits = 8;
  std::vector<std::uint32_t> c(rows * columns);
  hy::eltwise(hy::table_id::vendor_hybrid_fp8, T::f16, T::f16, T::f16, a.data(), &tiny, 1, c.data(), rows,
              columns, o);
  int up = 0;
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < columns; ++j) {
      const std::uint32_t random = mf::stochastic_random_bits(o.output.seed, o.output.offset + i * columns + j, 8);
      const auto want = mf::round_to_stochastic<mf::binary16>(1.0f + 0x1p-11f, random, mf::overflow::non_saturating, 8);
      EXPECT_EQ(c[i * columns + j], want.bits()) << i << ", " << j;
      up += want.bits() != mf::binary16(1.0f).bits() ? 1 : 0;
    }
  }
  EXPECT_GT(up, 0);
  EXPECT_LT(up, static_cast<int>(rows * columns));  // both ways: not a vacuous check
}

// Stochastic output rounding is for FP8 and 16-bit outputs (docs/hybrid.md,
// "Output conversion"): an FP32 output (table any) or an integer one asks
// for a rounding the output conversion does not do, and is rejected, as
// MatMul rejects it, not run to nearest.
TEST(HybridEltwise, StochasticOutputNeedsAnFp8Or16BitOutput) {
  const std::vector<std::uint32_t> a(16, encode(T::f16, 1.0)), b(16, encode(T::f16, 0x1p-11));
  std::vector<std::uint32_t> c(16);
  hy::eltwise_options o;
  o.output.stochastic = true;
  EXPECT_THROW(hy::eltwise(hy::table_id::any, T::f16, T::f16, T::f32, a.data(), b.data(), 16, c.data(), 1, 16, o),
               hy::unsupported);
  EXPECT_NO_THROW(hy::eltwise(hy::table_id::any, T::f16, T::f16, T::f16, a.data(), b.data(), 16, c.data(), 1, 16, o));
  EXPECT_THROW(one(T::i8, T::i8, T::i8, 1, 1, o), hy::unsupported);
}

// The vendor's element-wise table (docs/hybrid.md, "Type tables") as its
// rule, written here independently of the library's rows: an integer type
// with itself; FP8 op FP8 into FP16 or BF16; a 16-bit format op FP8 or
// itself, either order, into that format. Against the run-time lookup for
// every type triple; cuBLASLt has no element-wise unit.
TEST(HybridEltwise, VendorTableIsTheNotesTable) {
  const auto listed = [](T a, T b, T out) {
    if (hy::is_integer(a) || hy::is_integer(b) || hy::is_integer(out)) return a == b && b == out;
    if (hy::is_fp8(a) && hy::is_fp8(b)) return out == T::f16 || out == T::bf16;
    for (const T wide : {T::f16, T::bf16}) {
      if ((a == wide && (b == wide || hy::is_fp8(b))) || (b == wide && hy::is_fp8(a))) return out == wide;
    }
    return false;
  };
  int accepted = 0;
  for (T ta : hy::all_element_types) {
    for (T tb : hy::all_element_types) {
      for (T tc : hy::all_element_types) {
        EXPECT_EQ(hy::eltwise_supported(hy::table_id::vendor_hybrid_fp8, ta, tb, tc), listed(ta, tb, tc))
            << hy::name(ta) << " x " << hy::name(tb) << " -> " << hy::name(tc);
        EXPECT_FALSE(hy::eltwise_supported(hy::table_id::cublaslt_fp8, ta, tb, tc));
        accepted += listed(ta, tb, tc) ? 1 : 0;
      }
    }
  }
  EXPECT_EQ(accepted, 20);  // the notes' table has 20 rows
}

}  // namespace
