// Delayed scaling (TransformerEngine's DelayedScaling recipe): the scale used
// at step t comes from the absolute maxima recorded at earlier steps, so the
// quantizing kernel needs no extra pass over the tensor; the amax it returns
// (mf::bulk::encode's fused amax) is recorded for the next step.
//
//   mf::scaling::delayed_scaling<mf::e4m3fn> s(16, mf::scaling::amax_reduction::max);
//   for (each step) {
//     float amax;
//     mf::bulk::encode<mf::e4m3fn>(x, q, n, {}, {s.scale(), &amax});
//     ... use q with s.scale_inv() ...
//     s.record(amax);
//   }
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

#include "../target/float_environment.hpp"
#include "compute_scale.hpp"

namespace mf {
namespace scaling {

// How the window of recorded maxima becomes one amax.
enum class amax_reduction : unsigned char {
  max,          // the largest in the window (TransformerEngine's "max")
  most_recent,  // the last one recorded ("most_recent")
};

template <class Fmt>
class delayed_scaling {
 public:
  // history_length >= 1 steps are kept (TransformerEngine's
  // amax_history_len); the scale starts at 1.
  explicit delayed_scaling(std::size_t history_length = 1024,
                           amax_reduction reduction = amax_reduction::max,
                           scale_options options = {})
      : history_(history_length > 0 ? history_length : 1, 0.0f),
        reduction_(reduction),
        options_(options) {}

  // The scale to quantize with now, and its reciprocal (stored with the data).
  float scale() const noexcept { return scale_; }
  float scale_inv() const noexcept {
    return target::in_default_float_environment([&]() -> float {
      return 1.0f / scale_;
    });
  }

  // Records this step's amax and computes the next step's scale from the
  // window. A window amax of 0, Inf or NaN keeps the current scale (as
  // TransformerEngine: a NaN stays in the window, and freezes the scale,
  // until it ages out).
  void record(float amax) {
    target::in_default_float_environment([&] {
      history_[next_] = amax;
      last_ = next_;
      next_ = (next_ + 1) % history_.size();
      scale_options o = options_;
      o.fallback = scale_;
      scale_ = compute_scale<Fmt>(reduced_amax(), o);
    });
  }

  // The window's amax under the reduction (NaN if a NaN is in the window
  // and the reduction is max). Slots not yet recorded hold 0.
  float reduced_amax() const noexcept {
    return target::in_default_float_environment([&]() -> float {
      if (reduction_ == amax_reduction::most_recent) return history_[last_];
      float m = 0.0f;
      for (float a : history_) {
        if (std::isnan(a)) return a;
        const float magnitude = std::fabs(a);
        m = magnitude > m ? magnitude : m;
      }
      return m;
    });
  }

  std::size_t history_length() const noexcept { return history_.size(); }

 private:
  std::vector<float> history_;
  amax_reduction reduction_;
  scale_options options_;
  std::size_t next_ = 0;
  std::size_t last_ = 0;
  float scale_ = 1.0f;
};

}  // namespace scaling
}  // namespace mf
