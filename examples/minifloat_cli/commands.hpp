// The commands. Each writes to stdout and returns the exit status; a bad
// input line throws usage_error after everything before it has been written.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "arguments.hpp"

namespace minifloat_cli {

// describe.cpp: what a format is.
int run_formats(const options& o);
int run_info(const options& o);
int run_table(const options& o);

// convert.cpp: streaming conversion of stdin to stdout.
int run_encode(const options& o);
int run_decode(const options& o);

// vectors.cpp: golden conversion vectors.
int run_vectors(const options& o);

// hybrid_commands.cpp: matmul, eltwise, vectors-matmul (the hybrid
// arithmetic), which read their options from o.line.
int run_matmul(const options& o);
int run_eltwise(const options& o);
int run_vectors_matmul(const options& o);

// onnx_ops.cpp: ONNX QuantizeLinear / DequantizeLinear (mf::onnx), which
// read their options from o.line.
int run_quantize_linear(const options& o);
int run_dequantize_linear(const options& o);
int run_cast(const options& o);
std::string_view cast_help_text();
std::string_view quantize_linear_help();
std::string_view dequantize_linear_help();
// calibrate.cpp: a static scale from the data on stdin, and its cost.
int run_calibrate(const options& o);

// convert.cpp: one line of a float32 as `encode` reads it (the one rule of
// read_float, blanks around it allowed); usage_error "line N: ..." otherwise.
float float_line_value(std::string_view line, std::uint64_t line_number);

}  // namespace minifloat_cli
