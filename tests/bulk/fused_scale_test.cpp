// The fused scale and the fused absolute maximum of the bulk kernels: on
// every ISA, encode with a fused scale gives round(x * scale) with the product
// rounded to float first, decode with a scale gives float(v) * scale, and the amax step
// return max |x| of the unscaled input (NaN if any input is NaN).
#include <cmath>
#include <limits>

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

#include "support/bulk_entries.hpp"
#include "support/stochastic_helpers.hpp"

namespace {

using namespace stochastic_test;
using bulk_test::first_difference;

using ScaleFormats = mft::type_list<mf::e4m3fn, mf::e5m2, mf::e4m3fnuz, mf::e2m1fn,
                                    mf::e8m0fnu, mf::bfloat16>;

const float kScales[] = {0.75f, 1.0f / 1024, 3.1e5f, 1e-30f, -2.5f};

// The reference max |x|, on doubles: NaN wins, else the largest magnitude.
float reference_amax(const std::vector<float>& in) {
  double m = 0;
  for (float f : in) {
    if (std::isnan(f)) return std::numeric_limits<float>::quiet_NaN();
    m = std::max(m, std::fabs(static_cast<double>(f)));
  }
  return static_cast<float>(m);
}

bool same_float(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || float_bits(a) == float_bits(b);
}

MFT_TYPED_PER_ISA_TEST(FusedScale, EncodeScaledRoundsTheFloatProductOnce, ScaleFormats,
                       mft::format_names) {
  using S = typename TypeParam::storage_type;
  const std::vector<float> in = rounding_inputs<TypeParam>();
  for (float scale : kScales) {
    for (mf::rounding mode : bulk_test::kModes) {
      for (mf::overflow ovf : kOverflows) {
        std::vector<S> expected(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) {
          const float product = in[i] * scale;
          expected[i] = mf::round_to<TypeParam>(product, mode, ovf).bits();
        }
        std::vector<S> got(in.size());
        mft::bulk_encode<TypeParam>(in.data(), got.data(), in.size(),
                                    mf::conversion::with(mode, ovf), {scale, nullptr});
        ASSERT_EQ(first_difference(got.data(), expected.data(), in.size()), -1)
            << mf::target::isa_name(isa) << " scale " << scale << " "
            << bulk_test::mode_name(mode);
        std::vector<S> got_amax(in.size());
        float amax = 0.0f;
        mft::bulk_encode<TypeParam>(in.data(), got_amax.data(), in.size(),
                                    mf::conversion::with(mode, ovf), {scale, &amax});
        ASSERT_EQ(got_amax, expected) << mf::target::isa_name(isa);
        ASSERT_TRUE(same_float(amax, reference_amax(in))) << amax;
      }
    }
  }
}

#if defined(__x86_64__) || defined(_M_X64)
// The product x * scale is rounded as the scalar expression is, in the
// current floating-point environment (rounding direction, FTZ, DAZ), and
// the encode itself does not depend on it: every ISA agrees with the scalar
// path under every MXCSR setting.
MFT_TYPED_PER_ISA_TEST(FusedScale, FollowsTheFloatingPointEnvironmentAsScalarCode,
                       ScaleFormats, mft::format_names) {
  using S = typename TypeParam::storage_type;
  const std::vector<float> in = rounding_inputs<TypeParam>();
  const unsigned saved = _mm_getcsr();
  for (unsigned csr : {0x1F80u, 0x3F80u, 0x5F80u, 0x7F80u, 0x1FC0u, 0x9F80u, 0x9FC0u}) {
    for (float scale : {0.7f, 1e-30f}) {
      _mm_setcsr(csr);
      std::vector<S> expected(in.size()), expected_sr(in.size());
      for (std::size_t i = 0; i < in.size(); ++i) {
        const float product = in[i] * scale;
        expected[i] = mf::round_to<TypeParam>(product).bits();
        expected_sr[i] =
            mf::round_to_stochastic<TypeParam>(product, mf::stochastic_random_word(2, i)).bits();
      }
      std::vector<S> got(in.size()), got_sr(in.size());
      mft::bulk_encode<TypeParam>(in.data(), got.data(), in.size(), {}, {scale, nullptr});
      mft::bulk_encode<TypeParam>(in.data(), got_sr.data(), in.size(),
                                  mf::conversion::stochastic({2}), {scale, nullptr});
      const bool same = got == expected && got_sr == expected_sr;
      _mm_setcsr(saved);
      ASSERT_TRUE(same) << mf::target::isa_name(isa) << " mxcsr 0x" << std::hex << csr;
      _mm_setcsr(csr);
    }
  }
  _mm_setcsr(saved);
}
#endif

// A stochastic encode starting inside a Philox block rounds the elements up
// to the first block boundary one by one before the vector loop: the amax
// covers them as well as the rest, wherever the largest |x| is.
MFT_TYPED_PER_ISA_TEST(FusedScale, StochasticAmaxCoversTheElementsBeforeTheFirstBlock,
                       ScaleFormats, mft::format_names) {
  using S = typename TypeParam::storage_type;
  for (std::uint64_t offset = 0; offset < 8; ++offset) {
    for (const std::size_t largest_at : {0, 1, 2, 3, 63}) {
      std::vector<float> in(64, 0.5f);
      in[largest_at] = -3.0f;
      std::vector<S> out(in.size());
      float amax = 0.0f;
      mft::bulk_encode<TypeParam>(in.data(), out.data(), in.size(),
                                  mf::conversion::stochastic({7, offset}), {1.0f, &amax});
      EXPECT_EQ(amax, 3.0f) << mf::target::isa_name(isa) << " offset " << offset
                            << ", largest at " << largest_at;
    }
  }
}

MFT_TYPED_PER_ISA_TEST(FusedScale, StochasticScaledMatchesTheScalarDefinition, ScaleFormats,
                       mft::format_names) {
  using S = typename TypeParam::storage_type;
  const std::vector<float> in = rounding_inputs<TypeParam>();
  std::vector<mf::bfloat16> bf(in.size());
  std::vector<mf::binary16> hf(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    bf[i] = mf::bfloat16(in[i]);
    hf[i] = mf::binary16(in[i]);
  }
  for (float scale : kScales) {
    for (mf::overflow ovf : kOverflows) {
      const auto expected = reference_stochastic<TypeParam>(in, 8, 1, ovf, 32, &scale);
      const auto expected_bf = reference_stochastic<TypeParam>(bf, 8, 1, ovf, 32, &scale);
      const auto expected_hf = reference_stochastic<TypeParam>(hf, 8, 1, ovf, 32, &scale);
      std::vector<S> got(in.size());
      mft::bulk_encode<TypeParam>(in.data(), got.data(), in.size(),
                                  mf::conversion::stochastic({8, 1}).with_overflow(ovf),
                                  {scale, nullptr});
      ASSERT_EQ(got, expected) << mf::target::isa_name(isa) << " scale " << scale;
      float amax = 0.0f;
      mft::bulk_encode<TypeParam>(in.data(), got.data(), in.size(),
                                  mf::conversion::stochastic({8, 1}).with_overflow(ovf),
                                  {scale, &amax});
      ASSERT_EQ(got, expected) << mf::target::isa_name(isa);
      ASSERT_TRUE(same_float(amax, reference_amax(in)));
      mft::bulk_encode<TypeParam>(bf.data(), got.data(), bf.size(),
                                  mf::conversion::stochastic({8, 1}).with_overflow(ovf),
                                  {scale, nullptr});
      ASSERT_EQ(got, expected_bf) << "bfloat16 " << mf::target::isa_name(isa);
      mft::bulk_encode<TypeParam>(hf.data(), got.data(), hf.size(),
                                  mf::conversion::stochastic({8, 1}).with_overflow(ovf),
                                  {scale, nullptr});
      ASSERT_EQ(got, expected_hf) << "binary16 " << mf::target::isa_name(isa);
    }
  }
}

// Every binary16 and bfloat16 pattern with the fused steps. These sources
// widen to float a chunk at a time before the float kernels (encode.hpp), so
// this checks each pattern's widening, the amax over all chunks and each
// chunk's position in the random stream (2^16 elements span many chunks).
template <class Fmt, class Src>
void check_every_16_bit_pattern_fused(mf::target::isa isa, const char* source) {
  using S = typename Fmt::storage_type;
  std::vector<Src> in(1u << 16);
  std::vector<float> widened(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = Src::from_bits(static_cast<std::uint16_t>(i));
    widened[i] = static_cast<float>(in[i]);
  }
  const float scale = 0.75f;
  const float expected_amax = reference_amax(widened);
  std::vector<S> got(in.size()), expected(in.size());
  for (mf::overflow ovf : kOverflows) {
    float amax = 0.0f;
    mft::bulk_encode<Fmt>(in.data(), got.data(), in.size(),
                          mf::conversion::stochastic({5, 7}).with_overflow(ovf), {scale, &amax});
    expected = reference_stochastic<Fmt>(in, 5, 7, ovf, 32, &scale);
    const long long d = first_difference(got.data(), expected.data(), in.size());
    ASSERT_EQ(d, -1) << source << " stochastic, " << mf::target::isa_name(isa) << ", pattern " << d;
    ASSERT_TRUE(same_float(amax, expected_amax)) << source << " " << mf::target::isa_name(isa);
    for (mf::rounding mode : bulk_test::kModes) {
      for (std::size_t i = 0; i < in.size(); ++i) {
        expected[i] = mf::round_to<Fmt>(widened[i] * scale, mode, ovf).bits();
      }
      amax = 0.0f;
      mft::bulk_encode<Fmt>(in.data(), got.data(), in.size(), mf::conversion::with(mode, ovf),
                            {scale, &amax});
      const long long e = first_difference(got.data(), expected.data(), in.size());
      ASSERT_EQ(e, -1) << source << " " << bulk_test::mode_name(mode) << ", "
                       << mf::target::isa_name(isa) << ", pattern " << e;
      ASSERT_TRUE(same_float(amax, expected_amax)) << source << " " << mf::target::isa_name(isa);
    }
  }
}

MFT_TYPED_PER_ISA_TEST(FusedScale, EverySixteenBitPatternWithEveryFusedStep, ScaleFormats,
                       mft::format_names) {
  check_every_16_bit_pattern_fused<TypeParam, mf::bfloat16>(isa, "bfloat16");
  check_every_16_bit_pattern_fused<TypeParam, mf::binary16>(isa, "binary16");
}

MFT_TYPED_PER_ISA_TEST(FusedScale, DecodeScaledIsTheExactValueTimesTheScale, ScaleFormats,
                       mft::format_names) {
  using F = typename TypeParam::format;
  using S = typename TypeParam::storage_type;
  std::vector<S> codes;
  for (unsigned b = 0; b < (1u << F::bits); ++b) codes.push_back(static_cast<S>(b));
  for (int extra = 0; extra < 37; ++extra) codes.push_back(static_cast<S>(extra * 7));
  for (float scale : kScales) {
    std::vector<float> expected(codes.size());
    for (std::size_t i = 0; i < codes.size(); ++i) {
      expected[i] = static_cast<float>(TypeParam::from_bits(codes[i])) * scale;
    }
    std::vector<float> got(codes.size());
    mft::bulk_decode<TypeParam>(codes.data(), got.data(), codes.size(), scale);
    for (std::size_t i = 0; i < codes.size(); ++i) {
      ASSERT_TRUE(same_float(got[i], expected[i]))
          << mf::target::isa_name(isa) << " code " << +codes[i] << " scale " << scale;
    }
  }
}

class Amax : public mft::per_isa {};

TEST_P(Amax, NanPropagatesInfCountsEmptyIsZero) {
  const mf::target::isa isa = GetParam();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  for (std::size_t n : {0u, 1u, 7u, 16u, 63u, 64u, 65u, 200u, 1000u}) {
    std::vector<float> in(n);
    for (std::size_t i = 0; i < n; ++i) in[i] = std::sin(static_cast<float>(i)) * 3.0f;
    for (std::size_t i = 0; i < n; i += 5) in[i] = -in[i];
    const float expected = reference_amax(in);
    EXPECT_TRUE(same_float(mf::bulk::amax(in.data(), n), expected)) << n;
    EXPECT_TRUE(same_float(mf::bulk::amax(in.data(), n, mf::bulk::amax_nan::finite_only),
                           expected));
    if (n == 0) {
      EXPECT_EQ(float_bits(mf::bulk::amax(in.data(), 0)), 0u);
      continue;
    }
    // A NaN or Inf anywhere: the head, the middle, the last element.
    for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
      std::vector<float> with = in;
      with[at] = -nan;
      EXPECT_TRUE(std::isnan(mf::bulk::amax(with.data(), n))) << mf::target::isa_name(isa);
      EXPECT_EQ(float_bits(mf::bulk::amax(with.data(), n)), 0x7FC00000u);
      with[at] = -inf;
      EXPECT_EQ(mf::bulk::amax(with.data(), n), inf);
      // finite_only skips the Inf as it skips a NaN.
      std::vector<float> without = in;
      without[at] = 0.0f;
      const float finite_inf =
          mf::bulk::amax(with.data(), n, mf::bulk::amax_nan::finite_only);
      EXPECT_TRUE(same_float(finite_inf, reference_amax(without))) << mf::target::isa_name(isa);
      with[at] = nan;
      const float finite = mf::bulk::amax(with.data(), n, mf::bulk::amax_nan::finite_only);
      EXPECT_TRUE(same_float(finite, reference_amax(without))) << mf::target::isa_name(isa);
    }
  }
  const float negative_zero = -0.0f;
  EXPECT_EQ(float_bits(mf::bulk::amax(&negative_zero, 1)), 0u);
}

MFT_INSTANTIATE_PER_ISA(Amax);

}  // namespace
