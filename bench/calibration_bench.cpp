// Static calibration (Google Benchmark): the observer's ingest rate beside
// the bulk nearest-even encoder on the same data in the same run (the target:
// ingest >= 0.5x the encoder), and the cost of each search once the
// histogram exists, per format, for histograms of 10^4 and 10^6 values (the
// searches read the bins, not the data). Names:
//   observe/<size>, encode_e4m3fn/<size>: items = elements;
//   search/<method>/<format>/<values observed>.
//   build/ci/bench/minifloat_bench_calibration --benchmark_repetitions=3
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "bench_support.hpp"
#include <minifloat/bulk.hpp>
#include <minifloat/calibration.hpp>

namespace {

namespace cal = mf::calibration;
using bench_support::aligned_buffer;
using bench_support::fill_floats;

// The input sizes of the bulk benchmarks, as float32 input bytes.
const bench_support::size_class kInputs[] = {{"256KiB", std::size_t{256} << 10},
                                             {"64MiB", std::size_t{64} << 20}};

void observe(benchmark::State& state, std::size_t n) {
  aligned_buffer<float> in(n);
  fill_floats(in.data, n);
  for (auto _ : state) {
    cal::abs_histogram h;
    h.observe(in.data, n);
    benchmark::DoNotOptimize(h);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * sizeof(float)));
}

void encode(benchmark::State& state, std::size_t n) {
  aligned_buffer<float> in(n);
  aligned_buffer<std::uint8_t> out(n);
  fill_floats(in.data, n);
  for (auto _ : state) {
    mf::bulk::encode<mf::e4m3fn>(
        in.data, out.data, n,
        mf::conversion::with(mf::rounding::nearest_even, mf::overflow::saturating));
    benchmark::DoNotOptimize(out.data);
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * n));
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * n * (sizeof(float) + 1)));
}

template <class Fmt>
void search(benchmark::State& state, cal::method how, std::size_t n) {
  aligned_buffer<float> in(n);
  fill_floats(in.data, n);
  cal::abs_histogram h;
  h.observe(in.data, n);
  cal::calibration_options o;
  o.how = how;
  for (auto _ : state) benchmark::DoNotOptimize(cal::calibrate<Fmt>(h, o));
}

template <class Fmt>
void register_searches(const char* format) {
  for (const auto& m : {std::make_pair("mse", cal::method::mse),
                        std::make_pair("kl", cal::method::kl)}) {
    for (std::size_t n : {std::size_t{10000}, std::size_t{1000000}}) {
      const std::string name = std::string("search/") + m.first + "/" + format + "/" +
                               std::to_string(n);
      benchmark::RegisterBenchmark(name.c_str(), search<Fmt>, m.second, n)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  for (const auto& s : kInputs) {
    const std::size_t n = s.output_bytes / sizeof(float);
    benchmark::RegisterBenchmark((std::string("observe/") + s.name).c_str(), observe, n);
    benchmark::RegisterBenchmark((std::string("encode_e4m3fn/") + s.name).c_str(), encode, n);
  }
  register_searches<mf::e4m3fn>("e4m3fn");
  register_searches<mf::e5m2>("e5m2");
  register_searches<mf::e2m3fn>("e2m3fn");
  register_searches<mf::e3m2fn>("e3m2fn");
  register_searches<mf::e2m1fn>("e2m1fn");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
