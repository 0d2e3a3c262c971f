// Fuzz target: the command-line tool's input side. Even first byte: the
// stream reader (line_reader) over the bytes, with a small block so the
// buffer grows and shifts, against a plain split at '\n' (a "\r" before the
// newline dropped, a last line without newline kept). Odd first byte: the
// argument parser over the bytes split at NUL, which must return options
// that satisfy its documented rules or throw usage_error, nothing else.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <minifloat/format_registry.hpp>

#include "arguments.hpp"
#include "line_io.hpp"

namespace {

void check_reader(const std::uint8_t* data, std::size_t size, std::size_t block) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  std::vector<std::string> want;
  for (std::size_t begin = 0; begin < text.size();) {
    std::size_t end = text.find('\n', begin);
    const bool terminated = end != std::string::npos;
    if (!terminated) end = text.size();
    std::string line = text.substr(begin, end - begin);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    want.push_back(line);
    begin = terminated ? end + 1 : end;
  }
  std::FILE* in = std::tmpfile();
  if (in == nullptr) std::abort();
  if (std::fwrite(text.data(), 1, text.size(), in) != text.size()) std::abort();
  std::rewind(in);
  minifloat_cli::line_reader reader(in, block);
  std::string_view line;
  std::size_t count = 0;
  while (reader.next(line)) {
    if (count >= want.size() || line != want[count]) std::abort();
    if (line.data()[line.size()] != '\0') std::abort();  // NUL-terminated in place
    ++count;
    if (reader.line_number() != count) std::abort();
  }
  if (count != want.size()) std::abort();
  std::fclose(in);
}

void check_arguments(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> words(1);
  for (std::size_t i = 0; i < size && words.size() <= 16; ++i) {
    if (data[i] == 0) {
      words.emplace_back();
    } else {
      words.back() += static_cast<char>(data[i]);
    }
  }
  const std::vector<std::string_view> arguments(words.begin(), words.end());
  try {
    const minifloat_cli::options o = minifloat_cli::parse_arguments(arguments);
    if (o.help || o.version) return;
    using minifloat_cli::command;
    using minifloat_cli::rounding_mode;
    if (o.what == command::none) std::abort();
    // Every command that takes a FORMAT got a minifloat (formats takes
    // none; the hybrid and ONNX commands name their types in their options).
    if (minifloat_cli::takes_format(o.what) && !mf::names_a_minifloat(o.format)) std::abort();
    if (o.random_bits < 1 || o.random_bits > 32) std::abort();
    if (o.mode == rounding_mode::stochastic && !o.has_seed) std::abort();
    // encode's seed only seeds stochastic rounding; vectors' also draws the
    // --count random inputs.
    if (o.has_seed && o.mode != rounding_mode::stochastic &&
        (o.what == command::encode || (o.what == command::vectors && o.count == 0))) {
      std::abort();
    }
  } catch (const minifloat_cli::usage_error&) {
    // A rejected command line: fine.
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  if ((data[0] & 1u) == 0) {
    check_reader(data + 1, size - 1, 1 + (data[0] >> 1));
  } else {
    check_arguments(data + 1, size - 1);
  }
  return 0;
}
