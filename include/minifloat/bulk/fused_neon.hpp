// The NEON fused kernels: the jobs of fused_avx512.hpp (stochastic rounding
// with the Philox words of philox_simd.hpp, the fused scale, the fused
// absolute maximum, from float; decode with the fused scale; amax alone)
// with 4 lanes, 16 elements a group. Same bits as the scalar kernels of
// fused_scalar.hpp for every input. Tails run the same vector code over a
// zero-padded copy.
//
// The fused scale is a vector FMUL, which rounds as the scalar `x * scale`
// does: AArch64 Advanced SIMD follows FPCR (rounding mode, FZ) like scalar
// floating point.
#pragma once

#include <cstddef>
#include <cstdint>

#include "fused_scalar.hpp"
#include "neon.hpp"
#include "philox_simd.hpp"
#include "stochastic_neon.hpp"

#if MF_BULK_NEON

namespace mf {
namespace bulk {
namespace neon_kernels {

// 4 floats as bit patterns.
inline uint32x4_t load4_float_bits(const float* p) {
  return vld1q_u32(reinterpret_cast<const std::uint32_t*>(p));
}

template <class F, bool Stochastic, rounding Mode, overflow Ovf, bool Scale>
MF_FORCE_INLINE uint32x4_t encode_vector_fused(uint32x4_t x, float32x4_t scale, uint32x4_t r_aligned) {
  if constexpr (Scale) {
    x = vreinterpretq_u32_f32(vmulq_f32(vreinterpretq_f32_u32(x), scale));
  } else {
    (void)scale;
  }
  if constexpr (Stochastic) {
    return encode_lanes_stochastic<F, Ovf, ops>(x, r_aligned);
  } else {
    (void)r_aligned;
    return encode_vector<F, Mode, Ovf>(x);
  }
}

// The random values of a stochastic encode, a step of elements at a time
// (see random_source16 in fused_avx512.hpp). A step starts on a Philox
// block boundary. The deterministic encodes take zeros.
template <bool Stochastic>
struct random_source4;

template <>
struct random_source4<false> {
  static constexpr std::size_t step = 16;
  detail::random_step_layout layout{4, 1, 0};
  explicit random_source4(const detail::fused_request&) {}
  void fill(std::uint64_t, std::size_t) {}
  uint32x4_t values4(std::size_t) const { return vdupq_n_u32(0); }
};

template <>
struct random_source4<true> {
  static constexpr std::size_t step = 512;
  detail::philox_round_keys philox_keys;
  int align_shift;
  detail::random_step_layout layout;
  alignas(16) std::uint32_t values[step];
  explicit random_source4(const detail::fused_request& r)
      : philox_keys(detail::make_philox_round_keys(r.seed)),
        align_shift(32 - r.random_bits),
        layout(detail::stochastic_step_layout(r.random_bits, step)) {}
  // The values of `count` (<= step) elements from block `block` on.
  void fill(std::uint64_t block, std::size_t count) {
    stochastic_values<simd::neon::philox_ops>(philox_keys, block, layout.lane_bytes,
                                              align_shift, values, count);
  }
  // Elements 4g..4g+3 of the step.
  uint32x4_t values4(std::size_t g) const { return vld1q_u32(values + 4 * g); }
};

// 16 elements, with the random values of groups g0..g0+3 of the step.
template <class Fmt, bool Stochastic, rounding Mode, overflow Ovf, bool Scale, bool Amax>
inline void encode_fused16(const float* in, typename Fmt::storage_type* out,
                           const random_source4<Stochastic>& random, std::size_t g0,
                           float32x4_t scale, uint32x4_t& acc) {
  using F = typename Fmt::format;
  uint32x4_t res[4];
  MF_UNROLL
  for (std::size_t k = 0; k < 4; ++k) {
    const uint32x4_t x = load4_float_bits(in + 4 * k);
    if constexpr (Amax) acc = vmaxq_u32(acc, vandq_u32(x, splat(0x7FFFFFFFu)));
    res[k] = encode_vector_fused<F, Stochastic, Mode, Ovf, Scale>(x, scale, random.values4(g0 + k));
  }
  store_vectors(out, res[0], res[1], res[2], res[3]);
}

template <class Fmt, bool Stochastic, rounding Mode, overflow Ovf, bool Scale, bool Amax>
inline std::uint32_t encode_fused_mode(const float* in, typename Fmt::storage_type* out,
                                       std::size_t n, const detail::fused_request& r) {
  using S = typename Fmt::storage_type;
  constexpr std::size_t step = random_source4<Stochastic>::step;
  random_source4<Stochastic> random(r);
  // The vector loop starts on a Philox block boundary; the elements before
  // it (fewer than a block holds) take the scalar kernel.
  const std::uint64_t per_block = random.layout.elements_per_block;
  std::size_t head = 0;
  std::uint32_t amax = 0;
  if constexpr (Stochastic) {
    head = static_cast<std::size_t>((per_block - r.offset % per_block) % per_block);
    if (head > n) head = n;
    amax = scalar_kernels::encode_fused_range<Fmt, Scale>(in, out, head, 0, r);
  }
  const float32x4_t scale = vdupq_n_f32(r.scale);
  uint32x4_t acc = vdupq_n_u32(0);
  std::uint64_t block = (r.offset + head) / per_block;
  std::size_t i = head;
  for (; i + step <= n; i += step, block += random.layout.blocks_per_step) {
    random.fill(block, step);
    for (std::size_t at = 0; at < step; at += 16) {
      encode_fused16<Fmt, Stochastic, Mode, Ovf, Scale, Amax>(in + i + at, out + i + at, random,
                                                              at / 4, scale, acc);
    }
  }
  if (i < n) {
    const std::size_t rest = n - i;
    random.fill(block, rest);  // values for the padding too (16 a group)
    std::size_t at = 0;
    for (; at + 16 <= rest; at += 16) {
      encode_fused16<Fmt, Stochastic, Mode, Ovf, Scale, Amax>(in + i + at, out + i + at, random,
                                                              at / 4, scale, acc);
    }
    if (at < rest) {
      // A zero adds nothing to the maximum.
      through_padded_copy<16>(in + i + at, out + i + at, rest - at,
                              [&](const float* padded, S* result) {
                                encode_fused16<Fmt, Stochastic, Mode, Ovf, Scale, Amax>(
                                    padded, result, random, at / 4, scale, acc);
                              });
    }
  }
  if constexpr (Amax) {
    const std::uint32_t lanes = vmaxvq_u32(acc);
    amax = lanes > amax ? lanes : amax;
  }
  return amax;
}

// Returns the integer max of |x| bits when Amax (see amax_from_bits).
template <class Fmt, bool Stochastic, bool Scale, bool Amax>
inline std::uint32_t encode_fused(const float* in, typename Fmt::storage_type* out,
                                  std::size_t n, const detail::fused_request& r) {
  const auto kernel = [&](auto mode, auto ovf) {
    return encode_fused_mode<Fmt, Stochastic, decltype(mode)::value, decltype(ovf)::value, Scale,
                             Amax>(in, out, n, r);
  };
  return detail::with_mode_and_overflow<Stochastic>(r.mode, r.on_overflow, kernel);
}

// Decodes 16 encodings and multiplies them by the factor.
template <class F, class S>
inline void decode_scaled16(const S* in, float* out, float32x4_t factor) {
  uint32x4_t v[4];
  load_codes<F>(in, v);
  MF_UNROLL
  for (int k = 0; k < 4; ++k) {
    vst1q_f32(out + 4 * k, vmulq_f32(vreinterpretq_f32_u32(decode_vector<F>(v[k])), factor));
  }
}

template <class Fmt>
inline void decode_scaled(const typename Fmt::storage_type* in, float* out, std::size_t n,
                          float scale) {
  using F = typename Fmt::format;
  using S = typename Fmt::storage_type;
  const float32x4_t factor = vdupq_n_f32(scale);
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) decode_scaled16<F>(in + i, out + i, factor);
  if (i < n) {
    through_padded_copy<16>(in + i, out + i, n - i, [&](const S* padded, float* result) {
      decode_scaled16<F>(padded, result, factor);
    });
  }
}

// Integer max of |x| bits of 4 floats into acc; lanes at or above `limit`
// (0x7F800000 with finite_only: NaN and Inf) are skipped.
inline void amax_step(const float* p, uint32x4_t limit, uint32x4_t& acc) {
  const uint32x4_t a =
      vandq_u32(vld1q_u32(reinterpret_cast<const std::uint32_t*>(p)), splat(0x7FFFFFFFu));
  acc = vmaxq_u32(acc, vandq_u32(a, vcltq_u32(a, limit)));
}

// Integer max of |x| bits; with finite_only, NaN and Inf are skipped.
inline std::uint32_t amax_bits(const float* in, std::size_t n, bool finite_only) {
  // Every magnitude is below 0xFFFFFFFF: without finite_only all count.
  const uint32x4_t limit = splat(finite_only ? 0x7F800000u : 0xFFFFFFFFu);
  uint32x4_t acc[4] = {vdupq_n_u32(0), vdupq_n_u32(0), vdupq_n_u32(0), vdupq_n_u32(0)};
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    MF_UNROLL
    for (int k = 0; k < 4; ++k) amax_step(in + i + 4 * k, limit, acc[k]);
  }
  for (; i + 4 <= n; i += 4) amax_step(in + i, limit, acc[0]);
  std::uint32_t amax =
      vmaxvq_u32(vmaxq_u32(vmaxq_u32(acc[0], acc[1]), vmaxq_u32(acc[2], acc[3])));
  // The last n % 4 elements: the scalar rule.
  const std::uint32_t tail = scalar_kernels::amax_bits(in + i, n - i, finite_only);
  return tail > amax ? tail : amax;
}

}  // namespace neon_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_NEON
