// The `exact` model rounded "directly to the output type": the exact sum
// times the unrounded scale product, plus the bias, times or divided by the
// output scale, rounded once. The value is carried as a big dyadic number
// (an integer times a power of two) and read out as a double by
// round-to-odd, which the output conversion then rounds once more without
// changing the result (53 >= p + 2 bits for every output type). One
// element's whole post-processing (exact_output_value) serves the reference
// loop and the fast kernels alike; for the fast kernels' sums (float64
// terms) it first tries the same steps in 128-bit integers (dyadic128),
// which hold their usual sums and scales, and the reference loop always
// takes big_dyadic, so that the kernel tests compare the two.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <utility>

#include "amax.hpp"
#include "epilogue.hpp"
#include "output.hpp"
#include "wide_sum.hpp"

namespace mf::hybrid::detail {

// sign * m * 2^e for an integer m < 2^53, RN as std::ldexp gives it: one
// multiplication by 2^e where 2^e is a normal double (exact unless the
// product overflows, which rounds to Inf as ldexp does), the library call
// for the rare exponent past that range.
inline double signed_times_power_of_two(std::uint64_t m, int e, bool negative) noexcept {
  const double v = e < -1022 || e > 1023 ? std::ldexp(static_cast<double>(m), e)
                                         : static_cast<double>(m) * power_of_two(e);
  return negative ? -v : v;
}

// sign * integer * 2^lsb, the integer in 32-bit limbs (least significant
// first). 64 limbs hold the largest case: a sum of products below 2^288
// with unit 2^-298, times a scale product (48 bits, unit >= 2^-298), aligned
// with a bias (unit >= 2^-149) and shifted 128 bits for the division: under
// 1,300 of the 2,048 bits. Only the limbs below `size_` hold the number
// (those from it up are not read, and not initialised or copied), so each
// operation costs what the number's width needs, not all 64 limbs: one
// output element of a MatMul's exact epilogue takes tens of nanoseconds.
class big_dyadic {
 public:
  static constexpr int limbs = 64;

  big_dyadic() noexcept {}  // zero: no limb in use
  big_dyadic(const big_dyadic& other) noexcept { *this = other; }
  big_dyadic& operator=(const big_dyadic& other) noexcept {
    for (int i = 0; i < other.size_; ++i) limb_[i] = other.limb_[i];
    size_ = other.size_;
    lsb_ = other.lsb_;
    negative_ = other.negative_;
    return *this;
  }

  static big_dyadic from_sum(const wide_sum& s) noexcept {
    big_dyadic r;
    magnitude m;
    r.negative_ = s.finite_part(m);
    for (int i = 0; i < m.used; ++i) {
      r.limb_[2 * i] = static_cast<std::uint32_t>(m.limb[i]);
      r.limb_[2 * i + 1] = static_cast<std::uint32_t>(m.limb[i] >> 32);
    }
    r.size_ = 2 * m.used;
    r.lsb_ = s.lsb_exponent();
    r.trim();
    return r;
  }
  // A finite double: its significand and exponent.
  static big_dyadic from_double(double x) noexcept {
    big_dyadic r;
    if (x == 0) return r;
    const double_parts parts = parts_of(x);
    r.negative_ = x < 0;
    r.limb_[0] = static_cast<std::uint32_t>(parts.significand);
    r.limb_[1] = static_cast<std::uint32_t>(parts.significand >> 32);
    r.size_ = 2;
    r.lsb_ = parts.exponent;
    return r;
  }

  bool is_zero() const noexcept {
    for (int i = 0; i < size_; ++i) {
      if (limb_[i] != 0) return false;
    }
    return true;
  }

  // *this *= x, x a finite double.
  void multiply(double x) noexcept {
    const big_dyadic factor = from_double(x);
    if (factor.size_ == 2 && factor.limb_[0] == 0 && factor.limb_[1] == (1u << 20)) {
      lsb_ += factor.lsb_ + 52;  // a power of two (the usual scale 1): the integer stays
      negative_ = negative_ != factor.negative_;
      return;
    }
    big_dyadic product;
    product.size_ = size_ + factor.size_ < limbs ? size_ + factor.size_ : limbs;
    for (int i = 0; i < product.size_; ++i) product.limb_[i] = 0;
    for (int j = 0; j < factor.size_; ++j) {
      std::uint64_t carry = 0;
      const std::uint64_t f = factor.limb_[j];
      for (int i = 0; i < size_ && i + j < limbs; ++i) {
        const std::uint64_t t = static_cast<std::uint64_t>(limb_[i]) * f +
                                product.limb_[i + j] + carry;
        product.limb_[i + j] = static_cast<std::uint32_t>(t);
        carry = t >> 32;
      }
      if (size_ + j < limbs) product.limb_[size_ + j] = static_cast<std::uint32_t>(carry);
    }
    product.negative_ = negative_ != factor.negative_;
    product.lsb_ = lsb_ + factor.lsb_;
    *this = product;
  }

  // *this += other, exactly.
  void add(big_dyadic other) noexcept {
    if (other.is_zero()) return;
    if (is_zero()) {
      *this = other;
      return;
    }
    if (other.lsb_ < lsb_) shift_left(lsb_ - other.lsb_);
    else other.shift_left(other.lsb_ - lsb_);
    const int width = size_ > other.size_ ? size_ : other.size_;
    if (negative_ == other.negative_) {
      std::uint64_t carry = 0;
      for (int i = 0; i < width; ++i) {
        const std::uint64_t t = limb_at(i) + other.limb_at(i) + carry;
        limb_[i] = static_cast<std::uint32_t>(t);
        carry = t >> 32;
      }
      size_ = width;
      if (width < limbs) limb_[size_++] = static_cast<std::uint32_t>(carry);
      return;
    }
    // Opposite signs: the larger magnitude less the smaller, its sign kept.
    const bool other_larger = compare_magnitude(other) < 0;
    const big_dyadic& large = other_larger ? other : *this;
    const big_dyadic& small = other_larger ? *this : other;
    std::uint32_t difference[limbs];
    std::int64_t borrow = 0;
    for (int i = 0; i < width; ++i) {
      std::int64_t t = static_cast<std::int64_t>(large.limb_at(i)) -
                       static_cast<std::int64_t>(small.limb_at(i)) - borrow;
      borrow = t < 0 ? 1 : 0;
      if (t < 0) t += std::int64_t{1} << 32;
      difference[i] = static_cast<std::uint32_t>(t);
    }
    negative_ = large.negative_;
    for (int i = 0; i < width; ++i) limb_[i] = difference[i];
    size_ = width;
  }

  // *this / x for a finite nonzero double x, read out as a double by
  // round-to-odd: the integer is shifted up 128 bits (so the quotient has at
  // least 76 bits), divided by x's 53-bit integer significand d with the
  // remainder kept as a sticky bit.
  double divide_round_to_odd(double x) const noexcept {
    const big_dyadic divisor = from_double(x);
    const std::uint64_t d = static_cast<std::uint64_t>(divisor.limb_[0]) |
                            (static_cast<std::uint64_t>(divisor.limb_[1]) << 32);
    big_dyadic n = *this;
    n.shift_left(128);
    // Long division, most significant limb first, each limb in pieces of
    // 11, 11 and 10 bits: the running remainder stays below d < 2^53, so
    // remainder * 2^11 + piece fits 64 bits, and each quotient piece is
    // below 2^11.
    big_dyadic q;
    q.size_ = n.size_;
    std::uint64_t rem = 0;
    for (int i = n.size_ - 1; i >= 0; --i) {
      std::uint64_t digit = 0;
      for (int shift : {21, 10, 0}) {
        const int width = shift == 0 ? 10 : 11;
        rem = (rem << width) | ((n.limb_[i] >> shift) & ((1u << width) - 1u));
        digit = (digit << width) | rem / d;
        rem %= d;
      }
      q.limb_[i] = static_cast<std::uint32_t>(digit);
    }
    q.negative_ = negative_ != divisor.negative_;
    q.lsb_ = n.lsb_ - divisor.lsb_;
    return q.round_to_odd(rem != 0);
  }

  double round_to_odd(bool sticky_below = false) const noexcept {
    int top = -1;
    for (int i = size_ - 1; i >= 0; --i) {
      if (limb_[i] != 0) {
        top = i * 32 + 63 - mf::detail::count_leading_zeros(limb_[i]);
        break;
      }
    }
    // Zero. A sticky bit comes only from divide_round_to_odd, whose quotient
    // of a nonzero numerator is at least 2^128 / 2^53, never zero.
    if (top < 0) return 0.0;
    const int low = top - 52 > 0 ? top - 52 : 0;
    std::uint64_t m = bits_from(low) & ((std::uint64_t{2} << (top - low)) - 1u);
    if (sticky_below || any_below(low)) m |= 1u;
    return signed_times_power_of_two(m, low + lsb_, negative_);
  }

  bool negative() const noexcept { return negative_; }

 private:
  // Drops the zero limbs at both ends (the sum's fixed point is sized for
  // the widest sums of its type pair, most sums use a few of its limbs):
  // the same number, fewer limbs for every later step.
  void trim() noexcept {
    while (size_ > 0 && limb_[size_ - 1] == 0) --size_;
    int zeros = 0;
    while (zeros < size_ && limb_[zeros] == 0) ++zeros;
    if (zeros == 0) return;
    for (int i = zeros; i < size_; ++i) limb_[i - zeros] = limb_[i];
    size_ -= zeros;
    lsb_ += 32 * zeros;
  }

  std::uint64_t limb_at(int i) const noexcept { return i < size_ ? limb_[i] : 0u; }

  // The 64 bits from bit `from` up (zeros past the top).
  std::uint64_t bits_from(int from) const noexcept {
    const int i = from / 32;
    const int part = from % 32;
    std::uint64_t w = (limb_at(i) | (limb_at(i + 1) << 32)) >> part;
    if (part != 0) w |= limb_at(i + 2) << (64 - part);
    return w;
  }

  // Any bit below bit `from` set (from <= 32 * size_)?
  bool any_below(int from) const noexcept {
    const int whole = from / 32;
    for (int i = 0; i < whole; ++i) {
      if (limb_[i] != 0) return true;
    }
    const int part = from % 32;
    return part != 0 && (limb_at(whole) & ((std::uint64_t{1} << part) - 1u)) != 0;
  }

  void shift_left(int bits) noexcept {
    if (bits <= 0) return;
    const int whole = bits / 32;
    const int part = bits % 32;
    const int size = size_ + whole + 1 < limbs ? size_ + whole + 1 : limbs;
    for (int i = size - 1; i >= 0; --i) {
      std::uint64_t v = 0;
      if (i - whole >= 0) v = limb_at(i - whole) << part;
      if (part != 0 && i - whole - 1 >= 0) v |= limb_at(i - whole - 1) >> (32 - part);
      limb_[i] = static_cast<std::uint32_t>(v);
    }
    size_ = size;
    lsb_ -= bits;
  }

  int compare_magnitude(const big_dyadic& other) const noexcept {
    const int width = size_ > other.size_ ? size_ : other.size_;
    for (int i = width - 1; i >= 0; --i) {
      if (limb_at(i) != other.limb_at(i)) return limb_at(i) < other.limb_at(i) ? -1 : 1;
    }
    return 0;
  }

  std::uint32_t limb_[limbs];  // [0, size_) in use
  int size_ = 0;
  int lsb_ = 0;
  bool negative_ = false;
};

// Whether the exact post-processing applies to these scales and bias: each
// finite, the output scale nonzero. Otherwise the float32 path gives the
// value (the same Inf or NaN).
inline bool exact_scales_apply(double s, float bias, float output_scale) noexcept {
  return std::isfinite(s) && std::isfinite(bias) && std::isfinite(output_scale) && output_scale != 0.0f;
}

// The `exact` model's "directly to the output type": (S * s + bias) times or
// divided by the output scale, from the exact sum S and the exact scale
// product s, as a round-to-odd double. A zero or non-finite scale or bias
// returns false (nothing written; exact_scales_apply): the float32 path
// gives the value, as it does for a sum with Inf or NaN (the callers).
// Otherwise *y2 is the exact y2 = S * s + bias as a round-to-odd double,
// which amax takes rounded to float32: the correctly rounded |y2|, as the
// float32 path's amax is of its own y2.
inline bool exact_post_processing(big_dyadic v, double s, float bias, bool has_bias,
                                  float output_scale, output_scale_rule rule, double* value,
                                  double* y2) {
  if (!exact_scales_apply(s, bias, output_scale)) return false;
  const bool sum_is_negative = !v.is_zero() && v.negative();  // an exact zero sum is acc's +0
  v.multiply(s);
  const bool product_is_zero = v.is_zero();
  if (has_bias) v.add(big_dyadic::from_double(static_cast<double>(bias)));
  *y2 = v.round_to_odd();
  if (v.is_zero()) {
    // The zero the rounded path gives: y1 = acc * s has the sign of acc (+0
    // for a zero sum) times the sign of s; y1 + bias keeps a sign only when
    // both zeros are negative; a sum that cancels is +0. Then the output
    // scale's sign.
    bool negative = false;
    if (product_is_zero) {
      negative = sum_is_negative != std::signbit(s);
      if (has_bias) negative = negative && std::signbit(bias);
    }
    if (std::signbit(output_scale)) negative = !negative;
    *value = negative ? -0.0 : 0.0;
    return true;
  }
  if (rule == output_scale_rule::multiply) {
    v.multiply(static_cast<double>(output_scale));
    *value = v.round_to_odd();
  } else {
    *value = v.divide_round_to_odd(static_cast<double>(output_scale));
  }
  return true;
}


#if defined(__SIZEOF_INT128__)
// exact_post_processing where every value it forms fits a 128-bit integer:
// the common case of the fast kernels, whose sums are one to four float64
// terms (kernels/driver.hpp), in tens of instructions rather than
// big_dyadic's limb loops. Each value is kept as sign * integer * 2^lsb
// with the integer's trailing zeros dropped, so a term has at most 53 bits,
// the scale product (a float32 times a float32) at most 48 and the output
// scale at most 24. The same exact values as big_dyadic, read out by the
// same rounding to odd (a quotient with at least 104 bits, its remainder
// the sticky bit), so the same doubles. Returns false, having written
// nothing, where a value would not fit (the terms, or the bias, too far
// apart; a product past 128 bits), where y2 is zero (big_dyadic's path
// gives zeros their signs) and where exact_post_processing does not apply;
// the caller then takes big_dyadic.
class dyadic128 {
 public:
  __extension__ typedef unsigned __int128 integer;  // a GNU extension: -Wpedantic knows

  // A finite double; zero gives zero.
  static dyadic128 from_double(double x) noexcept {
    dyadic128 r;
    if (x == 0) return r;
    const double_parts parts = parts_of(x);
    r.magnitude_ = parts.significand;
    r.lsb_ = parts.exponent;
    r.negative_ = x < 0;
    r.drop_trailing_zeros();
    return r;
  }

  bool is_zero() const noexcept { return magnitude_ == 0; }
  int bits() const noexcept { return bit_length(magnitude_); }

  // *this += x exactly; false (nothing changed) where the sum might not fit
  // 126 bits, aligned to the lower of the two units.
  bool add(const dyadic128& x) noexcept {
    if (x.is_zero()) return true;
    if (is_zero()) {
      *this = x;
      return true;
    }
    const int lsb = lsb_ < x.lsb_ ? lsb_ : x.lsb_;
    if (bits() + (lsb_ - lsb) > 125 || x.bits() + (x.lsb_ - lsb) > 125) return false;
    const integer a = magnitude_ << (lsb_ - lsb), b = x.magnitude_ << (x.lsb_ - lsb);
    if (negative_ == x.negative_) {
      magnitude_ = a + b;
    } else {
      magnitude_ = a >= b ? a - b : b - a;
      negative_ = a >= b ? negative_ : x.negative_;
    }
    lsb_ = lsb;
    drop_trailing_zeros();
    return true;
  }

  // *this *= x exactly; false (nothing changed) where the product might
  // not fit 128 bits.
  bool multiply(const dyadic128& x) noexcept {
    if (bits() + x.bits() > 128) return false;
    magnitude_ *= x.magnitude_;  // odd when both are: no trailing zeros to drop
    lsb_ += x.lsb_;
    negative_ = negative_ != x.negative_;
    return true;
  }

  // Rounded to odd in 53 bits, as a double (big_dyadic::round_to_odd).
  double round_to_odd(bool sticky_below = false) const noexcept {
    const int top = bits() - 1;
    const int low = top - 52 > 0 ? top - 52 : 0;
    std::uint64_t m = static_cast<std::uint64_t>(magnitude_ >> low);
    if (sticky_below || (magnitude_ & ((integer{1} << low) - 1u)) != 0) m |= 1u;
    return signed_times_power_of_two(m, low + lsb_, negative_);
  }

  // *this / x rounded to odd, for a nonzero x of at most 24 bits (a float
  // output scale): the integer shifted to 128 bits, so that the quotient
  // has at least 104, and the remainder the sticky bit, as in
  // big_dyadic::divide_round_to_odd.
  double divide_round_to_odd(const dyadic128& x) const noexcept {
    const int shift = 128 - bits();
    const integer n = magnitude_ << shift;
    dyadic128 q;
    q.magnitude_ = n / x.magnitude_;
    q.lsb_ = lsb_ - shift - x.lsb_;
    q.negative_ = negative_ != x.negative_;
    return q.round_to_odd(n % x.magnitude_ != 0);
  }

 private:
  static int bit_length(integer v) noexcept {
    const auto high = static_cast<std::uint64_t>(v >> 64), low = static_cast<std::uint64_t>(v);
    if (high != 0) return 128 - mf::detail::count_leading_zeros(high);
    return low != 0 ? 64 - mf::detail::count_leading_zeros(low) : 0;
  }

  void drop_trailing_zeros() noexcept {
    if (magnitude_ == 0) return;
    const auto low = static_cast<std::uint64_t>(magnitude_);
    const int zeros =
        low != 0 ? __builtin_ctzll(low) : 64 + __builtin_ctzll(static_cast<std::uint64_t>(magnitude_ >> 64));
    magnitude_ >>= zeros;
    lsb_ += zeros;
  }

  integer magnitude_ = 0;
  int lsb_ = 0;
  bool negative_ = false;
};

inline bool exact_post_processing_in_128_bits(const double* terms, std::size_t n, double s, float bias,
                                              bool has_bias, float output_scale, output_scale_rule rule,
                                              double* value, double* y2) noexcept {
  if (!exact_scales_apply(s, bias, output_scale)) return false;
  dyadic128 v;
  for (std::size_t t = 0; t < n; ++t) {
    if (!std::isfinite(terms[t]) || !v.add(dyadic128::from_double(terms[t]))) return false;
  }
  // A zero sum or scale product makes a zero product (of some sign), which
  // the bias replaces; only a zero y2 needs big_dyadic's rules for its sign.
  if (!v.multiply(dyadic128::from_double(s))) return false;
  if (has_bias && !v.add(dyadic128::from_double(static_cast<double>(bias)))) return false;
  if (v.is_zero()) return false;
  const dyadic128 o = dyadic128::from_double(static_cast<double>(output_scale));
  if (rule == output_scale_rule::divide) {
    *value = v.divide_round_to_odd(o);
  } else {
    dyadic128 scaled = v;
    if (!scaled.multiply(o)) return false;
    *value = scaled.round_to_odd();
  }
  *y2 = v.round_to_odd();
  return true;
}
#else
inline bool exact_post_processing_in_128_bits(const double*, std::size_t, double, float, bool, float,
                                              output_scale_rule, double*, double*) noexcept {
  return false;  // no 128-bit integers: big_dyadic serves every element
}
#endif

// The scale product s = sa * sb of element (i, j), exact in a double; 1
// with the scales on the operands.
inline double scale_product(const scale_options& s, bool scales_on_operands, std::size_t i,
                            std::size_t j) noexcept {
  if (scales_on_operands) return 1.0;
  const float sa = s.a_rows ? s.a_rows[i] : s.a;
  const float sb = s.b_columns ? s.b_columns[j] : s.b;
  return static_cast<double>(sa) * static_cast<double>(sb);
}

// Element (i, j) of C under exact(true), from its exact sum (finite_sum:
// no Inf or NaN among its terms) and acc, that sum rounded to float32 (the
// model's accumulator): the value the output conversion rounds, and amax
// fed with the y2 it comes from. The scale product s = sa * sb (1 with the
// scales on the operands) is exact in a double. Where
// exact_post_processing does not apply, the float32 path's y3 and its y2.
// The reference (below) and the fast kernels (kernels/driver.hpp, from
// their float64 terms) both end here.
inline double exact_output_value(const big_dyadic& sum, bool finite_sum, float acc,
                                 const scale_options& s, bool scales_on_operands, std::size_t i,
                                 std::size_t j, amax_tracker& amax) noexcept {
  double value = 0.0;
  double exact_y2 = 0.0;
  if (finite_sum && exact_post_processing(sum, scale_product(s, scales_on_operands, i, j),
                                          s.bias ? s.bias[j] : 0.0f, s.bias != nullptr, s.output,
                                          s.output_rule, &value, &exact_y2)) {
    amax.add(static_cast<float>(exact_y2));  // C comes from the exact y2
    return value;
  }
  float y3 = 0.0f;
  apply_epilogue(s, &acc, i, j, 1, &y3, amax);
  return static_cast<double>(y3);
}

inline double exact_output_value(const wide_sum& sum, float acc, const scale_options& s,
                                 bool scales_on_operands, std::size_t i, std::size_t j,
                                 amax_tracker& amax) noexcept {
  const bool finite = !sum.is_special();
  return exact_output_value(finite ? big_dyadic::from_sum(sum) : big_dyadic(), finite, acc, s,
                            scales_on_operands, i, j, amax);
}

// Element (i, j) from its exact sum as float64 terms, each exact (the fast
// kernels': kernels/driver.hpp): the 128-bit path where it applies, else
// big_dyadic's, with the scales on the result.
inline double exact_output_value(const double* terms, std::size_t n, float acc, const scale_options& s,
                                 std::size_t i, std::size_t j, amax_tracker& amax) noexcept {
  double value = 0.0;
  double exact_y2 = 0.0;
  if (exact_post_processing_in_128_bits(terms, n, scale_product(s, false, i, j), s.bias ? s.bias[j] : 0.0f,
                                        s.bias != nullptr, s.output, s.output_rule, &value, &exact_y2)) {
    amax.add(static_cast<float>(exact_y2));
    return value;
  }
  big_dyadic sum;
  bool finite = true;
  for (std::size_t t = 0; t < n; ++t) {
    finite = finite && std::isfinite(terms[t]);
    if (finite) sum.add(big_dyadic::from_double(terms[t]));
  }
  return exact_output_value(sum, finite, acc, s, false, i, j, amax);
}

}  // namespace mf::hybrid::detail
