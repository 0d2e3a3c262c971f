// The command line of every command: which command, the one table of
// options (its name, whether it takes a value, which commands accept it) and
// the vocabularies of option values. Parsing checks the shape of the words (a
// known command, options that command accepts, a value where one is needed);
// each command then reads the values it uses through the helpers below, which
// report a bad value together with the valid ones, and rejects the options
// that would have no effect on its request.
#pragma once

#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <minifloat/format_registry.hpp>

#include "line_io.hpp"

namespace minifloat_cli {

enum class command : unsigned char {
  none, formats, info, table, encode, decode, vectors, calibrate, matmul, eltwise,
  vectors_matmul, quantize_linear, dequantize_linear, cast
};

// "encode", "vectors-matmul", ...
std::string_view command_name(command what);

// The command called `name`, or none.
command find_command(std::string_view name);

// The start of every line the tool writes to stderr: "minifloat: ", then
// the command's name for a command ("minifloat: encode: "), so that a log
// of many invocations says which one failed; the message after it starts
// with what it is about (an option, an input line).
std::string message_prefix(command what);

// Whether the command takes one FORMAT operand (info, table, encode, decode,
// vectors, calibrate).
bool takes_format(command what);

// 'text', for messages.
std::string quoted(std::string_view text);

// Whether `text` is `name` as every option's word is read: in any ASCII case,
// with '-' and '_' the same letter (the library's nearest_even and
// exact_to_output, the tool's nearest-even, and the Python package's names
// are then one vocabulary; format names have their registry).
bool same_name(std::string_view name, std::string_view text) noexcept;

// A name and what it means, for options whose value is one of a few words.
template <class Value>
struct choice {
  std::string_view name;
  Value value;
};

// Throws usage_error "OPTION: unknown NOUN 'TEXT' (one of: VALID)".
[[noreturn]] void throw_unknown_value(std::string_view option, std::string_view noun,
                                      std::string_view text, std::string_view valid);

// Throws usage_error for a type name the option does not take: "OPTION:
// 'TEXT' is not WHAT (one of: VALID)" when the format registry knows the
// name (a real type, of the wrong kind), else "OPTION: unknown type 'TEXT'
// (one of: VALID)".
[[noreturn]] void throw_not_a_type(std::string_view option, std::string_view text,
                                   std::string_view what, std::string_view valid);

// The value called `text` among `choices`, or the usage_error above listing
// every name.
template <class Value, std::size_t N>
Value pick(std::string_view option, std::string_view noun, std::string_view text,
           const choice<Value> (&choices)[N]) {
  for (const auto& c : choices) {
    if (same_name(c.name, text)) return c.value;
  }
  std::string valid;
  for (const auto& c : choices) {
    if (!valid.empty()) valid += ", ";
    valid += c.name;
  }
  throw_unknown_value(option, noun, text, valid);
}

// The one rounding vocabulary of every command that rounds (encode and
// vectors' --round, the hybrid commands' --round, --chunk-rounding and
// --trunc). stochastic is the library's round_to_stochastic with the random
// bits of mf::stochastic_random_bits.
enum class rounding_mode {
  nearest_even, toward_zero, toward_positive, toward_negative, stochastic
};

// The canonical spelling of a mode ("nearest-even", ...).
std::string_view mode_name(rounding_mode mode);

// The mode called `text` (nearest-even/rne, toward-zero/rtz,
// toward-positive/up/ceil, toward-negative/down/floor, stochastic/sr) if it
// is one of `allowed`; otherwise a usage_error listing the spellings of the
// allowed modes.
rounding_mode parse_rounding_mode(std::string_view option, std::string_view text,
                                  const std::vector<rounding_mode>& allowed);

// A non-negative integer: decimal, or hex with 0x; the whole text, no sign.
std::uint64_t parse_unsigned(std::string_view context, std::string_view text);

// The one rule for a floating-point value written as text, in every command
// (the float options and lists, and the values read from stdin by encode,
// calibrate, quantize-linear and cast):
//  - "0x" (or "0X") followed only by hex digits is the type's bits: 0x1 is
//    float32's smallest subnormal, 0x7fc00001 a NaN with a payload,
//    0xffc00000 a negative NaN. The value must fit the type's width.
//  - anything else is a number as strtod reads it (decimal, a hex float with
//    a '.' or a 'p' exponent such as -0x1.8p-3, inf, nan), rounded once to
//    the type, to nearest even (float32 by strtof, float64 by strtod, the
//    others from strtod's double by mf::round_to). A finite number that
//    overflows the type is out of range (1e50 as float32; IEEE 754's
//    overflow, also for a type without Inf and NaN such as float4e2m1, where
//    round_to would saturate): infinity is written inf or as its bits, never
//    by accident.
//  - a sign before bits ("-0x3f800000") is neither: the sign is a bit.
// The text is the whole value: no white space around it.
enum class float_reading { ok, not_a_number, out_of_range };

// `format`: float32, float64 or one of the minifloats. On ok, `bits` holds
// the value's encoding in the type.
float_reading read_float(std::string_view text, mf::format_id format, std::uint64_t& bits);

// Throws usage_error "CONTEXT: not a NAME value: 'TEXT'" or "CONTEXT: 'TEXT'
// is out of NAME's range (write inf or the bits for an infinity)" for a
// reading that is not ok.
[[noreturn]] void throw_float_error(std::string_view context, std::string_view text,
                                    std::string_view type_name, float_reading reading);

// A float32 value by the rule above, or the usage_error naming `context`.
float parse_float32(std::string_view context, std::string_view text);
double parse_float64(std::string_view context, std::string_view text);

// A comma-separated list of float32 values by the rule above.
std::vector<float> parse_float32_list(std::string_view context, std::string_view text);

// A parsed command line. Options are kept as given (the words, without
// interpretation); the accessors below interpret them.
class command_line {
 public:
  command what = command::none;
  bool help = false;     // --help: print the command's help and stop
  bool version = false;  // minifloat --version
  std::vector<std::string_view> operands;  // the words that are not options
  std::vector<std::string_view> words;     // every word after the command's name

  // The command's name, for messages ("encode").
  std::string name() const { return std::string(command_name(what)); }

  bool has(std::string_view option) const;
  // The option's value; nothing when the option was not given.
  std::optional<std::string_view> value(std::string_view option) const;

  // The option's value as an unsigned integer in [lowest, highest];
  // `fallback` when the option was not given.
  std::uint64_t unsigned_value(std::string_view option, std::uint64_t fallback,
                               std::uint64_t lowest, std::uint64_t highest) const;

  // The option's value among `choices`; `fallback` when it was not given.
  template <class Value, std::size_t N>
  Value choice_value(std::string_view option, std::string_view noun, Value fallback,
                     const choice<Value> (&choices)[N]) const {
    const auto text = value(option);
    return text ? pick(option, noun, *text, choices) : fallback;
  }

  // Status 2 with "COMMAND: OPTION has no effect REASON" if the option was
  // given: an option the request would ignore is a mistake in the caller's
  // script, not something to pass over silently.
  void reject_if_given(std::string_view option, std::string_view reason) const;
  void reject_if_given(std::initializer_list<std::string_view> options,
                       std::string_view reason) const;

  // Recorded by the parser: each option once, with its value ("" for a
  // switch).
  void add(std::string_view option, std::string_view value);

 private:
  std::vector<std::pair<std::string_view, std::string_view>> given_;
};

// Parses argv (after the program name). Throws usage_error with a one-line
// message for an unknown command or option, an option the command does not
// take, a missing value, a value given to a switch, or an option given
// twice. "--" ends the options (POSIX); "--option=value" is "--option value".
command_line parse_command_line(const std::vector<std::string_view>& arguments);

}  // namespace minifloat_cli
