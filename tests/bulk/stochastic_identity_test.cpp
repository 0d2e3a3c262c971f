// Bulk stochastic rounding gives, on every ISA of this machine, the bits of
// the scalar definition: element i is round_to_stochastic(x[i],
// stochastic_random_bits(seed, offset + i, random_bits)), for every format,
// both overflow modes, float/bfloat16/binary16 sources, every start offset
// and chunking.
#include <algorithm>

#include "support/bulk_entries.hpp"
#include "support/stochastic_helpers.hpp"

namespace {

using namespace stochastic_test;
using bulk_test::first_difference;

MFT_TYPED_PER_ISA_TEST(StochasticBulk, MatchesTheScalarDefinition, mft::all_format_list,
                       mft::format_names) {
  using S = typename TypeParam::storage_type;
  const std::vector<float> in = rounding_inputs<TypeParam>();
  for (mf::overflow ovf : kOverflows) {
    // Each lane width (8, 16, 32 bits of the stream an element) with all of
    // its bits used and with fewer.
    for (int bits : {32, 24, 16, 12, 8, 5, 1}) {
      const std::uint64_t seed = 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(bits);
      const auto expected = reference_stochastic<TypeParam>(in, seed, 0, ovf, bits);
      std::vector<S> got(in.size());
      mft::bulk_encode<TypeParam>(in.data(), got.data(), in.size(),
                                  mf::conversion::stochastic({seed, 0, bits}).with_overflow(ovf));
      const long long d = first_difference(got.data(), expected.data(), in.size());
      ASSERT_EQ(d, -1) << mf::target::isa_name(isa) << " bits=" << bits << " input 0x"
                       << std::hex << float_bits(in[static_cast<std::size_t>(d)]);
    }
  }
}

// Every random_bits 1..32 (the lane width and the shift that aligns the
// lane with the top of the discarded fraction both depend on it), the
// overflow mode alternating so that each lane width sees both.
MFT_TYPED_PER_ISA_TEST(StochasticBulk, EveryRandomBitsCount, mft::all_format_list,
                       mft::format_names) {
  using S = typename TypeParam::storage_type;
  const std::vector<float> in = rounding_inputs<TypeParam>();
  for (int bits = 1; bits <= 32; ++bits) {
    const mf::overflow ovf = kOverflows[bits % 2];
    const auto expected = reference_stochastic<TypeParam>(in, 77, 3, ovf, bits);
    std::vector<S> got(in.size());
    mft::bulk_encode<TypeParam>(in.data(), got.data(), in.size(),
                                mf::conversion::stochastic({77, 3, bits}).with_overflow(ovf));
    const long long d = first_difference(got.data(), expected.data(), in.size());
    ASSERT_EQ(d, -1) << mf::target::isa_name(isa) << " bits=" << bits << " input 0x"
                     << std::hex << float_bits(in[static_cast<std::size_t>(d)]);
  }
}

MFT_TYPED_PER_ISA_TEST(StochasticBulk, SixteenBitSourcesRoundAsTheirExactFloatValue, mft::all_format_list,
                       mft::format_names) {
  using S = typename TypeParam::storage_type;
  std::mt19937 gen(7);
  std::vector<mf::bfloat16> bf(3000);
  std::vector<mf::binary16> hf(3000);
  for (std::size_t i = 0; i < bf.size(); ++i) {
    bf[i] = mf::bfloat16::from_bits(static_cast<std::uint16_t>(gen()));
    hf[i] = mf::binary16::from_bits(static_cast<std::uint16_t>(gen()));
  }
  for (mf::overflow ovf : kOverflows) {
    const auto expected_bf = reference_stochastic<TypeParam>(bf, 11, 5, ovf);
    const auto expected_hf = reference_stochastic<TypeParam>(hf, 11, 5, ovf);
    for (std::size_t i = 0; i < bf.size(); ++i) {
      // The scalar library rounds a 16-bit source directly: same result.
      ASSERT_EQ(expected_bf[i],
                mf::round_to_stochastic<TypeParam>(bf[i], mf::stochastic_random_word(11, 5 + i),
                                                   ovf)
                    .bits());
      ASSERT_EQ(expected_hf[i],
                mf::round_to_stochastic<TypeParam>(hf[i], mf::stochastic_random_word(11, 5 + i),
                                                   ovf)
                    .bits());
    }
    std::vector<S> got(bf.size());
    mft::bulk_encode<TypeParam>(bf.data(), got.data(), bf.size(),
                                mf::conversion::stochastic({11, 5}).with_overflow(ovf));
    EXPECT_EQ(first_difference(got.data(), expected_bf.data(), bf.size()), -1)
        << "bfloat16 " << mf::target::isa_name(isa);
    mft::bulk_encode<TypeParam>(hf.data(), got.data(), hf.size(),
                                mf::conversion::stochastic({11, 5}).with_overflow(ovf));
    EXPECT_EQ(first_difference(got.data(), expected_hf.data(), hf.size()), -1)
        << "binary16 " << mf::target::isa_name(isa);
  }
}

class StochasticBulkChunks : public mft::per_isa {};

// Heads and tails: every length 0..200 and lengths around the kernels'
// steps (up to 512 elements), at every start offset mod 16 (a Philox block
// holds 4, 8 or 16 elements' lanes) and unaligned input addresses, for each
// lane width.
TEST_P(StochasticBulkChunks, AllLengthsOffsetsAndAlignments) {
  const mf::target::isa isa = GetParam();
  std::vector<float> data = rounding_inputs<mf::e4m3fn>();
  data.resize(1200);
  std::vector<std::size_t> lengths;
  for (std::size_t n = 0; n <= 200; ++n) lengths.push_back(n);
  for (std::size_t n : {255, 256, 257, 511, 512, 513, 527, 1024 + 100}) lengths.push_back(n);
  for (int bits : {32, 16, 8}) {
    for (std::size_t start = 0; start < 3; ++start) {
      for (std::uint64_t offset = 0; offset < 17; ++offset) {
        for (std::size_t n : lengths) {
          const std::vector<float> in(data.begin() + static_cast<long>(start),
                                      data.begin() + static_cast<long>(start + n));
          const auto expected =
              reference_stochastic<mf::e4m3fn>(in, 3, offset, mf::overflow::saturating, bits);
          std::vector<std::uint8_t> got(n + 2, 0xAB);
          mft::bulk_encode<mf::e4m3fn>(data.data() + start, got.data() + 1, n,
                                       mf::conversion::stochastic({3, offset, bits})
                                           .with_overflow(mf::overflow::saturating));
          ASSERT_EQ(got[0], 0xAB);
          ASSERT_EQ(got[n + 1], 0xAB) << "wrote past the end";
          ASSERT_EQ(first_difference(got.data() + 1, expected.data(), n), -1)
              << mf::target::isa_name(isa) << " n=" << n << " offset=" << offset
              << " bits=" << bits;
        }
      }
    }
  }
}

// A tensor encoded in chunks (each call passing its start as offset) equals
// one call, whatever the chunk sizes; also across the Philox counter's
// 32-bit boundary (element 2^34 starts block 2^32).
TEST_P(StochasticBulkChunks, ChunkedEqualsWhole) {
  const mf::target::isa isa = GetParam();
  std::mt19937 gen(99);
  std::normal_distribution<float> normal(0.0f, 2.0f);
  std::vector<float> in(20000);
  for (float& f : in) f = normal(gen);
  // Element 2^34 starts Philox block 2^32 with 32-bit lanes; with 8-bit
  // lanes that is element 2^36.
  for (std::uint64_t base : {std::uint64_t{0}, (std::uint64_t{1} << 34) - 9001,
                             (std::uint64_t{1} << 36) - 9001}) {
    for (int bits : {32, 16, 8}) {
      const auto expected =
          reference_stochastic<mf::e5m2>(in, 42, base, mf::overflow::non_saturating, bits);
      std::vector<std::uint8_t> whole(in.size()), chunked(in.size());
      mft::bulk_encode<mf::e5m2>(in.data(), whole.data(), in.size(),
                                 mf::conversion::stochastic({42, base, bits}));
      EXPECT_EQ(first_difference(whole.data(), expected.data(), in.size()), -1)
          << mf::target::isa_name(isa) << " base " << base << " bits " << bits;
      std::size_t done = 0;
      std::uniform_int_distribution<std::size_t> chunk(1, 700);
      while (done < in.size()) {
        const std::size_t n = std::min(chunk(gen), in.size() - done);
        mft::bulk_encode<mf::e5m2>(in.data() + done, chunked.data() + done, n,
                                   mf::conversion::stochastic({42, base + done, bits}));
        done += n;
      }
      EXPECT_EQ(whole, chunked) << mf::target::isa_name(isa) << " bits " << bits;
    }
  }
}

// Different seeds give different streams (a sanity check that the seed
// reaches the kernels: with 1000 inputs halfway between neighbours, two
// seeds agree on all of them with probability 2^-1000).
TEST_P(StochasticBulkChunks, TheSeedReachesEveryKernel) {
  const mf::target::isa isa = GetParam();
  std::vector<float> in(1000, 1.0625f);  // halfway between 1 and 1.125 in e4m3fn
  std::vector<std::uint8_t> a(in.size()), b(in.size());
  mft::bulk_encode<mf::e4m3fn>(in.data(), a.data(), in.size(), mf::conversion::stochastic({1}));
  mft::bulk_encode<mf::e4m3fn>(in.data(), b.data(), in.size(), mf::conversion::stochastic({2}));
  EXPECT_NE(a, b) << mf::target::isa_name(isa);
}

MFT_INSTANTIATE_PER_ISA(StochasticBulkChunks);

}  // namespace
