// The library's conversions beside CUDA's own, on the CPU: the functions of
// the CUDA toolkit's cuda_fp8.h, cuda_fp6.h and cuda_fp4.h
// (__nv_cvt_float_to_fp8, __nv_cvt_float_to_fp4, __nv_cvt_float_to_e8m0,
// ...) compiled as host code. That is their software path, which is also
// what a GPU without the conversion instructions runs (FP4, FP6 and E8M0
// have instructions only from compute capability 10.0); the instructions
// themselves are compared on a GPU by tests/cuda/hardware_conversions.cu.
//
// Every binary16 and bfloat16 input, every encoding decoded, float32 inputs
// (a sample at ci level, all 2^32 at full level) and float64 samples. The
// results are equal bit for bit except where docs/semantics.md
// ("Comparison with other libraries") says CUDA differs, and each of those
// is asserted as the rule it is, not skipped:
//   - a NaN into e4m3fn or e5m2: from float, binary16 and bfloat16 CUDA
//     gives 0x7F whatever the NaN's sign; from double it keeps the sign,
//     and into e5m2 it keeps the second bit of the NaN's payload (bit 50)
//     in bit 0. The library keeps the sign (e4m3fn 0x7F / 0xFF, e5m2
//     0x7E / 0xFE), so from double only e5m2 NaNs with bit 50 set differ;
//   - into e8m0fnu, CUDA reads |x| (the sign bit is cleared, so -Inf
//     saturates as +Inf does); the library gives NaN (0xFF) for a negative
//     value: CUDA's result is the library's for |x|;
//   - decoding a NaN: CUDA gives one NaN (0x7FFF); the library keeps the
//     sign (binary16 0x7E00 / 0xFE00, bfloat16 0x7FC0): both are NaN.
// CUDA's rounding modes map to the library's: cudaRoundNearest to
// nearest_even, cudaRoundZero to toward_zero, cudaRoundPosInf to
// toward_positive; __NV_SATFINITE to overflow::saturating, __NV_NOSAT to
// overflow::non_saturating. The FP4 and FP6 conversions always saturate.
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#include <cuda_fp8.h>

#include <gtest/gtest.h>

#include <minifloat/minifloat.hpp>

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/test_level.hpp"

namespace {

float float_of(std::uint32_t bits) { return mf::detail::bit_cast<float>(bits); }
double double_of(std::uint64_t bits) { return mf::detail::bit_cast<double>(bits); }

// Mismatches of one sweep, counted across threads (the full level's
// workers), the first few kept. `expected` is CUDA's result as the library
// and the documented rules predict it.
class mismatch_log {
 public:
  void add(const char* conversion, std::uint64_t input, unsigned cuda, unsigned expected) {
    if (count_.fetch_add(1) >= 8) return;
    char line[160];
    std::snprintf(line, sizeof line, "%s: input 0x%llx: CUDA 0x%x, expected 0x%x", conversion,
                  static_cast<unsigned long long>(input), cuda, expected);
    const std::lock_guard<std::mutex> lock(mutex_);
    first_ += std::string(line) + "\n";
  }
  void expect_none(const char* what) const {
    EXPECT_EQ(count_.load(), 0u) << what << ", first mismatches:\n" << first_;
  }

 private:
  std::atomic<std::uint64_t> count_{0};
  std::mutex mutex_;
  std::string first_;
};

constexpr mf::rounding nearest = mf::rounding::nearest_even;
constexpr mf::overflow saturating = mf::overflow::saturating;
constexpr mf::overflow non_saturating = mf::overflow::non_saturating;

// Every conversion of a float, double, binary16 or bfloat16 into the narrow
// formats, against the header function for that source (`cuda`, below).
// FP8: CUDA's result is the library's, but cuda.nan_fp8() for a NaN. E8M0
// (where the headers convert that source, Cuda::has_e8m0): CUDA's result is
// the library's for |x| (cuda.magnitude()).
template <class Source, class Cuda>
void compare_value(Source x, std::uint64_t input, const Cuda& cuda, mismatch_log& log) {
  const auto expect = [&](const char* name, unsigned got, unsigned want) {
    if (got != want) log.add(name, input, got, want);
  };
  const bool is_nan = std::isnan(static_cast<double>(x));
  for (const bool saturate : {true, false}) {
    const mf::overflow o = saturate ? saturating : non_saturating;
    const __nv_saturation_t s = saturate ? __NV_SATFINITE : __NV_NOSAT;
    expect(saturate ? "e4m3fn sat" : "e4m3fn nosat", cuda.fp8(s, __NV_E4M3),
           is_nan ? cuda.nan_fp8(__NV_E4M3) : mf::round_to<mf::e4m3fn>(x, nearest, o).bits());
    expect(saturate ? "e5m2 sat" : "e5m2 nosat", cuda.fp8(s, __NV_E5M2),
           is_nan ? cuda.nan_fp8(__NV_E5M2) : mf::round_to<mf::e5m2>(x, nearest, o).bits());
    if constexpr (Cuda::has_e8m0) {
      for (const bool up : {false, true}) {
        const mf::rounding r = up ? mf::rounding::toward_positive : mf::rounding::toward_zero;
        expect("e8m0fnu", cuda.e8m0(s, up ? cudaRoundPosInf : cudaRoundZero),
               mf::round_to<mf::e8m0fnu>(cuda.magnitude(), r, o).bits());
      }
    }
  }
  for (const bool nearest_mode : {true, false}) {
    const mf::rounding r = nearest_mode ? nearest : mf::rounding::toward_zero;
    const cudaRoundMode c = nearest_mode ? cudaRoundNearest : cudaRoundZero;
    expect("e2m1fn", cuda.fp4(c), mf::round_to<mf::e2m1fn>(x, r, saturating).bits());
    expect("e2m3fn", cuda.fp6(__NV_E2M3, c), mf::round_to<mf::e2m3fn>(x, r, saturating).bits());
    expect("e3m2fn", cuda.fp6(__NV_E3M2, c), mf::round_to<mf::e3m2fn>(x, r, saturating).bits());
  }
}

// The header functions for a float32 input.
struct float_source {
  static constexpr bool has_e8m0 = true;
  float x;
  unsigned fp8(__nv_saturation_t s, __nv_fp8_interpretation_t f) const {
    return __nv_cvt_float_to_fp8(x, s, f);
  }
  unsigned e8m0(__nv_saturation_t s, cudaRoundMode r) const {
    return __nv_cvt_float_to_e8m0(x, s, r);
  }
  unsigned fp4(cudaRoundMode r) const { return __nv_cvt_float_to_fp4(x, __NV_E2M1, r); }
  unsigned fp6(__nv_fp6_interpretation_t f, cudaRoundMode r) const {
    return __nv_cvt_float_to_fp6(x, f, r);
  }
  float magnitude() const { return std::fabs(x); }
  static unsigned nan_fp8(__nv_fp8_interpretation_t) { return 0x7Fu; }
};

struct double_source {
  static constexpr bool has_e8m0 = true;
  double x;
  unsigned fp8(__nv_saturation_t s, __nv_fp8_interpretation_t f) const {
    return __nv_cvt_double_to_fp8(x, s, f);
  }
  unsigned e8m0(__nv_saturation_t s, cudaRoundMode r) const {
    return __nv_cvt_double_to_e8m0(x, s, r);
  }
  unsigned fp4(cudaRoundMode r) const { return __nv_cvt_double_to_fp4(x, __NV_E2M1, r); }
  unsigned fp6(__nv_fp6_interpretation_t f, cudaRoundMode r) const {
    return __nv_cvt_double_to_fp6(x, f, r);
  }
  double magnitude() const { return std::fabs(x); }
  unsigned nan_fp8(__nv_fp8_interpretation_t f) const {
    const auto bits = mf::detail::bit_cast<std::uint64_t>(x);
    const unsigned sign = static_cast<unsigned>(bits >> 63) << 7;
    return sign | (f == __NV_E4M3 ? 0x7Fu : 0x7Eu | static_cast<unsigned>(bits >> 50 & 1u));
  }
};

struct binary16_source {
  static constexpr bool has_e8m0 = false;  // the headers convert binary16 to FP8, FP6, FP4 only
  std::uint16_t bits;
  __half_raw raw() const {
    __half_raw h;
    h.x = bits;
    return h;
  }
  unsigned fp8(__nv_saturation_t s, __nv_fp8_interpretation_t f) const {
    return __nv_cvt_halfraw_to_fp8(raw(), s, f);
  }
  unsigned fp4(cudaRoundMode r) const { return __nv_cvt_halfraw_to_fp4(raw(), __NV_E2M1, r); }
  unsigned fp6(__nv_fp6_interpretation_t f, cudaRoundMode r) const {
    return __nv_cvt_halfraw_to_fp6(raw(), f, r);
  }
  static unsigned nan_fp8(__nv_fp8_interpretation_t) { return 0x7Fu; }
};

struct bfloat16_source {
  static constexpr bool has_e8m0 = true;
  std::uint16_t bits;
  __nv_bfloat16_raw raw() const {
    __nv_bfloat16_raw h;
    h.x = bits;
    return h;
  }
  unsigned fp8(__nv_saturation_t s, __nv_fp8_interpretation_t f) const {
    return __nv_cvt_bfloat16raw_to_fp8(raw(), s, f);
  }
  unsigned e8m0(__nv_saturation_t s, cudaRoundMode r) const {
    return __nv_cvt_bfloat16raw_to_e8m0(raw(), s, r);
  }
  unsigned fp4(cudaRoundMode r) const {
    return __nv_cvt_bfloat16raw_to_fp4(raw(), __NV_E2M1, r);
  }
  unsigned fp6(__nv_fp6_interpretation_t f, cudaRoundMode r) const {
    return __nv_cvt_bfloat16raw_to_fp6(raw(), f, r);
  }
  mf::bfloat16 magnitude() const {
    return mf::bfloat16::from_bits(static_cast<std::uint16_t>(bits & 0x7FFFu));
  }
  static unsigned nan_fp8(__nv_fp8_interpretation_t) { return 0x7Fu; }
};

// float32 patterns of a sweep: at ci level every sign, exponent and top
// eleven mantissa bits (which holds every rounding boundary of the formats
// here, at most 3 mantissa bits) with the low twelve bits 0 and with a
// pseudo-random nonzero value (2^21 inputs); at full level all 2^32.
template <class Body>
void for_float32_patterns(Body body) {
  if (mft::full_level()) {
    const std::uint64_t threads_count = mft::test_threads();
    const std::uint64_t chunk = ((std::uint64_t{1} << 32) + threads_count - 1) / threads_count;
    std::vector<std::thread> threads;
    for (std::uint64_t t = 0; t < threads_count; ++t) {
      threads.emplace_back([&body, t, chunk] {
        const std::uint64_t end = std::min((t + 1) * chunk, std::uint64_t{1} << 32);
        for (std::uint64_t i = t * chunk; i < end; ++i) body(static_cast<std::uint32_t>(i));
      });
    }
    for (std::thread& t : threads) t.join();
    return;
  }
  for (std::uint32_t high = 0; high < (1u << 20); ++high) {
    const std::uint32_t low = ((high * 2654435761u) >> 20) | 1u;  // 12 bits, nonzero
    body(high << 12);
    body(high << 12 | low);
  }
}

TEST(CudaHeaders, Float32IntoEveryNarrowFormat) {
  mismatch_log log;
  std::atomic<std::uint64_t> inputs{0};
  for_float32_patterns([&](std::uint32_t bits) {
    const float x = float_of(bits);
    compare_value(x, bits, float_source{x}, log);
    inputs.fetch_add(1, std::memory_order_relaxed);
  });
  log.expect_none("float32");
  EXPECT_GE(inputs.load(), std::uint64_t{1} << 21);
  std::printf("%llu float32 inputs (level %s)\n", static_cast<unsigned long long>(inputs.load()),
              mft::level_name());
}

TEST(CudaHeaders, Float64IntoEveryNarrowFormat) {
  // Every third float32 value of the ci sample's high patterns (among them
  // the ties of every format), the doubles just around it and around the
  // midpoint to the next float32 (a double that a rounding through float32
  // would get wrong), plus random bits.
  mismatch_log log;
  std::uint64_t state = 0x9E3779B97F4A7C15u;
  const auto next_random = [&state] {
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return state;
  };
  for (std::uint32_t high = 0; high < (1u << 20); high += 3) {
    const double base = static_cast<double>(float_of(high << 12));
    const auto b = mf::detail::bit_cast<std::uint64_t>(base);
    compare_value(base, b, double_source{base}, log);
    for (const std::uint64_t step : {std::uint64_t{1}, std::uint64_t{1} << 28}) {
      for (const std::uint64_t d : {b - step, b + step, b + (std::uint64_t{1} << 29) - 1}) {
        const double x = double_of(d);
        compare_value(x, d, double_source{x}, log);
      }
    }
    const std::uint64_t r = next_random();
    compare_value(double_of(r), r, double_source{double_of(r)}, log);
  }
  log.expect_none("float64");
}

TEST(CudaHeaders, EveryBinary16AndBfloat16Input) {
  mismatch_log binary16_log, bfloat16_log;
  for (std::uint32_t bits = 0; bits < 0x10000u; ++bits) {
    const auto b16 = static_cast<std::uint16_t>(bits);
    compare_value(mf::binary16::from_bits(b16), bits, binary16_source{b16}, binary16_log);
    compare_value(mf::bfloat16::from_bits(b16), bits, bfloat16_source{b16}, bfloat16_log);
  }
  binary16_log.expect_none("binary16");
  bfloat16_log.expect_none("bfloat16");
}

TEST(CudaHeaders, EveryEncodingDecoded) {
  mismatch_log log;
  const auto same_or_both_nan = [&](const char* name, unsigned code, unsigned cuda,
                                    unsigned library, bool library_nan) {
    const bool cuda_nan = (cuda & 0x7C00u) == 0x7C00u && (cuda & 0x03FFu) != 0;
    if (library_nan ? !cuda_nan : cuda != library) log.add(name, code, cuda, library);
  };
  for (unsigned code = 0; code < 256; ++code) {
    const auto storage = static_cast<__nv_fp8_storage_t>(code);
    const mf::e4m3fn e4m3 = mf::e4m3fn::from_bits(static_cast<std::uint8_t>(code));
    const mf::e5m2 e5m2 = mf::e5m2::from_bits(static_cast<std::uint8_t>(code));
    same_or_both_nan("e4m3fn", code, __nv_cvt_fp8_to_halfraw(storage, __NV_E4M3).x,
                     mf::binary16(e4m3).bits(), mf::isnan(e4m3));
    same_or_both_nan("e5m2", code, __nv_cvt_fp8_to_halfraw(storage, __NV_E5M2).x,
                     mf::binary16(e5m2).bits(), mf::isnan(e5m2));
    // E8M0 into bfloat16: 0x00 is 2^-127, a bfloat16 subnormal; 0xFF NaN.
    const unsigned cuda_bf16 = __nv_cvt_e8m0_to_bf16raw(storage).x;
    const mf::e8m0fnu scale = mf::e8m0fnu::from_bits(static_cast<std::uint8_t>(code));
    const unsigned library_bf16 = mf::bfloat16(scale).bits();
    const bool bf16_nan = (cuda_bf16 & 0x7F80u) == 0x7F80u && (cuda_bf16 & 0x007Fu) != 0;
    if (mf::isnan(scale) ? !bf16_nan : cuda_bf16 != library_bf16) {
      log.add("e8m0fnu", code, cuda_bf16, library_bf16);
    }
  }
  for (unsigned code = 0; code < 64; ++code) {
    const auto storage = static_cast<__nv_fp6_storage_t>(code);
    same_or_both_nan("e2m3fn", code, __nv_cvt_fp6_to_halfraw(storage, __NV_E2M3).x,
                     mf::binary16(mf::e2m3fn::from_bits(static_cast<std::uint8_t>(code))).bits(),
                     false);
    same_or_both_nan("e3m2fn", code, __nv_cvt_fp6_to_halfraw(storage, __NV_E3M2).x,
                     mf::binary16(mf::e3m2fn::from_bits(static_cast<std::uint8_t>(code))).bits(),
                     false);
  }
  for (unsigned code = 0; code < 16; ++code) {
    same_or_both_nan("e2m1fn", code,
                     __nv_cvt_fp4_to_halfraw(static_cast<__nv_fp4_storage_t>(code), __NV_E2M1).x,
                     mf::binary16(mf::e2m1fn::from_bits(static_cast<std::uint8_t>(code))).bits(),
                     false);
  }
  log.expect_none("decoding");
}

// The documented differences are what they say: the library's own results
// on the inputs where CUDA differs (so that a change on either side shows).
TEST(CudaHeaders, TheDocumentedDifferences) {
  const float negative_nan = float_of(0xFFC00000u);
  EXPECT_EQ(__nv_cvt_float_to_fp8(negative_nan, __NV_SATFINITE, __NV_E4M3), 0x7Fu);
  EXPECT_EQ(mf::round_to<mf::e4m3fn>(negative_nan, nearest, saturating).bits(), 0xFFu);
  EXPECT_EQ(__nv_cvt_float_to_fp8(float_of(0x7FC00000u), __NV_NOSAT, __NV_E5M2), 0x7Fu);
  EXPECT_EQ(mf::round_to<mf::e5m2>(float_of(0x7FC00000u), nearest, non_saturating).bits(), 0x7Eu);
  EXPECT_EQ(__nv_cvt_float_to_e8m0(-4.0f, __NV_SATFINITE, cudaRoundZero), 129u);
  EXPECT_EQ(mf::round_to<mf::e8m0fnu>(-4.0f, mf::rounding::toward_zero, saturating).bits(), 0xFFu);
  EXPECT_EQ(__nv_cvt_float_to_e8m0(-INFINITY, __NV_SATFINITE, cudaRoundZero), 0xFEu);
  EXPECT_EQ(mf::round_to<mf::e8m0fnu>(-INFINITY, mf::rounding::toward_zero, saturating).bits(),
            0xFFu);
  // NaN into FP4 and FP6: +max on both sides, whatever the sign.
  EXPECT_EQ(__nv_cvt_float_to_fp4(negative_nan, __NV_E2M1, cudaRoundNearest), 0x7u);
  EXPECT_EQ(mf::round_to<mf::e2m1fn>(negative_nan, nearest, saturating).bits(), 0x7u);
}

}  // namespace
