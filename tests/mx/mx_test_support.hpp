// Shared helpers of the MX tests: inputs. The kernel sets come from
// support/isa_tests.hpp: each MX test that reaches a kernel runs once per
// ISA, with the ISA in its name.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <minifloat/mx.hpp>

#include "support/isa_tests.hpp"

namespace mx_test {

inline float from_bits(std::uint32_t u) { return mf::detail::bit_cast<float>(u); }
inline std::uint32_t to_bits(float f) { return mf::detail::bit_cast<std::uint32_t>(f); }

// A small deterministic generator for test inputs (a 64-bit LCG, top bits).
struct lcg {
  std::uint64_t state;
  std::uint32_t next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<std::uint32_t>(state >> 32);
  }
};

}  // namespace mx_test
