// The element-wise unit: the scale rules of the vendor's "Hybrid FP8 ONNX"
// notes, each rounding worked by hand, the exact option and the operands
// placement, broadcasting.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
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

}  // namespace
