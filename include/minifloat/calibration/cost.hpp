// What a scale costs on the observed data: the squared error of
// round-to-nearest-even, saturating quantization q = round(x * scale),
// x ~ q / scale, its mean, the SQNR, and the fractions of values saturated
// and flushed to zero.
//
// The histogram model: every value of a bin is quantized to the grid point of
// the bin's mean (the error of the bin is then exact from its count, sum and
// sum of squares); exact when every non-empty bin holds one distinct value,
// otherwise off by at most 2 * n * cell_width * bin_width for each bin that
// straddles a rounding midpoint (docs/scaling.md, "Static calibration").
// NaN and Inf are not part of the population (they do not move the scale, as
// in mf::scaling::quantize_*); zeros are, with no error.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "../target/float_environment.hpp"
#include "grid.hpp"
#include "histogram.hpp"

namespace mf {
namespace calibration {

// The histogram as weighted points: (mean, count) per non-empty bin, the
// part of the error no scale changes (each bin's spread about its mean), the
// signal sum x^2 and the population size.
struct histogram_model {
  std::vector<double> mean;
  std::vector<double> count;
  double spread = 0.0;  // sum over bins of sum (x - mean)^2
  double signal = 0.0;  // sum x^2
  double population = 0.0;  // finite values, zeros included
  float amax = 0.0f;

  histogram_model() = default;
  explicit histogram_model(const abs_histogram& h) : amax(h.amax()) {
    target::in_default_float_environment([&] {
      for (std::uint32_t i = h.first_bin(); i < h.end_bin(); ++i) {
        if (h.bin(i).empty()) continue;
        const double m = h.bin_mean(i), n = static_cast<double>(h.bin(i).count);
        const double d = h.bin_deviation_square_sum(i);
        mean.push_back(m);
        count.push_back(n);
        spread += d;
        signal += d + n * m * m;
      }
      population = static_cast<double>(h.finite_count());
    });
  }
};

// The data's own model: one point per distinct finite magnitude, with its
// multiplicity (no spread), so every error computed from it is the data's
// exact error. O(n log n) time and 8 bytes per value while it is built,
// 16 bytes per distinct magnitude kept.
inline histogram_model value_model(const float* x, std::size_t n) {
  return target::in_default_float_environment([&]() -> histogram_model {
    std::vector<float> magnitudes;
    magnitudes.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const float a = std::fabs(x[i]);
      if (std::isfinite(a)) magnitudes.push_back(a);
    }
    std::sort(magnitudes.begin(), magnitudes.end());
    histogram_model m;
    m.population = static_cast<double>(magnitudes.size());
    for (std::size_t i = 0; i < magnitudes.size();) {
      std::size_t j = i + 1;
      while (j < magnitudes.size() && magnitudes[j] == magnitudes[i]) ++j;
      const double v = static_cast<double>(magnitudes[i]), count = static_cast<double>(j - i);
      if (v > 0) {  // zeros: part of the population, no error at any scale
        m.mean.push_back(v);
        m.count.push_back(count);
        m.signal += count * v * v;
      }
      i = j;
    }
    m.amax = magnitudes.empty() ? 0.0f : magnitudes.back();
    return m;
  });
}

namespace detail {

// A double-double accumulator (error-free transformations: Knuth's TwoSum,
// the FMA TwoProduct): about 106 bits, so error sums of candidate scales
// compare reliably where plain double sums tie or cross by rounding.
struct wide_sum {
  double hi = 0.0;
  double lo = 0.0;

  void add(double x) noexcept {
    const double s = hi + x;
    const double v = s - hi;
    lo += (hi - (s - v)) + (x - v);
    hi = s + lo;
    lo -= hi - s;
  }
  // Adds n * d^2 with the products' rounding errors kept.
  void add_weighted_square(double n, double d) noexcept {
    const double p = d * d;
    const double pe = std::fma(d, d, -p);
    const double q = n * p;
    add(q);
    add(std::fma(n, p, -q));
    add(n * pe);
  }
  // This sum divided by s2 (an exact double), to about 104 bits.
  wide_sum divided(double s2) const noexcept {
    const double q1 = hi / s2;
    const double r = std::fma(-q1, s2, hi);
    wide_sum out;
    out.add(q1);
    out.add((r + lo) / s2);
    return out;
  }
  friend bool operator<(const wide_sum& a, const wide_sum& b) noexcept {
    return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
  }
  double value() const noexcept { return hi + lo; }
};

// The scale-dependent part of the model's squared error, sum n (mean -
// q / scale)^2, accurately. In the scaled domain y = mean * scale, the error
// y - q is exact in double when mean is a float (products of two floats are
// exact in double), then divided once by scale^2.
template <class Fmt>
wide_sum scale_error(const histogram_model& m, float scale) noexcept {
  const format_grid<Fmt>& grid = format_grid<Fmt>::get();
  const double s = static_cast<double>(scale);
  wide_sum sum;
  for (std::size_t j = 0; j < m.mean.size(); ++j) {
    const double y = m.mean[j] * s;
    sum.add_weighted_square(m.count[j], y - grid.value(grid.nearest(y)));
  }
  return sum.divided(s * s);
}

}  // namespace detail

struct quantization_cost {
  double sse = 0.0;                // sum (x - q / scale)^2 over the population
  double mse = 0.0;                // sse / population
  double sqnr_db = 0.0;            // 10 log10(sum x^2 / sse); +Inf when sse == 0
  double saturated_fraction = 0.0;  // |x| * scale > max finite
  double flushed_fraction = 0.0;    // x != 0 quantized to 0
};

// The cost of `scale` on the observed data (the histogram model).
template <class Fmt>
quantization_cost cost_of(const histogram_model& m, float scale) {
  return target::in_default_float_environment([&]() -> quantization_cost {
    const format_grid<Fmt>& grid = format_grid<Fmt>::get();
    quantization_cost c;
    c.sse = detail::scale_error<Fmt>(m, scale).value() + m.spread;
    double saturated = 0.0, flushed = 0.0;
    for (std::size_t j = 0; j < m.mean.size(); ++j) {
      const double y = m.mean[j] * static_cast<double>(scale);
      if (y > grid.max()) saturated += m.count[j];
      if (grid.nearest(y) == 0) flushed += m.count[j];
    }
    if (m.population > 0) {
      c.mse = c.sse / m.population;
      c.saturated_fraction = saturated / m.population;
      c.flushed_fraction = flushed / m.population;
    }
    c.sqnr_db = c.sse > 0 ? 10.0 * std::log10(m.signal / c.sse)
                          : std::numeric_limits<double>::infinity();
    return c;
  });
}

}  // namespace calibration
}  // namespace mf
