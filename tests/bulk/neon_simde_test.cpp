// Full tier for the NEON kernels without AArch64 hardware: neon.hpp compiled
// against SIMDe's portable NEON intrinsics (simde_shim/arm_neon.h) and run
// natively on all 2^32 float32 inputs, for every format, every rounding mode
// and both overflow modes, compared bit for bit with the scalar path. (Under
// qemu-user the same sweep would take hours; CI runs the CI tier there.)
// Built only with -DMINIFLOAT_NEON_SIMDE_TEST=ON and SIMDe installed (Debian:
// libsimde-dev); MINIFLOAT_TEST_THREADS and MINIFLOAT_EXHAUSTIVE_CHUNKS as in
// bulk_exhaustive_test.cpp.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <minifloat/bulk/dispatch.hpp>
// Compile the NEON kernels here although the target is not AArch64 (the
// dispatcher, compiled above, still never offers them: they are called
// directly).
#undef MF_BULK_NEON
#define MF_BULK_NEON 1
#include <minifloat/bulk/neon.hpp>
#include <minifloat/formats.hpp>

namespace {

constexpr std::uint64_t kChunk = std::uint64_t{1} << 20;
constexpr std::uint64_t kChunks = (std::uint64_t{1} << 32) / kChunk;

const mf::rounding kModes[] = {mf::rounding::nearest_even, mf::rounding::toward_zero,
                               mf::rounding::toward_positive,
                               mf::rounding::toward_negative};

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
void check_chunk(const std::vector<float>& in, failure_log& log) {
  using S = typename Fmt::storage_type;
  std::vector<S> expected(in.size()), got(in.size());
  for (mf::rounding mode : kModes) {
    for (mf::overflow ovf : {mf::overflow::non_saturating, mf::overflow::saturating}) {
      mf::bulk::scalar_kernels::encode<Fmt>(in.data(), expected.data(), in.size(), mode, ovf);
      mf::bulk::neon_kernels::encode<Fmt>(in.data(), got.data(), in.size(), mode, ovf);
      for (std::size_t k = 0; k < in.size(); ++k) {
        if (got[k] != expected[k]) {
          std::uint32_t bits;
          std::memcpy(&bits, &in[k], sizeof bits);
          std::ostringstream os;
          os << "E" << Fmt::format::exponent_bits << "M" << Fmt::format::mantissa_bits
             << " bias " << Fmt::format::bias << " mode " << static_cast<int>(mode)
             << " saturating " << (ovf == mf::overflow::saturating) << ": input 0x"
             << std::hex << bits << " got 0x" << +got[k] << " expected 0x"
             << +expected[k];
          log.report(os.str());
          return;
        }
      }
    }
  }
}

TEST(NeonSimdeExhaustive, AllFloat32InputsEveryFormatEveryMode) {
  unsigned threads = std::thread::hardware_concurrency();
  if (const char* t = std::getenv("MINIFLOAT_TEST_THREADS")) {
    threads = static_cast<unsigned>(std::strtoul(t, nullptr, 10));
  }
  if (threads == 0) threads = 1;
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
        // Chunks in a scrambled order, so a partial run spans the range.
        const std::uint64_t c = (chunk * 2654435761u) % kChunks;
        for (std::uint64_t k = 0; k < kChunk; ++k) {
          const std::uint32_t u = static_cast<std::uint32_t>(c * kChunk + k);
          std::memcpy(&in[k], &u, sizeof u);
        }
        check_chunk<mf::e4m3fn>(in, log);
        check_chunk<mf::e5m2>(in, log);
        check_chunk<mf::e4m3fnuz>(in, log);
        check_chunk<mf::e5m2fnuz>(in, log);
        check_chunk<mf::e2m1fn>(in, log);
        check_chunk<mf::e2m3fn>(in, log);
        check_chunk<mf::e3m2fn>(in, log);
        check_chunk<mf::e8m0fnu>(in, log);
        check_chunk<mf::e4m3>(in, log);
        check_chunk<mf::e3m4>(in, log);
        check_chunk<mf::e4m3b11fnuz>(in, log);
        check_chunk<mf::binary16>(in, log);
        check_chunk<mf::bfloat16>(in, log);
      }
    });
  }
  for (std::thread& t : pool) t.join();
  EXPECT_FALSE(log.failed.load()) << log.first;
}

}  // namespace
