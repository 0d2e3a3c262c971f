// The floating-point environment the library's float arithmetic is written
// for: round to nearest even, subnormals neither flushed nor read as zero,
// no default-NaN mode, every exception masked (IEEE 754's default; x86's
// MXCSR 0x1F80, AArch64's FPCR 0). A caller may have set another: a
// rounding direction (std::fesetround), or flush-to-zero, which a shared
// library built with -ffast-math sets for the whole process when it is
// loaded. default_float_environment sets the default for its scope and then
// restores the caller's control settings, keeping the exception flags that
// the scope raised, as any computation would leave them; use it through
// in_default_float_environment (below).
//
// A thread started inside the scope has it where the platform passes the
// environment on (C++ [cfenv.thread]: glibc does); the MatMul's workers set
// it themselves.
//
// Compilers do not order float arithmetic after a write of MXCSR or FPCR
// (that would need FENV_ACCESS, which GCC does not implement): clang hoisted
// `1.0f / scale` above the guard's write. So the library runs a scope's
// work through in_default_float_environment(), which calls it out of line
// (below).
#pragma once

#include <atomic>
#include <cstdint>

#include "../config.hpp"

#if defined(__CUDA_ARCH__)
// Device code has no such environment to set.
#elif defined(__x86_64__) || defined(_M_X64) || (defined(__i386__) && defined(__SSE2_MATH__))
// x86-64, or 32-bit x86 with its float math in SSE (-mfpmath=sse): MXCSR
// governs every float operation of the library (it has no long double).
// x87 math elsewhere takes <cfenv> below.
#include <xmmintrin.h>
#define MF_FLOAT_ENVIRONMENT_MXCSR 1
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
#define MF_FLOAT_ENVIRONMENT_FPCR 1
#else
#include <cfenv>
#endif

namespace mf::target {

class default_float_environment {
 public:
#if defined(__CUDA_ARCH__)
  // User-provided, so that a scope's guard is not an unused variable.
  default_float_environment() noexcept {}
  ~default_float_environment() {}
#elif defined(MF_FLOAT_ENVIRONMENT_MXCSR)
  // MXCSR: bits 0-5 the exception flags, 6 DAZ, 7-12 the exception masks,
  // 13-14 the rounding control, 15 FTZ (Intel SDM vol. 1, 10.2.3).
  default_float_environment() noexcept : saved_(_mm_getcsr()) {
    if ((saved_ & control_bits) != default_control) _mm_setcsr(default_control | (saved_ & flag_bits));
  }
  ~default_float_environment() {
    if ((saved_ & control_bits) != default_control) _mm_setcsr((saved_ & control_bits) | (_mm_getcsr() & flag_bits));
  }

 private:
  static constexpr unsigned flag_bits = 0x003Fu, control_bits = 0xFFC0u, default_control = 0x1F80u;
  unsigned saved_;
#elif defined(MF_FLOAT_ENVIRONMENT_FPCR)
  // FPCR holds only controls (the flags live in FPSR): 0 is round to
  // nearest, no FZ, FZ16, DN or AHP, no trap enabled (Arm ARM, FPCR).
  default_float_environment() noexcept {
    __asm__ __volatile__("mrs %0, fpcr" : "=r"(saved_) : : "memory");
    if (saved_ != 0) __asm__ __volatile__("msr fpcr, %0" : : "r"(std::uint64_t{0}) : "memory");
  }
  ~default_float_environment() {
    if (saved_ != 0) __asm__ __volatile__("msr fpcr, %0" : : "r"(saved_) : "memory");
  }

 private:
  std::uint64_t saved_ = 0;
#else
  // Elsewhere the rounding direction, the one control standard C++ reaches
  // (where the platform defines FE_TONEAREST).
#if defined(FE_TONEAREST)
  default_float_environment() noexcept : saved_(std::fegetround()) {
    if (saved_ != FE_TONEAREST) std::fesetround(FE_TONEAREST);
  }
  ~default_float_environment() {
    if (saved_ != FE_TONEAREST) std::fesetround(saved_);
  }

 private:
  int saved_;
#else
  default_float_environment() noexcept {}
  ~default_float_environment() {}
#endif
#endif

 public:
  default_float_environment(const default_float_environment&) = delete;
  default_float_environment& operator=(const default_float_environment&) = delete;
};

namespace detail {

// Calls work() as a separate call with a side effect (a compiler-only
// fence): not inlined, so its float operations stay inside it, and not
// moved across the environment's writes around it, which are side effects
// too.
template <class Work>
MF_NOINLINE decltype(auto) call_apart(Work& work) {
  std::atomic_signal_fence(std::memory_order_seq_cst);
  return work();
}

}  // namespace detail

// work() in IEEE 754's default environment; the caller's afterwards.
template <class Work>
decltype(auto) in_default_float_environment(Work&& work) {
  const default_float_environment environment;
  return detail::call_apart(work);
}

}  // namespace mf::target
