// The entropy method (TensorRT's INT8 entropy calibration, Migacz, "8-bit
// Inference with TensorRT", GTC 2017), on a format's own non-uniform grid.
//
// For a clipping threshold T (T maps onto max finite, scale s = max / T):
// - P, the reference: the histogram's bins whose mean is <= T, with the
//   count of every bin above T added to the last of them (the clipped values
//   land on max, as TensorRT folds the outliers into its last bin); exact
//   zeros are left out (they are exact at every scale).
// - Q, the quantized version: the same bins with their own counts, the
//   clipped values left out (TensorRT quantizes bins [0, i) as observed and
//   adds the outliers to P alone, so that clipping shows as P's heavy last
//   bin), grouped by the format value their mean rounds to at scale s (one
//   group per rounding cell of the format, however wide it is in x); a
//   cell's total count is spread over its non-empty bins in proportion to
//   their width in x (a uniform density over the cell; TensorRT spreads
//   evenly over its equal-width bins, which is the same on a uniform grid);
//   empty bins get 0.
// - KL(P || Q) = sum_j P_j ln(P_j / Q_j) over the non-empty bins, P and Q
//   each normalised to 1. A threshold that keeps one non-empty bin and
//   clips others is no candidate: its P and Q are both that one bin.
// T runs over the bin edges in [amax / 16, amax) and amax itself (TensorRT
// searches bins 128..2048 of 2048, i.e. [amax / 16, amax]); the smallest KL
// wins, the first (smallest T) on a tie, as TensorRT's argmin. With the
// power-of-two constraint the candidates are the power-of-two scales whose
// T = max / s lies in [amax / 16, 2 amax), a tie again to the smallest T.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "../scaling/compute_scale.hpp"
#include "../target/float_environment.hpp"
#include "cost.hpp"
#include "grid.hpp"
#include "histogram.hpp"

namespace mf {
namespace calibration {
namespace detail {

struct kl_bins {
  std::vector<double> mean, count, width;
};

inline kl_bins kl_bins_of(const abs_histogram& h) {
  kl_bins b;
  for (std::uint32_t i = h.first_bin(); i < h.end_bin(); ++i) {
    if (h.bin(i).empty()) continue;
    b.mean.push_back(h.bin_mean(i));
    b.count.push_back(static_cast<double>(h.bin(i).count));
    b.width.push_back(static_cast<double>(h.upper_edge(i)) -
                      static_cast<double>(h.lower_edge(i)));
  }
  return b;
}

// KL(P || Q) for threshold T at scale s (the definition above).
template <class Fmt>
double kl_divergence(const kl_bins& b, double threshold, double scale) {
  const format_grid<Fmt>& grid = format_grid<Fmt>::get();
  std::size_t kept = 0;
  while (kept < b.mean.size() && b.mean[kept] <= threshold) ++kept;
  double clipped = 0.0, kept_count = 0.0;
  for (std::size_t j = kept; j < b.mean.size(); ++j) clipped += b.count[j];
  // One kept bin is P = Q = 1 however much is clipped: such a threshold
  // says nothing (a sparse histogram, a few values), so it is not a
  // candidate.
  if (kept == 0 || (kept == 1 && clipped > 0)) return std::numeric_limits<double>::infinity();
  for (std::size_t j = 0; j < kept; ++j) kept_count += b.count[j];
  const auto p = [&](std::size_t j) {
    return (b.count[j] + (j + 1 == kept ? clipped : 0.0)) / (kept_count + clipped);
  };
  double kl = 0.0;
  for (std::size_t first = 0; first < kept;) {
    const std::size_t cell = grid.nearest(b.mean[first] * scale);
    std::size_t end = first;
    double mass = 0.0, width = 0.0;
    while (end < kept && grid.nearest(b.mean[end] * scale) == cell) {
      mass += b.count[end];
      width += b.width[end];
      ++end;
    }
    for (std::size_t j = first; j < end; ++j) {
      const double q = mass / kept_count * b.width[j] / width;
      kl += p(j) * std::log(p(j) / q);
    }
    first = end;
  }
  return kl;
}

}  // namespace detail

// The scale of the entropy method (TensorRT's threshold search), optionally a
// power of two. No non-zero finite data: 1.
template <class Fmt>
float kl_scale(const abs_histogram& h, bool power_of_two = false) {
  return target::in_default_float_environment([&]() -> float {
    const double amax = static_cast<double>(h.amax());
    const detail::kl_bins b = detail::kl_bins_of(h);
    if (!(amax > 0) || b.mean.empty()) return 1.0f;
    const double max = format_grid<Fmt>::get().max();
    double best_kl = std::numeric_limits<double>::infinity();
    float best = 1.0f;
    // The smallest divergence wins, the smallest threshold on a tie: the bin
    // edges run upward in T, so there the first of equals stays; the powers
    // of two run downward in T, so there the last of equals replaces it.
    const auto consider = [&](double threshold, float scale, bool ties_replace) {
      const double kl = detail::kl_divergence<Fmt>(b, threshold, static_cast<double>(scale));
      if (kl < best_kl || (ties_replace && kl == best_kl)) {
        best_kl = kl;
        best = scale;
      }
    };
    if (power_of_two) {
      int e = 0;
      std::frexp(max / amax, &e);  // 2^(e-1) <= max / amax: T >= amax
      for (int k = e - 1; k <= 127; ++k) {
        const float s = std::ldexp(1.0f, k < -126 ? -126 : k);
        const double threshold = max / static_cast<double>(s);
        if (threshold < amax / 16) break;
        if (threshold < 2 * amax) consider(threshold, s, true);
      }
      return best;
    }
    const scaling::scale_options options{};
    for (std::uint32_t i = h.first_bin(); i < h.end_bin(); ++i) {
      const double edge = static_cast<double>(h.upper_edge(i));
      if (edge < amax / 16 || edge >= amax) continue;
      consider(edge, scaling::compute_scale<Fmt>(static_cast<float>(edge), options), false);
    }
    consider(amax, scaling::compute_scale<Fmt>(static_cast<float>(amax), options), false);
    return best;
  });
}

}  // namespace calibration
}  // namespace mf
