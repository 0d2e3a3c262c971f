// Full tier: all 2^32 float32 inputs through every ISA's encode kernels for
// every format, in nearest-even (both overflow modes) and toward-zero,
// compared bit for bit with the scalar path (mf::detail::round_float_bits,
// the function behind mf::round_to). Runs on MINIFLOAT_TEST_THREADS threads
// (default: the hardware's count). Minutes; label `exhaustive`.
#include <atomic>
#include <cstdlib>
#include <mutex>
#include <sstream>
#include <thread>

#include "support/bulk_helpers.hpp"

namespace {

using namespace bulk_test;

constexpr std::uint64_t kChunk = std::uint64_t{1} << 20;
constexpr std::uint64_t kChunks = (std::uint64_t{1} << 32) / kChunk;

struct combo {
  mf::rounding mode;
  mf::overflow ovf;
};
const combo kCombos[] = {
    {mf::rounding::nearest_even, mf::overflow::non_saturating},
    {mf::rounding::nearest_even, mf::overflow::saturating},
    {mf::rounding::toward_zero, mf::overflow::non_saturating},
};

// The kernel set of one ISA, called directly (threads may run different
// ISAs at once, so the global selection is not used).
template <class Fmt>
void encode_with(mf::bulk::isa i, const float* in, typename Fmt::storage_type* out,
                 std::size_t n, mf::rounding mode, mf::overflow ovf) {
  switch (i) {
#if MF_BULK_X86
    case mf::bulk::isa::avx512:
      return mf::bulk::avx512_kernels::encode<Fmt>(in, out, n, mode, ovf);
    case mf::bulk::isa::avx2:
      return mf::bulk::avx2_kernels::encode<Fmt>(in, out, n, mode, ovf);
#endif
#if MF_BULK_NEON
    case mf::bulk::isa::neon:
      return mf::bulk::neon_kernels::encode<Fmt>(in, out, n, mode, ovf);
#endif
    default:
      return mf::bulk::scalar_kernels::encode<Fmt>(in, out, n, mode, ovf);
  }
}

struct failure_log {
  std::mutex mutex;
  std::string first;
  std::atomic<bool> failed{false};
  void report(const std::string& what) {
    std::lock_guard<std::mutex> lock(mutex);
    if (!failed.exchange(true)) first = what;
  }
};

template <class Fmt>
void check_chunk(const std::vector<float>& in, const std::vector<mf::bulk::isa>& simd,
                 failure_log& log) {
  using S = typename Fmt::storage_type;
  std::vector<S> expected(in.size()), got(in.size());
  for (const combo& c : kCombos) {
    mf::bulk::scalar_kernels::encode<Fmt>(in.data(), expected.data(), in.size(),
                                          c.mode, c.ovf);
    for (mf::bulk::isa i : simd) {
      encode_with<Fmt>(i, in.data(), got.data(), in.size(), c.mode, c.ovf);
      const long long at = first_difference(got.data(), expected.data(), in.size());
      if (at >= 0) {
        std::ostringstream os;
        os << mf::bulk::isa_name(i) << " " << mode_name(c.mode) << " saturating "
           << (c.ovf == mf::overflow::saturating) << " bits " << Fmt::format::bits
           << " E" << Fmt::format::exponent_bits << "M" << Fmt::format::mantissa_bits
           << ": input 0x" << std::hex << float_bits(in[static_cast<std::size_t>(at)])
           << " got 0x" << +got[static_cast<std::size_t>(at)] << " expected 0x"
           << +expected[static_cast<std::size_t>(at)];
        log.report(os.str());
      }
    }
  }
}

template <class... Fmts>
void check_all_formats(const std::vector<float>& in,
                       const std::vector<mf::bulk::isa>& simd, failure_log& log) {
  (check_chunk<Fmts>(in, simd, log), ...);
}

TEST(BulkExhaustive, AllFloat32InputsEveryIsaEveryFormat) {
  std::vector<mf::bulk::isa> simd;
  for (mf::bulk::isa i : available_isas()) {
    if (i != mf::bulk::isa::scalar) simd.push_back(i);
  }
  if (simd.empty()) GTEST_SKIP() << "no SIMD kernel set on this machine";
  unsigned threads = std::thread::hardware_concurrency();
  if (const char* t = std::getenv("MINIFLOAT_TEST_THREADS")) {
    threads = static_cast<unsigned>(std::strtoul(t, nullptr, 10));
  }
  if (threads == 0) threads = 1;
  // MINIFLOAT_EXHAUSTIVE_CHUNKS limits the run to the first chunks of 2^20
  // inputs (a smoke run); unset, all 4096 chunks are checked.
  std::uint64_t chunks = kChunks;
  if (const char* c = std::getenv("MINIFLOAT_EXHAUSTIVE_CHUNKS")) {
    const std::uint64_t limit = std::strtoull(c, nullptr, 10);
    if (limit > 0 && limit < chunks) chunks = limit;
  }
  std::atomic<std::uint64_t> next{0};
  failure_log log;
  std::vector<std::thread> pool;
  for (unsigned t = 0; t < threads; ++t) {
    pool.emplace_back([&] {
      std::vector<float> in(kChunk);
      for (;;) {
        const std::uint64_t chunk = next.fetch_add(1);
        if (chunk >= chunks || log.failed.load()) return;
        for (std::uint64_t k = 0; k < kChunk; ++k) {
          // Chunks in a scrambled order, so a partial run still spans the
          // whole range.
          const std::uint64_t c = (chunk * 2654435761u) % kChunks;
          in[k] = bits_float(static_cast<std::uint32_t>(c * kChunk + k));
        }
        check_all_formats<mf::e4m3fn, mf::e5m2, mf::e4m3fnuz, mf::e5m2fnuz,
                          mf::e2m1fn, mf::e2m3fn, mf::e3m2fn, mf::e8m0fnu,
                          mf::e4m3, mf::e3m4, mf::e4m3b11fnuz, mf::binary16,
                          mf::bfloat16>(in, simd, log);
      }
    });
  }
  for (std::thread& t : pool) t.join();
  EXPECT_FALSE(log.failed.load()) << log.first;
}

}  // namespace
