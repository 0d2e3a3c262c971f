#include "command_line.hpp"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>

#include <minifloat/cmath.hpp>
#include <minifloat/convert.hpp>
#include <minifloat/limits.hpp>
#include <minifloat/format_registry.hpp>

namespace minifloat_cli {
namespace {

struct command_entry {
  std::string_view name;
  command what;
};

constexpr command_entry commands[] = {
    {"formats", command::formats},
    {"info", command::info},
    {"table", command::table},
    {"encode", command::encode},
    {"decode", command::decode},
    {"vectors", command::vectors},
    {"calibrate", command::calibrate},
    {"matmul", command::matmul},
    {"eltwise", command::eltwise},
    {"vectors-matmul", command::vectors_matmul},
    {"quantize-linear", command::quantize_linear},
    {"dequantize-linear", command::dequantize_linear},
    {"cast", command::cast},
};

using command_set = std::uint32_t;

constexpr command_set only(command c) { return command_set{1} << static_cast<unsigned>(c); }

constexpr command_set conversions = only(command::encode) | only(command::vectors);
constexpr command_set matmuls = only(command::matmul) | only(command::vectors_matmul);
constexpr command_set hybrid = matmuls | only(command::eltwise);
constexpr command_set onnx = only(command::quantize_linear) | only(command::dequantize_linear);

struct option_entry {
  std::string_view name;
  bool takes_value;
  command_set commands;  // the commands that accept it
};

// Every option of every command. What each one means is in the command's
// --help; which of them a request actually uses is checked by the command.
constexpr option_entry options[] = {
    // table, encode, decode, vectors
    {"--csv", false, only(command::table) | only(command::vectors)},
    {"--markdown", false, only(command::table)},
    {"--round", true, conversions | hybrid},
    {"--saturate", false, conversions | hybrid | only(command::cast)},
    {"--seed", true, conversions | hybrid},
    {"--random-bits", true, conversions | hybrid},
    {"--count", true, only(command::vectors)},
    {"--from", true, only(command::encode) | only(command::cast)},
    {"--to", true, only(command::decode) | only(command::cast)},
    // calibrate
    {"--method", true, only(command::calibrate)},
    {"--percentile", true, only(command::calibrate)},
    {"--power-of-two", false, only(command::calibrate)},
    {"--per-row", true, only(command::calibrate)},
    {"--binary", false, only(command::calibrate)},
    // matmul, eltwise, vectors-matmul
    {"--a", true, hybrid},
    {"--b", true, hybrid},
    {"--out", true, hybrid},
    {"--table", true, hybrid},
    {"--no-z-check", false, hybrid},
    {"--scale-a", true, hybrid},
    {"--scale-b", true, hybrid},
    {"--placement", true, hybrid},
    {"--offset", true, hybrid},
    {"--m", true, matmuls},
    {"--k", true, matmuls},
    {"--n", true, matmuls},
    {"--model", true, matmuls},
    {"--chunk", true, matmuls},
    {"--order", true, matmuls},
    {"--nan-payload", true, matmuls},
    {"--chunk-rounding", true, matmuls},
    {"--presum-round", false, matmuls},
    {"--bits", true, matmuls},
    {"--promote-every", true, matmuls},
    {"--variant", true, matmuls},
    {"--block", true, matmuls},
    {"--trunc", true, matmuls},
    {"--scale-a-rows", true, matmuls},
    {"--scale-b-columns", true, matmuls},
    {"--bias", true, matmuls},
    {"--output-scale", true, matmuls},
    {"--output-scale-rule", true, matmuls},
    {"--int-scale", true, matmuls},
    {"--requant", true, matmuls},
    {"--amax", false, matmuls},
    {"--exact-error", false, matmuls},
    {"--print-acc", false, matmuls},
    {"--check", false, only(command::matmul)},
    {"--data-seed", true, only(command::vectors_matmul)},
    {"--op", true, only(command::eltwise)},
    {"--rows", true, only(command::eltwise)},
    {"--columns", true, only(command::eltwise)},
    {"--b-shape", true, only(command::eltwise)},
    {"--exact", false, only(command::eltwise)},
    {"--scale-type", true, only(command::eltwise) | onnx},
    // quantize-linear, dequantize-linear, cast
    {"--shape", true, onnx},
    {"--x-type", true, onnx},
    {"--scales", true, onnx},
    {"--scale-shape", true, onnx},
    {"--axis", true, onnx},
    {"--block-size", true, onnx},
    {"--output-dtype", true, onnx},
    {"--zero-point", true, onnx},
    {"--precision", true, only(command::quantize_linear)},
    {"--opset", true, onnx | only(command::cast)},
    {"--round-mode", true, only(command::cast)},
    {"--no-saturate", false, only(command::quantize_linear)},
};

const option_entry* find_option(command what, std::string_view name) {
  for (const auto& o : options) {
    if (o.name == name && (o.commands & only(what)) != 0) return &o;
  }
  return nullptr;
}

struct mode_spelling {
  std::string_view name;
  rounding_mode mode;
};

// Canonical name first for each mode.
constexpr mode_spelling mode_spellings[] = {
    {"nearest-even", rounding_mode::nearest_even},
    {"rne", rounding_mode::nearest_even},
    {"toward-zero", rounding_mode::toward_zero},
    {"rtz", rounding_mode::toward_zero},
    {"toward-positive", rounding_mode::toward_positive},
    {"up", rounding_mode::toward_positive},
    {"ceil", rounding_mode::toward_positive},
    {"toward-negative", rounding_mode::toward_negative},
    {"down", rounding_mode::toward_negative},
    {"floor", rounding_mode::toward_negative},
    {"stochastic", rounding_mode::stochastic},
    {"sr", rounding_mode::stochastic},
};

}  // namespace

command find_command(std::string_view name) {
  for (const auto& c : commands) {
    if (c.name == name) return c.what;
  }
  return command::none;
}

std::string message_prefix(command what) {
  if (what == command::none) return "minifloat: ";
  return "minifloat: " + std::string(command_name(what)) + ": ";
}

std::string_view command_name(command what) {
  for (const auto& c : commands) {
    if (c.what == what) return c.name;
  }
  return "minifloat";
}

bool takes_format(command what) {
  switch (what) {
    case command::info:
    case command::table:
    case command::encode:
    case command::decode:
    case command::vectors:
    case command::calibrate:
      return true;
    default:
      return false;
  }
}

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

bool same_name(std::string_view name, std::string_view text) noexcept {
  const auto fold = [](char c) {
    if (c >= 'A' && c <= 'Z') return static_cast<char>(c - 'A' + 'a');
    return c == '-' ? '_' : c;
  };
  if (name.size() != text.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (fold(name[i]) != fold(text[i])) return false;
  }
  return true;
}

void throw_unknown_value(std::string_view option, std::string_view noun, std::string_view text,
                         std::string_view valid) {
  throw usage_error(std::string(option) + ": unknown " + std::string(noun) + " " + quoted(text) +
                    " (one of: " + std::string(valid) + ")");
}

void throw_not_a_type(std::string_view option, std::string_view text, std::string_view what,
                      std::string_view valid) {
  if (mf::find_format(text)) {
    throw usage_error(std::string(option) + ": " + quoted(text) + " is not " + std::string(what) +
                      " (one of: " + std::string(valid) + ")");
  }
  throw_unknown_value(option, "type", text, valid);
}

std::string_view mode_name(rounding_mode mode) {
  for (const auto& s : mode_spellings) {
    if (s.mode == mode) return s.name;
  }
  return "?";
}

rounding_mode parse_rounding_mode(std::string_view option, std::string_view text,
                                  const std::vector<rounding_mode>& allowed) {
  std::string valid;  // "nearest-even (rne), stochastic (sr)"
  for (const rounding_mode mode : allowed) {
    std::string aliases;
    for (const auto& s : mode_spellings) {
      if (s.mode != mode) continue;
      if (same_name(s.name, text)) return mode;
      if (s.name != mode_name(mode)) aliases += (aliases.empty() ? "" : ", ") + std::string(s.name);
    }
    valid += (valid.empty() ? "" : ", ") + std::string(mode_name(mode)) +
             (aliases.empty() ? "" : " (" + aliases + ")");
  }
  for (const auto& s : mode_spellings) {
    if (same_name(s.name, text)) {
      throw usage_error(std::string(option) + ": " + quoted(text) +
                        " is not a mode of this command (one of: " + valid + ")");
    }
  }
  throw_unknown_value(option, "mode", text, valid);
}

std::uint64_t parse_unsigned(std::string_view context, std::string_view text) {
  const bool is_hex = text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X');
  const std::string_view digits = is_hex ? text.substr(2) : text;
  const std::uint64_t base = is_hex ? 16 : 10;
  std::uint64_t value = 0;
  bool ok = !digits.empty();
  for (const char c : digits) {
    std::uint64_t digit = 16;
    if (c >= '0' && c <= '9') digit = static_cast<std::uint64_t>(c - '0');
    else if (is_hex && c >= 'a' && c <= 'f') digit = static_cast<std::uint64_t>(c - 'a' + 10);
    else if (is_hex && c >= 'A' && c <= 'F') digit = static_cast<std::uint64_t>(c - 'A' + 10);
    if (digit >= base || value > (~std::uint64_t{0} - digit) / base) {
      ok = false;
      break;
    }
    value = value * base + digit;
  }
  if (!ok) {
    throw usage_error(std::string(context) + ": not an unsigned 64-bit integer: " + quoted(text));
  }
  return value;
}

namespace {

int storage_bits(mf::format_id format) {
  if (format == mf::format_id::float32) return 32;
  if (format == mf::format_id::float64) return 64;
  int bits = 0;
  mf::visit_minifloat(format, [&](auto tag) {
    bits = static_cast<int>(decltype(tag)::type::format::bits);
  });
  return bits;
}

}  // namespace

float_reading read_float(std::string_view text, mf::format_id format, std::uint64_t& bits) {
  // strtod skips leading white space and reads a prefix; the rule takes the
  // whole text and nothing around it.
  if (text.empty() || std::isspace(static_cast<unsigned char>(text.front())) ||
      std::isspace(static_cast<unsigned char>(text.back()))) {
    return float_reading::not_a_number;
  }
  const std::size_t sign = (text[0] == '-' || text[0] == '+') ? 1 : 0;
  const bool hex = text.size() > sign + 2 && text[sign] == '0' &&
                   (text[sign + 1] == 'x' || text[sign + 1] == 'X');
  if (hex && text.find_first_of(".pP") == std::string_view::npos) {
    // Bits: "0x" and hex digits only, no sign.
    if (sign != 0) return float_reading::not_a_number;
    const int width = storage_bits(format);
    std::uint64_t value = 0;
    for (const char c : text.substr(2)) {
      int digit = -1;
      if (c >= '0' && c <= '9') digit = c - '0';
      else if (c >= 'a' && c <= 'f') digit = c - 'a' + 10;
      else if (c >= 'A' && c <= 'F') digit = c - 'A' + 10;
      if (digit < 0 || (value >> 60) != 0) return float_reading::not_a_number;
      value = (value << 4) | static_cast<std::uint64_t>(digit);
    }
    if (width < 64 && (value >> width) != 0) return float_reading::not_a_number;
    bits = value;
    return float_reading::ok;
  }
  const std::string s(text);
  // strtof/strtod give +-HUGE_VAL, an infinity, on overflow; only "inf" and
  // "infinity" (the one spelling with an 'i') name one.
  const bool names_infinity = s.find_first_of("iI") != std::string::npos;
  char* end = nullptr;
  if (format == mf::format_id::float32) {
    const float f = std::strtof(s.c_str(), &end);
    if (end != s.c_str() + s.size()) return float_reading::not_a_number;
    bits = mf::detail::bit_cast<std::uint32_t>(f);
    return std::isinf(f) && !names_infinity ? float_reading::out_of_range : float_reading::ok;
  }
  const double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return float_reading::not_a_number;
  bool in_range = !std::isinf(v) || names_infinity;
  if (format == mf::format_id::float64) {
    bits = mf::detail::bit_cast<std::uint64_t>(v);
  } else {
    mf::visit_minifloat(format, [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T r = mf::round_to<T>(v, mf::rounding::nearest_even, mf::overflow::non_saturating);
      bits = r.bits();
      if (std::isnan(v) || std::isinf(v)) return;
      if (!mf::isfinite(r)) in_range = false;  // the library's overflow: Inf or NaN
      using limits = std::numeric_limits<T>;
      if (!limits::has_infinity && !limits::has_quiet_NaN) {
        // No Inf and no NaN (float4e2m1): round_to saturates, so overflow
        // is found as IEEE 754 defines it, rounding with an unbounded
        // exponent: past max + ulp(max)/2, or at it when that tie goes up
        // (max's last significand bit is odd).
        const T max = limits::max();
        const double top = static_cast<float>(max);
        const double half_ulp = (top - static_cast<float>(T::from_bits(max.bits() - 1))) / 2;
        const double m = std::fabs(v);
        if (m > top + half_ulp || (m == top + half_ulp && (max.bits() & 1u) != 0)) {
          in_range = false;
        }
      }
    });
  }
  return in_range ? float_reading::ok : float_reading::out_of_range;
}

void throw_float_error(std::string_view context, std::string_view text,
                       std::string_view type_name, float_reading reading) {
  if (reading == float_reading::out_of_range) {
    throw usage_error(std::string(context) + ": " + quoted(text) + " is out of " +
                      std::string(type_name) +
                      "'s range (write inf or the bits for an infinity)");
  }
  throw usage_error(std::string(context) + ": not a " + std::string(type_name) +
                    " value: " + quoted(text));
}

float parse_float32(std::string_view context, std::string_view text) {
  std::uint64_t bits = 0;
  const float_reading r = read_float(text, mf::format_id::float32, bits);
  if (r != float_reading::ok) throw_float_error(context, text, "float32", r);
  return mf::detail::bit_cast<float>(static_cast<std::uint32_t>(bits));
}

double parse_float64(std::string_view context, std::string_view text) {
  std::uint64_t bits = 0;
  const float_reading r = read_float(text, mf::format_id::float64, bits);
  if (r != float_reading::ok) throw_float_error(context, text, "float64", r);
  return mf::detail::bit_cast<double>(bits);
}

std::vector<float> parse_float32_list(std::string_view context, std::string_view text) {
  std::vector<float> values;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t comma = text.find(',', start);
    if (comma == std::string_view::npos) comma = text.size();
    values.push_back(parse_float32(context, text.substr(start, comma - start)));
    start = comma + 1;
  }
  return values;
}

bool command_line::has(std::string_view option) const { return value(option).has_value(); }

std::optional<std::string_view> command_line::value(std::string_view option) const {
  for (const auto& g : given_) {
    if (g.first == option) return g.second;
  }
  return std::nullopt;
}

std::uint64_t command_line::unsigned_value(std::string_view option, std::uint64_t fallback,
                                           std::uint64_t lowest, std::uint64_t highest) const {
  const auto text = value(option);
  if (!text) return fallback;
  const std::uint64_t v = parse_unsigned(option, *text);
  if (v < lowest || v > highest) {
    throw usage_error(std::string(option) + " must be " +
                      std::to_string(lowest) + ".." + std::to_string(highest) + ", not " +
                      std::string(*text));
  }
  return v;
}

void command_line::reject_if_given(std::string_view option, std::string_view reason) const {
  if (has(option)) {
    throw usage_error(std::string(option) + " has no effect " +
                      std::string(reason));
  }
}

void command_line::reject_if_given(std::initializer_list<std::string_view> options,
                                   std::string_view reason) const {
  for (const std::string_view option : options) reject_if_given(option, reason);
}

void command_line::add(std::string_view option, std::string_view value) {
  given_.emplace_back(option, value);
}

command_line parse_command_line(const std::vector<std::string_view>& arguments) {
  command_line line;
  if (arguments.empty()) throw usage_error("missing COMMAND (try 'minifloat --help')");
  const std::string_view first = arguments[0];
  if (first == "--help" || first == "-h" || first == "help") {
    line.help = true;
    if (first == "help" && arguments.size() > 1) {
      line.what = find_command(arguments[1]);
      if (line.what == command::none) {
        throw usage_error("help: unknown command " + quoted(arguments[1]));
      }
    }
    return line;
  }
  if (first == "--version") {
    line.version = true;
    return line;
  }
  line.what = find_command(first);
  if (line.what == command::none) {
    throw usage_error("unknown command " + quoted(first) + " (try 'minifloat --help')");
  }
  line.words.assign(arguments.begin() + 1, arguments.end());
  const std::string name = line.name();

  // --help before "--" wins over everything else on the line.
  for (const std::string_view word : line.words) {
    if (word == "--") break;
    if (word == "--help" || word == "-h") {
      line.help = true;
      return line;
    }
  }

  bool options_ended = false;
  for (std::size_t i = 0; i < line.words.size(); ++i) {
    const std::string_view word = line.words[i];
    if (word == "--" && !options_ended) {
      options_ended = true;  // POSIX: everything after "--" is an operand
      continue;
    }
    if (options_ended || word.size() < 2 || word[0] != '-') {
      line.operands.push_back(word);
      continue;
    }
    std::string_view option = word;
    std::string_view value;
    bool value_inline = false;
    const std::size_t equals = word.find('=');
    if (equals != std::string_view::npos) {
      option = word.substr(0, equals);
      value = word.substr(equals + 1);
      value_inline = true;
    }
    const option_entry* entry = find_option(line.what, option);
    if (entry == nullptr) {
      throw usage_error("unknown option " + quoted(word) + " (try 'minifloat " + name +
                        " --help')");
    }
    if (entry->takes_value) {
      if (!value_inline) {
        if (i + 1 >= line.words.size()) {
          throw usage_error("option " + std::string(option) + " needs a value");
        }
        value = line.words[++i];
      }
    } else if (value_inline) {
      throw usage_error("option " + std::string(option) + " takes no value");
    }
    // A flag too: "--saturate --saturate" is as likely a slip as two values.
    if (line.has(option)) {
      throw usage_error("option " + std::string(option) + " given twice");
    }
    line.add(entry->name, value);
  }
  if (!takes_format(line.what) && !line.operands.empty()) {
    throw usage_error("unexpected argument " + quoted(line.operands[0]));
  }
  return line;
}

}  // namespace minifloat_cli
