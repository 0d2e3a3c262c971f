// matmul, eltwise and vectors-matmul: the hybrid FP8 arithmetic reference
// (mf::hybrid) from the shell, for testbenches. These commands have their
// own options (types, table, model, scales), parsed here; errors are reported
// as in the rest of the tool (usage_error: exit 2, one line on stderr), and
// nothing is written until the whole result is computed.
#include <cerrno>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <minifloat/hybrid.hpp>
#include <minifloat/random.hpp>

#include "commands.hpp"
#include "line_io.hpp"

namespace minifloat_cli {
namespace {

namespace hy = mf::hybrid;

constexpr std::string_view matmul_help =
    "usage: minifloat matmul --a TYPE --b TYPE --out TYPE [options] < input\n"
    "\n"
    "C = out(post(sum_k A[i,k] * B[k,j])) by the hybrid reference (docs/hybrid.md).\n"
    "Input: a line 'M K N' (or --m/--k/--n), then M*K hex encodings of A and K*N of\n"
    "B, row-major, separated by spaces or newlines ('0x' optional). Output: C, one\n"
    "row per line; with --amax a final '# amax: X' line; with --exact-error a\n"
    "'# error_ulps' block: each element's error against the exact model, in ulps\n"
    "of the output type (the exact value rounded to float32).\n"
    "\n"
    "  TYPE                 HF8 (e4m3fn), BF8 (e5m2), FP16 (binary16), BF16\n"
    "                       (bfloat16), I8, U8; --out also FP32\n"
    "  --table T            vendor_hybrid_fp8 (default: the vendor's \"Hybrid\n"
    "                       FP8 ONNX\" table, K a multiple of 16), cublaslt_fp8,\n"
    "                       any\n"
    "  --no-z-check         accept any K under the vendor table\n"
    "  --model M            sequential_fp32 (default), exact, exact-to-output,\n"
    "                       avx512_bf16_pairs, amx_tile_pairs, chunked_exact,\n"
    "                       reduced_precision\n"
    "  --chunk N            amx_tile_pairs (default 32) / chunked_exact (64)\n"
    "  --order sdm|guide    amx_tile_pairs product order (default sdm)\n"
    "  --chunk-rounding R   chunked_exact: nearest-even (default) or toward-zero\n"
    "  --presum-round       chunked_exact: round the chunk sum first\n"
    "  --bits N --promote-every N --variant seq|block --block N\n"
    "  --trunc toward-zero|floor\n"
    "                       reduced_precision (defaults 14, 128, seq, 32, toward-zero)\n"
    "  --scale-a X --scale-b X\n"
    "                       per-tensor float32 scales (default 1)\n"
    "  --scale-a-rows L --scale-b-columns L --bias L\n"
    "                       comma-separated float32 lists (M, N and N values)\n"
    "  --output-scale X --output-scale-rule multiply|divide\n"
    "                       the output scale; the rule is required with it\n"
    "  --placement epilogue|operands\n"
    "  --saturate           saturating output conversion\n"
    "  --round nearest-even|stochastic [--seed N] [--random-bits B] [--offset N]\n"
    "  --int-scale X --requant exact|fp32\n"
    "                       integer MatMul requantization (default 1, exact)\n";

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
    "  --saturate, --round nearest-even|stochastic [--seed N] [--random-bits B]\n";

constexpr std::string_view vectors_help =
    "usage: minifloat vectors-matmul --a TYPE --b TYPE --out TYPE --m M --k K --n N\n"
    "                                [--data-seed N] [matmul options]\n"
    "\n"
    "A seeded random MatMul case for a testbench: '#' lines naming every\n"
    "parameter, then 'M K N', A and B as `minifloat matmul` reads them (uniformly\n"
    "random finite encodings, so every exponent occurs), then a '# C' line and C.\n"
    "Element i of A's stream has bits stochastic_random_word(data_seed ^\n"
    "0xa5a5a5a5a5a5a5a5, i) (B: ^ 0x5a5a5a5a5a5a5a5a), cut to the type's width;\n"
    "non-finite codes are skipped. --seed is the stochastic output rounding's.\n";

struct invocation {
  std::map<std::string, std::string, std::less<>> values;
  std::vector<std::string> flags;
  bool has(std::string_view flag) const {
    for (const auto& f : flags) {
      if (f == flag) return true;
    }
    return values.count(flag) != 0;
  }
  const std::string* value(std::string_view key) const {
    const auto it = values.find(key);
    return it == values.end() ? nullptr : &it->second;
  }
};

// Options that take no value; every other option takes one.
bool is_switch(std::string_view o) {
  return o == "--presum-round" || o == "--saturate" || o == "--no-z-check" || o == "--amax" ||
         o == "--exact-error" || o == "--exact" || o == "--help";
}

invocation parse(const std::vector<std::string_view>& arguments,
                 const std::vector<std::string_view>& allowed) {
  invocation r;
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    const std::string_view a = arguments[i];
    bool known = false;
    for (auto k : allowed) known = known || k == a;
    if (!known && a != "--help") {
      throw usage_error(std::string(arguments[0]) + ": unknown option '" + std::string(a) + "'");
    }
    if (is_switch(a)) {
      r.flags.emplace_back(a);
      continue;
    }
    if (i + 1 >= arguments.size()) throw usage_error(std::string(a) + " needs a value");
    if (r.values.count(a)) throw usage_error(std::string(a) + " given twice");
    r.values.emplace(std::string(a), std::string(arguments[++i]));
  }
  return r;
}

std::uint64_t parse_count(const invocation& in, std::string_view key, std::uint64_t fallback,
                          std::uint64_t max) {
  const std::string* v = in.value(key);
  if (!v) return fallback;
  char* end = nullptr;
  errno = 0;
  const unsigned long long n = std::strtoull(v->c_str(), &end, 10);
  if (v->empty() || *end != '\0' || errno == ERANGE || (*v)[0] == '-' || n > max) {
    throw usage_error(std::string(key) + ": not a whole number up to " + std::to_string(max) +
                      ": '" + *v + "'");
  }
  return n;
}

float parse_float(std::string_view key, const std::string& text) {
  char* end = nullptr;
  const float f = std::strtof(text.c_str(), &end);
  if (text.empty() || *end != '\0') {
    throw usage_error(std::string(key) + ": not a number: '" + text + "'");
  }
  return f;
}

std::vector<float> parse_list(const invocation& in, std::string_view key, std::size_t count) {
  std::vector<float> r;
  const std::string* v = in.value(key);
  if (!v) return r;
  std::size_t start = 0;
  while (start <= v->size()) {
    const std::size_t comma = v->find(',', start);
    const std::size_t stop = comma == std::string::npos ? v->size() : comma;
    r.push_back(parse_float(key, v->substr(start, stop - start)));
    start = stop + 1;
  }
  if (r.size() != count) {
    throw usage_error(std::string(key) + ": needs " + std::to_string(count) + " values, got " +
                      std::to_string(r.size()));
  }
  return r;
}

hy::element_type parse_type(const invocation& in, std::string_view key) {
  const std::string* v = in.value(key);
  if (!v) throw usage_error(std::string(key) + " TYPE is required");
  hy::element_type t;
  if (!hy::parse_element_type(*v, t)) {
    throw usage_error(std::string(key) + ": unknown type '" + *v + "'");
  }
  return t;
}

template <class Enum>
Enum parse_choice(const invocation& in, std::string_view key, Enum fallback,
                  std::initializer_list<std::pair<std::string_view, Enum>> choices) {
  const std::string* v = in.value(key);
  if (!v) return fallback;
  for (const auto& c : choices) {
    if (c.first == *v) return c.second;
  }
  throw usage_error(std::string(key) + ": unknown value '" + *v + "'");
}

hy::table_id parse_table(const invocation& in) {
  return parse_choice(in, "--table", hy::table_id::vendor_hybrid_fp8,
                      {{"vendor_hybrid_fp8", hy::table_id::vendor_hybrid_fp8},
                       {"cublaslt_fp8", hy::table_id::cublaslt_fp8},
                       {"any", hy::table_id::any}});
}

hy::output_conversion parse_output(const invocation& in) {
  hy::output_conversion o;
  if (in.has("--saturate")) o.on_overflow = mf::overflow::saturating;
  o.stochastic = parse_choice(in, "--round", false, {{"nearest-even", false}, {"stochastic", true}});
  if (!o.stochastic && (in.has("--seed") || in.has("--random-bits") || in.has("--offset"))) {
    throw usage_error("--seed, --random-bits and --offset need --round stochastic");
  }
  o.seed = parse_count(in, "--seed", 0, UINT64_MAX);
  o.offset = parse_count(in, "--offset", 0, UINT64_MAX);
  o.random_bits = static_cast<int>(parse_count(in, "--random-bits", 32, 32));
  if (o.random_bits < 1) throw usage_error("--random-bits: 1..32");
  return o;
}

hy::accumulation_model parse_model(const invocation& in) {
  const std::string* name = in.value("--model");
  const std::string model = name ? *name : "sequential_fp32";
  hy::accumulation_model m;
  const auto count = [&](std::string_view key, int fallback) {
    return static_cast<int>(parse_count(in, key, static_cast<std::uint64_t>(fallback), 1u << 30));
  };
  if (model == "sequential_fp32") {
    m = hy::models::sequential_fp32();
  } else if (model == "exact" || model == "exact-to-output") {
    m = hy::models::exact(model == "exact-to-output");
  } else if (model == "avx512_bf16_pairs") {
    m = hy::models::avx512_bf16_pairs();
  } else if (model == "amx_tile_pairs") {
    m = hy::models::amx_tile_pairs(count("--chunk", 32),
                                   parse_choice(in, "--order", hy::amx_order::sdm,
                                                {{"sdm", hy::amx_order::sdm}, {"guide", hy::amx_order::guide}}));
  } else if (model == "chunked_exact") {
    m = hy::models::chunked_exact(
        count("--chunk", 64),
        parse_choice(in, "--chunk-rounding", hy::fp32_rounding::nearest_even,
                     {{"nearest-even", hy::fp32_rounding::nearest_even},
                      {"toward-zero", hy::fp32_rounding::toward_zero}}),
        in.has("--presum-round"));
  } else if (model == "reduced_precision") {
    m = hy::models::reduced_precision(
        count("--bits", 14), count("--promote-every", 128),
        parse_choice(in, "--variant", hy::reduced_variant::seq,
                     {{"seq", hy::reduced_variant::seq}, {"block", hy::reduced_variant::block}}),
        count("--block", 32),
        parse_choice(in, "--trunc", hy::truncation::toward_zero,
                     {{"toward-zero", hy::truncation::toward_zero}, {"floor", hy::truncation::floor}}));
  } else {
    throw usage_error("--model: unknown model '" + model + "'");
  }
  return m;
}

// Reads whitespace-separated tokens from stdin, remembering each one's line.
class token_reader {
 public:
  token_reader() : lines_(stdin) {}
  bool next(std::string& token) {
    for (;;) {
      while (pos_ < line_.size() && (line_[pos_] == ' ' || line_[pos_] == '\t' || line_[pos_] == '\r')) ++pos_;
      if (pos_ < line_.size()) {
        const std::size_t start = pos_;
        while (pos_ < line_.size() && line_[pos_] != ' ' && line_[pos_] != '\t' && line_[pos_] != '\r') ++pos_;
        token.assign(line_.substr(start, pos_ - start));
        return true;
      }
      std::string_view line;
      if (!lines_.next(line)) return false;
      if (!line.empty() && line[0] == '#') line = {};
      line_ = std::string(line);
      pos_ = 0;
    }
  }
  std::uint64_t line() const { return lines_.line_number(); }

 private:
  line_reader lines_;
  std::string line_;
  std::size_t pos_ = 0;
};

std::size_t read_size(token_reader& in, const char* what) {
  std::string t;
  if (!in.next(t)) throw usage_error(std::string("input ended before ") + what);
  char* end = nullptr;
  const unsigned long long n = std::strtoull(t.c_str(), &end, 10);
  if (t.empty() || *end != '\0' || t[0] == '-' || n == 0 || n > (1u << 20)) {
    throw usage_error("line " + std::to_string(in.line()) + ": " + what +
                      " must be a whole number 1..1048576: " + quote_line(t));
  }
  return static_cast<std::size_t>(n);
}

std::vector<std::uint32_t> read_codes(token_reader& in, std::size_t count, hy::element_type t,
                                      const char* what) {
  std::vector<std::uint32_t> codes(count);
  const int bits = hy::storage_bits(t);
  for (auto& c : codes) {
    std::string tok;
    if (!in.next(tok)) {
      throw usage_error(std::string("input ended inside ") + what + " (" + std::to_string(count) +
                        " encodings expected)");
    }
    std::string_view digits = tok;
    if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X')) digits.remove_prefix(2);
    std::uint64_t v = 0;
    bool ok = !digits.empty() && digits.size() <= 8;
    for (char ch : digits) {
      const int d = (ch >= '0' && ch <= '9') ? ch - '0'
                    : (ch >= 'a' && ch <= 'f') ? ch - 'a' + 10
                    : (ch >= 'A' && ch <= 'F') ? ch - 'A' + 10 : -1;
      ok = ok && d >= 0;
      v = v * 16 + static_cast<std::uint64_t>(d < 0 ? 0 : d);
    }
    if (!ok || v >> bits != 0) {
      throw usage_error("line " + std::to_string(in.line()) + ": not a " +
                        std::string(hy::name(t)) + " encoding in " + what + ": " + quote_line(tok));
    }
    c = static_cast<std::uint32_t>(v);
  }
  return codes;
}

void write_matrix(output_buffer& out, const std::vector<std::uint32_t>& c, std::size_t rows,
                  std::size_t columns, hy::element_type t) {
  const int digits = hy::storage_bits(t) / 4;
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < columns; ++j) {
      if (j) out.put(' ');
      out.write_hex(c[i * columns + j], digits);
    }
    out.put('\n');
  }
}

std::string number_text(double v) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.9g", v);
  return buffer;
}

const std::vector<std::string_view> matmul_options_list = {
    "--a", "--b", "--out", "--m", "--k", "--n", "--table", "--no-z-check", "--model", "--chunk",
    "--order", "--chunk-rounding", "--presum-round", "--bits", "--promote-every", "--variant",
    "--block", "--trunc", "--scale-a", "--scale-b", "--scale-a-rows", "--scale-b-columns", "--bias",
    "--output-scale", "--output-scale-rule", "--placement", "--saturate", "--round", "--seed",
    "--random-bits", "--offset", "--int-scale", "--requant", "--amax", "--exact-error"};

struct matmul_setup {
  hy::table_id table;
  hy::element_type ta, tb, tc;
  hy::matmul_options options;
  std::vector<float> a_rows, b_columns, bias;
  float amax = 0;
};

// Everything but the sizes and data; the lists are sized once M and N are known.
matmul_setup parse_matmul(const invocation& in) {
  matmul_setup s;
  s.table = parse_table(in);
  s.ta = parse_type(in, "--a");
  s.tb = parse_type(in, "--b");
  s.tc = parse_type(in, "--out");
  auto& o = s.options;
  o.model = parse_model(in);
  o.check_z_multiple = !in.has("--no-z-check");
  if (const auto* v = in.value("--scale-a")) o.scales.a = parse_float("--scale-a", *v);
  if (const auto* v = in.value("--scale-b")) o.scales.b = parse_float("--scale-b", *v);
  if (const auto* v = in.value("--output-scale")) {
    o.scales.output = parse_float("--output-scale", *v);
    if (!in.has("--output-scale-rule")) {
      throw usage_error("--output-scale needs --output-scale-rule multiply|divide (cuBLAS "
                        "multiplies, ONNX divides: there is no default)");
    }
  }
  o.scales.output_rule = parse_choice(in, "--output-scale-rule", hy::output_scale_rule::multiply,
                                      {{"multiply", hy::output_scale_rule::multiply},
                                       {"divide", hy::output_scale_rule::divide}});
  o.scales.where = parse_choice(in, "--placement", hy::placement::epilogue,
                                {{"epilogue", hy::placement::epilogue},
                                 {"operands", hy::placement::operands}});
  o.output = parse_output(in);
  if (const auto* v = in.value("--int-scale")) o.integer_scale = parse_float("--int-scale", *v);
  o.requant = parse_choice(in, "--requant", hy::requantization::exact,
                           {{"exact", hy::requantization::exact}, {"fp32", hy::requantization::fp32}});
  if (!hy::matmul_supported(s.table, s.ta, s.tb, s.tc)) {
    throw usage_error(hy::rejection(s.table, "MatMul", s.ta, s.tb, s.tc));
  }
  return s;
}

void bind_lists(const invocation& in, matmul_setup& s, std::size_t m, std::size_t n) {
  s.a_rows = parse_list(in, "--scale-a-rows", m);
  s.b_columns = parse_list(in, "--scale-b-columns", n);
  s.bias = parse_list(in, "--bias", n);
  s.options.scales.a_rows = s.a_rows.empty() ? nullptr : s.a_rows.data();
  s.options.scales.b_columns = s.b_columns.empty() ? nullptr : s.b_columns.data();
  s.options.scales.bias = s.bias.empty() ? nullptr : s.bias.data();
  s.options.amax = &s.amax;
}

std::vector<std::uint32_t> compute(const matmul_setup& s, const std::vector<std::uint32_t>& a,
                                   const std::vector<std::uint32_t>& b, std::size_t m,
                                   std::size_t n, std::size_t k) {
  std::vector<std::uint32_t> c(m * n);
  try {
    hy::matmul(s.table, s.ta, s.tb, s.tc, a.data(), k, b.data(), n, c.data(), n, m, n, k, s.options);
  } catch (const hy::unsupported& e) {
    throw usage_error(e.what());
  }
  return c;
}

// Each element's error against `exact` (rounded to float32), in ulps of the output.
std::vector<double> exact_errors(const matmul_setup& s, const std::vector<std::uint32_t>& a,
                                 const std::vector<std::uint32_t>& b,
                                 const std::vector<std::uint32_t>& c, std::size_t m,
                                 std::size_t n, std::size_t k) {
  matmul_setup reference = s;
  reference.options.model = hy::models::exact(true);
  reference.options.output = {};
  reference.options.amax = nullptr;
  reference.tc = hy::element_type::f32;
  reference.table = hy::table_id::any;
  reference.options.check_z_multiple = false;
  const auto exact = compute(reference, a, b, m, n, k);
  std::vector<double> errors(c.size());
  for (std::size_t i = 0; i < c.size(); ++i) {
    errors[i] = hy::error_in_ulps(s.tc, hy::decode_bits(s.tc, c[i]), hy::decode_bits(hy::element_type::f32, exact[i]));
  }
  return errors;
}

void write_result(const invocation& in, const matmul_setup& s, const std::vector<std::uint32_t>& a,
                  const std::vector<std::uint32_t>& b, std::size_t m, std::size_t n,
                  std::size_t k, output_buffer& out) {
  const auto c = compute(s, a, b, m, n, k);
  std::vector<double> errors;
  if (in.has("--exact-error")) {
    if (hy::is_integer(s.tc)) throw usage_error("--exact-error: integer MatMul is exact already");
    errors = exact_errors(s, a, b, c, m, n, k);
  }
  write_matrix(out, c, m, n, s.tc);
  if (in.has("--amax")) out.write("# amax: " + number_text(s.amax) + "\n");
  if (!errors.empty()) {
    out.write("# error_ulps\n");
    for (std::size_t i = 0; i < m; ++i) {
      out.write("#");
      for (std::size_t j = 0; j < n; ++j) out.write(" " + number_text(errors[i * n + j]));
      out.put('\n');
    }
  }
}

int run_matmul(const std::vector<std::string_view>& arguments) {
  const invocation in = parse(arguments, matmul_options_list);
  if (in.has("--help")) {
    output_buffer(stdout).write(matmul_help);
    return 0;
  }
  matmul_setup s = parse_matmul(in);
  token_reader reader;
  const bool given = in.has("--m") || in.has("--k") || in.has("--n");
  const std::size_t m = given ? parse_count(in, "--m", 0, 1u << 20) : read_size(reader, "M");
  const std::size_t k = given ? parse_count(in, "--k", 0, 1u << 20) : read_size(reader, "K");
  const std::size_t n = given ? parse_count(in, "--n", 0, 1u << 20) : read_size(reader, "N");
  if (m == 0 || k == 0 || n == 0) throw usage_error("--m, --k and --n are all needed, each >= 1");
  bind_lists(in, s, m, n);
  const auto a = read_codes(reader, m * k, s.ta, "A");
  const auto b = read_codes(reader, k * n, s.tb, "B");
  std::string extra;
  if (reader.next(extra)) {
    throw usage_error("line " + std::to_string(reader.line()) + ": more input after B: " + quote_line(extra));
  }
  output_buffer out(stdout);
  write_result(in, s, a, b, m, n, k, out);
  out.flush();
  return 0;
}

std::vector<std::uint32_t> random_codes(hy::element_type t, std::size_t count, std::uint64_t stream) {
  std::vector<std::uint32_t> codes;
  const std::uint32_t mask = (1u << hy::storage_bits(t)) - 1u;
  for (std::uint64_t i = 0; codes.size() < count; ++i) {
    const std::uint32_t code = mf::stochastic_random_word(stream, i) & mask;
    if (std::isfinite(hy::decode_bits(t, code))) codes.push_back(code);
  }
  return codes;
}

int run_vectors_matmul(const std::vector<std::string_view>& arguments) {
  std::vector<std::string_view> allowed = matmul_options_list;
  allowed.push_back("--data-seed");
  const invocation in = parse(arguments, allowed);
  if (in.has("--help")) {
    output_buffer(stdout).write(vectors_help);
    return 0;
  }
  matmul_setup s = parse_matmul(in);
  const std::size_t m = parse_count(in, "--m", 0, 4096), k = parse_count(in, "--k", 0, 65536),
                    n = parse_count(in, "--n", 0, 4096);
  if (m == 0 || k == 0 || n == 0) throw usage_error("vectors-matmul needs --m, --k and --n, each >= 1");
  bind_lists(in, s, m, n);
  const std::uint64_t seed = parse_count(in, "--data-seed", 0, UINT64_MAX);
  const auto a = random_codes(s.ta, m * k, seed ^ 0xa5a5a5a5a5a5a5a5u);
  const auto b = random_codes(s.tb, k * n, seed ^ 0x5a5a5a5a5a5a5a5au);
  output_buffer out(stdout);
  out.write("# minifloat vectors-matmul (minifloat " MINIFLOAT_VERSION_STRING ")\n# arguments:");
  for (std::size_t i = 1; i < arguments.size(); ++i) {
    out.write(" ");
    out.write(arguments[i]);
  }
  out.write("\n# data seed: " + std::to_string(seed) + "\n");
  out.write(std::to_string(m) + " " + std::to_string(k) + " " + std::to_string(n) + "\n");
  write_matrix(out, a, m, k, s.ta);
  write_matrix(out, b, k, n, s.tb);
  out.write("# C\n");
  write_result(in, s, a, b, m, n, k, out);
  out.flush();
  return 0;
}

int run_eltwise(const std::vector<std::string_view>& arguments) {
  const invocation in = parse(arguments, {"--op", "--a", "--b", "--out", "--rows", "--columns",
                                          "--b-shape", "--table", "--no-z-check", "--scale-type",
                                          "--scale-a", "--scale-b", "--exact", "--placement",
                                          "--saturate", "--round", "--seed", "--random-bits",
                                          "--offset"});
  if (in.has("--help")) {
    output_buffer(stdout).write(eltwise_help);
    return 0;
  }
  const hy::table_id table = parse_table(in);
  const auto ta = parse_type(in, "--a"), tb = parse_type(in, "--b"), tc = parse_type(in, "--out");
  hy::eltwise_options o;
  if (!in.has("--op")) throw usage_error("--op add|sub|mul is required");
  o.op = parse_choice(in, "--op", hy::eltwise_op::add,
                      {{"add", hy::eltwise_op::add}, {"sub", hy::eltwise_op::sub}, {"mul", hy::eltwise_op::mul}});
  if ((in.has("--scale-a") || in.has("--scale-b")) && !in.has("--scale-type")) {
    throw usage_error("--scale-a/--scale-b need --scale-type FP16|BF16");
  }
  if (in.has("--scale-type")) o.scale_type = parse_type(in, "--scale-type");
  if (const auto* v = in.value("--scale-a")) o.a_scale = {true, parse_float("--scale-a", *v)};
  if (const auto* v = in.value("--scale-b")) o.b_scale = {true, parse_float("--scale-b", *v)};
  o.exact = in.has("--exact");
  o.where = parse_choice(in, "--placement", hy::placement::epilogue,
                         {{"epilogue", hy::placement::epilogue}, {"operands", hy::placement::operands}});
  o.output = parse_output(in);
  o.check_z_multiple = !in.has("--no-z-check");
  if (!hy::eltwise_supported(table, ta, tb, tc)) {
    throw usage_error(hy::rejection(table, "element-wise", ta, tb, tc));
  }
  token_reader reader;
  const bool given = in.has("--rows") || in.has("--columns");
  const std::size_t rows = given ? parse_count(in, "--rows", 0, 1u << 20) : read_size(reader, "ROWS");
  const std::size_t columns = given ? parse_count(in, "--columns", 0, 1u << 20) : read_size(reader, "COLUMNS");
  if (rows == 0 || columns == 0) throw usage_error("--rows and --columns are both needed, each >= 1");
  const std::size_t b_count = parse_choice(in, "--b-shape", rows * columns,
                                           {{"full", rows * columns}, {"scalar", std::size_t{1}}, {"row", columns}});
  const auto a = read_codes(reader, rows * columns, ta, "A");
  const auto b = read_codes(reader, b_count, tb, "B");
  std::string extra;
  if (reader.next(extra)) {
    throw usage_error("line " + std::to_string(reader.line()) + ": more input after B: " + quote_line(extra));
  }
  std::vector<std::uint32_t> c(rows * columns);
  try {
    hy::eltwise(table, ta, tb, tc, a.data(), b.data(), b_count, c.data(), rows, columns, o);
  } catch (const hy::unsupported& e) {
    throw usage_error(e.what());
  }
  output_buffer out(stdout);
  write_matrix(out, c, rows, columns, tc);
  out.flush();
  return 0;
}

}  // namespace

bool is_hybrid_command(std::string_view name) {
  return name == "matmul" || name == "eltwise" || name == "vectors-matmul";
}

int run_hybrid(const std::vector<std::string_view>& arguments) {
  if (arguments[0] == "matmul") return run_matmul(arguments);
  if (arguments[0] == "eltwise") return run_eltwise(arguments);
  return run_vectors_matmul(arguments);
}

}  // namespace minifloat_cli
