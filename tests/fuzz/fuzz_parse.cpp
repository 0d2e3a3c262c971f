// Fuzz target: mf::parse (decimal and hex-float text) against an exact
// rational reference. Any text may go in (no crash, no sanitizer report);
// text of the grammar
//   [+-]? digits [. digits]? ([eE] [+-]? digits)?          (decimal)
//   [+-]? 0[xX] hexdigits [. hexdigits]? [pP] [+-]? digits   (hex-float)
// has the exact value (-1)^s * N * 10^k * 2^b (N an integer of all the
// digits), which a small big-integer comparator holds against every value
// and midpoint of the format (tests/support/exact_rounding.hpp's
// round_exact: nearest-even, non-saturating): parse must give that encoding.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <minifloat/minifloat.hpp>

#include "support/exact_rounding.hpp"

namespace {

// A non-negative big integer, 32-bit limbs, least significant first.
struct big {
  std::vector<std::uint32_t> limbs;

  void multiply_add(std::uint32_t factor, std::uint32_t addend) {
    std::uint64_t carry = addend;
    for (auto& limb : limbs) {
      const std::uint64_t product = std::uint64_t{limb} * factor + carry;
      limb = static_cast<std::uint32_t>(product);
      carry = product >> 32;
    }
    if (carry != 0) limbs.push_back(static_cast<std::uint32_t>(carry));
  }
  void shift_left(int bits) {
    if (bits <= 0) return;
    limbs.insert(limbs.begin(), static_cast<std::size_t>(bits / 32), 0u);
    const int rest = bits % 32;
    if (rest == 0) return;
    std::uint32_t carry = 0;
    for (auto& limb : limbs) {
      const std::uint32_t next = limb >> (32 - rest);
      limb = (limb << rest) | carry;
      carry = next;
    }
    if (carry != 0) limbs.push_back(carry);
  }
  void trim() {
    while (!limbs.empty() && limbs.back() == 0) limbs.pop_back();
  }
  bool is_zero() const {
    for (auto limb : limbs) {
      if (limb != 0) return false;
    }
    return true;
  }
};

int compare(big a, big b) {
  a.trim();
  b.trim();
  if (a.limbs.size() != b.limbs.size()) return a.limbs.size() < b.limbs.size() ? -1 : 1;
  for (std::size_t i = a.limbs.size(); i-- > 0;) {
    if (a.limbs[i] != b.limbs[i]) return a.limbs[i] < b.limbs[i] ? -1 : 1;
  }
  return 0;
}

// |value| = digits * 10^ten * 2^two.
struct exact_text {
  bool negative = false;
  big digits;
  int ten = 0;
  int two = 0;
};

bool is_digit(char c, int base) {
  if (c >= '0' && c <= '9') return true;
  return base == 16 && ((c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
}
std::uint32_t digit_value(char c) {
  if (c >= '0' && c <= '9') return static_cast<std::uint32_t>(c - '0');
  if (c >= 'a' && c <= 'f') return static_cast<std::uint32_t>(c - 'a' + 10);
  return static_cast<std::uint32_t>(c - 'A' + 10);
}

// Reads the grammar above; false for anything else (and for exponents so
// large that the reference would be slow: those are still parsed, unchecked).
bool read_exact(const std::string& s, exact_text& x) {
  std::size_t i = 0;
  if (i < s.size() && (s[i] == '+' || s[i] == '-')) x.negative = s[i++] == '-';
  int base = 10;
  if (i + 1 < s.size() && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
    base = 16;
    i += 2;
  }
  const std::uint32_t radix = static_cast<std::uint32_t>(base);
  std::size_t count = 0;
  int fraction_digits = 0;
  for (; i < s.size() && is_digit(s[i], base); ++i, ++count) {
    x.digits.multiply_add(radix, digit_value(s[i]));
  }
  if (i < s.size() && s[i] == '.') {
    for (++i; i < s.size() && is_digit(s[i], base); ++i, ++count, ++fraction_digits) {
      x.digits.multiply_add(radix, digit_value(s[i]));
    }
  }
  if (count == 0 || count > 60) return false;
  const char marker = base == 16 ? 'p' : 'e';
  int exponent = 0;
  if (i < s.size() && (s[i] == marker || s[i] == marker - 32)) {
    ++i;
    bool exponent_negative = false;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) exponent_negative = s[i++] == '-';
    std::size_t exponent_digits = 0;
    for (; i < s.size() && s[i] >= '0' && s[i] <= '9'; ++i, ++exponent_digits) {
      if (exponent_digits >= 4) return false;
      exponent = exponent * 10 + (s[i] - '0');
    }
    if (exponent_digits == 0) return false;
    if (exponent_negative) exponent = -exponent;
  } else if (base == 16) {
    return false;  // a hex-float needs its binary exponent
  }
  if (i != s.size()) return false;
  if (base == 16) {
    x.two = exponent - 4 * fraction_digits;
  } else {
    x.ten = exponent - fraction_digits;
    if (x.ten < -400 || x.ten > 400) return false;
  }
  return true;
}

// sign(|x| - m) for a double m >= 0, exactly.
int compare_magnitude(const exact_text& x, double m) {
  if (m == 0) return x.digits.is_zero() ? 0 : 1;
  int e = 0;
  const double f = std::frexp(m, &e);  // m = f * 2^e, f in [0.5, 1)
  const auto integer = static_cast<std::uint64_t>(std::ldexp(f, 53));  // m = integer * 2^(e-53)
  big left = x.digits;
  big right;
  right.limbs = {static_cast<std::uint32_t>(integer), static_cast<std::uint32_t>(integer >> 32)};
  // digits * 5^ten * 2^(ten + two)  vs  integer * 2^(e - 53)
  for (int i = 0; i < x.ten; ++i) left.multiply_add(5, 0);
  for (int i = 0; i < -x.ten; ++i) right.multiply_add(5, 0);
  const int left_two = x.ten + x.two;
  const int right_two = e - 53;
  const int low = left_two < right_two ? left_two : right_two;
  left.shift_left(left_two - low);
  right.shift_left(right_two - low);
  return compare(left, right);
}

template <class T>
void check(const std::string& text) {
  T parsed{};
  const bool accepted = mf::parse(text, parsed);
  exact_text x;
  if (!read_exact(text, x)) return;
  if (!accepted) std::abort();  // the grammar is a subset of strtod's
  const auto compare = [&](double m) {
    // sign(value - m), value = +-|x|.
    if (x.negative) {
      return m <= 0 ? -compare_magnitude(x, -m) : (x.digits.is_zero() ? (m > 0 ? -1 : 0) : -1);
    }
    return m >= 0 ? compare_magnitude(x, m) : 1;
  };
  const mft::expected_encoding want = mft::round_exact<T>(compare, x.negative);
  if (want.any_canonical_nan || parsed.bits() != want.bits) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1 || size > 200) return 0;
  const std::string text(reinterpret_cast<const char*>(data) + 1, size - 1);
  switch (data[0] % 6u) {
    case 0: check<mf::e4m3fn>(text); break;
    case 1: check<mf::e5m2>(text); break;
    case 2: check<mf::e4m3fnuz>(text); break;
    case 3: check<mf::e2m1fn>(text); break;
    case 4: check<mf::e8m0fnu>(text); break;
    default: check<mf::bfloat16>(text); break;
  }
  return 0;
}
