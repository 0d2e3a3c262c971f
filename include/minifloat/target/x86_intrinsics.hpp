// <immintrin.h> for the x86 kernels. GCC 12's AVX-512 intrinsics seed their
// pass-through operand with _mm512_undefined_epi32(), which -Wall reports as
// "may be used uninitialized" once inlined (GCC bug 105593, fixed in GCC 13);
// the warning is silenced for that header only.
#pragma once

// Tests only (tests/bulk/simde_avx512/): the includer has already included
// a portable emulation of the intrinsics under their own names.
#if !defined(MINIFLOAT_SIMD_EMULATED)

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#endif
#include <immintrin.h>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif  // MINIFLOAT_SIMD_EMULATED
