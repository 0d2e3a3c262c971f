// The avx512_bf16_pairs model against the CPU's own VDPBF16PS, bit for bit
// (NaN as a class), on random and edge inputs; and under
// nan_payload::propagate every bit, NaN payloads included, on NaN-rich
// inputs, the model and the whole MatMul (fast path and reference).
// Skipped, visibly, on CPUs without AVX512-BF16 and off x86-64.
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

// A BF16 code for the NaN comparison: NaNs of random payload, sign and
// kind (quiet or signalling), one in `nan_every` codes; Inf, zeros, values
// near 1 and values whose products overflow (Inf - Inf).
std::uint16_t nan_rich_bf16(std::mt19937_64& rng, unsigned nan_every) {
  const auto r = rng();
  const std::uint16_t sign = (r & 1) ? 0x8000 : 0;
  const auto mantissa = static_cast<std::uint16_t>((r >> 8) & 0x7F);
  if ((r >> 40) % nan_every == 0) return sign | 0x7F80 | (mantissa == 0 ? 1 : mantissa);
  switch ((r >> 16) % 40) {
    case 0: return sign | 0x7F80;  // Inf
    case 1:
    case 2: return sign;  // zero
    case 3:
    case 4: return sign | static_cast<std::uint16_t>(((250 + (r >> 24) % 5) << 7) | mantissa);  // overflow
    default: return sign | static_cast<std::uint16_t>(((120 + (r >> 24) % 16) << 7) | mantissa);  // near 1
  }
}

std::uint32_t bits_of(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

// The model on lane `lane` of hardware_dots' operands, each code read by
// `decode` (decode_bits, or decode_keeping_nan_payload).
float model_lane(const hy::accumulation_model& model, const std::vector<std::uint16_t>& a,
                 const std::vector<std::uint16_t>& b, std::size_t k, int lane,
                 float (*decode)(hy::element_type, std::uint32_t)) {
  std::vector<float> fa(k), fb(k);
  for (std::size_t p = 0; p < k; ++p) {
    fa[p] = decode(hy::element_type::bf16, a[lane * k + p]);
    fb[p] = decode(hy::element_type::bf16, b[lane * k + p]);
  }
  return hy::accumulate(model, fa.data(), fb.data(), k);
}
#endif

TEST(HybridVdpbf16ps, ModelEqualsTheInstruction) {
#if MINIFLOAT_TEST_HAS_VDPBF16PS
  if (!cpu_has_avx512_bf16()) {
    GTEST_SKIP() << "this CPU has no AVX512-BF16: the VDPBF16PS comparison did not run";
  }
  std::mt19937_64 rng(20261125);
  long long products = 0, nonzero_results = 0, flushed = 0, compared = 0;
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
      const float model = model_lane(hy::models::avx512_bf16_pairs(), a, b, k, lane, &hy::decode_bits);
      const bool match = bits_of(model) == bits_of(hw[lane]) || (std::isnan(model) && std::isnan(hw[lane]));
      if (!match) {
        ADD_FAILURE() << "k=" << k << " lane " << lane << ": model " << std::hexfloat << model
                      << " hardware " << hw[lane];
        if (::testing::Test::HasFailure() && compared > 20) return;
      }
      products += static_cast<long long>(k);
      ++compared;
      nonzero_results += model != 0;
      const float in_order = model_lane(hy::models::sequential_fp32(), a, b, k, lane, &hy::decode_bits);
      flushed += model == 0 && std::fabs(in_order) > 0;
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

// nan_payload::propagate: the model's NaN is the instruction's, bit for bit
// (one dot product per lane), and so is a BF16 x BF16 -> FP32 MatMul's C
// (scales 1: C is the accumulator), on the fast path and the reference.
TEST(HybridVdpbf16ps, PropagatedNanEqualsTheInstructionsBits) {
#if MINIFLOAT_TEST_HAS_VDPBF16PS
  if (!cpu_has_avx512_bf16()) {
    GTEST_SKIP() << "this CPU has no AVX512-BF16: the VDPBF16PS NaN comparison did not run";
  }
  const hy::accumulation_model model = hy::models::avx512_bf16_pairs(hy::nan_payload::propagate);
  std::mt19937_64 rng(20261202);
  long long lanes = 0, nan_lanes = 0, default_nans = 0, elements = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    const std::size_t k = 1 + rng() % 24;
    std::vector<std::uint16_t> a(16 * k), b(16 * k);
    const unsigned nan_every = trial % 2 ? 3 : 40;  // several NaNs per lane, or about one
    for (auto& v : a) v = nan_rich_bf16(rng, nan_every);
    for (auto& v : b) v = nan_rich_bf16(rng, nan_every);
    float hw[16];
    hardware_dots(a, b, k, hw);
    for (int lane = 0; lane < 16; ++lane) {
      const float m = model_lane(model, a, b, k, lane, &hy::decode_keeping_nan_payload);
      ASSERT_EQ(bits_of(m), bits_of(hw[lane])) << "k=" << k << " lane " << lane << " trial " << trial;
      ++lanes;
      nan_lanes += std::isnan(m);
      default_nans += bits_of(m) == 0xFFC00000u;
    }
  }
  // The MatMul: A (16 x k) times B (k x 16); lane i of the instruction
  // computes C[i][j] from row i of A and column j of B.
  for (int trial = 0; trial < 150; ++trial) {
    const std::size_t k = 1 + rng() % 40, m = 16, n = 16;
    std::vector<std::uint16_t> a(m * k), b(k * n), column(16 * k);
    for (auto& v : a) v = nan_rich_bf16(rng, 40);
    for (auto& v : b) v = nan_rich_bf16(rng, 40);
    const std::vector<std::uint32_t> ca(a.begin(), a.end()), cb(b.begin(), b.end());
    std::vector<std::uint32_t> fast(m * n), reference(m * n);
    hy::matmul_options o;
    o.model = model;
    o.check_z_multiple = false;
    hy::matmul(hy::table_id::any, hy::element_type::bf16, hy::element_type::bf16, hy::element_type::f32,
               ca.data(), k, cb.data(), n, fast.data(), n, m, n, k, o);
    o.reference_only = true;
    hy::matmul(hy::table_id::any, hy::element_type::bf16, hy::element_type::bf16, hy::element_type::f32,
               ca.data(), k, cb.data(), n, reference.data(), n, m, n, k, o);
    for (std::size_t j = 0; j < n; ++j) {
      for (std::size_t lane = 0; lane < 16; ++lane) {
        for (std::size_t p = 0; p < k; ++p) column[lane * k + p] = b[p * n + j];
      }
      float hw[16];
      hardware_dots(a, column, k, hw);
      for (std::size_t i = 0; i < m; ++i) {
        ASSERT_EQ(fast[i * n + j], bits_of(hw[i])) << "fast path, k=" << k << " C[" << i << "][" << j << "]";
        ASSERT_EQ(reference[i * n + j], bits_of(hw[i])) << "reference, k=" << k << " C[" << i << "][" << j << "]";
        ++elements;
      }
    }
  }
  std::printf("VDPBF16PS NaN bits: %lld lanes (%lld NaN, %lld the default NaN) and %lld MatMul "
              "elements: all equal\n",
              lanes, nan_lanes, default_nans, elements);
  EXPECT_GT(nan_lanes, lanes / 4);
  EXPECT_LT(nan_lanes, lanes * 9 / 10);
  EXPECT_GT(default_nans, 100);
#else
  GTEST_SKIP() << "not x86-64 with GCC/Clang: the VDPBF16PS NaN comparison did not run";
#endif
}

}  // namespace
