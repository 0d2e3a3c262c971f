// The element-wise fast path (kernels/eltwise_path.hpp: bulk decoders, the
// active ISA's arithmetic, bulk encoders) against the reference loop, bit
// for bit, on every ISA this machine runs: every float type combination of
// table `any`, the three operations, the three shapes of B, FP16 and BF16
// scales (some so large or so fine that add and sub leave float32 and go to
// the reference), wide-range codes and the edge sets (zeros, subnormals,
// the largest values, Inf, NaN), saturating and non-saturating outputs,
// and runs longer than one buffer (1024 elements).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <minifloat/hybrid.hpp>

#include "hybrid_test_support.hpp"
#include "kernel_test_support.hpp"
#include "support/test_level.hpp"

namespace {

namespace hy = mf::hybrid;
using T = hy::element_type;

class HybridEltwiseKernels : public ::testing::TestWithParam<mf::target::isa> {
 protected:
  void SetUp() override {
    if (!mf::target::isa_supported(GetParam())) GTEST_SKIP() << mft::why_not_supported(GetParam());
    mf::target::set_isa(GetParam());
  }
  void TearDown() override { mf::target::reset_isa_from_environment(); }
};

std::vector<std::uint32_t> run(T ta, T tb, T tc, const std::vector<std::uint32_t>& a,
                               const std::vector<std::uint32_t>& b, std::size_t rows,
                               std::size_t columns, hy::eltwise_options o) {
  std::vector<std::uint32_t> c(rows * columns, 0xA5A5A5A5u);
  o.check_z_multiple = false;
  hy::eltwise(hy::table_id::any, ta, tb, tc, a.data(), b.data(), b.size(), c.data(), rows, columns, o);
  return c;
}

// A scale that is a value of the scale type: 2^e times 1, 1.5 or 1.75.
float scale_of(T scale_type, int e, std::mt19937_64& rng) {
  const float m[] = {1.0f, 1.5f, 1.75f, -1.25f};
  const float v = std::ldexp(m[rng() % 4], e);
  return scale_type == T::bf16 ? static_cast<float>(mf::bfloat16(v)) : static_cast<float>(mf::binary16(v));
}

TEST_P(HybridEltwiseKernels, EveryTypeOperationAndShapeAgainstTheReference) {
  std::mt19937_64 rng(41);
  const T floats[] = {T::hf8, T::bf8, T::f16, T::bf16};
  const T outputs[] = {T::hf8, T::bf8, T::f16, T::bf16, T::f32};
  int fast = 0, compared = 0;
  for (T ta : floats) {
    for (T tb : floats) {
      for (T tc : outputs) {
        if (!hy::eltwise_supported(hy::table_id::any, ta, tb, tc)) continue;
        for (const hy::eltwise_op op : {hy::eltwise_op::add, hy::eltwise_op::sub, hy::eltwise_op::mul}) {
          const std::size_t rows = 1 + rng() % 5, columns = 1 + rng() % (compared % 4 == 0 ? 1300 : 70);
          std::vector<std::uint32_t> a(rows * columns);
          kernel_test::fill(a, ta, rng, compared % 2 == 0);
          const std::size_t shapes[] = {rows * columns, 1, columns};
          std::vector<std::uint32_t> b(shapes[compared % 3]);
          kernel_test::fill(b, tb, rng, compared % 2 == 1);
          hy::eltwise_options o;
          o.op = op;
          // The scale type must be the 16-bit operand's, if there is one.
          o.scale_type = (ta == T::bf16 || tb == T::bf16) ? T::bf16 : (ta == T::f16 || tb == T::f16) ? T::f16
                                                                     : (rng() % 2 ? T::bf16 : T::f16);
          // Exponents from moderate to extreme (BF16 2^+-120: add and sub
          // leave float32 there and take the reference).
          const int range = o.scale_type == T::bf16 ? 120 : 12;
          const auto exponent = [&] { return static_cast<int>(rng() % (2 * range + 1)) - range; };
          if (hy::is_fp8(ta)) o.a_scale = {true, scale_of(o.scale_type, exponent(), rng)};
          if (hy::is_fp8(tb)) o.b_scale = {true, scale_of(o.scale_type, exponent(), rng)};
          o.output.on_overflow = rng() % 2 ? mf::overflow::saturating : mf::overflow::non_saturating;
          const bool takes_fast = hy::kernels::has_fast_eltwise(ta, tb, tc, o);
          fast += takes_fast ? 1 : 0;
          const auto got = run(ta, tb, tc, a, b, rows, columns, o);
          o.reference_only = true;
          const auto want = run(ta, tb, tc, a, b, rows, columns, o);
          for (std::size_t i = 0; i < got.size(); ++i) {
            ASSERT_EQ(got[i], want[i]) << hy::name(ta) << " " << hy::name(tb) << " -> " << hy::name(tc)
                                       << " op " << static_cast<int>(op) << " element " << i << " of "
                                       << rows << " x " << columns << " B " << b.size()
                                       << (takes_fast ? " (fast)" : " (reference)");
          }
          ++compared;
        }
      }
    }
  }
  EXPECT_GT(fast, compared / 2) << "most requests must take the fast path, or the comparison is vacuous";
}

// A scaled operand past float32's range: 57344 * 2^120 (E5M2 with a BF16
// scale). a - b with a = b is exactly 0 (the reference, in double); in
// float32 it would be Inf - Inf = NaN, so add and sub take the reference
// here, and mul (defined through float32) keeps the fast path.
TEST_P(HybridEltwiseKernels, ScaledOperandsPastFloatRangeTakeTheReference) {
  const std::vector<std::uint32_t> a(16, hybrid_test::encode(T::bf8, 57344.0)), b = a;
  hy::eltwise_options o;
  o.op = hy::eltwise_op::sub;
  o.scale_type = T::bf16;
  o.a_scale = {true, 0x1p120f};
  o.b_scale = {true, 0x1p120f};
  EXPECT_FALSE(hy::kernels::has_fast_eltwise(T::bf8, T::bf8, T::f32, o));
  for (const std::uint32_t c : run(T::bf8, T::bf8, T::f32, a, b, 1, 16, o)) EXPECT_EQ(c, 0u);
  o.op = hy::eltwise_op::mul;
  EXPECT_TRUE(hy::kernels::has_fast_eltwise(T::bf8, T::bf8, T::f32, o));
  o.a_scale = {true, 0x1p-20f};
  o.b_scale = {true, 0x1p-20f};
  o.op = hy::eltwise_op::add;
  EXPECT_TRUE(hy::kernels::has_fast_eltwise(T::bf8, T::bf8, T::f32, o));
}

// One scaled operand past float32's range, the other within it: HF8 448 *
// 2^119 = 1.75 * 2^127 fits float32, BF8 -57344 * 2^113 = -1.75 * 2^128
// does not. The sum is exactly -1.75 * 2^127, a BF16 value (0xFF60); a
// float32 product b * sb would be -Inf, and so would the sum. Each scaled
// operand must fit float32 for the fast path, not just one, and not
// "within twice the range".
TEST_P(HybridEltwiseKernels, OneScaledOperandPastFloatRangeTakesTheReference) {
  const std::vector<std::uint32_t> a(16, hybrid_test::encode(T::hf8, 448.0)),
      b(16, hybrid_test::encode(T::bf8, -57344.0));
  hy::eltwise_options o;
  o.scale_type = T::bf16;
  o.a_scale = {true, 0x1p119f};
  o.b_scale = {true, 0x1p113f};
  for (const std::uint32_t c : run(T::hf8, T::bf8, T::bf16, a, b, 1, 16, o)) EXPECT_EQ(c, 0xFF60u);
  o.reference_only = true;
  for (const std::uint32_t c : run(T::hf8, T::bf8, T::bf16, a, b, 1, 16, o)) EXPECT_EQ(c, 0xFF60u);
}

// The typed entry takes the same path: E4M3 x E4M3 -> BF16 with FP16 scales.
TEST_P(HybridEltwiseKernels, TypedEntry) {
  std::mt19937_64 rng(42);
  const std::size_t rows = 3, columns = 1100;
  std::vector<mf::e4m3fn> a(rows * columns), b(rows * columns);
  for (auto& x : a) x = mf::e4m3fn::from_bits(static_cast<std::uint8_t>(rng()));
  for (auto& x : b) x = mf::e4m3fn::from_bits(static_cast<std::uint8_t>(rng()));
  for (const hy::eltwise_op op : {hy::eltwise_op::add, hy::eltwise_op::sub, hy::eltwise_op::mul}) {
    hy::eltwise_options o;
    o.op = op;
    o.a_scale = {true, 0.375f};
    o.b_scale = {true, 1024.0f};
    ASSERT_TRUE(hy::kernels::has_fast_eltwise(T::hf8, T::hf8, T::bf16, o));
    std::vector<mf::bfloat16> fast(rows * columns), reference(rows * columns);
    hy::eltwise<hy::any>(a.data(), b.data(), b.size(), fast.data(), rows, columns, o);
    o.reference_only = true;
    hy::eltwise<hy::any>(a.data(), b.data(), b.size(), reference.data(), rows, columns, o);
    for (std::size_t i = 0; i < fast.size(); ++i) ASSERT_EQ(fast[i].bits(), reference[i].bits()) << i;
  }
}

std::string isa_test_name(const ::testing::TestParamInfo<mf::target::isa>& info) {
  return mf::target::isa_name(info.param);
}

INSTANTIATE_TEST_SUITE_P(EveryIsa, HybridEltwiseKernels, ::testing::ValuesIn(mft::architecture_isas()),
                         isa_test_name);

}  // namespace
