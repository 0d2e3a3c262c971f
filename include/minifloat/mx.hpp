// Umbrella header of the OCP Microscaling (MX) block formats, NVFP4 and
// packed FP4/FP6 storage (docs/mx.md):
//   mf::mx::quantize<mf::mx::mxfp4>(floats, scales, elements, n);
//   mf::mx::dequantize<mf::mx::mxfp4>(scales, elements, floats, n);
// Not included by minifloat.hpp.
#pragma once

#include "bulk.hpp"
#include "mx/element.hpp"
#include "mx/scale.hpp"
#include "mx/packing.hpp"
#include "mx/block.hpp"
#include "mx/quantize.hpp"
#include "mx/dot.hpp"
#include "mx/nvfp4.hpp"
