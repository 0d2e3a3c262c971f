// Philox4x32-10 (random.hpp) evaluated for many counters at once, giving the
// stochastic-rounding stream's words in order: the algorithm is
// generic/philox_lanes.hpp, compiled here once per ISA over that ISA's
// philox_ops (simd/<arch>/<isa>/philox_ops.hpp, where each layout is
// described). The kernels call stochastic_values<philox_ops>.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../random.hpp"
#include "../target/region.hpp"
#include "../target/dispatch.hpp"

namespace mf {
namespace bulk {
namespace detail {

// The ten round keys of Philox4x32-10 for a seed (Weyl-bumped per round).
struct philox_round_keys {
  std::uint32_t k0[10];
  std::uint32_t k1[10];
};

inline philox_round_keys make_philox_round_keys(std::uint64_t seed) noexcept {
  philox_round_keys keys{};
  std::uint32_t a = static_cast<std::uint32_t>(seed);
  std::uint32_t b = static_cast<std::uint32_t>(seed >> 32);
  for (int r = 0; r < 10; ++r) {
    keys.k0[r] = a;
    keys.k1[r] = b;
    a = static_cast<std::uint32_t>(a + mf::detail::philox4x32_weyl_0);
    b = static_cast<std::uint32_t>(b + mf::detail::philox4x32_weyl_1);
  }
  return keys;
}

}  // namespace detail
}  // namespace bulk
}  // namespace mf

#if MF_HAS_X86_KERNELS
#include "../simd/x86/avx2/philox_ops.hpp"
#include "../simd/x86/avx512/philox_ops.hpp"

MF_SIMD_REGION_BEGIN_AVX512
namespace mf::bulk::avx512 {
#include "generic/philox_lanes.hpp"
}  // namespace mf::bulk::avx512
MF_SIMD_REGION_END

MF_SIMD_REGION_BEGIN_AVX2
namespace mf::bulk::avx2 {
#include "generic/philox_lanes.hpp"
}  // namespace mf::bulk::avx2
MF_SIMD_REGION_END
#endif  // MF_HAS_X86_KERNELS

#if MF_HAS_NEON_KERNELS
#include "../simd/arm/neon/philox_ops.hpp"

// NEON is baseline on AArch64: no target region.
namespace mf::bulk::neon {
#include "generic/philox_lanes.hpp"
}  // namespace mf::bulk::neon
#endif  // MF_HAS_NEON_KERNELS
