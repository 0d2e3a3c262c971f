// The p-th percentile of |x| from the histogram, for the percentile method
// (the percentile maps to max finite, the values above it saturate).
#pragma once

#include <cstdint>

#include "../target/float_environment.hpp"
#include "histogram.hpp"

namespace mf {
namespace calibration {

// The smallest v with at least p % of the finite values (zeros included)
// <= v, where inside a bin the values are taken as spread evenly over the
// bin: v = lower + (upper - lower) * (rank - below) / count with rank =
// p / 100 * population, as a continuous CDF interpolates linearly between its
// knots (NumPy's and torch.ao's histogram percentiles do the same inside a
// bin). Never above the exact amax; 0 when the rank falls among the zeros;
// p is clamped to [0, 100].
inline float abs_percentile(const abs_histogram& h, double p) {
  return target::in_default_float_environment([&]() -> float {
    p = p < 0 ? 0 : (p > 100 ? 100 : p);
    const double rank = p / 100.0 * static_cast<double>(h.finite_count());
    double below = static_cast<double>(h.zeros());
    if (rank <= below) return 0.0f;
    for (std::uint32_t i = h.first_bin(); i < h.end_bin(); ++i) {
      const double n = static_cast<double>(h.bin(i).count);
      if (n == 0) continue;
      if (below + n >= rank) {
        const double lower = static_cast<double>(h.lower_edge(i)),
                     upper = static_cast<double>(h.upper_edge(i));
        const float v = static_cast<float>(lower + (upper - lower) * ((rank - below) / n));
        return v < h.amax() ? v : h.amax();
      }
      below += n;
    }
    return h.amax();
  });
}

}  // namespace calibration
}  // namespace mf
