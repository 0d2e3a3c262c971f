// Exact text for binary floating-point values. Every value of every format is
// a dyadic rational m * 2^e, so its decimal expansion is finite: the table
// prints all of it (0.001953125, not 0.002) and nothing is lost to a
// shortest-digits heuristic.
#pragma once

#include <cstdint>
#include <string>

namespace minifloat_cli {

// The full decimal expansion of `value`, positional (no exponent): "448",
// "-0.001953125", "-0" for negative zero, "inf", "-inf", and "nan" for every
// NaN.
std::string exact_decimal(double value);

// C's hex-float ("%a") spelling: "0x1.cp+8", "-0x1p-9", "0x0p+0".
std::string hex_float(double value);

// "0x" followed by `digits` lowercase hex digits of `value`.
std::string hex(std::uint64_t value, int digits);

}  // namespace minifloat_cli
