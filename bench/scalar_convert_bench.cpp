// Scalar conversion speed: float -> e4m3fn, e5m2, e2m1fn, e8m0fnu (the
// constructor: nearest even, non-saturating) and e4m3fn -> float, against a
// hand-written bit-manipulation e4m3fn converter (baseline_bitcast.hpp) and a
// 256-entry decode table built from the library.
//
// Each conversion is timed two ways:
//   per_value: one conversion per benchmark iteration on the next input of a
//     64 Ki array, the result passed to DoNotOptimize;
//   loop64Ki: one iteration converts the whole 64 Ki input array into an
//     output array (items = 65536 per iteration).
// The time_per_value counter is CPU time per converted value.
//
// Inputs (fixed seed, the same on every run and standard library): per
// format, 80% with an exponent drawn uniformly over the format's normal
// range, 10% in its subnormal range (down to below half the smallest
// subnormal, so some round to zero), 10% above max finite (mostly
// overflowing); random sign (positive only for the unsigned e8m0fnu) and
// random 23-bit float mantissa. The decode input is uniformly random bytes,
// so every encoding appears (subnormals, zeros, NaN included).
//
// Before anything is timed, the baseline and the table are checked against
// the library on every input they are timed on; a mismatch aborts.

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include <minifloat/minifloat.hpp>

#include "baseline_bitcast.hpp"

namespace {

constexpr std::size_t kCount = std::size_t{1} << 16;  // 64 Ki values
constexpr std::size_t kMask = kCount - 1;
constexpr std::uint32_t kSeed = 20240601u;

// Uniform in [0, n) from raw mt19937 output (std::uniform_int_distribution
// differs between standard libraries; this does not).
std::uint32_t draw(std::mt19937& rng, std::uint32_t n) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(rng()) * n) >>
                                    32);
}

// See the file comment. `normal_only` drops the subnormal and overflow
// shares (used by the diagnostic benchmarks).
template <class T>
std::vector<float> make_inputs(std::uint32_t seed, bool normal_only = false) {
  using F = typename T::format;
  std::mt19937 rng(seed);
  std::vector<float> values(kCount);
  for (float& value : values) {
    const std::uint32_t pick = normal_only ? 0u : draw(rng, 100);
    int low = F::min_exponent;
    int high = F::max_exponent;
    if (pick >= 90) {  // overflow
      low = F::max_exponent + 1;
      high = F::max_exponent + 3;
    } else if (pick >= 80) {  // subnormal (or below, for e8m0fnu)
      low = F::min_exponent - F::mantissa_bits - 2;
      high = F::min_exponent - 1;
    }
    // Stay within float's finite exponents (e8m0fnu spans them all).
    if (high > 127) high = 127;
    if (low > high) low = high;
    const int exponent =
        low +
        static_cast<int>(draw(rng, static_cast<std::uint32_t>(high - low + 1)));
    const float significand =
        1.0f + static_cast<float>(rng() >> 9) * 0x1p-23f;  // [1, 2)
    const bool negative = F::is_signed && (rng() & 1u);
    // Below 2^-126 ldexp rounds to a float subnormal, which is what we want.
    const float magnitude = std::ldexp(significand, exponent);
    value = negative ? -magnitude : magnitude;
  }
  return values;
}

std::vector<std::uint8_t> make_encodings(std::uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<std::uint8_t> values(kCount);
  for (std::uint8_t& value : values)
    value = static_cast<std::uint8_t>(rng() >> 24);
  return values;
}

// The decode table a user would build from the library. A namespace-scope
// object (not a function-local static) so that the timed loop reads it
// directly, with no initialisation guard per call.
struct decode_table {
  float values[256];
  decode_table() : values{} {
    for (unsigned i = 0; i < 256; ++i) {
      values[i] = static_cast<float>(
          mf::e4m3fn::from_bits(static_cast<std::uint8_t>(i)));
    }
  }
};

const decode_table e4m3fn_table;

template <class T>
const std::vector<float>& float_inputs() {
  static const std::vector<float> values = make_inputs<T>(kSeed);
  return values;
}

const std::vector<float>& e4m3fn_normal_inputs() {
  static const std::vector<float> values = make_inputs<mf::e4m3fn>(kSeed, true);
  return values;
}

const std::vector<std::uint8_t>& e4m3fn_encodings() {
  static const std::vector<std::uint8_t> values = make_encodings(kSeed + 1);
  return values;
}

// ---------------------------------------------------------------------------
// The conversions under test. Each is a stateless functor: in_type, out_type,
// an inputs() array, and a static convert(). convert() is forced inline so
// that the timed loop sees the library call exactly as a user's loop would:
// whether the library's own functions are inlined stays the compiler's call.
// ---------------------------------------------------------------------------

#if defined(__GNUC__) || defined(__clang__)
#define BENCH_ALWAYS_INLINE __attribute__((always_inline))
#else
#define BENCH_ALWAYS_INLINE
#endif

template <class T>
struct library_encode {
  using in_type = float;
  using out_type = T;
  static const std::vector<float>& inputs() { return float_inputs<T>(); }
  BENCH_ALWAYS_INLINE static T convert(float x) noexcept { return T(x); }
};

struct library_encode_e4m3fn_saturating {
  using in_type = float;
  using out_type = mf::e4m3fn;
  static const std::vector<float>& inputs() {
    return float_inputs<mf::e4m3fn>();
  }
  BENCH_ALWAYS_INLINE static mf::e4m3fn convert(float x) noexcept {
    return mf::round_to<mf::e4m3fn>(x, mf::rounding::nearest_even,
                                    mf::overflow::saturating);
  }
};

template <bool Saturate>
struct baseline_encode_e4m3fn {
  using in_type = float;
  using out_type = std::uint8_t;
  static const std::vector<float>& inputs() {
    return float_inputs<mf::e4m3fn>();
  }
  BENCH_ALWAYS_INLINE static std::uint8_t convert(float x) noexcept {
    return baseline::float_to_e4m3fn<Saturate>(x);
  }
};

// In-range inputs only: the same code with no subnormal/overflow branches
// taken, to show what the branch mix costs.
struct library_encode_e4m3fn_normal_only : library_encode<mf::e4m3fn> {
  static const std::vector<float>& inputs() { return e4m3fn_normal_inputs(); }
};
struct baseline_encode_e4m3fn_normal_only : baseline_encode_e4m3fn<false> {
  static const std::vector<float>& inputs() { return e4m3fn_normal_inputs(); }
};

struct library_decode_e4m3fn {
  using in_type = std::uint8_t;
  using out_type = float;
  static const std::vector<std::uint8_t>& inputs() {
    return e4m3fn_encodings();
  }
  BENCH_ALWAYS_INLINE static float convert(std::uint8_t b) noexcept {
    return static_cast<float>(mf::e4m3fn::from_bits(b));
  }
};

struct baseline_decode_e4m3fn {
  using in_type = std::uint8_t;
  using out_type = float;
  static const std::vector<std::uint8_t>& inputs() {
    return e4m3fn_encodings();
  }
  BENCH_ALWAYS_INLINE static float convert(std::uint8_t b) noexcept {
    return baseline::e4m3fn_to_float(b);
  }
};

struct table_decode_e4m3fn {
  using in_type = std::uint8_t;
  using out_type = float;
  static const std::vector<std::uint8_t>& inputs() {
    return e4m3fn_encodings();
  }
  BENCH_ALWAYS_INLINE static float convert(std::uint8_t b) noexcept {
    return e4m3fn_table.values[b];
  }
};

// ---------------------------------------------------------------------------
// The check: the baseline and the table give the library's bits on every
// input they are timed on (plus the edge cases of the e4m3fn encoder).
// ---------------------------------------------------------------------------

[[noreturn]] void mismatch(const char* what, std::uint32_t input,
                           unsigned library, unsigned other) {
  std::fprintf(
      stderr,
      "scalar_convert_bench: %s disagrees with the library on input 0x%08x: "
      "library 0x%08x, other 0x%08x; not timing an unequal comparison\n",
      what, static_cast<unsigned>(input), library, other);
  std::abort();
}

template <bool Saturate>
void check_encoder(const std::vector<float>& values) {
  for (float x : values) {
    const unsigned expected =
        Saturate ? library_encode_e4m3fn_saturating::convert(x).bits()
                 : library_encode<mf::e4m3fn>::convert(x).bits();
    const unsigned got = baseline::float_to_e4m3fn<Saturate>(x);
    if (got != expected) {
      mismatch(Saturate ? "baseline float->e4m3fn (saturating)"
                        : "baseline float->e4m3fn",
               baseline::bits_of(x), expected, got);
    }
  }
}

bool check_baselines() {
  // Edges: zeros, the boundaries of the normal, subnormal and overflow
  // ranges and their neighbours, ties, Inf, NaN -- with both signs.
  std::vector<float> edges;
  const std::uint32_t edge_bits[] = {
      0x00000000u, 0x00000001u, 0x007FFFFFu, 0x00800000u, 0x3A800000u,
      0x3A800001u, 0x3B000000u, 0x3B000001u, 0x3B7FFFFFu, 0x3C7FFFFFu,
      0x3C800000u, 0x3C780000u, 0x3C780001u, 0x3F880000u, 0x3F980000u,
      0x43E00000u, 0x43E7FFFFu, 0x43E80000u, 0x43E80001u, 0x43F00000u,
      0x7F7FFFFFu, 0x7F800000u, 0x7F800001u, 0x7FC00000u, 0x7FFFFFFFu};
  for (std::uint32_t bits : edge_bits) {
    edges.push_back(baseline::float_of(bits));
    edges.push_back(baseline::float_of(bits | 0x80000000u));
  }
  check_encoder<false>(edges);
  check_encoder<true>(edges);
  check_encoder<false>(float_inputs<mf::e4m3fn>());
  check_encoder<true>(float_inputs<mf::e4m3fn>());
  check_encoder<false>(e4m3fn_normal_inputs());

  // Decoders: all 256 encodings (which covers every timed input).
  for (unsigned i = 0; i < 256; ++i) {
    const auto b = static_cast<std::uint8_t>(i);
    const std::uint32_t expected =
        baseline::bits_of(library_decode_e4m3fn::convert(b));
    const std::uint32_t from_baseline =
        baseline::bits_of(baseline_decode_e4m3fn::convert(b));
    const std::uint32_t from_table =
        baseline::bits_of(table_decode_e4m3fn::convert(b));
    if (from_baseline != expected) {
      mismatch("baseline e4m3fn->float", i, expected, from_baseline);
    }
    if (from_table != expected)
      mismatch("table e4m3fn->float", i, expected, from_table);
  }
  return true;
}

// Runs before main, so no benchmark is timed when the check fails.
const bool baselines_checked = check_baselines();

// ---------------------------------------------------------------------------
// The two timing shapes.
// ---------------------------------------------------------------------------

void set_counters(benchmark::State& state, std::int64_t values) {
  state.SetItemsProcessed(values);
  // Seconds per value (CPU time); the console shows it as e.g. "1.23ns".
  state.counters["time_per_value"] = benchmark::Counter(
      static_cast<double>(values),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

template <class Op>
void per_value(benchmark::State& state) {
  const auto& in = Op::inputs();
  std::size_t i = 0;
  for (auto _ : state) {
    typename Op::out_type result = Op::convert(in[i]);
    benchmark::DoNotOptimize(result);
    i = (i + 1) & kMask;
  }
  set_counters(state, static_cast<std::int64_t>(state.iterations()));
}

template <class Op>
void loop64Ki(benchmark::State& state) {
  const std::vector<typename Op::in_type>& in = Op::inputs();
  std::vector<typename Op::out_type> out(kCount);
  const typename Op::in_type* source = in.data();
  typename Op::out_type* destination = out.data();
  for (auto _ : state) {
    for (std::size_t i = 0; i < kCount; ++i)
      destination[i] = Op::convert(source[i]);
    benchmark::DoNotOptimize(destination);
    benchmark::ClobberMemory();
  }
  set_counters(state, static_cast<std::int64_t>(state.iterations()) *
                          static_cast<std::int64_t>(kCount));
}

template <class Op>
void register_both(const std::string& name) {
  benchmark::RegisterBenchmark((name + "/per_value").c_str(), per_value<Op>);
  benchmark::RegisterBenchmark((name + "/loop64Ki").c_str(), loop64Ki<Op>);
}

bool register_all() {
  (void)baselines_checked;
  register_both<library_encode<mf::e4m3fn>>("float_to_e4m3fn/library");
  register_both<baseline_encode_e4m3fn<false>>("float_to_e4m3fn/baseline_bits");
  register_both<library_encode_e4m3fn_saturating>(
      "float_to_e4m3fn_saturating/library");
  register_both<baseline_encode_e4m3fn<true>>(
      "float_to_e4m3fn_saturating/baseline_bits");
  benchmark::RegisterBenchmark("float_to_e4m3fn_normal_only/library/loop64Ki",
                               loop64Ki<library_encode_e4m3fn_normal_only>);
  benchmark::RegisterBenchmark(
      "float_to_e4m3fn_normal_only/baseline_bits/loop64Ki",
      loop64Ki<baseline_encode_e4m3fn_normal_only>);
  register_both<library_encode<mf::e5m2>>("float_to_e5m2/library");
  register_both<library_encode<mf::e2m1fn>>("float_to_e2m1fn/library");
  register_both<library_encode<mf::e8m0fnu>>("float_to_e8m0fnu/library");
  register_both<library_decode_e4m3fn>("e4m3fn_to_float/library");
  register_both<baseline_decode_e4m3fn>("e4m3fn_to_float/baseline_bits");
  register_both<table_decode_e4m3fn>("e4m3fn_to_float/table256_from_library");
  return true;
}

const bool registered = register_all();

}  // namespace
