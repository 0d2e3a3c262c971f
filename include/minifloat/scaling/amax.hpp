// Absolute maxima for scaling: of a range (the vectorised mf::bulk::amax),
// and per column of a row-major matrix.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#if __cplusplus >= 202002L && __has_include(<span>)
#include <cassert>
#include <span>
#endif

#include "../bulk/amax.hpp"
#include "../lanes/magnitude_bits.hpp"
#include "../target/float_environment.hpp"

namespace mf {
namespace scaling {

using bulk::amax;
using bulk::amax_nan;

// column_amax[j] = max |in[r * cols + j]| over the rows, with the NaN policy
// of mf::bulk::amax. On the bit patterns (|x| as an integer orders floats by
// magnitude, NaN above Inf), so it vectorises and is exact.
inline void column_amax(const float* in, float* column_amax, std::size_t rows, std::size_t cols,
                        amax_nan nan = amax_nan::propagate) {
  target::in_default_float_environment([&] {
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
      column_amax[j] = lanes::amax_from_bits(m);
    }
  });
}

#if __cplusplus >= 202002L && __has_include(<span>)
// span form: in holds rows * cols floats, column_amax cols (debug
// assertion; release builds do nothing when they do not fit).
inline void column_amax(std::span<const float> in, std::span<float> column_amax, std::size_t rows,
                        std::size_t cols, amax_nan nan = amax_nan::propagate) {
  const bool fit = in.size() >= rows * cols && column_amax.size() >= cols;
  assert(fit);
  if (fit) scaling::column_amax(in.data(), column_amax.data(), rows, cols, nan);
}
#endif

}  // namespace scaling
}  // namespace mf
