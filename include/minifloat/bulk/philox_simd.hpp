// Philox4x32-10 (random.hpp) evaluated for many counters at once, giving the
// stochastic-rounding stream's words in order: word j of the result is
// mf::stochastic_random_word(seed, 4 * block + j), bit for bit, whatever the
// vector width.
//
// x86 layout: one Philox block per 64-bit lane, its four state words in four
// vectors (low half of each lane; the high half holds garbage that
// vpmuludq ignores). A round is then two vpmuludq (the 64-bit products are
// hi:lo, so the lo words need no work), two dword shuffles for the hi words
// and two three-way xors. The lanes hold the blocks in an order chosen so
// that two unpacks at the end leave the words in element order. The NEON
// layout is described in its section at the end.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../random.hpp"
#include "dispatch.hpp"

namespace mf {
namespace bulk {
namespace detail {

// The ten round keys of Philox4x32-10 for a seed (Weyl-bumped per round).
struct philox_round_keys {
  std::uint32_t k0[10];
  std::uint32_t k1[10];
};

inline philox_round_keys make_philox_round_keys(std::uint64_t seed) noexcept {
  philox_round_keys keys{};
  std::uint32_t a = static_cast<std::uint32_t>(seed);
  std::uint32_t b = static_cast<std::uint32_t>(seed >> 32);
  for (int r = 0; r < 10; ++r) {
    keys.k0[r] = a;
    keys.k1[r] = b;
    a = static_cast<std::uint32_t>(a + mf::detail::philox4x32_weyl_0);
    b = static_cast<std::uint32_t>(b + mf::detail::philox4x32_weyl_1);
  }
  return keys;
}

}  // namespace detail
}  // namespace bulk
}  // namespace mf

#if MF_BULK_X86
#include "avx2.hpp"
#include "avx512.hpp"
#include "x86_intrinsics.hpp"

namespace mf {
namespace bulk {
namespace avx512_kernels {

// Round keys and multipliers as broadcast vectors, built once per call.
struct philox16 {
  __m512i k0[10];
  __m512i k1[10];
  __m512i m0, m1;
  // Lane order of the blocks: lane 2k holds block k, lane 2k + 1 block k + 4,
  // so that unpacklo/unpackhi give blocks 0..3 and 4..7 in order.
  __m512i order;

  MF_TARGET_AVX512 explicit philox16(std::uint64_t seed) {
    const detail::philox_round_keys keys = detail::make_philox_round_keys(seed);
    for (int r = 0; r < 10; ++r) {
      k0[r] = _mm512_set1_epi32(static_cast<int>(keys.k0[r]));
      k1[r] = _mm512_set1_epi32(static_cast<int>(keys.k1[r]));
    }
    m0 = _mm512_set1_epi64(mf::detail::philox4x32_multiplier_0);
    m1 = _mm512_set1_epi64(mf::detail::philox4x32_multiplier_1);
    order = _mm512_setr_epi64(0, 4, 1, 5, 2, 6, 3, 7);
  }
};

// 8 * Chains blocks (block .. block + 8 * Chains - 1) -> the words of
// elements 4 * block on, 16 a vector, in w[0], w[1], ... The chains are
// independent and advance round by round together, so that the
// multiplications of one hide the latency of another.
template <int Chains>
MF_TARGET_AVX512 inline void philox_words(const philox16& p, std::uint64_t block,
                                          __m512i (&w)[2 * Chains]) {
  __m512i x0[Chains], x1[Chains], x2[Chains], x3[Chains];
  for (int c = 0; c < Chains; ++c) {
    const __m512i counter = _mm512_add_epi64(
        _mm512_set1_epi64(static_cast<long long>(block + 8 * static_cast<std::uint64_t>(c))),
        p.order);
    // Round 1: counter words 2 and 3 are zero, so one product and no xor
    // with them: X = {hi ^ k0, 0, hi(M0 * lo) ^ k1, lo(M0 * lo)}.
    const __m512i p0 = _mm512_mul_epu32(counter, p.m0);
    x0[c] = _mm512_xor_si512(_mm512_srli_epi64(counter, 32), p.k0[0]);
    x2[c] = _mm512_xor_si512(_mm512_shuffle_epi32(p0, _MM_PERM_DDBB), p.k1[0]);
    x3[c] = p0;
    // Round 2: word 1 is zero.
    const __m512i p1 = _mm512_mul_epu32(x2[c], p.m1);
    const __m512i q0 = _mm512_mul_epu32(x0[c], p.m0);
    x0[c] = _mm512_xor_si512(_mm512_shuffle_epi32(p1, _MM_PERM_DDBB), p.k0[1]);
    x1[c] = p1;
    x2[c] = _mm512_ternarylogic_epi32(_mm512_shuffle_epi32(q0, _MM_PERM_DDBB), x3[c], p.k1[1],
                                      0x96);
    x3[c] = q0;
  }
  for (int r = 2; r < 10; ++r) {
    for (int c = 0; c < Chains; ++c) {
      const __m512i p0 = _mm512_mul_epu32(x0[c], p.m0);
      const __m512i p1 = _mm512_mul_epu32(x2[c], p.m1);
      x0[c] = _mm512_ternarylogic_epi32(_mm512_shuffle_epi32(p1, _MM_PERM_DDBB), x1[c],
                                        p.k0[r], 0x96);
      x1[c] = p1;
      x2[c] = _mm512_ternarylogic_epi32(_mm512_shuffle_epi32(p0, _MM_PERM_DDBB), x3[c],
                                        p.k1[r], 0x96);
      x3[c] = p0;
    }
  }
  for (int c = 0; c < Chains; ++c) {
    // Per 64-bit lane: {w0, w1} and {w2, w3}; then one block per 128 bits.
    const __m512i w01 = _mm512_mask_shuffle_epi32(x0[c], 0xAAAA, x1[c], _MM_PERM_CCAA);
    const __m512i w23 = _mm512_mask_shuffle_epi32(x2[c], 0xAAAA, x3[c], _MM_PERM_CCAA);
    w[2 * c] = _mm512_unpacklo_epi64(w01, w23);
    w[2 * c + 1] = _mm512_unpackhi_epi64(w01, w23);
  }
}

// The random values of `count` (<= 512) consecutive elements whose lanes
// start at Philox block `block`, as the rounding kernels take them: element
// e's lane (lane_bytes bytes of the stream, see random.hpp) shifted left by
// 32 - random_bits (align_shift), to out[e]; out is 64-byte aligned with
// room for count rounded up to 16. Not inlined: the kernels call it once per
// 512 elements, and it is the same code for every format, source and mode,
// so one copy serves them all (inlined into each, it multiplied the compile
// time of the stochastic kernels by 2.5).
MF_TARGET_AVX512 __attribute__((noinline)) inline void stochastic_values(
    const philox16& p, std::uint64_t block, int lane_bytes, __m512i align_shift,
    std::uint32_t* out, std::size_t count) {
  alignas(64) std::uint8_t bytes[2048];
  const std::size_t groups = (count + 15) / 16;
  const std::size_t needed = 16 * groups * static_cast<std::size_t>(lane_bytes);
  // Four chains at a time where there is enough to do (see philox_words);
  // bytes past `needed` may be written, never past the buffer.
  for (std::size_t done = 0; done < needed; block += 8) {
    if (needed - done >= 512) {
      __m512i w[8];
      philox_words<4>(p, block, w);
      for (int k = 0; k < 8; ++k) _mm512_store_si512(bytes + done + 64 * k, w[k]);
      done += 512;
      block += 24;
    } else {
      __m512i w[2];
      philox_words<1>(p, block, w);
      _mm512_store_si512(bytes + done, w[0]);
      _mm512_store_si512(bytes + done + 64, w[1]);
      done += 128;
    }
  }
  for (std::size_t g = 0; g < groups; ++g) {
    __m512i v;
    if (lane_bytes == 1) {
      v = _mm512_cvtepu8_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(bytes + 16 * g)));
    } else if (lane_bytes == 2) {
      v = _mm512_cvtepu16_epi32(
          _mm256_load_si256(reinterpret_cast<const __m256i*>(bytes + 32 * g)));
    } else {
      v = _mm512_load_si512(bytes + 64 * g);
    }
    _mm512_store_si512(out + 16 * g, _mm512_sllv_epi32(v, align_shift));
  }
}

}  // namespace avx512_kernels

namespace avx2_kernels {

struct philox8 {
  __m256i k0[10];
  __m256i k1[10];
  __m256i m0, m1;
  // Lane 0 holds block 0, lane 1 block 2, lane 2 block 1, lane 3 block 3.
  __m256i order;

  MF_TARGET_AVX2 explicit philox8(std::uint64_t seed) {
    const detail::philox_round_keys keys = detail::make_philox_round_keys(seed);
    for (int r = 0; r < 10; ++r) {
      k0[r] = _mm256_set1_epi32(static_cast<int>(keys.k0[r]));
      k1[r] = _mm256_set1_epi32(static_cast<int>(keys.k1[r]));
    }
    m0 = _mm256_set1_epi64x(mf::detail::philox4x32_multiplier_0);
    m1 = _mm256_set1_epi64x(mf::detail::philox4x32_multiplier_1);
    order = _mm256_setr_epi64x(0, 2, 1, 3);
  }
};

MF_TARGET_AVX2 inline __m256i xor3(__m256i a, __m256i b, __m256i c) {
  return _mm256_xor_si256(_mm256_xor_si256(a, b), c);
}

// 4 * Chains blocks (block .. block + 4 * Chains - 1) -> the words of
// elements 4 * block on, 8 a vector, in w[0], w[1], ... (independent chains
// as in the AVX-512 version).
template <int Chains>
MF_TARGET_AVX2 inline void philox_words(const philox8& p, std::uint64_t block,
                                        __m256i (&w)[2 * Chains]) {
  __m256i x0[Chains], x1[Chains], x2[Chains], x3[Chains];
  for (int c = 0; c < Chains; ++c) {
    const __m256i counter = _mm256_add_epi64(
        _mm256_set1_epi64x(static_cast<long long>(block + 4 * static_cast<std::uint64_t>(c))),
        p.order);
    const __m256i p0 = _mm256_mul_epu32(counter, p.m0);
    x0[c] = _mm256_xor_si256(_mm256_srli_epi64(counter, 32), p.k0[0]);
    x2[c] = _mm256_xor_si256(_mm256_shuffle_epi32(p0, 0xF5), p.k1[0]);
    x3[c] = p0;
    const __m256i p1 = _mm256_mul_epu32(x2[c], p.m1);
    const __m256i q0 = _mm256_mul_epu32(x0[c], p.m0);
    x0[c] = _mm256_xor_si256(_mm256_shuffle_epi32(p1, 0xF5), p.k0[1]);
    x1[c] = p1;
    x2[c] = xor3(_mm256_shuffle_epi32(q0, 0xF5), x3[c], p.k1[1]);
    x3[c] = q0;
  }
  for (int r = 2; r < 10; ++r) {
    for (int c = 0; c < Chains; ++c) {
      const __m256i p0 = _mm256_mul_epu32(x0[c], p.m0);
      const __m256i p1 = _mm256_mul_epu32(x2[c], p.m1);
      x0[c] = xor3(_mm256_shuffle_epi32(p1, 0xF5), x1[c], p.k0[r]);
      x1[c] = p1;
      x2[c] = xor3(_mm256_shuffle_epi32(p0, 0xF5), x3[c], p.k1[r]);
      x3[c] = p0;
    }
  }
  for (int c = 0; c < Chains; ++c) {
    const __m256i w01 = _mm256_blend_epi32(x0[c], _mm256_slli_epi64(x1[c], 32), 0xAA);
    const __m256i w23 = _mm256_blend_epi32(x2[c], _mm256_slli_epi64(x3[c], 32), 0xAA);
    w[2 * c] = _mm256_unpacklo_epi64(w01, w23);
    w[2 * c + 1] = _mm256_unpackhi_epi64(w01, w23);
  }
}

// As the AVX-512 stochastic_values; out is 32-byte aligned with room for
// count rounded up to 8.
MF_TARGET_AVX2 __attribute__((noinline)) inline void stochastic_values(
    const philox8& p, std::uint64_t block, int lane_bytes, __m256i align_shift,
    std::uint32_t* out, std::size_t count) {
  alignas(32) std::uint8_t bytes[2048];
  const std::size_t groups = (count + 7) / 8;
  const std::size_t needed = 8 * groups * static_cast<std::size_t>(lane_bytes);
  for (std::size_t done = 0; done < needed; block += 4) {
    if (needed - done >= 128) {
      __m256i w[4];
      philox_words<2>(p, block, w);
      for (int k = 0; k < 4; ++k) {
        _mm256_store_si256(reinterpret_cast<__m256i*>(bytes + done + 32 * k), w[k]);
      }
      done += 128;
      block += 4;
    } else {
      __m256i w[2];
      philox_words<1>(p, block, w);
      _mm256_store_si256(reinterpret_cast<__m256i*>(bytes + done), w[0]);
      _mm256_store_si256(reinterpret_cast<__m256i*>(bytes + done + 32), w[1]);
      done += 64;
    }
  }
  for (std::size_t g = 0; g < groups; ++g) {
    __m256i v;
    if (lane_bytes == 1) {
      v = _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(bytes + 8 * g)));
    } else if (lane_bytes == 2) {
      v = _mm256_cvtepu16_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(bytes + 16 * g)));
    } else {
      v = _mm256_load_si256(reinterpret_cast<const __m256i*>(bytes + 32 * g));
    }
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + 8 * g), _mm256_sllv_epi32(v, align_shift));
  }
}

}  // namespace avx2_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_X86

#if MF_BULK_NEON
#include "neon.hpp"

namespace mf {
namespace bulk {
namespace neon_kernels {

// NEON layout: four blocks per set of four vectors, vector k holding word k
// of each (one block per 32-bit lane). A round is two pairs of UMULL /
// UMULL2 (32x32->64 products) whose halves UZP1 / UZP2 gather into a lo
// and a hi vector, and four xors; at the end ST4 interleaves the four
// vectors, which writes the blocks' words in element order.
struct philox4 {
  uint32x4_t k0[10];
  uint32x4_t k1[10];

  explicit philox4(std::uint64_t seed) {
    const detail::philox_round_keys keys = detail::make_philox_round_keys(seed);
    for (int r = 0; r < 10; ++r) {
      k0[r] = vdupq_n_u32(keys.k0[r]);
      k1[r] = vdupq_n_u32(keys.k1[r]);
    }
  }
};

// The low and high 32-bit halves of the lanes' products x * m.
inline void multiply_lo_hi(uint32x4_t x, std::uint32_t m, uint32x4_t& lo, uint32x4_t& hi) {
  const uint32x4_t mv = vdupq_n_u32(m);
  const uint32x4_t p01 = vreinterpretq_u32_u64(vmull_u32(vget_low_u32(x), vget_low_u32(mv)));
  const uint32x4_t p23 = vreinterpretq_u32_u64(vmull_high_u32(x, mv));
  lo = vuzp1q_u32(p01, p23);
  hi = vuzp2q_u32(p01, p23);
}

// 4 * Chains blocks (block .. block + 4 * Chains - 1) -> the words of
// elements 4 * block on, 64 bytes a chain, stored to `bytes` (independent
// chains as in the AVX-512 version).
template <int Chains>
inline void philox_words(const philox4& p, std::uint64_t block, std::uint8_t* bytes) {
  using mf::detail::philox4x32_multiplier_0;
  using mf::detail::philox4x32_multiplier_1;
  const uint64x2_t lanes01 = vcombine_u64(vcreate_u64(0), vcreate_u64(1));
  const uint64x2_t lanes23 = vcombine_u64(vcreate_u64(2), vcreate_u64(3));
  uint32x4_t x0[Chains], x1[Chains], x2[Chains], x3[Chains];
  for (int c = 0; c < Chains; ++c) {
    // The 64-bit counters block + 4c + j split into low and high words.
    const uint64x2_t first = vdupq_n_u64(block + 4 * static_cast<std::uint64_t>(c));
    const uint32x4_t b01 = vreinterpretq_u32_u64(vaddq_u64(first, lanes01));
    const uint32x4_t b23 = vreinterpretq_u32_u64(vaddq_u64(first, lanes23));
    // Round 1: counter words 2 and 3 are zero, so one product and no xor
    // with them: X = {hi ^ k0, 0, hi(M0 * lo) ^ k1, lo(M0 * lo)}.
    uint32x4_t lo0, hi0;
    multiply_lo_hi(vuzp1q_u32(b01, b23), philox4x32_multiplier_0, lo0, hi0);
    x0[c] = veorq_u32(vuzp2q_u32(b01, b23), p.k0[0]);
    x1[c] = vdupq_n_u32(0);
    x2[c] = veorq_u32(hi0, p.k1[0]);
    x3[c] = lo0;
  }
  for (int r = 1; r < 10; ++r) {
    for (int c = 0; c < Chains; ++c) {
      uint32x4_t lo0, hi0, lo1, hi1;
      multiply_lo_hi(x0[c], philox4x32_multiplier_0, lo0, hi0);
      multiply_lo_hi(x2[c], philox4x32_multiplier_1, lo1, hi1);
      x0[c] = veorq_u32(veorq_u32(hi1, x1[c]), p.k0[r]);
      x1[c] = lo1;
      x2[c] = veorq_u32(veorq_u32(hi0, x3[c]), p.k1[r]);
      x3[c] = lo0;
    }
  }
  for (int c = 0; c < Chains; ++c) {
    const uint32x4x4_t words = {{x0[c], x1[c], x2[c], x3[c]}};
    vst4q_u32(reinterpret_cast<std::uint32_t*>(bytes + 64 * c), words);
  }
}

// As the AVX-512 stochastic_values, 16 elements a group: element e's lane
// shifted left by 32 - random_bits (align_shift, USHL's count) to out[e];
// out has room for count rounded up to 16. Not inlined, for the same
// reason.
__attribute__((noinline)) inline void stochastic_values(const philox4& p, std::uint64_t block,
                                                        int lane_bytes, int32x4_t align_shift,
                                                        std::uint32_t* out, std::size_t count) {
  alignas(16) std::uint8_t bytes[2048];
  const std::size_t groups = (count + 15) / 16;
  const std::size_t needed = 16 * groups * static_cast<std::size_t>(lane_bytes);
  // 64 bytes a chain; bytes past `needed` may be written, never past the
  // buffer (2048 is a multiple of 64).
  for (std::size_t done = 0; done < needed;) {
    if (needed - done >= 256) {
      philox_words<4>(p, block, bytes + done);
      done += 256;
      block += 16;
    } else {
      philox_words<1>(p, block, bytes + done);
      done += 64;
      block += 4;
    }
  }
  for (std::size_t g = 0; g < groups; ++g) {
    uint32x4_t v[4];
    if (lane_bytes == 1) {
      const uint8x16_t b = vld1q_u8(bytes + 16 * g);
      const uint16x8_t lo = vmovl_u8(vget_low_u8(b));
      const uint16x8_t hi = vmovl_high_u8(b);
      v[0] = vmovl_u16(vget_low_u16(lo));
      v[1] = vmovl_high_u16(lo);
      v[2] = vmovl_u16(vget_low_u16(hi));
      v[3] = vmovl_high_u16(hi);
    } else if (lane_bytes == 2) {
      const uint16x8_t lo = vld1q_u16(reinterpret_cast<const std::uint16_t*>(bytes + 32 * g));
      const uint16x8_t hi =
          vld1q_u16(reinterpret_cast<const std::uint16_t*>(bytes + 32 * g + 16));
      v[0] = vmovl_u16(vget_low_u16(lo));
      v[1] = vmovl_high_u16(lo);
      v[2] = vmovl_u16(vget_low_u16(hi));
      v[3] = vmovl_high_u16(hi);
    } else {
      for (int k = 0; k < 4; ++k) {
        v[k] = vld1q_u32(reinterpret_cast<const std::uint32_t*>(bytes + 64 * g + 16 * k));
      }
    }
    for (int k = 0; k < 4; ++k) vst1q_u32(out + 16 * g + 4 * k, vshlq_u32(v[k], align_shift));
  }
}

}  // namespace neon_kernels
}  // namespace bulk
}  // namespace mf

#endif  // MF_BULK_NEON
