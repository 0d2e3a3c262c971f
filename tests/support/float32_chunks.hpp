// The float32 bit patterns in chunks of 2^20, for the sweeps that compare a
// kernel set with the scalar path on every input: all 4096 chunks at full
// level, a sample at ci level (support/test_level.hpp). Chunks are taken in
// a scrambled order, so any prefix of them (MINIFLOAT_EXHAUSTIVE_CHUNKS=N,
// a smoke run of the full level) spans the whole range.
#pragma once

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "support/test_level.hpp"

namespace mft {

constexpr std::uint64_t float32_chunk_size = std::uint64_t{1} << 20;
constexpr std::uint64_t float32_chunk_count = (std::uint64_t{1} << 32) / float32_chunk_size;

// The first failure of a sweep, kept for the report; workers stop once set.
struct sweep_failure {
  std::mutex mutex;
  std::string first;
  std::atomic<bool> failed{false};
  void report(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!failed.exchange(true)) first = what;
  }
};

// Calls check(inputs) for each chunk: at full level every chunk (or the
// first N of the scrambled order with MINIFLOAT_EXHAUSTIVE_CHUNKS=N) on
// test_threads() threads; at ci level the chunks of `ci_sample` on one
// thread (ctest already runs tests side by side). Chunk c holds the
// patterns c << 20 .. (c << 20) + 2^20 - 1: 0x3F8 is [1, 2), 0x7F8 the
// infinity and the NaNs.
template <class Check>
void for_each_float32_chunk(const std::vector<std::uint64_t>& ci_sample, sweep_failure& failure,
                            Check check) {
  std::uint64_t chunks = ci_sample.size();
  unsigned threads = 1;
  if (full_level()) {
    chunks = float32_chunk_count;
    if (const char* text = std::getenv("MINIFLOAT_EXHAUSTIVE_CHUNKS")) {
      const std::uint64_t limit = std::strtoull(text, nullptr, 10);
      if (limit > 0 && limit < chunks) chunks = limit;
    }
    threads = test_threads();
  }
  std::atomic<std::uint64_t> next{0};
  const auto work = [&] {
    std::vector<float> in(float32_chunk_size);
    for (;;) {
      const std::uint64_t index = next.fetch_add(1);
      if (index >= chunks || failure.failed.load()) return;
      const std::uint64_t chunk =
          full_level() ? (index * 2654435761u) % float32_chunk_count : ci_sample[index];
      for (std::uint64_t k = 0; k < float32_chunk_size; ++k) {
        const std::uint32_t bits = static_cast<std::uint32_t>(chunk * float32_chunk_size + k);
        std::memcpy(&in[k], &bits, sizeof bits);
      }
      check(in);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(work);
  work();
  for (std::thread& t : pool) t.join();
}

}  // namespace mft
