// Stand-in for <arm_neon.h> off AArch64, for neon_simde_exhaustive_test.cpp
// only: SIMDe's portable implementation of the NEON intrinsics, under their
// NEON names.
#pragma once
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/arm/neon.h>
