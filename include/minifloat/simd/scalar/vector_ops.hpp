// The float "vector" of one lane: lets a generic kernel written over vector
// operations run on any CPU (and be tested on every machine) as the scalar
// fallback. fma is std::fma: one rounding, as the vector FMAs.
#pragma once

#include <cmath>

#include "../../config.hpp"

namespace mf::simd::scalar {

struct float_ops {
  using vec = float;
  static constexpr int lanes = 1;
  static MF_FORCE_INLINE vec zero() noexcept { return 0.0f; }
  static MF_FORCE_INLINE vec load(const float* p) noexcept { return *p; }
  static MF_FORCE_INLINE vec loadu(const float* p) noexcept { return *p; }
  static MF_FORCE_INLINE vec broadcast(float x) noexcept { return x; }
  // a * b + c, rounded once.
  static MF_FORCE_INLINE vec fma(vec a, vec b, vec c) noexcept { return std::fma(a, b, c); }
  static MF_FORCE_INLINE void store(float* p, vec v) noexcept { *p = v; }
  static MF_FORCE_INLINE void storeu(float* p, vec v) noexcept { *p = v; }
};

}  // namespace mf::simd::scalar
