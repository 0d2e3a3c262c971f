// Software prefetch of a kernel's input, a fixed distance ahead of the
// loop that reads it (the encodes of bulk/ and the MX quantize).
//
// Why: an encode reads four bytes for each byte it writes and does tens of
// instructions per element, so once its input comes from memory it
// alternates between computing and waiting unless the loads are requested
// early. The hardware prefetchers did not keep ahead of it on an Intel Xeon
// (family 6 model 207): without this, the AVX-512 nearest-even encode of 64
// MiB of output ran at 0.65-0.66x of a plain load-and-store loop over the
// same bytes, and with it at 0.93-0.97x (docs/performance.md, "Encode from
// memory").
#pragma once

#include <cstddef>

#include "../config.hpp"
#include "cpu.hpp"

namespace mf {
namespace target {
namespace detail {

// How far ahead of the element being encoded the input is requested: enough
// to cover a memory latency (about 100 ns) at one core's bandwidth with room
// to spare; 4-16 KiB measured the same on the Xeon above. The lines are
// asked for with low temporal locality (prefetcht2 on x86: into the L2, not
// the L1), which measured 3-5 % faster there than into the L1.
inline constexpr std::size_t prefetch_distance_bytes = 8192;
inline constexpr int prefetch_locality = 1;  // __builtin_prefetch's 0..3
inline constexpr std::size_t prefetch_line_bytes = 64;

// The requests of one call's loop over in[0, n). They are made only when
// the input is larger than the core's L2 (CPUID; 1 MiB where the CPU does
// not say): inside the L2 the loads find their lines soon enough, and the
// requests would only take load slots.
class input_prefetch {
 public:
  MF_FORCE_INLINE input_prefetch(const float* in, std::size_t n) noexcept
      : in_(in), n_(n), enabled_(n * sizeof(float) > l2_bytes()) {}

  // Requests the `count` floats that lie prefetch_distance_bytes after
  // in[at], one request per cache line, when they are inside in[0, n): a
  // prefetch never faults, but a pointer past the end of the array is not
  // formed.
  MF_FORCE_INLINE void ahead_of(std::size_t at, std::size_t count) const noexcept {
    constexpr std::size_t ahead = prefetch_distance_bytes / sizeof(float);
    if (!enabled_ || at + ahead + count > n_) return;
    const char* from = reinterpret_cast<const char*>(in_ + at + ahead);
    for (std::size_t b = 0; b < count * sizeof(float); b += prefetch_line_bytes) {
#if defined(__GNUC__) || defined(__clang__)
      __builtin_prefetch(from + b, 0, prefetch_locality);
#else
      (void)from;
#endif
    }
  }

 private:
  MF_FORCE_INLINE static std::size_t l2_bytes() noexcept {
    const std::size_t reported = caches().l2;
    return reported != 0 ? reported : std::size_t{1} << 20;
  }

  const float* in_;
  std::size_t n_;
  bool enabled_;
};

}  // namespace detail
}  // namespace target
}  // namespace mf
