// Runtime choice of the kernel set for the bulk conversions: CPU detection,
// the MINIFLOAT_ISA environment override (read once, at first use) and the
// set_isa / active_isa API. Header-only: the state is a function-local static.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "../config.hpp"
#include "../simd/target_region.hpp"

// The x86 kernels use per-function target attributes (GCC and Clang), so no
// -march flag is needed; elsewhere (other compilers, other targets) only the
// scalar kernels are compiled, and the NEON ones on AArch64 (below).
// (The condition is simd/target_region.hpp's MF_SIMD_X86, stated once.)
#if MF_SIMD_X86
#define MF_BULK_X86 1
#include <cpuid.h>
#else
#define MF_BULK_X86 0
#endif

// MINIFLOAT_BULK_NO_AVX512 (defined before the first include, in every
// translation unit of a program): build without the AVX-512 kernels of every
// module (bulk, MX, the MatMul tiles); an AVX-512 CPU then runs the AVX2 ones
// and `MINIFLOAT_ISA=avx512` falls back. For programs that do not want them
// (code size, clock throttling on some CPUs), and for compile time: the
// AVX-512 kernels are about half of what a translation unit that calls the
// bulk entries of a format compiles (docs/performance.md, "Build options").
#if MF_BULK_X86 && !defined(MINIFLOAT_BULK_NO_AVX512)
#define MF_BULK_AVX512 1
#else
#define MF_BULK_AVX512 0
#endif

// NEON is baseline on AArch64: its kernels compile whenever the target is
// AArch64 (no attribute, no run-time check).
#if defined(__aarch64__) && !defined(MINIFLOAT_BULK_NO_SIMD)
#define MF_BULK_NEON 1
#else
#define MF_BULK_NEON 0
#endif

namespace mf {
namespace bulk {

// A kernel set. scalar runs everywhere; the others need the CPU support
// listed at isa_supported.
enum class isa : unsigned char {
  scalar,
  avx2,    // AVX2 + FMA + F16C + BMI1/BMI2, with the OS saving YMM state
  avx512,  // AVX-512 F/BW/VL/DQ (+CD), with the OS saving ZMM/opmask state
  neon,    // AArch64 Advanced SIMD (baseline there; never on x86)
};

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

namespace detail {

struct cpu_features {
  bool avx2 = false;
  bool avx512 = false;
  bool avx512vbmi = false;
  bool avx512bf16 = false;  // VDPBF16PS (the hybrid avx512_bf16_pairs kernel)
};

#if MF_BULK_X86
// xgetbv without the xsave target attribute: XCR0 tells which register
// states the OS saves on context switches.
inline unsigned long long read_xcr0() noexcept {
  unsigned eax = 0, edx = 0;
  __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
  return (static_cast<unsigned long long>(edx) << 32) | eax;
}

inline cpu_features detect_cpu() noexcept {
  cpu_features f;
  // cpuid writes all four registers; the leaves read here need only some,
  // and an array keeps nvcc from warning about the others.
  unsigned r[4] = {0, 0, 0, 0};
  unsigned& b = r[1];
  unsigned& c = r[2];
  if (__get_cpuid_max(0, nullptr) < 7) return f;
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
  // Exactly simd/target_region.hpp's feature lists (MF_SIMD_AVX2_FEATURES,
  // MF_SIMD_AVX512_FEATURES, + VBMI, + BF16): the compiler may use any
  // listed instruction anywhere in a kernel.
  f.avx2 = ymm_state && avx2 && fma && f16c && bmi1 && bmi2;
  f.avx512 = f.avx2 && zmm_state && avx512f && avx512dq && avx512cd &&
             avx512bw && avx512vl;
  f.avx512vbmi = f.avx512 && avx512vbmi;
  const unsigned max_subleaf = r[0];
  if (max_subleaf >= 1) {
    __cpuid_count(7, 1, r[0], r[1], r[2], r[3]);
    f.avx512bf16 = f.avx512 && ((r[0] >> 5) & 1u);  // CPUID.(EAX=7,ECX=1):EAX[5]
  }
#if defined(MINIFLOAT_SIMD_EMULATED)
  // Tests only: the AVX-512 kernels run on the emulated intrinsics wherever
  // AVX2 runs natively (the emulation is compiled for AVX2).
  f.avx512 = f.avx2;
  f.avx512vbmi = f.avx2;
  f.avx512bf16 = false;
#endif
  return f;
}
#else
inline cpu_features detect_cpu() noexcept { return cpu_features{}; }
#endif

MF_FORCE_INLINE const cpu_features& cpu() noexcept {
  static const cpu_features features = detect_cpu();
  return features;
}

}  // namespace detail

// Whether this build has kernels for `i` and this CPU (and OS) can run them.
inline bool isa_supported(isa i) noexcept {
  switch (i) {
    case isa::scalar: return true;
    case isa::avx2: return detail::cpu().avx2;
    case isa::avx512: return MF_BULK_AVX512 != 0 && detail::cpu().avx512;
    case isa::neon: return MF_BULK_NEON != 0;  // baseline on AArch64
  }
  return false;
}

// The best kernel set this CPU supports.
inline isa best_isa() noexcept {
  if (isa_supported(isa::neon)) return isa::neon;
  if (isa_supported(isa::avx512)) return isa::avx512;
  if (isa_supported(isa::avx2)) return isa::avx2;
  return isa::scalar;
}

// What the last request (set_isa, or MINIFLOAT_ISA at first use) asked for
// and what it got. fell_back is true when the request named an ISA this CPU
// or build lacks (or MINIFLOAT_ISA held an unknown name) and the best
// available one was chosen instead.
struct isa_selection {
  isa requested;
  isa active;
  bool fell_back;
};

namespace detail {

struct dispatch_state {
  std::atomic<unsigned char> active;
  std::atomic<unsigned char> requested;
  std::atomic<bool> fell_back;
};

inline void store_selection(dispatch_state& s, isa requested, bool valid) {
  const bool ok = valid && isa_supported(requested);
  const isa chosen = ok ? requested : best_isa();
  s.requested.store(static_cast<unsigned char>(valid ? requested : chosen),
                    std::memory_order_relaxed);
  s.fell_back.store(!ok, std::memory_order_relaxed);
  s.active.store(static_cast<unsigned char>(chosen), std::memory_order_release);
}

// Applies MINIFLOAT_ISA (best available when unset; an unknown value is
// reported on stderr and gives the best available). Called once at first
// use; tests call it again after changing the environment.
inline void select_from_environment(dispatch_state& s) {
  const char* text = std::getenv("MINIFLOAT_ISA");
  if (text == nullptr || *text == '\0') {
    store_selection(s, best_isa(), true);
    return;
  }
  isa requested = isa::scalar;
  const bool valid = parse_isa(text, requested);
  store_selection(s, requested, valid);
  if (!valid) {
    // A misspelt override would otherwise go unnoticed: the program runs,
    // on other kernels than the user asked for. Said once per selection.
    std::fprintf(stderr,
                 "minifloat: MINIFLOAT_ISA=%s is not a kernel set (scalar, avx2, avx512, "
                 "neon); using %s\n",
                 text, isa_name(static_cast<isa>(s.active.load(std::memory_order_relaxed))));
  }
}

MF_FORCE_INLINE dispatch_state& state() {
  static dispatch_state s{};
  static const bool initialised = (select_from_environment(s), true);
  (void)initialised;
  return s;
}

}  // namespace detail

// The kernel set the bulk functions use now. Forced inline, like the
// lookups below: every call of a kernel makes them, and g++ -O2 left them as
// calls (with the table decode's setup, a 4 KiB AVX-512 decode ran at
// 0.73-0.91x of its -O3 speed on a Zen 4).
MF_FORCE_INLINE isa active_isa() noexcept {
  return static_cast<isa>(detail::state().active.load(std::memory_order_acquire));
}

inline isa_selection current_selection() noexcept {
  detail::dispatch_state& s = detail::state();
  return isa_selection{static_cast<isa>(s.requested.load(std::memory_order_relaxed)),
                       static_cast<isa>(s.active.load(std::memory_order_acquire)),
                       s.fell_back.load(std::memory_order_relaxed)};
}

// Asks for a kernel set (for tests and benchmarks). Returns the one now in
// use: `requested` when supported, else the best available (and
// current_selection().fell_back becomes true). Thread-safe, but calls racing
// with conversions on other threads change their kernels mid-way (each call
// still gives the same bits: every kernel set is exact).
inline isa set_isa(isa requested) noexcept {
  detail::store_selection(detail::state(), requested, true);
  return active_isa();
}

// Re-reads MINIFLOAT_ISA (as at first use) and returns the kernel set chosen.
inline isa reset_isa_from_environment() noexcept {
  detail::select_from_environment(detail::state());
  return active_isa();
}

// The dispatch table. Every module's kernels are chosen here and nowhere
// else: a kernel family (bulk/kernel_sets.hpp, mx/kernel_sets.hpp,
// hybrid/kernels/fast_path.hpp) describes one row of function pointers per
// ISA, and active_kernels<Family>() returns the row of the active ISA. The
// rows are filled once, at first use (after CPUID), so a call costs one
// atomic load, one index and one indirect call, nothing per element; set_isa
// and MINIFLOAT_ISA switch every family at once because all of them index
// by the same active_isa().
namespace detail {

inline constexpr std::size_t isa_count = 4;  // the enumerators of isa

// The kernels compiled for `i` in this build, or scalar: a row for an ISA
// the build lacks is never used (isa_supported is false for it), and
// filling it with the scalar kernels keeps every family free of #if.
constexpr isa compiled_or_scalar(isa i) noexcept {
  switch (i) {
    case isa::avx2: return MF_BULK_X86 ? i : isa::scalar;
    case isa::avx512: return MF_BULK_AVX512 ? i : isa::scalar;
    case isa::neon: return MF_BULK_NEON ? i : isa::scalar;
    default: return isa::scalar;
  }
}

template <isa I>
struct isa_tag {
  static constexpr isa value = I;
};

// What a family's row holds: one function pointer, or a struct of them.
template <class Family>
using row_type_of = decltype(Family::row(isa_tag<isa::scalar>{}));

// The row of `i`: Family::row(isa_tag<I>{}) for each ISA, in the
// enumeration's order, filled at the first call. Instantiating it compiles
// every kernel the family names, for every ISA.
template <class Family>
MF_FORCE_INLINE const row_type_of<Family>& table_of(isa i) noexcept {
  using row_type = row_type_of<Family>;
  static const row_type rows[isa_count] = {
      Family::row(isa_tag<compiled_or_scalar(isa::scalar)>{}),
      Family::row(isa_tag<compiled_or_scalar(isa::avx2)>{}),
      Family::row(isa_tag<compiled_or_scalar(isa::avx512)>{}),
      Family::row(isa_tag<compiled_or_scalar(isa::neon)>{})};
  static_assert(static_cast<int>(isa::neon) == 3, "rows follow the enumeration");
  return rows[static_cast<unsigned char>(i)];
}

// Kernels compiled once per program. A program that links the CMake target
// minifloat::kernels (src/kernels/) gets MINIFLOAT_KERNELS_COMPILED: the
// tables of the families that library compiles are only declared in its
// translation units, so none of them compiles a kernel of those families
// (the way {fmt}'s compiled mode keeps its formatting code out of the
// user's files). Without it, every table is instantiated where it is used,
// as a header-only library does. The library's own sources define
// MINIFLOAT_KERNELS_BUILDING.
#if defined(MINIFLOAT_KERNELS_COMPILED) && !defined(MINIFLOAT_KERNELS_BUILDING)
#define MF_KERNELS_FROM_LIBRARY 1
#else
#define MF_KERNELS_FROM_LIBRARY 0
#endif

// True for the families minifloat::kernels compiles: each family says so
// beside its definition (bulk/kernel_sets.hpp, mx/kernel_sets.hpp,
// hybrid/kernels/targets.hpp), and src/kernels/ instantiates exactly those.
// A family outside the list (a format the user defined) is compiled where
// it is used, in both modes.
template <class Family>
struct compiled_in_library {
  static constexpr bool value = false;
};

// table_of<Family>, instantiated once in minifloat::kernels.
template <class Family>
const row_type_of<Family>& library_table_of(isa i) noexcept;

// The row of `i` for the kernels of Family: from minifloat::kernels where
// the program links it and the library compiles the family, else the table
// above, compiled here.
template <class Family>
MF_FORCE_INLINE const row_type_of<Family>& kernels_of(isa i) noexcept {
  if constexpr (MF_KERNELS_FROM_LIBRARY && compiled_in_library<Family>::value) {
    return library_table_of<Family>(i);
  } else {
    return table_of<Family>(i);
  }
}

template <class Family>
MF_FORCE_INLINE const auto& active_kernels() noexcept {
  return kernels_of<Family>(active_isa());
}

// The optional instructions the active kernel set may use: only AVX-512
// kernels use VBMI (byte permutes across the register) and AVX512_BF16
// (VDPBF16PS), and only where CPUID reports them.
struct optional_features {
  bool avx512vbmi;
  bool avx512bf16;
};

struct optional_features_family {
  template <isa I>
  static optional_features row(isa_tag<I>) noexcept {
    if (I != isa::avx512) return {false, false};
    return {cpu().avx512vbmi, cpu().avx512bf16};
  }
};

inline const optional_features& optional_features_of(isa i) noexcept {
  return kernels_of<optional_features_family>(i);
}

MF_FORCE_INLINE const optional_features& active_optional_features() noexcept {
  return active_kernels<optional_features_family>();
}

}  // namespace detail

}  // namespace bulk
}  // namespace mf
