// The counter-based generator behind reproducible stochastic rounding:
// Philox4x32-10 (J. K. Salmon, M. A. Moraes, R. O. Dror, D. E. Shaw,
// "Parallel random numbers: as easy as 1, 2, 3", SC 2011; the Random123
// library). A counter-based generator is a pure function of (counter, key),
// so the random word for element i of a tensor is computed directly from i,
// with no state to carry between threads, SIMD lanes or processes, and any
// two implementations (scalar, SIMD, CUDA) that agree on the mapping below
// produce the same stream bit for bit.
//
// The stream used for stochastic rounding:
//
//   stochastic_random_word(seed, index) =
//       philox4x32<10>(counter = {low32(index / 4), high32(index / 4), 0, 0},
//                      key     = {low32(seed), high32(seed)}).word[index % 4]
//
// so one Philox block serves four consecutive elements, the word for an
// element depends only on (seed, index), and counter words 2 and 3 stay free
// for callers that need further independent streams.
//
// An element that needs few random bits does not take a whole word: with
// random_bits <= 8 (16) the words are cut into 8-bit (16-bit) lanes, lane k
// of a word being its bits 8k..8k+7 (16k..16k+15), and element i takes lane i
// of that sequence (stochastic_random_bits below). Four (two) elements then
// share a word, which makes the generator's cost per element a quarter (a
// half): the stream read as little-endian bytes, each element taking the next
// 1, 2 or 4 of them.
#pragma once

#include <cstdint>

#include "config.hpp"
#include "rounding.hpp"

namespace mf {

// Four 32-bit words: a Philox4x32 counter or output block.
struct philox4x32_block {
  std::uint32_t word[4];
};

// The 64-bit Philox4x32 key as two 32-bit words.
struct philox4x32_key {
  std::uint32_t word[2];
};

namespace detail {

// Multipliers and Weyl key increments of Philox4x32 (Salmon et al., table 2;
// the increments are the golden ratio and sqrt(3) - 1 in 0.32 fixed point).
inline constexpr std::uint32_t philox4x32_multiplier_0 = 0xD2511F53u;
inline constexpr std::uint32_t philox4x32_multiplier_1 = 0xCD9E8D57u;
inline constexpr std::uint32_t philox4x32_weyl_0 = 0x9E3779B9u;
inline constexpr std::uint32_t philox4x32_weyl_1 = 0xBB67AE85u;

// One round: two 32x32->64 multiplications, the high halves xored with the
// other words and the round key, the words permuted.
MF_HOST_DEVICE MF_FORCE_INLINE constexpr philox4x32_block philox4x32_round(
    philox4x32_block x, philox4x32_key key) noexcept {
  const std::uint64_t product_0 =
      std::uint64_t{philox4x32_multiplier_0} * x.word[0];
  const std::uint64_t product_1 =
      std::uint64_t{philox4x32_multiplier_1} * x.word[2];
  const auto high_0 = static_cast<std::uint32_t>(product_0 >> 32);
  const auto low_0 = static_cast<std::uint32_t>(product_0);
  const auto high_1 = static_cast<std::uint32_t>(product_1 >> 32);
  const auto low_1 = static_cast<std::uint32_t>(product_1);
  return philox4x32_block{{static_cast<std::uint32_t>(high_1 ^ x.word[1] ^ key.word[0]),
                           low_1,
                           static_cast<std::uint32_t>(high_0 ^ x.word[3] ^ key.word[1]),
                           low_0}};
}

}  // namespace detail

// The Philox4x32 bijection with `Rounds` rounds (10 is the published,
// Crush-resistant default; 7 is also in Random123's known-answer vectors).
// The key is bumped by the Weyl constants between rounds, as in Random123.
// Written as a recursion over the rounds rather than a loop so that every
// compiler unrolls it at every optimisation level, host and device alike
// (g++ -O2 kept the loop rolled: the scalar stochastic encode lost 12-22%
// against -O3).
template <int Rounds = 10>
MF_HOST_DEVICE MF_FORCE_INLINE constexpr philox4x32_block philox4x32(
    philox4x32_block counter, philox4x32_key key) noexcept {
  static_assert(Rounds >= 1 && Rounds <= 16, "Philox4x32 is defined for 1..16 rounds");
  const philox4x32_block x = detail::philox4x32_round(counter, key);
  if constexpr (Rounds == 1) {
    return x;
  } else {
    const philox4x32_key next{
        {static_cast<std::uint32_t>(key.word[0] + detail::philox4x32_weyl_0),
         static_cast<std::uint32_t>(key.word[1] + detail::philox4x32_weyl_1)}};
    return philox4x32<Rounds - 1>(x, next);
  }
}

// The four consecutive stochastic-rounding words for elements 4 * block ..
// 4 * block + 3 (see the mapping at the top of this file): one Philox call.
MF_HOST_DEVICE constexpr philox4x32_block stochastic_random_block(
    std::uint64_t seed, std::uint64_t block) noexcept {
  const philox4x32_block counter{{static_cast<std::uint32_t>(block),
                                  static_cast<std::uint32_t>(block >> 32), 0u, 0u}};
  const philox4x32_key key{{static_cast<std::uint32_t>(seed),
                            static_cast<std::uint32_t>(seed >> 32)}};
  return philox4x32<10>(counter, key);
}

// The 32 random bits that stochastic rounding of element `index` consumes
// under `seed`: a function of (seed, index) only, so a tensor rounded in any
// order, split or vectorised in any way, gets the same result.
//   out[i] = mf::round_to_stochastic<mf::e4m3fn>(
//       in[i], mf::stochastic_random_word(seed, i));
MF_HOST_DEVICE constexpr std::uint32_t stochastic_random_word(
    std::uint64_t seed, std::uint64_t index) noexcept {
  return stochastic_random_block(seed, index / 4).word[index % 4];
}

// How many bits of the stream one element takes when it uses random_bits of
// them: 8, 16 or 32 (see the top of this file).
MF_HOST_DEVICE constexpr int stochastic_lane_bits(int random_bits) noexcept {
  return random_bits <= 8 ? 8 : (random_bits <= 16 ? 16 : 32);
}

namespace detail {

// Element `index`'s lane of the stream word that holds it, cut to its
// random_bits (1..32) low bits.
MF_HOST_DEVICE constexpr std::uint32_t stochastic_lane(std::uint32_t word, std::uint64_t index,
                                                       int random_bits) noexcept {
  const int lane_bits = stochastic_lane_bits(random_bits);
  const auto lane_in_word = static_cast<int>(index % static_cast<std::uint64_t>(32 / lane_bits));
  const std::uint32_t lane = word >> (lane_in_word * lane_bits);
  return random_bits >= 32 ? lane : lane & ((std::uint32_t{1} << random_bits) - 1u);
}

// The index of the stream word that holds element `index`'s lane.
MF_HOST_DEVICE constexpr std::uint64_t stochastic_word_index(std::uint64_t index,
                                                             int random_bits) noexcept {
  return index / static_cast<std::uint64_t>(32 / stochastic_lane_bits(random_bits));
}

}  // namespace detail

// The random_bits (1..32; below 1 counts as 1, above 32 as 32) random bits
// of element `index` under `seed`, in the
// low bits of the result: what mf::round_to_stochastic takes as `random` for
// that element in the bulk kernels, the command-line tool and the scaling
// helpers. With random_bits > 16 it is the low random_bits bits of
// stochastic_random_word(seed, index).
MF_HOST_DEVICE constexpr std::uint32_t stochastic_random_bits(std::uint64_t seed,
                                                              std::uint64_t index,
                                                              int random_bits) noexcept {
  const int bits = detail::clamp_random_bits(random_bits);
  return detail::stochastic_lane(
      stochastic_random_word(seed, detail::stochastic_word_index(index, bits)), index, bits);
}

}  // namespace mf
