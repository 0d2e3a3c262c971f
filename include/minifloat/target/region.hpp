// Target regions: every function defined between MF_SIMD_REGION_BEGIN_*
// and MF_SIMD_REGION_END is compiled for that instruction set, so one
// generic source included inside the region (once per target, in a
// per-target namespace) becomes that target's kernel, templates included.
// GCC: #pragma GCC push_options / target / pop_options; Clang: #pragma clang
// attribute push(target(...), apply_to = function) / pop. No -march flag is
// needed: the caller chooses the target at run time (dispatch.hpp).
// Standard headers must be included before a region opens (their inline
// functions would otherwise be compiled for the target).
#pragma once

#include "../config.hpp"

// The one list of features of each x86 target, matching what cpu.hpp
// checks before dispatch.hpp reports isa::avx2 / isa::avx512 (and, for the
// optional extensions, its optional_features). Every target
// region and every per-function target attribute below is made from these.
#define MF_SIMD_AVX2_FEATURES "avx2,fma,f16c,bmi,bmi2"
#define MF_SIMD_AVX512_FEATURES MF_SIMD_AVX2_FEATURES ",avx512f,avx512bw,avx512vl,avx512dq,avx512cd"
// AVX-512 plus AVX512_BF16 (VDPBF16PS), for the kernels that need it only.
#define MF_SIMD_AVX512_BF16_FEATURES MF_SIMD_AVX512_FEATURES ",avx512bf16"
// AVX-512 plus VBMI (byte permutes across the register: the table decoders).
#define MF_SIMD_AVX512_VBMI_FEATURES MF_SIMD_AVX512_FEATURES ",avx512vbmi"
// AVX-512 plus AVX512_VNNI (VPDPBUSD: the integer MatMul).
#define MF_SIMD_AVX512_VNNI_FEATURES MF_SIMD_AVX512_FEATURES ",avx512vnni"
// AVX-512 plus AVX512_IFMA (VPMADD52LUQ/HUQ: the exact sum of E5M2 products
// in 52-bit integer limbs).
#define MF_SIMD_AVX512_IFMA_FEATURES MF_SIMD_AVX512_FEATURES ",avx512ifma"
// AVX2 plus AVX-VNNI (VPDPBUSD on ymm, VEX-encoded: the integer MatMul).
#define MF_SIMD_AVX_VNNI_FEATURES MF_SIMD_AVX2_FEATURES ",avxvnni"

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__)) && \
    !defined(MINIFLOAT_NO_SIMD)
#define MF_HAS_X86_KERNELS 1
#else
#define MF_HAS_X86_KERNELS 0
#endif

#define MF_SIMD_PRAGMA(text) MF_HOST_PRAGMA(text)

// The same feature lists as per-function attributes, for the kernels that
// are written per ISA rather than included into a region (bulk, MX):
// the only target-attribute macros of the library. AVX512VBMI is used where
// the dispatch table's optional features report VBMI.
#if MF_HAS_X86_KERNELS && defined(MINIFLOAT_SIMD_EMULATED)
#define MF_TARGET_AVX2
#define MF_TARGET_AVX512
#define MF_TARGET_AVX512VBMI
#elif MF_HAS_X86_KERNELS
#define MF_TARGET_AVX2 __attribute__((target(MF_SIMD_AVX2_FEATURES)))
#define MF_TARGET_AVX512 __attribute__((target(MF_SIMD_AVX512_FEATURES)))
#define MF_TARGET_AVX512VBMI __attribute__((target(MF_SIMD_AVX512_VBMI_FEATURES)))
#endif

// Every region also turns floating-point contraction off: GCC's default for
// C++ (-ffp-contract=fast, even with -std=c++17) may fuse a multiply and a
// later add into one FMA, one rounding instead of the two that the models
// and the post-processing specify; the region keeps the written roundings.
// Clang contracts only within one expression (-ffp-contract=on), and the
// kernels write no a * b + c expression. MF_SIMD_REGION_BEGIN_SCALAR /
// MF_SIMD_REGION_END_SCALAR enclose the scalar kernels (no target).
#if defined(MINIFLOAT_SIMD_EMULATED)
// Tests only (tests/bulk/simde_avx512/): the x86 intrinsics come from a
// portable emulation, so the kernels are compiled for the build's own
// target, without regions.
#define MF_SIMD_REGION_BEGIN_FEATURES(features)
#define MF_SIMD_REGION_END
#define MF_SIMD_REGION_BEGIN_SCALAR
#define MF_SIMD_REGION_END_SCALAR
#elif defined(__clang__)
#define MF_SIMD_REGION_BEGIN_FEATURES(features) \
  MF_SIMD_PRAGMA(clang attribute push(__attribute__((target(features))), apply_to = function))
#define MF_SIMD_REGION_END MF_SIMD_PRAGMA(clang attribute pop)
#define MF_SIMD_REGION_BEGIN_SCALAR
#define MF_SIMD_REGION_END_SCALAR
#elif defined(__GNUC__)
#define MF_SIMD_REGION_BEGIN_FEATURES(features)                        \
  MF_SIMD_PRAGMA(GCC push_options) MF_SIMD_PRAGMA(GCC target(features)) \
  MF_SIMD_PRAGMA(GCC optimize("fp-contract=off"))
#define MF_SIMD_REGION_END MF_SIMD_PRAGMA(GCC pop_options)
#define MF_SIMD_REGION_BEGIN_SCALAR \
  MF_SIMD_PRAGMA(GCC push_options) MF_SIMD_PRAGMA(GCC optimize("fp-contract=off"))
#define MF_SIMD_REGION_END_SCALAR MF_SIMD_PRAGMA(GCC pop_options)
#else
#define MF_SIMD_REGION_BEGIN_FEATURES(features)
#define MF_SIMD_REGION_END
#define MF_SIMD_REGION_BEGIN_SCALAR
#define MF_SIMD_REGION_END_SCALAR
#endif

// Inside an x86 region, before a call into code compiled without it (the
// scalar kernels, libm): clears the upper halves of the vector registers
// (VZEROUPPER). Legacy-SSE code run while they hold 256- or 512-bit state
// pays for it on every instruction (Intel's optimization manual, "Mixing
// AVX code with SSE code"). The compiler inserts the instruction before
// most such calls, but g++ 12 leaves it out where its interprocedural
// register allocation knows the callee keeps some vector registers: a
// stochastic encode that called the scalar kernel for its (empty) head
// ran 5-11 % slower for it on an Intel Xeon (family 6 model 207). A no-op
// outside x86 and in the emulated build.
#if MF_HAS_X86_KERNELS && !defined(MINIFLOAT_SIMD_EMULATED)
#define MF_SIMD_CLEAR_UPPER_STATE() __builtin_ia32_vzeroupper()
#else
#define MF_SIMD_CLEAR_UPPER_STATE() ((void)0)
#endif

#define MF_SIMD_REGION_BEGIN_AVX2 MF_SIMD_REGION_BEGIN_FEATURES(MF_SIMD_AVX2_FEATURES)
#define MF_SIMD_REGION_BEGIN_AVX512 MF_SIMD_REGION_BEGIN_FEATURES(MF_SIMD_AVX512_FEATURES)
#define MF_SIMD_REGION_BEGIN_AVX512_BF16 MF_SIMD_REGION_BEGIN_FEATURES(MF_SIMD_AVX512_BF16_FEATURES)
#define MF_SIMD_REGION_BEGIN_AVX512_VNNI MF_SIMD_REGION_BEGIN_FEATURES(MF_SIMD_AVX512_VNNI_FEATURES)
#define MF_SIMD_REGION_BEGIN_AVX512_IFMA MF_SIMD_REGION_BEGIN_FEATURES(MF_SIMD_AVX512_IFMA_FEATURES)
#define MF_SIMD_REGION_BEGIN_AVX_VNNI MF_SIMD_REGION_BEGIN_FEATURES(MF_SIMD_AVX_VNNI_FEATURES)
