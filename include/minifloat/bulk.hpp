// Umbrella header of the bulk (SIMD, runtime-dispatched) conversions, one
// vocabulary (inputs, outputs, n, options; encode.hpp):
//   mf::bulk::encode<mf::e4m3fn>(floats, bytes, n);
//   mf::bulk::encode<mf::e4m3fn>(floats, bytes, n, mf::conversion::stochastic({seed}));
//   mf::bulk::encode<mf::e4m3fn>(floats, bytes, n, {}, {scale, &amax});
//   mf::bulk::decode<mf::e4m3fn>(bytes, floats, n);
//   mf::bulk::convert<mf::e5m2, mf::e4m3fn>(bytes, bytes2, n);
// Not included by minifloat.hpp.
#pragma once

#include "minifloat.hpp"
#include "target.hpp"
#include "bulk/scalar.hpp"
#include "bulk/avx2.hpp"
#include "bulk/avx512.hpp"
#include "bulk/api.hpp"
#include "bulk/sources.hpp"
#include "bulk/amax.hpp"
#include "bulk/encode.hpp"
#include "bulk/span_overloads.hpp"
