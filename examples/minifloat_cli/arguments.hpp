// The command line: which command, which format, which options. Parsing
// checks everything it can before any input is read, so a bad invocation
// fails with status 2 and no output.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <minifloat/rounding.hpp>

namespace minifloat_cli {

enum class command { none, formats, info, table, encode, decode, vectors,
                     quantize_linear, dequantize_linear, calibrate };

enum class table_style { text, csv, markdown };

// The rounding modes of encode and vectors; stochastic is the library's
// round_to_stochastic with the random bits of mf::stochastic_random_bits.
enum class rounding_mode { nearest_even, toward_zero, toward_positive, toward_negative, stochastic };

// The binary type of encode's input and decode's output.
enum class binary_type { f32, f64 };

struct options {
  command what = command::none;
  bool help = false;     // --help: print the command's help and stop
  bool version = false;  // minifloat --version
  std::string format;    // FORMAT, checked against the registry
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
  // quantize-linear / dequantize-linear parse their own flags (onnx_ops.cpp).
  std::vector<std::string_view> onnx_arguments;
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

// The canonical spelling of a mode ("nearest-even", ...).
std::string_view mode_name(rounding_mode mode);

mf::rounding library_rounding(rounding_mode mode);
mf::overflow library_overflow(const options& o);

// The usage summary (minifloat --help, and on stderr when run without
// arguments), and each command's --help.
std::string_view usage_text();
std::string_view help_text(command what);

}  // namespace minifloat_cli
