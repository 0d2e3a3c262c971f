// matmul, eltwise and vectors-matmul: the hybrid FP8 arithmetic reference
// (mf::hybrid) from the shell, for testbenches. The options come from the
// tool's one option table (command_line.hpp); here they become the
// library's request, and an option the request would not use is an error.
// Errors are reported as in the rest of the tool (usage_error: exit 2, one
// line on stderr), and nothing is written until the whole result is
// computed.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <minifloat/format_registry.hpp>
#include <minifloat/hybrid.hpp>
#include <minifloat/random.hpp>

#include "commands.hpp"
#include "line_io.hpp"

namespace minifloat_cli {
namespace {

namespace hy = mf::hybrid;

// The float options and lists follow the tool's one rule for float text
// (command_line.hpp, read_float): parse_float32, parse_float32_list.
std::vector<float> parse_list(const command_line& in, std::string_view key, std::size_t count) {
  const auto v = in.value(key);
  if (!v) return {};
  std::vector<float> r = parse_float32_list(key, *v);
  if (r.size() != count) {
    throw usage_error(std::string(key) + ": needs " + std::to_string(count) + " values, got " +
                      std::to_string(r.size()));
  }
  return r;
}

// The unit's types, as the vendor names them and as the library does.
std::string element_type_list() {
  std::string list;
  for (const hy::element_type t : hy::all_element_types) {
    if (!list.empty()) list += ", ";
    list += std::string(hy::name(t)) + " (" +
            std::string(mf::canonical_name(hy::format_of(t))) + ")";
  }
  return list + "; any alias of these, in any case";
}

hy::element_type parse_type(const command_line& in, std::string_view key) {
  const auto v = in.value(key);
  if (!v) throw usage_error(std::string(key) + " TYPE is required");
  hy::element_type t;
  if (hy::parse_element_type(*v, t)) return t;
  throw_not_a_type(key, *v, "a type of the hybrid unit", element_type_list());
}

constexpr choice<hy::table_id> tables[] = {{"vendor_hybrid_fp8", hy::table_id::vendor_hybrid_fp8},
                                           {"cublaslt_fp8", hy::table_id::cublaslt_fp8},
                                           {"any", hy::table_id::any}};
constexpr choice<hy::placement> placements[] = {{"epilogue", hy::placement::epilogue},
                                                {"operands", hy::placement::operands}};
constexpr choice<hy::output_scale_rule> output_scale_rules[] = {
    {"multiply", hy::output_scale_rule::multiply}, {"divide", hy::output_scale_rule::divide}};
constexpr choice<hy::requantization> requantizations[] = {{"exact", hy::requantization::exact},
                                                          {"fp32", hy::requantization::fp32}};
constexpr choice<hy::amx_order> amx_orders[] = {{"sdm", hy::amx_order::sdm},
                                                {"guide", hy::amx_order::guide}};
constexpr choice<hy::nan_payload> nan_payloads[] = {{"canonical", hy::nan_payload::canonical},
                                                    {"propagate", hy::nan_payload::propagate}};
constexpr choice<hy::reduced_variant> reduced_variants[] = {{"seq", hy::reduced_variant::seq},
                                                            {"block", hy::reduced_variant::block}};
constexpr choice<hy::eltwise_op> eltwise_ops[] = {
    {"add", hy::eltwise_op::add}, {"sub", hy::eltwise_op::sub}, {"mul", hy::eltwise_op::mul}};

// The models, by the names docs/hybrid.md gives them.
enum class model_name {
  sequential_fp32, exact, exact_to_output, avx512_bf16_pairs, amx_tile_pairs, chunked_exact,
  reduced_precision
};
constexpr choice<model_name> model_names[] = {
    {"sequential_fp32", model_name::sequential_fp32},
    {"exact", model_name::exact},
    {"exact_to_output", model_name::exact_to_output},
    {"avx512_bf16_pairs", model_name::avx512_bf16_pairs},
    {"amx_tile_pairs", model_name::amx_tile_pairs},
    {"chunked_exact", model_name::chunked_exact},
    {"reduced_precision", model_name::reduced_precision}};

hy::table_id parse_table(const command_line& in) {
  return in.choice_value("--table", "table", hy::table_id::vendor_hybrid_fp8, tables);
}

// The output conversion: --saturate, --round (nearest-even or stochastic, in
// the tool's one rounding vocabulary), --seed, --random-bits, --offset.
hy::output_conversion parse_output(const command_line& in) {
  hy::output_conversion o;
  if (in.has("--saturate")) o.on_overflow = mf::overflow::saturating;
  if (const auto mode = in.value("--round")) {
    o.stochastic = parse_rounding_mode("--round", *mode,
                                       {rounding_mode::nearest_even, rounding_mode::stochastic}) ==
                   rounding_mode::stochastic;
  }
  if (!o.stochastic && (in.has("--seed") || in.has("--random-bits") || in.has("--offset"))) {
    throw usage_error("--seed, --random-bits and --offset need --round stochastic");
  }
  o.seed = in.unsigned_value("--seed", 0, 0, UINT64_MAX);
  o.offset = in.unsigned_value("--offset", 0, 0, UINT64_MAX);
  o.random_bits = static_cast<int>(in.unsigned_value("--random-bits", 32, 1, 32));
  return o;
}

// Which model reads each model option; the option is an error under any
// other model.
struct model_option {
  std::string_view option;
  std::vector<model_name> readers;
  std::string_view readers_text;  // whose option it is, for the message
};

const model_option model_options[] = {
    {"--chunk", {model_name::amx_tile_pairs, model_name::chunked_exact},
     "amx_tile_pairs' and chunked_exact's"},
    {"--order", {model_name::amx_tile_pairs}, "amx_tile_pairs'"},
    {"--nan-payload", {model_name::avx512_bf16_pairs, model_name::amx_tile_pairs},
     "avx512_bf16_pairs' and amx_tile_pairs'"},
    {"--chunk-rounding", {model_name::chunked_exact}, "chunked_exact's"},
    {"--presum-round", {model_name::chunked_exact}, "chunked_exact's"},
    {"--bits", {model_name::reduced_precision}, "reduced_precision's"},
    {"--promote-every", {model_name::reduced_precision}, "reduced_precision's"},
    {"--variant", {model_name::reduced_precision}, "reduced_precision's"},
    {"--block", {model_name::reduced_precision}, "reduced_precision's"},
    {"--trunc", {model_name::reduced_precision}, "reduced_precision's"},
};

hy::accumulation_model parse_model(const command_line& in) {
  const model_name model =
      in.choice_value("--model", "model", model_name::sequential_fp32, model_names);
  const std::string model_text(in.value("--model").value_or("sequential_fp32"));
  for (const model_option& m : model_options) {
    bool read = false;
    for (const model_name r : m.readers) read = read || r == model;
    if (!read) {
      in.reject_if_given(m.option, "with --model " + model_text + " (it is " +
                                       std::string(m.readers_text) + " option)");
    }
  }
  const auto count = [&](std::string_view key, int fallback) {
    return static_cast<int>(
        in.unsigned_value(key, static_cast<std::uint64_t>(fallback), 0, 1u << 30));
  };
  const auto nans = [&] {
    return in.choice_value("--nan-payload", "NaN payload rule", hy::nan_payload::canonical, nan_payloads);
  };
  switch (model) {
    case model_name::sequential_fp32: return hy::models::sequential_fp32();
    case model_name::exact: return hy::models::exact(false);
    case model_name::exact_to_output: return hy::models::exact(true);
    case model_name::avx512_bf16_pairs: return hy::models::avx512_bf16_pairs(nans());
    case model_name::amx_tile_pairs:
      return hy::models::amx_tile_pairs(
          count("--chunk", 32),
          in.choice_value("--order", "order", hy::amx_order::sdm, amx_orders), nans());
    case model_name::chunked_exact: {
      hy::fp32_rounding rounding = hy::fp32_rounding::nearest_even;
      if (const auto r = in.value("--chunk-rounding")) {
        rounding = parse_rounding_mode("--chunk-rounding", *r,
                                       {rounding_mode::nearest_even, rounding_mode::toward_zero}) ==
                           rounding_mode::toward_zero
                       ? hy::fp32_rounding::toward_zero
                       : hy::fp32_rounding::nearest_even;
      }
      return hy::models::chunked_exact(count("--chunk", 64), rounding, in.has("--presum-round"));
    }
    case model_name::reduced_precision: {
      const hy::reduced_variant variant =
          in.choice_value("--variant", "variant", hy::reduced_variant::seq, reduced_variants);
      if (variant != hy::reduced_variant::block) {
        in.reject_if_given("--block", "with --variant seq (it is the block variant's option)");
      }
      hy::truncation trunc = hy::truncation::toward_zero;
      if (const auto t = in.value("--trunc")) {
        trunc = parse_rounding_mode("--trunc", *t,
                                    {rounding_mode::toward_zero, rounding_mode::toward_negative}) ==
                        rounding_mode::toward_negative
                    ? hy::truncation::floor
                    : hy::truncation::toward_zero;
      }
      return hy::models::reduced_precision(count("--bits", 14), count("--promote-every", 128),
                                           variant, count("--block", 32), trunc);
    }
  }
  return hy::models::sequential_fp32();
}

// The message of a rejected type combination, with the table that accepts it.
std::string rejection_with_hint(hy::table_id table, std::string_view op, bool accepted_by_any,
                                hy::element_type a, hy::element_type b, hy::element_type out) {
  std::string m = hy::rejection(table, op, a, b, out);
  if (table != hy::table_id::any && accepted_by_any) m += " (--table any accepts it)";
  return m;
}

// --no-z-check only relaxes the vendor table's rule.
void check_z_option(const command_line& in, hy::table_id table) {
  if (hy::required_z_multiple(table) == 1) {
    in.reject_if_given("--no-z-check", "with --table " + std::string(hy::name(table)) +
                                           " (only vendor_hybrid_fp8 requires a multiple of 16)");
  }
}

// Reads whitespace-separated tokens from stdin, remembering each one's line.
// Lines that begin with '#' are comments; with `c_marker`, a line that is
// exactly "# C" (vectors-matmul's line before the expected C) is returned as
// the token "# C", which no other token can be.
class token_reader {
 public:
  explicit token_reader(bool c_marker = false) : lines_(stdin), c_marker_(c_marker) {}
  bool next(std::string& token) {
    if (pending_) {
      token = std::move(pushed_);
      pending_ = false;
      return true;
    }
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
      if (!line.empty() && line[0] == '#') {
        while (!line.empty() && (line.back() == ' ' || line.back() == '\t' || line.back() == '\r')) {
          line.remove_suffix(1);
        }
        const bool marker = c_marker_ && line == c_marker;
        line_.clear();
        pos_ = 0;
        if (marker) {
          token = std::string(c_marker);
          return true;
        }
        continue;
      }
      line_ = std::string(line);
      pos_ = 0;
    }
  }
  // The next token is read again by the next call of next().
  void push_back(std::string token) {
    pushed_ = std::move(token);
    pending_ = true;
  }
  std::uint64_t line() const { return lines_.line_number(); }

  static constexpr std::string_view c_marker = "# C";

 private:
  line_reader lines_;
  bool c_marker_;
  std::string line_;
  std::size_t pos_ = 0;
  std::string pushed_;
  bool pending_ = false;
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
  // Grown as the encodings arrive, not sized from the size line: a size
  // line of 2^20 x 2^20 before a short input is a truncated input (status
  // 2), not an allocation of terabytes.
  std::vector<std::uint32_t> codes;
  codes.reserve(std::min<std::size_t>(count, std::size_t{1} << 16));
  const int bits = hy::storage_bits(t);
  for (std::size_t i = 0; i < count; ++i) {
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
    codes.push_back(static_cast<std::uint32_t>(v));
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

std::string float_bits_text(float v) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%08x",
                static_cast<unsigned>(mf::detail::bit_cast<std::uint32_t>(v)));
  return buffer;
}

struct matmul_setup {
  hy::table_id table;
  hy::element_type ta, tb, tc;
  hy::matmul_options options;
  std::vector<float> a_rows, b_columns, bias;
  float amax = 0;
};

// The options an integer MatMul does not read: its output is round-half-
// even(acc x --int-scale), saturated (docs/hybrid.md, "Integer MatMul").
constexpr std::string_view float_only_options[] = {
    "--model", "--chunk", "--order", "--nan-payload", "--chunk-rounding", "--presum-round", "--bits",
    "--promote-every", "--variant", "--block", "--trunc", "--scale-a", "--scale-b",
    "--scale-a-rows", "--scale-b-columns", "--bias", "--output-scale", "--output-scale-rule",
    "--placement", "--saturate", "--round", "--seed", "--random-bits", "--offset", "--amax",
    "--exact-error"};

// Everything but the sizes and data; the lists are sized once M and N are known.
matmul_setup parse_matmul(const command_line& in) {
  matmul_setup s;
  s.table = parse_table(in);
  s.ta = parse_type(in, "--a");
  s.tb = parse_type(in, "--b");
  s.tc = parse_type(in, "--out");
  if (!hy::matmul_supported(s.table, s.ta, s.tb, s.tc)) {
    throw usage_error(rejection_with_hint(s.table, "MatMul",
                                          hy::matmul_supported(hy::table_id::any, s.ta, s.tb, s.tc),
                                          s.ta, s.tb, s.tc));
  }
  check_z_option(in, s.table);
  auto& o = s.options;
  o.check_z_multiple = !in.has("--no-z-check");
  if (hy::is_integer(s.ta) && hy::is_integer(s.tb)) {
    const std::string reason = "for an integer MatMul (" + std::string(hy::name(s.ta)) + " x " +
                               std::string(hy::name(s.tb)) +
                               ": the int32 sum times --int-scale, rounded half to even "
                               "and saturated)";
    for (const std::string_view option : float_only_options) in.reject_if_given(option, reason);
    if (const auto v = in.value("--int-scale")) o.integer_scale = parse_float32("--int-scale", *v);
    o.requant = in.choice_value("--requant", "requantization", hy::requantization::exact,
                                requantizations);
    return s;
  }
  in.reject_if_given({"--int-scale", "--requant"},
                     "for a float MatMul (they requantize an integer MatMul's int32 sum)");
  o.model = parse_model(in);
  if (const auto v = in.value("--scale-a")) o.scales.a = parse_float32("--scale-a", *v);
  if (const auto v = in.value("--scale-b")) o.scales.b = parse_float32("--scale-b", *v);
  if (const auto v = in.value("--output-scale")) {
    o.scales.output = parse_float32("--output-scale", *v);
    if (!in.has("--output-scale-rule")) {
      throw usage_error("--output-scale needs --output-scale-rule multiply|divide (cuBLAS "
                        "multiplies, ONNX divides: there is no default)");
    }
  } else {
    in.reject_if_given("--output-scale-rule", "without --output-scale");
  }
  o.scales.output_rule = in.choice_value("--output-scale-rule", "rule",
                                         hy::output_scale_rule::multiply, output_scale_rules);
  o.scales.where = in.choice_value("--placement", "placement", hy::placement::epilogue, placements);
  o.output = parse_output(in);
  return s;
}

void bind_lists(const command_line& in, matmul_setup& s, std::size_t m, std::size_t n) {
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
  reference.options.accumulator = nullptr;
  reference.options.integer_accumulator = nullptr;
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

std::vector<std::uint32_t> random_codes(hy::element_type t, std::size_t count, std::uint64_t stream) {
  std::vector<std::uint32_t> codes;
  const std::uint32_t mask = (1u << hy::storage_bits(t)) - 1u;
  for (std::uint64_t i = 0; codes.size() < count; ++i) {
    const std::uint32_t code = mf::stochastic_random_word(stream, i) & mask;
    if (std::isfinite(hy::decode_bits(t, code))) codes.push_back(code);
  }
  return codes;
}

// C, then the documented '#' blocks: '# amax: BITS', '# acc_fp32' or
// '# acc_int32' (one '#' line per row of accumulators, hex), '# error_ulps'.
// Returns C.
std::vector<std::uint32_t> write_result(const command_line& in, matmul_setup& s,
                                        const std::vector<std::uint32_t>& a,
                                        const std::vector<std::uint32_t>& b, std::size_t m,
                                        std::size_t n, std::size_t k, output_buffer& out) {
  const bool print_acc = in.has("--print-acc");
  const bool integer = hy::is_integer(s.ta) && hy::is_integer(s.tb);
  std::vector<float> acc;
  std::vector<std::int32_t> integer_acc;
  if (print_acc && integer) {
    integer_acc.resize(m * n);
    s.options.integer_accumulator = integer_acc.data();
  } else if (print_acc) {
    acc.resize(m * n);  // the library then runs the reference loop (same C)
    s.options.accumulator = acc.data();
  }
  const auto c = compute(s, a, b, m, n, k);
  s.options.accumulator = nullptr;
  s.options.integer_accumulator = nullptr;
  std::vector<double> errors;
  if (in.has("--exact-error")) errors = exact_errors(s, a, b, c, m, n, k);
  write_matrix(out, c, m, n, s.tc);
  if (in.has("--amax")) out.write("# amax: " + float_bits_text(s.amax) + "\n");
  if (print_acc) {
    out.write(integer ? "# acc_int32\n" : "# acc_fp32\n");
    for (std::size_t i = 0; i < m; ++i) {
      out.write("#");
      for (std::size_t j = 0; j < n; ++j) {
        out.put(' ');
        out.write_hex(integer ? static_cast<std::uint32_t>(integer_acc[i * n + j])
                              : mf::detail::bit_cast<std::uint32_t>(acc[i * n + j]),
                      8);
      }
      out.put('\n');
    }
  }
  if (!errors.empty()) {
    out.write("# error_ulps\n");
    for (std::size_t i = 0; i < m; ++i) {
      out.write("#");
      for (std::size_t j = 0; j < n; ++j) out.write(" " + number_text(errors[i * n + j]));
      out.put('\n');
    }
  }
  return c;
}

// The first difference of C from the expected C, for --check.
struct mismatch {
  std::uint64_t problem = 0;  // 1-based; 0: none yet
  std::uint64_t line = 0;     // the line of the expected C's last element
  std::size_t row = 0, column = 0;
  std::uint32_t got = 0, expected = 0;
};

}  // namespace

// Any number of problems, one after another: each a header 'M K N' (unless
// --m/--k/--n give the sizes of every problem), A and B, and optionally a
// '# C' line and the expected C (vectors-matmul's output as it is), which
// --check compares. Each problem's output is written once it is computed;
// two problems' outputs are separated by an empty line.
int run_matmul(const options& request) {
  const command_line& in = request.line;
  matmul_setup s = parse_matmul(in);
  const bool check = in.has("--check");
  token_reader reader(true);
  const bool given = in.has("--m") || in.has("--k") || in.has("--n");
  std::size_t m = 0, k = 0, n = 0;
  if (given) {
    m = in.unsigned_value("--m", 0, 1, 1u << 20);  // 0: not given
    k = in.unsigned_value("--k", 0, 1, 1u << 20);
    n = in.unsigned_value("--n", 0, 1, 1u << 20);
    if (m == 0 || k == 0 || n == 0) throw usage_error("--m, --k and --n are all needed, each >= 1");
  }
  output_buffer out(stdout);
  mismatch first;
  std::uint64_t differing = 0;
  std::uint64_t problem = 0;
  std::string token;
  for (;;) {
    if (problem > 0) {  // another problem, or the end of the input
      if (!reader.next(token)) break;
      if (token == token_reader::c_marker) {
        throw usage_error("line " + std::to_string(reader.line()) +
                          ": a second '# C' after problem " + std::to_string(problem));
      }
      reader.push_back(token);
    }
    ++problem;
    if (!given) {
      m = read_size(reader, "M");
      k = read_size(reader, "K");
      n = read_size(reader, "N");
    }
    bind_lists(in, s, m, n);
    const auto a = read_codes(reader, m * k, s.ta, "A");
    const auto b = read_codes(reader, k * n, s.tb, "B");
    std::vector<std::uint32_t> expected;
    std::uint64_t expected_line = 0;
    if (reader.next(token)) {
      if (token == token_reader::c_marker) {
        expected = read_codes(reader, m * n, s.tc, "the expected C");
        expected_line = reader.line();
      } else {
        reader.push_back(token);
      }
    }
    if (check && expected.empty()) {
      throw usage_error("--check: problem " + std::to_string(problem) +
                        " has no expected C (a '# C' line and M*N encodings after B)");
    }
    if (problem > 1) out.put('\n');
    const auto c = write_result(in, s, a, b, m, n, k, out);
    if (check) {
      for (std::size_t e = 0; e < c.size(); ++e) {
        if (c[e] == expected[e]) continue;
        if (first.problem == 0) first = {problem, expected_line, e / n, e % n, c[e], expected[e]};
        ++differing;
        break;
      }
    }
  }
  out.flush();
  if (differing != 0) {
    // Status 1, as cmp and diff say "different": the run itself succeeded.
    const int digits = hy::storage_bits(s.tc) / 4;
    char got[24], want[24];
    std::snprintf(got, sizeof got, "0x%0*x", digits, static_cast<unsigned>(first.got));
    std::snprintf(want, sizeof want, "0x%0*x", digits, static_cast<unsigned>(first.expected));
    std::fprintf(stderr,
                 "%s--check: problem %llu (expected C ending on line %llu): "
                 "C[%zu][%zu] is %s, expected %s (%llu of %llu problems differ)\n",
                 message_prefix(request.what).c_str(),
                 static_cast<unsigned long long>(first.problem),
                 static_cast<unsigned long long>(first.line), first.row, first.column, got, want,
                 static_cast<unsigned long long>(differing),
                 static_cast<unsigned long long>(problem));
    return 1;
  }
  return 0;
}

int run_vectors_matmul(const options& request) {
  const command_line& in = request.line;
  matmul_setup s = parse_matmul(in);
  // 0: not given; a given size is at least 1.
  const std::size_t m = in.unsigned_value("--m", 0, 1, 4096), k = in.unsigned_value("--k", 0, 1, 65536),
                    n = in.unsigned_value("--n", 0, 1, 4096);
  if (m == 0 || k == 0 || n == 0) throw usage_error("--m, --k and --n are all needed, each >= 1");
  bind_lists(in, s, m, n);
  const std::uint64_t seed = in.unsigned_value("--data-seed", 0, 0, UINT64_MAX);
  const auto a = random_codes(s.ta, m * k, seed ^ 0xa5a5a5a5a5a5a5a5u);
  const auto b = random_codes(s.tb, k * n, seed ^ 0x5a5a5a5a5a5a5a5au);
  output_buffer out(stdout);
  out.write("# minifloat vectors-matmul (minifloat " MINIFLOAT_VERSION_STRING ")\n# arguments:");
  for (const std::string_view word : in.words) {
    out.write(" ");
    out.write(word);
  }
  out.write("\n# data seed: " + std::to_string(seed) + "\n");
  out.write(std::to_string(m) + " " + std::to_string(k) + " " + std::to_string(n) + "\n");
  write_matrix(out, a, m, k, s.ta);
  write_matrix(out, b, k, n, s.tb);
  out.write(std::string(token_reader::c_marker) + "\n");
  write_result(in, s, a, b, m, n, k, out);
  out.flush();
  return 0;
}

int run_eltwise(const options& request) {
  const command_line& in = request.line;
  const hy::table_id table = parse_table(in);
  const auto ta = parse_type(in, "--a"), tb = parse_type(in, "--b"), tc = parse_type(in, "--out");
  if (!hy::eltwise_supported(table, ta, tb, tc)) {
    throw usage_error(rejection_with_hint(table, "element-wise",
                                          hy::eltwise_supported(hy::table_id::any, ta, tb, tc),
                                          ta, tb, tc));
  }
  check_z_option(in, table);
  hy::eltwise_options o;
  if (!in.has("--op")) throw usage_error("--op add|sub|mul is required");
  o.op = in.choice_value("--op", "operation", hy::eltwise_op::add, eltwise_ops);
  if (hy::is_integer(ta)) {
    in.reject_if_given({"--scale-type", "--scale-a", "--scale-b", "--exact", "--placement",
                        "--saturate", "--round", "--seed", "--random-bits", "--offset"},
                       "for integer tensors (their sum or product is saturated to the type)");
  }
  if ((in.has("--scale-a") || in.has("--scale-b")) && !in.has("--scale-type")) {
    throw usage_error("--scale-a/--scale-b need --scale-type FP16|BF16");
  }
  if (!in.has("--scale-a") && !in.has("--scale-b")) {
    in.reject_if_given("--scale-type", "without --scale-a or --scale-b");
  }
  if (in.has("--scale-type")) o.scale_type = parse_type(in, "--scale-type");
  if (const auto v = in.value("--scale-a")) o.a_scale = {true, parse_float32("--scale-a", *v)};
  if (const auto v = in.value("--scale-b")) o.b_scale = {true, parse_float32("--scale-b", *v)};
  o.exact = in.has("--exact");
  o.where = in.choice_value("--placement", "placement", hy::placement::epilogue, placements);
  o.output = parse_output(in);
  o.check_z_multiple = !in.has("--no-z-check");
  token_reader reader;
  const bool given = in.has("--rows") || in.has("--columns");
  const std::size_t rows = given ? in.unsigned_value("--rows", 0, 0, 1u << 20) : read_size(reader, "ROWS");
  const std::size_t columns = given ? in.unsigned_value("--columns", 0, 0, 1u << 20) : read_size(reader, "COLUMNS");
  if (rows == 0 || columns == 0) throw usage_error("--rows and --columns are both needed, each >= 1");
  const choice<std::size_t> b_shapes[] = {
      {"full", rows * columns}, {"scalar", std::size_t{1}}, {"row", columns}};
  const std::size_t b_count = in.choice_value("--b-shape", "shape", rows * columns, b_shapes);
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

}  // namespace minifloat_cli
