// Shared by the benchmark programs: the three sizes every bulk benchmark is
// run at, a 64-byte-aligned buffer (so that no run depends on where the
// allocator happened to put the data), the input generator, and the ISA
// selection.
#pragma once

#include <cstddef>
#include <new>
#include <random>

#include <benchmark/benchmark.h>
#include <minifloat/target/dispatch.hpp>

namespace bench_support {

// Sizes as bytes of output of the kernel measured: L1, L2, memory.
struct size_class {
  const char* name;
  std::size_t output_bytes;
};
inline const size_class kSizes[] = {
    {"4KiB", std::size_t{4} << 10},
    {"256KiB", std::size_t{256} << 10},
    {"64MiB", std::size_t{64} << 20},
};

// n elements of T at a 64-byte boundary, with 64 bytes of slack after them
// for kernels that read a whole vector past a short tail.
template <class T>
struct aligned_buffer {
  explicit aligned_buffer(std::size_t n)
      : data(static_cast<T*>(::operator new[](n * sizeof(T) + 64, std::align_val_t{64}))),
        size(n) {}
  ~aligned_buffer() { ::operator delete[](data, std::align_val_t{64}); }
  aligned_buffer(const aligned_buffer&) = delete;
  aligned_buffer& operator=(const aligned_buffer&) = delete;
  T* data;
  std::size_t size;
};

// Inputs spread over the e4m3fn/e5m2 range, with some beyond it, as a
// tensor about to be quantised would be: N(0, 64^2) from a fixed seed.
inline void fill_floats(float* p, std::size_t n) {
  std::mt19937 rng(42);
  std::normal_distribution<float> dist(0.0f, 64.0f);
  for (std::size_t i = 0; i < n; ++i) p[i] = dist(rng);
}

// Makes isa the one the bulk API runs on; false (and the benchmark marked
// skipped) where this machine lacks it.
inline bool select_isa(benchmark::State& state, mf::target::isa isa) {
  if (mf::target::set_isa(isa) != isa) {
    state.SkipWithError("ISA not available");
    return false;
  }
  return true;
}

}  // namespace bench_support
