// An exact sum of products: a fixed-point integer with its unit and width
// chosen per type pair (sum_layout), the IEEE specials tracked beside it, and
// the roundings that read it (to float32 in a mode, to double by
// round-to-odd, truncation to n significant bits).
//
// Why fixed point: every product of two float32 values (so of any input type
// here) is exact in a double (at most 48 significant bits) and a multiple of
// the product of the two types' smallest magnitudes. E4M3 x E4M3 products
// are multiples of 2^-18 below 2^18, so a sum of K < 2^27 of them fits one
// 64-bit limb; the widest case, FP32 x FP32 (the `operands` placement), is a
// multiple of 2^-298 below 2^256, 587 bits for K <= 2^32: ten limbs hold it.
// Positive and negative terms go into separate magnitudes, so adding a term
// touches the two limbs it covers and carries, never all of them.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "../config.hpp"

namespace mf::hybrid {

// How a truncation to fewer bits treats a negative value: toward_zero cuts
// its magnitude; floor is the two's complement right shift (toward -Inf).
enum class truncation : unsigned char { toward_zero, floor };

namespace detail {

// A finite nonzero double as |x| = significand * 2^exponent, the integer
// significand below 2^53, read from its bits (frexp and ldexp are library
// calls, too slow for a loop over products).
struct double_parts {
  std::uint64_t significand;
  int exponent;
};

inline double_parts parts_of(double x) noexcept {
  const auto bits = mf::detail::bit_cast<std::uint64_t>(x);
  const int biased = static_cast<int>((bits >> 52) & 0x7FFu);
  const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1u);
  if (biased == 0) return {fraction, -1074};  // a subnormal has no hidden bit
  return {fraction | (std::uint64_t{1} << 52), biased - 1075};
}

// 2^e for -1022 <= e <= 1023, from its bits.
inline double power_of_two(int e) noexcept {
  return mf::detail::bit_cast<double>(static_cast<std::uint64_t>(e + 1023) << 52);
}

inline constexpr int wide_lsb_exponent = -298;
inline constexpr int wide_limbs = 10;

// A non-negative integer of `used` (<= wide_limbs) limbs, least significant
// first.
struct magnitude {
  std::uint64_t limb[wide_limbs] = {};
  int used = wide_limbs;

  void add_at(int index, std::uint64_t value) noexcept {
    for (int i = index; i < used && value != 0; ++i) {
      const std::uint64_t before = limb[i];
      limb[i] += value;
      value = limb[i] < before ? 1u : 0u;
    }
  }
  // m * 2^shift, m < 2^64, shift >= 0.
  void add_shifted(std::uint64_t m, int shift) noexcept {
    const int index = shift / 64;
    const int bit = shift % 64;
    if (bit == 0) {
      add_at(index, m);
    } else {
      add_at(index, m << bit);
      add_at(index + 1, m >> (64 - bit));
    }
  }
  bool is_zero() const noexcept {
    for (int i = 0; i < used; ++i) {
      if (limb[i] != 0) return false;
    }
    return true;
  }
  int compare(const magnitude& other) const noexcept {
    for (int i = used - 1; i >= 0; --i) {
      if (limb[i] != other.limb[i]) return limb[i] < other.limb[i] ? -1 : 1;
    }
    return 0;
  }
  // *this -= other, given *this >= other.
  void subtract(const magnitude& other) noexcept {
    std::uint64_t borrow = 0;
    for (int i = 0; i < used; ++i) {
      const std::uint64_t a = limb[i];
      const std::uint64_t d = a - other.limb[i] - borrow;
      borrow = (a < other.limb[i] || (a == other.limb[i] && borrow)) ? 1u : 0u;
      limb[i] = d;
    }
  }
  // Index of the highest set bit; -1 for zero.
  int top_bit() const noexcept {
    for (int i = used - 1; i >= 0; --i) {
      if (limb[i] != 0) return i * 64 + 63 - mf::detail::count_leading_zeros(limb[i]);
    }
    return -1;
  }
  // Any bit below position i set?
  bool any_below(int i) const noexcept {
    if (i <= 0) return false;
    const int whole = i / 64;
    for (int k = 0; k < whole; ++k) {
      if (limb[k] != 0) return true;
    }
    const int rest = i % 64;
    return rest != 0 && (limb[whole] & ((std::uint64_t{1} << rest) - 1u)) != 0;
  }
  // Bits [from, from + count) as an integer, 0 <= from, 1 <= count <= 64,
  // from + count <= 64 * used: the limb holding bit `from` shifted down,
  // the next limb's low bits above it, then the count kept.
  std::uint64_t bits(int from, int count) const noexcept {
    const int index = from / 64;
    const int shift = from % 64;
    std::uint64_t r = limb[index] >> shift;
    if (shift != 0 && shift + count > 64) r |= limb[index + 1] << (64 - shift);
    return count == 64 ? r : r & ((std::uint64_t{1} << count) - 1u);
  }
};

}  // namespace detail

// Where a sum's fixed point sits: terms are multiples of 2^lsb_exponent, and
// each of the two magnitudes has `limbs` 64-bit limbs (1..10). The default
// holds any sum of up to 2^32 products of float32 values.
struct sum_layout {
  int lsb_exponent = detail::wide_lsb_exponent;
  int limbs = detail::wide_limbs;
};

// The exact sum of a sequence of finite doubles that are multiples of
// 2^layout.lsb_exponent and whose sum stays below 2^(64 * layout.limbs)
// units (products of float32 values and their sums: sum_layout_for sizes
// it), and of +-Inf/NaN with IEEE 754's rules for a sum.
class wide_sum {
 public:
  wide_sum() = default;
  explicit wide_sum(sum_layout layout) noexcept : lsb_(layout.lsb_exponent) {
    positive_.used = negative_.used = layout.limbs;
  }

  // Adds x exactly. Inf and NaN set the special state.
  void add(double x) noexcept {
    only_negative_zeros_ = only_negative_zeros_ && x == 0 && std::signbit(x);
    if (std::isnan(x)) {
      nan_ = true;
      return;
    }
    if (std::isinf(x)) {
      (x > 0 ? pos_inf_ : neg_inf_) = true;
      return;
    }
    if (x == 0) return;
    // |x| = m 2^e (x is a normal double, as a nonzero multiple of
    // 2^lsb_ >= 2^-298).
    const detail::double_parts parts = detail::parts_of(x);
    std::uint64_t m = parts.significand;
    int shift = parts.exponent - lsb_;
    if (shift < 0) {  // x is a multiple of the unit (the contract): the bits cut are zeros
      m >>= -shift;
      shift = 0;
    }
    (x > 0 ? positive_ : negative_).add_shifted(m, shift);
  }
  // Adds the product a * b exactly (exact in double for float inputs).
  void add_product(float a, float b) noexcept {
    add(static_cast<double>(a) * static_cast<double>(b));
  }

  bool is_nan() const noexcept { return nan_ || (pos_inf_ && neg_inf_); }
  bool is_inf() const noexcept { return !is_nan() && (pos_inf_ || neg_inf_); }
  bool is_special() const noexcept { return nan_ || pos_inf_ || neg_inf_; }
  // The special value, when is_special().
  double special() const noexcept {
    if (is_nan()) return std::numeric_limits<double>::quiet_NaN();
    return pos_inf_ ? std::numeric_limits<double>::infinity()
                    : -std::numeric_limits<double>::infinity();
  }

  // The unit of the fixed point: the sum is an integer times 2^lsb_exponent().
  int lsb_exponent() const noexcept { return lsb_; }

  // An exact zero sum: -0 when every term added was -0 (IEEE 754 6.3: x + x
  // = x for a zero x), +0 otherwise (opposite signs cancel to +0 when
  // rounding to nearest or toward zero). Callers that start from a +0
  // accumulator add it.
  double zero() const noexcept { return only_negative_zeros_ ? -0.0 : 0.0; }

  // The finite part as sign and magnitude (negative: the sum is < 0).
  bool finite_part(detail::magnitude& out) const noexcept {
    const int c = positive_.compare(negative_);
    if (c >= 0) {
      out = positive_;
      out.subtract(negative_);
      return false;
    }
    out = negative_;
    out.subtract(positive_);
    return true;
  }

  // The sum rounded to a double by round-to-odd (truncate to 53 bits, then
  // set the last bit if anything was cut off). Rounding that double again to
  // p <= 51 bits, in any mode, gives the sum rounded once (Boldo and
  // Melquiond, "Emulation of FMA and correctly rounded sums: proved
  // algorithms using rounding to odd", IEEE TC 2008); every sum here is
  // inside double's normal range, so the 53 bits are all there.
  double round_to_odd() const noexcept {
    if (is_special()) return special();
    detail::magnitude mag;
    const bool negative = finite_part(mag);
    const int top = mag.top_bit();
    if (top < 0) return zero();
    const int low = top - 52;
    std::uint64_t m;
    if (low <= 0) {
      m = mag.bits(0, top + 1);
      const double v = std::ldexp(static_cast<double>(m), lsb_);
      return negative ? -v : v;
    }
    m = mag.bits(low, 53);
    if (mag.any_below(low)) m |= 1u;
    const double v = std::ldexp(static_cast<double>(m), low + lsb_);
    return negative ? -v : v;
  }

  // The sum truncated to `bits` (1..53) significant bits, the exponent
  // unbounded: toward zero, or toward -Inf (floor).
  double truncate(int bits, truncation mode) const noexcept {
    if (is_special()) return special();
    detail::magnitude mag;
    const bool negative = finite_part(mag);
    const int top = mag.top_bit();
    if (top < 0) return zero();
    const int low = top - bits + 1;
    if (low <= 0) {
      const double v = std::ldexp(static_cast<double>(mag.bits(0, top + 1)), lsb_);
      return negative ? -v : v;
    }
    double v = std::ldexp(static_cast<double>(mag.bits(low, bits)), low + lsb_);
    if (negative && mode == truncation::floor && mag.any_below(low)) {
      v += std::ldexp(1.0, low + lsb_);  // exact: one more unit
    }
    return negative ? -v : v;
  }

 private:
  int lsb_ = detail::wide_lsb_exponent;
  detail::magnitude positive_;
  detail::magnitude negative_;
  bool only_negative_zeros_ = true;  // no term yet, or only -0 terms
  bool nan_ = false;
  bool pos_inf_ = false;
  bool neg_inf_ = false;
};

}  // namespace mf::hybrid
