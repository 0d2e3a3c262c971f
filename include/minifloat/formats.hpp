// The named formats. Each is one instantiation of the same template.
#pragma once

#include "value.hpp"

namespace mf {

// OCP FP8 (and the NVIDIA/Arm/Intel paper): no Inf, NaN is S.1111.111.
using e4m3fn = minifloat<4, 3, 7, specials::fn>;
// IEEE-style FP8: Inf and NaN at exponent all ones.
using e5m2 = minifloat<5, 2, 15, specials::ieee>;
// Graphcore/AMD FP8: bias one higher, no -0, NaN is 0x80.
using e4m3fnuz = minifloat<4, 3, 8, specials::fnuz>;
using e5m2fnuz = minifloat<5, 2, 16, specials::fnuz>;
// OCP MX element types: no Inf, no NaN.
using e2m1fn = minifloat<2, 1, 1, specials::finite>;
using e2m3fn = minifloat<2, 3, 1, specials::finite>;
using e3m2fn = minifloat<3, 2, 3, specials::finite>;
// OCP MX scale: a power of two 2^-127..2^127, NaN 0xFF.
using e8m0fnu = minifloat<8, 0, 127, specials::fnu>;
// Beyond the OCP set, as in ml_dtypes and LLVM APFloat.
using e4m3 = minifloat<4, 3, 7, specials::ieee>;
using e3m4 = minifloat<3, 4, 3, specials::ieee>;
using e4m3b11fnuz = minifloat<4, 3, 11, specials::fnuz>;
// 16-bit IEEE formats, which let the generic algorithm be checked against
// the CPU's own conversion instructions.
using binary16 = minifloat<5, 10, 15, specials::ieee>;
using half = binary16;
using bfloat16 = minifloat<8, 7, 127, specials::ieee>;

}  // namespace mf
