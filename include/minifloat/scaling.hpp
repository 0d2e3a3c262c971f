// Umbrella header of the scaling toolkit: amax, compute_scale, per-tensor /
// per-channel / per-block quantize and dequantize, delayed scaling. Built on
// the bulk kernels (bulk.hpp); not included by minifloat.hpp.
#pragma once

#include "bulk.hpp"
#include "scaling/amax.hpp"
#include "scaling/compute_scale.hpp"
#include "scaling/delayed_scaling.hpp"
#include "scaling/quantize.hpp"
