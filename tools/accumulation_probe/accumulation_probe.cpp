#include "accumulation_probe.hpp"

#include <minifloat/hybrid.hpp>

#include <algorithm>
#include <istream>
#include <map>
#include <ostream>
#include <stdexcept>

namespace mf_accumulation_probe {
namespace {

namespace hy = mf::hybrid;

constexpr const char* record_header = "minifloat accumulation probe record 1";
constexpr int never = 1 << 30;  // a promote_every that no K reaches
constexpr std::uint64_t nan_distance = std::uint64_t{1} << 32;  // more than any two floats

// splitmix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number
// generators", OOPSLA 2014) at position `index`: the state after index + 1
// steps, mixed.
std::uint64_t splitmix64_at(std::uint64_t seed, std::uint64_t index) {
  std::uint64_t z = seed + (index + 1) * 0x9E3779B97F4A7C15u;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
  return z ^ (z >> 31);
}

// Distance in FP32 ulps, on the line where the encodings are ordered
// (-0 and +0 both at 0).
std::uint64_t ulps_apart(std::uint32_t x, std::uint32_t y) {
  const auto is_nan = [](std::uint32_t b) { return (b & 0x7FFFFFFFu) > 0x7F800000u; };
  if (is_nan(x) || is_nan(y)) return x == y ? 0 : nan_distance;
  const auto line = [](std::uint32_t b) {
    const std::int64_t magnitude = b & 0x7FFFFFFFu;
    return (b >> 31) != 0 ? -magnitude : magnitude;
  };
  const std::int64_t d = line(x) - line(y);
  return static_cast<std::uint64_t>(d < 0 ? -d : d);
}

hy::accumulation_model model_of(const candidate& c) {
  switch (c.family) {
    case model_family::sequential_fp32: return hy::models::sequential_fp32();
    case model_family::exact: return hy::models::exact();
    case model_family::chunked_exact:
      return hy::models::chunked_exact(
          c.chunk, c.toward_zero ? hy::fp32_rounding::toward_zero : hy::fp32_rounding::nearest_even);
    case model_family::reduced_precision:
      return hy::models::reduced_precision(
          c.bits, c.promote_every, c.block == 0 ? hy::reduced_variant::seq : hy::reduced_variant::block,
          c.block == 0 ? 32 : c.block, c.floor ? hy::truncation::floor : hy::truncation::toward_zero);
  }
  return {};
}

bool better(const model_score& x, const model_score& y) {
  if (x.equal != y.equal) return x.equal > y.equal;
  return x.max_ulps < y.max_ulps;
}

void print_score(std::ostream& out, const model_score& s) {
  out << "    " << s.model << ": " << s.equal << " / " << s.compared << " equal, max ";
  if (s.max_ulps >= nan_distance) {
    out << "(a NaN apart)\n";
  } else {
    out << s.max_ulps << " ulps\n";
  }
}

std::string value_after(const std::string& line, const std::string& key) {
  const std::size_t at = line.find(" " + key + "=");
  if (at == std::string::npos) throw std::runtime_error("record: a case line without " + key);
  const std::size_t begin = at + key.size() + 2;
  return line.substr(begin, line.find(' ', begin) - begin);
}

std::uint64_t number_after(const std::string& line, const std::string& key) {
  const std::string text = value_after(line, key);
  std::size_t used = 0;
  const unsigned long long v = std::stoull(text, &used);
  if (used != text.size()) throw std::runtime_error("record: " + key + "=" + text);
  return v;
}

}  // namespace

const char* name(operand_data data) { return data == operand_data::wide ? "wide" : "narrow"; }

std::uint8_t operand_code(operand_data data, std::uint64_t seed, std::uint64_t index) {
  const std::uint64_t r = splitmix64_at(seed, index);
  if (data == operand_data::wide) {
    // 254 finite codes: 0x00..0x7E and 0x80..0xFE (0x7F and 0xFF are NaN).
    const auto u = static_cast<unsigned>(r % 254);
    return static_cast<std::uint8_t>(u < 0x7F ? u : u + 1);
  }
  // Exponent fields 5..8 (E4M3FN's bias is 7): magnitudes 2^-2 .. 2^1 x [1, 2).
  const unsigned sign = r & 1u, exponent = 5 + static_cast<unsigned>((r >> 1) % 4),
                 mantissa = static_cast<unsigned>(r >> 8) & 7u;
  return static_cast<std::uint8_t>(sign << 7 | exponent << 3 | mantissa);
}

std::vector<std::uint8_t> operand_codes(operand_data data, std::uint64_t seed, std::size_t rows,
                                        std::size_t k) {
  std::vector<std::uint8_t> codes(rows * k);
  for (std::size_t i = 0; i < codes.size(); ++i) codes[i] = operand_code(data, seed, i);
  return codes;
}

std::uint64_t b_seed(std::uint64_t seed) { return seed ^ 0x5851F42D4C957F2Du; }

std::size_t sample_position(std::size_t index, std::size_t count, std::size_t extent) {
  const std::size_t stride = std::max<std::size_t>(extent / std::max<std::size_t>(count, 1), 1);
  return index * stride + (index / 4) % stride;
}

void record_sample(probe_case& c, const float* d_column_major) {
  c.d_bits.assign(c.sample_rows * c.sample_columns, 0);
  for (std::size_t r = 0; r < c.sample_rows; ++r) {
    const std::size_t i = sample_position(r, c.sample_rows, c.m);
    for (std::size_t s = 0; s < c.sample_columns; ++s) {
      const std::size_t j = sample_position(s, c.sample_columns, c.n);
      c.d_bits[r * c.sample_columns + s] =
          mf::detail::bit_cast<std::uint32_t>(d_column_major[i + j * c.m]);
    }
  }
}

void write_record(std::ostream& out, const std::string& device, const std::vector<probe_case>& cases) {
  out << record_header << "\ndevice " << device << '\n';
  for (const probe_case& c : cases) {
    out << "case fast_accumulation=" << (c.fast_accumulation ? 1 : 0) << " data=" << name(c.data)
        << " seed=" << c.seed << " m=" << c.m << " n=" << c.n << " k=" << c.k
        << " rows=" << c.sample_rows << " columns=" << c.sample_columns
        << " algorithm=" << c.algorithm << '\n';
    for (std::size_t i = 0; i < c.d_bits.size(); ++i) {
      static const char digits[] = "0123456789abcdef";
      for (int shift = 28; shift >= 0; shift -= 4) out << digits[(c.d_bits[i] >> shift) & 15u];
      out << ((i % 16 == 15 || i + 1 == c.d_bits.size()) ? '\n' : ' ');
    }
  }
}

std::vector<probe_case> read_record(std::istream& in, std::string& device) {
  std::string line;
  if (!std::getline(in, line) || line != record_header) {
    throw std::runtime_error("record: the first line is not \"" + std::string(record_header) + "\"");
  }
  if (!std::getline(in, line) || line.rfind("device ", 0) != 0) {
    throw std::runtime_error("record: the second line is not the device");
  }
  device = line.substr(7);
  std::vector<probe_case> cases;
  while (std::getline(in, line)) {
    if (line.empty()) continue;
    if (line.rfind("case ", 0) != 0) throw std::runtime_error("record: expected a case line: " + line);
    probe_case c;
    c.fast_accumulation = number_after(line, "fast_accumulation") != 0;
    const std::string data = value_after(line, "data");
    if (data != "wide" && data != "narrow") throw std::runtime_error("record: data=" + data);
    c.data = data == "wide" ? operand_data::wide : operand_data::narrow;
    c.seed = number_after(line, "seed");
    c.m = number_after(line, "m");
    c.n = number_after(line, "n");
    c.k = number_after(line, "k");
    c.sample_rows = number_after(line, "rows");
    c.sample_columns = number_after(line, "columns");
    if (c.sample_rows > c.m || c.sample_columns > c.n) {
      throw std::runtime_error("record: a sample larger than the output");
    }
    const std::size_t algorithm = line.find(" algorithm=");
    if (algorithm == std::string::npos) throw std::runtime_error("record: a case without algorithm");
    c.algorithm = line.substr(algorithm + 11);
    c.d_bits.resize(c.sample_rows * c.sample_columns);
    for (std::uint32_t& b : c.d_bits) {
      std::string word;
      if (!(in >> word)) throw std::runtime_error("record: a case's values end early");
      if (word.size() != 8 || word.find_first_not_of("0123456789abcdef") != std::string::npos) {
        throw std::runtime_error("record: not a value: " + word);
      }
      b = static_cast<std::uint32_t>(std::stoul(word, nullptr, 16));
    }
    cases.push_back(std::move(c));
  }
  return cases;
}

std::vector<candidate> candidate_models() {
  std::vector<candidate> models;
  models.push_back({"sequential_fp32", model_family::sequential_fp32});
  models.push_back({"exact", model_family::exact});
  for (const bool toward_zero : {false, true}) {
    for (const int chunk : {16, 32, 64, 128}) {
      candidate c{"chunked_exact{" + std::to_string(chunk) +
                      (toward_zero ? ", toward_zero}" : "}"),
                  model_family::chunked_exact};
      c.chunk = chunk;
      c.toward_zero = toward_zero;
      models.push_back(c);
    }
  }
  for (const bool floor : {false, true}) {
    for (const int block : {0, 8, 16, 32, 64}) {
      for (const int promote_every : {32, 64, 128, 256, 512, 1024, never}) {
        for (int bits = 8; bits <= 24; ++bits) {
          candidate c{"reduced_precision{" + std::to_string(bits) + ", " +
                          (promote_every == never ? std::string("never")
                                                  : std::to_string(promote_every)) +
                          ", " + (block == 0 ? std::string("seq") : "block " + std::to_string(block)) +
                          (floor ? ", floor}" : ", toward_zero}"),
                      model_family::reduced_precision};
          c.bits = bits;
          c.promote_every = promote_every;
          c.block = block;
          c.floor = floor;
          models.push_back(c);
        }
      }
    }
  }
  return models;
}

std::vector<model_score> score_models(const probe_case& c, const std::vector<candidate>& models,
                                      unsigned threads) {
  const std::size_t rows = c.sample_rows, columns = c.sample_columns, k = c.k;
  // The sampled rows of A (rows x k) and columns of B, as B's k x columns.
  std::vector<mf::e4m3fn> a(rows * k), b(k * columns);
  for (std::size_t r = 0; r < rows; ++r) {
    const std::size_t i = sample_position(r, rows, c.m);
    for (std::size_t p = 0; p < k; ++p) {
      a[r * k + p] = mf::e4m3fn::from_bits(operand_code(c.data, c.seed, i * k + p));
    }
  }
  for (std::size_t s = 0; s < columns; ++s) {
    const std::size_t j = sample_position(s, columns, c.n);
    for (std::size_t p = 0; p < k; ++p) {
      b[p * columns + s] = mf::e4m3fn::from_bits(operand_code(c.data, b_seed(c.seed), j * k + p));
    }
  }
  std::vector<float> out(rows * columns);
  std::vector<model_score> scores;
  scores.reserve(models.size());
  for (const candidate& model : models) {
    hy::matmul_options o;
    o.model = model_of(model);
    o.threads = threads;
    hy::matmul<hy::cublaslt_fp8>(a.data(), k, b.data(), columns, out.data(), columns, rows,
                                 columns, k, o);
    model_score s{model.name, 0, out.size(), 0};
    for (std::size_t e = 0; e < out.size(); ++e) {
      const std::uint32_t mine = mf::detail::bit_cast<std::uint32_t>(out[e]);
      s.equal += mine == c.d_bits[e] ? 1 : 0;
      s.max_ulps = std::max(s.max_ulps, ulps_apart(mine, c.d_bits[e]));
    }
    scores.push_back(s);
  }
  std::stable_sort(scores.begin(), scores.end(), better);
  return scores;
}

std::vector<std::size_t> significant_bit_counts(const probe_case& c) {
  std::vector<std::size_t> counts(26, 0);
  for (const std::uint32_t b : c.d_bits) {
    const std::uint32_t exponent = (b >> 23) & 0xFFu, fraction = b & 0x7FFFFFu;
    if (exponent == 0xFFu) {
      ++counts[25];
      continue;
    }
    const std::uint32_t significand = exponent != 0 ? (fraction | 0x800000u) : fraction;
    if (significand == 0) {
      ++counts[0];
      continue;
    }
    // The leading one's and the last one's places (the lowest set bit
    // isolated by significand & -significand).
    const int top = 63 - mf::detail::count_leading_zeros(significand);
    const int low = 63 - mf::detail::count_leading_zeros(significand & (0u - significand));
    ++counts[static_cast<std::size_t>(top - low + 1)];
  }
  return counts;
}

void report(std::ostream& out, const std::vector<probe_case>& cases,
            const std::vector<candidate>& models, unsigned threads, std::size_t shown) {
  // Per fast-accumulation setting, each model's totals over its cases.
  std::map<bool, std::map<std::string, model_score>> totals;
  for (std::size_t index = 0; index < cases.size(); ++index) {
    const probe_case& c = cases[index];
    out << "case " << index << ": fast accumulation " << (c.fast_accumulation ? "on" : "off") << ", "
        << name(c.data) << " data, K = " << c.k << " (M = " << c.m << ", N = " << c.n << "; "
        << c.sample_rows << " x " << c.sample_columns << " sampled); " << c.algorithm << '\n';
    const std::vector<std::size_t> widths = significant_bit_counts(c);
    out << "  significant bits of D (bits: elements):";
    for (std::size_t w = 0; w < widths.size(); ++w) {
      if (widths[w] != 0) out << ' ' << (w == 25 ? std::string("inf/nan") : std::to_string(w)) << ": " << widths[w];
    }
    out << '\n';
    const std::vector<model_score> scores = score_models(c, models, threads);
    out << "  best:\n";
    for (std::size_t i = 0; i < std::min(shown, scores.size()); ++i) print_score(out, scores[i]);
    out << "  plain models:\n";
    for (const model_score& s : scores) {
      if (s.model == "sequential_fp32" || s.model == "exact") print_score(out, s);
      model_score& total = totals[c.fast_accumulation][s.model];
      total.model = s.model;
      total.equal += s.equal;
      total.compared += s.compared;
      total.max_ulps = std::max(total.max_ulps, s.max_ulps);
    }
  }
  for (const auto& [fast, by_model] : totals) {
    // Ties keep the candidates' order (simplest first), not the map's.
    std::vector<model_score> ordered;
    for (const candidate& m : models) {
      const auto found = by_model.find(m.name);
      if (found != by_model.end()) ordered.push_back(found->second);
    }
    std::stable_sort(ordered.begin(), ordered.end(), better);
    std::size_t exact_everywhere = 0;
    for (const model_score& s : ordered) exact_everywhere += s.equal == s.compared ? 1 : 0;
    out << "fast accumulation " << (fast ? "on" : "off") << ", every case: " << exact_everywhere
        << " of " << ordered.size() << " models reproduce every recorded element; the best:\n";
    for (std::size_t i = 0; i < std::min(shown, ordered.size()); ++i) print_score(out, ordered[i]);
  }
}

}  // namespace mf_accumulation_probe
