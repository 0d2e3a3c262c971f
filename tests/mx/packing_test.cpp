// Packed FP4 / FP6 storage: the layout (element 2i in the low nibble; FP6
// as a little-endian bit stream), every bit pattern through pack and
// unpack, every length 0..300 (odd counts, partial FP6 groups) at unaligned
// starts with guard bytes, on every ISA (in the test's name), against the bit-by-bit model; and
// float32 <-> packed encode/decode against bulk encode + the model.
#include <limits>

#include "mx_reference.hpp"
#include "mx_test_support.hpp"

namespace {

using namespace mx_test;

TEST(MxPacking, Fp4NibbleOrder) {
  const std::uint8_t codes[3] = {0x1, 0x2, 0xF};
  std::uint8_t packed[2] = {0xAA, 0xAA};
  mf::mx::pack_fp4(codes, packed, 3);
  EXPECT_EQ(packed[0], 0x21);  // element 0 low, element 1 high
  EXPECT_EQ(packed[1], 0x0F);  // trailing half byte: high nibble 0
}

TEST(MxPacking, Fp6BitStream) {
  // Elements 0b000001, 0b000010, 0b000011, 0b111111 -> bits
  // 000001 | 000010 << 6 | 000011 << 12 | 111111 << 18 = 0xFC3081.
  const std::uint8_t codes[5] = {0x01, 0x02, 0x03, 0x3F, 0x25};
  std::uint8_t packed[4] = {0xAA, 0xAA, 0xAA, 0xAA};
  mf::mx::pack_fp6(codes, packed, 5);
  EXPECT_EQ(packed[0], 0x81);
  EXPECT_EQ(packed[1], 0x30);
  EXPECT_EQ(packed[2], 0xFC);
  EXPECT_EQ(packed[3], 0x25);  // partial group: the top 2 bits are 0
  EXPECT_EQ(mf::mx::packed_bytes<6>(5), 4u);
  EXPECT_EQ(mf::mx::packed_bytes<4>(5), 3u);
}

class MxPackingKernels : public mft::per_isa {};

template <int Bits>
void check_lengths() {
  lcg rng{Bits};
  std::vector<std::uint8_t> codes(400);
  for (auto& c : codes) c = static_cast<std::uint8_t>(rng.next());  // high bits set too
  for (std::size_t n = 0; n <= 300; ++n) {
    for (std::size_t offset = 0; offset < 3; ++offset) {
      std::vector<std::uint8_t> masked(codes.begin() + static_cast<std::ptrdiff_t>(offset),
                                       codes.begin() + static_cast<std::ptrdiff_t>(offset + n));
      for (auto& c : masked) c = static_cast<std::uint8_t>(c & ((1u << Bits) - 1u));
      const std::vector<std::uint8_t> expected = mx_ref::pack(masked, Bits);
      std::vector<std::uint8_t> packed(expected.size() + 5, 0xA5);
      if (Bits == 4) {
        mf::mx::pack_fp4(codes.data() + offset, packed.data() + 1, n);
      } else {
        mf::mx::pack_fp6(codes.data() + offset, packed.data() + 1, n);
      }
      ASSERT_EQ(packed[0], 0xA5);
      for (std::size_t b = 0; b < expected.size(); ++b) {
        ASSERT_EQ(packed[b + 1], expected[b]) << "n " << n << " byte " << b;
      }
      for (std::size_t g = expected.size() + 1; g < packed.size(); ++g) ASSERT_EQ(packed[g], 0xA5);
      // Unpack, from a stream whose unused trailing bits are set.
      std::vector<std::uint8_t> stream = expected;
      if (!stream.empty() && (n * Bits) % 8) {
        stream.back() = static_cast<std::uint8_t>(stream.back() | (0xFFu << ((n * Bits) % 8)));
      }
      std::vector<std::uint8_t> back(n + 4, 0xA5);
      if (Bits == 4) {
        mf::mx::unpack_fp4(stream.data(), back.data(), n);
      } else {
        mf::mx::unpack_fp6(stream.data(), back.data(), n);
      }
      for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(back[i], masked[i]) << "n " << n << " i " << i;
      for (std::size_t g = n; g < back.size(); ++g) ASSERT_EQ(back[g], 0xA5);
    }
  }
}

TEST_P(MxPackingKernels, Fp4LengthsOffsetsAndGuards) { check_lengths<4>(); }
TEST_P(MxPackingKernels, Fp6LengthsOffsetsAndGuards) { check_lengths<6>(); }

// Every pattern of one packed byte (FP4: 256 = all nibble pairs) and every
// pattern of an FP6 group of three bytes (2^24 = all quadruples), repeated
// past the vector step.
TEST_P(MxPackingKernels, Fp4EveryBytePattern) {
  std::vector<std::uint8_t> packed(256 * 3);
  for (std::size_t i = 0; i < packed.size(); ++i) packed[i] = static_cast<std::uint8_t>(i);
  const std::size_t n = packed.size() * 2;
  const std::vector<std::uint8_t> expected = mx_ref::unpack(packed.data(), n, 4);
  std::vector<std::uint8_t> codes(n), again(packed.size());
  mf::mx::unpack_fp4(packed.data(), codes.data(), n);
  ASSERT_EQ(codes, expected);
  mf::mx::pack_fp4(codes.data(), again.data(), n);
  ASSERT_EQ(again, packed);
}

// Every ordered pair of 6-bit codes, at each of the four positions in a
// 3-byte group (the stream is shifted by 0..3 leading codes).
TEST_P(MxPackingKernels, Fp6EveryCodePairAtEveryPosition) {
  for (std::size_t lead = 0; lead < 4; ++lead) {
    std::vector<std::uint8_t> codes(lead, 0x15);
    for (unsigned a = 0; a < 64; ++a) {
      for (unsigned b = 0; b < 64; ++b) {
        codes.push_back(static_cast<std::uint8_t>(a));
        codes.push_back(static_cast<std::uint8_t>(b));
      }
    }
    const std::vector<std::uint8_t> expected = mx_ref::pack(codes, 6);
    std::vector<std::uint8_t> packed(expected.size()), back(codes.size());
    mf::mx::pack_fp6(codes.data(), packed.data(), codes.size());
    ASSERT_EQ(packed, expected);
    mf::mx::unpack_fp6(packed.data(), back.data(), codes.size());
    ASSERT_EQ(back, codes);
  }
}

template <class Fmt>
void check_direct(std::size_t n) {
  lcg rng{n};
  std::vector<float> in(n + 1);
  for (auto& f : in) {
    f = static_cast<float>(static_cast<std::int32_t>(rng.next())) * std::ldexp(1.0f, -28);
  }
  in[n / 2] = std::numeric_limits<float>::infinity();
  constexpr int bits = Fmt::format::bits;
  // Nearest-even, and stochastic rounding, whose stream runs on across the
  // kernel's chunks: element i rounds with the stream's element offset + i.
  const mf::conversion conversions[] = {
      mf::conversion::nearest_even(), mf::conversion::nearest_even().saturating(),
      mf::conversion::stochastic({5, 3}), mf::conversion::stochastic({5, 3, 8}).saturating()};
  for (const mf::conversion& c : conversions) {
    std::vector<std::uint8_t> codes(n);
    for (std::size_t i = 0; i < n; ++i) codes[i] = mf::round_to<Fmt>(in[i + 1], c.at_element(i)).bits();
    const std::vector<std::uint8_t> expected = mx_ref::pack(codes, bits);
    std::vector<std::uint8_t> packed(expected.size() + 2, 0xA5);
    mf::mx::encode_packed<Fmt>(in.data() + 1, packed.data(), n, c);
    for (std::size_t b = 0; b < expected.size(); ++b) ASSERT_EQ(packed[b], expected[b]) << b;
    ASSERT_EQ(packed[expected.size()], 0xA5);
    std::vector<float> out(n + 1, -1.0f);
    mf::mx::decode_packed<Fmt>(packed.data(), out.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      ASSERT_EQ(to_bits(out[i]), to_bits(static_cast<float>(Fmt::from_bits(codes[i])))) << i;
    }
    ASSERT_EQ(out[n], -1.0f);
  }
}

TEST_P(MxPackingKernels, DirectEncodeDecodeFp4) {
  for (std::size_t n : {0u, 1u, 63u, 64u, 65u, 1023u, 1024u, 3001u}) check_direct<mf::e2m1fn>(n);
}
TEST_P(MxPackingKernels, DirectEncodeDecodeFp6) {
  for (std::size_t n : {0u, 1u, 3u, 5u, 64u, 67u, 1025u, 3001u}) {
    check_direct<mf::e2m3fn>(n);
    check_direct<mf::e3m2fn>(n);
  }
}

MFT_INSTANTIATE_PER_ISA(MxPackingKernels);

}  // namespace
