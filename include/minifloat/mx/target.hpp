// The MX kernels' view of the bulk dispatcher: MF_BULK_X86 (from
// bulk/dispatch.hpp), the intrinsics, and the target attributes of the
// kernels (the same feature sets the bulk kernels ask for). The dispatch
// table (kernel_sets.hpp) chooses them.
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
