// Exchange with CUDA's own types: the library's formats and the types of
// the CUDA toolkit's cuda_fp16.h, cuda_bf16.h, cuda_fp8.h, cuda_fp6.h and
// cuda_fp4.h that have the same encoding.
//
//   __nv_fp8_e4m3 h = mf::to_cuda(mf::e4m3fn(1.5f));   // the same bits
//   mf::e4m3fn v = mf::from_cuda(h);
//
// Each pair encodes every value alike (the FP6 and FP4 types hold their
// code in the low bits of a byte, as the library's do), so the exchange
// copies bits: it never rounds, and NaN payloads and the sign of zero come
// through. Host and device code alike. Rounding from float is where the two
// differ (CUDA's constructors saturate, the library's follow IEEE 754
// overflow; docs/semantics.md, "Comparison with other libraries").
//
// An array of a CUDA type is passed to the bulk functions as its bytes
// (reinterpret_cast<const std::uint8_t*>(p)): the types are one byte each.
//
// Not included by minifloat.hpp: this header includes CUDA's. The FP6 and
// FP4 types need CUDA 12.8 or later and are left out where their headers
// are missing.
#pragma once

#include <cstdint>

#include "config.hpp"
#include "formats.hpp"

// CUDA 13's cuda_fp4.hpp and cuda_fp6.hpp have parameters their host code
// does not read, which -Wextra reports; nvcc does not make CUDA's include
// folder a system one for the host compiler, so the warning would be a
// .cu file's own.
#if defined(__GNUC__) || defined(__clang__)
MF_HOST_PRAGMA(GCC diagnostic push)
MF_HOST_PRAGMA(GCC diagnostic ignored "-Wunused-parameter")
#endif
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#if __has_include(<cuda_fp6.h>) && __has_include(<cuda_fp4.h>)
#include <cuda_fp4.h>
#include <cuda_fp6.h>
#define MF_HAS_CUDA_FP6_FP4 1
#else
#define MF_HAS_CUDA_FP6_FP4 0
#endif
#if defined(__GNUC__) || defined(__clang__)
MF_HOST_PRAGMA(GCC diagnostic pop)
#endif

namespace mf {

// The 8-bit types: a public byte __x in CUDA's.
#define MF_CUDA_BYTE_TYPE(library_type, cuda_type)                               \
  MF_HOST_DEVICE inline library_type from_cuda(cuda_type x) noexcept {           \
    return library_type::from_bits(static_cast<std::uint8_t>(x.__x));            \
  }                                                                               \
  MF_HOST_DEVICE inline cuda_type to_cuda(library_type x) noexcept {             \
    cuda_type r;                                                                  \
    r.__x = static_cast<decltype(r.__x)>(x.bits());                              \
    return r;                                                                     \
  }                                                                               \
  static_assert(sizeof(cuda_type) == sizeof(library_type), "one byte each")

MF_CUDA_BYTE_TYPE(e4m3fn, __nv_fp8_e4m3);
MF_CUDA_BYTE_TYPE(e5m2, __nv_fp8_e5m2);
MF_CUDA_BYTE_TYPE(e8m0fnu, __nv_fp8_e8m0);
#if MF_HAS_CUDA_FP6_FP4
MF_CUDA_BYTE_TYPE(e2m3fn, __nv_fp6_e2m3);
MF_CUDA_BYTE_TYPE(e3m2fn, __nv_fp6_e3m2);
MF_CUDA_BYTE_TYPE(e2m1fn, __nv_fp4_e2m1);
#endif
#undef MF_CUDA_BYTE_TYPE

// The 16-bit types: bits through their raw structs (__half_raw,
// __nv_bfloat16_raw), which both convert to and from.
#define MF_CUDA_RAW_TYPE(library_type, cuda_type, raw_type)                      \
  MF_HOST_DEVICE inline library_type from_cuda(cuda_type x) noexcept {           \
    const raw_type raw = x;                                                       \
    return library_type::from_bits(raw.x);                                        \
  }                                                                               \
  MF_HOST_DEVICE inline cuda_type to_cuda(library_type x) noexcept {             \
    raw_type raw;                                                                 \
    raw.x = x.bits();                                                             \
    return cuda_type(raw);                                                        \
  }                                                                               \
  static_assert(sizeof(cuda_type) == sizeof(library_type), "two bytes each")

MF_CUDA_RAW_TYPE(binary16, __half, __half_raw);
MF_CUDA_RAW_TYPE(bfloat16, __nv_bfloat16, __nv_bfloat16_raw);
#undef MF_CUDA_RAW_TYPE

}  // namespace mf
