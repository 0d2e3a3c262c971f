// The float32 inputs where a conversion into a format can go wrong: every
// value, every rounding boundary (midpoints), the float32 neighbours of each,
// the overflow and underflow regions and the specials. The same idea as the
// test suite's reference set, written again here because an installed tool
// cannot include the tests.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <unordered_set>
#include <vector>

#include <minifloat/config.hpp>

#include "encoding_facts.hpp"

namespace minifloat_cli {

namespace boundary_detail {

inline std::uint32_t float_bits(double exactly_a_float) {
  return mf::detail::bit_cast<std::uint32_t>(static_cast<float>(exactly_a_float));
}

constexpr std::uint32_t float_sign = 0x80000000u;
constexpr std::uint32_t float_inf = 0x7F800000u;

}  // namespace boundary_detail

// The structured inputs for T, as float32 bits, in a fixed order without
// repeats (see `minifloat vectors --help` for the list).
template <class T>
std::vector<std::uint32_t> boundary_inputs() {
  using format = typename T::format;
  using boundary_detail::float_bits;
  using boundary_detail::float_inf;
  using boundary_detail::float_sign;

  std::vector<std::uint32_t> inputs = {
      // Zeros, infinities, quiet / signalling / payload NaNs of both signs.
      0x00000000u, 0x80000000u, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC00000u,
      0x7F800001u, 0xFF800001u, 0x7FA00000u, 0xFFA00000u, 0x7FC00001u, 0xFFC00001u,
      0x7FFFFFFFu, 0xFFFFFFFFu,
  };
  // float32 subnormals and the smallest float32 normals.
  for (const std::uint32_t bits : {0x00000001u, 0x00000002u, 0x00000003u, 0x00200000u,
                                   0x00400000u, 0x00400001u, 0x007FFFFEu, 0x007FFFFFu,
                                   0x00800000u, 0x00800001u}) {
    inputs.push_back(bits);
    inputs.push_back(bits | float_sign);
  }

  // Positive magnitudes; the negative copies follow.
  std::vector<std::uint32_t> positive;
  const auto with_neighbours = [&](std::uint32_t bits) {
    positive.push_back(bits);
    for (std::uint32_t step = 1; step <= 2; ++step) {
      if (bits >= step) positive.push_back(bits - step);
      if (bits + step < float_inf) positive.push_back(bits + step);
    }
  };

  // Every finite non-negative value, ascending (encodings without the sign
  // bit order like their values).
  std::vector<double> values;
  for (std::uint32_t magnitude = 0; magnitude <= format::max_finite_magnitude; ++magnitude) {
    if (!format::is_nan(magnitude)) values.push_back(static_cast<double>(decode<T>(magnitude)));
  }
  // Each value and the midpoint above it. The midpoint needs one bit more
  // than the format's significand, which float has.
  for (std::size_t i = 0; i < values.size(); ++i) {
    with_neighbours(float_bits(values[i]));
    if (i + 1 < values.size()) with_neighbours(float_bits((values[i] + values[i + 1]) / 2));
  }
  // Above max: the next value of the unbounded-exponent format and the
  // midpoint before it, the rounding boundary of overflow.
  const double max = values.back();
  const double ulp_at_max = std::ldexp(1.0, format::max_exponent - format::mantissa_bits);
  for (const double above : {max + ulp_at_max / 2, max + ulp_at_max}) {
    if (above <= static_cast<double>(std::numeric_limits<float>::max())) with_neighbours(float_bits(above));
  }
  // Overflow region: every power of two above max, and the largest floats.
  for (int exponent = format::max_exponent + 1; exponent <= 127; ++exponent) {
    positive.push_back(float_bits(std::ldexp(1.0, exponent)));
  }
  positive.push_back(0x7F7FFFFEu);
  positive.push_back(0x7F7FFFFFu);
  // Underflow region: every power of two below the smallest positive value,
  // down to the smallest float32 subnormal.
  const double smallest = values.front() > 0 ? values.front() : values[1];
  int smallest_exponent = 0;
  std::frexp(smallest, &smallest_exponent);
  for (int exponent = smallest_exponent - 2; exponent >= -149; --exponent) {
    positive.push_back(float_bits(std::ldexp(1.0, exponent)));
  }
  if (!format::has_zero) {
    // No zero: what lies between 0 and the smallest value rounds to it or
    // to NaN; three quarters of it is the interesting midpoint-like case.
    with_neighbours(float_bits(smallest * 0.75));
  }

  for (const std::uint32_t bits : positive) inputs.push_back(bits);
  for (const std::uint32_t bits : positive) inputs.push_back(bits | float_sign);

  // Drop repeats, keeping the first occurrence.
  std::unordered_set<std::uint32_t> seen;
  std::vector<std::uint32_t> unique;
  unique.reserve(inputs.size());
  for (const std::uint32_t bits : inputs) {
    if (seen.insert(bits).second) unique.push_back(bits);
  }
  return unique;
}

}  // namespace minifloat_cli
