// Checks the `minifloat` tool against the library it is built on, by running
// the tool and comparing every line it prints with the library's answer.
//
//   cli_check TOOL table FORMAT      table --csv / text / --markdown vs decode
//   cli_check TOOL roundtrip FORMAT  decode every encoding, encode it back
//   cli_check TOOL encode FORMAT     encode in every mode vs mf::round_to
//   cli_check TOOL vectors FORMAT    vectors in every mode vs mf::round_to
//
// The format names are mapped to types here again, not through the tool's
// registry, so a wrong entry there is caught. Exit status 0 when everything
// matches; otherwise the first mismatches are printed.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include <minifloat/minifloat.hpp>
#include <minifloat/random.hpp>

#if defined(_WIN32)
#define popen _popen
#define pclose _pclose
#endif

namespace {

std::string tool;
std::string scratch_prefix;  // per-test prefix for temporary files
int failures = 0;

void fail(const std::string& message) {
  if (++failures <= 20) std::fprintf(stderr, "FAIL: %s\n", message.c_str());
}

std::string hex(std::uint64_t value, int digits) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%0*llx", digits, static_cast<unsigned long long>(value));
  return text;
}

// Runs `tool arguments [< input file]` and returns its stdout lines.
std::vector<std::string> run(const std::string& arguments, const std::vector<std::string>* input,
                             int expected_status = 0) {
  std::string command = "\"" + tool + "\" " + arguments;
  if (input != nullptr) {
    const std::string path = scratch_prefix + ".in";
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (file == nullptr) {
      fail("cannot write " + path);
      return {};
    }
    for (const auto& line : *input) {
      std::fputs(line.c_str(), file);
      std::fputc('\n', file);
    }
    std::fclose(file);
    command += " < \"" + path + "\"";
  }
  std::FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) {
    fail("cannot run " + command);
    return {};
  }
  std::string output;
  char block[1 << 16];
  std::size_t got = 0;
  while ((got = std::fread(block, 1, sizeof block, pipe)) > 0) output.append(block, got);
  std::vector<std::string> lines;
  std::size_t start = 0;
  for (std::size_t end; (end = output.find('\n', start)) != std::string::npos; start = end + 1) {
    lines.push_back(output.substr(start, end - start));
  }
  if (start != output.size()) fail(command + ": last line has no newline");
  const int status = pclose(pipe);
#if defined(_WIN32)
  const int exit_status = status;
#else
  const int exit_status = (status >= 0 && (status & 0x7F) == 0) ? (status >> 8) & 0xFF : -1;
#endif
  if (exit_status != expected_status) {
    fail(command + ": exit status " + std::to_string(exit_status) + ", expected " +
         std::to_string(expected_status));
  }
  return lines;
}

std::vector<std::string> split(const std::string& line, char separator) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = line.find(separator, start);
    fields.push_back(line.substr(start, end - start));
    if (end == std::string::npos) return fields;
    start = end + 1;
  }
}

std::vector<std::string> words(const std::string& line) {
  std::vector<std::string> fields;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && line[i] == ' ') ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ') ++i;
    if (i > start) fields.push_back(line.substr(start, i - start));
  }
  return fields;
}

std::uint64_t parse_hex(const std::string& text) {
  return std::strtoull(text.c_str(), nullptr, 16);
}

template <class T>
constexpr std::uint32_t encodings() {
  return std::uint32_t{1} << T::format::bits;
}

template <class T>
constexpr int digits() {
  return (T::format::bits + 3) / 4;
}

template <class T>
T from_bits(std::uint32_t bits) {
  return T::from_bits(static_cast<typename T::storage_type>(bits));
}

// The class names of the table and the vectors, from the library's
// fpclassify.
template <class T>
std::string class_of(std::uint32_t bits) {
  switch (fpclassify(from_bits<T>(bits))) {
    case FP_NAN: return "nan";
    case FP_INFINITE: return "inf";
    case FP_ZERO: return "zero";
    case FP_SUBNORMAL: return "subnormal";
    default: return "normal";
  }
}

std::string field(std::uint32_t value, int width) {
  std::string text;
  for (int bit = width - 1; bit >= 0; --bit) text += ((value >> bit) & 1u) ? '1' : '0';
  return text;
}

// table --csv: every encoding in order, fields and class right, and the
// exact decimal reads back (strtod is exact on these) to the library's value.
template <class T>
void check_table(const std::string& name) {
  using format = typename T::format;
  const auto csv = run("table " + name + " --csv", nullptr);
  if (csv.size() != encodings<T>() + 1) {
    fail("table --csv: " + std::to_string(csv.size()) + " lines");
    return;
  }
  if (csv[0] != "bits,sign,exponent,mantissa,class,value") fail("table --csv header: " + csv[0]);
  for (std::uint32_t e = 0; e < encodings<T>(); ++e) {
    const auto cells = split(csv[e + 1], ',');
    if (cells.size() != 6) {
      fail("table --csv row " + csv[e + 1]);
      continue;
    }
    const std::uint32_t magnitude = e & format::magnitude_mask;
    const std::string sign =
        format::is_signed ? std::string((e & format::sign_mask) ? "1" : "0") : "";
    const std::string mantissa =
        format::mantissa_bits > 0 ? field(magnitude & format::mantissa_mask, format::mantissa_bits)
                                  : "";
    if (cells[0] != hex(e, digits<T>()) || cells[1] != sign ||
        cells[2] != field(magnitude >> format::mantissa_bits, format::exponent_bits) ||
        cells[3] != mantissa || cells[4] != class_of<T>(e)) {
      fail("table --csv row " + csv[e + 1]);
    }
    const double expected = static_cast<double>(from_bits<T>(e));
    const std::string& value = cells[5];
    if (std::isnan(expected)) {
      if (value != "nan") fail("table --csv value " + csv[e + 1]);
      continue;
    }
    if (std::isinf(expected)) {
      if (value != (expected < 0 ? "-inf" : "inf")) fail("table --csv value " + csv[e + 1]);
      continue;
    }
    // Positional and exact: no exponent, and strtod reads the exact value.
    char* end = nullptr;
    const double read = std::strtod(value.c_str(), &end);
    if (*end != '\0' || value.find_first_of("eExXp") != std::string::npos ||
        std::memcmp(&read, &expected, sizeof read) != 0) {
      fail("table --csv value " + csv[e + 1]);
    }
    // No superfluous digits: an integer has no point, a fraction no trailing 0.
    if (value.find('.') != std::string::npos && value.back() == '0') {
      fail("table --csv trailing zero " + csv[e + 1]);
    }
  }
  // The text and Markdown tables carry the same rows.
  const auto text = run("table " + name, nullptr);
  const auto markdown = run("table " + name + " --markdown", nullptr);
  if (text.size() != encodings<T>() + 1 || markdown.size() != encodings<T>() + 2) {
    fail("table text / markdown line counts");
    return;
  }
  for (std::uint32_t e = 0; e < encodings<T>(); ++e) {
    const auto csv_cells = split(csv[e + 1], ',');
    const auto text_cells = words(text[e + 1]);
    auto markdown_cells = words(markdown[e + 2]);
    std::vector<std::string> markdown_values;
    for (const auto& cell : markdown_cells) {
      if (cell != "|") markdown_values.push_back(cell);
    }
    const std::vector<std::string> expected = {
        csv_cells[0], csv_cells[1].empty() ? "-" : csv_cells[1], csv_cells[2],
        csv_cells[3].empty() ? "-" : csv_cells[3], csv_cells[4], csv_cells[5]};
    if (text_cells != expected) fail("table text row " + text[e + 1]);
    if (markdown_values != expected) fail("table --markdown row " + markdown[e + 2]);
  }
}

std::vector<std::string> all_encodings_text(std::uint32_t count, int width) {
  std::vector<std::string> lines;
  for (std::uint32_t e = 0; e < count; ++e) lines.push_back(hex(e, width));
  return lines;
}

// decode every encoding to f32 and f64 (exact, canonical NaN), then encode
// those bits, and the value as hex-float and decimal text, back: the same
// encoding (the canonical NaN for a NaN).
template <class T>
void check_roundtrip(const std::string& name) {
  using format = typename T::format;
  const auto input = all_encodings_text(encodings<T>(), digits<T>());
  const auto as_f32 = run("decode " + name, &input);
  const auto as_f64 = run("decode " + name + " --to f64", &input);
  if (as_f32.size() != encodings<T>() || as_f64.size() != encodings<T>()) {
    fail("decode line counts");
    return;
  }
  std::vector<std::string> hex_floats;
  std::vector<std::string> decimals;
  for (std::uint32_t e = 0; e < encodings<T>(); ++e) {
    const float value = static_cast<float>(from_bits<T>(e));
    const std::uint32_t bits32 = mf::detail::bit_cast<std::uint32_t>(value);
    const std::uint64_t bits64 = mf::detail::bit_cast<std::uint64_t>(static_cast<double>(value));
    if (as_f32[e] != hex(bits32, 8)) fail("decode " + input[e] + " -> " + as_f32[e]);
    if (as_f64[e] != hex(bits64, 16)) fail("decode --to f64 " + input[e] + " -> " + as_f64[e]);
    char text[64];
    std::snprintf(text, sizeof text, "%a", static_cast<double>(value));
    hex_floats.push_back(text);
    std::snprintf(text, sizeof text, "%.9g", static_cast<double>(value));
    decimals.push_back(text);
  }
  const auto check_back = [&](const std::vector<std::string>& lines, const char* what) {
    if (lines.size() != encodings<T>()) {
      fail(std::string(what) + ": line count");
      return;
    }
    for (std::uint32_t e = 0; e < encodings<T>(); ++e) {
      const std::uint32_t back = static_cast<std::uint32_t>(parse_hex(lines[e]));
      const bool ok = format::is_nan(e) ? format::is_nan(back) : back == e;
      if (!ok || lines[e] != hex(back, digits<T>())) {
        fail(std::string(what) + ": " + input[e] + " came back as " + lines[e]);
      }
    }
  };
  check_back(run("encode " + name, &as_f32), "encode of f32 bits");
  check_back(run("encode " + name + " --from f64", &as_f64), "encode --from f64 of f64 bits");
  check_back(run("encode " + name, &hex_floats), "encode of hex-floats");
  check_back(run("encode " + name + " --from f64", &decimals), "encode --from f64 of decimals");
}

struct mode {
  const char* name;
  mf::rounding rounding;
  bool stochastic;
  bool saturate;
  int random_bits = 32;  // stochastic only; other values pass --random-bits
};

std::string stochastic_options(const mode& m, std::uint64_t seed) {
  if (!m.stochastic) return "";
  std::string options = " --seed " + std::to_string(seed);
  if (m.random_bits != 32) options += " --random-bits " + std::to_string(m.random_bits);
  return options;
}

// Every mode with both overflow rules for the narrow formats; for the 16-bit
// ones (65536 values, so hundreds of thousands of lines a run) three of the
// combinations, which still reach every code path of the tool: the library's
// own tests cover the rest of its conversion.
std::vector<mode> modes_for(int bits) {
  std::vector<mode> all;
  const mode base[] = {
      {"nearest-even", mf::rounding::nearest_even, false, false},
      {"toward-zero", mf::rounding::toward_zero, false, false},
      {"toward-positive", mf::rounding::toward_positive, false, false},
      {"toward-negative", mf::rounding::toward_negative, false, false},
      {"stochastic", mf::rounding::nearest_even, true, false},
  };
  if (bits > 8) {
    all = {base[0], base[3], base[4]};
    all[1].saturate = true;
    return all;
  }
  for (const mode& m : base) {
    all.push_back(m);
    all.push_back(m);
    all.back().saturate = true;
  }
  // Packed random lanes: four values per Philox word.
  all.push_back(base[4]);
  all.back().random_bits = 8;
  return all;
}

constexpr std::uint64_t seed = 0x0123456789ABCDEFu;

// Inputs for encode: each value of the format, its float neighbours and the
// midpoints above it, plus random float bits.
template <class T>
std::vector<std::uint32_t> encode_inputs() {
  std::vector<std::uint32_t> inputs;
  for (std::uint32_t e = 0; e < encodings<T>(); ++e) {
    const float value = static_cast<float>(from_bits<T>(e));
    const std::uint32_t bits = mf::detail::bit_cast<std::uint32_t>(value);
    inputs.push_back(bits);
    inputs.push_back(bits + 1);
    inputs.push_back(bits - 1);
    const float next = static_cast<float>(from_bits<T>((e + 1) % encodings<T>()));
    if (std::isfinite(value) && std::isfinite(next)) {
      inputs.push_back(mf::detail::bit_cast<std::uint32_t>(
          static_cast<float>((static_cast<double>(value) + static_cast<double>(next)) / 2)));
    }
  }
  for (std::uint64_t i = 0; i < 20000; ++i) inputs.push_back(mf::stochastic_random_word(99, i));
  return inputs;
}

// encode in every mode and overflow, from f32 bits and from f64 bits,
// against mf::round_to / mf::round_to_stochastic with the documented words.
template <class T>
void check_encode(const std::string& name) {
  const auto inputs = encode_inputs<T>();
  std::vector<std::string> text32;
  std::vector<std::string> text64;
  for (const std::uint32_t bits : inputs) {
    const double value = static_cast<double>(mf::detail::bit_cast<float>(bits));
    text32.push_back(hex(bits, 8));
    // Perturb the double below float precision so f64 rounding is tested as
    // a single rounding, not a float one.
    double perturbed = value;
    if (std::isfinite(value) && value != 0) {
      perturbed = std::nextafter(value, (bits & 1u) ? std::numeric_limits<double>::infinity()
                                                    : -std::numeric_limits<double>::infinity());
    }
    text64.push_back(hex(mf::detail::bit_cast<std::uint64_t>(perturbed), 16));
  }
  for (const mode& m : modes_for(T::format::bits)) {
    const bool saturate = m.saturate;
    const mf::overflow overflow = saturate ? mf::overflow::saturating : mf::overflow::non_saturating;
    const std::string options = std::string(" --round ") + m.name +
                                (saturate ? " --saturate" : "") + stochastic_options(m, seed);
    const auto out32 = run("encode " + name + options, &text32);
    const auto out64 = run("encode " + name + options + " --from f64", &text64);
    if (out32.size() != inputs.size() || out64.size() != inputs.size()) {
      fail("encode" + options + ": line count");
      continue;
    }
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      const float value32 = mf::detail::bit_cast<float>(inputs[i]);
      const double value64 = mf::detail::bit_cast<double>(parse_hex(text64[i]));
      const std::uint32_t random = mf::stochastic_random_bits(seed, i, m.random_bits);
      const T expected32 =
          m.stochastic ? mf::round_to_stochastic<T>(value32, random, overflow, m.random_bits)
                       : mf::round_to<T>(value32, m.rounding, overflow);
      const T expected64 =
          m.stochastic ? mf::round_to_stochastic<T>(value64, random, overflow, m.random_bits)
                       : mf::round_to<T>(value64, m.rounding, overflow);
      if (out32[i] != hex(expected32.bits(), digits<T>())) {
        fail("encode" + options + ": " + text32[i] + " -> " + out32[i] + ", library " +
             hex(expected32.bits(), digits<T>()));
      }
      if (out64[i] != hex(expected64.bits(), digits<T>())) {
        fail("encode" + options + " --from f64: " + text64[i] + " -> " + out64[i] +
             ", library " + hex(expected64.bits(), digits<T>()));
      }
    }
  }
}

// The structured inputs `minifloat vectors --help` lists, computed here from
// the format's values and float32 arithmetic (not with the tool's code): for
// each sign every finite value, every midpoint between neighbours, the
// midpoint between max and the next value of an unbounded exponent range and
// that value, each also 1 and 2 float32 ulps either side; every power of two
// from above max to 2^127 and the two largest floats; every power of two from
// below the smallest positive value down to 2^-149; without zero, 3/4 of the
// smallest value, also 1 and 2 ulps either side. Positive float32 bits.
template <class T>
std::vector<std::uint32_t> documented_structured_inputs() {
  using format = typename T::format;
  std::vector<double> values;  // the finite non-negative values, ascending
  for (std::uint32_t e = 0; e < encodings<T>(); ++e) {
    const double v = static_cast<double>(from_bits<T>(e));
    if (std::isfinite(v) && !std::signbit(v)) values.push_back(v);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  std::vector<std::uint32_t> inputs;
  const auto bits_of = [](double exactly_a_float) {
    return mf::detail::bit_cast<std::uint32_t>(static_cast<float>(exactly_a_float));
  };
  const auto with_ulps = [&](double v) {
    const std::uint32_t bits = bits_of(v);
    for (std::uint32_t step = 0; step <= 2; ++step) {
      if (bits >= step) inputs.push_back(bits - step);
      if (bits + step < 0x7F800000u) inputs.push_back(bits + step);
    }
  };
  for (std::size_t i = 0; i < values.size(); ++i) {
    with_ulps(values[i]);
    if (i + 1 < values.size()) with_ulps((values[i] + values[i + 1]) / 2);
  }
  const double max = values.back();
  int max_exponent = 0;
  std::frexp(max, &max_exponent);  // max = f * 2^max_exponent, f in [0.5, 1)
  const double ulp_at_max = std::ldexp(1.0, max_exponent - 1 - format::mantissa_bits);
  for (const double above : {max + ulp_at_max / 2, max + ulp_at_max}) {
    if (above <= static_cast<double>(std::numeric_limits<float>::max())) with_ulps(above);
  }
  for (int exponent = max_exponent; exponent <= 127; ++exponent) {
    inputs.push_back(bits_of(std::ldexp(1.0, exponent)));
  }
  inputs.push_back(0x7F7FFFFEu);
  inputs.push_back(0x7F7FFFFFu);
  const double smallest = values.front() > 0 ? values.front() : values[1];
  for (int exponent = -149; std::ldexp(1.0, exponent) < smallest; ++exponent) {
    inputs.push_back(bits_of(std::ldexp(1.0, exponent)));
  }
  if (!format::has_zero) with_ulps(smallest * 0.75);
  return inputs;
}

// vectors --csv in each mode of modes_for: the documented header, every input converted
// as the library converts it, the documented random inputs and words, and the
// structured set covering every value of the format.
template <class T>
void check_vectors(const std::string& name) {
  constexpr std::uint64_t count = 500;
  constexpr std::uint64_t vectors_seed = 7;
  const std::vector<std::uint32_t> documented = documented_structured_inputs<T>();
  for (const mode& m : modes_for(T::format::bits)) {
    const bool saturate = m.saturate;
    const mf::overflow overflow = saturate ? mf::overflow::saturating : mf::overflow::non_saturating;
    const std::string options =
        std::string(" --round ") + m.name + (saturate ? " --saturate" : "") + " --count " +
        std::to_string(count) + " --seed " + std::to_string(vectors_seed) +
        (m.random_bits != 32 ? " --random-bits " + std::to_string(m.random_bits) : "") +
        " --csv";
    const auto lines = run("vectors " + name + options, nullptr);
    std::size_t first = 0;
    std::string header_text;
    while (first < lines.size() && !lines[first].empty() && lines[first][0] == '#') {
      header_text += lines[first++] + "\n";
    }
    for (const std::string& expected :
         {"# format: " + name + "\n", std::string("# rounding: ") + m.name + "\n",
          std::string("# overflow: ") + (saturate ? "saturating\n" : "non-saturating\n"),
          "# seed: " + std::to_string(vectors_seed) + "\n",
          "# count: " + std::to_string(count) + "\n",
          std::string("# library: minifloat ") + MINIFLOAT_VERSION_STRING + "\n",
          m.stochastic ? "# random_bits: " + std::to_string(m.random_bits) + "\n"
                       : "# format: " + name + "\n"}) {
      if (header_text.find(expected) == std::string::npos) {
        fail("vectors" + options + ": header lacks " + expected);
      }
    }
    if (first >= lines.size() || lines[first] != "input_bits,output_bits,class") {
      fail("vectors" + options + ": no column header");
      continue;
    }
    const std::size_t total = lines.size() - first - 1;
    if (total <= count) {
      fail("vectors" + options + ": too few lines");
      continue;
    }
    const std::size_t structured = total - count;
    std::unordered_set<std::uint32_t> seen;
    for (std::size_t i = 0; i < total; ++i) {
      const auto cells = split(lines[first + 1 + i], ',');
      if (cells.size() != 3 || cells[0].size() != 10) {
        fail("vectors" + options + ": line " + lines[first + 1 + i]);
        continue;
      }
      const auto input = static_cast<std::uint32_t>(parse_hex(cells[0]));
      if (i < structured) {
        if (!seen.insert(input).second) fail("vectors" + options + ": repeated " + cells[0]);
      } else if (input != mf::stochastic_random_word(vectors_seed ^ 0x9E3779B97F4A7C15u,
                                                      i - structured)) {
        fail("vectors" + options + ": random input " + cells[0]);
      }
      const float value = mf::detail::bit_cast<float>(input);
      const T expected = m.stochastic
                             ? mf::round_to_stochastic<T>(
                                   value,
                                   mf::stochastic_random_bits(vectors_seed, i, m.random_bits),
                                   overflow, m.random_bits)
                             : mf::round_to<T>(value, m.rounding, overflow);
      if (cells[1] != hex(expected.bits(), digits<T>()) ||
          cells[2] != class_of<T>(expected.bits())) {
        fail("vectors" + options + ": " + lines[first + 1 + i] + ", library " +
             hex(expected.bits(), digits<T>()) + "," + class_of<T>(expected.bits()));
      }
    }
    // Every value of the format, both signs, is among the inputs.
    for (std::uint32_t e = 0; e < encodings<T>(); ++e) {
      const float value = static_cast<float>(from_bits<T>(e));
      if (std::isnan(value)) continue;
      const std::uint32_t bits = mf::detail::bit_cast<std::uint32_t>(value);
      if (seen.count(bits) == 0 || seen.count(bits ^ 0x80000000u) == 0) {
        fail("vectors" + options + ": value " + hex(bits, 8) + " not among the inputs");
      }
    }
    // And the rest of the documented set, both signs.
    for (const std::uint32_t bits : documented) {
      if (seen.count(bits) == 0 || seen.count(bits | 0x80000000u) == 0) {
        fail("vectors" + options + ": documented input " + hex(bits, 8) + " not among the inputs");
      }
    }
  }
}

template <class T>
void check(const std::string& what, const std::string& name) {
  if (what == "table") {
    check_table<T>(name);
  } else if (what == "roundtrip") {
    check_roundtrip<T>(name);
  } else if (what == "encode") {
    check_encode<T>(name);
  } else if (what == "vectors") {
    check_vectors<T>(name);
  } else {
    fail("unknown check " + what);
  }
}

template <class T>
bool dispatch(const char* candidate, const std::string& name, const std::string& what) {
  if (name != candidate) return false;
  check<T>(what, name);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: cli_check TOOL table|roundtrip|encode|vectors FORMAT\n");
    return 2;
  }
  tool = argv[1];
  const std::string what = argv[2];
  const std::string name = argv[3];
  scratch_prefix = "cli_check_" + what + "_" + name;
  const bool known =
      dispatch<mf::e4m3fn>("e4m3fn", name, what) || dispatch<mf::e4m3fnuz>("e4m3fnuz", name, what) ||
      dispatch<mf::e5m2>("e5m2", name, what) || dispatch<mf::e5m2fnuz>("e5m2fnuz", name, what) ||
      dispatch<mf::e2m1fn>("e2m1fn", name, what) || dispatch<mf::e2m3fn>("e2m3fn", name, what) ||
      dispatch<mf::e3m2fn>("e3m2fn", name, what) || dispatch<mf::e8m0fnu>("e8m0fnu", name, what) ||
      dispatch<mf::e4m3>("e4m3", name, what) || dispatch<mf::e3m4>("e3m4", name, what) ||
      dispatch<mf::e4m3b11fnuz>("e4m3b11fnuz", name, what) ||
      dispatch<mf::binary16>("binary16", name, what) ||
      dispatch<mf::bfloat16>("bfloat16", name, what);
  if (!known) {
    std::fprintf(stderr, "cli_check: unknown format %s\n", name.c_str());
    return 2;
  }
  if (failures > 0) {
    std::fprintf(stderr, "%d mismatches\n", failures);
    return 1;
  }
  std::printf("%s %s: ok\n", what.c_str(), name.c_str());
  return 0;
}
