// The avx512_bf16_pairs model against the CPU's own VDPBF16PS, bit for bit
// (NaN as a class), on random and edge inputs. Skipped, visibly, on CPUs
// without AVX512-BF16 and off x86-64.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#include <minifloat/hybrid.hpp>

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define MINIFLOAT_TEST_HAS_VDPBF16PS 1
#include <cpuid.h>
#include <immintrin.h>
#else
#define MINIFLOAT_TEST_HAS_VDPBF16PS 0
#endif

namespace {

namespace hy = mf::hybrid;

#if MINIFLOAT_TEST_HAS_VDPBF16PS
bool cpu_has_avx512_bf16() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d) || !(b & (1u << 16))) return false;  // AVX512F
  if (!__get_cpuid_count(7, 1, &a, &b, &c, &d)) return false;
  if (!(a & (1u << 5))) return false;  // AVX512_BF16
  unsigned lo = 0, hi = 0;
  __asm__("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  return (lo & 0xE6u) == 0xE6u;  // the OS saves the opmask and zmm state
}

// 16 independent dot products of k BF16 elements, one per lane; lane j's
// pair i is (a[j][2i], a[j][2i+1]).
__attribute__((target("avx512f,avx512bf16"))) void hardware_dots(
    const std::vector<std::uint16_t>& a, const std::vector<std::uint16_t>& b, std::size_t k,
    float out[16]) {
  __m512 acc = _mm512_setzero_ps();
  for (std::size_t i = 0; i < k; i += 2) {
    alignas(64) std::uint16_t va[32], vb[32];
    for (int lane = 0; lane < 16; ++lane) {
      for (int h = 0; h < 2; ++h) {
        const std::size_t idx = i + h;
        va[2 * lane + h] = idx < k ? a[lane * k + idx] : 0;  // odd K: (+0, +0) appended
        vb[2 * lane + h] = idx < k ? b[lane * k + idx] : 0;
      }
    }
    __m512bh x, y;
    std::memcpy(&x, va, 64);
    std::memcpy(&y, vb, 64);
    acc = _mm512_dpbf16_ps(acc, x, y);
  }
  _mm512_storeu_ps(out, acc);
}

// A BF16 code: mostly exponents near where products are tiny, cancel, or
// overflow; some subnormals, zeros, Inf and NaN.
std::uint16_t edge_bf16(std::mt19937_64& rng) {
  const auto r = rng();
  const std::uint16_t sign = (r & 1) ? 0x8000 : 0;
  const std::uint16_t mantissa = static_cast<std::uint16_t>((r >> 8) & 0x7F);
  switch ((r >> 16) % 10) {
    case 0: return sign | mantissa;                                     // zero / subnormal
    case 1: return sign | static_cast<std::uint16_t>((((r >> 24) % 4 + 1) << 7) | mantissa);  // near 2^-126
    case 2: return sign | static_cast<std::uint16_t>(((60 + (r >> 24) % 8) << 7) | mantissa);  // products near 2^-126
    case 3: return sign | static_cast<std::uint16_t>(((250 + (r >> 24) % 5) << 7) | mantissa);  // overflow
    case 4: return (r >> 24) % 20 == 0 ? static_cast<std::uint16_t>(sign | 0x7F80 | ((r >> 32) % 2 ? 0x40 : 0))
                                       : static_cast<std::uint16_t>(sign | (127 << 7));         // Inf/NaN or 1
    default: return sign | static_cast<std::uint16_t>(((112 + (r >> 24) % 32) << 7) | mantissa);  // near 1
  }
}
#endif

TEST(HybridVdpbf16ps, ModelEqualsTheInstruction) {
#if MINIFLOAT_TEST_HAS_VDPBF16PS
  if (!cpu_has_avx512_bf16()) {
    GTEST_SKIP() << "this CPU has no AVX512-BF16: the VDPBF16PS comparison did not run";
  }
  std::mt19937_64 rng(20261125);
  long long products = 0, nonzero_results = 0, flushed = 0, compared = 0;
  std::vector<float> fa, fb;
  for (int trial = 0; trial < 6000; ++trial) {
    const std::size_t k = 1 + rng() % 48;
    std::vector<std::uint16_t> a(16 * k), b(16 * k);
    for (auto& v : a) v = edge_bf16(rng);
    for (auto& v : b) v = edge_bf16(rng);
    // Lane 15 of every 4th trial: the FTZ boundary of the model's rule.
    // 2^-126 (odd pair, first) then -0.75 * 2^-150 (flushed: below 2^-126
    // after rounding to 24 bits) or -0.25 * 2^-150 (kept, 2^-126).
    if (k == 2 || (k >= 2 && trial % 4 == 0)) {
      const std::size_t base = 15 * k;
      for (std::size_t p = 0; p < k; ++p) a[base + p] = b[base + p] = 0;
      a[base + 1] = b[base + 1] = mf::bfloat16(0x1p-63f).bits();
      a[base] = mf::bfloat16(trial % 8 == 0 ? -0x1.8p-76f : -0x1p-76f).bits();
      b[base] = mf::bfloat16(trial % 8 == 0 ? 0x1p-75f : 0x1p-76f).bits();
    }
    // Some lanes cancel exactly: pair (a0 b0) = -(a1 b1).
    if (k >= 2 && trial % 3 == 0) {
      for (int lane = 0; lane < 16; lane += 2) {
        a[lane * k + 1] = a[lane * k] ^ 0x8000;
        b[lane * k + 1] = b[lane * k];
      }
    }
    float hw[16];
    hardware_dots(a, b, k, hw);
    for (int lane = 0; lane < 16; ++lane) {
      fa.assign(k, 0.0f);
      fb.assign(k, 0.0f);
      for (std::size_t p = 0; p < k; ++p) {
        fa[p] = hy::decode_bits(hy::element_type::bf16, a[lane * k + p]);
        fb[p] = hy::decode_bits(hy::element_type::bf16, b[lane * k + p]);
      }
      const float model = hy::accumulate(hy::models::avx512_bf16_pairs(), fa.data(), fb.data(), k);
      std::uint32_t mb, hb;
      std::memcpy(&mb, &model, 4);
      std::memcpy(&hb, &hw[lane], 4);
      const bool match = mb == hb || (std::isnan(model) && std::isnan(hw[lane]));
      if (!match) {
        ADD_FAILURE() << "k=" << k << " lane " << lane << ": model " << std::hexfloat << model
                      << " hardware " << hw[lane];
        if (::testing::Test::HasFailure() && compared > 20) return;
      }
      products += static_cast<long long>(k);
      ++compared;
      nonzero_results += model != 0;
      flushed += model == 0 && std::fabs(hy::accumulate(hy::models::sequential_fp32(), fa.data(),
                                                        fb.data(), k)) > 0;
    }
  }
  std::printf("VDPBF16PS: %lld dot products, %lld products, %lld nonzero, %lld where the model "
              "flushed a nonzero sequential sum: all equal\n",
              compared, products, nonzero_results, flushed);
  EXPECT_GT(flushed, 0);
#else
  GTEST_SKIP() << "not x86-64 with GCC/Clang: the VDPBF16PS comparison did not run";
#endif
}

}  // namespace
