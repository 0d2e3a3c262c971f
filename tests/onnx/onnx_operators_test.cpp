// mf::onnx on answers worked by hand (the bit-exact comparison with onnx's
// reference evaluator is onnx_reference_compare.py, label onnx).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include <minifloat/onnx.hpp>

namespace {

using mf::onnx::data_type;
using mf::onnx::tensor;

tensor floats(std::vector<std::int64_t> shape, const std::vector<float>& values) {
  std::vector<std::uint32_t> codes;
  for (const float v : values) codes.push_back(mf::detail::bit_cast<std::uint32_t>(v));
  return mf::onnx::tensor_from_codes(data_type::float32, std::move(shape), codes);
}

tensor bf16(std::vector<std::int64_t> shape, const std::vector<float>& values) {
  std::vector<std::uint32_t> codes;
  for (const float v : values) {
    const auto b = mf::round_to<mf::bfloat16>(v);
    EXPECT_EQ(static_cast<float>(b), v) << "not a bfloat16: " << v;
    codes.push_back(b.bits());
  }
  return mf::onnx::tensor_from_codes(data_type::bfloat16, std::move(shape), codes);
}

tensor f16(std::vector<std::int64_t> shape, const std::vector<float>& values) {
  std::vector<std::uint32_t> codes;
  for (const float v : values) codes.push_back(mf::round_to<mf::binary16>(v).bits());
  return mf::onnx::tensor_from_codes(data_type::float16, std::move(shape), codes);
}

std::vector<std::uint32_t> quantize(const tensor& x, const tensor& scale, data_type out,
                                    mf::onnx::quantize_attributes a = {},
                                    const tensor* zero = nullptr) {
  if (zero == nullptr) a.output_dtype = out;
  return mf::onnx::codes_of(mf::onnx::quantize_linear(x, scale, zero, a));
}

// 1.0546875 / 0.9921875 = 135/127 = 1.06299..., just above 1.0625, the
// midpoint of the e4m3fn neighbours 1 (0x38) and 1.125 (0x39). In bfloat16
// (spacing 2^-7 on [1, 2)) 135/127 = 136.063 * 2^-7 rounds to 136 * 2^-7 =
// 1.0625 exactly; that tie goes to the even 1.0. Rounded once (a float32
// quotient) it is above the midpoint: 1.125.
TEST(OnnxQuantizeLinear, BFloat16QuotientRoundsTwice) {
  const tensor x = floats({1}, {1.0546875f});
  EXPECT_EQ(quantize(x, bf16({}, {0.9921875f}), data_type::float8e4m3fn),
            std::vector<std::uint32_t>{0x38});
  // The same scale as a float: one rounding.
  EXPECT_EQ(quantize(x, floats({}, {0.9921875f}), data_type::float8e4m3fn),
            std::vector<std::uint32_t>{0x39});
  // A bfloat16 scale with precision = float: one rounding.
  mf::onnx::quantize_attributes a;
  a.precision = data_type::float32;
  EXPECT_EQ(quantize(x, bf16({}, {0.9921875f}), data_type::float8e4m3fn, a),
            std::vector<std::uint32_t>{0x39});
  // A float scale with precision = bfloat16: the two roundings again.
  a.precision = data_type::bfloat16;
  EXPECT_EQ(quantize(x, floats({}, {0.9921875f}), data_type::float8e4m3fn, a),
            std::vector<std::uint32_t>{0x38});
}

// x = 2.5 + 2^-11 in float. In float16 (spacing 2^-9 on [2, 4)) x itself
// rounds to 2.5 (the division's operands are converted to its precision),
// and rint(2.5) is 2 (ties to even); in float the quotient is above 2.5: 3.
TEST(OnnxQuantizeLinear, Float16PrecisionRoundsXFirst) {
  const tensor x = floats({1}, {2.50048828125f});
  EXPECT_EQ(quantize(x, f16({}, {1.0f}), data_type::uint8), std::vector<std::uint32_t>{2});
  EXPECT_EQ(quantize(x, floats({}, {1.0f}), data_type::uint8), std::vector<std::uint32_t>{3});
}

TEST(OnnxQuantizeLinear, Float16QuotientOverflowsToInf) {
  // 1000 / 2^-10 = 1024000 > 65504: Inf in float16; saturating e4m3fn gives
  // 448 (0x7E), non-saturating NaN (0x7F), int16 its maximum.
  const tensor x = floats({2}, {1000.0f, -1000.0f});
  EXPECT_EQ(quantize(x, f16({}, {0x1p-10f}), data_type::float8e4m3fn),
            (std::vector<std::uint32_t>{0x7E, 0xFE}));
  mf::onnx::quantize_attributes a;
  a.saturate = false;
  EXPECT_EQ(quantize(x, f16({}, {0x1p-10f}), data_type::float8e4m3fn, a),
            (std::vector<std::uint32_t>{0x7F, 0xFF}));
  EXPECT_EQ(quantize(x, f16({}, {0x1p-10f}), data_type::int16),
            (std::vector<std::uint32_t>{0x7FFF, 0x8000}));
}

TEST(OnnxQuantizeLinear, SaturatingInfIntoFnuzDependsOnTheOpset) {
  const float inf = std::numeric_limits<float>::infinity();
  const tensor x = floats({2}, {inf, -inf});
  const tensor one = floats({}, {1.0f});
  mf::onnx::quantize_attributes a;  // opset 28: Cast-24's table, +-max
  EXPECT_EQ(quantize(x, one, data_type::float8e4m3fnuz, a), (std::vector<std::uint32_t>{0x7F, 0xFF}));
  EXPECT_EQ(quantize(x, one, data_type::float8e5m2fnuz, a), (std::vector<std::uint32_t>{0x7F, 0xFF}));
  a.opset = 23;  // Cast-19..23's table: NaN
  EXPECT_EQ(quantize(x, one, data_type::float8e4m3fnuz, a), (std::vector<std::uint32_t>{0x80, 0x80}));
  a.opset = 28;
  a.saturate = false;
  EXPECT_EQ(quantize(x, one, data_type::float8e4m3fnuz, a), (std::vector<std::uint32_t>{0x80, 0x80}));
  EXPECT_EQ(quantize(x, one, data_type::float8e5m2, a), (std::vector<std::uint32_t>{0x7C, 0xFC}));
}

TEST(OnnxQuantizeLinear, IntegersRoundToEvenAddTheZeroPointAndSaturate) {
  // rint(10.5) = 10, -3 -> 7; rint(11.5) = 12 -> 9; 200 - 3 -> 127;
  // -200 -> -128; NaN reads as 0 -> -3; -0.5 -> -0 -> -3.
  const tensor x = floats({6}, {10.5f, 11.5f, 200.0f, -200.0f, std::nanf(""), -0.5f});
  const tensor zero = mf::onnx::tensor_from_codes(data_type::int8, {}, {0xFD});  // -3
  EXPECT_EQ(quantize(x, floats({}, {1.0f}), data_type::int8, {}, &zero),
            (std::vector<std::uint32_t>{7, 9, 127, 0x80, 0xFD, 0xFD}));
  // uint4 / int4 ranges.
  const tensor y = floats({3}, {16.0f, -9.0f, 7.5f});
  EXPECT_EQ(quantize(y, floats({}, {1.0f}), data_type::uint4), (std::vector<std::uint32_t>{15, 0, 8}));
  EXPECT_EQ(quantize(y, floats({}, {1.0f}), data_type::int4), (std::vector<std::uint32_t>{7, 8, 7}));
}

TEST(OnnxQuantizeLinear, PerAxisAndBlockedPickTheirScales) {
  // x: 2 x 5, all 6. Per-axis on axis 0: scales 2 and 3 -> rows of 3 and 2.
  const tensor x = floats({2, 5}, std::vector<float>(10, 6.0f));
  mf::onnx::quantize_attributes a;
  a.axis = 0;
  EXPECT_EQ(quantize(x, floats({2}, {2.0f, 3.0f}), data_type::uint8, a),
            (std::vector<std::uint32_t>{3, 3, 3, 3, 3, 2, 2, 2, 2, 2}));
  // Per-axis on axis -1: one scale per column.
  a.axis = -1;
  EXPECT_EQ(quantize(x, floats({5}, {1.0f, 2.0f, 3.0f, 6.0f, 0.5f}), data_type::uint8, a),
            (std::vector<std::uint32_t>{6, 3, 2, 1, 12, 6, 3, 2, 1, 12}));
  // Blocked on axis 1, block 2: columns {0,1} {2,3} {4} (partial).
  a.axis = 1;
  a.block_size = 2;
  EXPECT_EQ(quantize(x, floats({2, 3}, {1.0f, 2.0f, 3.0f, 0.5f, 6.0f, 0.25f}), data_type::uint8, a),
            (std::vector<std::uint32_t>{6, 6, 3, 3, 2, 12, 12, 1, 1, 24}));
  // Block sizes outside [ceil(5/3), ceil(5/2) - 1] = [2, 2] are rejected.
  a.block_size = 3;
  EXPECT_THROW(quantize(x, floats({2, 3}, std::vector<float>(6, 1.0f)), data_type::uint8, a),
               mf::onnx::invalid_model);
  a.block_size = 1;
  EXPECT_THROW(quantize(x, floats({2, 3}, std::vector<float>(6, 1.0f)), data_type::uint8, a),
               mf::onnx::invalid_model);
}

// Per-axis zero points: element i uses y_zero_point at the same index as
// y_scale (QuantizeLinear: "y_zero_point ... same shape as y_scale";
// DequantizeLinear likewise). Axis 0 of a 2 x 2 tensor, int8 zero points
// -3 and 5, scales 1 and 0.5:
//   QuantizeLinear:   1/1 - 3 = -2 (0xFE), 2/1 - 3 = -1 (0xFF),
//                     3/0.5 + 5 = 11, 4/0.5 + 5 = 13;
//   DequantizeLinear: (0 + 3) * 0.5 = 1.5, (1 + 3) * 0.5 = 2,
//                     (10 - 5) * 2 = 10, (20 - 5) * 2 = 30 (scales 0.5 and 2).
TEST(OnnxQuantizeLinear, PerAxisZeroPointsFollowTheirScales) {
  const tensor zero = mf::onnx::tensor_from_codes(data_type::int8, {2}, {0xFD, 0x05});
  mf::onnx::quantize_attributes q;
  q.axis = 0;
  EXPECT_EQ(quantize(floats({2, 2}, {1.0f, 2.0f, 3.0f, 4.0f}), floats({2}, {1.0f, 0.5f}),
                     data_type::int8, q, &zero),
            (std::vector<std::uint32_t>{0xFE, 0xFF, 11, 13}));
  mf::onnx::dequantize_attributes d;
  d.axis = 0;
  const tensor x = mf::onnx::tensor_from_codes(data_type::int8, {2, 2}, {0, 1, 10, 20});
  std::vector<std::uint32_t> expected;
  for (const float v : {1.5f, 2.0f, 10.0f, 30.0f}) {
    expected.push_back(mf::detail::bit_cast<std::uint32_t>(v));
  }
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::dequantize_linear(x, floats({2}, {0.5f, 2.0f}), &zero, d)),
            expected);
}

// Blocked quantization on an axis that is not the last: "y_scale ... has
// the same shape as x except on the blocking axis", and element
// x[i0, i1] uses y_scale[i0 / block_size, i1]. x: 4 x 2, all 12, axis 0,
// block_size 2, y_scale 2 x 2 = {{1, 2}, {3, 4}}: rows 0-1 give 12/1, 12/2,
// rows 2-3 give 12/3, 12/4.
TEST(OnnxQuantizeLinear, BlockedOnTheFirstAxisOfTwo) {
  const tensor x = floats({4, 2}, std::vector<float>(8, 12.0f));
  const tensor scale = floats({2, 2}, {1.0f, 2.0f, 3.0f, 4.0f});
  mf::onnx::quantize_attributes a;
  a.axis = 0;
  a.block_size = 2;
  EXPECT_EQ(quantize(x, scale, data_type::uint8, a),
            (std::vector<std::uint32_t>{12, 6, 12, 6, 4, 3, 4, 3}));
  // DequantizeLinear shares the mapping: 2 * scale.
  mf::onnx::dequantize_attributes d;
  d.axis = 0;
  d.block_size = 2;
  const tensor q = mf::onnx::tensor_from_codes(data_type::uint8, {4, 2},
                                               std::vector<std::uint32_t>(8, 2));
  std::vector<std::uint32_t> expected;
  for (const float v : {2.0f, 4.0f, 2.0f, 4.0f, 6.0f, 8.0f, 6.0f, 8.0f}) {
    expected.push_back(mf::detail::bit_cast<std::uint32_t>(v));
  }
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::dequantize_linear(q, scale, nullptr, d)), expected);
}

// precision bfloat16 rounds both operands to bfloat16 before the division
// (division.hpp; QuantizeLinear-23's `precision`), as the float16 tests
// above do for float16:
// - the scale 1 + 3 * 2^-9 becomes 1 + 2^-7 (bfloat16's spacing on [1, 2)),
//   and 100 / (1 + 2^-7) = 99.22 rounds to 99 in bfloat16 (spacing 0.5 on
//   [64, 128)): 99. Unrounded, 100 / (1 + 3 * 2^-9) = 99.42 would round to
//   99.5 and then, ties to even, to 100;
// - x = 2.5 + 2^-8 becomes 2.5 (spacing 2^-6 on [2, 4)): rint(2.5) = 2,
//   where a float division gives 2.504 -> 3.
TEST(OnnxQuantizeLinear, BFloat16PrecisionRoundsXAndTheScale) {
  mf::onnx::quantize_attributes a;
  a.precision = data_type::bfloat16;
  EXPECT_EQ(quantize(floats({1}, {100.0f}), floats({}, {1.0f + 3 * 0x1p-9f}), data_type::uint8, a),
            std::vector<std::uint32_t>{99});
  EXPECT_EQ(quantize(floats({1}, {2.5f + 0x1p-8f}), floats({}, {1.0f}), data_type::uint8, a),
            std::vector<std::uint32_t>{2});
  a.precision = data_type::float32;
  EXPECT_EQ(quantize(floats({1}, {2.5f + 0x1p-8f}), floats({}, {1.0f}), data_type::uint8, a),
            std::vector<std::uint32_t>{3});
}

// axis may be -rank (the first dimension) .. rank - 1.
TEST(OnnxQuantizeLinear, AxisMinusRankIsTheFirstDimension) {
  mf::onnx::quantize_attributes a;
  a.axis = -1;
  EXPECT_EQ(quantize(floats({3}, {1.0f, 2.0f, 3.0f}), floats({3}, {1.0f, 1.0f, 1.0f}),
                     data_type::uint8, a),
            (std::vector<std::uint32_t>{1, 2, 3}));
  const tensor x = floats({2, 3}, {2.0f, 2.0f, 2.0f, 6.0f, 6.0f, 6.0f});
  a.axis = -2;
  EXPECT_EQ(quantize(x, floats({2}, {1.0f, 3.0f}), data_type::uint8, a),
            (std::vector<std::uint32_t>{2, 2, 2, 2, 2, 2}));
  a.axis = -3;
  EXPECT_THROW(quantize(x, floats({2}, {1.0f, 3.0f}), data_type::uint8, a),
               mf::onnx::invalid_model);
}

// Without a zero point or output_dtype the output is uint8 (QuantizeLinear:
// "default is uint8").
TEST(OnnxQuantizeLinear, DefaultOutputIsUint8) {
  const tensor y = mf::onnx::quantize_linear(floats({1}, {200.0f}), floats({}, {1.0f}), nullptr);
  EXPECT_EQ(y.type, data_type::uint8);
  EXPECT_EQ(mf::onnx::codes_of(y), std::vector<std::uint32_t>{0xC8});
}

// int4's most negative code, 0x8, is -8 both ways.
TEST(OnnxQuantizeLinear, Int4MostNegativeCode) {
  const tensor x = mf::onnx::tensor_from_codes(data_type::int4, {2}, {0x8, 0x7});
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::dequantize_linear(x, floats({}, {1.0f}), nullptr)),
            (std::vector<std::uint32_t>{mf::detail::bit_cast<std::uint32_t>(-8.0f),
                                        mf::detail::bit_cast<std::uint32_t>(7.0f)}));
  EXPECT_EQ(quantize(floats({1}, {-100.0f}), floats({}, {1.0f}), data_type::int4),
            std::vector<std::uint32_t>{0x8});
}

// precision float16: the scale is rounded to binary16 too. 1 + 3 * 2^-12
// becomes 1 + 2^-10, and 1000 / (1 + 2^-10) = 999.02 rounds to 999 (with the
// float32 scale the float16 quotient would be 999.5, then 1000).
TEST(OnnxQuantizeLinear, Float16PrecisionRoundsTheScale) {
  mf::onnx::quantize_attributes a;
  a.precision = data_type::float16;
  EXPECT_EQ(quantize(floats({1}, {1000.0f}), floats({}, {1.0f + 3 * 0x1p-12f}), data_type::uint16, a),
            std::vector<std::uint32_t>{999});
}

TEST(OnnxQuantizeLinear, PerAxisByDefaultOnAxisOne) {
  // The operators' default axis is 1 (QuantizeLinear and DequantizeLinear):
  // a 1-D scale of x's second dimension is one scale per column.
  const tensor x = floats({2, 5}, std::vector<float>(10, 6.0f));
  const tensor scale = floats({5}, {1.0f, 2.0f, 3.0f, 6.0f, 0.5f});
  EXPECT_EQ(quantize(x, scale, data_type::uint8),
            (std::vector<std::uint32_t>{6, 3, 2, 1, 12, 6, 3, 2, 1, 12}));
  const tensor q = mf::onnx::tensor_from_codes(data_type::uint8, {2, 5},
                                               std::vector<std::uint32_t>(10, 2));
  std::vector<std::uint32_t> expected;
  for (int row = 0; row < 2; ++row) {
    for (const float s : {2.0f, 4.0f, 6.0f, 12.0f, 1.0f}) {
      expected.push_back(mf::detail::bit_cast<std::uint32_t>(s));
    }
  }
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::dequantize_linear(q, scale, nullptr)), expected);
}

TEST(OnnxQuantizeLinear, FourBitOutputsArePackedLowNibbleFirst) {
  // e2m1: 1 -> 0x2, 2 -> 0x4, -6 -> 0xF; bytes 0x42, then 0x0F with a zero
  // high nibble.
  const tensor x = floats({3}, {1.0f, 2.0f, -6.0f});
  mf::onnx::quantize_attributes a;
  a.output_dtype = data_type::float4e2m1;
  const tensor y = mf::onnx::quantize_linear(x, floats({}, {1.0f}), nullptr, a);
  EXPECT_EQ(y.data, (std::vector<std::uint8_t>{0x42, 0x0F}));
  a.output_dtype = data_type::int4;  // -1 -> 0xF, 7, -8 -> 0x8
  const tensor z = mf::onnx::quantize_linear(floats({3}, {-1.0f, 7.0f, -8.0f}),
                                             floats({}, {1.0f}), nullptr, a);
  EXPECT_EQ(z.data, (std::vector<std::uint8_t>{0x7F, 0x08}));
}

TEST(OnnxQuantizeLinear, FloatZeroPointsMustBeZero) {
  const tensor x = floats({2}, {-0.0f, 1.0f});
  const tensor plus_zero = mf::onnx::tensor_from_codes(data_type::float8e4m3fn, {}, {0x00});
  // The formula adds it: -0 + +0 = +0.
  EXPECT_EQ(quantize(x, floats({}, {1.0f}), data_type::float8e4m3fn, {}, &plus_zero),
            (std::vector<std::uint32_t>{0x00, 0x38}));
  EXPECT_EQ(quantize(x, floats({}, {1.0f}), data_type::float8e4m3fn),
            (std::vector<std::uint32_t>{0x80, 0x38}));
  const tensor one = mf::onnx::tensor_from_codes(data_type::float8e4m3fn, {}, {0x38});
  EXPECT_THROW(quantize(x, floats({}, {1.0f}), data_type::float8e4m3fn, {}, &one),
               mf::onnx::invalid_model);
  // output_dtype must agree with the zero point's type.
  mf::onnx::quantize_attributes a;
  a.output_dtype = data_type::int8;
  EXPECT_THROW(mf::onnx::quantize_linear(x, floats({}, {1.0f}), &plus_zero, a),
               mf::onnx::invalid_model);
}

TEST(OnnxDequantizeLinear, ExactProductRoundedOnceToTheOutput) {
  // e4m3fn 448 (0x7E) * 2 = 896; -0 (0x80) * 2 = -0; NaN stays NaN.
  const tensor x = mf::onnx::tensor_from_codes(data_type::float8e4m3fn, {3}, {0x7E, 0x80, 0x7F});
  const std::vector<std::uint32_t> y =
      mf::onnx::codes_of(mf::onnx::dequantize_linear(x, floats({}, {2.0f}), nullptr));
  EXPECT_EQ(y[0], mf::detail::bit_cast<std::uint32_t>(896.0f));
  EXPECT_EQ(y[1], 0x80000000u);
  EXPECT_TRUE(std::isnan(mf::detail::bit_cast<float>(y[2])));
  // int16 (257 - 0) * 1 into bfloat16: the tie between 256 and 258 goes to
  // the even 256 (0x4380); 259 * 1 -> 260 (0x4382).
  const tensor i = mf::onnx::tensor_from_codes(data_type::int16, {2}, {257, 259});
  mf::onnx::dequantize_attributes a;
  a.output_dtype = data_type::bfloat16;
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::dequantize_linear(i, floats({}, {1.0f}), nullptr, a)),
            (std::vector<std::uint32_t>{0x4380, 0x4382}));
  // uint8 with zero point 128: (0 - 128) * 0.5 = -64 in float16 (0xD400).
  const tensor u = mf::onnx::tensor_from_codes(data_type::uint8, {1}, {0});
  const tensor zero = mf::onnx::tensor_from_codes(data_type::uint8, {}, {128});
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::dequantize_linear(u, f16({}, {0.5f}), &zero)),
            std::vector<std::uint32_t>{0xD400});
  // A float8e8m0 scale needs output_dtype (the output cannot be float8e8m0).
  const tensor e8 = mf::onnx::tensor_from_codes(data_type::float8e8m0, {}, {0x80});
  EXPECT_THROW(mf::onnx::dequantize_linear(u, e8, nullptr), mf::onnx::invalid_model);
  a.output_dtype = data_type::float32;
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::dequantize_linear(
                mf::onnx::tensor_from_codes(data_type::uint8, {1}, {3}), e8, nullptr, a)),
            std::vector<std::uint32_t>{mf::detail::bit_cast<std::uint32_t>(6.0f)});
}

TEST(OnnxCast, E8m0RoundModesAndTable) {
  using mf::onnx::e8m0_round_mode;
  auto cast = [](float v, bool saturate, e8m0_round_mode mode) {
    return mf::onnx::cast_value(v, data_type::float8e8m0, {saturate, mode});
  };
  // 3 = 1.5 * 2: up -> 4 (0x81), down -> 2 (0x80), nearest: the tie goes up.
  EXPECT_EQ(cast(3.0f, true, e8m0_round_mode::up), 0x81u);
  EXPECT_EQ(cast(3.0f, true, e8m0_round_mode::down), 0x80u);
  EXPECT_EQ(cast(3.0f, true, e8m0_round_mode::nearest), 0x81u);
  EXPECT_EQ(cast(2.9f, true, e8m0_round_mode::nearest), 0x80u);
  // The table: 0 -> E8M0_MIN saturating, NaN otherwise; Inf -> E8M0_MAX or
  // NaN; above max (2^127 * 1.5 rounds up) -> max or NaN.
  EXPECT_EQ(cast(0.0f, true, e8m0_round_mode::up), 0x00u);
  EXPECT_EQ(cast(0.0f, false, e8m0_round_mode::nearest), 0xFFu);
  EXPECT_EQ(cast(0x1p-130f, true, e8m0_round_mode::up), 0x00u);
  // E8M0_MIN is 2^-127 itself: it and the values above it round, only the
  // ones below it take the table's row (NaN without saturation).
  EXPECT_EQ(cast(0x1p-127f, false, e8m0_round_mode::nearest), 0x00u);
  EXPECT_EQ(cast(0x1.8p-127f, true, e8m0_round_mode::nearest), 0x01u);
  EXPECT_EQ(cast(0x1.8p-127f, true, e8m0_round_mode::up), 0x01u);
  EXPECT_EQ(cast(0x1.8p-127f, true, e8m0_round_mode::down), 0x00u);
  EXPECT_EQ(cast(0x1.fffff8p-128f, false, e8m0_round_mode::up), 0xFFu);
  EXPECT_EQ(cast(std::numeric_limits<float>::infinity(), true, e8m0_round_mode::up), 0xFEu);
  EXPECT_EQ(cast(std::numeric_limits<float>::infinity(), false, e8m0_round_mode::up), 0xFFu);
  EXPECT_EQ(cast(0x1.8p127f, true, e8m0_round_mode::nearest), 0xFEu);
  EXPECT_EQ(cast(0x1.8p127f, false, e8m0_round_mode::nearest), 0xFFu);
  EXPECT_EQ(cast(-1.0f, true, e8m0_round_mode::up), 0xFFu);
}

TEST(OnnxCast, SaturateTable) {
  // Cast-24: +Inf saturates to max in every float8 type; 464 (the midpoint
  // of 448 and 480) goes to 448 either way; 500 is NaN without saturation.
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(mf::onnx::cast_value(inf, data_type::float8e5m2fnuz), 0x7Fu);
  EXPECT_EQ(mf::onnx::cast_value(inf, data_type::float8e5m2, {false}), 0x7Cu);
  EXPECT_EQ(mf::onnx::cast_value(464.0f, data_type::float8e4m3fn, {false}), 0x7Eu);
  EXPECT_EQ(mf::onnx::cast_value(500.0f, data_type::float8e4m3fn, {false}), 0x7Fu);
  EXPECT_EQ(mf::onnx::cast_value(500.0f, data_type::float8e4m3fn), 0x7Eu);
  // A NaN cast to its own type keeps its payload.
  const tensor nan = mf::onnx::tensor_from_codes(data_type::float8e5m2, {1}, {0x7D});
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::cast(nan, data_type::float8e5m2)),
            std::vector<std::uint32_t>{0x7D});
}

}  // namespace

namespace {

// The opsets: only 19..28, and each one's type lists and attributes
// (Cast-21 int4/uint4, -23 float4e2m1, -24 float8e8m0; QuantizeLinear-21
// block_size and output_dtype, -23 precision and a y_scale type of its own;
// DequantizeLinear-23 output_dtype).
TEST(OnnxOpsets, KnownOpsetsOnly) {
  EXPECT_FALSE(mf::onnx::is_known_opset(18));
  EXPECT_TRUE(mf::onnx::is_known_opset(19));
  EXPECT_TRUE(mf::onnx::is_known_opset(28));
  EXPECT_FALSE(mf::onnx::is_known_opset(29));
  mf::onnx::cast_attributes c;
  c.opset = 18;
  EXPECT_THROW(mf::onnx::cast(floats({1}, {1.0f}), data_type::float16, c), mf::onnx::invalid_model);
  mf::onnx::dequantize_attributes d;
  d.opset = 29;
  const tensor x = mf::onnx::tensor_from_codes(data_type::int8, {1}, {1});
  EXPECT_THROW(mf::onnx::dequantize_linear(x, floats({}, {1.0f}), nullptr, d),
               mf::onnx::invalid_model);
}

// QuantizeLinear-21 added output_dtype and the 16-bit integers (as zero
// point and output; DequantizeLinear-21 the 16-bit integer inputs).
TEST(OnnxOpsets, OutputDtypeAndSixteenBitIntegersFromOpset21) {
  const tensor one = floats({1}, {1.0f});
  const tensor scale = floats({}, {1.0f});
  mf::onnx::quantize_attributes q;
  q.output_dtype = data_type::uint8;
  for (const int opset : {19, 20}) {
    q.opset = opset;
    EXPECT_THROW(mf::onnx::quantize_linear(one, scale, nullptr, q), mf::onnx::invalid_model)
        << opset;
  }
  q.opset = 21;
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::quantize_linear(one, scale, nullptr, q)),
            std::vector<std::uint32_t>{1});
  for (const data_type t : {data_type::int16, data_type::uint16}) {
    const tensor zero = mf::onnx::tensor_from_codes(t, {}, {0});
    mf::onnx::quantize_attributes z;  // the zero point's type is the output's
    z.opset = 20;
    EXPECT_THROW(mf::onnx::quantize_linear(one, scale, &zero, z), mf::onnx::invalid_model);
    z.opset = 21;
    EXPECT_EQ(mf::onnx::codes_of(mf::onnx::quantize_linear(one, scale, &zero, z)),
              std::vector<std::uint32_t>{1});
    const tensor x = mf::onnx::tensor_from_codes(t, {1}, {3});
    mf::onnx::dequantize_attributes d;
    d.opset = 20;
    EXPECT_THROW(mf::onnx::dequantize_linear(x, scale, nullptr, d), mf::onnx::invalid_model);
    d.opset = 21;
    EXPECT_EQ(mf::onnx::codes_of(mf::onnx::dequantize_linear(x, scale, nullptr, d)),
              std::vector<std::uint32_t>{mf::detail::bit_cast<std::uint32_t>(3.0f)});
  }
}

TEST(OnnxOpsets, TypesAndAttributesArriveWithTheirOpset) {
  mf::onnx::cast_attributes c;
  const tensor one = floats({1}, {1.0f});
  c.opset = 22;
  EXPECT_THROW(mf::onnx::cast(one, data_type::float4e2m1, c), mf::onnx::invalid_model);
  c.opset = 23;
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::cast(one, data_type::float4e2m1, c)),
            (std::vector<std::uint32_t>{0x2}));
  EXPECT_THROW(mf::onnx::cast(one, data_type::float8e8m0, c), mf::onnx::invalid_model);
  c.opset = 24;
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::cast(one, data_type::float8e8m0, c)),
            (std::vector<std::uint32_t>{0x7F}));

  mf::onnx::quantize_attributes q;
  q.opset = 22;
  q.precision = data_type::float32;
  EXPECT_THROW(quantize(one, floats({}, {1.0f}), data_type::int8, q), mf::onnx::invalid_model);
  q.precision = data_type::undefined;
  EXPECT_THROW(quantize(one, bf16({}, {1.0f}), data_type::int8, q), mf::onnx::invalid_model);
  EXPECT_EQ(quantize(one, floats({}, {1.0f}), data_type::int4, q), (std::vector<std::uint32_t>{1}));
  q.opset = 20;
  EXPECT_THROW(quantize(one, floats({}, {1.0f}), data_type::int4, q), mf::onnx::invalid_model);

  mf::onnx::dequantize_attributes d;
  d.opset = 22;
  d.output_dtype = data_type::float16;
  const tensor x = mf::onnx::tensor_from_codes(data_type::int8, {1}, {2});
  EXPECT_THROW(mf::onnx::dequantize_linear(x, floats({}, {1.0f}), nullptr, d),
               mf::onnx::invalid_model);
  d.output_dtype = data_type::undefined;
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::dequantize_linear(x, floats({}, {1.0f}), nullptr, d)),
            (std::vector<std::uint32_t>{0x40000000}));
}

// block_size came with QuantizeLinear-21 and DequantizeLinear-21: at
// opsets 19 and 20 a node that gives it is rejected. x: 2 x 2, block 2 on
// axis 1, one scale per row ({2, 1}): 2 / 2 = 1, 4 / 2 = 2, 3 / 1, 5 / 1.
TEST(OnnxOpsets, BlockSizeFromOpset21) {
  const tensor x = floats({2, 2}, {2.0f, 4.0f, 3.0f, 5.0f});
  const tensor scale = floats({2, 1}, {2.0f, 1.0f});
  const tensor q = mf::onnx::tensor_from_codes(data_type::uint8, {2, 2}, {1, 2, 3, 5});
  mf::onnx::quantize_attributes qa;
  mf::onnx::dequantize_attributes da;
  qa.block_size = da.block_size = 2;
  for (const int opset : {19, 20}) {
    qa.opset = da.opset = opset;
    EXPECT_THROW(mf::onnx::quantize_linear(x, scale, nullptr, qa), mf::onnx::invalid_model)
        << opset;
    EXPECT_THROW(mf::onnx::dequantize_linear(q, scale, nullptr, da), mf::onnx::invalid_model)
        << opset;
  }
  qa.opset = da.opset = 21;
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::quantize_linear(x, scale, nullptr, qa)),
            (std::vector<std::uint32_t>{1, 2, 3, 5}));
  std::vector<std::uint32_t> expected;
  for (const float v : {2.0f, 4.0f, 3.0f, 5.0f}) {
    expected.push_back(mf::detail::bit_cast<std::uint32_t>(v));
  }
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::dequantize_linear(q, scale, nullptr, da)), expected);
}

// float8e8m0 scales came with QuantizeLinear-24 and DequantizeLinear-24.
// QuantizeLinear divides by such a scale in float (division_precision: a
// power of two is no type to divide in): x = 2.5 + 2^-11 over the scale
// 2^0 (code 0x7F) is 2.50049, rint 3 (in bfloat16 x would become 2.5 and
// rint(2.5) = 2).
TEST(OnnxOpsets, Float8e8m0ScalesFromOpset24) {
  const tensor x = floats({1}, {2.5f + 0x1p-11f});
  const tensor e8 = mf::onnx::tensor_from_codes(data_type::float8e8m0, {}, {0x7F});
  const tensor q = mf::onnx::tensor_from_codes(data_type::uint8, {1}, {3});
  mf::onnx::quantize_attributes qa;
  mf::onnx::dequantize_attributes da;
  da.output_dtype = data_type::float32;
  qa.opset = da.opset = 23;
  EXPECT_THROW(mf::onnx::quantize_linear(x, e8, nullptr, qa), mf::onnx::invalid_model);
  EXPECT_THROW(mf::onnx::dequantize_linear(q, e8, nullptr, da), mf::onnx::invalid_model);
  qa.opset = da.opset = 24;
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::quantize_linear(x, e8, nullptr, qa)),
            std::vector<std::uint32_t>{3});
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::dequantize_linear(q, e8, nullptr, da)),
            std::vector<std::uint32_t>{mf::detail::bit_cast<std::uint32_t>(3.0f)});
}

// Cast-24's table (onnx/onnx#7130) gives +-Inf -> +-max in every float8
// type when saturating, from opset 24 itself; opset 23 (Cast-23) keeps NaN
// (0x80) for the FNUZ types. QuantizeLinear's float8 outputs follow it.
TEST(OnnxOpsets, SaturatingInfIntoFnuzIsMaxFromOpset24) {
  const float inf = std::numeric_limits<float>::infinity();
  const tensor x = floats({2}, {inf, -inf});
  mf::onnx::cast_attributes c;
  mf::onnx::quantize_attributes q;
  c.opset = q.opset = 24;
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::cast(x, data_type::float8e4m3fnuz, c)),
            (std::vector<std::uint32_t>{0x7F, 0xFF}));
  EXPECT_EQ(quantize(x, floats({}, {1.0f}), data_type::float8e5m2fnuz, q),
            (std::vector<std::uint32_t>{0x7F, 0xFF}));
  c.opset = q.opset = 23;
  EXPECT_EQ(mf::onnx::codes_of(mf::onnx::cast(x, data_type::float8e4m3fnuz, c)),
            (std::vector<std::uint32_t>{0x80, 0x80}));
  EXPECT_EQ(quantize(x, floats({}, {1.0f}), data_type::float8e5m2fnuz, q),
            (std::vector<std::uint32_t>{0x80, 0x80}));
}

// QuantizeLinear-19 with an explicit +0 float8 zero point: the formula's
// (x / y_scale) + y_zero_point in IEEE arithmetic, -0 + +0 = +0, at every
// opset (onnx's reference evaluator gives -0 at opset 19: docs/onnx.md).
TEST(OnnxOpsets, Opset19ZeroPointAddsPositiveZero) {
  mf::onnx::quantize_attributes q;
  q.opset = 19;
  const tensor zero = mf::onnx::tensor_from_codes(data_type::float8e4m3fn, {}, {0x00});
  const tensor y = mf::onnx::quantize_linear(floats({1}, {-0.0f}), floats({}, {1.0f}), &zero, q);
  EXPECT_EQ(y.type, data_type::float8e4m3fn);
  EXPECT_EQ(mf::onnx::codes_of(y), (std::vector<std::uint32_t>{0x00}));
}

}  // namespace
