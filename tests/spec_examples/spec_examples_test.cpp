// The example of the StableHLO RFC "Float8E4M3FNUZ and Float8E5M2FNUZ"
// (openxla/stablehlo, rfcs/20230321-fp8_fnuz.md), run in JAX:
//
//   >>> x = jnp.arange(16, dtype=jnp.float8_e5m2fnuz)
//   >>> x
//   Array([0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 10, 12, 12, 12, 14, 16], dtype=float8_e5m2fnuz)
//   >>> x @ x
//   Array(1280, dtype=float8_e5m2fnuz)
//
// x @ x is the dot product of x with itself, accumulated in float (the
// exact sum of squares, 1252, is a float) and rounded once to e5m2fnuz.
#include <array>
#include <cstdint>

#include <gtest/gtest.h>

#include <minifloat/minifloat.hpp>

namespace {

std::array<mf::e5m2fnuz, 16> arange16() {
  std::array<mf::e5m2fnuz, 16> x{};
  for (int i = 0; i < 16; ++i) x[static_cast<std::size_t>(i)] = mf::e5m2fnuz(i);
  return x;
}

TEST(SpecExample, Arange16InE5m2fnuzRoundsToTheRfcsValues) {
  const std::array<float, 16> expected = {0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 10, 12, 12, 12, 14, 16};
  const std::array<mf::e5m2fnuz, 16> x = arange16();
  for (std::size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(static_cast<float>(x[i]), expected[i]) << "arange(16)[" << i << "]";
  }
  // 9 ties between 8 and 10 and goes to the even 8; 11 and 13 tie to 12.
  EXPECT_EQ(x[9].bits(), x[8].bits());
  // The same values from float and double sources as from int.
  for (int i = 0; i < 16; ++i) {
    const std::size_t at = static_cast<std::size_t>(i);
    EXPECT_EQ(static_cast<float>(mf::e5m2fnuz(static_cast<float>(i))), expected[at]) << i;
    EXPECT_EQ(static_cast<float>(mf::e5m2fnuz(static_cast<double>(i))), expected[at]) << i;
  }
}

// The expected value is the RFC's literal 1280, not a sum computed here. The
// library's result: the elements decoded to float by the library, multiplied
// and accumulated in float (as JAX's x @ x accumulates), the sum rounded once
// to e5m2fnuz by the library's conversion.
TEST(SpecExample, DotProductOfArange16WithItselfIs1280) {
  const std::array<mf::e5m2fnuz, 16> x = arange16();
  float accumulator = 0.0f;
  for (const mf::e5m2fnuz v : x) {
    const float f = v;
    accumulator += f * f;
  }
  const mf::e5m2fnuz dot(accumulator);
  EXPECT_EQ(static_cast<float>(dot), 1280.0f);
  // 1280 = 1.25 * 2^10 in e5m2fnuz (bias 16, RFC): sign 0, exponent
  // 10 + 16 = 26 = 0b11010, mantissa 0b01: 0b0'11010'01.
  EXPECT_EQ(+dot.bits(), 0x69);
}

}  // namespace
