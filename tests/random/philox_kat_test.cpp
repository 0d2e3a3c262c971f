// Philox4x32 against the published known-answer vectors, and the mapping of
// stochastic_random_word onto it.
//
// The vectors are the philox4x32 lines of Random123's tests/kat_vectors
// (D. E. Shaw Research, github.com/DEShawResearch/random123), columns
// counter[4] key[2] -> output[4]:
//
//   philox4x32  7 00000000 00000000 00000000 00000000 00000000 00000000   5f6fb709 0d893f64 4f121f81 4f730a48
//   philox4x32  7 ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff   5207ddc2 45165e59 4d8ee751 8c52f662
//   philox4x32  7 243f6a88 85a308d3 13198a2e 03707344 a4093822 299f31d0   4dfccaba 190a87f0 c47362ba b6b5242a
//   philox4x32 10 00000000 00000000 00000000 00000000 00000000 00000000   6627e8d5 e169c58d bc57ac4c 9b00dbd8
//   philox4x32 10 ffffffff ffffffff ffffffff ffffffff ffffffff ffffffff   408f276d 41c83b0e a20bc7c6 6d5451fd
//   philox4x32 10 243f6a88 85a308d3 13198a2e 03707344 a4093822 299f31d0   d16cfe09 94fdcceb 5001e420 24126ea1
#include <cstdint>
#include <cstdio>
#include <initializer_list>

#include <minifloat/random.hpp>

namespace {

struct known_answer {
  mf::philox4x32_block counter;
  mf::philox4x32_key key;
  mf::philox4x32_block expected;
};

constexpr known_answer rounds_10[] = {
    {{{0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u}},
     {{0x00000000u, 0x00000000u}},
     {{0x6627e8d5u, 0xe169c58du, 0xbc57ac4cu, 0x9b00dbd8u}}},
    {{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
     {{0xffffffffu, 0xffffffffu}},
     {{0x408f276du, 0x41c83b0eu, 0xa20bc7c6u, 0x6d5451fdu}}},
    {{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
     {{0xa4093822u, 0x299f31d0u}},
     {{0xd16cfe09u, 0x94fdccebu, 0x5001e420u, 0x24126ea1u}}},
};

constexpr known_answer rounds_7[] = {
    {{{0x00000000u, 0x00000000u, 0x00000000u, 0x00000000u}},
     {{0x00000000u, 0x00000000u}},
     {{0x5f6fb709u, 0x0d893f64u, 0x4f121f81u, 0x4f730a48u}}},
    {{{0xffffffffu, 0xffffffffu, 0xffffffffu, 0xffffffffu}},
     {{0xffffffffu, 0xffffffffu}},
     {{0x5207ddc2u, 0x45165e59u, 0x4d8ee751u, 0x8c52f662u}}},
    {{{0x243f6a88u, 0x85a308d3u, 0x13198a2eu, 0x03707344u}},
     {{0xa4093822u, 0x299f31d0u}},
     {{0x4dfccabau, 0x190a87f0u, 0xc47362bau, 0xb6b5242au}}},
};

constexpr bool same(const mf::philox4x32_block& a, const mf::philox4x32_block& b) {
  return a.word[0] == b.word[0] && a.word[1] == b.word[1] && a.word[2] == b.word[2] &&
         a.word[3] == b.word[3];
}

template <int Rounds, std::size_t N>
constexpr bool all_match(const known_answer (&answers)[N]) {
  for (const auto& answer : answers) {
    if (!same(mf::philox4x32<Rounds>(answer.counter, answer.key), answer.expected)) return false;
  }
  return true;
}

// The generator is constexpr: the vectors hold at compile time too.
static_assert(all_match<10>(rounds_10), "Philox4x32-10 known answers");
static_assert(all_match<7>(rounds_7), "Philox4x32-7 known answers");
static_assert(mf::stochastic_random_word(0, 0) == 0x6627e8d5u &&
                  mf::stochastic_random_word(0, 3) == 0x9b00dbd8u,
              "seed 0, block 0 is the all-zero known answer");

int failures = 0;

void expect(bool ok, const char* what, unsigned long long a, unsigned long long b) {
  if (!ok) {
    ++failures;
    std::fprintf(stderr, "FAIL: %s (%llu, %llu)\n", what, a, b);
  }
}

}  // namespace

int main() {
  // Run time, in case the compiler evaluates differently from the CPU.
  for (const auto& answer : rounds_10) {
    const auto got = mf::philox4x32<10>(answer.counter, answer.key);
    for (int i = 0; i < 4; ++i) {
      expect(got.word[i] == answer.expected.word[i], "philox4x32-10 known answer",
             got.word[i], answer.expected.word[i]);
    }
  }
  for (const auto& answer : rounds_7) {
    const auto got = mf::philox4x32<7>(answer.counter, answer.key);
    for (int i = 0; i < 4; ++i) {
      expect(got.word[i] == answer.expected.word[i], "philox4x32-7 known answer", got.word[i],
             answer.expected.word[i]);
    }
  }
  // The documented mapping: key = seed (low, high), counter = {index / 4 low,
  // index / 4 high, 0, 0}, word index % 4; checked across the 32-bit
  // boundaries of both the seed and the block number.
  const std::uint64_t seeds[] = {0, 1, 0xa4093822u, 0x299f31d0a4093822u, ~std::uint64_t{0}};
  const std::uint64_t indices[] = {0,           1,           2,           3,           4,
                                   5,           1023,        0x3FFFFFFFFu, 0x400000000u,
                                   0x400000003u, ~std::uint64_t{0} - 3, ~std::uint64_t{0}};
  for (const std::uint64_t seed : seeds) {
    for (const std::uint64_t index : indices) {
      const std::uint64_t block = index / 4;
      const mf::philox4x32_block counter{{static_cast<std::uint32_t>(block),
                                          static_cast<std::uint32_t>(block >> 32), 0u, 0u}};
      const mf::philox4x32_key key{{static_cast<std::uint32_t>(seed),
                                    static_cast<std::uint32_t>(seed >> 32)}};
      const std::uint32_t expected = mf::philox4x32<10>(counter, key).word[index % 4];
      expect(mf::stochastic_random_word(seed, index) == expected, "stochastic_random_word mapping",
             seed, index);
      expect(mf::stochastic_random_block(seed, block).word[index % 4] == expected,
             "stochastic_random_block mapping", seed, index);
    }
  }
  // Packed lanes: the stream read as little-endian bytes, element i taking
  // the next 1 (random_bits <= 8), 2 (<= 16) or 4 bytes, cut to random_bits.
  for (const std::uint64_t seed : {std::uint64_t{7}, ~std::uint64_t{0}}) {
    for (const std::uint64_t first : {std::uint64_t{0}, std::uint64_t{0x3FFFFFFF0u}}) {
      // Bytes of the words from word `first` on.
      std::uint8_t bytes[4 * 64];
      for (std::uint64_t w = 0; w < 64; ++w) {
        const std::uint32_t word = mf::stochastic_random_word(seed, first + w);
        for (int b = 0; b < 4; ++b) bytes[4 * w + b] = static_cast<std::uint8_t>(word >> (8 * b));
      }
      for (const int bits : {1, 5, 8, 9, 12, 16, 17, 31, 32}) {
        const int lane_bytes = bits <= 8 ? 1 : (bits <= 16 ? 2 : 4);
        for (std::uint64_t i = 0; i < 64 * 4 / static_cast<std::uint64_t>(lane_bytes); ++i) {
          std::uint64_t lane = 0;
          for (int b = lane_bytes - 1; b >= 0; --b) {
            lane = (lane << 8) | bytes[i * static_cast<std::uint64_t>(lane_bytes) +
                                       static_cast<std::uint64_t>(b)];
          }
          const auto expected = static_cast<std::uint32_t>(lane & ((std::uint64_t{1} << bits) - 1));
          const std::uint64_t index = first * 4 / static_cast<std::uint64_t>(lane_bytes) + i;
          expect(mf::stochastic_random_bits(seed, index, bits) == expected,
                 "stochastic_random_bits lanes", static_cast<std::uint64_t>(bits), index);
        }
      }
    }
  }
  // The seed and the block both select the words.
  expect(mf::stochastic_random_word(1, 0) != mf::stochastic_random_word(0, 0),
         "the seed changes the stream", 1, 0);
  expect(mf::stochastic_random_word(0, 4) != mf::stochastic_random_word(0, 0),
         "the block changes the stream", 4, 0);
  if (failures > 0) return 1;
  std::printf("Philox4x32 known answers, stochastic_random_word and stochastic_random_bits mappings: ok\n");
  return 0;
}
