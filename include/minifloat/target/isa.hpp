// The instruction sets the library has kernels for, their names, and which
// of them this build compiles. Every module's kernels are chosen by one
// value of `mf::target::isa` (dispatch.hpp).
#pragma once

#include <cstring>

#include "region.hpp"

// MINIFLOAT_NO_AVX512 (defined before the first include, in every
// translation unit of a program): build without the AVX-512 kernels of every
// module (bulk, MX, the MatMul tiles); an AVX-512 CPU then runs the AVX2 ones
// and `MINIFLOAT_ISA=avx512` falls back. For programs that do not want them
// (code size, clock throttling on some CPUs), and for compile time: the
// AVX-512 kernels are about half of what a translation unit that calls the
// bulk entries of a format compiles (docs/performance.md, "Build options").
#if MF_HAS_X86_KERNELS && !defined(MINIFLOAT_NO_AVX512)
#define MF_HAS_AVX512_KERNELS 1
#else
#define MF_HAS_AVX512_KERNELS 0
#endif

// NEON is baseline on AArch64: its kernels compile whenever the target is
// AArch64 (no attribute, no run-time check). MINIFLOAT_NO_SIMD leaves the
// scalar kernels only, on every target.
#if defined(__aarch64__) && !defined(MINIFLOAT_NO_SIMD)
#define MF_HAS_NEON_KERNELS 1
#else
#define MF_HAS_NEON_KERNELS 0
#endif

namespace mf {
namespace target {

// A kernel set. scalar runs everywhere; the others need the CPU support
// that dispatch.hpp's isa_supported checks.
enum class isa : unsigned char {
  scalar,
  avx2,    // AVX2 + FMA + F16C + BMI1/BMI2, with the OS saving YMM state
  avx512,  // AVX-512 F/BW/VL/DQ (+CD), with the OS saving ZMM/opmask state
  neon,    // AArch64 Advanced SIMD (baseline there; never on x86)
};

inline constexpr unsigned isa_count = 4;  // the enumerators of isa

inline const char* isa_name(isa i) noexcept {
  switch (i) {
    case isa::scalar: return "scalar";
    case isa::avx2: return "avx2";
    case isa::avx512: return "avx512";
    case isa::neon: return "neon";
  }
  return "unknown";
}

// Parses "scalar", "avx2", "avx512" or "neon"; false for anything else.
inline bool parse_isa(const char* text, isa& out) noexcept {
  if (text == nullptr) return false;
  const isa all[] = {isa::scalar, isa::avx2, isa::avx512, isa::neon};
  for (isa i : all) {
    if (std::strcmp(text, isa_name(i)) == 0) {
      out = i;
      return true;
    }
  }
  return false;
}

// The kernels compiled for `i` in this build, or scalar: the dispatch table
// fills the row of an ISA the build lacks with the scalar kernels (that row
// is never used: isa_supported is false for it), which keeps every kernel
// family free of #if.
constexpr isa compiled_or_scalar(isa i) noexcept {
  switch (i) {
    case isa::avx2: return MF_HAS_X86_KERNELS ? i : isa::scalar;
    case isa::avx512: return MF_HAS_AVX512_KERNELS ? i : isa::scalar;
    case isa::neon: return MF_HAS_NEON_KERNELS ? i : isa::scalar;
    default: return isa::scalar;
  }
}

// One type per ISA: a kernel family's row(isa_tag<I>) overloads pick each
// ISA's kernels at compile time.
template <isa I>
struct isa_tag {
  static constexpr isa value = I;
};

}  // namespace target
}  // namespace mf
