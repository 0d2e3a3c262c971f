// The regression level: MINIFLOAT_TEST_LEVEL=ci (the default) runs a sample
// of the inputs a test could enumerate, MINIFLOAT_TEST_LEVEL=full every one
// of them (all 2^32 float32 patterns; the long MatMul comparison). The same
// program serves both: tests/CMakeLists.txt registers it once at ci level
// and once more at full level under the label `exhaustive`, which the CI
// test presets exclude (`ctest --preset exhaustive` runs it).
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace mft {

enum class test_level { ci, full };

// Read once. Any other value stops the program: a typo must not turn a
// full run into a sample that passes.
inline test_level current_test_level() {
  static const test_level level = [] {
    const char* text = std::getenv("MINIFLOAT_TEST_LEVEL");
    if (text == nullptr || *text == '\0' || std::strcmp(text, "ci") == 0) return test_level::ci;
    if (std::strcmp(text, "full") == 0) return test_level::full;
    std::fprintf(stderr, "MINIFLOAT_TEST_LEVEL=%s: expected ci or full\n", text);
    std::exit(2);
  }();
  return level;
}

inline bool full_level() { return current_test_level() == test_level::full; }

inline const char* level_name() { return full_level() ? "full" : "ci"; }

// Worker threads of the full-level sweeps: MINIFLOAT_TEST_THREADS, else the
// hardware's count.
inline unsigned test_threads() {
  unsigned threads = std::thread::hardware_concurrency();
  if (const char* text = std::getenv("MINIFLOAT_TEST_THREADS")) {
    threads = static_cast<unsigned>(std::strtoul(text, nullptr, 10));
  }
  return threads == 0 ? 1 : threads;
}

}  // namespace mft
