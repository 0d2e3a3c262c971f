// quantize-linear, dequantize-linear and cast: ONNX's QuantizeLinear,
// DequantizeLinear and Cast (opsets 19 to 28) through mf::onnx, with the operators'
// attributes as flags and x as row-major text on stdin, for testbench
// vectors. One output element per line, as the output type's bits in hex.
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <minifloat/onnx.hpp>

#include "commands.hpp"
#include "line_io.hpp"

namespace minifloat_cli {
namespace {

namespace onnx = mf::onnx;

constexpr std::string_view quantize_help =
    "usage: minifloat quantize-linear --shape D0,D1,... --scales S,S,...\n"
    "                 [--x-type float|float16|bfloat16] [--scale-type T]\n"
    "                 [--scale-shape S0,S1,...|scalar] [--axis N] [--block-size B]\n"
    "                 [--output-dtype T] [--precision T] [--no-saturate]\n"
    "                 [--zero-point Z,Z,...] [--opset N]\n"
    "\n"
    "ONNX QuantizeLinear (opset 28 unless --opset): y = saturate(round(x / y_scale) + y_zero_point),\n"
    "the division rounded to nearest even in the scale's type (or --precision),\n"
    "then converted to the output type (docs/onnx.md). x is read from stdin:\n"
    "the row-major elements of a tensor of shape --shape, separated by blanks,\n"
    "commas or newlines; each is the x type's bits ('0x' and 8 hex digits for\n"
    "float, 4 for float16/bfloat16) or a number as strtod reads it, rounded to\n"
    "the x type (nearest even). One line per element of y: its code in hex\n"
    "(4-bit types one digit, unpacked).\n"
    "\n"
    "  --shape D0,D1,...   x's shape (required)\n"
    "  --x-type T          float (default), float16, bfloat16\n"
    "                      (every type also by any alias: 'minifloat --help')\n"
    "  --scales S,...      y_scale's elements, written as x's are (required)\n"
    "  --scale-type T      float (default), float16, bfloat16, float8e8m0\n"
    "  --scale-shape ...   y_scale's shape (default: scalar with one scale, else 1-D)\n"
    "  --axis N            per-axis / blocked axis (default 1)\n"
    "  --block-size B      blocked quantization (default 0: none)\n"
    "  --output-dtype T    uint8 (default), int8, uint16, int16, uint4, int4,\n"
    "                      float8e4m3fn, float8e4m3fnuz, float8e5m2, float8e5m2fnuz,\n"
    "                      float4e2m1\n"
    "  --precision T       the division's type: float, float16, bfloat16\n"
    "  --no-saturate       saturate=0 (float8 outputs)\n"
    "  --zero-point Z,...  y_zero_point, one per scale or one for all (integers;\n"
    "                      0 for float types)\n"
    "  --opset N           19..28 (default 28): the opset's QuantizeLinear, its\n"
    "                      types and attributes (a newer one is an error); below\n"
    "                      24 saturating +-Inf into FNUZ types is NaN\n";

constexpr std::string_view dequantize_help =
    "usage: minifloat dequantize-linear --shape D0,D1,... --x-type T --scales S,S,...\n"
    "                 [--scale-type T] [--scale-shape S0,S1,...|scalar] [--axis N]\n"
    "                 [--block-size B] [--output-dtype T] [--zero-point Z,Z,...]\n"
    "                 [--opset N]\n"
    "\n"
    "ONNX DequantizeLinear (opset 28 unless --opset): y = (x - x_zero_point) * x_scale, the exact\n"
    "product rounded once to the output type (docs/onnx.md). x is read from stdin:\n"
    "row-major elements separated by blanks, commas or newlines, each the x\n"
    "type's code in hex ('0x' prefix; required for the float types) or, for\n"
    "the integer types, a decimal integer. One line per element of y: its bits\n"
    "in hex (8 digits for float, 4 for float16/bfloat16).\n"
    "\n"
    "  --shape D0,D1,...   x's shape (required)\n"
    "  --x-type T          uint8, int8, uint16, int16, uint4, int4, float8e4m3fn,\n"
    "                      float8e4m3fnuz, float8e5m2, float8e5m2fnuz, float4e2m1\n"
    "  --scales S,...      x_scale's elements: bits in hex or numbers (required)\n"
    "  --scale-type T      float (default), float16, bfloat16, float8e8m0\n"
    "  --scale-shape ...   x_scale's shape (default: scalar with one scale, else 1-D)\n"
    "  --axis N, --block-size B   as for quantize-linear\n"
    "  --output-dtype T    float, float16, bfloat16 (default: the scale's type)\n"
    "  --zero-point Z,...  x_zero_point, one per scale or one for all\n"
    "  --opset N           19..28 (default 28): the opset's DequantizeLinear, its\n"
    "                      types and attributes (a newer one is an error)\n";

constexpr std::string_view cast_help =
    "usage: minifloat cast --to T [--from T] [--saturate] [--round-mode M] [--opset N]\n"
    "\n"
    "ONNX Cast (opset 28 unless --opset; docs/onnx.md) of the values on stdin,\n"
    "separated by blanks, commas or newlines: each is the --from type's bits ('0x'\n"
    "and hex digits) or a number, rounded to that type (nearest even; a finite\n"
    "number beyond its range is an error). One line per value: the --to type's\n"
    "code in hex (4-bit types one digit).\n"
    "\n"
    "  --to T          float, float16, bfloat16, float8e4m3fn, float8e4m3fnuz,\n"
    "                  float8e5m2, float8e5m2fnuz, float4e2m1, float8e8m0\n"
    "                  (every type also by any alias: 'minifloat --help')\n"
    "  --from T        the input's type, any of the above (default float): a\n"
    "                  narrow type's codes cast to float16, bfloat16, float, ...\n"
    "  --saturate      saturate=1: out-of-range values and +-Inf to +-max (the\n"
    "                  float8 types and float8e8m0). Without it saturate=0,\n"
    "                  unlike an ONNX node without the attribute (default 1)\n"
    "  --round-mode M  float8e8m0's round_mode: up (default), down, nearest\n"
    "  --opset N       19..28: the opset's Cast table and type list (a type\n"
    "                  newer than N is an error); below 24 saturating +-Inf\n"
    "                  into the FNUZ types is NaN, from 24 on +-max\n";

constexpr choice<onnx::e8m0_round_mode> round_modes[] = {
    {"up", onnx::e8m0_round_mode::up},
    {"down", onnx::e8m0_round_mode::down},
    {"nearest", onnx::e8m0_round_mode::nearest}};


std::vector<std::string_view> split_list(std::string_view text) {
  std::vector<std::string_view> items;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find(',', start);
    if (end == std::string_view::npos) end = text.size();
    items.push_back(text.substr(start, end - start));
    start = end + 1;
  }
  return items;
}

std::int64_t parse_integer(std::string_view context, std::string_view text) {
  const std::string s(text);
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (s.empty() || end != s.c_str() + s.size()) {
    throw usage_error(std::string(context) + ": not an integer: " + quoted(text));
  }
  if (errno == ERANGE) {  // strtoll clamps to LLONG_MIN / LLONG_MAX
    throw usage_error(std::string(context) + ": " + quoted(text) + " is outside the 64-bit range");
  }
  return v;
}

std::vector<std::int64_t> parse_shape(std::string_view context, std::string_view text) {
  std::vector<std::int64_t> shape;
  if (text == "scalar") return shape;
  for (const std::string_view d : split_list(text)) {
    const std::int64_t v = parse_integer(context, d);
    if (v < 0) throw usage_error(std::string(context) + ": negative dimension " + quoted(d));
    shape.push_back(v);
  }
  return shape;
}

// A type in any spelling of the format registry ("float8e4m3fn", "e4m3fn",
// "HF8", "FLOAT16", "fp32", ...).
onnx::data_type parse_type(std::string_view context, std::string_view text) {
  const onnx::data_type t = onnx::data_type_from_name(text);
  if (t != onnx::data_type::undefined) return t;
  throw_not_a_type(context, text, "a type of the ONNX operators",
                   onnx::data_type_list() + "; or an alias of one, in any case");
}

// The registry's format of a float type.
mf::format_id format_of(onnx::data_type type) {
  for (const auto& e : onnx::data_type_formats) {
    if (e.type == type) return e.format;
  }
  return mf::format_id::float32;
}

// One element of `type` from text: for a float type the tool's one rule for
// float text (command_line.hpp, read_float: "0x" + hex is the bits, else a
// number rounded to the type, out of range an error); for an integer type
// "0x" + hex bits or a decimal integer in the type's range.
float_reading parse_element(std::string_view text, onnx::data_type type, std::uint32_t& code) {
  if (!onnx::is_integer(type)) {
    std::uint64_t bits = 0;
    const float_reading r = read_float(text, format_of(type), bits);
    code = static_cast<std::uint32_t>(bits);
    return r;
  }
  const std::string s(text);
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    char* end = nullptr;
    const unsigned long long v = std::strtoull(s.c_str() + 2, &end, 16);
    if (end != s.c_str() + s.size() || v >> onnx::bits_of(type)) return float_reading::not_a_number;
    code = static_cast<std::uint32_t>(v);
    return float_reading::ok;
  }
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  const onnx::integer_range r = onnx::range_of(type);
  if (s.empty() || end != s.c_str() + s.size() || v < r.lowest || v > r.highest) {
    return float_reading::not_a_number;
  }
  code = static_cast<std::uint32_t>(v) & ((1u << onnx::bits_of(type)) - 1u);
  return float_reading::ok;
}

// --opset N: one of the opsets the library implements; the library applies
// it (onnx/opset.hpp).
int parse_opset(const command_line& in) {
  const auto v = in.value("--opset");
  if (!v) return onnx::newest_opset;
  const std::uint64_t opset = parse_unsigned("--opset", *v);
  if (!onnx::is_known_opset(static_cast<int>(opset)) || opset > 1000) {
    throw usage_error("--opset: unknown opset " + quoted(*v) + " (one of: " +
                      onnx::known_opsets() + ")");
  }
  return static_cast<int>(opset);
}

struct onnx_command {
  bool quantize = true;
  std::vector<std::int64_t> shape;
  bool has_shape = false;
  onnx::data_type x_type = onnx::data_type::undefined;
  onnx::data_type scale_type = onnx::data_type::float32;
  std::vector<std::string_view> scales;
  std::vector<std::int64_t> scale_shape;
  bool has_scale_shape = false;
  std::vector<std::string_view> zero_point;
  onnx::quantize_attributes q;
  onnx::dequantize_attributes d;
};

onnx_command parse(const command_line& in, bool quantize) {
  onnx_command c;
  c.quantize = quantize;
  if (quantize) c.x_type = onnx::data_type::float32;
  if (in.has("--no-saturate")) c.q.saturate = false;
  if (const auto v = in.value("--shape")) {
    c.shape = parse_shape("--shape", *v);
    c.has_shape = true;
  }
  if (const auto v = in.value("--x-type")) c.x_type = parse_type("--x-type", *v);
  if (const auto v = in.value("--scales")) c.scales = split_list(*v);
  if (const auto v = in.value("--scale-type")) {
    c.scale_type = parse_type("--scale-type", *v);
  }
  if (const auto v = in.value("--scale-shape")) {
    c.scale_shape = parse_shape("--scale-shape", *v);
    c.has_scale_shape = true;
  }
  if (const auto v = in.value("--axis")) c.q.axis = c.d.axis = parse_integer("--axis", *v);
  if (const auto v = in.value("--block-size")) {
    c.q.block_size = c.d.block_size = parse_integer("--block-size", *v);
  }
  if (const auto v = in.value("--output-dtype")) {
    c.q.output_dtype = c.d.output_dtype = parse_type("--output-dtype", *v);
  }
  if (const auto v = in.value("--precision")) {
    c.q.precision = parse_type("--precision", *v);
  }
  c.q.opset = c.d.opset = parse_opset(in);
  if (const auto v = in.value("--zero-point")) c.zero_point = split_list(*v);
  if (!c.has_shape) throw usage_error("missing --shape");
  if (c.x_type == onnx::data_type::undefined) throw usage_error("missing --x-type");
  if (c.scales.empty() || (c.scales.size() == 1 && c.scales[0].empty())) {
    throw usage_error("missing --scales");
  }
  if (!c.has_scale_shape && c.scales.size() > 1) {
    c.scale_shape = {static_cast<std::int64_t>(c.scales.size())};
  }
  return c;
}

onnx::tensor tensor_from_text(std::string_view context, onnx::data_type type,
                              std::vector<std::int64_t> shape,
                              const std::vector<std::string_view>& items) {
  std::vector<std::uint32_t> codes(items.size());
  for (std::size_t i = 0; i < items.size(); ++i) {
    const float_reading r = parse_element(items[i], type, codes[i]);
    if (r != float_reading::ok) throw_float_error(context, items[i], onnx::name_of(type), r);
  }
  std::size_t count = 0;
  try {
    count = onnx::tensor{type, shape, {}}.element_count();
  } catch (const onnx::invalid_model& error) {
    throw usage_error(std::string(context) + ": " + error.what());
  }
  if (count != codes.size()) {
    throw usage_error(std::string(context) + ": " + std::to_string(codes.size()) +
                      " values for a shape of " + std::to_string(count) + " elements");
  }
  return onnx::tensor_from_codes(type, std::move(shape), codes);
}

// How a stdin element of a float type is written: as the tool's rule for
// float text has it (bits with "0x", else a number rounded to the type), or
// only as a code with "0x" (DequantizeLinear's x, whose elements are codes:
// a code dump without the prefix must not read as numbers).
enum class float_text { bits_or_number, code };

// Every element of stdin, in order, as elements of `type`. Elements are
// separated by blanks, by newlines, or by one comma with blanks around it
// if any; an empty element (",,", a comma that starts or ends a line) is an
// error, as it is in the flags' lists, so that a missing value cannot move
// the ones after it; so is any white space but spaces and tabs (a "\r"
// inside a line: the line reader drops the one before a newline).
std::vector<std::uint32_t> read_elements(onnx::data_type type, float_text rule) {
  std::vector<std::uint32_t> codes;
  line_reader in(stdin);
  std::string_view line;
  while (in.next(line)) {
    const auto fail = [&](const std::string& what) {
      throw usage_error("line " + std::to_string(in.line_number()) + ": " + what);
    };
    bool after_element = false;
    bool after_comma = false;
    std::size_t i = 0;
    while (true) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      if (i == line.size()) break;
      if (line[i] == ',') {
        if (!after_element) fail("empty element before ',': " + quote_line(line));
        after_element = false;
        after_comma = true;
        ++i;
        continue;
      }
      std::size_t j = i;
      while (j < line.size() && line[j] != ' ' && line[j] != '\t' && line[j] != ',') ++j;
      const std::string_view token = line.substr(i, j - i);
      const std::string type_name(onnx::name_of(type));
      std::uint32_t code = 0;
      const bool code_only = rule == float_text::code && !onnx::is_integer(type);
      const bool has_prefix = token.size() > 2 && token[0] == '0' && (token[1] == 'x' || token[1] == 'X');
      if (code_only && !has_prefix) {
        fail("not a " + type_name + " code ('0x' and hex digits): " + quote_line(token));
      }
      const float_reading r = parse_element(token, type, code);
      if (r == float_reading::out_of_range) fail("out of " + type_name + "'s range: " + quote_line(token));
      if (r != float_reading::ok) fail("not a " + type_name + " value: " + quote_line(token));
      codes.push_back(code);
      after_element = true;
      after_comma = false;
      i = j;
    }
    if (after_comma) fail("empty element after ',': " + quote_line(line));
  }
  return codes;
}

void write_codes(const onnx::tensor& y) {
  output_buffer out(stdout);
  const int digits = (onnx::bits_of(y.type) + 3) / 4;
  for (const std::uint32_t code : onnx::codes_of(y)) {
    out.write_hex(code, digits);
    out.put('\n');
  }
  out.flush();
}

int run(const command_line& in, bool quantize) {
  const onnx_command c = parse(in, quantize);
  if (!quantize && !onnx::is_integer(c.x_type) && !onnx::is_float8(c.x_type) &&
      c.x_type != onnx::data_type::float4e2m1) {
    throw usage_error("--x-type must be an integer, float8 or float4e2m1 type");
  }
  const onnx::tensor scale = tensor_from_text("--scales", c.scale_type, c.scale_shape,
                                              c.scales);
  onnx::tensor zero;
  const bool has_zero = !c.zero_point.empty();
  if (has_zero) {
    const onnx::data_type zero_type =
        quantize ? onnx::quantize_output_type(c.q.output_dtype, nullptr) : c.x_type;
    // One value stands for every scale's zero point.
    std::vector<std::string_view> zeros = c.zero_point;
    if (zeros.size() == 1) zeros.assign(scale.element_count(), zeros[0]);
    zero = tensor_from_text("--zero-point", zero_type, c.scale_shape, zeros);
  }

  const std::vector<std::uint32_t> x_codes =
      read_elements(c.x_type, quantize ? float_text::bits_or_number : float_text::code);
  std::size_t count = 1;
  for (const std::int64_t d : c.shape) count *= static_cast<std::size_t>(d);
  if (count != x_codes.size()) {
    throw usage_error(std::to_string(x_codes.size()) +
                      " values on stdin for a shape of " + std::to_string(count) + " elements");
  }
  const onnx::tensor x = onnx::tensor_from_codes(c.x_type, c.shape, x_codes);

  onnx::tensor y;
  onnx::quantize_attributes q = c.q;
  // With a zero point, its type is the output's (QuantizeLinear: "If both
  // are specified, output_dtype must be T3"), as at opset 19, which has no
  // output_dtype attribute: --output-dtype then only types the zero point.
  if (has_zero) q.output_dtype = onnx::data_type::undefined;
  try {
    y = quantize ? onnx::quantize_linear(x, scale, has_zero ? &zero : nullptr, q)
                 : onnx::dequantize_linear(x, scale, has_zero ? &zero : nullptr, c.d);
  } catch (const onnx::invalid_model& error) {
    throw usage_error(error.what());
  }
  write_codes(y);
  return 0;
}

}  // namespace

int run_cast(const options& o) {
  const command_line& in = o.line;
  const auto to_text = in.value("--to");
  if (!to_text) throw usage_error("missing --to");
  const onnx::data_type to = parse_type("--to", *to_text);
  const onnx::data_type from =
      in.has("--from") ? parse_type("--from", *in.value("--from")) : onnx::data_type::float32;
  onnx::cast_attributes a;
  a.opset = parse_opset(in);
  // "saturate ... only applies for float 8 conversion" (Cast-19 and later,
  // float8e8m0 from Cast-24); round_mode is float8e8m0's alone (Cast-24).
  const bool saturating_type = onnx::is_float8(to) || to == onnx::data_type::float8e8m0;
  if (!saturating_type) {
    in.reject_if_given("--saturate", "with --to " + std::string(*to_text) +
                                         " (saturate applies to the float8 types and float8e8m0)");
  }
  if (to != onnx::data_type::float8e8m0) {
    in.reject_if_given("--round-mode", "with --to " + std::string(*to_text) +
                                           " (round_mode is float8e8m0's)");
  }
  a.saturate = in.has("--saturate");
  a.round_mode = in.choice_value("--round-mode", "round mode", onnx::e8m0_round_mode::up, round_modes);
  const std::vector<std::uint32_t> codes = read_elements(from, float_text::bits_or_number);
  onnx::tensor y;
  try {
    y = onnx::cast(onnx::tensor_from_codes(from, {static_cast<std::int64_t>(codes.size())}, codes),
                   to, a);
  } catch (const onnx::invalid_model& error) {
    throw usage_error(error.what());
  }
  write_codes(y);
  return 0;
}


std::string_view cast_help_text() { return cast_help; }
std::string_view quantize_linear_help() { return quantize_help; }
std::string_view dequantize_linear_help() { return dequantize_help; }

int run_quantize_linear(const options& o) { return run(o.line, true); }
int run_dequantize_linear(const options& o) { return run(o.line, false); }

}  // namespace minifloat_cli
