// From the run-time rounding and overflow modes to a kernel instantiated for
// them. Every kernel set's encode entry (scalar, AVX2, AVX-512, NEON, and
// the fused encodes) turns its arguments into template constants here, so
// that the loop it calls has them as constants: the dispatch table calls the
// entry through a pointer, so a caller's constants do not reach the loop
// by inlining (measured: the scalar e5m2 loop 20% slower without).
#pragma once

#include <type_traits>

#include "../rounding.hpp"

namespace mf {
namespace bulk {
namespace detail {

template <rounding Mode>
using rounding_tag = std::integral_constant<rounding, Mode>;
template <overflow Ovf>
using overflow_tag = std::integral_constant<overflow, Ovf>;

// Returns kernel(rounding_tag<mode>{}, overflow_tag<on_overflow>{}). A
// stochastic kernel has no rounding mode: only its nearest_even form is
// instantiated, whatever `mode` says.
template <bool Stochastic = false, class Kernel>
inline auto with_mode_and_overflow(rounding mode, overflow on_overflow, Kernel kernel)
    -> decltype(kernel(rounding_tag<rounding::nearest_even>{},
                       overflow_tag<overflow::saturating>{})) {
  const auto with_mode = [&](auto ovf) {
    if constexpr (!Stochastic) {
      switch (mode) {
        case rounding::toward_zero:
          return kernel(rounding_tag<rounding::toward_zero>{}, ovf);
        case rounding::toward_positive:
          return kernel(rounding_tag<rounding::toward_positive>{}, ovf);
        case rounding::toward_negative:
          return kernel(rounding_tag<rounding::toward_negative>{}, ovf);
        case rounding::nearest_even:
          break;
      }
    }
    return kernel(rounding_tag<rounding::nearest_even>{}, ovf);
  };
  if (on_overflow == overflow::saturating) return with_mode(overflow_tag<overflow::saturating>{});
  return with_mode(overflow_tag<overflow::non_saturating>{});
}

}  // namespace detail
}  // namespace bulk
}  // namespace mf
