// The exact model's E5M2 x E5M2 sum as an integer held in two 52-bit limbs,
// the operands packed as unsigned integers: what the AVX512_IFMA tile
// (x86/avx512/limb_tile.hpp) computes, and the last step that rounds it
// once to float32.
//
// Why integers. An E5M2 value is an integer n times 2^-16 (the smallest
// subnormal), |n| <= 57344 * 2^16 < 2^32, so a product is an integer times
// 2^-32 below 2^64 and a sum of K of them needs 64 + log2 K bits: more than
// float64's 53 (the split route, split_sum.hpp, needs four float64 chains
// for it). VPMADD52LUQ and VPMADD52HUQ (Intel SDM vol. 2, "VPMADD52LUQ",
// "VPMADD52HUQ") multiply unsigned 52-bit integers into their 104-bit
// product and add its low, or its high, 52 bits to a 64-bit lane: two
// instructions per eight products give the sum exactly, as an integer.
//
// The operands are unsigned: each value is packed as a = n + 2^32, in
// [1, 2^33) (x86/avx512/limb_tile.hpp packs them). Then, with O = 2^32,
//   sum_k a_k b_k = sum_k na_k nb_k + O (sum_k na_k + sum_k nb_k) + K O^2,
// so the sum of products is the limbs' integer less O times the row sum of
// A and the column sum of B (the driver sums them while packing) and less
// K 2^64. A packed product is below 2^66: its high limb below 2^14, and
// the high limbs of K <= 2^17 products below 2^31. The low limbs are added
// into 64 bits: the tile carries them into the high limb (high += low >>
// 52, low &= 2^52 - 1) at least every limb_steps_per_carry = 2048 steps,
// so a low lane stays below 2^52 + 2048 * 2^52 < 2^64.
//
// The last step: S = high 2^52 + low - O (row sum + column sum) - K 2^64,
// with |row sum + column sum| <= 2 K 2^32 <= 2^50. Writing that sum as
// q 2^20 + r (0 <= r < 2^20), O times it is q 2^52 + r 2^32, so
// S = H 2^52 + L with H = high - K 2^12 - q (below 2^32 in magnitude) and
// L = low - r 2^32 (in (-2^52, 2^52)): both exact in float64, and so are
// c0 = H 2^20 and c1 = L 2^-32, whose sum is the exact sum S 2^-32. Their
// TwoSum and rounding to odd (split_sum.hpp) round it once to float32.
// Where |H| < 2^11, S itself is below 2^63 and its int64 -> float32
// conversion is that one rounding. A zero sum has H = L = 0 and gives +0,
// as the model's. Operands must be
// finite (fast_path.hpp sends Inf and NaN to the reference).
#pragma once

#include <cstddef>
#include <cstdint>

#include "split_sum.hpp"

namespace mf::hybrid::kernels::detail {

inline constexpr std::int64_t limb_operand_offset = std::int64_t{1} << 32;
inline constexpr int limb_bits = 52;
inline constexpr std::uint64_t low_limb_mask = (std::uint64_t{1} << limb_bits) - 1;
inline constexpr std::size_t limb_steps_per_carry = 2048;

// The exact sum of K products, from an element's carried limbs (low below
// 2^52) and the sum of the element's row of A plus the sum of its column of
// B (the values: multiples of 2^-16, each sum below 2^17 * 57344 < 2^32.81,
// so every partial sum and the total fit float64's 53 bits and are exact),
// rounded once to float32 (nearest even).
inline float limb_sum_to_fp32(std::uint64_t low, std::uint64_t high, double value_sums,
                              std::size_t k) noexcept {
  const std::int64_t operand_sums = static_cast<std::int64_t>(value_sums * 65536.0);  // exact
  constexpr std::int64_t r_mask = (std::int64_t{1} << 20) - 1;
  const std::int64_t r = operand_sums & r_mask;  // operand_sums mod 2^20, two's complement
  const std::int64_t q = (operand_sums - r) / (std::int64_t{1} << 20);
  const std::int64_t h = static_cast<std::int64_t>(high) - static_cast<std::int64_t>(k << 12) - q;
  const std::int64_t l = static_cast<std::int64_t>(low) - r * limb_operand_offset;
  if (h > -2048 && h < 2048) {
    // |S| < 2^63: S is an int64, and its conversion rounds once (nearest
    // even); times 2^-32 is exact (the result is 0 or at least 2^-32).
    return static_cast<float>(h * (std::int64_t{1} << limb_bits) + l) * 0x1p-32f;
  }
  const double chains[2] = {static_cast<double>(h) * 0x1p20, static_cast<double>(l) * 0x1p-32};
  return split_chains_to_fp32(chains, 2);
}

}  // namespace mf::hybrid::kernels::detail
