// Compiler glue shared by every header: the host/device annotation, the
// version, and a constexpr bit_cast for C++17.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#if __cplusplus >= 202002L && __has_include(<bit>)
#include <bit>
#endif

// The one place the version is written: CMakeLists.txt reads these three
// lines for the package version, and the string is made from them.
#define MINIFLOAT_VERSION_MAJOR 0
#define MINIFLOAT_VERSION_MINOR 1
#define MINIFLOAT_VERSION_PATCH 0
#define MINIFLOAT_STRINGIFY_DETAIL(x) #x
#define MINIFLOAT_STRINGIFY(x) MINIFLOAT_STRINGIFY_DETAIL(x)
#define MINIFLOAT_VERSION_STRING                                          \
  MINIFLOAT_STRINGIFY(MINIFLOAT_VERSION_MAJOR) "." MINIFLOAT_STRINGIFY( \
      MINIFLOAT_VERSION_MINOR) "." MINIFLOAT_STRINGIFY(MINIFLOAT_VERSION_PATCH)

// Every function of the value type is usable from CUDA device code; outside
// nvcc the annotation disappears.
#if defined(__CUDACC__)
#define MF_HOST_DEVICE __host__ __device__
#else
#define MF_HOST_DEVICE
#endif

// For the few small functions on the hot path whose inlining decides the
// speed (clang will not inline the float conversion into a loop otherwise).
#if defined(MINIFLOAT_SIMD_EMULATED)
// Tests only (tests/bulk/simde_avx512): inlining every emulated intrinsic
// into every kernel multiplies the compile time; the bits do not depend on it.
#define MF_FORCE_INLINE inline
#elif defined(__CUDACC__)
#define MF_FORCE_INLINE __forceinline__
#elif defined(__GNUC__) || defined(__clang__)
#define MF_FORCE_INLINE inline __attribute__((always_inline))
#elif defined(_MSC_VER)
#define MF_FORCE_INLINE __forceinline
#else
#define MF_FORCE_INLINE inline
#endif

// For a kernel helper that many instantiations call rarely (once per step):
// one out-of-line copy instead of one per caller.
#if defined(__GNUC__) || defined(__clang__)
#define MF_NOINLINE __attribute__((noinline))
#elif defined(_MSC_VER)
#define MF_NOINLINE __declspec(noinline)
#else
#define MF_NOINLINE
#endif

// A pragma for the host compiler (GCC, Clang) in a header: nvcc passes GCC's
// pragmas on to its host compiler, where they act (fp-contract=off keeps
// its meaning in a .cu file), but its own front end warns that it does not
// know them (#1675, an error under --Werror all-warnings); under nvcc that
// warning is silenced around the pragma alone.
#if defined(__NVCC__)
#define MF_HOST_PRAGMA(text)                                                  \
  _Pragma("nv_diagnostic push") _Pragma("nv_diag_suppress 1675") _Pragma(#text) \
      _Pragma("nv_diagnostic pop")
#else
#define MF_HOST_PRAGMA(text) _Pragma(#text)
#endif

// Before a loop of a fixed, small trip count over vectors (Philox chains and
// rounds, the four vectors of a kernel step): unrolled at -O2 as at -O3.
// g++ -O2 keeps such loops rolled, and their arrays of vectors then live on
// the stack (measured on an Intel Xeon: the AVX-512 stochastic encode at
// 0.61-0.70x of its -O3 speed). Clang reads the GCC spelling too.
#if defined(__GNUC__) || defined(__clang__)
#define MF_UNROLL MF_HOST_PRAGMA(GCC unroll 16)
#else
#define MF_UNROLL
#endif

#if defined(__has_builtin)
#define MF_HAS_BUILTIN(x) __has_builtin(x)
#else
#define MF_HAS_BUILTIN(x) 0
#endif

// The conversions read the bits of float and double. std::bit_cast is C++20;
// GCC >= 11, Clang >= 9 and nvcc expose the same operation as a builtin in
// C++17, which keeps the whole conversion path constexpr.
// MINIFLOAT_MEMCPY_BIT_CAST forces the memcpy fallback below, which the
// tests build with to check that the library compiles and computes the same
// where no constexpr bit cast exists (GCC <= 10, MSVC before C++20).
#if defined(MINIFLOAT_MEMCPY_BIT_CAST)
#define MF_CONSTEXPR_BIT_CAST 0
#define MF_BIT_CAST_CONSTEXPR
#elif (defined(__cpp_lib_bit_cast) && !defined(__CUDACC__)) || \
    MF_HAS_BUILTIN(__builtin_bit_cast) || (defined(__GNUC__) && __GNUC__ >= 11)
#define MF_CONSTEXPR_BIT_CAST 1
#define MF_BIT_CAST_CONSTEXPR constexpr
#else
#define MF_CONSTEXPR_BIT_CAST 0
#define MF_BIT_CAST_CONSTEXPR
#endif

namespace mf {
namespace detail {

template <class To, class From>
MF_HOST_DEVICE MF_BIT_CAST_CONSTEXPR To bit_cast(const From& from) noexcept {
  static_assert(sizeof(To) == sizeof(From), "bit_cast needs equal sizes");
#if MF_CONSTEXPR_BIT_CAST && defined(__cpp_lib_bit_cast) && !defined(__CUDACC__)
  return std::bit_cast<To>(from);
#elif MF_CONSTEXPR_BIT_CAST
  // Also nvcc's path in C++20: std::bit_cast is a host-only function there,
  // which __host__ __device__ code may not call; the builtin works on both.
  return __builtin_bit_cast(To, from);
#else
  To to;
  std::memcpy(&to, &from, sizeof(To));
  return to;
#endif
}

// Count of leading zero bits of a non-zero 64-bit value, constexpr. nvcc's
// device pass knows the builtin too (as clz.b64), and unlike the __clzll
// intrinsic it is constexpr there, so that constants such as
// mf::e4m3fn(2) stay constant expressions in .cu files.
MF_HOST_DEVICE constexpr int count_leading_zeros(std::uint64_t x) noexcept {
#if defined(__GNUC__) || defined(__clang__) || defined(__CUDACC__)
  return __builtin_clzll(x);
#else
  int n = 0;
  while (!(x & (std::uint64_t{1} << 63))) {
    x <<= 1;
    ++n;
  }
  return n;
#endif
}

}  // namespace detail
}  // namespace mf
