// The scale that maps a tensor's absolute maximum onto a format's largest
// finite value: scale = max_finite / (amax * 2^margin), so that x * scale
// fills the format's range (quantize: q = round(x * scale); dequantize:
// x ~ q / scale). As TransformerEngine's and torchao's recipes compute it,
// with the corner cases decided explicitly (docs/scaling.md).
#pragma once

#include <cmath>
#include <limits>

#include "../formats.hpp"
#include "../scalar_convert.hpp"
#include "../target/float_environment.hpp"

namespace mf {
namespace scaling {

struct scale_options {
  // Headroom in powers of two: scale = max_finite / (amax * 2^margin)
  // (TransformerEngine's `margin`). 0 maps amax exactly onto max finite.
  float margin = 0.0f;
  // Round the scale down to a power of two (as torchao's
  // round_scales_to_power_of_2 and DeepSeek-V3's UE8M0 scales): multiplying
  // by it is then exact, so scaling adds no rounding of its own.
  bool power_of_two = false;
  // The scale returned when amax gives no information: amax == 0 (an
  // all-zero tensor), Inf or NaN. TransformerEngine keeps the previous
  // scale there; delayed_scaling passes it here.
  float fallback = 1.0f;
};

// The largest finite value of Fmt, as a float.
template <class Fmt>
inline float max_finite_value() noexcept {
  using F = typename Fmt::format;
  return mf::detail::decode_to_float<F>(F::max_finite_magnitude);
}

// The quantization scale for a tensor whose max |x| is amax (its sign is
// ignored). Otherwise rounded toward zero to float, so amax * scale never
// exceeds max finite (not even after the float rounding of the product);
// clamped to [2^-126, FLT_MAX] (2^127 with power_of_two) so that the scale
// and its reciprocal are normal floats.
//   mf::scaling::compute_scale<mf::e4m3fn>(2.0f)            == 224
//   mf::scaling::compute_scale<mf::e4m3fn>(2.0f, {0, true}) == 128
template <class Fmt>
inline float compute_scale(float amax, const scale_options& options = {}) noexcept {
  return target::in_default_float_environment([&]() -> float {
    const double a = std::fabs(static_cast<double>(amax));
    if (!(a > 0.0) || std::isinf(a)) return options.fallback;  // 0, NaN, Inf
    const double exact = static_cast<double>(max_finite_value<Fmt>()) / a /
                         std::exp2(static_cast<double>(options.margin));
    constexpr double smallest = 1.1754943508222875e-38;  // 2^-126
    if (options.power_of_two) {
      int exponent = 0;
      std::frexp(exact, &exponent);  // exact = m * 2^exponent, m in [0.5, 1)
      int e = exponent - 1;
      e = e > 127 ? 127 : (e < -126 ? -126 : e);
      return std::ldexp(1.0f, e);
    }
    if (!(exact < static_cast<double>(std::numeric_limits<float>::max()))) {
      return std::numeric_limits<float>::max();
    }
    if (exact < smallest) return static_cast<float>(smallest);
    float scale = static_cast<float>(exact);
    if (static_cast<double>(scale) > exact) scale = std::nextafter(scale, 0.0f);
    return scale;
  });
}

}  // namespace scaling
}  // namespace mf
