// The C++ side of python/bench/bench.py: the same bulk calls the Python
// package makes (mf::bulk::encode<mf::e4m3fn> from float, non-saturating
// nearest-even, and mf::bulk::decode<mf::e4m3fn> to float) on buffers of
// the same size and value distribution (N(0, 50^2) float32), best of
// `repeat` runs, so that bench.py can print Python's time over C++'s.
//
//   g++ -O3 -std=c++17 -Iinclude python/bench/bulk_cpp.cpp -o build/bulk_cpp
//   python python/bench/bench.py --cpp build/bulk_cpp
//
// Prints one line: "encode_ms decode_ms".
//
// The buffers are allocated as NumPy allocates large arrays on Linux
// (aligned, with transparent huge pages asked for by madvise), since the
// ratio is meant to show what the Python layer costs, not what the
// allocators do: a std::vector of 64 MiB is 16 bytes past a page boundary,
// and its 4 KiB pages cost the AVX-512 encode a third of its speed here.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <minifloat/bulk.hpp>

namespace {

template <class F>
double best_ms(int repeat, F&& f) {
  double best = 1e300;
  for (int i = 0; i < repeat; ++i) {
    const auto start = std::chrono::steady_clock::now();
    f();
    const std::chrono::duration<double, std::milli> t = std::chrono::steady_clock::now() - start;
    best = std::min(best, t.count());
  }
  return best;
}

template <class T>
T* numpy_like_buffer(std::size_t n) {
  constexpr std::size_t huge_page = std::size_t{2} << 20;
  const std::size_t bytes = (n * sizeof(T) + huge_page - 1) / huge_page * huge_page;
  void* p = std::aligned_alloc(huge_page, bytes);
  if (p == nullptr) {
    std::perror("aligned_alloc");
    std::exit(1);
  }
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  madvise(p, bytes, MADV_HUGEPAGE);
#endif
  return static_cast<T*>(p);
}

}  // namespace

int main(int argc, char** argv) {
  const std::size_t mib = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 64;
  const int repeat = argc > 2 ? std::atoi(argv[2]) : 7;
  const std::size_t n = mib * (std::size_t{1} << 20) / sizeof(float);
  float* x = numpy_like_buffer<float>(n);
  std::uint8_t* q = numpy_like_buffer<std::uint8_t>(n);
  float* y = numpy_like_buffer<float>(n);
  std::mt19937_64 rng(0);
  std::normal_distribution<float> normal(0.0f, 50.0f);
  for (std::size_t i = 0; i < n; ++i) x[i] = normal(rng);
  // Touch the outputs once, as bench.py's out= arrays are.
  mf::bulk::encode<mf::e4m3fn>(x, q, n);
  mf::bulk::decode<mf::e4m3fn>(q, y, n);
  const double encode_ms = best_ms(repeat, [&] { mf::bulk::encode<mf::e4m3fn>(x, q, n); });
  const double decode_ms = best_ms(repeat, [&] { mf::bulk::decode<mf::e4m3fn>(q, y, n); });
  std::printf("%.4f %.4f\n", encode_ms, decode_ms);
  std::free(x);
  std::free(q);
  std::free(y);
  return 0;
}
