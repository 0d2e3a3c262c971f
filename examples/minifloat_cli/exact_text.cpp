#include "exact_text.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

namespace minifloat_cli {
namespace {

// A non-negative integer in base 10^9, least significant limb first: just
// enough arithmetic to multiply by small factors and print.
class decimal_integer {
 public:
  explicit decimal_integer(std::uint64_t value) {
    do {
      limbs_.push_back(static_cast<std::uint32_t>(value % base));
      value /= base;
    } while (value != 0);
  }

  // *= factor^count, in chunks that keep limb * chunk below 2^64.
  void multiply_by_power(std::uint32_t factor, int count) {
    while (count > 0) {
      std::uint64_t chunk = 1;
      while (count > 0 && chunk * factor <= (std::uint64_t{1} << 32)) {
        chunk *= factor;
        --count;
      }
      multiply(chunk);
    }
  }

  std::string digits() const {
    std::string text = std::to_string(limbs_.back());
    char limb[16];
    for (std::size_t i = limbs_.size() - 1; i-- > 0;) {
      std::snprintf(limb, sizeof limb, "%09u", static_cast<unsigned>(limbs_[i]));
      text += limb;
    }
    return text;
  }

 private:
  static constexpr std::uint64_t base = 1000000000u;

  void multiply(std::uint64_t factor) {
    std::uint64_t carry = 0;
    for (auto& limb : limbs_) {
      const std::uint64_t product = limb * factor + carry;
      limb = static_cast<std::uint32_t>(product % base);
      carry = product / base;
    }
    while (carry != 0) {
      limbs_.push_back(static_cast<std::uint32_t>(carry % base));
      carry /= base;
    }
  }

  std::vector<std::uint32_t> limbs_;
};

}  // namespace

std::string exact_decimal(double value) {
  if (std::isnan(value)) return "nan";
  if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
  const std::string sign = std::signbit(value) ? "-" : "";
  if (value == 0) return sign + "0";

  // |value| = significand * 2^exponent with an odd integer significand.
  int exponent = 0;
  const double fraction = std::frexp(std::fabs(value), &exponent);
  auto significand = static_cast<std::uint64_t>(std::ldexp(fraction, 53));
  exponent -= 53;
  while ((significand & 1u) == 0) {
    significand >>= 1;
    ++exponent;
  }
  decimal_integer number(significand);
  if (exponent >= 0) {
    number.multiply_by_power(2, exponent);
    return sign + number.digits();
  }
  // m * 2^-k = m * 5^k / 10^k: the digits of m * 5^k with the point k places
  // from the right.
  const int places = -exponent;
  number.multiply_by_power(5, places);
  std::string digits = number.digits();
  const auto point = static_cast<std::size_t>(places);
  if (digits.size() <= point) {
    digits.insert(0, point - digits.size() + 1, '0');
  }
  digits.insert(digits.size() - point, ".");
  return sign + digits;
}

std::string hex_float(double value) {
  if (std::isnan(value)) return "nan";
  char text[64];
  std::snprintf(text, sizeof text, "%a", value);
  return text;
}

std::string hex(std::uint64_t value, int digits) {
  static constexpr char hex_digit[] = "0123456789abcdef";
  std::string text = "0x";
  for (int shift = 4 * (digits - 1); shift >= 0; shift -= 4) {
    text += hex_digit[(value >> shift) & 0xFu];
  }
  return text;
}

}  // namespace minifloat_cli
