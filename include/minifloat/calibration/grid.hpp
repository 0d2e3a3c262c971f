// The non-negative finite values of a format, in double, and the rounding
// the calibration searches model: round to the nearest value, ties to the
// even encoding, saturating at max finite (what mf::round_to does with
// rounding::nearest_even and overflow::saturating for an exactly known
// product x * scale).
#pragma once

#include <algorithm>
#include <cstddef>
#include <vector>

#include "../formats.hpp"
#include "../scalar_convert.hpp"

namespace mf {
namespace calibration {

template <class Fmt>
class format_grid {
  using F = typename Fmt::format;
  static_assert(F::has_zero && F::has_subnormals,
                "calibration needs a format with zero (not a scale format such as e8m0fnu)");

 public:
  // The one grid of Fmt, built on first use.
  static const format_grid& get() {
    static const format_grid grid;
    return grid;
  }

  std::size_t size() const noexcept { return value_.size(); }
  double value(std::size_t i) const noexcept { return value_[i]; }
  double max() const noexcept { return value_.back(); }
  // The midpoint between value(i) and value(i + 1) (exact: both have few bits).
  double midpoint(std::size_t i) const noexcept { return midpoint_[i]; }

  // Index of the value y >= 0 rounds to.
  std::size_t nearest(double y) const noexcept {
    const auto above = std::upper_bound(value_.begin(), value_.end(), y);
    if (above == value_.begin()) return 0;
    const std::size_t i = static_cast<std::size_t>(above - value_.begin()) - 1;
    if (i + 1 == value_.size()) return i;  // at or beyond max finite: saturates
    const double m = midpoint_[i];
    if (y > m) return i + 1;
    if (y < m) return i;
    return (i & 1u) == 0 ? i : i + 1;  // a tie goes to the even encoding
  }

 private:
  format_grid() {
    // Magnitudes 0..max_finite_magnitude encode 0 and the positive finite
    // values in increasing order, so index i is encoding i: even encodings
    // are even indices.
    for (unsigned e = 0; e <= F::max_finite_magnitude; ++e) {
      value_.push_back(static_cast<double>(mf::detail::decode_to_float<F>(e)));
    }
    for (std::size_t i = 0; i + 1 < value_.size(); ++i) {
      midpoint_.push_back((value_[i] + value_[i + 1]) / 2);
    }
  }

  std::vector<double> value_;
  std::vector<double> midpoint_;
};

}  // namespace calibration
}  // namespace mf
