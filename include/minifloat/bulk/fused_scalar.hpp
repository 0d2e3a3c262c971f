// What the fused encoders share (stochastic rounding, the fused scale, the
// fused absolute maximum), and their scalar kernel set: a
// plain loop over the scalar conversion, the reference the SIMD kernels
// (fused_avx2.hpp, fused_avx512.hpp) match bit for bit.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>

#include "../conversion.hpp"
#include "../convert.hpp"
#include "../formats.hpp"
#include "../random.hpp"
#include "../rounding.hpp"
#include "../scalar_convert.hpp"
#include "../lanes/magnitude_bits.hpp"
#include "mode_dispatch.hpp"
#include "scalar.hpp"

namespace mf {
namespace bulk {

namespace detail {

// Where a SIMD kernel's steps sit in the random stream (random.hpp): an
// element takes lane_bytes bytes of it, a Philox block is 16 bytes, and a
// step starts on a block boundary. Deterministic encodes use {4, 1, 0}.
struct random_step_layout {
  int lane_bytes;
  std::uint64_t elements_per_block;
  std::uint64_t blocks_per_step;
};

inline random_step_layout stochastic_step_layout(int random_bits, std::size_t step) noexcept {
  const int lane_bytes = mf::stochastic_lane_bits(random_bits) / 8;
  const auto per_block = static_cast<std::uint64_t>(16 / lane_bytes);
  return random_step_layout{lane_bytes, per_block, step / per_block};
}

// One element of a fused encode: the scalar definition every kernel meets.
//   x = widen(in), p = Scale ? x * scale (rounded to float) : x,
//   out = round_to_stochastic<Fmt>(p, random, Ovf, random_bits) when
//         Stochastic, else round_to<Fmt>(p, Mode, Ovf).
template <class Fmt, bool Stochastic, rounding Mode, overflow Ovf, bool Scale>
MF_FORCE_INLINE typename Fmt::storage_type fused_encode_one(float x, std::uint32_t random,
                                                            int random_bits,
                                                            float scale) noexcept {
  const float p = Scale ? x * scale : x;
  if constexpr (Stochastic) {
    return mf::round_to_stochastic<Fmt>(p, random, Ovf, random_bits).bits();
  } else {
    return mf::round_to<Fmt>(p, Mode, Ovf).bits();
  }
}

}  // namespace detail

namespace scalar {

// Encodes n elements starting at element `first` of the call (the random
// word of element i is that of index stream.offset + first + i when
// Stochastic), each scaled when Scale; returns the integer max of |x| bits
// over them (see lanes::amax_from_bits). The modes are template constants,
// as in every kernel set (mode_dispatch.hpp): a mode read per element cost
// the scaled e5m2 encode 13-23 % on an Intel Xeon (family 6 model 207).
template <class Fmt, bool Stochastic, rounding Mode, overflow Ovf, bool Scale>
inline std::uint32_t encode_fused_range(const float* in, typename Fmt::storage_type* out,
                                        std::size_t n, std::size_t first,
                                        const stochastic_rounding& stream, float scale) {
  const int random_bits = mf::detail::clamp_random_bits(stream.random_bits);
  const std::uint64_t seed = stream.seed, offset = stream.offset;
  std::uint32_t amax = 0;
  std::uint64_t cached_block = ~std::uint64_t{0};
  philox4x32_block block{};
  for (std::size_t i = 0; i < n; ++i) {
    const float x = in[i];
    const std::uint32_t a = lanes::float_magnitude_bits(x);
    amax = a > amax ? a : amax;
    std::uint32_t random = 0;
    if constexpr (Stochastic) {
      const std::uint64_t index = offset + first + i;
      const std::uint64_t word = mf::detail::stochastic_word_index(index, random_bits);
      if (word / 4 != cached_block) {
        cached_block = word / 4;
        block = stochastic_random_block(seed, cached_block);
      }
      random = mf::detail::stochastic_lane(block.word[word % 4], index, random_bits);
    }
    out[i] = detail::fused_encode_one<Fmt, Stochastic, Mode, Ovf, Scale>(x, random, random_bits,
                                                                         scale);
  }
  return amax;
}

// The scalar set's fused encode: c's modes become template constants.
template <class Fmt, bool Stochastic, bool Scale>
inline std::uint32_t encode_fused(const float* in, typename Fmt::storage_type* out,
                                  std::size_t n, const conversion& c, float scale) {
  return detail::with_mode_and_overflow<Stochastic>(c.mode, c.on_overflow, [&](auto m, auto o) {
    return encode_fused_range<Fmt, Stochastic, decltype(m)::value, decltype(o)::value, Scale>(
        in, out, n, 0, c.stream, scale);
  });
}

template <class Fmt>
inline void decode_scaled(const typename Fmt::storage_type* in, float* out,
                          std::size_t n, float scale) {
  using F = typename Fmt::format;
  for (std::size_t i = 0; i < n; ++i) out[i] = decode_one<F>(in[i]) * scale;
}

// Integer max of |x| bits; with finite_only, NaN and Inf are skipped.
inline std::uint32_t amax_bits(const float* in, std::size_t n, bool finite_only) {
  std::uint32_t amax = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t a = lanes::float_magnitude_bits(in[i]);
    if (finite_only && a >= 0x7F800000u) continue;
    amax = a > amax ? a : amax;
  }
  return amax;
}

}  // namespace scalar
}  // namespace bulk
}  // namespace mf
