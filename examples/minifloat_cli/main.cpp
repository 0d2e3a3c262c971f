// minifloat: inspect the library's formats and convert numbers through it
// from the shell. `minifloat --help` lists the commands.
#include <cstdio>
#include <exception>
#include <string>
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
    case command::quantize_linear: return minifloat_cli::run_quantize_linear(o);
    case command::dequantize_linear: return minifloat_cli::run_dequantize_linear(o);
    case command::cast: return minifloat_cli::run_cast(o);
    case command::calibrate: return minifloat_cli::run_calibrate(o);
    case command::matmul: return minifloat_cli::run_matmul(o);
    case command::eltwise: return minifloat_cli::run_eltwise(o);
    case command::vectors_matmul: return minifloat_cli::run_vectors_matmul(o);
    case command::none: break;
  }
  return 2;
}

// Everything but closing stdout; returns the exit status, after one line on
// stderr for an error: `prefix` (message_prefix) and the error's message.
int run_command(const std::vector<std::string_view>& arguments, const std::string& prefix) {
  using namespace minifloat_cli;
  if (arguments.empty()) {
    print(stderr, usage_text());
    return exit_usage;
  }
  int status = exit_internal_error;
  try {
    const options o = parse_arguments(arguments);
    if (o.version) {
      print(stdout, "minifloat " MINIFLOAT_VERSION_STRING "\n");
      return exit_success;
    }
    if (o.help) {
      print(stdout, o.what == command::none ? usage_text() : help_text(o.what));
      return exit_success;
    }
    return run(o);
  } catch (const usage_error& error) {
    status = exit_usage;
    std::fflush(stdout);  // what was written before the bad line comes first
    std::fprintf(stderr, "%s%s\n", prefix.c_str(), error.what());
  } catch (const io_error& error) {
    status = exit_io;
    std::fprintf(stderr, "%s%s\n", prefix.c_str(), error.what());
  } catch (const std::exception& error) {
    status = exit_internal_error;
    std::fflush(stdout);
    std::fprintf(stderr, "%s%s\n", prefix.c_str(), error.what());
  }
  return status;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> arguments(argv + (argc > 0 ? 1 : 0), argv + argc);
  // Every message of a command names it ("minifloat: encode: line 3: not a
  // number: 'abc'"), a command line that names none only the tool.
  const std::string prefix = minifloat_cli::message_prefix(
      arguments.empty() ? minifloat_cli::command::none : minifloat_cli::find_command(arguments[0]));
  int status = run_command(arguments, prefix);
  // Every command ends here, so a write that failed anywhere (a full disk,
  // a closed stdout) turns into status 3 even when the command's own code
  // did not look. A reader that goes away early (`| head -1`) kills the tool
  // with SIGPIPE before this, as it does coreutils; with SIGPIPE ignored the
  // write fails with EPIPE and this reports it.
  try {
    minifloat_cli::close_stdout();
  } catch (const minifloat_cli::io_error& error) {
    if (status != minifloat_cli::exit_io) {
      std::fprintf(stderr, "%s%s\n", prefix.c_str(), error.what());
      status = minifloat_cli::exit_io;
    }
  }
  return status;
}
