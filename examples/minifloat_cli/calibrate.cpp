// calibrate: a static scale for FORMAT from the values on stdin, by one of
// mf::calibration's methods, and what it costs on those values.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <minifloat/calibration.hpp>

#include "commands.hpp"
#include "encoding_facts.hpp"
#include "line_io.hpp"

namespace minifloat_cli {
namespace {

namespace cal = mf::calibration;

// Feeds the values to one observer, or with --per-row N to one row at a
// time: a row is calibrated as soon as it is complete and its histogram
// reused, so memory is one histogram (and, for the exact mse, one row's
// values or all of them) whatever the number of rows.
class observers {
 public:
  // keep_values: the exact mse needs the data itself.
  observers(std::uint64_t per_row, bool keep_values, std::function<void(observers&)> row_done)
      : per_row_(per_row), keep_values_(keep_values), row_done_(std::move(row_done)) {}

  void add(const float* x, std::size_t n) {
    while (n > 0) {
      std::size_t m = n;
      if (per_row_ != 0) {
        const std::uint64_t room = per_row_ - count_ % per_row_;
        m = n < room ? n : static_cast<std::size_t>(room);
      }
      histogram_.observe(x, m);
      if (keep_values_) values_.insert(values_.end(), x, x + m);
      count_ += m;
      x += m;
      n -= m;
      if (per_row_ != 0 && count_ % per_row_ == 0) {
        row_done_(*this);
        histogram_ = cal::abs_histogram();
        values_.clear();
      }
    }
  }

  std::uint64_t count() const { return count_; }
  const cal::abs_histogram& histogram() const { return histogram_; }
  const std::vector<float>& values() const { return values_; }

 private:
  std::uint64_t per_row_;
  bool keep_values_;
  std::function<void(observers&)> row_done_;
  cal::abs_histogram histogram_;
  std::vector<float> values_;
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
  if (name == "mse" || name == "mse-histogram") return cal::method::mse;
  if (name == "kl") return cal::method::kl;
  return cal::method::max;
}

// `mse` searches (and costs) on the data itself; every other method, and
// `mse-histogram`, on the histogram's model.
bool on_the_data(const options& o) { return o.method == "mse"; }

template <class T>
cal::calibration_result calibrate_observed(const observers& data, const options& o,
                                           const cal::calibration_options& c) {
  if (data.histogram().finite_count() == 0) {
    throw usage_error("no finite values" +
                      (o.per_row != 0 ? " in row " + std::to_string(data.count() / o.per_row - 1)
                                      : std::string()) +
                      ": nothing to calibrate (NaN and Inf do not move the scale)");
  }
  if (on_the_data(o)) {
    return cal::calibrate<T>(data.histogram(), data.values().data(), data.values().size(), c);
  }
  return cal::calibrate<T>(data.histogram(), c);
}

template <class T>
void calibrate(const options& o) {
  cal::calibration_options c;
  c.how = method_of(o.method);
  c.percentile = o.percentile;
  c.power_of_two = o.power_of_two;
  std::vector<cal::calibration_result> rows;
  observers data(o.per_row, on_the_data(o), [&](observers& row) {
    rows.push_back(calibrate_observed<T>(row, o, c));
  });
  if (o.binary) read_binary(data); else read_text(data);
  if (data.count() == 0) throw usage_error("no values on stdin");
  if (o.per_row != 0 && data.count() % o.per_row != 0) {
    throw usage_error(std::to_string(data.count()) +
                      " values are not whole rows of --per-row " + std::to_string(o.per_row));
  }

  output_buffer out(stdout);
  if (o.per_row != 0) {
    out.write("row,scale,scale_hex,scale_bits,mse,sqnr_db,saturated,flushed\n");
    for (std::size_t r = 0; r < rows.size(); ++r) {
      const cal::quantization_cost& k = rows[r].cost;
      out.write(std::to_string(r) + "," + scale_text(rows[r].scale, ",", false) + "," +
                number(k.mse) + "," + number(k.sqnr_db) + "," + number(k.saturated_fraction) +
                "," + number(k.flushed_fraction) + "\n");
    }
    return;
  }
  const cal::abs_histogram& h = data.histogram();
  const cal::calibration_result r = calibrate_observed<T>(data, o, c);
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
