// NVFP4 with a caller's tensor scale and blocks holding NaN or Inf: what
// docs/mx.md (section 5) says happens, with the answers worked by hand.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include <gtest/gtest.h>

#include <minifloat/mx.hpp>

namespace {

namespace nvfp4 = mf::mx::nvfp4;

constexpr float nan_value = std::numeric_limits<float>::quiet_NaN();
constexpr float inf_value = std::numeric_limits<float>::infinity();

std::uint8_t code_at(const std::uint8_t* elements, int i) {
  return static_cast<std::uint8_t>((elements[i / 2] >> (4 * (i % 2))) & 0xFu);
}

struct run {
  float in[48];
  std::uint8_t scales[3];
  std::uint8_t elements[24];
  float out[48];
};

// Block 0 holds a NaN, block 1 +-Inf, block 2 only finite values.
run quantize_with(float tensor_scale) {
  run r{};
  for (int i = 0; i < 48; ++i) r.in[i] = 0.25f * static_cast<float>(i % 16 - 8);
  r.in[3] = nan_value;
  r.in[16 + 4] = inf_value;
  r.in[16 + 5] = -inf_value;
  nvfp4::quantize(r.in, r.scales, r.elements, 48, tensor_scale);
  nvfp4::dequantize(r.scales, r.elements, r.out, 48, tensor_scale);
  return r;
}

TEST(Nvfp4Specials, NanBlockWithCallerScale) {
  const run r = quantize_with(0.01f);
  EXPECT_EQ(r.scales[0], 0x7F);  // NaN scale
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(code_at(r.elements, i), 0x7) << i;  // x / NaN is NaN -> +max
    EXPECT_TRUE(std::isnan(r.out[i])) << i;
  }
}

TEST(Nvfp4Specials, InfBlockWithCallerScaleSaturates) {
  const float s_t = 0.01f;
  const run r = quantize_with(s_t);
  EXPECT_EQ(r.scales[1], 0x7E);  // Inf / (6 s_t) saturates to 448
  EXPECT_EQ(code_at(r.elements, 16 + 4), 0x7);  // +Inf -> +6
  EXPECT_EQ(code_at(r.elements, 16 + 5), 0xF);  // -Inf -> -6
  EXPECT_EQ(r.out[16 + 4], 6.0f * 448.0f * s_t);
  EXPECT_EQ(r.out[16 + 5], -6.0f * 448.0f * s_t);
  // 1.75 / (448 * 0.01) = 0.39...: rounds to 0.5 (code 0x1), decodes to 0.5 * 448 * s_t.
  EXPECT_EQ(r.in[16 + 15], 1.75f);
  EXPECT_EQ(code_at(r.elements, 16 + 15), 0x1);
  // -2 / 4.48 = -0.446...: -0.5 (code 0x9).
  EXPECT_EQ(code_at(r.elements, 16 + 0), 0x9);
  // 0.25 / 4.48 = 0.0558: rounds to 0 (code 0x0).
  EXPECT_EQ(code_at(r.elements, 16 + 9), 0x0);
}

TEST(Nvfp4Specials, FiniteBlockUnaffectedWithCallerScale) {
  const float s_t = 0.01f;
  const run r = quantize_with(s_t);
  // Block 2: amax 2, scale e4m3fn(2 / 0.06 = 33.3...) = 32 = 2^5 (0x60: biased
  // exponent 12), elements x / 0.32.
  EXPECT_EQ(r.scales[2], 0x60);
  EXPECT_EQ(code_at(r.elements, 32 + 0), 0xF);   // -2 / 0.32 = -6.25 -> -6 (saturating)
  EXPECT_EQ(code_at(r.elements, 32 + 12), 0x5);  // 1 / 0.32 = 3.125 -> 3 (code 0x5)
}

TEST(Nvfp4Specials, CallerNanScaleIsLikeComputedOne) {
  const run r = quantize_with(nan_value);
  for (int j = 0; j < 3; ++j) EXPECT_EQ(r.scales[j], 0x7F) << j;
  for (int i = 0; i < 48; ++i) EXPECT_EQ(code_at(r.elements, i), 0x0) << i;
}

TEST(Nvfp4Specials, ComputedScaleTurnsInfIntoNanBlocks) {
  run r{};
  for (int i = 0; i < 48; ++i) r.in[i] = 1.0f;
  r.in[20] = inf_value;
  const float s_t = nvfp4::quantize(r.in, r.scales, r.elements, 48);
  EXPECT_TRUE(std::isnan(s_t));
  for (int j = 0; j < 3; ++j) EXPECT_EQ(r.scales[j], 0x7F) << j;
}

}  // namespace
