// Tests only: the AVX-512 intrinsics of the library's kernels on a machine
// without AVX-512. SIMDe (Debian: libsimde-dev) provides most of them under
// their own names; the ones the installed SIMDe lacks (0.7.4) are written
// here, lane by lane, from the Intel Intrinsics Guide's descriptions. Include
// this before any minifloat header, and define MINIFLOAT_SIMD_EMULATED, so
// that the kernels are compiled for the build's own target (no target
// regions) and take their intrinsics from here. Build with -mavx2 -mfma
// -mf16c (SIMDe then includes <immintrin.h>, whose AVX-512 types it uses).
#pragma once

#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/avx512.h>

#include <cstdint>
#include <cstring>

namespace avx512_emulation {

template <class T, int N>
struct lanes {
  T v[N];
};

template <class T, int N, class V>
inline lanes<T, N> split(const V& x) {
  static_assert(sizeof(T) * N == sizeof(V), "lanes cover the vector");
  lanes<T, N> out;
  std::memcpy(out.v, &x, sizeof x);
  return out;
}

template <class V, class T, int N>
inline V join(const lanes<T, N>& in) {
  static_assert(sizeof(T) * N == sizeof(V), "lanes cover the vector");
  V x;
  std::memcpy(&x, in.v, sizeof x);
  return x;
}

// Masked loads and stores touch only the selected lanes (fault suppression).
template <class V, class T, int N, class Mask>
inline V masked_load(Mask k, const void* p) {
  lanes<T, N> out{};
  for (int i = 0; i < N; ++i) {
    if ((k >> i) & 1) std::memcpy(&out.v[i], static_cast<const char*>(p) + i * sizeof(T), sizeof(T));
  }
  return join<V>(out);
}

template <class T, int N, class Mask, class V>
inline void masked_store(void* p, Mask k, const V& x) {
  const lanes<T, N> in = split<T, N>(x);
  for (int i = 0; i < N; ++i) {
    if ((k >> i) & 1) std::memcpy(static_cast<char*>(p) + i * sizeof(T), &in.v[i], sizeof(T));
  }
}

template <class T, int N, class Compare>
inline std::uint64_t compare(const __m512i& a, const __m512i& b, Compare c) {
  const lanes<T, N> x = split<T, N>(a), y = split<T, N>(b);
  std::uint64_t k = 0;
  for (int i = 0; i < N; ++i) k |= static_cast<std::uint64_t>(c(x.v[i], y.v[i]) ? 1 : 0) << i;
  return k;
}

// Element-wise narrowing / widening between lane types (truncating, or
// zero-extending for unsigned sources).
template <class To, class From, int N, class Out, class In>
inline Out convert(const In& x) {
  const lanes<From, N> in = split<From, N>(x);
  lanes<To, sizeof(Out) / sizeof(To)> out{};
  for (int i = 0; i < N; ++i) out.v[i] = static_cast<To>(in.v[i]);
  return join<Out>(out);
}

// VPSHUFD: within each 128-bit lane, dword j takes dword (imm >> 2j) & 3.
inline __m512i shuffle_dwords(const __m512i& a, int imm) {
  const lanes<std::uint32_t, 16> x = split<std::uint32_t, 16>(a);
  lanes<std::uint32_t, 16> out{};
  for (int i = 0; i < 16; ++i) out.v[i] = x.v[(i & ~3) + ((imm >> (2 * (i & 3))) & 3)];
  return join<__m512i>(out);
}

inline __m512i blend_dwords(std::uint16_t k, const __m512i& src, const __m512i& a) {
  const lanes<std::uint32_t, 16> s = split<std::uint32_t, 16>(src), x = split<std::uint32_t, 16>(a);
  lanes<std::uint32_t, 16> out{};
  for (int i = 0; i < 16; ++i) out.v[i] = ((k >> i) & 1) ? x.v[i] : s.v[i];
  return join<__m512i>(out);
}

// Binary16 bits to float, exactly (every binary16 value is a float).
inline float half_to_float(std::uint16_t h) {
  const int exponent = (h >> 10) & 0x1F;
  const std::uint32_t mantissa = h & 0x3FFu;
  const std::uint32_t sign = static_cast<std::uint32_t>(h & 0x8000u) << 16;
  std::uint32_t bits;
  if (exponent == 31) {
    bits = sign | 0x7F800000u | (mantissa << 13);
  } else if (exponent != 0) {
    bits = sign | (static_cast<std::uint32_t>(exponent - 15 + 127) << 23) | (mantissa << 13);
  } else {
    float f = static_cast<float>(mantissa) * (1.0f / 16777216.0f);  // m * 2^-24, exact
    std::memcpy(&bits, &f, sizeof f);
    bits |= sign;
  }
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace avx512_emulation

namespace ae = avx512_emulation;

// ---- the intrinsics the installed SIMDe lacks -------------------------------
#undef _mm_maskz_loadu_epi8
#define _mm_maskz_loadu_epi8(k, p) (ae::masked_load<__m128i, std::uint8_t, 16>((k), (p)))
#undef _mm256_maskz_loadu_epi8
#define _mm256_maskz_loadu_epi8(k, p) (ae::masked_load<__m256i, std::uint8_t, 32>((k), (p)))
#undef _mm256_maskz_loadu_epi16
#define _mm256_maskz_loadu_epi16(k, p) (ae::masked_load<__m256i, std::uint16_t, 16>((k), (p)))
#undef _mm512_maskz_loadu_epi8
#define _mm512_maskz_loadu_epi8(k, p) (ae::masked_load<__m512i, std::uint8_t, 64>((k), (p)))
#undef _mm512_maskz_loadu_epi32
#define _mm512_maskz_loadu_epi32(k, p) (ae::masked_load<__m512i, std::uint32_t, 16>((k), (p)))
#undef _mm512_maskz_loadu_epi64
#define _mm512_maskz_loadu_epi64(k, p) (ae::masked_load<__m512i, std::uint64_t, 8>((k), (p)))
#undef _mm256_mask_storeu_epi32
#define _mm256_mask_storeu_epi32(p, k, a) (ae::masked_store<std::uint32_t, 8>((p), (k), (a)))
#undef _mm512_mask_storeu_epi32
#define _mm512_mask_storeu_epi32(p, k, a) (ae::masked_store<std::uint32_t, 16>((p), (k), (a)))
#undef _mm512_mask_storeu_ps
#define _mm512_mask_storeu_ps(p, k, a) (ae::masked_store<float, 16>((p), (k), (a)))

// VPMOVDB / VPMOVDW with a mask: each selected dword truncated to To.
template <class To>
inline void mf_emulated_mask_narrowing_store(void* p, std::uint16_t k, const __m512i& a) {
  const ae::lanes<std::uint32_t, 16> x = ae::split<std::uint32_t, 16>(a);
  for (int i = 0; i < 16; ++i) {
    if ((k >> i) & 1) {
      const auto v = static_cast<To>(x.v[i]);
      std::memcpy(static_cast<char*>(p) + sizeof(To) * i, &v, sizeof(To));
    }
  }
}
#undef _mm512_mask_cvtepi32_storeu_epi8
#define _mm512_mask_cvtepi32_storeu_epi8(p, k, a) \
  mf_emulated_mask_narrowing_store<std::uint8_t>((p), (k), (a))
#undef _mm512_mask_cvtepi32_storeu_epi16
#define _mm512_mask_cvtepi32_storeu_epi16(p, k, a) \
  mf_emulated_mask_narrowing_store<std::uint16_t>((p), (k), (a))

#undef _mm512_cmpgt_epu32_mask
#define _mm512_cmpgt_epu32_mask(a, b) \
  static_cast<__mmask16>(ae::compare<std::uint32_t, 16>((a), (b), [](std::uint32_t x, std::uint32_t y) { return x > y; }))
#undef _mm512_cmplt_epu32_mask
#define _mm512_cmplt_epu32_mask(a, b) \
  static_cast<__mmask16>(ae::compare<std::uint32_t, 16>((a), (b), [](std::uint32_t x, std::uint32_t y) { return x < y; }))
#undef _mm512_cmplt_epi32_mask
#define _mm512_cmplt_epi32_mask(a, b) \
  static_cast<__mmask16>(ae::compare<std::int32_t, 16>((a), (b), [](std::int32_t x, std::int32_t y) { return x < y; }))
#undef _mm512_mask_cmpgt_epu32_mask
#define _mm512_mask_cmpgt_epu32_mask(k, a, b) \
  static_cast<__mmask16>((k) & _mm512_cmpgt_epu32_mask((a), (b)))
#undef _mm512_cmpgt_epu64_mask
#define _mm512_cmpgt_epu64_mask(a, b) \
  static_cast<__mmask8>(ae::compare<std::uint64_t, 8>((a), (b), [](std::uint64_t x, std::uint64_t y) { return x > y; }))
#undef _mm512_cmplt_epu64_mask
#define _mm512_cmplt_epu64_mask(a, b) \
  static_cast<__mmask8>(ae::compare<std::uint64_t, 8>((a), (b), [](std::uint64_t x, std::uint64_t y) { return x < y; }))
#undef _mm512_cmpneq_epi64_mask
#define _mm512_cmpneq_epi64_mask(a, b) \
  static_cast<__mmask8>(ae::compare<std::uint64_t, 8>((a), (b), [](std::uint64_t x, std::uint64_t y) { return x != y; }))
#undef _mm512_cmpeq_epi16_mask
#define _mm512_cmpeq_epi16_mask(a, b) \
  static_cast<__mmask32>(ae::compare<std::uint16_t, 32>((a), (b), [](std::uint16_t x, std::uint16_t y) { return x == y; }))
#undef _mm512_cmpgt_epu16_mask
#define _mm512_cmpgt_epu16_mask(a, b) \
  static_cast<__mmask32>(ae::compare<std::uint16_t, 32>((a), (b), [](std::uint16_t x, std::uint16_t y) { return x > y; }))
#undef _mm512_testn_epi16_mask
#define _mm512_testn_epi16_mask(a, b) \
  static_cast<__mmask32>(ae::compare<std::uint16_t, 32>((a), (b), [](std::uint16_t x, std::uint16_t y) { return (x & y) == 0; }))
#undef _mm512_testn_epi32_mask
#define _mm512_testn_epi32_mask(a, b) \
  static_cast<__mmask16>(ae::compare<std::uint32_t, 16>((a), (b), [](std::uint32_t x, std::uint32_t y) { return (x & y) == 0; }))

#undef _mm512_cvtepi32_epi8
#define _mm512_cvtepi32_epi8(a) (ae::convert<std::uint8_t, std::uint32_t, 16, __m128i>((a)))
#undef _mm512_cvtepi32_epi16
#define _mm512_cvtepi32_epi16(a) (ae::convert<std::uint16_t, std::uint32_t, 16, __m256i>((a)))
#undef _mm512_cvtepi64_epi8
#define _mm512_cvtepi64_epi8(a) (ae::convert<std::uint8_t, std::uint64_t, 8, __m128i>((a)))
#undef _mm512_cvtepu8_epi32
#define _mm512_cvtepu8_epi32(a) (ae::convert<std::uint32_t, std::uint8_t, 16, __m512i>((a)))
#undef _mm512_cvtepu8_epi16
#define _mm512_cvtepu8_epi16(a) (ae::convert<std::uint16_t, std::uint8_t, 32, __m512i>((a)))
#undef _mm512_cvtepu16_epi32
#define _mm512_cvtepu16_epi32(a) (ae::convert<std::uint32_t, std::uint16_t, 16, __m512i>((a)))
// Rounded by the current rounding direction, as MXCSR would (the tests run
// in the default environment).
#undef _mm512_cvtepi32_ps
#define _mm512_cvtepi32_ps(a) (ae::convert<float, std::int32_t, 16, __m512>((a)))
#undef _mm512_cvtps_pd
#define _mm512_cvtps_pd(a) (ae::convert<double, float, 8, __m512d>((a)))
#undef _mm512_cvtpd_ps
#define _mm512_cvtpd_ps(a) (ae::convert<float, double, 8, __m256>((a)))

inline __m512 mf_emulated_cvtph_ps(const __m256i& a) {
  const ae::lanes<std::uint16_t, 16> x = ae::split<std::uint16_t, 16>(a);
  ae::lanes<float, 16> out{};
  for (int i = 0; i < 16; ++i) out.v[i] = ae::half_to_float(x.v[i]);
  return ae::join<__m512>(out);
}
#undef _mm512_cvtph_ps
#define _mm512_cvtph_ps(a) mf_emulated_cvtph_ps((a))

// VCVTPS2PH zmm: the F16C instruction (the build has -mf16c) on each half,
// with the same rounding immediate.
template <int Rounding>
inline __m256i mf_emulated_cvtps_ph(const __m512& a) {
  const ae::lanes<float, 16> x = ae::split<float, 16>(a);
  const __m128i low = _mm256_cvtps_ph(_mm256_loadu_ps(x.v), Rounding);
  const __m128i high = _mm256_cvtps_ph(_mm256_loadu_ps(x.v + 8), Rounding);
  ae::lanes<std::uint16_t, 16> out{};
  std::memcpy(out.v, &low, sizeof low);
  std::memcpy(out.v + 8, &high, sizeof high);
  return ae::join<__m256i>(out);
}
#undef _mm512_cvtps_ph
#define _mm512_cvtps_ph(a, rounding) mf_emulated_cvtps_ph<(rounding)>((a))

// {rn-sae}: round to nearest whatever MXCSR's rounding field says. MXCSR
// itself is restored afterwards, bit for bit (std::fesetround would restore
// the x87 control word's rounding into MXCSR too, and undo a test's
// _mm_setcsr for the float code that follows).
inline __m512 mf_emulated_add_round_nearest(const __m512& a, const __m512& b) {
  const ae::lanes<float, 16> x = ae::split<float, 16>(a), y = ae::split<float, 16>(b);
  ae::lanes<float, 16> out{};
  const unsigned saved = _mm_getcsr();
  _mm_setcsr(saved & ~0x6000u);  // RC = round to nearest
  for (int i = 0; i < 16; ++i) {
    volatile float sum = x.v[i] + y.v[i];
    out.v[i] = sum;
  }
  _mm_setcsr(saved);
  return ae::join<__m512>(out);
}
#undef _mm512_add_round_ps
#define _mm512_add_round_ps(a, b, rounding) mf_emulated_add_round_nearest((a), (b))

inline __m512i mf_emulated_maskz_srlv_epi32(std::uint16_t k, const __m512i& a, const __m512i& count) {
  const ae::lanes<std::uint32_t, 16> x = ae::split<std::uint32_t, 16>(a);
  const ae::lanes<std::uint32_t, 16> c = ae::split<std::uint32_t, 16>(count);
  ae::lanes<std::uint32_t, 16> out{};
  for (int i = 0; i < 16; ++i) {
    if ((k >> i) & 1) out.v[i] = c.v[i] > 31 ? 0u : x.v[i] >> c.v[i];
  }
  return ae::join<__m512i>(out);
}
#undef _mm512_maskz_srlv_epi32
#define _mm512_maskz_srlv_epi32(k, a, count) mf_emulated_maskz_srlv_epi32((k), (a), (count))

#undef _mm512_shuffle_epi32
#define _mm512_shuffle_epi32(a, imm) ae::shuffle_dwords((a), static_cast<int>(imm))
#undef _mm512_mask_shuffle_epi32
#define _mm512_mask_shuffle_epi32(src, k, a, imm) \
  ae::blend_dwords((k), (src), ae::shuffle_dwords((a), static_cast<int>(imm)))

inline std::uint32_t mf_emulated_reduce_max_epu32(const __m512i& a) {
  const ae::lanes<std::uint32_t, 16> x = ae::split<std::uint32_t, 16>(a);
  std::uint32_t m = 0;
  for (std::uint32_t v : x.v) m = v > m ? v : m;
  return m;
}
#undef _mm512_reduce_max_epu32
#define _mm512_reduce_max_epu32(a) mf_emulated_reduce_max_epu32((a))
#undef _mm512_stream_si512
#define _mm512_stream_si512(p, a) _mm512_storeu_si512((p), (a))
#undef _mm512_undefined_epi32
#define _mm512_undefined_epi32() _mm512_setzero_si512()
