// MX quantize / dequantize throughput (Google Benchmark) next to the plain
// bulk conversion in the same binary and run:
//   encode/e4m3fn/<isa>/<size>      mf::bulk::encode<e4m3fn> (nearest even,
//                                   saturating): the baseline of quantize
//   quantize/mxfp8_e4m3/<isa>/...   mf::mx::quantize<mxfp8_e4m3> (floor)
//   quantize/mxfp4/<isa>/...        mf::mx::quantize<mxfp4> (floor)
//   decode/e4m3fn/<isa>/<size>      mf::bulk::decode<e4m3fn>: the baseline
//                                   of dequantize
//   dequantize/{mxfp8_e4m3,mxfp4}/<isa>/...
// Sizes as in bulk_bench.cpp, bytes of e4m3fn output: 4 KiB (L1), 256 KiB
// (L2), 64 MiB (memory); quantize and encode convert that many elements,
// decode and dequantize a quarter as many (4-byte outputs). MXFP4 uses the
// same element counts as MXFP8. Items = elements. bench/mx_compare.py
// prints the ratios.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "bench_support.hpp"
#include <minifloat/mx.hpp>

namespace {

using bench_support::aligned_buffer;
using bench_support::kSizes;
using bench_support::size_class;

// Activations-like inputs: N(0, 1) with a per-block magnitude spread.
void fill_floats(float* p, std::size_t n) {
  std::mt19937 rng(42);
  std::normal_distribution<float> dist(0.0f, 1.0f);
  std::uniform_int_distribution<int> binade(-8, 8);
  float scale = 1.0f;
  for (std::size_t i = 0; i < n; ++i) {
    if (i % 32 == 0) scale = std::ldexp(1.0f, binade(rng));
    p[i] = dist(rng) * scale;
  }
}

void set_counters(benchmark::State& state, std::size_t n, std::size_t bytes) {
  const auto iterations = static_cast<std::int64_t>(state.iterations());
  state.SetItemsProcessed(iterations * static_cast<std::int64_t>(n));
  state.SetBytesProcessed(iterations * static_cast<std::int64_t>(bytes));
}

void bench_encode(benchmark::State& state, mf::target::isa isa, std::size_t n) {
  if (!bench_support::select_isa(state, isa)) return;
  aligned_buffer<float> in(n);
  aligned_buffer<std::uint8_t> out(n);
  fill_floats(in.data, n);
  for (auto _ : state) {
    mf::bulk::encode<mf::e4m3fn>(
        in.data, out.data, n,
        mf::conversion::with(mf::rounding::nearest_even, mf::overflow::saturating));
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  set_counters(state, n, n * 5);
}

void bench_decode(benchmark::State& state, mf::target::isa isa, std::size_t n) {
  if (!bench_support::select_isa(state, isa)) return;
  aligned_buffer<float> floats(n);
  aligned_buffer<std::uint8_t> codes(n);
  fill_floats(floats.data, n);
  mf::bulk::encode<mf::e4m3fn>(
      floats.data, codes.data, n,
      mf::conversion::with(mf::rounding::nearest_even, mf::overflow::saturating));
  for (auto _ : state) {
    mf::bulk::decode<mf::e4m3fn>(codes.data, floats.data, n);
    benchmark::DoNotOptimize(floats.data);
    benchmark::ClobberMemory();
  }
  set_counters(state, n, n * 5);
}

template <class Fmt>
void bench_quantize(benchmark::State& state, mf::target::isa isa, std::size_t n) {
  if (!bench_support::select_isa(state, isa)) return;
  aligned_buffer<float> in(n);
  aligned_buffer<std::uint8_t> scales(mf::mx::scale_count<Fmt>(n));
  aligned_buffer<std::uint8_t> elements(mf::mx::element_bytes<Fmt>(n));
  fill_floats(in.data, n);
  for (auto _ : state) {
    mf::mx::quantize<Fmt>(in.data, scales.data, elements.data, n);
    benchmark::DoNotOptimize(elements.data);
    benchmark::DoNotOptimize(scales.data);
    benchmark::ClobberMemory();
  }
  set_counters(state, n,
               n * 4 + mf::mx::element_bytes<Fmt>(n) + mf::mx::scale_count<Fmt>(n));
}

template <class Fmt>
void bench_dequantize(benchmark::State& state, mf::target::isa isa, std::size_t n) {
  if (!bench_support::select_isa(state, isa)) return;
  aligned_buffer<float> floats(n);
  aligned_buffer<std::uint8_t> scales(mf::mx::scale_count<Fmt>(n));
  aligned_buffer<std::uint8_t> elements(mf::mx::element_bytes<Fmt>(n));
  fill_floats(floats.data, n);
  mf::mx::quantize<Fmt>(floats.data, scales.data, elements.data, n);
  for (auto _ : state) {
    mf::mx::dequantize<Fmt>(scales.data, elements.data, floats.data, n);
    benchmark::DoNotOptimize(floats.data);
    benchmark::ClobberMemory();
  }
  set_counters(state, n,
               n * 4 + mf::mx::element_bytes<Fmt>(n) + mf::mx::scale_count<Fmt>(n));
}

void register_all() {
  const mf::target::isa isas[] = {mf::target::isa::scalar, mf::target::isa::avx2,
                                mf::target::isa::avx512};
  for (const size_class& size : kSizes) {
    const std::size_t n_in = size.output_bytes;       // one byte out per element
    const std::size_t n_out = size.output_bytes / 4;  // four bytes out per element
    for (mf::target::isa isa : isas) {
      if (!mf::target::isa_supported(isa)) continue;
      const std::string tail = std::string("/") + mf::target::isa_name(isa) + "/" + size.name;
      benchmark::RegisterBenchmark(("encode/e4m3fn" + tail).c_str(),
                                   [=](benchmark::State& s) { bench_encode(s, isa, n_in); });
      benchmark::RegisterBenchmark(
          ("quantize/mxfp8_e4m3" + tail).c_str(),
          [=](benchmark::State& s) { bench_quantize<mf::mx::mxfp8_e4m3>(s, isa, n_in); });
      benchmark::RegisterBenchmark(
          ("quantize/mxfp4" + tail).c_str(),
          [=](benchmark::State& s) { bench_quantize<mf::mx::mxfp4>(s, isa, n_in); });
      benchmark::RegisterBenchmark(("decode/e4m3fn" + tail).c_str(),
                                   [=](benchmark::State& s) { bench_decode(s, isa, n_out); });
      benchmark::RegisterBenchmark(
          ("dequantize/mxfp8_e4m3" + tail).c_str(),
          [=](benchmark::State& s) { bench_dequantize<mf::mx::mxfp8_e4m3>(s, isa, n_out); });
      benchmark::RegisterBenchmark(
          ("dequantize/mxfp4" + tail).c_str(),
          [=](benchmark::State& s) { bench_dequantize<mf::mx::mxfp4>(s, isa, n_out); });
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
