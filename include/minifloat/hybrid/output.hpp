// The post-processing of a MatMul: scales, bias and output scale applied to
// the float32 accumulator with every rounding fixed (docs/hybrid.md, "Post-
// processing"), and the conversion to the output type.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>

#include "../convert.hpp"
#include "../random.hpp"
#include "../rounding.hpp"
#include "element_type.hpp"

namespace mf::hybrid {

// Where the scales apply: after the sum (the "post processing engine" of the
// vendor's "Hybrid FP8 ONNX" notes), or to each operand before it (PyTorch's
// CPU emulation of _scaled_mm: dequantize to float32, then multiply).
enum class placement : unsigned char { epilogue, operands };

// How the output scale applies: cuBLAS and PyTorch on CUDA multiply by it;
// ONNX QuantizeLinear, oneDNN and PyTorch's CPU path divide by it (a
// correctly rounded division, never a multiply by a rounded reciprocal).
enum class output_scale_rule : unsigned char { multiply, divide };

struct scale_options {
  float a = 1.0f;                  // per-tensor scale of A
  float b = 1.0f;                  // per-tensor scale of B
  const float* a_rows = nullptr;   // optional: one scale per row of A (M), replaces a
  const float* b_columns = nullptr;  // optional: one per column of B (N), replaces b
  const float* bias = nullptr;     // optional: one float32 per output column (N)
  float output = 1.0f;
  output_scale_rule output_rule = output_scale_rule::multiply;
  placement where = placement::epilogue;
};

// The conversion of the post-processed float32 value to the output type:
// nearest even, or stochastic with the library's seeded stream (element
// (i, j) of C takes stream index offset + i * N + j); saturating or not.
// Saturating maps finite overflow and +-Inf to +-max (float32 output: to
// +-FLT_MAX), as ONNX's saturate=1; NaN stays NaN.
struct output_conversion {
  overflow on_overflow = overflow::non_saturating;
  bool stochastic = false;
  std::uint64_t seed = 0;
  std::uint64_t offset = 0;
  int random_bits = stochastic_default_bits;
};

namespace detail {

// Stochastic rounding is for FP8 and 16-bit outputs: an FP32 output is the
// unit's own float32 value, an integer output the integer rule's
// (docs/hybrid.md, "Output conversion"). Asked for another output, it is
// rejected, not ignored.
inline void check_output_conversion(element_type out, const output_conversion& o) {
  if (o.stochastic && (out == element_type::f32 || is_integer(out))) {
    throw unsupported("stochastic output rounding needs an FP8 or 16-bit output; " + std::string(name(out)) +
                      " is not rounded by the output conversion");
  }
}

template <class T>
std::uint32_t encode_as(double value, const output_conversion& o, std::uint64_t index) {
  const T r = o.stochastic
                  ? round_to_stochastic<T>(value, stochastic_random_bits(o.seed, index, o.random_bits),
                                           o.on_overflow, o.random_bits)
                  : round_to<T>(value, rounding::nearest_even, o.on_overflow);
  return r.bits();
}

// The bits of `value` rounded into a float output type. `value` is the
// float32 y3 of the epilogue, or the round-to-odd double of the exact path.
inline std::uint32_t encode_output(element_type out, double value, const output_conversion& o,
                                   std::uint64_t index) {
  switch (out) {
    case element_type::hf8: return encode_as<mf::e4m3fn>(value, o, index);
    case element_type::bf8: return encode_as<mf::e5m2>(value, o, index);
    case element_type::f16: return encode_as<mf::binary16>(value, o, index);
    case element_type::bf16: return encode_as<mf::bfloat16>(value, o, index);
    case element_type::f32: {
      float f = static_cast<float>(value);
      if (o.on_overflow == overflow::saturating && std::isinf(f)) {
        f = std::copysign(std::numeric_limits<float>::max(), f);
      }
      return mf::detail::bit_cast<std::uint32_t>(f);
    }
    case element_type::i8:
    case element_type::u8: break;
  }
  throw unsupported("encode_output: integer outputs go through the integer requantization");
}

}  // namespace detail
}  // namespace mf::hybrid
