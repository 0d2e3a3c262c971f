// The `exact` model rounded "directly to the output type": the exact sum
// times the unrounded scale product, plus the bias, times or divided by the
// output scale, rounded once. The value is carried as a big dyadic number
// (an integer times a power of two) and read out as a double by
// round-to-odd, which the output conversion then rounds once more without
// changing the result (53 >= p + 2 bits for every output type).
#pragma once

#include <cmath>
#include <cstdint>

#include "wide_sum.hpp"

namespace mf::hybrid::detail {

// sign * integer * 2^lsb, the integer in 32-bit limbs (least significant
// first). 64 limbs hold the largest case: a sum of products below 2^288
// with unit 2^-298, times a scale product (48 bits, unit >= 2^-298), aligned
// with a bias (unit >= 2^-149) and shifted 128 bits for the division: under
// 1,300 of the 2,048 bits.
class big_dyadic {
 public:
  static constexpr int limbs = 64;

  static big_dyadic from_sum(const wide_sum& s) noexcept {
    big_dyadic r;
    magnitude m;
    r.negative_ = s.finite_part(m);
    for (int i = 0; i < m.used; ++i) {
      r.limb_[2 * i] = static_cast<std::uint32_t>(m.limb[i]);
      r.limb_[2 * i + 1] = static_cast<std::uint32_t>(m.limb[i] >> 32);
    }
    r.lsb_ = s.lsb_exponent();
    return r;
  }
  // A finite double (53 bits at most).
  static big_dyadic from_double(double x) noexcept {
    big_dyadic r;
    if (x == 0) return r;
    int e = 0;
    const double f = std::frexp(std::fabs(x), &e);
    const auto m = static_cast<std::uint64_t>(std::ldexp(f, 53));
    r.negative_ = x < 0;
    r.limb_[0] = static_cast<std::uint32_t>(m);
    r.limb_[1] = static_cast<std::uint32_t>(m >> 32);
    r.lsb_ = e - 53;
    return r;
  }

  bool is_zero() const noexcept {
    for (std::uint32_t l : limb_) {
      if (l != 0) return false;
    }
    return true;
  }

  // *this *= x, x a finite double.
  void multiply(double x) noexcept {
    const big_dyadic factor = from_double(x);
    big_dyadic product;
    for (int j = 0; j < 2; ++j) {
      std::uint64_t carry = 0;
      const std::uint64_t f = factor.limb_[j];
      for (int i = 0; i + j < limbs; ++i) {
        const std::uint64_t t = static_cast<std::uint64_t>(limb_[i]) * f +
                                product.limb_[i + j] + carry;
        product.limb_[i + j] = static_cast<std::uint32_t>(t);
        carry = t >> 32;
      }
    }
    product.negative_ = negative_ != factor.negative_;
    product.lsb_ = lsb_ + factor.lsb_;
    *this = product;
  }

  // *this += other, exactly.
  void add(big_dyadic other) noexcept {
    big_dyadic self = *this;
    if (other.lsb_ < self.lsb_) self.shift_left(self.lsb_ - other.lsb_);
    else other.shift_left(other.lsb_ - self.lsb_);
    if (self.negative_ == other.negative_) {
      std::uint64_t carry = 0;
      for (int i = 0; i < limbs; ++i) {
        const std::uint64_t t = static_cast<std::uint64_t>(self.limb_[i]) + other.limb_[i] + carry;
        self.limb_[i] = static_cast<std::uint32_t>(t);
        carry = t >> 32;
      }
    } else {
      if (self.compare_magnitude(other) < 0) std::swap(self, other);
      std::int64_t borrow = 0;
      for (int i = 0; i < limbs; ++i) {
        std::int64_t t = static_cast<std::int64_t>(self.limb_[i]) - other.limb_[i] - borrow;
        borrow = t < 0 ? 1 : 0;
        if (t < 0) t += std::int64_t{1} << 32;
        self.limb_[i] = static_cast<std::uint32_t>(t);
      }
    }
    *this = self;
  }

  // *this / x for a finite nonzero double x, read out as a double by
  // round-to-odd: the integer is shifted up 128 bits (so the quotient has at
  // least 76 bits), divided by x's 53-bit
  // integer significand with the remainder kept as a sticky bit.
  double divide_round_to_odd(double x) const noexcept {
    const big_dyadic divisor = from_double(x);
    const std::uint64_t d = static_cast<std::uint64_t>(divisor.limb_[0]) |
                            (static_cast<std::uint64_t>(divisor.limb_[1]) << 32);
    big_dyadic n = *this;
    n.shift_left(128);
    // Long division by a 53-bit divisor, 32 bits at a time: the running
    // remainder stays below 2^53, so remainder * 2^32 + limb fits in 85 bits;
    // split it so every step is 64-bit arithmetic.
    big_dyadic q;
    std::uint64_t rem = 0;
    for (int i = limbs - 1; i >= 0; --i) {
      std::uint32_t digit = 0;
      for (int b = 31; b >= 0; --b) {
        rem = (rem << 1) | ((n.limb_[i] >> b) & 1u);
        if (rem >= d) {
          rem -= d;
          digit |= std::uint32_t{1} << b;
        }
      }
      q.limb_[i] = digit;
    }
    q.negative_ = negative_ != divisor.negative_;
    q.lsb_ = n.lsb_ - divisor.lsb_;
    return q.round_to_odd(rem != 0);
  }

  double round_to_odd(bool sticky_below = false) const noexcept {
    int top = -1;
    for (int i = limbs - 1; i >= 0 && top < 0; --i) {
      if (limb_[i] != 0) {
        int b = 31;
        while (((limb_[i] >> b) & 1u) == 0) --b;
        top = i * 32 + b;
      }
    }
    if (top < 0) return sticky_below ? (negative_ ? -0x1p-1074 : 0x1p-1074) : 0.0;
    const int low = top - 52 > 0 ? top - 52 : 0;
    std::uint64_t m = 0;
    for (int k = top; k >= low; --k) m = (m << 1) | bit(k);
    bool sticky = sticky_below;
    for (int k = 0; k < low && !sticky; ++k) sticky = bit(k) != 0;
    if (sticky) m |= 1u;
    const double v = std::ldexp(static_cast<double>(m), low + lsb_);
    return negative_ ? -v : v;
  }

  bool negative() const noexcept { return negative_; }

 private:
  std::uint32_t bit(int k) const noexcept { return (limb_[k / 32] >> (k % 32)) & 1u; }

  void shift_left(int bits) noexcept {
    if (bits <= 0) return;
    const int whole = bits / 32;
    const int part = bits % 32;
    for (int i = limbs - 1; i >= 0; --i) {
      std::uint64_t v = 0;
      if (i - whole >= 0) v = static_cast<std::uint64_t>(limb_[i - whole]) << part;
      if (part != 0 && i - whole - 1 >= 0) v |= limb_[i - whole - 1] >> (32 - part);
      limb_[i] = static_cast<std::uint32_t>(v);
    }
    lsb_ -= bits;
  }

  int compare_magnitude(const big_dyadic& other) const noexcept {
    for (int i = limbs - 1; i >= 0; --i) {
      if (limb_[i] != other.limb_[i]) return limb_[i] < other.limb_[i] ? -1 : 1;
    }
    return 0;
  }

  std::uint32_t limb_[limbs] = {};
  int lsb_ = 0;
  bool negative_ = false;
};

}  // namespace mf::hybrid::detail
