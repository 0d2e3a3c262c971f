// What a bulk call costs in each way of building the kernels: this source is
// built twice, header-only (minifloat_bench_compiled_mode_header) and
// linking minifloat::kernels (minifloat_bench_compiled_mode_library), where
// the table lookup is a call into the library. Small calls show the
// per-call cost (a 16-element encode), a 4 KiB decode the kernel. Run both
// programs in turns and compare the rows; docs/performance.md ("Compile
// time: header-only and compiled kernels").
#include <benchmark/benchmark.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include <minifloat/bulk.hpp>

namespace {

void decode_4k(benchmark::State& state) {
  std::vector<std::uint8_t> codes(4096);
  for (std::size_t i = 0; i < codes.size(); ++i) codes[i] = static_cast<std::uint8_t>(i * 7);
  std::vector<float> out(codes.size());
  for (auto _ : state) {
    mf::bulk::decode<mf::e4m3fn>(codes.data(), out.data(), codes.size());
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
}

void encode_16(benchmark::State& state) {
  std::vector<float> in(16, 1.5f);
  std::uint8_t out[16];
  for (auto _ : state) {
    mf::bulk::encode<mf::e4m3fn>(in.data(), out, in.size());
    benchmark::DoNotOptimize(out);
    benchmark::ClobberMemory();
  }
}

}  // namespace

BENCHMARK(decode_4k)->Name(MF_KERNELS_FROM_LIBRARY ? "library/decode_4KiB" : "header/decode_4KiB");
BENCHMARK(encode_16)->Name(MF_KERNELS_FROM_LIBRARY ? "library/encode_16" : "header/encode_16");
BENCHMARK_MAIN();
