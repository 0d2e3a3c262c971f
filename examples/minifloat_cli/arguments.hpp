// The command line: which command, which format, which options. Parsing
// checks everything it can before any input is read, so a bad invocation
// fails with status 2 and no output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <minifloat/format_registry.hpp>
#include <minifloat/rounding.hpp>

#include "command_line.hpp"

namespace minifloat_cli {

enum class table_style { text, csv, markdown };

// The binary type of encode's input and decode's output.
enum class binary_type { f32, f64 };

struct options {
  command what = command::none;
  bool help = false;     // --help: print the command's help and stop
  bool version = false;  // minifloat --version
  // The whole command line; the hybrid and ONNX commands read their
  // options from it (hybrid_commands.cpp, onnx_ops.cpp).
  command_line line;
  // FORMAT, found in the registry in any spelling (format_registry.hpp).
  mf::format_id format = mf::format_id::e4m3fn;
  table_style style = table_style::text;
  rounding_mode mode = rounding_mode::nearest_even;
  bool saturate = false;
  bool has_seed = false;
  std::uint64_t seed = 0;
  int random_bits = 32;  // --random-bits: 1..32, stochastic rounding only
  binary_type from = binary_type::f32;
  binary_type to = binary_type::f32;
  std::uint64_t count = 0;
  bool csv = false;
  // calibrate
  std::string method = "max";  // --method: max, percentile, mse or kl
  double percentile = 99.99;   // --percentile P, in (0, 100]
  bool power_of_two = false;   // --power-of-two
  std::uint64_t per_row = 0;   // --per-row N: rows of N values, one scale each
  bool binary = false;         // --binary: raw little-endian float32 on stdin
};

// Parses argv (after the program name). Throws usage_error with a one-line
// message for an unknown command, format or option, or a bad value.
options parse_arguments(const std::vector<std::string_view>& arguments);

// The library's name of FORMAT ("e4m3fn" for "HF8").
inline std::string format_name(const options& o) {
  return std::string(mf::canonical_name(o.format));
}

mf::rounding library_rounding(rounding_mode mode);
mf::overflow library_overflow(const options& o);

// The usage summary (minifloat --help, and on stderr when run without
// arguments), and each command's --help.
std::string_view usage_text();
std::string_view help_text(command what);

// Every spelling of each minifloat (or of each other element type), one
// format a line, from the registry's table: the usage text's list.
std::string format_vocabulary(bool minifloats);

}  // namespace minifloat_cli
