// The AVX-512 fused kernels: encode with stochastic rounding (Philox words
// from philox_simd.hpp), with the fused scale (x * scale rounded to float,
// then encoded), with the fused absolute maximum, from float (encode.hpp
// widens the other sources first); decode with the fused scale; amax alone. Same bits as the scalar
// kernels of fused_scalar.hpp for every input.
#pragma once

#include <cstddef>
#include <cstdint>

#include "avx512.hpp"
#include "fused_scalar.hpp"
#include "philox_simd.hpp"
#include "stochastic_avx512.hpp"

#if MF_BULK_X86

namespace mf {
namespace bulk {
namespace avx512_kernels {

// 16 floats (lanes in m) as bit patterns.
MF_TARGET_AVX512 inline __m512i load16_float_bits(const float* p, __mmask16 m) {
  return _mm512_maskz_loadu_epi32(m, p);
}

template <bool Scale>
MF_TARGET_AVX512 inline __m512i scaled16(__m512i x, __m512 scale) {
  if constexpr (Scale) {
    return _mm512_castps_si512(_mm512_mul_ps(_mm512_castsi512_ps(x), scale));
  } else {
    (void)scale;
    return x;
  }
}

// x: float bits (already scaled). MayBeBelow as in encode_lanes_stochastic.
template <class F, bool Stochastic, rounding Mode, overflow Ovf, bool MayBeBelow = true>
MF_TARGET_AVX512 MF_FORCE_INLINE __m512i encode_vector_fused(__m512i x, __m512i r_aligned) {
  if constexpr (Stochastic) {
    return encode_lanes_stochastic<F, Ovf, ops, MayBeBelow>(x, r_aligned);
  } else {
    (void)r_aligned;
    return encode_vector<F, Mode, Ovf>(x);
  }
}

// The random values of a stochastic encode, a step of elements at a time
// (stochastic_values in philox_simd.hpp). A step starts on a Philox block
// boundary. The deterministic encodes take zeros.
template <bool Stochastic>
struct random_source16;

template <>
struct random_source16<false> {
  static constexpr std::size_t step = 64;
  detail::random_step_layout layout{4, 1, 0};
  MF_TARGET_AVX512 explicit random_source16(const detail::fused_request&) {}
  MF_TARGET_AVX512 void fill(std::uint64_t, std::size_t) {}
  MF_TARGET_AVX512 __m512i values16(std::size_t) const { return _mm512_setzero_si512(); }
};

template <>
struct random_source16<true> {
  static constexpr std::size_t step = 512;
  detail::philox_round_keys philox_keys;
  int align_shift;
  detail::random_step_layout layout;
  alignas(64) std::uint32_t values[step];
  MF_TARGET_AVX512 explicit random_source16(const detail::fused_request& r)
      : philox_keys(detail::make_philox_round_keys(r.seed)),
        align_shift(32 - r.random_bits),
        layout(detail::stochastic_step_layout(r.random_bits, step)) {}
  // The values of `count` (<= step) elements from block `block` on.
  MF_TARGET_AVX512 void fill(std::uint64_t block, std::size_t count) {
    stochastic_values<simd::avx512::philox_ops>(philox_keys, block, layout.lane_bytes,
                                                align_shift, values, count);
  }
  // Elements 16g..16g+15 of the step.
  MF_TARGET_AVX512 __m512i values16(std::size_t g) const {
    return _mm512_load_si512(values + 16 * g);
  }
};

template <class Fmt, bool Stochastic, rounding Mode, overflow Ovf, bool Scale, bool Amax>
MF_TARGET_AVX512 inline std::uint32_t encode_fused_mode(const float* in,
                                                        typename Fmt::storage_type* out,
                                                        std::size_t n,
                                                        const detail::fused_request& r) {
  using F = typename Fmt::format;
  using S = typename Fmt::storage_type;
  constexpr std::size_t step = random_source16<Stochastic>::step;
  random_source16<Stochastic> random(r);
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
  const __m512 scale = _mm512_set1_ps(r.scale);
  const __m512i magnitude = splat(0x7FFFFFFFu);
  __m512i acc = _mm512_setzero_si512();
  std::uint64_t block = (r.offset + head) / per_block;
  std::size_t i = head;
  for (; i + step <= n; i += step, block += random.layout.blocks_per_step) {
    random.fill(block, step);
    for (std::size_t at = 0; at < step; at += 64) {
      __m512i x[4], res[4];
      MF_UNROLL
      for (std::size_t k = 0; k < 4; ++k) {
        x[k] = load16_float_bits(in + i + at + 16 * k, static_cast<__mmask16>(0xFFFF));
        if constexpr (Amax) acc = _mm512_max_epu32(acc, _mm512_and_si512(x[k], magnitude));
        x[k] = scaled16<Scale>(x[k], scale);
      }
      __m512i smallest = _mm512_and_si512(x[0], magnitude);
      MF_UNROLL
      for (std::size_t k = 1; k < 4; ++k) smallest = smallest_magnitude<ops>(smallest, x[k]);
      if (!Stochastic || any_below_min_normal<F, ops>(smallest)) {
        MF_UNROLL
        for (std::size_t k = 0; k < 4; ++k) {
          res[k] = encode_vector_fused<F, Stochastic, Mode, Ovf>(x[k],
                                                            random.values16(at / 16 + k));
        }
      } else {
        MF_UNROLL
        for (std::size_t k = 0; k < 4; ++k) {
          res[k] = encode_vector_fused<F, Stochastic, Mode, Ovf, false>(
              x[k], random.values16(at / 16 + k));
        }
      }
      if constexpr (sizeof(S) == 1) {
        const __m256i lo =
            _mm256_inserti128_si256(_mm256_castsi128_si256(_mm512_cvtepi32_epi8(res[0])),
                                    _mm512_cvtepi32_epi8(res[1]), 1);
        const __m256i hi =
            _mm256_inserti128_si256(_mm256_castsi128_si256(_mm512_cvtepi32_epi8(res[2])),
                                    _mm512_cvtepi32_epi8(res[3]), 1);
        _mm512_storeu_si512(out + i + at,
                            _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1));
      } else {
        MF_UNROLL
        for (std::size_t k = 0; k < 4; ++k) {
          _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + i + at + 16 * k),
                              _mm512_cvtepi32_epi16(res[k]));
        }
      }
    }
  }
  if (i < n) {
    // Tail: masked loads and stores.
    random.fill(block, n - i);
    for (std::size_t g = 0; g < step / 16 && i + 16 * g < n; ++g) {
      const __mmask16 m = first_lanes(n - i - 16 * g);
      const __m512i x = load16_float_bits(in + i + 16 * g, m);
      if constexpr (Amax) acc = _mm512_max_epu32(acc, _mm512_and_si512(x, magnitude));
      store_vector(out + i + 16 * g,
              encode_vector_fused<F, Stochastic, Mode, Ovf>(scaled16<Scale>(x, scale),
                                                       random.values16(g)),
              m);
    }
  }
  if constexpr (Amax) {
    const std::uint32_t lanes = static_cast<std::uint32_t>(_mm512_reduce_max_epu32(acc));
    amax = lanes > amax ? lanes : amax;
  }
  return amax;
}

// Returns the integer max of |x| bits when Amax (see amax_from_bits).
template <class Fmt, bool Stochastic, bool Scale, bool Amax>
MF_TARGET_AVX512 inline std::uint32_t encode_fused(const float* in,
                                                   typename Fmt::storage_type* out,
                                                   std::size_t n,
                                                   const detail::fused_request& r) {
  const auto kernel = [&](auto mode, auto ovf) {
    return encode_fused_mode<Fmt, Stochastic, decltype(mode)::value, decltype(ovf)::value, Scale,
                             Amax>(in, out, n, r);
  };
  return detail::with_mode_and_overflow<Stochastic>(r.mode, r.on_overflow, kernel);
}

template <class Fmt>
MF_TARGET_AVX512 inline void decode_scaled(const typename Fmt::storage_type* in, float* out,
                                           std::size_t n, float scale) {
  using F = typename Fmt::format;
  const __m512 factor = _mm512_set1_ps(scale);
  for (std::size_t i = 0; i < n; i += 16) {
    const __mmask16 m = first_lanes(n - i);
    const __m512 value = _mm512_castsi512_ps(decode_vector_at<F>(in + i, m));
    _mm512_mask_storeu_ps(out + i, m, _mm512_mul_ps(value, factor));
  }
}

// Integer max of |x| bits; with finite_only, NaN and Inf lanes are skipped.
MF_TARGET_AVX512 inline std::uint32_t amax_bits(const float* in, std::size_t n,
                                                bool finite_only) {
  const __m512i magnitude = splat(0x7FFFFFFFu);
  const __m512i limit = splat(finite_only ? 0x7F800000u : 0xFFFFFFFFu);
  __m512i acc[4] = {_mm512_setzero_si512(), _mm512_setzero_si512(), _mm512_setzero_si512(),
                    _mm512_setzero_si512()};
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    MF_UNROLL
    for (int k = 0; k < 4; ++k) {
      const __m512i a = _mm512_and_si512(_mm512_loadu_si512(in + i + 16 * k), magnitude);
      acc[k] = _mm512_mask_max_epu32(acc[k], _mm512_cmplt_epu32_mask(a, limit), acc[k], a);
    }
  }
  for (; i < n; i += 16) {
    const __mmask16 m = first_lanes(n - i);
    const __m512i a = _mm512_and_si512(_mm512_maskz_loadu_epi32(m, in + i), magnitude);
    acc[0] = _mm512_mask_max_epu32(acc[0], _mm512_cmplt_epu32_mask(a, limit), acc[0], a);
  }
  const __m512i all = _mm512_max_epu32(_mm512_max_epu32(acc[0], acc[1]),
                                       _mm512_max_epu32(acc[2], acc[3]));
  return static_cast<std::uint32_t>(_mm512_reduce_max_epu32(all));
}

}  // namespace avx512_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_X86
