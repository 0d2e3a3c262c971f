// The run-time choice of kernels for every module: which ISAs this CPU
// runs, the MINIFLOAT_ISA environment override (read once, at first use),
// set_isa / active_isa, and the dispatch table. Header-only: the state is a
// function-local static.
#pragma once

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "../config.hpp"
#include "cpu.hpp"
#include "isa.hpp"

namespace mf {
namespace target {

// Whether this build has kernels for `i` and this CPU (and OS) can run them.
inline bool isa_supported(isa i) noexcept {
  switch (i) {
    case isa::scalar: return true;
    case isa::avx2: return MF_HAS_X86_KERNELS != 0 && detail::cpu().avx2;
    case isa::avx512: return MF_HAS_AVX512_KERNELS != 0 && detail::cpu().avx512;
    case isa::neon: return MF_HAS_NEON_KERNELS != 0;  // baseline on AArch64
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

// The kernel set every module uses now. Forced inline, like the lookups
// below: every call of a kernel makes them, and g++ -O2 left them as calls
// (with the table decode's setup, a 4 KiB AVX-512 decode ran at 0.73-0.91x
// of its -O3 speed on a Zen 4).
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
// hybrid/kernels/targets.hpp) describes one row of function pointers per
// ISA, and active_kernels<Family>() returns the row of the active ISA. The
// rows are filled once, at first use (after CPUID), so a call costs one
// atomic load, one index and one indirect call, nothing per element; set_isa
// and MINIFLOAT_ISA switch every family at once because all of them index
// by the same active_isa().

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

// The optional instructions a kernel set may use, only where CPUID reports
// them: the AVX-512 kernels VBMI (byte permutes across the register),
// AVX512_BF16 (VDPBF16PS), AVX512_VNNI (VPDPBUSD) and AVX512_IFMA
// (VPMADD52LUQ/HUQ), the AVX2 kernels AVX-VNNI (VPDPBUSD on ymm).
struct optional_features {
  bool avx512vbmi;
  bool avx512bf16;
  bool avx512vnni;
  bool avxvnni;
  bool avx512ifma;
};

namespace detail {
struct optional_features_family {
  template <isa I>
  static optional_features row(isa_tag<I>) noexcept {
    if (I == isa::avx2) return {false, false, false, cpu().avxvnni, false};
    if (I != isa::avx512) return {false, false, false, false, false};
    return {cpu().avx512vbmi, cpu().avx512bf16, cpu().avx512vnni, false, cpu().avx512ifma};
  }
};
}  // namespace detail

inline const optional_features& optional_features_of(isa i) noexcept {
  return kernels_of<detail::optional_features_family>(i);
}

MF_FORCE_INLINE const optional_features& active_optional_features() noexcept {
  return active_kernels<detail::optional_features_family>();
}

}  // namespace target
}  // namespace mf
