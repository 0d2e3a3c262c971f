// The scale that minimises the squared error of round-to-nearest-even,
// saturating quantization of the observed data (the histogram model of
// cost.hpp), searched exactly over float32 scales.
//
// Why the search is exact (docs/scaling.md, "Static calibration"):
// - Below: for s <= s_max / 2 (s_max = max_finite / amax) doubling the scale
//   never increases any point's error, because 2 * G contains every grid
//   value up to max / 2, so the grid seen from x at scale 2s contains the
//   one at scale s. Every float s < s_max / 2 is beaten by 2^k s in
//   [s_max / 2, s_max], so the search starts at s_max / 2.
// - Between two consecutive events (a float scale at which some point moves
//   to the next grid value: it crosses a midpoint) every point keeps its
//   grid value g, and the error is A - 2 B t + C t^2 in t = 1 / s, convex,
//   smallest at t = B / C: the best float of the interval is one of the two
//   floats around C / B, or an end of the interval. The sweep visits every
//   event, one binade of scales at a time.
// - Above: the error of the points that saturate, sum (x - max / s)^2 over
//   x * s > max, only grows with s; the sweep stops at the first binade
//   whose start already costs that much more than the best found.
// The candidates' errors are compared in double-double (cost.hpp); of
// tied scales the smallest is returned, below s_max / 2 too (smallest_tie).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <utility>
#include <vector>

#include "../target/float_environment.hpp"
#include "cost.hpp"

namespace mf {
namespace calibration {
namespace detail {

constexpr float smallest_scale = 1.17549435e-38f;  // 2^-126, as compute_scale
constexpr float largest_scale = std::numeric_limits<float>::max();

inline float next_up(float s) noexcept { return std::nextafter(s, largest_scale * 2.0f); }
inline float next_down(float s) noexcept { return std::nextafter(s, 0.0f); }

// A lower bound of the error at every scale >= s (`scale`): the points
// beyond max finite at s stay beyond it, and their distance to max / s only
// grows.
template <class Fmt>
double saturation_bound(const histogram_model& m, float scale) {
  const double s = static_cast<double>(scale);
  const double max = format_grid<Fmt>::get().max();
  double bound = 0.0;
  for (std::size_t j = 0; j < m.mean.size(); ++j) {
    if (m.mean[j] * s > max) {
      const double d = m.mean[j] - max / s;
      bound += m.count[j] * d * d;
    }
  }
  return bound;
}

struct candidate {
  float scale;
  double error;  // plain double estimate, for the shortlist
};

// The best scale of a shortlist, compared accurately; a tie keeps the
// smaller scale.
template <class Fmt>
float best_of(const histogram_model& m, std::vector<candidate>& candidates, double tolerance) {
  double lowest = std::numeric_limits<double>::infinity();
  for (const candidate& c : candidates) lowest = std::min(lowest, c.error);
  std::vector<candidate> near;
  for (const candidate& c : candidates) {
    if (c.error <= lowest + tolerance) near.push_back(c);
  }
  // At most 512, the lowest estimates (ties broken by scale: deterministic).
  std::sort(near.begin(), near.end(), [](const candidate& a, const candidate& b) {
    return a.error < b.error || (a.error == b.error && a.scale < b.scale);
  });
  if (near.size() > 512) near.resize(512);
  std::vector<float> close;
  for (const candidate& c : near) close.push_back(c.scale);
  std::sort(close.begin(), close.end());
  close.erase(std::unique(close.begin(), close.end()), close.end());
  float best = close.front();
  wide_sum best_error = scale_error<Fmt>(m, best);
  for (std::size_t i = 1; i < close.size(); ++i) {
    const wide_sum e = scale_error<Fmt>(m, close[i]);
    if (e < best_error) {
      best = close[i];
      best_error = e;
    }
  }
  return best;
}

// Every power of two from below s_max / 2 upward, until saturation alone
// costs more than the best.
template <class Fmt>
float mse_power_of_two_scale(const histogram_model& m, double s_max) {
  int e = 0;
  std::frexp(s_max / 2, &e);  // 2^(e-1) <= s_max / 2 < 2^e
  e = std::max(e - 1, -126);
  float best = std::ldexp(1.0f, std::min(e, 127));
  wide_sum best_error = scale_error<Fmt>(m, best);
  for (int k = e + 1; k <= 127; ++k) {
    const float s = std::ldexp(1.0f, k);
    if (saturation_bound<Fmt>(m, s) >= best_error.value() * (1 + 0x1p-40)) break;
    const wide_sum err = scale_error<Fmt>(m, s);
    if (err < best_error) {
      best = s;
      best_error = err;
    }
  }
  return best;
}

// The sweep over one binade of scales [lo, hi) (hi = 2 lo): appends the best
// floats of every interval between events to `out`.
template <class Fmt>
void sweep_binade(const histogram_model& m, float lo, float hi, std::vector<candidate>& out) {
  const format_grid<Fmt>& grid = format_grid<Fmt>::get();
  struct event {
    float scale;
    std::size_t point;
    std::size_t to;  // the grid index the point moves to
  };
  std::vector<event> events;
  std::vector<std::size_t> at(m.mean.size());
  double A = 0.0, B = 0.0, C = 0.0;
  for (std::size_t j = 0; j < m.mean.size(); ++j) {
    const double x = m.mean[j], n = m.count[j];
    const std::size_t i0 = grid.nearest(x * static_cast<double>(lo));
    at[j] = i0;
    const double g = grid.value(i0);
    A += n * x * x;
    B += n * x * g;
    C += n * g * g;
    // The midpoints x crosses while the scale grows to hi.
    const double x_hi = x * static_cast<double>(hi);
    for (std::size_t i = i0; i + 1 < grid.size() && grid.midpoint(i) <= x_hi; ++i) {
      const auto moved = [&](float s) { return grid.nearest(x * static_cast<double>(s)) > i; };
      float s = static_cast<float>(grid.midpoint(i) / x);
      if (!(s > lo)) s = next_up(lo);
      while (s > lo && moved(next_down(s))) s = next_down(s);
      while (s < hi && !moved(s)) s = next_up(s);
      if (s >= hi || !(s > lo)) continue;
      events.push_back({s, j, i + 1});
    }
  }
  std::sort(events.begin(), events.end(), [](const event& a, const event& b) {
    return a.scale < b.scale || (a.scale == b.scale && a.point < b.point);
  });

  const auto error = [&](float s) {
    const double t = 1.0 / static_cast<double>(s);
    return A - 2 * B * t + C * t * t;
  };
  // The best floats of [a, b): the ends, and the two floats around the
  // stationary point C / B when it falls inside.
  const auto interval = [&](float a, float b) {
    const float last = next_down(b);
    out.push_back({a, error(a)});
    if (last > a) out.push_back({last, error(last)});
    if (C > 0 && B > 0) {
      const double stationary = C / B;
      if (stationary > static_cast<double>(a) && stationary < static_cast<double>(last)) {
        float s = static_cast<float>(stationary);
        for (float f : {next_down(s), s, next_up(s)}) {
          if (f > a && f < last) out.push_back({f, error(f)});
        }
      }
    }
  };

  float start = lo;
  for (std::size_t k = 0; k < events.size();) {
    const float s = events[k].scale;
    interval(start, s);
    for (; k < events.size() && events[k].scale == s; ++k) {
      const event& e = events[k];
      const double x = m.mean[e.point], n = m.count[e.point];
      const double g0 = grid.value(at[e.point]), g1 = grid.value(e.to);
      B += n * x * (g1 - g0);
      C += n * (g1 * g1 - g0 * g0);
      at[e.point] = e.to;
    }
    start = s;
  }
  interval(start, hi);
}

// The smallest scale whose error equals the minimum found at `best` (the
// search's other candidates tie to the smaller scale already, but it starts
// at s_max / 2). Below s_max / 2 the error of s is at least that of 2s (the
// argument at the top), so the ties under `best` are found by halving while
// the error stays the same (exactly: a power-of-two scale changes neither
// the grid values hit nor the error unless something underflows), then by
// sweeping the binade under the last tie for a smaller one, again and
// again until a binade holds none. Lossless data, or a format that is
// float-like over the data's range (bfloat16), tie over many binades.
template <class Fmt>
float smallest_tie(const histogram_model& m, float best, bool power_of_two, double tolerance) {
  const wide_sum minimum = scale_error<Fmt>(m, best);
  const auto ties = [&](float s) {
    const wide_sum e = scale_error<Fmt>(m, s);
    return !(e < minimum) && !(minimum < e);
  };
  for (;;) {
    while (best / 2 >= smallest_scale && ties(best / 2)) best /= 2;
    if (power_of_two || best / 2 < smallest_scale) return best;
    std::vector<candidate> candidates;
    sweep_binade<Fmt>(m, best / 2, best, candidates);
    float smallest = best;
    for (const candidate& c : candidates) {
      if (c.scale < smallest && c.error <= minimum.value() + tolerance && ties(c.scale)) {
        smallest = c.scale;
      }
    }
    if (smallest == best) return best;
    best = smallest;
  }
}

}  // namespace detail

// The MSE-optimal float32 scale of the observed data, optionally a power of
// two; of several scales with the least error, the smallest. No non-zero
// finite data: 1 (compute_scale's fallback).
template <class Fmt>
float mse_scale(const histogram_model& m, bool power_of_two = false) {
  return target::in_default_float_environment([&]() -> float {
    if (!(m.amax > 0.0f) || m.mean.empty()) return 1.0f;
    const double s_max = format_grid<Fmt>::get().max() / static_cast<double>(m.amax);
    // The plain double errors carry rounding of the order 2^-50 * sum x^2:
    // everything that close to the lowest is compared accurately.
    const double tolerance = 0x1p-36 * (m.signal > 0 ? m.signal : 1.0);
    if (power_of_two) {
      return detail::smallest_tie<Fmt>(m, detail::mse_power_of_two_scale<Fmt>(m, s_max), true,
                                       tolerance);
    }

    // Data so small that even the largest float scale saturates nothing:
    // that scale (compute_scale's clamp) is as good as any.
    if (!(s_max / 2 < static_cast<double>(detail::largest_scale) / 2)) return detail::largest_scale;
    float lo = static_cast<float>(s_max / 2);
    if (static_cast<double>(lo) < s_max / 2) lo = detail::next_up(lo);
    lo = std::max(lo, detail::smallest_scale);
    std::vector<detail::candidate> candidates;
    double best = std::numeric_limits<double>::infinity();
    for (float start = lo; start <= detail::largest_scale / 2; start *= 2) {
      if (!candidates.empty() && detail::saturation_bound<Fmt>(m, start) > best + tolerance) {
        break;
      }
      const std::size_t before = candidates.size();
      detail::sweep_binade<Fmt>(m, start, start * 2, candidates);
      for (std::size_t i = before; i < candidates.size(); ++i) {
        best = std::min(best, candidates[i].error);
      }
    }
    return detail::smallest_tie<Fmt>(m, detail::best_of<Fmt>(m, candidates, tolerance), false,
                                     tolerance);
  });
}

}  // namespace calibration
}  // namespace mf
