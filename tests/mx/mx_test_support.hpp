// Shared helpers of the MX tests: every ISA this machine runs, and inputs.
#pragma once

#include <cmath>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include <minifloat/mx.hpp>

namespace mx_test {

// The kernel sets this machine can run, each selected in turn by
// for_each_isa (the previous selection is restored afterwards).
template <class Body>
void for_each_isa(Body body) {
  const mf::bulk::isa previous = mf::bulk::active_isa();
  for (mf::bulk::isa i : {mf::bulk::isa::scalar, mf::bulk::isa::avx2, mf::bulk::isa::avx512}) {
    if (!mf::bulk::isa_supported(i)) continue;
    ASSERT_EQ(mf::bulk::set_isa(i), i);
    SCOPED_TRACE(mf::bulk::isa_name(i));
    body(i);
  }
  mf::bulk::set_isa(previous);
}

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
