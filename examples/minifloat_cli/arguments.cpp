#include "arguments.hpp"

#include <cstdlib>

#include <minifloat/config.hpp>

#include "commands.hpp"
#include "format_registry.hpp"
#include "line_io.hpp"

namespace minifloat_cli {
namespace {

constexpr std::string_view usage =
    "usage: minifloat COMMAND [ARGS]\n"
    "\n"
    "Inspect and convert the minifloat formats (minifloat " MINIFLOAT_VERSION_STRING ").\n"
    "\n"
    "commands:\n"
    "  formats                       list the formats\n"
    "  info FORMAT                   the format's parameters and limits\n"
    "  table FORMAT [--csv|--markdown]\n"
    "                                every encoding with its exact value\n"
    "  encode FORMAT [--round MODE] [--saturate] [--seed N] [--random-bits B]\n"
    "                [--from f32|f64]\n"
    "                                numbers on stdin -> encodings on stdout\n"
    "  decode FORMAT [--to f32|f64]  encodings on stdin -> float bits on stdout\n"
    "  vectors FORMAT [--round MODE] [--saturate] [--count N] [--seed N]\n"
    "                [--random-bits B] [--csv]\n"
    "                                golden conversion vectors\n"
    "  matmul --a T --b T --out T [...]  the hybrid FP8 MatMul reference\n"
    "  eltwise --op OP --a T --b T --out T [...]\n"
    "                                the hybrid element-wise reference\n"
    "  vectors-matmul --a T --b T --out T --m M --k K --n N [...]\n"
    "                                a seeded random MatMul case\n"
    "  quantize-linear --shape D,.. --scales S,.. [ATTRIBUTES]\n"
    "                                ONNX QuantizeLinear of the tensor on stdin\n"
    "  dequantize-linear --shape D,.. --x-type T --scales S,.. [ATTRIBUTES]\n"
    "                                ONNX DequantizeLinear of the tensor on stdin\n"
    "  calibrate FORMAT [--method max|percentile|mse|kl] [--percentile P]\n"
    "                [--power-of-two] [--per-row N] [--binary]\n"
    "                                numbers on stdin -> a static scale and its cost\n"
    "\n"
    "FORMAT: e4m3fn e4m3fnuz e5m2 e5m2fnuz e2m1fn e2m3fn e3m2fn e8m0fnu e4m3 e3m4\n"
    "        e4m3b11fnuz binary16 bfloat16\n"
    "\n"
    "'minifloat COMMAND --help' describes a command. '--' ends the options.\n"
    "\n"
    "Exit status: 0 on success; 2 for a bad command line or input line; 3 when\n"
    "reading stdin or writing stdout fails (a full disk, a closed stdout), also\n"
    "when only the final flush or close of stdout fails; 1 for an unexpected\n"
    "internal error. Each failure prints one 'minifloat: ...' line on stderr. A\n"
    "reader that stops early (| head -1) ends the tool by SIGPIPE, as it does\n"
    "cat; where SIGPIPE is ignored, the failed write gives status 3.\n";

constexpr std::string_view formats_help =
    "usage: minifloat formats\n"
    "\n"
    "One line per format after a '#' header: name, total bits, exponent bits E,\n"
    "mantissa bits M, bias and the largest finite value (exact decimal).\n";

constexpr std::string_view info_help =
    "usage: minifloat info FORMAT\n"
    "\n"
    "The format's parameters as 'key: value' lines: format, bits, exponent_bits,\n"
    "mantissa_bits, bias, is_signed, has_inf, has_nan, nan_encodings (count and\n"
    "the encodings), has_negative_zero, has_subnormals, max, min_normal,\n"
    "min_subnormal and epsilon. Values are exact: the full decimal expansion,\n"
    "then in parentheses the hex-float and the encoding. min_subnormal is 'none'\n"
    "for a format without subnormals (e8m0fnu); epsilon is\n"
    "std::numeric_limits<T>::epsilon(), the gap between 1 and the next value.\n";

constexpr std::string_view table_help =
    "usage: minifloat table FORMAT [--csv|--markdown]\n"
    "\n"
    "Every encoding in order, one row each: bits (hex), the sign, exponent and\n"
    "mantissa fields (binary; '-' or empty in CSV where the format has no such\n"
    "field), the class (zero, subnormal, normal, inf, nan) and the exact value\n"
    "as a full decimal expansion ('-0', 'inf', '-inf', 'nan').\n"
    "\n"
    "  (default)   aligned text columns under a header line\n"
    "  --csv       comma-separated, header 'bits,sign,exponent,mantissa,class,value'\n"
    "  --markdown  a Markdown table\n";

constexpr std::string_view encode_help =
    "usage: minifloat encode FORMAT [--round MODE] [--saturate] [--seed N]\n"
    "                        [--random-bits B] [--from f32|f64]\n"
    "\n"
    "Reads one value per line from stdin and writes one encoding per line: '0x'\n"
    "and 1 (4-bit formats), 2 (5 to 8 bits) or 4 (16 bits) lowercase hex digits.\n"
    "A line is either the bits of the source type, '0x' and exactly 8 hex digits\n"
    "for f32 or 16 for f64 ('0x3f800000' is 1.0), or a number as strtof/strtod\n"
    "read it: '1.5', '-0x1.8p-3', '1e-3', 'inf', 'nan' ('0x1' is the number 1).\n"
    "The number is read into the source type (round to nearest), then rounded\n"
    "once into FORMAT by the library. Spaces and tabs around a value and a\n"
    "'\\r' before the newline are ignored; an empty line, or other white space\n"
    "('\\v', '\\f', '\\r'), is an error.\n"
    "\n"
    "  --round MODE    nearest-even (rne, the default), toward-zero (rtz),\n"
    "                  toward-positive (up), toward-negative (down), or\n"
    "                  stochastic (sr): line i (0-based) is rounded by\n"
    "                  mf::round_to_stochastic with the random bits\n"
    "                  mf::stochastic_random_bits(seed, i, B), as the bulk\n"
    "                  encode_stochastic does.\n"
    "  --saturate      finite values beyond max finite become +-max (default:\n"
    "                  Inf, or NaN where the format has no Inf)\n"
    "  --seed N        the Philox seed (decimal or 0x hex); needed by stochastic,\n"
    "                  an error with any other --round\n"
    "  --random-bits B random bits per value for stochastic, 1..32 (default 32;\n"
    "                  with 8 or fewer four values share a Philox word, with 16\n"
    "                  or fewer two); an error without --round stochastic\n"
    "  --from f32|f64  the source type (default f32)\n";

constexpr std::string_view decode_help =
    "usage: minifloat decode FORMAT [--to f32|f64]\n"
    "\n"
    "Reads one encoding per line (hex, with or without '0x'; it must fit the\n"
    "format's width) and writes the bits of its exact value in the target type:\n"
    "'0x' and 8 hex digits for f32 (the default), 16 for f64. Every NaN encoding\n"
    "becomes the canonical quiet NaN (0x7fc00000, with the sign where the format\n"
    "has signed NaNs).\n"
    "\n"
    "  --to f32|f64    the target type (default f32)\n";

constexpr std::string_view vectors_help =
    "usage: minifloat vectors FORMAT [--round MODE] [--saturate] [--count N] [--seed N]\n"
    "                         [--random-bits B] [--csv]\n"
    "\n"
    "Golden conversion vectors float32 -> FORMAT, one line 'input_bits,output_bits'\n"
    "each (input as 0x + 8 hex digits, output as encode writes it) after '#'\n"
    "lines naming the format, rounding, overflow, seed, count and library\n"
    "version. The inputs, in this order, without repeats:\n"
    "  - the float32 specials: +-0, +-Inf, quiet, signalling and payload NaNs;\n"
    "  - float32 subnormals and the smallest float32 normals, both signs;\n"
    "  - for each sign: every finite value of FORMAT, every midpoint between\n"
    "    neighbours, the midpoint between max and the next value above it and\n"
    "    that value; each of these also 1 and 2 float32 ulps either side;\n"
    "    every power of two from above max to 2^127 and the largest floats;\n"
    "    every power of two from below the smallest value to 2^-149;\n"
    "  - then N (--count, default 0) random float32 inputs: input i has the bits\n"
    "    mf::stochastic_random_word(seed ^ 0x9e3779b97f4a7c15, i).\n"
    "The output is deterministic for a given seed (default 0).\n"
    "\n"
    "  --round MODE    as for encode; with stochastic, vector i (0-based, over all\n"
    "                  lines) uses mf::stochastic_random_bits(seed, i, B)\n"
    "  --saturate      overflow saturates to +-max\n"
    "  --count N       number of random inputs after the structured set; the\n"
    "                  total number of lines must fit in 64 bits (N at most\n"
    "                  2^64 - 1 - the structured count, else status 2)\n"
    "  --seed N        the Philox seed (decimal or 0x hex) of stochastic\n"
    "                  rounding and of the --count random inputs; an error\n"
    "                  when it would do nothing (neither of those)\n"
    "  --random-bits B as for encode (default 32)\n"
    "  --csv           add a column header line and a third column, the class\n"
    "                  of the output (zero, subnormal, normal, inf, nan)\n";

constexpr std::string_view calibrate_help =
    "usage: minifloat calibrate FORMAT [--method max|percentile|mse|kl] [--percentile P]\n"
    "                          [--power-of-two] [--per-row N] [--binary]\n"
    "\n"
    "Reads values (one per line, as 'encode' reads them, or with --binary raw\n"
    "little-endian float32), keeps a histogram of |x| (mf::calibration, 256 bins\n"
    "per binade of float32) and prints the scale for q = round(x * scale) and\n"
    "what it costs on the data: the squared error of nearest-even, saturating\n"
    "quantization as MSE and SQNR (dB), the fractions of the values saturated\n"
    "and flushed to zero. NaN and Inf are counted but do not move the scale.\n"
    "FORMAT needs a zero (not e8m0fnu).\n"
    "\n"
    "  --method max         amax maps to max finite (the default)\n"
    "  --method percentile  the P-th percentile of |x| maps to max finite\n"
    "  --method mse         the scale of least squared error (exact search)\n"
    "  --method kl          least KL divergence (TensorRT's entropy method)\n"
    "  --percentile P       for percentile, 0 < P <= 100 (default 99.99)\n"
    "  --power-of-two       a power-of-two scale (its inverse is an E8M0 value)\n"
    "  --per-row N          the input is rows of N values: one scale per row,\n"
    "                       printed as CSV 'row,scale,scale_hex,scale_bits,mse,\n"
    "                       sqnr_db,saturated,flushed'\n"
    "  --binary             stdin is raw little-endian float32\n"
    "\n"
    "Without --per-row the output is 'key: value' lines: format, method,\n"
    "power_of_two, values, zeros, nan, inf, amax, scale (decimal, hex-float and\n"
    "bits), scale_inv, mse, sqnr_db, saturated, flushed.\n";

struct command_name {
  std::string_view name;
  command what;
};

constexpr command_name commands[] = {
    {"formats", command::formats}, {"info", command::info},
    {"table", command::table},     {"encode", command::encode},
    {"decode", command::decode},   {"vectors", command::vectors},
    {"quantize-linear", command::quantize_linear},
    {"dequantize-linear", command::dequantize_linear},
    {"calibrate", command::calibrate},
};

struct mode_spelling {
  std::string_view name;
  rounding_mode mode;
};

constexpr mode_spelling mode_spellings[] = {
    {"nearest-even", rounding_mode::nearest_even},
    {"rne", rounding_mode::nearest_even},
    {"toward-zero", rounding_mode::toward_zero},
    {"rtz", rounding_mode::toward_zero},
    {"toward-positive", rounding_mode::toward_positive},
    {"up", rounding_mode::toward_positive},
    {"toward-negative", rounding_mode::toward_negative},
    {"down", rounding_mode::toward_negative},
    {"stochastic", rounding_mode::stochastic},
    {"sr", rounding_mode::stochastic},
};

std::string quoted(std::string_view text) { return "'" + std::string(text) + "'"; }

// A non-negative integer: decimal, or hex with 0x; the whole text, no sign.
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

binary_type parse_binary_type(std::string_view context, std::string_view text) {
  if (text == "f32") return binary_type::f32;
  if (text == "f64") return binary_type::f64;
  throw usage_error(std::string(context) + ": expected f32 or f64, got " + quoted(text));
}

rounding_mode parse_mode(std::string_view text) {
  for (const auto& spelling : mode_spellings) {
    if (spelling.name == text) return spelling.mode;
  }
  throw usage_error("--round: unknown mode " + quoted(text) +
                    " (nearest-even, toward-zero, toward-positive, toward-negative, "
                    "stochastic, or rne, rtz, up, down, sr)");
}

// Which options each command takes.
bool accepts(command what, std::string_view option) {
  switch (what) {
    case command::table:
      return option == "--csv" || option == "--markdown";
    case command::encode:
      return option == "--round" || option == "--saturate" || option == "--seed" ||
             option == "--random-bits" || option == "--from";
    case command::decode:
      return option == "--to";
    case command::vectors:
      return option == "--round" || option == "--saturate" || option == "--seed" ||
             option == "--random-bits" || option == "--count" || option == "--csv";
    case command::calibrate:
      return option == "--method" || option == "--percentile" || option == "--power-of-two" ||
             option == "--per-row" || option == "--binary";
    default:
      return false;
  }
}

bool takes_value(std::string_view option) {
  return option == "--round" || option == "--seed" || option == "--random-bits" ||
         option == "--from" || option == "--to" || option == "--count" ||
         option == "--method" || option == "--percentile" || option == "--per-row";
}

}  // namespace

options parse_arguments(const std::vector<std::string_view>& arguments) {
  options o;
  if (arguments.empty()) throw usage_error("missing COMMAND (try 'minifloat --help')");
  const std::string_view first = arguments[0];
  if (first == "--help" || first == "-h" || first == "help") {
    o.help = true;
    if (first == "help" && arguments.size() > 1) {
      for (const auto& c : commands) {
        if (c.name == arguments[1]) o.what = c.what;
      }
      if (o.what == command::none) {
        throw usage_error("help: unknown command " + quoted(arguments[1]));
      }
    }
    return o;
  }
  if (first == "--version") {
    o.version = true;
    return o;
  }
  for (const auto& c : commands) {
    if (c.name == first) o.what = c.what;
  }
  if (o.what == command::none) {
    throw usage_error("unknown command " + quoted(first) + " (try 'minifloat --help')");
  }
  const std::string name(first);
  if (o.what == command::quantize_linear || o.what == command::dequantize_linear) {
    for (std::size_t i = 1; i < arguments.size(); ++i) {
      if (arguments[i] == "--help" || arguments[i] == "-h") o.help = true;
    }
    o.onnx_arguments.assign(arguments.begin() + 1, arguments.end());
    return o;
  }

  std::vector<std::string_view> positional;
  bool table_style_given = false;
  bool random_bits_given = false;
  bool options_ended = false;
  bool percentile_given = false;
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    std::string_view argument = arguments[i];
    if (!options_ended && (argument == "--help" || argument == "-h")) {
      o.help = true;
      return o;
    }
    if (argument == "--" && !options_ended) {
      options_ended = true;  // POSIX: everything after "--" is an operand
      continue;
    }
    if (options_ended || argument.size() < 2 || argument[0] != '-') {
      positional.push_back(argument);
      continue;
    }
    // --option value, or --option=value
    std::string_view option = argument;
    std::string_view value;
    bool value_inline = false;
    const std::size_t equals = argument.find('=');
    if (equals != std::string_view::npos) {
      option = argument.substr(0, equals);
      value = argument.substr(equals + 1);
      value_inline = true;
    }
    if (!accepts(o.what, option)) {
      throw usage_error(name + ": unknown option " + quoted(argument) + " (try 'minifloat " +
                        name + " --help')");
    }
    if (takes_value(option)) {
      if (!value_inline) {
        if (i + 1 >= arguments.size()) {
          throw usage_error(name + ": option " + std::string(option) + " needs a value");
        }
        value = arguments[++i];
      }
    } else if (value_inline) {
      throw usage_error(name + ": option " + std::string(option) + " takes no value");
    }

    if (option == "--csv" || option == "--markdown") {
      if (o.what == command::vectors) {
        o.csv = true;
      } else {
        const table_style style = option == "--csv" ? table_style::csv : table_style::markdown;
        if (table_style_given && style != o.style) {
          throw usage_error(name + ": --csv and --markdown exclude each other");
        }
        o.style = style;
        table_style_given = true;
      }
    } else if (option == "--round") {
      o.mode = parse_mode(value);
    } else if (option == "--saturate") {
      o.saturate = true;
    } else if (option == "--seed") {
      o.seed = parse_unsigned("--seed", value);
      o.has_seed = true;
    } else if (option == "--random-bits") {
      const std::uint64_t bits = parse_unsigned("--random-bits", value);
      if (bits < 1 || bits > 32) {
        throw usage_error(name + ": --random-bits must be 1..32, not " + std::string(value));
      }
      o.random_bits = static_cast<int>(bits);
      random_bits_given = true;
    } else if (option == "--count") {
      o.count = parse_unsigned("--count", value);
    } else if (option == "--from") {
      o.from = parse_binary_type("--from", value);
    } else if (option == "--to") {
      o.to = parse_binary_type("--to", value);
    } else if (option == "--method") {
      if (value != "max" && value != "percentile" && value != "mse" && value != "kl") {
        throw usage_error("--method: expected max, percentile, mse or kl, got " + quoted(value));
      }
      o.method = std::string(value);
    } else if (option == "--percentile") {
      const std::string text(value);
      char* end = nullptr;
      o.percentile = std::strtod(text.c_str(), &end);
      if (text.empty() || end != text.c_str() + text.size() || !(o.percentile > 0) ||
          !(o.percentile <= 100)) {
        throw usage_error("--percentile: expected a number in (0, 100], got " + quoted(value));
      }
      percentile_given = true;
    } else if (option == "--power-of-two") {
      o.power_of_two = true;
    } else if (option == "--per-row") {
      o.per_row = parse_unsigned("--per-row", value);
      if (o.per_row == 0) throw usage_error(name + ": --per-row must be at least 1");
    } else if (option == "--binary") {
      o.binary = true;
    }
  }

  if (o.what == command::formats) {
    if (!positional.empty()) {
      throw usage_error("formats: unexpected argument " + quoted(positional[0]));
    }
    return o;
  }
  if (positional.empty()) {
    throw usage_error(name + ": missing FORMAT (one of: " + std::string(format_names) + ")");
  }
  if (positional.size() > 1) {
    throw usage_error(name + ": unexpected argument " + quoted(positional[1]));
  }
  o.format = std::string(positional[0]);
  if (!with_format(o.format, [](const auto&) {})) {
    throw usage_error("unknown format " + quoted(o.format) + " (one of: " +
                      std::string(format_names) + ")");
  }
  if (o.mode == rounding_mode::stochastic && !o.has_seed) {
    throw usage_error(name + ": --round stochastic needs --seed N");
  }
  if (random_bits_given && o.mode != rounding_mode::stochastic) {
    throw usage_error(name + ": --random-bits needs --round stochastic");
  }
  // An option that would change nothing is a mistake (a testbench that
  // meant stochastic vectors would get nearest-even ones): vectors' seed also
  // draws the --count random inputs. Commands with other uses of --seed
  // decide for themselves.
  const bool seed_only_for_rounding =
      o.what == command::encode || (o.what == command::vectors && o.count == 0);
  if (o.has_seed && o.mode != rounding_mode::stochastic && seed_only_for_rounding) {
    throw usage_error(name + (o.what == command::vectors
                                  ? ": --seed needs --round stochastic or --count N"
                                  : ": --seed needs --round stochastic"));
  }
  if (percentile_given && o.method != "percentile") {
    throw usage_error(name + ": --percentile needs --method percentile");
  }
  if (o.what == command::calibrate && o.format == "e8m0fnu") {
    throw usage_error(name + ": e8m0fnu has no zero to quantize into (a scale format)");
  }
  return o;
}

std::string_view mode_name(rounding_mode mode) {
  switch (mode) {
    case rounding_mode::nearest_even: return "nearest-even";
    case rounding_mode::toward_zero: return "toward-zero";
    case rounding_mode::toward_positive: return "toward-positive";
    case rounding_mode::toward_negative: return "toward-negative";
    case rounding_mode::stochastic: return "stochastic";
  }
  return "?";
}

mf::rounding library_rounding(rounding_mode mode) {
  switch (mode) {
    case rounding_mode::toward_zero: return mf::rounding::toward_zero;
    case rounding_mode::toward_positive: return mf::rounding::toward_positive;
    case rounding_mode::toward_negative: return mf::rounding::toward_negative;
    default: return mf::rounding::nearest_even;
  }
}

mf::overflow library_overflow(const options& o) {
  return o.saturate ? mf::overflow::saturating : mf::overflow::non_saturating;
}

std::string_view usage_text() { return usage; }

std::string_view help_text(command what) {
  switch (what) {
    case command::formats: return formats_help;
    case command::info: return info_help;
    case command::table: return table_help;
    case command::encode: return encode_help;
    case command::decode: return decode_help;
    case command::vectors: return vectors_help;
    case command::quantize_linear: return quantize_linear_help();
    case command::dequantize_linear: return dequantize_linear_help();
    case command::calibrate: return calibrate_help;
    case command::none: break;
  }
  return usage;
}

}  // namespace minifloat_cli
