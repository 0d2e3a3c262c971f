// The options of the element-wise operations and the checks of their scale
// factors, shared by the reference (eltwise.hpp) and the fast path
// (kernels/eltwise_path.hpp), so both reject the same requests with the
// same messages. The rules are the vendor's "Hybrid FP8 ONNX" notes ("Rules
// for Eltwise Add/Sub").
#pragma once

#include <cmath>
#include <cstddef>
#include <string>

#include "element_type.hpp"
#include "matmul_options.hpp"
#include "output.hpp"
#include "tables.hpp"

namespace mf::hybrid {

enum class eltwise_op : unsigned char { add, sub, mul };

// A tensor's scale factor: absent (1, and not allowed to be set for a 16-bit
// or integer tensor), or a value that must be exact in the scale format.
struct tensor_scale {
  bool given = false;
  float value = 1.0f;
};

struct eltwise_options {
  eltwise_op op = eltwise_op::add;
  element_type scale_type = element_type::f16;  // FP16 or BF16
  tensor_scale a_scale;
  tensor_scale b_scale;
  // exact: round once from the exact value a*sa +- b*sb (or a*b*sa*sb)
  // instead of through float32.
  bool exact = false;
  // operands: dequantize each FP8 tensor to the scale's 16-bit format first
  // (the notes' "ONNX Suggestion"), then compute without scales.
  placement where = placement::epilogue;
  output_conversion output;
  bool check_z_multiple = true;  // the vendor table: the innermost dimension % 16 == 0
  // Compute on the reference loop even where the fast path
  // (kernels/eltwise_path.hpp) would: the same bits; for tests and benchmarks.
  bool reference_only = false;
};

namespace detail {

inline bool exact_in(element_type t, float v) {
  const double back = t == element_type::bf16
                          ? static_cast<double>(round_to<mf::bfloat16>(v))
                          : static_cast<double>(round_to<mf::binary16>(v));
  return back == static_cast<double>(v) || std::isnan(v);
}

inline float round_to_16bit(element_type t, double v) {
  return t == element_type::bf16 ? static_cast<float>(round_to<mf::bfloat16>(v))
                                 : static_cast<float>(round_to<mf::binary16>(v));
}

// The arrays of an element-wise call (check_matrix, matmul_options.hpp): A
// and C of rows x columns, B of b_count, none null where it has elements.
inline void check_eltwise_arrays(const void* a, const void* b, std::size_t b_count, const void* c,
                                 std::size_t rows, std::size_t columns) {
  check_matrix("element-wise", "A", a, rows, columns, columns);
  check_matrix("element-wise", "B", b, 1, b_count, b_count);
  check_matrix("element-wise", "C", c, rows, columns, columns);
}

// The scale each operand is multiplied by, after checking the notes' rules.
inline void eltwise_scales(element_type ta, element_type tb, const eltwise_options& o, float& sa,
                           float& sb) {
  const auto check = [&](element_type t, const tensor_scale& s, element_type other,
                         const char* which) -> float {
    if (!is_fp8(t)) {
      if (s.given) {
        throw unsupported(std::string("element-wise: the ") + which + " tensor (" +
                          std::string(name(t)) + ") takes no scale factor");
      }
      return 1.0f;
    }
    // No scale is 1, exact in FP16 and BF16 alike: no format to check, so
    // HF8 op BF16 needs no scale_type when neither tensor is scaled.
    if (!s.given) return 1.0f;
    if (!is_16bit_float(o.scale_type)) {
      throw unsupported("element-wise: FP8 scale factors are FP16 or BF16");
    }
    if (is_16bit_float(other) && other != o.scale_type) {
      throw unsupported(std::string("element-wise: the FP8 tensor's scale must be ") +
                        std::string(name(other)) + ", the format of the 16-bit tensor");
    }
    if (!exact_in(o.scale_type, s.value)) {
      throw unsupported(std::string("element-wise: the ") + which + " scale is not a " +
                        std::string(name(o.scale_type)) + " value");
    }
    return s.value;
  };
  sa = check(ta, o.a_scale, tb, "first");
  sb = check(tb, o.b_scale, ta, "second");
}

// The table, the shape of B and the vendor table's innermost-dimension rule.
inline void check_eltwise_request(table_id table, element_type ta, element_type tb, element_type tc,
                                  std::size_t b_count, std::size_t rows, std::size_t columns,
                                  const eltwise_options& o) {
  if (!eltwise_supported(table, ta, tb, tc)) {
    throw unsupported(rejection(table, "element-wise", ta, tb, tc));
  }
  check_output_conversion(tc, o.output);
  // A value without `given` would be ignored: a mistake, not "no scale".
  const auto check_scale = [](const tensor_scale& s, const char* which) {
    if (!s.given && !(s.value == 1.0f)) {
      throw unsupported(std::string("element-wise: the ") + which +
                        " tensor's scale has a value but `given` is false ({true, value} gives it)");
    }
  };
  check_scale(o.a_scale, "first");
  check_scale(o.b_scale, "second");
  if (b_count != rows * columns && b_count != 1 && b_count != columns) {
    throw unsupported("element-wise: B must have rows*columns, 1 or columns elements");
  }
  const std::size_t z = required_z_multiple(table);
  if (o.check_z_multiple && columns % z != 0) {
    throw unsupported(std::string(name(table)) + " needs the innermost dimension to be a multiple of " +
                      std::to_string(z) + "; it is " + std::to_string(columns));
  }
}

}  // namespace detail

}  // namespace mf::hybrid
