// The four calibration methods behind one call: the scale (the library's
// convention, q = round(x * scale)) and what it costs on the observed data.
#pragma once

#include <cstddef>

#include "../scaling/compute_scale.hpp"
#include "../target/float_environment.hpp"
#include "cost.hpp"
#include "histogram.hpp"
#include "kl.hpp"
#include "mse.hpp"
#include "percentile.hpp"

namespace mf {
namespace calibration {

enum class method : unsigned char {
  max,         // amax maps to max finite (compute_scale)
  percentile,  // the p-th percentile of |x| maps to max finite
  mse,         // the least squared error of the quantized data
  kl,          // the least KL divergence (TensorRT's entropy method)
};

struct calibration_options {
  method how = method::max;
  double percentile = 99.99;  // for method::percentile, in [0, 100]
  // A power-of-two scale: exact scaling, and the scale_inv of an MX block is
  // an E8M0 value (every power of two compute_scale allows, 2^-126..2^127,
  // is one). max and percentile round their scale down (compute_scale);
  // mse and kl search the powers of two.
  bool power_of_two = false;
};

struct calibration_result {
  float scale = 1.0f;  // q = round(x * scale)
  quantization_cost cost;
};

namespace detail {

// `model` gives the mse search and every method's cost; the histogram the
// rest.
template <class Fmt>
calibration_result calibrate_on(const abs_histogram& h, const histogram_model& model,
                                const calibration_options& o) {
  return target::in_default_float_environment([&]() -> calibration_result {
    const scaling::scale_options round_down{0.0f, o.power_of_two, 1.0f};
    calibration_result r;
    switch (o.how) {
      case method::max:
        r.scale = scaling::compute_scale<Fmt>(h.amax(), round_down);
        break;
      case method::percentile:
        r.scale = scaling::compute_scale<Fmt>(abs_percentile(h, o.percentile), round_down);
        break;
      case method::mse:
        r.scale = mse_scale<Fmt>(model, o.power_of_two);
        break;
      case method::kl:
        r.scale = kl_scale<Fmt>(h, o.power_of_two);
        break;
    }
    r.cost = cost_of<Fmt>(model, r.scale);
    return r;
  });
}

}  // namespace detail

// The scale by the histogram alone (memory: the histogram's bins, whatever
// the data's size). The mse search is exact over the histogram model
// (cost.hpp), which quantizes each bin at its mean: on data with more
// distinct values than bins it can miss the data's least squared error
// (docs/scaling.md gives the measured gap), and the cost is the model's.
template <class Fmt>
calibration_result calibrate(const abs_histogram& h, const calibration_options& o = {}) {
  return target::in_default_float_environment([&]() -> calibration_result {
    return detail::calibrate_on<Fmt>(h, histogram_model(h), o);
  });
}

// The same with the observed values themselves (x[0..n), the data `h`
// observed): mse finds the scale of least squared error on the data, and
// every method's cost is the data's exact cost (value_model).
template <class Fmt>
calibration_result calibrate(const abs_histogram& h, const float* x, std::size_t n,
                             const calibration_options& o = {}) {
  return target::in_default_float_environment([&]() -> calibration_result {
    return detail::calibrate_on<Fmt>(h, value_model(x, n), o);
  });
}

}  // namespace calibration
}  // namespace mf
