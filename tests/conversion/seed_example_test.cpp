// The seed example: arange(16) converted to e5m2fnuz. Above 8 only even
// numbers are representable, and the odd ones are ties: 9 -> 8, 11 -> 12,
// 13 -> 12, 15 -> 16 (ties to the even significand). (The dot-product half
// of the example needs the arithmetic operators and is tested with them.)
#include <gtest/gtest.h>

#include <cstdint>

#include "reference/formats_under_test.hpp"

namespace {

TEST(SeedExample, Arange16ToE5m2fnuz) {
  const float expected[16] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 8, 10, 12, 12, 12, 14, 16};
  for (int i = 0; i < 16; ++i) {
    EXPECT_EQ(static_cast<float>(mf::e5m2fnuz(static_cast<float>(i))), expected[i]) << i;
    EXPECT_EQ(static_cast<float>(mf::e5m2fnuz(i)), expected[i]) << i;
    EXPECT_EQ(static_cast<float>(mf::e5m2fnuz(static_cast<double>(i))), expected[i]) << i;
  }
}

}  // namespace
