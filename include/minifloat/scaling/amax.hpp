// Absolute maxima for scaling: of a range (the vectorised mf::bulk::amax),
// and per column of a row-major matrix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../bulk/amax.hpp"

namespace mf {
namespace scaling {

using bulk::amax;
using bulk::amax_nan;

// column_amax[j] = max |in[r * cols + j]| over the rows, with the NaN policy
// of mf::bulk::amax. On the bit patterns (|x| as an integer orders floats by
// magnitude, NaN above Inf), so it vectorises and is exact.
inline void column_amax(const float* in, std::size_t rows, std::size_t cols,
                        float* column_amax, amax_nan nan = amax_nan::propagate) {
  const std::uint32_t limit = nan == amax_nan::finite_only ? 0x7F800000u : 0xFFFFFFFFu;
  for (std::size_t j = 0; j < cols; ++j) column_amax[j] = 0.0f;
  for (std::size_t r = 0; r < rows; ++r) {
    const float* row = in + r * cols;
    for (std::size_t j = 0; j < cols; ++j) {
      std::uint32_t a, m;
      std::memcpy(&a, row + j, sizeof a);
      std::memcpy(&m, column_amax + j, sizeof m);
      a &= 0x7FFFFFFFu;
      if (a < limit && a > m) std::memcpy(column_amax + j, &a, sizeof a);
    }
  }
  for (std::size_t j = 0; j < cols; ++j) {
    std::uint32_t m;
    std::memcpy(&m, column_amax + j, sizeof m);
    column_amax[j] = bulk::detail::amax_from_bits(m);
  }
}

}  // namespace scaling
}  // namespace mf
