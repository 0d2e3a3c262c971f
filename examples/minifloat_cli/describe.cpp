// formats, info and table: what a format is, from the library's own traits
// and decoding, with every value printed exactly.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "commands.hpp"
#include "encoding_facts.hpp"
#include "exact_text.hpp"
#include "line_io.hpp"

namespace minifloat_cli {
namespace {

using row = std::vector<std::string>;

enum class align { left, right, decimal_point };

std::string padded(const std::string& text, std::size_t width, align how) {
  const std::string fill(width > text.size() ? width - text.size() : 0, ' ');
  return how == align::left ? text + fill : fill + text;
}

// Lines up a column of numbers on their decimal points ("nan", "inf" and
// integers end where the integer parts end).
void align_decimal_points(std::vector<row>& rows, std::size_t column) {
  std::size_t integer_width = 0;
  std::size_t fraction_width = 0;
  for (const auto& r : rows) {
    const std::size_t point = std::min(r[column].find('.'), r[column].size());
    integer_width = std::max(integer_width, point);
    fraction_width = std::max(fraction_width, r[column].size() - point);
  }
  for (auto& r : rows) {
    const std::size_t point = std::min(r[column].find('.'), r[column].size());
    r[column] = std::string(integer_width - point, ' ') + r[column] +
                std::string(fraction_width - (r[column].size() - point), ' ');
  }
}

// Writes rows as space-separated (text) or pipe-separated (Markdown) columns
// of equal width; the first row is the header.
void write_columns(output_buffer& out, std::vector<row> rows, const std::vector<align>& how,
                   bool markdown) {
  for (std::size_t c = 0; c < how.size(); ++c) {
    if (how[c] == align::decimal_point) {
      const row header = rows[0];
      rows.erase(rows.begin());
      align_decimal_points(rows, c);
      rows.insert(rows.begin(), header);
    }
  }
  std::vector<std::size_t> width(how.size(), 0);
  for (const auto& r : rows) {
    for (std::size_t c = 0; c < r.size(); ++c) width[c] = std::max(width[c], r[c].size());
  }
  if (markdown) {
    for (auto& w : width) w = std::max<std::size_t>(w, 3);  // room for "--:"
  }
  for (std::size_t i = 0; i < rows.size(); ++i) {
    std::string line = markdown ? "|" : "";
    for (std::size_t c = 0; c < how.size(); ++c) {
      // Numbers right, text and the header of a decimal column left.
      const bool right = how[c] == align::right || (i > 0 && how[c] == align::decimal_point);
      const align a = right ? align::right : align::left;
      std::string cell = padded(rows[i][c], width[c], a);
      if (markdown) {
        line += " " + cell + " |";
      } else {
        if (c + 1 == how.size()) {
          while (!cell.empty() && cell.back() == ' ') cell.pop_back();
        }
        line += (c > 0 ? "  " : "") + cell;
      }
    }
    if (!markdown) {
      while (!line.empty() && line.back() == ' ') line.pop_back();
    }
    out.write(line);
    out.put('\n');
    if (markdown && i == 0) {
      std::string rule = "|";
      for (std::size_t c = 0; c < how.size(); ++c) {
        rule += how[c] == align::left ? " " + std::string(width[c], '-') + " |"
                                      : " " + std::string(width[c] - 1, '-') + ": |";
      }
      out.write(rule);
      out.put('\n');
    }
  }
}

std::string yes_no(bool value) { return value ? "true" : "false"; }

// "0.015625 (0x1p-6, encoding 0x08)"
template <class T>
std::string exact_with_encoding(std::uint32_t encoding) {
  const auto value = static_cast<double>(decode<T>(encoding));
  return exact_decimal(value) + " (" + hex_float(value) + ", encoding " +
         hex(encoding, hex_digits<T>()) + ")";
}

// "2 (0x7f, 0xff)", "2046 (0x7c01..0x7fff, 0xfc01..0xffff)", "0"
template <class T>
std::string nan_encodings() {
  std::uint32_t count = 0;
  std::string ranges;
  for (std::uint32_t e = 0; e < encoding_count<T>(); ++e) {
    if (!T::format::is_nan(e)) continue;
    ++count;
    if (e > 0 && T::format::is_nan(e - 1)) continue;  // inside a run
    std::uint32_t last = e;
    while (last + 1 < encoding_count<T>() && T::format::is_nan(last + 1)) ++last;
    ranges += (ranges.empty() ? "" : ", ") + hex(e, hex_digits<T>());
    if (last != e) ranges += ".." + hex(last, hex_digits<T>());
  }
  return count == 0 ? "0" : std::to_string(count) + " (" + ranges + ")";
}

template <class T>
void write_info(output_buffer& out, std::string_view name) {
  using format = typename T::format;
  using limits = std::numeric_limits<T>;
  const auto line = [&](std::string_view key, const std::string& value) {
    out.write(key);
    out.write(": ");
    out.write(value);
    out.put('\n');
  };
  line("format", std::string(name));
  line("bits", std::to_string(format::bits));
  line("exponent_bits", std::to_string(format::exponent_bits));
  line("mantissa_bits", std::to_string(format::mantissa_bits));
  line("bias", std::to_string(format::bias));
  line("is_signed", yes_no(format::is_signed));
  line("has_inf", yes_no(format::has_inf));
  line("has_nan", yes_no(format::has_nan));
  line("nan_encodings", nan_encodings<T>());
  line("has_negative_zero", yes_no(format::has_negative_zero));
  line("has_subnormals", yes_no(format::has_subnormals));
  line("max", exact_with_encoding<T>(limits::max().bits()));
  line("min_normal", exact_with_encoding<T>(limits::min().bits()));
  line("min_subnormal", format::has_subnormals
                            ? exact_with_encoding<T>(limits::denorm_min().bits())
                            : std::string("none"));
  line("epsilon", exact_with_encoding<T>(limits::epsilon().bits()));
}

std::string binary_field(std::uint32_t value, int width) {
  std::string text;
  for (int bit = width - 1; bit >= 0; --bit) text += ((value >> bit) & 1u) ? '1' : '0';
  return text;
}

template <class T>
row table_row(std::uint32_t encoding, const std::string& absent) {
  using format = typename T::format;
  const std::uint32_t magnitude = encoding & format::magnitude_mask;
  return {
      hex(encoding, hex_digits<T>()),
      format::is_signed ? std::string(format::is_negative(encoding) ? "1" : "0") : absent,
      binary_field(magnitude >> format::mantissa_bits, format::exponent_bits),
      format::mantissa_bits > 0 ? binary_field(magnitude & format::mantissa_mask,
                                               format::mantissa_bits)
                                : absent,
      std::string(class_name(classify<T>(encoding))),
      exact_decimal(static_cast<double>(decode<T>(encoding))),
  };
}

template <class T>
void write_table(output_buffer& out, table_style style) {
  const row header = {"bits", "sign", "exponent", "mantissa", "class", "value"};
  if (style == table_style::csv) {
    out.write("bits,sign,exponent,mantissa,class,value\n");
    for (std::uint32_t e = 0; e < encoding_count<T>(); ++e) {
      const row r = table_row<T>(e, "");
      for (std::size_t c = 0; c < r.size(); ++c) {
        if (c > 0) out.put(',');
        out.write(r[c]);
      }
      out.put('\n');
    }
    return;
  }
  std::vector<row> rows{header};
  rows.reserve(encoding_count<T>() + 1);
  for (std::uint32_t e = 0; e < encoding_count<T>(); ++e) rows.push_back(table_row<T>(e, "-"));
  write_columns(out, std::move(rows),
                {align::left, align::left, align::left, align::left, align::left,
                 align::decimal_point},
                style == table_style::markdown);
}

}  // namespace

int run_formats(const options&) {
  output_buffer out(stdout);
  std::vector<row> rows{{"# name", "bits", "E", "M", "bias", "max"}};
  mf::for_each_minifloat([&](auto tag) {
    using T = typename decltype(tag)::type;
    using format = typename T::format;
    rows.push_back({std::string(mf::canonical_name(tag.id)), std::to_string(format::bits),
                    std::to_string(format::exponent_bits), std::to_string(format::mantissa_bits),
                    std::to_string(format::bias),
                    exact_decimal(static_cast<double>(decode<T>(format::max_finite_magnitude)))});
  });
  write_columns(out, std::move(rows),
                {align::left, align::right, align::right, align::right, align::right, align::left},
                false);
  return 0;
}

int run_info(const options& o) {
  output_buffer out(stdout);
  mf::visit_minifloat(o.format, [&](auto tag) {
    write_info<typename decltype(tag)::type>(out, mf::canonical_name(tag.id));
  });
  return 0;
}

int run_table(const options& o) {
  output_buffer out(stdout);
  mf::visit_minifloat(o.format, [&](auto tag) {
    write_table<typename decltype(tag)::type>(out, o.style);
  });
  return 0;
}

}  // namespace minifloat_cli
