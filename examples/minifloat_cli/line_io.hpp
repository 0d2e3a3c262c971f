// Buffered line input and output for the streaming commands (encode,
// decode): large blocks through stdio, no iostreams, no per-line system call,
// so a pipe of tens of millions of lines runs at memory speed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace minifloat_cli {

// A bad invocation or a bad input line: reported as one line on stderr,
// exit status 2.
class usage_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reading or writing failed (a closed stdout, a full disk, a reader that
// went away while SIGPIPE is ignored): exit status 3.
class io_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The exit statuses of the tool, as its --help and README list them.
constexpr int exit_success = 0;
constexpr int exit_internal_error = 1;  // an unexpected exception (out of memory)
constexpr int exit_usage = 2;           // a bad command line or input line
constexpr int exit_io = 3;              // reading stdin or writing stdout failed

// Throws io_error "error writing standard output: <strerror(error_number)>".
[[noreturn]] void throw_write_error(int error_number);

// The last step of every command, taken by main: flushes and closes stdout
// and throws io_error if that fails or if any earlier write to stdout failed
// (its error indicator, ferror, stays set), so no lost output ends with
// status 0, whichever path wrote it. Like coreutils' close_stdout.
void close_stdout();

// Splits a stream into lines. A line ends at "\n" or "\r\n"; the last line
// may lack its newline. Each line is handed out NUL-terminated (so C parsers
// such as strtof can read it in place) and stays valid until the next call.
class line_reader {
 public:
  explicit line_reader(std::FILE* in, std::size_t block_size = std::size_t{1} << 20);

  // The next line without its terminator; false at the end of the input.
  bool next(std::string_view& line);

  // 1-based number of the line last returned by next().
  std::uint64_t line_number() const { return line_number_; }

 private:
  bool fill();

  std::FILE* in_;
  std::vector<char> buffer_;
  std::size_t begin_ = 0;  // first unread byte
  std::size_t end_ = 0;    // one past the last byte read
  bool at_eof_ = false;
  std::uint64_t line_number_ = 0;
};

// Collects output in one large block and writes it with fwrite when full and
// on flush() / destruction, so everything appended before an error is on
// stdout before the error message. A failed write throws io_error from
// write() or flush(); one in the destructor cannot throw, but leaves stdout's
// error indicator set, which close_stdout() then reports.
class output_buffer {
 public:
  explicit output_buffer(std::FILE* out, std::size_t block_size = std::size_t{1} << 20);
  ~output_buffer();
  output_buffer(const output_buffer&) = delete;
  output_buffer& operator=(const output_buffer&) = delete;

  void write(std::string_view text);
  void put(char c) {
    if (used_ == buffer_.size()) flush();
    buffer_[used_++] = c;
  }
  // Appends "0x" and `digits` lowercase hex digits of `value`.
  void write_hex(std::uint64_t value, int digits) {
    if (buffer_.size() - used_ < 18) flush();
    static constexpr char hex_digit[] = "0123456789abcdef";
    char* out = buffer_.data() + used_;
    out[0] = '0';
    out[1] = 'x';
    for (int i = 0; i < digits; ++i) {
      out[2 + i] = hex_digit[(value >> (4 * (digits - 1 - i))) & 0xFu];
    }
    used_ += 2 + static_cast<std::size_t>(digits);
  }
  // Writes everything buffered; throws io_error if the stream fails.
  void flush();

 private:
  std::FILE* out_;
  std::vector<char> buffer_;
  std::size_t used_ = 0;
};

// The offending text of an input line, quoted for an error message: control
// bytes escaped, long lines cut.
std::string quote_line(std::string_view line);

}  // namespace minifloat_cli
