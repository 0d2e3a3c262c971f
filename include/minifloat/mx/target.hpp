// The MX kernels' view of the bulk dispatcher: MF_BULK_X86 (from
// bulk/dispatch.hpp), the intrinsics, and the target attribute of the
// AVX-512 kernels (the same feature set the bulk kernels ask for; dispatch
// checks it with mf::bulk::active_isa() before any of them runs).
#pragma once

#include "../bulk/dispatch.hpp"

#if MF_BULK_X86
#include "../bulk/x86_intrinsics.hpp"

#define MF_MX_TARGET_AVX2 __attribute__((target("avx2,fma,f16c,bmi,bmi2")))
#define MF_MX_TARGET_AVX512 \
  __attribute__((target("avx2,fma,f16c,bmi,bmi2,avx512f,avx512bw,avx512vl,avx512dq,avx512cd")))
// The same plus VBMI (byte permutes across the register), checked with
// mf::bulk::detail::cpu().avx512vbmi before use.
#define MF_MX_TARGET_AVX512VBMI                                                               \
  __attribute__((target(                                                                      \
      "avx2,fma,f16c,bmi,bmi2,avx512f,avx512bw,avx512vl,avx512dq,avx512cd,avx512vbmi")))
#endif

namespace mf {
namespace mx {
namespace detail {

// Whether the AVX-512 MX kernels may run now.
inline bool use_avx512() noexcept {
#if MF_BULK_X86
  return mf::bulk::active_isa() == mf::bulk::isa::avx512;
#else
  return false;
#endif
}

// Whether the AVX2 MX kernels may run now.
inline bool use_avx2() noexcept {
#if MF_BULK_X86
  return mf::bulk::active_isa() == mf::bulk::isa::avx2;
#else
  return false;
#endif
}

}  // namespace detail
}  // namespace mx
}  // namespace mf
