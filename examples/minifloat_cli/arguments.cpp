#include "arguments.hpp"

#include <cstdio>
#include <cstdlib>

#include <minifloat/config.hpp>

#include "commands.hpp"
#include "line_io.hpp"

namespace minifloat_cli {
namespace {

constexpr std::string_view usage_head =
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
    "  cast --to T [--from T] [--saturate] [--round-mode M] [--opset N]\n"
    "                                ONNX Cast of the values on stdin\n"
    "  calibrate FORMAT [--method max|percentile|mse|mse-histogram|kl]\n"
    "                [--percentile P] [--power-of-two] [--per-row N] [--binary]\n"
    "                                numbers on stdin -> a static scale and its cost\n"
    "\n"
    "FORMAT: a name or an alias, in any case:\n";

constexpr std::string_view usage_types =
    "\n"
    "The type options of matmul, eltwise, vectors-matmul (--a, --b, --out,\n"
    "--scale-type), quantize-linear and dequantize-linear (--x-type,\n"
    "--output-dtype, ...), cast's and encode/decode's --from/--to take the same\n"
    "names, and these:\n";

constexpr std::string_view usage_tail =
    "\n"
    "'minifloat COMMAND --help' describes a command. '--' ends the options.\n"
    "Every other word an option takes (a mode, a model, a method, ...) is read\n"
    "in any case, with '-' and '_' alike: nearest-even is nearest_even.\n"
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
    "A line is a value of the source type by the tool's one rule for floats:\n"
    "'0x' and hex digits only is its bits ('0x3f800000' is 1.0, '0x1' the\n"
    "smallest f32 subnormal, '0x7fc00001' a NaN with a payload); anything else\n"
    "is a number as strtof/strtod read it: '1.5', '-0x1.8p-3', '0x1p0', '1e-3',\n"
    "'inf', 'nan'. The number is read into the source type (round to nearest;\n"
    "a finite number beyond its range, '1e50' for f32, is an error), then\n"
    "rounded once into FORMAT by the library. Spaces and tabs around a value and a\n"
    "'\\r' before the newline are ignored; an empty line, or other white space\n"
    "('\\v', '\\f', '\\r'), is an error.\n"
    "\n"
    "  --round MODE    nearest-even (rne, the default), toward-zero (rtz),\n"
    "                  toward-positive (up, ceil), toward-negative (down,\n"
    "                  floor), or\n"
    "                  stochastic (sr): line i (0-based) is rounded by\n"
    "                  mf::round_to_stochastic with the random bits\n"
    "                  mf::stochastic_random_bits(seed, i, B), as\n"
    "                  mf::bulk::encode with mf::conversion::stochastic does.\n"
    "  --saturate      overflow gives +-max, and so do +-Inf inputs (but not in\n"
    "                  the FNUZ formats, where Inf becomes NaN, nor -Inf in\n"
    "                  e8m0fnu). Without it overflow follows IEEE 754: to\n"
    "                  nearest, Inf (NaN where the format has no Inf); toward\n"
    "                  zero, +-max; toward +-inf, Inf on that side, max on the\n"
    "                  other. e2m1fn, e2m3fn and e3m2fn give +-max in every\n"
    "                  mode (no Inf, no NaN), so there it changes nothing; it is\n"
    "                  accepted, for scripts that pass it for every format.\n"
    "                  docs/semantics.md 3.4, 3.6. ONNX's saturate is 'minifloat\n"
    "                  cast', whose FNUZ and e8m0 rules differ (docs/onnx.md)\n"
    "  --seed N        the Philox seed (decimal or 0x hex); needed by stochastic,\n"
    "                  an error with any other --round\n"
    "  --random-bits B random bits per value for stochastic, 1..32 (default 32;\n"
    "                  with 8 or fewer four values share a Philox word, with 16\n"
    "                  or fewer two); an error without --round stochastic\n"
    "  --from f32|f64  the source type (default f32; float32, float64 and their\n"
    "                  other aliases too)\n";

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
    "    every power of two from below the smallest value to 2^-149; for a\n"
    "    format without zero (e8m0fnu) also 3/4 of the smallest value, with\n"
    "    its 1 and 2 ulp neighbours;\n"
    "  - then N (--count, default 0) random float32 inputs: input i has the bits\n"
    "    mf::stochastic_random_word(seed ^ 0x9e3779b97f4a7c15, i).\n"
    "The output is deterministic for a given seed (default 0).\n"
    "\n"
    "  --round MODE    as for encode; with stochastic, vector i (0-based, over all\n"
    "                  lines) uses mf::stochastic_random_bits(seed, i, B)\n"
    "  --saturate      as for encode\n"
    "  --count N       number of random inputs after the structured set; the\n"
    "                  total number of lines must fit in 64 bits (N at most\n"
    "                  2^64 - 1 - the structured count, else status 2)\n"
    "  --seed N        the Philox seed (decimal or 0x hex) of stochastic\n"
    "                  rounding and of the --count random inputs; an error\n"
    "                  when it would do nothing (neither of those)\n"
    "  --random-bits B as for encode (default 32)\n"
    "  --csv           add a column header line and a third column, the class\n"
    "                  of the output (zero, subnormal, normal, inf, nan)\n";

constexpr std::string_view matmul_help =
    "usage: minifloat matmul --a TYPE --b TYPE --out TYPE [options] < input\n"
    "\n"
    "C = out(post(sum_k A[i,k] * B[k,j])) by the hybrid reference (docs/hybrid.md).\n"
    "Input: any number of problems, each a line 'M K N' (or --m/--k/--n for all),\n"
    "then M*K hex encodings of A and K*N of B, row-major, separated by spaces or\n"
    "newlines ('0x' optional; '#' lines are comments), optionally followed by a\n"
    "'# C' line and the expected C: vectors-matmul's output is read as it is.\n"
    "Output per problem: C, one row per line; with --amax a '# amax: BITS' line\n"
    "(float32 bits in hex); with --print-acc a '# acc_fp32' block (each element's\n"
    "float32 accumulator, hex bits; computed by the reference loop) or, for an\n"
    "integer MatMul, '# acc_int32' (the int32 sums, two's complement hex); with\n"
    "--exact-error a '# error_ulps' block: each element's error against the exact\n"
    "model, in ulps of the output type (the exact value rounded to float32).\n"
    "Problems' outputs are separated by an empty line.\n"
    "\n"
    "  --check              compare each C with the problem's expected C (which\n"
    "                       every problem then needs): exit status 1 on a\n"
    "                       difference, the first one named on stderr\n"
    "\n"
    "  TYPE                 HF8 (e4m3fn), BF8 (e5m2), FP16 (binary16), BF16\n"
    "                       (bfloat16), I8 (int8), U8 (uint8); --out also FP32\n"
    "                       (float32); any alias of these, in any case\n"
    "  --table T            vendor_hybrid_fp8 (default: the vendor's Hybrid FP8\n"
    "                       table, K a multiple of 16), cublaslt_fp8, any\n"
    "  --no-z-check         accept any K under the vendor table\n"
    "  --model M            sequential_fp32 (default), exact, exact_to_output,\n"
    "                       avx512_bf16_pairs, amx_tile_pairs, chunked_exact,\n"
    "                       reduced_precision\n"
    "  --chunk N            amx_tile_pairs (default 32) / chunked_exact (64)\n"
    "  --order sdm|guide    amx_tile_pairs product order (default sdm)\n"
    "  --nan-payload canonical|propagate\n"
    "                       avx512_bf16_pairs, amx_tile_pairs: a NaN is 0x7fc00000\n"
    "                       (default) or the NaN the instruction writes\n"
    "  --chunk-rounding R   chunked_exact: nearest-even (rne, default) or\n"
    "                       toward-zero (rtz)\n"
    "  --presum-round       chunked_exact: round the chunk sum first\n"
    "  --bits N --promote-every N --variant seq|block --block N\n"
    "  --trunc toward-zero|floor (rtz, toward-negative, down)\n"
    "                       reduced_precision (defaults 14, 128, seq, 32, toward-zero)\n"
    "  --scale-a X --scale-b X\n"
    "                       per-tensor float32 scales (default 1): float32 bits\n"
    "                       as 0x3f800000, or a number (1e50 is out of range)\n"
    "  --scale-a-rows L --scale-b-columns L --bias L\n"
    "                       comma-separated float32 lists (M, N and N values)\n"
    "  --output-scale X --output-scale-rule multiply|divide\n"
    "                       the output scale; the rule is required with it\n"
    "  --placement epilogue|operands\n"
    "  --saturate           saturating output conversion\n"
    "  --round nearest-even|stochastic (rne, sr) [--seed N] [--random-bits B]\n"
    "        [--offset N]\n"
    "  --int-scale X --requant exact|fp32\n"
    "                       integer MatMul requantization (default 1, exact)\n"
    "\n"
    "An option the request does not use is an error (status 2, with the reason):\n"
    "a model's own options under another model (--chunk under sequential_fp32\n"
    "or exact), --int-scale/--requant for a float MatMul, and for an integer\n"
    "MatMul (I8 x I8, U8 x U8) every option but --int-scale, --requant, the\n"
    "sizes, --table and --no-z-check.\n";

constexpr std::string_view eltwise_help =
    "usage: minifloat eltwise --op add|sub|mul --a TYPE --b TYPE --out TYPE [options]\n"
    "\n"
    "C = out(A op B) by the hybrid element-wise reference (docs/hybrid.md).\n"
    "Input: a line 'ROWS COLUMNS' (or --rows/--columns), then ROWS*COLUMNS hex\n"
    "encodings of A, then B: ROWS*COLUMNS, 1 (--b-shape scalar) or COLUMNS\n"
    "(--b-shape row) encodings. Output: C, one row per line.\n"
    "\n"
    "  --table T            vendor_hybrid_fp8 (default) or any; --no-z-check\n"
    "  --scale-type FP16|BF16\n"
    "                       the format of the FP8 tensors' scales (required with a scale)\n"
    "  --scale-a X --scale-b X\n"
    "                       scales of FP8 tensors (values of the scale type)\n"
    "  --exact              round once from the exact value\n"
    "  --placement epilogue|operands\n"
    "  --saturate, --round nearest-even|stochastic (rne, sr) [--seed N]\n"
    "        [--random-bits B] [--offset N]\n"
    "\n"
    "TYPE as for matmul. An option the request does not use is an error\n"
    "(--scale-type without a scale; for integer tensors the scales, --exact,\n"
    "--placement, --saturate and --round).\n";

constexpr std::string_view vectors_matmul_help =
    "usage: minifloat vectors-matmul --a TYPE --b TYPE --out TYPE --m M --k K --n N\n"
    "                                [--data-seed N] [matmul options]\n"
    "\n"
    "A seeded random MatMul case for a testbench: '#' lines naming every\n"
    "parameter, then 'M K N', A and B as `minifloat matmul` reads them (uniformly\n"
    "random finite encodings, so every exponent occurs), then a '# C' line and C.\n"
    "Element i of A's stream has bits stochastic_random_word(data_seed ^\n"
    "0xa5a5a5a5a5a5a5a5, i) (B: ^ 0x5a5a5a5a5a5a5a5a), cut to the type's width;\n"
    "non-finite codes are skipped. --seed is the stochastic output rounding's.\n"
    "With an FP8 output most such sums lie beyond its range (NaN, or max with\n"
    "--saturate): an output scale brings them in, e.g. --output-scale 0x1p-12\n"
    "--output-scale-rule multiply for HF8 x HF8 -> HF8 with K = 16.\n";

constexpr std::string_view calibrate_help =
    "usage: minifloat calibrate FORMAT [--method max|percentile|mse|mse-histogram|kl]\n"
    "                          [--percentile P] [--power-of-two] [--per-row N] [--binary]\n"
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
    "  --method mse         the scale of least squared error on the data: an\n"
    "                       exact search over every value read (kept in memory,\n"
    "                       4 bytes a value; with --per-row, one row's)\n"
    "  --method mse-histogram\n"
    "                       the same search on the histogram's model (each bin\n"
    "                       quantized at its mean; memory: one histogram): can\n"
    "                       miss the data's least error by a little\n"
    "                       (docs/scaling.md gives the measured gap)\n"
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

// --from / --to: float32 or float64 in any spelling of the registry.
binary_type parse_binary_type(std::string_view option, std::string_view text) {
  const std::optional<mf::format_id> id = mf::find_format(text);
  if (id == mf::format_id::float32) return binary_type::f32;
  if (id == mf::format_id::float64) return binary_type::f64;
  throw_not_a_type(option, text, option == "--from" ? "a source type" : "a target type",
                   "f32 (float32), f64 (float64)");
}

constexpr choice<std::string_view> methods[] = {
    {"max", "max"}, {"percentile", "percentile"}, {"mse", "mse"},
    {"mse-histogram", "mse-histogram"}, {"kl", "kl"}};

const std::vector<rounding_mode> every_mode = {
    rounding_mode::nearest_even, rounding_mode::toward_zero, rounding_mode::toward_positive,
    rounding_mode::toward_negative, rounding_mode::stochastic};

std::string canonical_format_names() {
  std::string names;
  mf::for_each_minifloat([&](auto tag) {
    if (!names.empty()) names += ' ';
    names += mf::canonical_name(tag.id);
  });
  return names;
}

// encode, vectors: --round, --saturate, --seed, --random-bits, and the
// rules that make an option without effect an error.
void read_conversion_options(const command_line& line, options& o) {
  if (const auto mode = line.value("--round")) {
    o.mode = parse_rounding_mode("--round", *mode, every_mode);
  }
  o.saturate = line.has("--saturate");
  if (const auto seed = line.value("--seed")) {
    o.seed = parse_unsigned("--seed", *seed);
    o.has_seed = true;
  }
  o.random_bits = static_cast<int>(line.unsigned_value("--random-bits", 32, 1, 32));
  o.count = line.has("--count") ? parse_unsigned("--count", *line.value("--count")) : 0;
  if (o.mode == rounding_mode::stochastic && !o.has_seed) {
    throw usage_error("--round stochastic needs --seed N");
  }
  if (line.has("--random-bits") && o.mode != rounding_mode::stochastic) {
    throw usage_error("--random-bits needs --round stochastic");
  }
  // An option that would change nothing is a mistake (a testbench that
  // meant stochastic vectors would get nearest-even ones): vectors' seed also
  // draws the --count random inputs.
  const bool seed_only_for_rounding =
      o.what == command::encode || (o.what == command::vectors && o.count == 0);
  if (o.has_seed && o.mode != rounding_mode::stochastic && seed_only_for_rounding) {
    throw usage_error(o.what == command::vectors ? "--seed needs --round stochastic or --count N"
                                                 : "--seed needs --round stochastic");
  }
}

void read_calibrate_options(const command_line& line, options& o) {
  o.method = std::string(line.choice_value("--method", "method", std::string_view("max"), methods));
  if (const auto p = line.value("--percentile")) {
    o.percentile = parse_float64("--percentile", *p);
    if (!(o.percentile > 0) || !(o.percentile <= 100)) {
      throw usage_error("--percentile: expected a number in (0, 100], got " + quoted(*p));
    }
    if (o.method != "percentile") {
      throw usage_error("--percentile needs --method percentile");
    }
  }
  o.power_of_two = line.has("--power-of-two");
  if (const auto rows = line.value("--per-row")) {
    o.per_row = parse_unsigned("--per-row", *rows);
    if (o.per_row == 0) throw usage_error("--per-row must be at least 1");
  }
  o.binary = line.has("--binary");
  if (o.format == mf::format_id::e8m0fnu) {
    throw usage_error("e8m0fnu has no zero to quantize into (a scale format)");
  }
}

}  // namespace

std::string format_vocabulary(bool minifloats) {
  std::string text;
  for (std::size_t i = 0; i < mf::format_count; ++i) {
    const auto id = static_cast<mf::format_id>(i);
    if (mf::names_a_minifloat(id) != minifloats) continue;
    std::string line = "  " + std::string(mf::canonical_name(id));
    line.resize(15, ' ');
    for (const mf::format_name& row : mf::format_names) {
      if (row.id == id && row.name != mf::canonical_name(id)) {
        line += ' ';
        line += row.name;
      }
    }
    text += line + "\n";
  }
  return text;
}

options parse_arguments(const std::vector<std::string_view>& arguments) {
  options o;
  o.line = parse_command_line(arguments);
  const command_line& line = o.line;
  o.what = line.what;
  o.help = line.help;
  o.version = line.version;
  if (o.help || o.version || !takes_format(o.what)) return o;

  if (line.operands.empty()) {
    throw usage_error("missing FORMAT (one of: " + canonical_format_names() + ")");
  }
  if (line.operands.size() > 1) {
    throw usage_error("unexpected argument " + quoted(line.operands[1]));
  }
  const std::optional<mf::format_id> format = mf::find_minifloat(line.operands[0]);
  if (!format) {
    const std::string valid = canonical_format_names() +
                              "; or an alias of one, in any case: 'minifloat --help' lists them";
    if (mf::find_format(line.operands[0])) {
      throw usage_error(quoted(line.operands[0]) + " is not a minifloat format (one of: " + valid + ")");
    }
    throw usage_error("unknown format " + quoted(line.operands[0]) + " (one of: " + valid + ")");
  }
  o.format = *format;
  // OCP's FP8 "E4M3" is e4m3fn; in the registry's case-insensitive lookup
  // the OCP spelling finds ml_dtypes' e4m3 (with Inf, max 240): a golden
  // model for the wrong format unless someone says so.
  if (line.operands[0] == "E4M3") {
    std::fprintf(stderr,
                 "%snote: 'E4M3' is e4m3 (ml_dtypes' float8_e4m3: max 240, with Inf); OCP's "
                 "FP8 E4M3 is e4m3fn\n",
                 message_prefix(o.what).c_str());
  }

  if (line.has("--csv") && line.has("--markdown")) {
    throw usage_error("--csv and --markdown exclude each other");
  }
  if (o.what == command::vectors) {
    o.csv = line.has("--csv");
  } else if (line.has("--csv")) {
    o.style = table_style::csv;
  } else if (line.has("--markdown")) {
    o.style = table_style::markdown;
  }
  if (const auto from = line.value("--from")) o.from = parse_binary_type("--from", *from);
  if (const auto to = line.value("--to")) o.to = parse_binary_type("--to", *to);
  if (o.what == command::encode || o.what == command::vectors) read_conversion_options(line, o);
  if (o.what == command::calibrate) read_calibrate_options(line, o);
  return o;
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

std::string_view usage_text() {
  static const std::string text =
      std::string(usage_head) + format_vocabulary(true) + std::string(usage_types) +
      format_vocabulary(false) + std::string(usage_tail);
  return text;
}

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
    case command::cast: return cast_help_text();
    case command::calibrate: return calibrate_help;
    case command::matmul: return matmul_help;
    case command::eltwise: return eltwise_help;
    case command::vectors_matmul: return vectors_matmul_help;
    case command::none: break;
  }
  return usage_text();
}

}  // namespace minifloat_cli
