// How a vector set's add_float_nearest rounds (the encode fast path's float
// add): what the generic loop (bulk/generic/encode_loop.hpp) needs to know
// before it lets the fast path use it.
#pragma once

namespace mf::simd {

enum class float_add_rounding {
  nearest_always,  // embedded rounding: ties to even whatever the environment holds
  environment,     // as the floating-point environment says: checked per call
  not_used,        // the set offers no float add to the fast path
};

}  // namespace mf::simd
