// What the CPU and the operating system let the kernels use: CPUID feature
// bits and XCR0 (the register states the OS saves on a context switch),
// read once. Intel SDM Vol. 1, 13.2 and 15.2 (detection of AVX and AVX-512
// support): a feature is usable only when CPUID reports it and XCR0 shows the
// OS saves its registers.
#pragma once

#include <cstddef>

#include "../config.hpp"
#include "region.hpp"

#if MF_HAS_X86_KERNELS
#include <cpuid.h>
#endif

namespace mf {
namespace target {
namespace detail {

// Whose core it is: the instruction sets are the same, the costs are not,
// and some kernels pick their route by it (each says why, with the
// measurement).
enum class cpu_vendor { other, intel, amd };

struct cpu_features {
  cpu_vendor vendor = cpu_vendor::other;
  bool avx2 = false;
  bool avx512 = false;
  bool avx512vbmi = false;
  bool avx512bf16 = false;  // VDPBF16PS (the hybrid avx512_bf16_pairs kernel)
  bool avx512vnni = false;  // VPDPBUSD (the integer MatMul)
  bool avx512ifma = false;  // VPMADD52LUQ/HUQ (the exact model's E5M2 x E5M2 sum)
  bool avxvnni = false;     // VPDPBUSD on ymm, VEX-encoded (the integer MatMul on AVX2)
};

#if MF_HAS_X86_KERNELS
// xgetbv without the xsave target attribute: XCR0 tells which register
// states the OS saves on context switches.
inline unsigned long long read_xcr0() noexcept {
  unsigned eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<unsigned long long>(edx) << 32) | eax;
}

// What CPUID leaf 0 says: the highest basic leaf (EAX) and whose core it
// is (the vendor string, EBX first: "GenuineIntel", "AuthenticAMD").
struct basic_identity {
  unsigned max_leaf = 0;
  cpu_vendor vendor = cpu_vendor::other;
};

inline basic_identity read_basic_identity() noexcept {
  unsigned r[4] = {0, 0, 0, 0};
  __cpuid(0, r[0], r[1], r[2], r[3]);
  basic_identity id;
  id.max_leaf = r[0];
  if (r[1] == 0x756E6547u) id.vendor = cpu_vendor::intel;  // "Genu"
  if (r[1] == 0x68747541u) id.vendor = cpu_vendor::amd;    // "Auth"
  return id;
}

inline cpu_features detect_cpu() noexcept {
  cpu_features f;
  const basic_identity id = read_basic_identity();
  f.vendor = id.vendor;
  // cpuid writes all four registers; the leaves read here need only some,
  // and an array keeps nvcc from warning about the others.
  unsigned r[4] = {0, 0, 0, 0};
  unsigned& b = r[1];
  unsigned& c = r[2];
  if (id.max_leaf < 7) return f;
  __cpuid_count(1, 0, r[0], r[1], r[2], r[3]);
  const bool osxsave = (c >> 27) & 1u;
  const bool avx = (c >> 28) & 1u;
  const bool fma = (c >> 12) & 1u;
  const bool f16c = (c >> 29) & 1u;
  if (!osxsave || !avx) return f;
  const unsigned long long xcr0 = read_xcr0();
  const bool ymm_state = (xcr0 & 0x6u) == 0x6u;     // SSE + AVX
  const bool zmm_state = (xcr0 & 0xE6u) == 0xE6u;   // + opmask, ZMM hi
  __cpuid_count(7, 0, r[0], r[1], r[2], r[3]);
  const bool bmi1 = (b >> 3) & 1u;
  const bool avx2 = (b >> 5) & 1u;
  const bool bmi2 = (b >> 8) & 1u;
  const bool avx512f = (b >> 16) & 1u;
  const bool avx512dq = (b >> 17) & 1u;
  const bool avx512cd = (b >> 28) & 1u;
  const bool avx512bw = (b >> 30) & 1u;
  const bool avx512vl = (b >> 31) & 1u;
  const bool avx512vbmi = (c >> 1) & 1u;
  const bool avx512vnni = (c >> 11) & 1u;  // CPUID.(EAX=7,ECX=0):ECX[11]
  const bool avx512ifma = (b >> 21) & 1u;  // CPUID.(EAX=7,ECX=0):EBX[21]
  // Exactly region.hpp's feature lists (MF_SIMD_AVX2_FEATURES,
  // MF_SIMD_AVX512_FEATURES, + VBMI, + BF16, + VNNI, + IFMA, and AVX2 +
  // AVX-VNNI):
  // the compiler may use any listed instruction anywhere in a kernel.
  f.avx2 = ymm_state && avx2 && fma && f16c && bmi1 && bmi2;
  f.avx512 = f.avx2 && zmm_state && avx512f && avx512dq && avx512cd &&
             avx512bw && avx512vl;
  f.avx512vbmi = f.avx512 && avx512vbmi;
  f.avx512vnni = f.avx512 && avx512vnni;
  f.avx512ifma = f.avx512 && avx512ifma;
  const unsigned max_subleaf = r[0];
  if (max_subleaf >= 1) {
    __cpuid_count(7, 1, r[0], r[1], r[2], r[3]);
    f.avx512bf16 = f.avx512 && ((r[0] >> 5) & 1u);  // CPUID.(EAX=7,ECX=1):EAX[5]
    f.avxvnni = f.avx2 && ((r[0] >> 4) & 1u);       // CPUID.(EAX=7,ECX=1):EAX[4]
  }
#if defined(MINIFLOAT_SIMD_EMULATED)
  // Tests only: the AVX-512 kernels run on the emulated intrinsics wherever
  // AVX2 runs natively (the emulation is compiled for AVX2).
  f.avx512 = f.avx2;
  f.avx512vbmi = f.avx2;
  f.avx512bf16 = false;
  f.avx512vnni = false;
  f.avx512ifma = false;
  f.avxvnni = false;
#endif
  return f;
}
#else
inline cpu_features detect_cpu() noexcept { return cpu_features{}; }
#endif

// The data caches of one core, in bytes (0: not reported). Kernels size
// their blocks from these (hybrid/kernels/driver.hpp), so one binary is
// tuned for the CPU it runs on, not the one it was built on.
struct cache_sizes {
  std::size_t l1d = 0;
  std::size_t l2 = 0;
};

#if MF_HAS_X86_KERNELS
// The deterministic cache parameters: CPUID leaf 4 (Intel SDM vol. 2A,
// CPUID, "Deterministic Cache Parameters Leaf"), and on AMD the leaf
// 0x8000001D of the same layout (AMD64 APM vol. 3, CPUID Fn8000_001D).
// Each subleaf is one cache: EAX[4:0] type (1 data, 3 unified, 0 no more),
// EAX[7:5] level; size = ways x partitions x line size x sets, each field
// stored minus one (EBX[31:22], EBX[21:12], EBX[11:0], ECX).
inline cache_sizes detect_caches() noexcept {
  cache_sizes sizes;
  unsigned r[4] = {0, 0, 0, 0};
  const basic_identity id = read_basic_identity();
  const bool amd = id.vendor == cpu_vendor::amd;
  const unsigned leaf = amd ? 0x8000001Du : 4u;
  // clang's cpuid.h returns an int here, GCC's an unsigned int.
  const unsigned max_leaf =
      amd ? static_cast<unsigned>(__get_cpuid_max(0x80000000u, nullptr)) : id.max_leaf;
  if (max_leaf < leaf) return sizes;
  for (unsigned sub = 0; sub < 16; ++sub) {
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
    const unsigned type = r[0] & 0x1Fu, level = (r[0] >> 5) & 0x7u;
    if (type == 0) break;
    if (type != 1 && type != 3) continue;  // instruction caches
    const std::size_t size = std::size_t{((r[1] >> 22) & 0x3FFu) + 1} *
                             (((r[1] >> 12) & 0x3FFu) + 1) * ((r[1] & 0xFFFu) + 1) * (r[2] + 1u);
    if (level == 1) sizes.l1d = size;
    if (level == 2) sizes.l2 = size;
  }
  return sizes;
}
#else
inline cache_sizes detect_caches() noexcept { return cache_sizes{}; }
#endif

MF_FORCE_INLINE const cache_sizes& caches() noexcept {
  static const cache_sizes sizes = detect_caches();
  return sizes;
}

MF_FORCE_INLINE const cpu_features& cpu() noexcept {
  static const cpu_features features = detect_cpu();
  return features;
}

}  // namespace detail
}  // namespace target
}  // namespace mf
