// calibrate: a static scale for FORMAT from the values on stdin, by one of
// mf::calibration's methods, and what it costs on those values.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <minifloat/calibration.hpp>

#include "commands.hpp"
#include "encoding_facts.hpp"
#include "line_io.hpp"

namespace minifloat_cli {
namespace {

namespace cal = mf::calibration;

// Feeds the values to one observer, or with --per-row N to one per row of N.
class observers {
 public:
  explicit observers(std::uint64_t per_row) : per_row_(per_row), all_(1) {}

  void add(const float* x, std::size_t n) {
    if (per_row_ == 0) {
      all_[0].observe(x, n);
      count_ += n;
      return;
    }
    while (n > 0) {
      const std::uint64_t row = count_ / per_row_;
      const std::uint64_t room = per_row_ - count_ % per_row_;
      const std::size_t m = n < room ? n : static_cast<std::size_t>(room);
      if (row == all_.size()) all_.emplace_back();
      all_[row].observe(x, m);
      count_ += m;
      x += m;
      n -= m;
    }
  }

  std::uint64_t count() const { return count_; }
  const std::vector<cal::abs_histogram>& histograms() const { return all_; }

 private:
  std::uint64_t per_row_;
  std::vector<cal::abs_histogram> all_;
  std::uint64_t count_ = 0;
};

void read_text(observers& into) {
  line_reader in(stdin);
  std::vector<float> batch;
  batch.reserve(4096);
  std::string_view line;
  while (in.next(line)) {
    batch.push_back(float_line_value(line, in.line_number()));
    if (batch.size() == 4096) {
      into.add(batch.data(), batch.size());
      batch.clear();
    }
  }
  into.add(batch.data(), batch.size());
}

// Raw little-endian float32, assembled byte by byte (any host byte order).
void read_binary(observers& into) {
  std::vector<unsigned char> bytes(std::size_t{1} << 16);
  std::vector<float> batch;
  std::uint64_t total = 0;
  std::size_t carry = 0;  // bytes of an incomplete value kept at the front
  for (;;) {
    const std::size_t got = std::fread(bytes.data() + carry, 1, bytes.size() - carry, stdin);
    if (got == 0) {
      if (std::ferror(stdin)) throw io_error("error reading standard input");
      break;
    }
    total += got;
    const std::size_t have = carry + got;
    batch.clear();
    std::size_t i = 0;
    for (; i + 4 <= have; i += 4) {
      const std::uint32_t u = std::uint32_t{bytes[i]} | std::uint32_t{bytes[i + 1]} << 8 |
                              std::uint32_t{bytes[i + 2]} << 16 |
                              std::uint32_t{bytes[i + 3]} << 24;
      float f;
      std::memcpy(&f, &u, sizeof f);
      batch.push_back(f);
    }
    into.add(batch.data(), batch.size());
    carry = have - i;
    std::memmove(bytes.data(), bytes.data() + i, carry);
  }
  if (carry != 0) {
    throw usage_error("--binary: the input is " + std::to_string(total) +
                      " bytes, not a whole number of float32 values");
  }
}

std::string number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char text[40];
  std::snprintf(text, sizeof text, "%.6g", v);
  return text;
}

std::string scale_text(float s, const char* separator, bool parenthesised) {
  char text[96];
  std::uint32_t bits;
  std::memcpy(&bits, &s, sizeof bits);
  if (parenthesised) {
    std::snprintf(text, sizeof text, "%.9g (%a, bits 0x%08x)", static_cast<double>(s),
                  static_cast<double>(s), static_cast<unsigned>(bits));
  } else {
    std::snprintf(text, sizeof text, "%.9g%s%a%s0x%08x", static_cast<double>(s), separator,
                  static_cast<double>(s), separator, static_cast<unsigned>(bits));
  }
  return text;
}

cal::method method_of(const std::string& name) {
  if (name == "percentile") return cal::method::percentile;
  if (name == "mse") return cal::method::mse;
  if (name == "kl") return cal::method::kl;
  return cal::method::max;
}

template <class T>
void calibrate(const options& o) {
  observers data(o.per_row);
  if (o.binary) read_binary(data); else read_text(data);
  if (data.count() == 0) throw usage_error("calibrate: no values on stdin");
  if (o.per_row != 0 && data.count() % o.per_row != 0) {
    throw usage_error("calibrate: " + std::to_string(data.count()) +
                      " values are not whole rows of --per-row " + std::to_string(o.per_row));
  }
  cal::calibration_options c;
  c.how = method_of(o.method);
  c.percentile = o.percentile;
  c.power_of_two = o.power_of_two;

  output_buffer out(stdout);
  if (o.per_row != 0) {
    out.write("row,scale,scale_hex,scale_bits,mse,sqnr_db,saturated,flushed\n");
    const auto results = cal::calibrate_channels<T>(data.histograms(), c);
    for (std::size_t r = 0; r < results.size(); ++r) {
      const cal::quantization_cost& k = results[r].cost;
      out.write(std::to_string(r) + "," + scale_text(results[r].scale, ",", false) + "," +
                number(k.mse) + "," + number(k.sqnr_db) + "," + number(k.saturated_fraction) +
                "," + number(k.flushed_fraction) + "\n");
    }
    return;
  }
  const cal::abs_histogram& h = data.histograms()[0];
  const cal::calibration_result r = cal::calibrate<T>(h, c);
  std::string text = "format: " + format_name(o) + "\nmethod: " + o.method;
  if (c.how == cal::method::percentile) text += " " + number(o.percentile);
  text += std::string("\npower_of_two: ") + (o.power_of_two ? "yes" : "no");
  text += "\nvalues: " + std::to_string(data.count()) + "\nzeros: " + std::to_string(h.zeros()) +
          "\nnan: " + std::to_string(h.nans()) + "\ninf: " + std::to_string(h.infs()) +
          "\namax: " + scale_text(h.amax(), "", true) +
          "\nscale: " + scale_text(r.scale, "", true) +
          "\nscale_inv: " + scale_text(1.0f / r.scale, "", true) +
          "\nmse: " + number(r.cost.mse) + "\nsqnr_db: " + number(r.cost.sqnr_db) +
          "\nsaturated: " + number(r.cost.saturated_fraction) +
          "\nflushed: " + number(r.cost.flushed_fraction) + "\n";
  out.write(text);
}

}  // namespace

int run_calibrate(const options& o) {
  mf::visit_minifloat(o.format, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (T::format::has_zero) calibrate<T>(o);
  });
  return 0;
}

}  // namespace minifloat_cli
