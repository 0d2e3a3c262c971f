// minifloat: inspect the library's formats and convert numbers through it
// from the shell. `minifloat --help` lists the commands.
#include <cstdio>
#include <exception>
#include <string_view>
#include <vector>

#include <minifloat/config.hpp>

#include "arguments.hpp"
#include "commands.hpp"
#include "line_io.hpp"

namespace {

void print(std::FILE* stream, std::string_view text) {
  std::fwrite(text.data(), 1, text.size(), stream);
}

int run(const minifloat_cli::options& o) {
  using minifloat_cli::command;
  switch (o.what) {
    case command::formats: return minifloat_cli::run_formats(o);
    case command::info: return minifloat_cli::run_info(o);
    case command::table: return minifloat_cli::run_table(o);
    case command::encode: return minifloat_cli::run_encode(o);
    case command::decode: return minifloat_cli::run_decode(o);
    case command::vectors: return minifloat_cli::run_vectors(o);
    case command::calibrate: return minifloat_cli::run_calibrate(o);
    case command::none: break;
  }
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> arguments(argv + (argc > 0 ? 1 : 0), argv + argc);
  if (arguments.empty()) {
    print(stderr, minifloat_cli::usage_text());
    return 2;
  }
  try {
    const minifloat_cli::options o = minifloat_cli::parse_arguments(arguments);
    if (o.version) {
      print(stdout, "minifloat " MINIFLOAT_VERSION_STRING "\n");
      return 0;
    }
    if (o.help) {
      print(stdout, o.what == minifloat_cli::command::none ? minifloat_cli::usage_text()
                                                            : minifloat_cli::help_text(o.what));
      return 0;
    }
    return run(o);
  } catch (const minifloat_cli::usage_error& error) {
    std::fflush(stdout);
    std::fprintf(stderr, "minifloat: %s\n", error.what());
    return 2;
  } catch (const std::exception& error) {
    std::fflush(stdout);
    std::fprintf(stderr, "minifloat: %s\n", error.what());
    return 1;
  }
}
