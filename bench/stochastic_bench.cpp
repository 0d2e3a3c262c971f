// Stochastic-rounding bulk encode throughput (Google Benchmark), beside the
// nearest-even bulk encode measured in the same binary and run (the
// baseline the target refers to: stochastic >= 0.5x nearest-even in L1 on
// AVX-512), float32 -> e4m3fn and -> e5m2 at 4 KiB / 256 KiB / 64 MiB of
// output, per ISA, both overflow modes; also the fused scale (x * 0.75)
// and the fused amax. The generator's share of the time is read off as
// stochastic minus nearest-even. Names:
// <kernel>/<format>/<overflow>/<isa>/<size>.
// Items = elements; bytes = bytes read + written.
//   build/ci/bench/minifloat_bench_stochastic --benchmark_repetitions=5
//       --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <new>
#include <random>
#include <string>

#include "bench_support.hpp"
#include <minifloat/bulk.hpp>

namespace {

using bench_support::aligned_buffer;
using bench_support::fill_floats;
using bench_support::kSizes;
using bench_support::size_class;

enum class kernel {
  nearest,
  stochastic,
  stochastic_16_bits,
  stochastic_8_bits,
  nearest_scaled,
  stochastic_scaled,
  nearest_amax
};

const char* kernel_name(kernel k) {
  switch (k) {
    case kernel::nearest: return "encode_nearest";
    case kernel::stochastic: return "encode_stochastic";
    case kernel::stochastic_16_bits: return "encode_stochastic_16bits";
    case kernel::stochastic_8_bits: return "encode_stochastic_8bits";
    case kernel::nearest_scaled: return "encode_scaled_nearest";
    case kernel::stochastic_scaled: return "encode_scaled_stochastic";
    case kernel::nearest_amax: return "encode_scaled_amax_nearest";
  }
  return "?";
}

template <class Fmt>
void bench(benchmark::State& state, kernel k, mf::target::isa isa, std::size_t n,
           mf::overflow ovf) {
  using S = typename Fmt::storage_type;
  if (!bench_support::select_isa(state, isa)) return;
  aligned_buffer<float> in(n);
  aligned_buffer<S> out(n);
  fill_floats(in.data, n);
  std::uint64_t seed = 1;
  float amax = 0;
  for (auto _ : state) {
    switch (k) {
      case kernel::nearest:
        mf::bulk::encode<Fmt>(in.data, out.data, n,
                              mf::conversion::with(mf::rounding::nearest_even, ovf));
        break;
      case kernel::stochastic:
        mf::bulk::encode<Fmt>(in.data, out.data, n,
                              mf::conversion::stochastic({seed++}).with_overflow(ovf));
        break;
      case kernel::stochastic_16_bits:
        mf::bulk::encode<Fmt>(in.data, out.data, n,
                              mf::conversion::stochastic({seed++, 0, 16}).with_overflow(ovf));
        break;
      case kernel::stochastic_8_bits:
        mf::bulk::encode<Fmt>(in.data, out.data, n,
                              mf::conversion::stochastic({seed++, 0, 8}).with_overflow(ovf));
        break;
      case kernel::nearest_scaled:
        mf::bulk::encode<Fmt>(in.data, out.data, n,
                              mf::conversion::with(mf::rounding::nearest_even, ovf), {0.75f});
        break;
      case kernel::stochastic_scaled:
        mf::bulk::encode<Fmt>(in.data, out.data, n,
                              mf::conversion::stochastic({seed++}).with_overflow(ovf), {0.75f});
        break;
      case kernel::nearest_amax:
        mf::bulk::encode<Fmt>(in.data, out.data, n,
                              mf::conversion::with(mf::rounding::nearest_even, ovf),
                              {0.75f, &amax});
        break;
    }
    benchmark::DoNotOptimize(out.data);
    benchmark::DoNotOptimize(amax);
    benchmark::ClobberMemory();
  }
  const auto iterations = static_cast<std::int64_t>(state.iterations());
  state.SetItemsProcessed(iterations * static_cast<std::int64_t>(n));
  state.SetBytesProcessed(iterations *
                          static_cast<std::int64_t>(n * (sizeof(float) + sizeof(S))));
}

const char* overflow_name(mf::overflow o) {
  return o == mf::overflow::saturating ? "sat" : "nonsat";
}

template <class Fmt>
void register_format(const char* format) {
  for (mf::target::isa isa : {mf::target::isa::avx512, mf::target::isa::avx2, mf::target::isa::scalar}) {
    if (!mf::target::isa_supported(isa)) continue;
    for (const size_class& size : kSizes) {
      const std::size_t n = size.output_bytes / sizeof(typename Fmt::storage_type);
      for (kernel k : {kernel::nearest, kernel::stochastic, kernel::stochastic_16_bits,
                       kernel::stochastic_8_bits, kernel::nearest_scaled,
                       kernel::stochastic_scaled, kernel::nearest_amax}) {
        for (mf::overflow ovf : {mf::overflow::saturating, mf::overflow::non_saturating}) {
          // The scalar loop only at 4 KiB and 256 KiB (it is slow).
          if (isa == mf::target::isa::scalar && size.output_bytes > (std::size_t{1} << 20)) continue;
          const std::string name = std::string(kernel_name(k)) + "/" + format + "/" +
                                   overflow_name(ovf) + "/" + mf::target::isa_name(isa) + "/" +
                                   size.name;
          benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& state) {
            bench<Fmt>(state, k, isa, n, ovf);
          });
        }
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_format<mf::e4m3fn>("e4m3fn");
  register_format<mf::e5m2>("e5m2");
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
