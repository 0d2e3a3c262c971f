// encode and decode: one line in, one line out, in order, through the
// library's conversions (mf::round_to, mf::round_to_stochastic and the exact
// decode).
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <type_traits>
#include <vector>

#include <minifloat/random.hpp>

#include "commands.hpp"
#include "encoding_facts.hpp"
#include "line_io.hpp"

namespace minifloat_cli {
namespace {

std::string_view trim_blanks(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

bool has_hex_prefix(std::string_view text) {
  return text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
}

int hex_digit_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Hex digits (no prefix) into value; false if any is not a hex digit or the
// value needs more than 64 bits.
bool parse_hex_digits(std::string_view digits, std::uint64_t& value) {
  if (digits.empty()) return false;
  value = 0;
  for (const char c : digits) {
    const int digit = hex_digit_value(c);
    if (digit < 0 || (value >> 60) != 0) return false;
    value = (value << 4) | static_cast<std::uint64_t>(digit);
  }
  return true;
}

// A source value by the tool's one rule for float text (command_line.hpp,
// read_float): the type's bits as "0x" and hex digits, or a number read into
// the source type. Spaces and tabs around it are the line's, not the value's.
template <class Source>
Source source_value(std::string_view line, std::uint64_t line_number) {
  constexpr bool is_float = std::is_same<Source, float>::value;
  const std::string_view text = trim_blanks(line);
  if (text.empty()) throw usage_error("line " + std::to_string(line_number) + ": no value");
  std::uint64_t bits = 0;
  const float_reading r =
      read_float(text, is_float ? mf::format_id::float32 : mf::format_id::float64, bits);
  if (r == float_reading::out_of_range) {
    throw usage_error("line " + std::to_string(line_number) + ": out of " +
                      (is_float ? "float32" : "float64") + "'s range: " + quote_line(line));
  }
  if (r != float_reading::ok) {
    throw usage_error("line " + std::to_string(line_number) + ": not a number: " +
                      quote_line(line));
  }
  if constexpr (is_float) {
    return mf::detail::bit_cast<float>(static_cast<std::uint32_t>(bits));
  } else {
    return mf::detail::bit_cast<double>(bits);
  }
}

template <class T, class Source>
void encode_lines(const options& o) {
  line_reader in(stdin);
  output_buffer out(stdout);
  const mf::rounding rounding = library_rounding(o.mode);
  const mf::overflow overflow = library_overflow(o);
  const bool stochastic = o.mode == rounding_mode::stochastic;

  std::string_view line;
  for (std::uint64_t index = 0; in.next(line); ++index) {
    const Source value = source_value<Source>(line, in.line_number());
    T result{};
    if (stochastic) {
      result = mf::round_to_stochastic<T>(
          value, mf::stochastic_random_bits(o.seed, index, o.random_bits), overflow,
          o.random_bits);
    } else {
      result = mf::round_to<T>(value, rounding, overflow);
    }
    out.write_hex(result.bits(), hex_digits<T>());
    out.put('\n');
  }
}

template <class T>
void decode_lines(const options& o) {
  line_reader in(stdin);
  output_buffer out(stdout);
  const bool to_double = o.to == binary_type::f64;
  const int digits = to_double ? 16 : 8;
  // Every answer, computed once: at most 2^16 of them.
  std::vector<std::uint64_t> answer(encoding_count<T>());
  for (std::uint32_t e = 0; e < encoding_count<T>(); ++e) {
    const float value = decode<T>(e);
    answer[e] = to_double ? mf::detail::bit_cast<std::uint64_t>(static_cast<double>(value))
                          : mf::detail::bit_cast<std::uint32_t>(value);
  }

  std::string_view line;
  while (in.next(line)) {
    const std::string_view text = trim_blanks(line);
    std::uint64_t encoding = 0;
    if (!parse_hex_digits(has_hex_prefix(text) ? text.substr(2) : text, encoding)) {
      throw usage_error("line " + std::to_string(in.line_number()) +
                        ": not a hex encoding: " + quote_line(line));
    }
    if (encoding >= encoding_count<T>()) {
      throw usage_error("line " + std::to_string(in.line_number()) + ": not " + format_name(o) +
                        " bits (" + std::to_string(T::format::bits) +
                        " bits wide): " + quote_line(line));
    }
    out.write_hex(answer[encoding], digits);
    out.put('\n');
  }
}

}  // namespace

float float_line_value(std::string_view line, std::uint64_t line_number) {
  return source_value<float>(line, line_number);
}

int run_encode(const options& o) {
  mf::visit_minifloat(o.format, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (o.from == binary_type::f64) {
      encode_lines<T, double>(o);
    } else {
      encode_lines<T, float>(o);
    }
  });
  return 0;
}

int run_decode(const options& o) {
  mf::visit_minifloat(o.format, [&](auto tag) { decode_lines<typename decltype(tag)::type>(o); });
  return 0;
}

}  // namespace minifloat_cli
