// The AVX2 fused kernels: the jobs of fused_avx512.hpp with 8 lanes. Tails
// run the same vector code over a zero-padded copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "avx2.hpp"
#include "fused_scalar.hpp"
#include "philox_simd.hpp"
#include "stochastic_avx2.hpp"

#if MF_BULK_X86

namespace mf {
namespace bulk {
namespace avx2_kernels {

MF_TARGET_AVX2 inline __m256i load8_float_bits(const float* p) {
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
}

// FloatAddIsNearest: as in encode_vector (callers check MXCSR).
template <class F, bool Stochastic, rounding Mode, overflow Ovf, bool Scale,
          bool FloatAddIsNearest>
MF_TARGET_AVX2 MF_FORCE_INLINE __m256i encode_vector_fused(__m256i x, __m256 scale, __m256i r_aligned) {
  if constexpr (Scale) {
    x = _mm256_castps_si256(_mm256_mul_ps(_mm256_castsi256_ps(x), scale));
  }
  if constexpr (Stochastic) {
    return encode_lanes_stochastic<F, Ovf, ops>(x, r_aligned);
  } else {
    (void)r_aligned;
    return encode_vector<F, Mode, Ovf, FloatAddIsNearest>(x);
  }
}

// The random values of a stochastic encode, a step of elements at a time
// (see random_source16 in fused_avx512.hpp).
template <bool Stochastic>
struct random_source8;

template <>
struct random_source8<false> {
  static constexpr std::size_t step = 32;
  detail::random_step_layout layout{4, 1, 0};
  MF_TARGET_AVX2 explicit random_source8(const detail::fused_request&) {}
  MF_TARGET_AVX2 void fill(std::uint64_t, std::size_t) {}
  MF_TARGET_AVX2 __m256i values8(std::size_t) const { return _mm256_setzero_si256(); }
};

template <>
struct random_source8<true> {
  static constexpr std::size_t step = 512;
  detail::philox_round_keys philox_keys;
  int align_shift;
  detail::random_step_layout layout;
  alignas(32) std::uint32_t values[step];
  MF_TARGET_AVX2 explicit random_source8(const detail::fused_request& r)
      : philox_keys(detail::make_philox_round_keys(r.seed)),
        align_shift(32 - r.random_bits),
        layout(detail::stochastic_step_layout(r.random_bits, step)) {}
  MF_TARGET_AVX2 void fill(std::uint64_t block, std::size_t count) {
    stochastic_values<simd::avx2::philox_ops>(philox_keys, block, layout.lane_bytes,
                                              align_shift, values, count);
  }
  // Elements 8g..8g+7 of the step.
  MF_TARGET_AVX2 __m256i values8(std::size_t g) const {
    return _mm256_load_si256(reinterpret_cast<const __m256i*>(values + 8 * g));
  }
};

// 32 elements, with the random values of groups g0..g0+3 of the step.
template <class Fmt, bool Stochastic, rounding Mode, overflow Ovf, bool Scale, bool Amax,
          bool FloatAddIsNearest>
MF_TARGET_AVX2 inline void encode_fused32(const float* in, typename Fmt::storage_type* out,
                                          const random_source8<Stochastic>& random,
                                          std::size_t g0, __m256 scale, __m256i& acc) {
  using F = typename Fmt::format;
  __m256i res[4];
  MF_UNROLL
  for (std::size_t k = 0; k < 4; ++k) {
    const __m256i x = load8_float_bits(in + 8 * k);
    if constexpr (Amax) {
      acc = _mm256_max_epu32(acc, _mm256_and_si256(x, splat(0x7FFFFFFFu)));
    }
    res[k] = encode_vector_fused<F, Stochastic, Mode, Ovf, Scale, FloatAddIsNearest>(x, scale,
                                                                 random.values8(g0 + k));
  }
  store_vectors(out, res[0], res[1], res[2], res[3]);
}

template <class Fmt, bool Stochastic, rounding Mode, overflow Ovf, bool Scale, bool Amax,
          bool FloatAddIsNearest>
MF_TARGET_AVX2 inline std::uint32_t encode_fused_mode(const float* in,
                                                      typename Fmt::storage_type* out,
                                                      std::size_t n,
                                                      const detail::fused_request& r) {
  using S = typename Fmt::storage_type;
  constexpr std::size_t step = random_source8<Stochastic>::step;
  random_source8<Stochastic> random(r);
  const std::uint64_t per_block = random.layout.elements_per_block;
  std::size_t head = 0;
  std::uint32_t amax = 0;
  if constexpr (Stochastic) {
    head = static_cast<std::size_t>((per_block - r.offset % per_block) % per_block);
    if (head > n) head = n;
    amax = scalar_kernels::encode_fused_range<Fmt, Scale>(in, out, head, 0, r);
  }
  const __m256 scale = _mm256_set1_ps(r.scale);
  __m256i acc = _mm256_setzero_si256();
  std::uint64_t block = (r.offset + head) / per_block;
  std::size_t i = head;
  for (; i + step <= n; i += step, block += random.layout.blocks_per_step) {
    random.fill(block, step);
    for (std::size_t at = 0; at < step; at += 32) {
      encode_fused32<Fmt, Stochastic, Mode, Ovf, Scale, Amax, FloatAddIsNearest>(in + i + at, out + i + at,
                                                                    random, at / 8, scale, acc);
    }
  }
  if (i < n) {
    // Zero padding, 32 elements at a time: a zero encodes without side
    // effects and adds nothing to the maximum.
    const std::size_t rest = n - i;
    random.fill(block, (rest + 31) / 32 * 32);  // values for the padding too
    for (std::size_t at = 0; at < rest; at += 32) {
      float buffer[32];
      std::memset(static_cast<void*>(buffer), 0, sizeof buffer);
      S result[32];
      const std::size_t count = rest - at < 32 ? rest - at : 32;
      std::memcpy(static_cast<void*>(buffer), static_cast<const void*>(in + i + at),
                  count * sizeof(float));
      encode_fused32<Fmt, Stochastic, Mode, Ovf, Scale, Amax, FloatAddIsNearest>(buffer, result, random,
                                                                    at / 8, scale, acc);
      std::memcpy(out + i + at, result, count * sizeof(S));
    }
  }
  if constexpr (Amax) {
    alignas(32) std::uint32_t lanes[8];
    _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), acc);
    for (std::uint32_t v : lanes) amax = v > amax ? v : amax;
  }
  return amax;
}

template <class Fmt, bool Stochastic, bool Scale, bool Amax>
MF_TARGET_AVX2 inline std::uint32_t encode_fused(const float* in,
                                                 typename Fmt::storage_type* out,
                                                 std::size_t n,
                                                 const detail::fused_request& r) {
  using F = typename Fmt::format;
  const auto kernel = [&](auto mode, auto ovf) {
    constexpr rounding Mode = decltype(mode)::value;
    constexpr overflow Ovf = decltype(ovf)::value;
    if constexpr (!Stochastic && fast_path_needs_mxcsr<F, Mode, Ovf>) {
      if (float_add_is_nearest()) {
        return encode_fused_mode<Fmt, false, Mode, Ovf, Scale, Amax, true>(in, out, n, r);
      }
    }
    return encode_fused_mode<Fmt, Stochastic, Mode, Ovf, Scale, Amax, false>(in, out, n, r);
  };
  return detail::with_mode_and_overflow<Stochastic>(r.mode, r.on_overflow, kernel);
}

template <class Fmt>
MF_TARGET_AVX2 inline void decode_scaled8(const typename Fmt::storage_type* in, float* out,
                                          __m256 factor) {
  using F = typename Fmt::format;
  using S = typename Fmt::storage_type;
  __m256i v;
  if constexpr (sizeof(S) == 1) {
    v = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(in)));
  } else {
    v = _mm256_cvtepu16_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in)));
  }
  v = _mm256_and_si256(v, splat(detail::decode_constants<F>::valid_mask));
  _mm256_storeu_ps(out, _mm256_mul_ps(_mm256_castsi256_ps(decode_vector<F>(v)), factor));
}

template <class Fmt>
MF_TARGET_AVX2 inline void decode_scaled(const typename Fmt::storage_type* in, float* out,
                                         std::size_t n, float scale) {
  using S = typename Fmt::storage_type;
  const __m256 factor = _mm256_set1_ps(scale);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) decode_scaled8<Fmt>(in + i, out + i, factor);
  if (i < n) {
    S buffer[8] = {};
    float result[8];
    std::memcpy(buffer, in + i, (n - i) * sizeof(S));
    decode_scaled8<Fmt>(buffer, result, factor);
    std::memcpy(out + i, result, (n - i) * sizeof(float));
  }
}

MF_TARGET_AVX2 inline void amax_step(const float* p, __m256i limit, __m256i inclusive,
                                     __m256i& acc) {
  const __m256i a = _mm256_and_si256(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)),
                                     splat(0x7FFFFFFFu));
  const __m256i keep = _mm256_or_si256(_mm256_cmpgt_epi32(limit, a), inclusive);
  acc = _mm256_max_epu32(acc, _mm256_and_si256(a, keep));
}

MF_TARGET_AVX2 inline std::uint32_t amax_bits(const float* in, std::size_t n,
                                              bool finite_only) {
  // Signed compare: every magnitude is non-negative.
  const __m256i limit = splat(finite_only ? 0x7F800000u : 0x7FFFFFFFu);
  const __m256i inclusive = finite_only ? _mm256_setzero_si256() : splat(0xFFFFFFFFu);
  __m256i acc0 = _mm256_setzero_si256(), acc1 = _mm256_setzero_si256();
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    amax_step(in + i, limit, inclusive, acc0);
    amax_step(in + i + 8, limit, inclusive, acc1);
  }
  if (i < n) {
    float buffer[16] = {};
    std::memcpy(buffer, in + i, (n - i) * sizeof(float));
    amax_step(buffer, limit, inclusive, acc0);
    amax_step(buffer + 8, limit, inclusive, acc1);
  }
  alignas(32) std::uint32_t lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), _mm256_max_epu32(acc0, acc1));
  std::uint32_t amax = 0;
  for (std::uint32_t v : lanes) amax = v > amax ? v : amax;
  return amax;
}

}  // namespace avx2_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_X86
