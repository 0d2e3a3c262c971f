// A streaming histogram of |x| for static scale calibration: bins aligned to
// float32's own exponent and top mantissa bits, so a bin edge is a float and
// the bin of a value is a shift of its bit pattern. Each bin keeps its count
// and the exact integer sums of the values' offsets from the bin's lower edge
// (and of their squares), so the histogram, its sums and everything computed
// from it do not depend on how the data was split into batches or observers
// (integer addition is associative; floating-point addition is not).
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "../formats.hpp"

namespace mf {
namespace calibration {

// One bin: values v = lower_edge + r * ulp with 0 <= r < 2^(23 - mantissa_bits),
// ulp the float32 spacing of the bin's binade. offset_sum = sum of r,
// offset_square_sum = sum of r^2 (128 bits: low and high words).
struct histogram_bin {
  std::uint64_t count = 0;
  std::uint64_t offset_sum = 0;
  std::uint64_t offset_square_sum_low = 0;
  std::uint64_t offset_square_sum_high = 0;

  bool empty() const noexcept { return count == 0; }
  friend bool operator==(const histogram_bin& a, const histogram_bin& b) noexcept {
    return a.count == b.count && a.offset_sum == b.offset_sum &&
           a.offset_square_sum_low == b.offset_square_sum_low &&
           a.offset_square_sum_high == b.offset_square_sum_high;
  }
};

class abs_histogram {
 public:
  // 2^mantissa_bits bins per binade of float32 (0..16). 8 (256 bins, relative
  // width 2^-8) keeps a bin well inside one rounding cell of every format up
  // to 3 mantissa bits except at the cell edges (docs/scaling.md, "Static
  // calibration").
  explicit abs_histogram(int mantissa_bits = 8) : mantissa_bits_(mantissa_bits) {
    assert(mantissa_bits >= 0 && mantissa_bits <= 16);
  }

  int mantissa_bits() const noexcept { return mantissa_bits_; }

  // Adds n values. Zeros, NaN and +-Inf are counted, not binned; the sign
  // is ignored.
  void observe(const float* x, std::size_t n) {
    const int shift = offset_bits();
    const std::uint32_t offset_mask = (std::uint32_t{1} << shift) - 1u;
    // Locals, not members, in the loop: the bins' 64-bit stores could alias
    // the members' and would force a reload of each on every element.
    std::uint64_t zeros = 0, nans = 0, infs = 0;
    std::uint32_t amax_bits = amax_bits_;
    std::uint32_t first = first_;
    std::uint32_t size = static_cast<std::uint32_t>(bins_.size());
    histogram_bin* bins = bins_.data();
    for (std::size_t i = 0; i < n; ++i) {
      std::uint32_t a;
      std::memcpy(&a, x + i, sizeof a);
      a &= 0x7FFFFFFFu;
      if (a - 1u >= 0x7F7FFFFFu) {  // 0, or at least 0x7F800000 (Inf, NaN)
        if (a == 0) ++zeros; else if (a == 0x7F800000u) ++infs; else ++nans;
        continue;
      }
      amax_bits = a > amax_bits ? a : amax_bits;
      const std::uint32_t index = a >> shift;
      if (index - first >= size) {  // below first wraps around too
        grow(index);
        first = first_;
        size = static_cast<std::uint32_t>(bins_.size());
        bins = bins_.data();
      }
      histogram_bin& b = bins[index - first];
      const std::uint64_t r = a & offset_mask;
      const std::uint64_t r2 = r * r;
      ++b.count;
      b.offset_sum += r;
      b.offset_square_sum_low += r2;
      b.offset_square_sum_high += b.offset_square_sum_low < r2 ? 1u : 0u;
    }
    zeros_ += zeros;
    nans_ += nans;
    infs_ += infs;
    amax_bits_ = amax_bits;
  }

  // bfloat16 and binary16 values widen to float exactly.
  template <class T, class = std::enable_if_t<is_minifloat_v<T>>>
  void observe(const T* x, std::size_t n) {
    float chunk[256];
    while (n > 0) {
      const std::size_t m = n < 256 ? n : 256;
      for (std::size_t i = 0; i < m; ++i) chunk[i] = static_cast<float>(x[i]);
      observe(chunk, m);
      x += m;
      n -= m;
    }
  }

  // Adds another observer's data (the same mantissa_bits): the result equals
  // one observer that saw both inputs.
  void merge(const abs_histogram& other) {
    assert(other.mantissa_bits_ == mantissa_bits_);
    zeros_ += other.zeros_;
    nans_ += other.nans_;
    infs_ += other.infs_;
    amax_bits_ = other.amax_bits_ > amax_bits_ ? other.amax_bits_ : amax_bits_;
    for (std::size_t i = 0; i < other.bins_.size(); ++i) {
      const histogram_bin& o = other.bins_[i];
      if (o.empty()) continue;
      const std::uint32_t index = other.first_ + static_cast<std::uint32_t>(i);
      if (index < first_ || index >= first_ + bins_.size()) grow(index);
      histogram_bin& b = bins_[index - first_];
      b.count += o.count;
      b.offset_sum += o.offset_sum;
      b.offset_square_sum_low += o.offset_square_sum_low;
      b.offset_square_sum_high += o.offset_square_sum_high +
                                  (b.offset_square_sum_low < o.offset_square_sum_low ? 1u : 0u);
    }
  }

  std::uint64_t zeros() const noexcept { return zeros_; }
  std::uint64_t nans() const noexcept { return nans_; }
  std::uint64_t infs() const noexcept { return infs_; }
  // Finite values, zeros included (the population every method describes).
  std::uint64_t finite_count() const noexcept {
    std::uint64_t n = zeros_;
    for (const histogram_bin& b : bins_) n += b.count;
    return n;
  }
  // The largest finite |x| seen, exactly (0 when none).
  float amax() const noexcept {
    float a;
    std::memcpy(&a, &amax_bits_, sizeof a);
    return a;
  }

  // Bin indices [first_bin(), end_bin()) hold every non-zero finite value;
  // bin i covers [lower_edge(i), upper_edge(i)).
  std::uint32_t first_bin() const noexcept { return first_; }
  std::uint32_t end_bin() const noexcept {
    return first_ + static_cast<std::uint32_t>(bins_.size());
  }
  const histogram_bin& bin(std::uint32_t index) const noexcept {
    static const histogram_bin none{};
    return index >= first_ && index < end_bin() ? bins_[index - first_] : none;
  }
  float lower_edge(std::uint32_t index) const noexcept { return from_bits(index << offset_bits()); }
  float upper_edge(std::uint32_t index) const noexcept {
    return from_bits((index + 1) << offset_bits());
  }

  // The bin's values in double: their sum, mean and sum of squared
  // deviations from the mean (computed from the exact integer sums).
  double bin_sum(std::uint32_t index) const noexcept {
    const histogram_bin& b = bin(index);
    return static_cast<double>(b.count) * static_cast<double>(lower_edge(index)) +
           std::ldexp(static_cast<double>(b.offset_sum), ulp_exponent(index));
  }
  double bin_mean(std::uint32_t index) const noexcept {
    const histogram_bin& b = bin(index);
    if (b.empty()) return 0.0;
    const double offset = static_cast<double>(b.offset_sum) / static_cast<double>(b.count);
    return static_cast<double>(lower_edge(index)) + std::ldexp(offset, ulp_exponent(index));
  }
  // n * sum r^2 - (sum r)^2 in exact 128-bit integer arithmetic, then one
  // division: a bin of equal values has spread exactly 0.
  double bin_deviation_square_sum(std::uint32_t index) const noexcept {
    const histogram_bin& b = bin(index);
    if (b.empty()) return 0.0;
    wide_uint n_s2 = multiply(b.count, b.offset_square_sum_low);
    n_s2.high += b.count * b.offset_square_sum_high;  // the product is < 2^128
    const wide_uint s_s = multiply(b.offset_sum, b.offset_sum);
    const double d = (n_s2 - s_s).to_double() / static_cast<double>(b.count);
    return std::ldexp(d, 2 * ulp_exponent(index));
  }

  // Same data (bins compared by index, whatever range was allocated).
  friend bool operator==(const abs_histogram& a, const abs_histogram& b) noexcept {
    if (a.mantissa_bits_ != b.mantissa_bits_ || a.zeros_ != b.zeros_ || a.nans_ != b.nans_ ||
        a.infs_ != b.infs_ || a.amax_bits_ != b.amax_bits_) {
      return false;
    }
    const std::uint32_t lo = std::min(a.first_bin(), b.first_bin());
    const std::uint32_t hi = std::max(a.end_bin(), b.end_bin());
    for (std::uint32_t i = lo; i < hi; ++i) {
      if (!(a.bin(i) == b.bin(i))) return false;
    }
    return true;
  }
  friend bool operator!=(const abs_histogram& a, const abs_histogram& b) noexcept {
    return !(a == b);
  }

 private:
  // An unsigned 128-bit integer (high, low words), as much as the spread needs.
  struct wide_uint {
    std::uint64_t low, high;
    friend wide_uint operator-(wide_uint a, wide_uint b) noexcept {
      return {a.low - b.low, a.high - b.high - (a.low < b.low ? 1u : 0u)};
    }
    double to_double() const noexcept {
      return std::ldexp(static_cast<double>(high), 64) + static_cast<double>(low);
    }
  };
  static wide_uint multiply(std::uint64_t a, std::uint64_t b) noexcept {
    const std::uint64_t a0 = a & 0xFFFFFFFFu, a1 = a >> 32, b0 = b & 0xFFFFFFFFu, b1 = b >> 32;
    const std::uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    const std::uint64_t middle = (p00 >> 32) + (p01 & 0xFFFFFFFFu) + (p10 & 0xFFFFFFFFu);
    return {(middle << 32) | (p00 & 0xFFFFFFFFu), p11 + (p01 >> 32) + (p10 >> 32) + (middle >> 32)};
  }

  int offset_bits() const noexcept { return 23 - mantissa_bits_; }

  // log2 of the float32 spacing in the bin's binade (subnormals: 2^-149).
  int ulp_exponent(std::uint32_t index) const noexcept {
    const int exponent_field = static_cast<int>(index >> mantissa_bits_);
    return (exponent_field > 0 ? exponent_field : 1) - 150;
  }

  static float from_bits(std::uint32_t bits) noexcept {
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
  }

  // Widens the allocated range to hold `index`.
  void grow(std::uint32_t index) {
    if (bins_.empty()) {
      first_ = index;
      bins_.resize(1);
      return;
    }
    // At least double the range toward the new index, so data arriving in
    // sorted order costs amortised O(1) per new bin.
    const std::uint32_t limit = std::uint32_t{255} << mantissa_bits_;  // finite bins
    const std::uint32_t size = static_cast<std::uint32_t>(bins_.size());
    std::uint32_t lo = first_, hi = end_bin();
    if (index < first_) lo = std::min(index, first_ > size ? first_ - size : 0u);
    if (index >= hi) hi = std::min(std::max(index + 1, hi + size), limit);
    std::vector<histogram_bin> wider(hi - lo);
    std::copy(bins_.begin(), bins_.end(), wider.begin() + (first_ - lo));
    bins_.swap(wider);
    first_ = lo;
  }

  int mantissa_bits_;
  std::vector<histogram_bin> bins_;
  std::uint32_t first_ = 0;
  std::uint64_t zeros_ = 0;
  std::uint64_t nans_ = 0;
  std::uint64_t infs_ = 0;
  std::uint32_t amax_bits_ = 0;
};

}  // namespace calibration
}  // namespace mf
