// An independent reference model of the minifloat formats, for the
// conformance tests. It shares no code and no algorithm with the library:
//
//  * decoding evaluates the value formula the way the ONNX specification
//    writes it, (-1)^s * 2^(e-bias) * (1 + m/2^M) for a normal encoding and
//    (-1)^s * 2^(1-bias) * m/2^M for a subnormal one, with std::ldexp in
//    double, and classifies the encoding from the format's kind;
//  * encoding enumerates the format's finite non-negative magnitudes into a
//    sorted table (plus a "virtual next" value max + ulp(max) that marks
//    overflow), finds the neighbours a <= |x| < b by binary search and picks
//    one by comparing with the midpoint / by sign / with the stochastic rule,
//    then applies the overflow and special-value rules of the specification
//    and looks the chosen magnitude's encoding up in the value -> encoding
//    table.
//
// A format is described by runtime parameters (E, M, bias, kind), never by
// the library's traits. Nothing here includes a library header.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <map>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace mfref {

// How a format spends its encodings on zero, infinity and NaN.
enum class kind {
  ieee,    // Inf = exponent all ones, mantissa 0; NaN = exponent all ones,
           // mantissa != 0; signed zero.
  fn,      // no Inf; NaN only S.1..1.1..1; signed zero.
  fnuz,    // no Inf; NaN only the pattern of -0 (sign bit alone); no -0.
  finite,  // no Inf, no NaN; signed zero (the OCP MX element types).
  fnu,     // no sign bit, no zero, no subnormals; all ones is NaN (e8m0fnu).
};

enum class value_class { zero, subnormal, normal, infinite, nan };

enum class round_mode {
  nearest_even,
  toward_zero,
  toward_positive,
  toward_negative,
  stochastic,
};

enum class overflow_mode { non_saturating, saturating };

inline const char* to_string(round_mode mode) {
  switch (mode) {
    case round_mode::nearest_even: return "nearest_even";
    case round_mode::toward_zero: return "toward_zero";
    case round_mode::toward_positive: return "toward_positive";
    case round_mode::toward_negative: return "toward_negative";
    case round_mode::stochastic: return "stochastic";
  }
  return "?";
}

inline const char* to_string(overflow_mode mode) {
  return mode == overflow_mode::saturating ? "saturating" : "non_saturating";
}

inline const char* to_string(value_class c) {
  switch (c) {
    case value_class::zero: return "zero";
    case value_class::subnormal: return "subnormal";
    case value_class::normal: return "normal";
    case value_class::infinite: return "infinite";
    case value_class::nan: return "nan";
  }
  return "?";
}

struct format_spec {
  const char* name;
  int exponent_bits;
  int mantissa_bits;
  int bias;
  kind encoding;
};

// The formats of the specification, as a table of parameters.
inline const std::vector<format_spec>& specification_formats() {
  static const std::vector<format_spec> formats = {
      {"e4m3fn", 4, 3, 7, kind::fn},
      {"e4m3fnuz", 4, 3, 8, kind::fnuz},
      {"e5m2", 5, 2, 15, kind::ieee},
      {"e5m2fnuz", 5, 2, 16, kind::fnuz},
      {"e2m1fn", 2, 1, 1, kind::finite},
      {"e2m3fn", 2, 3, 1, kind::finite},
      {"e3m2fn", 3, 2, 3, kind::finite},
      {"e8m0fnu", 8, 0, 127, kind::fnu},
      {"e4m3", 4, 3, 7, kind::ieee},
      {"e3m4", 3, 4, 3, kind::ieee},
      {"e4m3b11fnuz", 4, 3, 11, kind::fnuz},
      {"binary16", 5, 10, 15, kind::ieee},
      {"bfloat16", 8, 7, 127, kind::ieee},
  };
  return formats;
}

struct decoded {
  double value;  // NaN (with the sign the spec gives it) for a NaN encoding
  value_class cls;
};

template <class T>
using wide_t =
    typename std::conditional<std::is_same<T, long double>::value, long double,
                              double>::type;

class reference {
 public:
  explicit reference(const format_spec& spec)
      : spec_(spec),
        signed_(spec.encoding != kind::fnu),
        field_bits_(spec.exponent_bits + spec.mantissa_bits),
        width_((signed_ ? 1 : 0) + field_bits_),
        sign_bit_(signed_ ? (1u << field_bits_) : 0u) {
    if (spec.exponent_bits < 1 || spec.mantissa_bits < 0 || width_ > 16) {
      throw std::invalid_argument("unsupported format parameters");
    }
    // value -> encoding, over the encodings without the sign bit.
    std::map<double, unsigned> by_value;
    for (unsigned code = 0; code < (1u << field_bits_); ++code) {
      const decoded d = decode(code);
      if (d.cls == value_class::nan || d.cls == value_class::infinite) continue;
      if (!by_value.emplace(d.value, code).second) {
        throw std::logic_error("two encodings with one value");
      }
    }
    for (const auto& entry : by_value) {
      magnitudes_.push_back(entry.first);
      codes_.push_back(entry.second);
    }
    max_ = magnitudes_.back();
    ulp_of_max_ = std::ldexp(1.0, std::ilogb(max_) - spec.mantissa_bits);
    table_ = magnitudes_;
    table_.push_back(max_ + ulp_of_max_);  // the virtual next value
  }

  const format_spec& spec() const { return spec_; }
  const char* name() const { return spec_.name; }
  kind encoding_kind() const { return spec_.encoding; }
  bool is_signed() const { return signed_; }
  bool has_negative_zero() const {
    return spec_.encoding == kind::ieee || spec_.encoding == kind::fn ||
           spec_.encoding == kind::finite;
  }
  int width() const { return width_; }
  unsigned encoding_count() const { return 1u << width_; }
  unsigned sign_bit() const { return sign_bit_; }

  // Sorted finite non-negative magnitudes and their encodings.
  const std::vector<double>& magnitudes() const { return magnitudes_; }
  const std::vector<unsigned>& magnitude_codes() const { return codes_; }
  // magnitudes() followed by the virtual next value max + ulp(max).
  const std::vector<double>& table() const { return table_; }
  double max_finite() const { return max_; }
  double virtual_next() const { return table_.back(); }
  unsigned max_code(bool negative = false) const {
    return codes_.back() | (negative ? sign_bit_ : 0u);
  }
  double smallest_positive() const {
    return magnitudes_[magnitudes_.front() == 0.0 ? 1 : 0];
  }

  // ---- decoding ------------------------------------------------------
  decoded decode(unsigned code) const {
    const int e_bits = spec_.exponent_bits;
    const int m_bits = spec_.mantissa_bits;
    const unsigned s = signed_ ? (code >> field_bits_) & 1u : 0u;
    const unsigned e = (code >> m_bits) & ((1u << e_bits) - 1u);
    const unsigned m = code & ((1u << m_bits) - 1u);
    const bool e_all_ones = e == (1u << e_bits) - 1u;
    const bool m_all_ones = m == (1u << m_bits) - 1u;
    const double sign = s ? -1.0 : 1.0;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    switch (spec_.encoding) {
      case kind::ieee:
        if (e_all_ones) {
          if (m == 0) {
            return {sign * std::numeric_limits<double>::infinity(),
                    value_class::infinite};
          }
          return {std::copysign(nan, sign), value_class::nan};
        }
        break;
      case kind::fn:
        if (e_all_ones && m_all_ones) {
          return {std::copysign(nan, sign), value_class::nan};
        }
        break;
      case kind::fnuz:
        if (s == 1 && e == 0 && m == 0) return {nan, value_class::nan};
        break;
      case kind::finite:
        break;
      case kind::fnu:
        if (e_all_ones && m_all_ones) return {nan, value_class::nan};
        break;
    }
    const double fraction = std::ldexp(static_cast<double>(m), -m_bits);
    if (e == 0 && spec_.encoding != kind::fnu) {
      if (m == 0) return {sign * 0.0, value_class::zero};
      return {sign * std::ldexp(1.0, 1 - spec_.bias) * fraction,
              value_class::subnormal};
    }
    return {sign * std::ldexp(1.0, static_cast<int>(e) - spec_.bias) *
                (1.0 + fraction),
            value_class::normal};
  }

  // ---- the special-value rules --------------------------------------
  // The canonical NaN a conversion produces for a NaN input of this sign.
  unsigned nan_code(bool negative) const {
    const int m_bits = spec_.mantissa_bits;
    const unsigned exponent_all_ones = ((1u << spec_.exponent_bits) - 1u) << m_bits;
    switch (spec_.encoding) {
      case kind::ieee:  // quiet NaN: exponent all ones, top mantissa bit set
        return exponent_all_ones | (1u << (m_bits - 1)) |
               (negative ? sign_bit_ : 0u);
      case kind::fn:
        return ((1u << field_bits_) - 1u) | (negative ? sign_bit_ : 0u);
      case kind::fnuz:
        return sign_bit_;
      case kind::finite:
        return max_code(false);  // +max whatever the sign
      case kind::fnu:
        return (1u << field_bits_) - 1u;
    }
    return 0;
  }

  unsigned inf_code(bool negative, overflow_mode overflow) const {
    const unsigned sign = negative ? sign_bit_ : 0u;
    switch (spec_.encoding) {
      case kind::ieee:
        if (overflow == overflow_mode::saturating) return max_code(negative);
        return (((1u << spec_.exponent_bits) - 1u) << spec_.mantissa_bits) | sign;
      case kind::fn:
        if (overflow == overflow_mode::saturating) return max_code(negative);
        return nan_code(negative);
      case kind::fnuz:
        return nan_code(negative);  // NaN even when saturating
      case kind::finite:
        return max_code(negative);
      case kind::fnu:
        if (overflow == overflow_mode::saturating && !negative) return max_code();
        return nan_code(false);
    }
    return 0;
  }

  unsigned zero_code(bool negative) const {
    return negative && has_negative_zero() ? sign_bit_ : 0u;
  }

  // The encoding of a finite value whose rounded magnitude exceeds max.
  unsigned overflow_code(bool negative, round_mode mode,
                         overflow_mode overflow) const {
    if (spec_.encoding == kind::finite || overflow == overflow_mode::saturating) {
      return max_code(negative);
    }
    bool to_infinity = false;
    switch (mode) {
      case round_mode::nearest_even:
      case round_mode::stochastic:
        to_infinity = true;
        break;
      case round_mode::toward_zero:
        to_infinity = false;
        break;
      case round_mode::toward_positive:
        to_infinity = !negative;
        break;
      case round_mode::toward_negative:
        to_infinity = negative;
        break;
    }
    if (!to_infinity) return max_code(negative);
    if (spec_.encoding == kind::ieee) {
      return (((1u << spec_.exponent_bits) - 1u) << spec_.mantissa_bits) |
             (negative ? sign_bit_ : 0u);
    }
    return nan_code(negative);
  }

  // ---- encoding --------------------------------------------------------
  // Index into table() of the largest entry <= magnitude; -1 below the
  // smallest (only possible without zero, e8m0fnu).
  // A branch-free binary search written out rather than std::upper_bound:
  // the tests' own code is built at -Og in CI, where the standard
  // algorithm's iterator helpers stay calls, and the search was most of a
  // bulk sweep's time.
  template <class T>
  std::ptrdiff_t lower_index(T magnitude) const {
    using W = wide_t<T>;
    const W v = static_cast<W>(magnitude);
    const double* entries = table_.data();
    const double* base = entries;  // every entry before base is <= v
    std::size_t count = table_.size();
    while (count > 1) {
      const std::size_t half = count / 2;
      base += v < static_cast<W>(base[half]) ? 0 : half;
      count -= half;
    }
    const std::ptrdiff_t at_most_v = (base - entries) + (v < static_cast<W>(*base) ? 0 : 1);
    return at_most_v - 1;
  }

  // Encodes x (double, long double or float) in the given mode. For the
  // stochastic mode, `random` and `random_bits` (1..32) are the rule's r
  // and R.
  // The arithmetic is done in double (long double for long double input),
  // where every value and midpoint of every format, and the virtual next
  // value 2^128 of bfloat16 and e8m0fnu, are exact.
  template <class T>
  unsigned encode(T x, round_mode mode,
                  overflow_mode overflow = overflow_mode::non_saturating,
                  std::uint32_t random = 0, int random_bits = 0) const {
    using W = wide_t<T>;
    const W wide = static_cast<W>(x);
    if (std::isnan(wide)) return nan_code(std::signbit(wide));
    if (std::isinf(wide)) return inf_code(std::signbit(wide), overflow);
    return decide(lower_index(std::fabs(wide)), wide, mode, overflow, random,
                  random_bits);
  }

  // The choice for a finite x given the index of its lower neighbour (as
  // lower_index(|x|) returns it). Shared by encode() and the sweep.
  template <class T>
  unsigned decide(std::ptrdiff_t lower, T x, round_mode mode,
                  overflow_mode overflow, std::uint32_t random,
                  int random_bits) const {
    switch (mode) {
      case round_mode::nearest_even:
        return decide_as<round_mode::nearest_even>(lower, x, overflow, random, random_bits);
      case round_mode::toward_zero:
        return decide_as<round_mode::toward_zero>(lower, x, overflow, random, random_bits);
      case round_mode::toward_positive:
        return decide_as<round_mode::toward_positive>(lower, x, overflow, random, random_bits);
      case round_mode::toward_negative:
        return decide_as<round_mode::toward_negative>(lower, x, overflow, random, random_bits);
      case round_mode::stochastic:
        return decide_as<round_mode::stochastic>(lower, x, overflow, random, random_bits);
    }
    throw std::invalid_argument("unknown rounding mode");
  }

  // decide() with the mode fixed at compile time (the exhaustive sweep's
  // inner loop).
  template <round_mode Mode, class T>
  unsigned decide_as(std::ptrdiff_t lower, T x, overflow_mode overflow,
                     std::uint32_t random, int random_bits) const {
    static_assert(std::is_same<T, double>::value || std::is_same<T, long double>::value,
                  "decide in double or long double");
    const bool negative = std::signbit(x);
    const T magnitude = std::fabs(x);
    if (!signed_) {
      if (negative && magnitude != 0) return nan_code(true);
      if (lower < 0) return codes_.front();  // below the smallest value
    }
    const std::size_t virtual_index = magnitudes_.size();
    std::size_t chosen;
    if (static_cast<std::size_t>(lower) >= virtual_index) {
      chosen = virtual_index;
    } else if (magnitude == static_cast<T>(table_[lower])) {
      chosen = static_cast<std::size_t>(lower);
    } else {
      const T a = static_cast<T>(table_[lower]);
      const T b = static_cast<T>(table_[lower + 1]);
      bool up = false;
      if constexpr (Mode == round_mode::nearest_even) {
        const T midpoint = (a + b) / 2;
        if (magnitude != midpoint) {
          up = magnitude > midpoint;
        } else {
          // The tie goes to the neighbour whose value / (b - a) is even.
          up = std::fmod(a / (b - a), T(2)) != 0;
        }
      } else if constexpr (Mode == round_mode::toward_zero) {
        up = false;
      } else if constexpr (Mode == round_mode::toward_positive) {
        up = !negative;
      } else if constexpr (Mode == round_mode::toward_negative) {
        up = negative;
      } else {
        if (random_bits < 1 || random_bits > 32) {
          throw std::invalid_argument("random_bits must be 1..32");
        }
        // Exact: a <= |x| < b <= 2a (or a == 0), so |x| - a is exact by
        // Sterbenz, and b - a is a power of two.
        const T scaled =
            std::floor((magnitude - a) / (b - a) * std::ldexp(T(1), random_bits));
        const std::uint64_t d = static_cast<std::uint64_t>(scaled);
        const std::uint64_t r = random & ((std::uint64_t{1} << random_bits) - 1u);
        up = d + r >= (std::uint64_t{1} << random_bits);
      }
      chosen = static_cast<std::size_t>(lower) + (up ? 1u : 0u);
    }
    if (chosen == virtual_index) return overflow_code(negative, Mode, overflow);
    if (magnitudes_[chosen] == 0.0) return zero_code(negative);
    return codes_[chosen] | (negative ? sign_bit_ : 0u);
  }

  // D of the stochastic rule for a finite |x| strictly between two
  // neighbours (0 when x is representable or beyond the virtual next value).
  template <class X>
  std::uint64_t stochastic_fraction(X x, int random_bits) const {
    using T = wide_t<X>;
    const T magnitude = std::fabs(static_cast<T>(x));
    const std::ptrdiff_t lower = lower_index(magnitude);
    if (lower < 0 || static_cast<std::size_t>(lower) >= magnitudes_.size()) return 0;
    const T a = static_cast<T>(table_[lower]);
    const T b = static_cast<T>(table_[lower + 1]);
    return static_cast<std::uint64_t>(
        std::floor((magnitude - a) / (b - a) * std::ldexp(T(1), random_bits)));
  }

 private:
  format_spec spec_;
  bool signed_;
  int field_bits_;
  int width_;
  unsigned sign_bit_;
  std::vector<double> magnitudes_;
  std::vector<unsigned> codes_;
  std::vector<double> table_;
  double max_ = 0;
  double ulp_of_max_ = 0;
};

// The fast variant for exhaustive sweeps: inputs come in non-decreasing
// magnitude, so the lower neighbour's index only ever moves forward (O(1)
// amortised per input). The decision is reference::decide, the same as the
// binary-search encoder's.
class sweeper {
 public:
  explicit sweeper(const reference& ref) : ref_(&ref) {}

  // Positions the sweep at an arbitrary magnitude (binary search).
  void seek(double magnitude) {
    lower_ = ref_->lower_index(magnitude);
    magnitude_ = magnitude;
  }
  // Moves to a magnitude >= the previous one.
  void advance(double magnitude) {
    if (magnitude < magnitude_) throw std::logic_error("sweep went backwards");
    const std::vector<double>& table = ref_->table();
    const std::ptrdiff_t last = static_cast<std::ptrdiff_t>(table.size()) - 1;
    while (lower_ < last && table[static_cast<std::size_t>(lower_ + 1)] <= magnitude) {
      ++lower_;
    }
    magnitude_ = magnitude;
  }
  // Encodes a finite x with |x| equal to the current magnitude.
  unsigned encode(double x, round_mode mode, overflow_mode overflow) const {
    return ref_->decide(lower_, x, mode, overflow, 0u, 0);
  }
  template <round_mode Mode>
  unsigned encode_as(double x, overflow_mode overflow) const {
    return ref_->decide_as<Mode>(lower_, x, overflow, 0u, 0);
  }

 private:
  const reference* ref_;
  std::ptrdiff_t lower_ = -1;
  double magnitude_ = 0;
};

}  // namespace mfref
