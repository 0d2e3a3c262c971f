// Part of minifloat_encode_test (a second source of the program): float32
// inputs into every format in sweeps of consecutive bit patterns,
// nearest-even with both overflow modes and toward-zero, against the
// reference's sweep; and binary16 / bfloat16 nearest-even against the CPU's
// own conversion instructions where it has them. At MINIFLOAT_TEST_LEVEL=
// full (label `exhaustive`) every one of the 2^32 inputs, split over
// MINIFLOAT_TEST_THREADS threads; at ci level four ranges of 2^16 patterns
// and their negations, on one thread. Each test prints its wall time.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#include <immintrin.h>
#define MFTEST_X86 1
#else
#define MFTEST_X86 0
#endif

#include "reference/boundary_set.hpp"
#include "support/formats_under_test.hpp"
#include "support/test_level.hpp"

namespace {

using mf::overflow;
using mf::rounding;
using mfref::overflow_mode;
using mfref::round_mode;

constexpr std::uint64_t kAllPatterns = std::uint64_t{1} << 32;
constexpr std::uint32_t kPositiveInf = 0x7F800000u;

// Mismatches found by the worker threads, reported by the main thread.
class shared_log {
 public:
  void add(std::uint64_t checked, std::uint64_t mismatches) {
    checked_ += checked;
    mismatches_ += mismatches;
  }
  void note(std::string message) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (first_.size() < 8) first_.push_back(std::move(message));
  }
  void report(std::uint64_t minimum) {
    for (const std::string& m : first_) ADD_FAILURE() << m;
    EXPECT_EQ(mismatches_.load(), 0u) << mismatches_.load() << " of " << checked_.load()
                                      << " differ";
    EXPECT_GE(checked_.load(), minimum);
  }
  std::uint64_t checked() const { return checked_.load(); }

 private:
  std::atomic<std::uint64_t> checked_{0};
  std::atomic<std::uint64_t> mismatches_{0};
  std::mutex mutex_;
  std::vector<std::string> first_;
};

struct pattern_range {
  std::uint64_t begin;
  std::uint64_t end;
};

// The positive patterns a sweep of both signs covers: all of them at full
// level; at ci level 2^16 around 1.0, around 448 (the e4m3fn maximum),
// around 57344 (the e5m2 maximum) and below and into the infinity and NaNs.
std::vector<pattern_range> positive_ranges() {
  if (mft::full_level()) return {{0, kAllPatterns / 2}};
  constexpr std::uint64_t half = std::uint64_t{1} << 15;
  std::vector<pattern_range> ranges;
  for (std::uint64_t centre : {0x3F800000u, 0x43E00000u, 0x47600000u, kPositiveInf}) {
    ranges.push_back({centre - half, centre + half});
  }
  return ranges;
}

// Every pattern of one sign, then of the other: the positive ranges and
// their negations. (Used by the x86 hardware comparisons only.)
[[maybe_unused]] std::vector<pattern_range> signed_ranges() {
  if (mft::full_level()) return {{0, kAllPatterns}};
  std::vector<pattern_range> ranges = positive_ranges();
  const std::size_t positive = ranges.size();
  for (std::size_t i = 0; i < positive; ++i) {
    ranges.push_back({ranges[i].begin | 0x80000000u, ranges[i].end | 0x80000000u});
  }
  return ranges;
}

std::uint64_t pattern_count(const std::vector<pattern_range>& ranges) {
  std::uint64_t count = 0;
  for (const pattern_range& r : ranges) count += r.end - r.begin;
  return count;
}

// Splits each range over the threads (one at ci level: ctest runs tests
// side by side).
template <class F>
void run_split(const std::vector<pattern_range>& ranges, F&& work) {
  const std::uint64_t threads_count = mft::full_level() ? mft::test_threads() : 1;
  for (const pattern_range& r : ranges) {
    std::vector<std::thread> threads;
    // A multiple of 16: the comparisons with the CPU's instructions take 4
    // or 16 patterns at a time.
    const std::uint64_t chunk = ((r.end - r.begin + threads_count - 1) / threads_count + 15) /
                                16 * 16;
    for (std::uint64_t t = 0; t < threads_count; ++t) {
      const std::uint64_t lo = r.begin + chunk * t;
      const std::uint64_t hi = std::min(r.end, lo + chunk);
      threads.emplace_back([&work, lo, hi] { work(lo, hi); });
    }
    for (std::thread& t : threads) t.join();
  }
}

double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

struct checked_mode {
  rounding rounding_mode;
  overflow overflow_mode_;
  round_mode ref_rounding;
  overflow_mode ref_overflow;
  const char* name;
};

constexpr checked_mode kModes[] = {
    {rounding::nearest_even, overflow::non_saturating, round_mode::nearest_even,
     overflow_mode::non_saturating, "nearest_even/non_saturating"},
    {rounding::nearest_even, overflow::saturating, round_mode::nearest_even,
     overflow_mode::saturating, "nearest_even/saturating"},
    {rounding::toward_zero, overflow::non_saturating, round_mode::toward_zero,
     overflow_mode::non_saturating, "toward_zero/non_saturating"},
};

template <class T>
void note_mismatch(shared_log& log, const checked_mode& m, float x, unsigned got,
                   unsigned want) {
  log.note(std::string(mftest::spec_for<T>::value.name) + " " + m.name + " input " +
           mftest::describe_input(x) + ": got " + mftest::hex(got) + ", expected " +
           mftest::hex(want));
}

// Positive bit patterns [lo, hi) and their negations.
template <class T>
void sweep_range(std::uint64_t lo, std::uint64_t hi, shared_log& log) {
  const mfref::reference& ref = mftest::reference_for<T>();
  mfref::sweeper sweep(ref);
  sweep.seek(static_cast<double>(mfref::from_bits<float>(static_cast<std::uint32_t>(lo))));
  std::uint64_t checked = 0;
  std::uint64_t mismatches = 0;
  for (std::uint64_t b = lo; b < hi; ++b) {
    const std::uint32_t bits = static_cast<std::uint32_t>(b);
    const float x = mfref::from_bits<float>(bits);
    const float minus_x = mfref::from_bits<float>(bits | 0x80000000u);
    if (bits >= kPositiveInf) {  // Inf and NaN: the reference's special rules
      for (const checked_mode& m : kModes) {
        for (float input : {x, minus_x}) {
          const unsigned got = mf::round_to<T>(input, m.rounding_mode, m.overflow_mode_).bits();
          const unsigned want = ref.encode(input, m.ref_rounding, m.ref_overflow);
          ++checked;
          if (got != want) {
            ++mismatches;
            note_mismatch<T>(log, m, input, got, want);
          }
        }
      }
      continue;
    }
    const double d = static_cast<double>(x);
    sweep.advance(d);
    // The three modes spelled out with constant arguments, so that both
    // the library and the reference compile a specialised path for each.
    const auto check = [&](const checked_mode& m, unsigned got_pos, unsigned got_neg,
                           unsigned want_pos, unsigned want_neg) {
      checked += 2;
      if (got_pos != want_pos) {
        ++mismatches;
        note_mismatch<T>(log, m, x, got_pos, want_pos);
      }
      if (got_neg != want_neg) {
        ++mismatches;
        note_mismatch<T>(log, m, minus_x, got_neg, want_neg);
      }
    };
    check(kModes[0],
          mf::round_to<T>(x, rounding::nearest_even, overflow::non_saturating).bits(),
          mf::round_to<T>(minus_x, rounding::nearest_even, overflow::non_saturating).bits(),
          sweep.encode_as<round_mode::nearest_even>(d, overflow_mode::non_saturating),
          sweep.encode_as<round_mode::nearest_even>(-d, overflow_mode::non_saturating));
    check(kModes[1],
          mf::round_to<T>(x, rounding::nearest_even, overflow::saturating).bits(),
          mf::round_to<T>(minus_x, rounding::nearest_even, overflow::saturating).bits(),
          sweep.encode_as<round_mode::nearest_even>(d, overflow_mode::saturating),
          sweep.encode_as<round_mode::nearest_even>(-d, overflow_mode::saturating));
    check(kModes[2],
          mf::round_to<T>(x, rounding::toward_zero, overflow::non_saturating).bits(),
          mf::round_to<T>(minus_x, rounding::toward_zero, overflow::non_saturating).bits(),
          sweep.encode_as<round_mode::toward_zero>(d, overflow_mode::non_saturating),
          sweep.encode_as<round_mode::toward_zero>(-d, overflow_mode::non_saturating));
  }
  log.add(checked, mismatches);
}

TEST(Float32Sweep, EveryInputIntoEveryFormatMatchesTheReference) {
  const auto start = std::chrono::steady_clock::now();
  const std::vector<pattern_range> ranges = positive_ranges();
  std::uint64_t expected = 0;
  shared_log log;
  mftest::for_each_format([&](auto tag) {
    using T = typename decltype(tag)::type;
    (void)mftest::reference_for<T>();  // built before the threads start
    const auto format_start = std::chrono::steady_clock::now();
    run_split(ranges, [&](std::uint64_t lo, std::uint64_t hi) { sweep_range<T>(lo, hi, log); });
    expected += pattern_count(ranges) * 2 * 3;
    std::printf("  %-12s %7.1f s\n", mftest::spec_for<T>::value.name,
                seconds_since(format_start));
    std::fflush(stdout);
  });
  log.report(expected);
  std::printf("all formats, %llu inputs x 3 modes (level %s): %.1f s\n",
              static_cast<unsigned long long>(pattern_count(ranges) * 2), mft::level_name(),
              seconds_since(start));
}

#if MFTEST_X86

// F16C is CPUID leaf 1, ECX bit 29 (clang 14's __builtin_cpu_supports does
// not know the name); it is VEX-encoded, so the OS must enable AVX state.
bool cpu_has_f16c() {
  if (!__builtin_cpu_supports("avx")) return false;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return false;
  return (ecx >> 29) & 1u;
}

__attribute__((target("f16c"))) void cpu_float_to_half4(const float* in, std::uint16_t* out) {
  const __m128i h = _mm_cvtps_ph(_mm_loadu_ps(in), _MM_FROUND_TO_NEAREST_INT);
  std::memcpy(out, &h, 4 * sizeof(std::uint16_t));
}

// Every input of `ranges` through the CPU's instruction (`cpu`, Lanes floats
// at a time) and through the library (`library`), compared where
// `compared(x)` holds by `agree(library bits, cpu bits, x)`.
template <int Lanes, class Cpu, class Library, class Compared, class Agree>
void sweep_against_cpu(const std::vector<pattern_range>& ranges, const std::string& format,
                       const std::string& instruction, Cpu cpu, Library library,
                       Compared compared, Agree agree, shared_log& log) {
  run_split(ranges, [&](std::uint64_t lo, std::uint64_t hi) {
    std::uint64_t checked = 0;
    std::uint64_t mismatches = 0;
    float in[Lanes];
    std::uint16_t hw[Lanes];
    for (std::uint64_t b = lo; b < hi; b += Lanes) {
      for (int i = 0; i < Lanes; ++i) {
        in[i] = mfref::from_bits<float>(static_cast<std::uint32_t>(b + i));
      }
      cpu(in, hw);
      for (int i = 0; i < Lanes; ++i) {
        if (!compared(in[i])) continue;
        const unsigned got = library(in[i]);
        ++checked;
        if (!agree(got, hw[i], in[i])) {
          ++mismatches;
          log.note(format + " " + mftest::describe_input(in[i]) + ": got " + mftest::hex(got) +
                   ", " + instruction + " " + mftest::hex(hw[i]));
        }
      }
    }
    log.add(checked, mismatches);
  });
}

TEST(Float32Sweep, Binary16NearestEvenMatchesTheCpuF16cConversion) {
  if (!cpu_has_f16c()) GTEST_SKIP() << "the CPU has no F16C";
  const auto start = std::chrono::steady_clock::now();
  const std::vector<pattern_range> ranges = signed_ranges();
  shared_log log;
  sweep_against_cpu<4>(
      ranges, "binary16", "F16C", cpu_float_to_half4,
      [](float x) { return mf::binary16(x).bits(); }, [](float) { return true; },
      [](unsigned got, unsigned hw, float x) {
        // F16C keeps a NaN's payload; the library makes it canonical. Both
        // must still be NaNs of the input's sign.
        if (!std::isnan(x)) return got == hw;
        return (got & 0x7FFFu) > 0x7C00u && (hw & 0x7FFFu) > 0x7C00u &&
               (got & 0x8000u) == (hw & 0x8000u);
      },
      log);
  log.report(pattern_count(ranges));
  std::printf("binary16 vs F16C, %llu inputs (level %s): %.1f s\n",
              static_cast<unsigned long long>(pattern_count(ranges)), mft::level_name(),
              seconds_since(start));
}

// AVX512-BF16 is CPUID leaf 7, sub-leaf 1, EAX bit 5 (clang 14's
// __builtin_cpu_supports does not know the name); __builtin_cpu_supports
// ("avx512f") also checks that the OS enables the AVX-512 state.
bool cpu_has_avx512_bf16() {
  if (!__builtin_cpu_supports("avx512f")) return false;
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 1, &eax, &ebx, &ecx, &edx)) return false;
  return (eax >> 5) & 1u;
}

__attribute__((target("avx512f,avx512bf16"))) void cpu_float_to_bfloat16x16(
    const float* in, std::uint16_t* out) {
  const __m256bh h = _mm512_cvtneps_pbh(_mm512_loadu_ps(in));
  std::memcpy(out, &h, 16 * sizeof(std::uint16_t));
}

TEST(Float32Sweep, Bfloat16NearestEvenMatchesTheCpuAvx512Bf16ConversionOnNormals) {
  if (!cpu_has_avx512_bf16()) GTEST_SKIP() << "the CPU has no AVX512-BF16";
  // VCVTNEPS2BF16 treats subnormal inputs as zero and makes its own NaN, so
  // only normal inputs are compared (the reference covers the rest in the
  // sweep above).
  const auto start = std::chrono::steady_clock::now();
  const std::vector<pattern_range> ranges = signed_ranges();
  shared_log log;
  sweep_against_cpu<16>(
      ranges, "bfloat16", "AVX512-BF16", cpu_float_to_bfloat16x16,
      [](float x) { return mf::bfloat16(x).bits(); }, [](float x) { return std::isnormal(x); },
      [](unsigned got, unsigned hw, float) { return got == hw; }, log);
  // 254 exponents x 2^23 significands x 2 signs at full level.
  log.report(mft::full_level() ? 254u * (std::uint64_t{1} << 24) : 1u);
  std::printf("bfloat16 vs AVX512-BF16, normal inputs (level %s): %.1f s\n", mft::level_name(),
              seconds_since(start));
}

#endif  // MFTEST_X86

}  // namespace
