#include "line_io.hpp"

#include <cerrno>
#include <cstring>
#include <string>

namespace minifloat_cli {

line_reader::line_reader(std::FILE* in, std::size_t block_size)
    : in_(in), buffer_(block_size + 1) {}  // + 1: room for a final NUL

bool line_reader::fill() {
  if (at_eof_) return false;
  // Keep the unread tail, at the front; grow when one line fills the block.
  if (begin_ > 0) {
    std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
    end_ -= begin_;
    begin_ = 0;
  }
  if (end_ + 1 >= buffer_.size()) buffer_.resize(2 * buffer_.size());
  const std::size_t got =
      std::fread(buffer_.data() + end_, 1, buffer_.size() - 1 - end_, in_);
  end_ += got;
  if (got == 0) {
    if (std::ferror(in_)) throw io_error("error reading standard input");
    at_eof_ = true;
    return false;
  }
  return true;
}

bool line_reader::next(std::string_view& line) {
  std::size_t length = 0;
  for (;;) {
    const char* const first = buffer_.data() + begin_;
    const auto* newline = static_cast<const char*>(std::memchr(first, '\n', end_ - begin_));
    if (newline != nullptr) {
      length = static_cast<std::size_t>(newline - first);
      break;
    }
    if (!fill()) {
      // The last line, without a newline: the spare byte takes the NUL.
      length = end_ - begin_;
      if (length == 0) return false;
      break;
    }
  }
  char* const start = buffer_.data() + begin_;
  begin_ = begin_ + length < end_ ? begin_ + length + 1 : end_;
  if (length > 0 && start[length - 1] == '\r') --length;
  start[length] = '\0';
  line = std::string_view(start, length);
  ++line_number_;
  return true;
}

output_buffer::output_buffer(std::FILE* out, std::size_t block_size)
    : out_(out), buffer_(block_size < 64 ? 64 : block_size) {}

output_buffer::~output_buffer() {
  try {
    flush();
  } catch (const io_error&) {
    // The status was already decided by whoever let this unwind.
  }
}

void output_buffer::write(std::string_view text) {
  if (text.size() > buffer_.size() - used_) {
    flush();
    if (text.size() > buffer_.size()) {
      if (std::fwrite(text.data(), 1, text.size(), out_) != text.size()) {
        throw_write_error(errno);
      }
      return;
    }
  }
  std::memcpy(buffer_.data() + used_, text.data(), text.size());
  used_ += text.size();
}

void output_buffer::flush() {
  if (used_ > 0) {
    const std::size_t size = used_;
    used_ = 0;
    if (std::fwrite(buffer_.data(), 1, size, out_) != size) throw_write_error(errno);
  }
  if (std::fflush(out_) != 0) throw_write_error(errno);
}

namespace {
// The reason of the first failed write, for close_stdout() when that write's
// io_error was swallowed (in ~output_buffer, during unwinding).
int first_write_errno = 0;
}  // namespace

void throw_write_error(int error_number) {
  if (first_write_errno == 0) first_write_errno = error_number;
  std::string message = "error writing standard output";
  if (error_number != 0) {
    message += ": ";
    message += std::strerror(error_number);
  }
  throw io_error(message);
}

void close_stdout() {
  const bool earlier_error = std::ferror(stdout) != 0;
  errno = 0;
  const bool flush_failed = std::fflush(stdout) != 0;
  const int flush_errno = errno;
  errno = 0;
  // close() can fail on its own (a deferred error of a network file system).
  const bool close_failed = std::fclose(stdout) != 0;
  const int close_errno = errno;
  if (flush_failed) throw_write_error(flush_errno);
  if (earlier_error) throw_write_error(first_write_errno);
  // EBADF from close with nothing written and nothing lost (`encode
  // </dev/null >&-`) is not an error, as in gnulib's close_stream.
  if (close_failed && close_errno != EBADF) throw_write_error(close_errno);
}

std::string quote_line(std::string_view line) {
  constexpr std::size_t longest = 64;
  std::string text = "'";
  for (std::size_t i = 0; i < line.size() && i < longest; ++i) {
    const auto byte = static_cast<unsigned char>(line[i]);
    if (byte < 0x20 || byte == 0x7F) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", static_cast<unsigned>(byte));
      text += escaped;
    } else {
      text += static_cast<char>(byte);
    }
  }
  text += line.size() > longest ? "'..." : "'";
  return text;
}

}  // namespace minifloat_cli
