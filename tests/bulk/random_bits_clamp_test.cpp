// random_bits outside 1..32 is clamped, not an error: below 1 counts as 1,
// above 32 as 32, in mf::round_to_stochastic, mf::stochastic_random_bits and
// the bulk stochastic_rounding (on every ISA the machine has), as
// docs/stochastic-rounding.md says.
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>

#include "support/isa_tests.hpp"

namespace {

std::vector<float> inputs() {
  std::mt19937 gen(2718);
  std::uniform_real_distribution<float> uniform(-500.0f, 500.0f);
  std::vector<float> v(999);  // odd: every tail length of the kernels
  for (auto& x : v) x = uniform(gen);
  return v;
}

std::vector<std::uint8_t> bulk(const std::vector<float>& in, int random_bits) {
  std::vector<std::uint8_t> out(in.size());
  mf::bulk::encode<mf::e4m3fn>(in.data(), out.data(), in.size(),
                               mf::conversion::stochastic({77, 5, random_bits}));
  return out;
}

TEST(StochasticRandomBitsClamp, ScalarAndStream) {
  for (std::uint64_t i = 0; i < 64; ++i) {
    EXPECT_EQ(mf::stochastic_random_bits(9, i, 0), mf::stochastic_random_bits(9, i, 1));
    EXPECT_EQ(mf::stochastic_random_bits(9, i, -7), mf::stochastic_random_bits(9, i, 1));
    EXPECT_EQ(mf::stochastic_random_bits(9, i, 33), mf::stochastic_random_bits(9, i, 32));
    EXPECT_EQ(mf::stochastic_random_bits(9, i, 1000), mf::stochastic_random_bits(9, i, 32));
  }
  const float x = 1.0625f;  // halfway between the e4m3fn neighbours 1 and 1.125
  for (std::uint32_t r : {0u, 1u, 0x40000000u, 0xC0000000u, 0xFFFFFFFFu}) {
    EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(x, r, mf::overflow::non_saturating, 0).bits(),
              mf::round_to_stochastic<mf::e4m3fn>(x, r, mf::overflow::non_saturating, 1).bits());
    EXPECT_EQ(mf::round_to_stochastic<mf::e4m3fn>(x, r, mf::overflow::non_saturating, 40).bits(),
              mf::round_to_stochastic<mf::e4m3fn>(x, r, mf::overflow::non_saturating, 32).bits());
  }
}

class StochasticRandomBitsClampBulk : public mft::per_isa {};

TEST_P(StochasticRandomBitsClampBulk, ClampsLikeTheScalarRule) {
  const std::vector<float> in = inputs();
  EXPECT_EQ(bulk(in, 0), bulk(in, 1));
  EXPECT_EQ(bulk(in, -3), bulk(in, 1));
  EXPECT_EQ(bulk(in, 33), bulk(in, 32));
  EXPECT_EQ(bulk(in, 64), bulk(in, 32));
  // And the clamped calls are the scalar rule with the clamped width.
  const std::vector<std::uint8_t> one = bulk(in, 0);
  for (std::size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(one[i], mf::round_to_stochastic<mf::e4m3fn>(
                          in[i], mf::stochastic_random_bits(77, 5 + i, 1),
                          mf::overflow::non_saturating, 1)
                          .bits());
  }
}

MFT_INSTANTIATE_PER_ISA(StochasticRandomBitsClampBulk);

}  // namespace
