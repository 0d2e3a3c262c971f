// Element-wise add, sub and mul of the hybrid unit, with the scale rules of
// the vendor's "Hybrid FP8 ONNX" notes ("Rules for Eltwise Add/Sub"): FP8
// tensors carry a scale in a 16-bit format (FP16 or BF16), the same for both
// FP8 operands, or the format of the 16-bit operand; a 16-bit tensor carries
// none. Shapes: B is the same shape as A, a scalar, or one value per column
// (the innermost dimension), broadcast over the rows.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "element_type.hpp"
#include "output.hpp"
#include "tables.hpp"
#include "wide_sum.hpp"

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

inline long long eltwise_integer(eltwise_op op, long long x, long long y, long long lo,
                                 long long hi) {
  const long long r = op == eltwise_op::add ? x + y : (op == eltwise_op::sub ? x - y : x * y);
  return r < lo ? lo : (r > hi ? hi : r);
}

// One output element from the decoded operands.
inline double eltwise_value(const eltwise_options& o, element_type ta, element_type tb,
                            float a, float b, float sa, float sb) {
  if (o.where == placement::operands) {
    // Dequantize FP8 operands to the 16-bit scale format; then unscaled.
    if (is_fp8(ta)) a = round_to_16bit(o.scale_type, static_cast<double>(a) * sa);
    if (is_fp8(tb)) b = round_to_16bit(o.scale_type, static_cast<double>(b) * sb);
    sa = sb = 1.0f;
  }
  if (o.op == eltwise_op::mul) {
    const double exact = static_cast<double>(a) * b * sa * sb;  // <= 30 bits: exact in double
    if (o.exact) return exact;
    return static_cast<double>((a * b) * (sa * sb));  // RN32(RN32(a*b) * RN32(sa*sb))
  }
  // a*sa and b*sb are exact in double; their sum is rounded once.
  wide_sum sum;
  sum.add(static_cast<double>(a) * sa);
  sum.add((o.op == eltwise_op::sub ? -1.0 : 1.0) * static_cast<double>(b) * sb);
  if (o.exact) return sum.round_to_odd();
  return round_to_fp32(sum, fp32_rounding::nearest_even);
}

}  // namespace detail

// C[i, j] = out(A[i, j] op B[...]) over encodings (low storage_bits bits of
// each uint32), A of rows x columns, B of b_count = rows * columns, 1 or
// columns elements. Throws unsupported for a rejected combination.
inline void eltwise(table_id table, element_type ta, element_type tb, element_type tc,
                    const std::uint32_t* a, const std::uint32_t* b, std::size_t b_count,
                    std::uint32_t* c, std::size_t rows, std::size_t columns,
                    const eltwise_options& o = {}) {
  if (!eltwise_supported(table, ta, tb, tc)) {
    throw unsupported(rejection(table, "element-wise", ta, tb, tc));
  }
  if (b_count != rows * columns && b_count != 1 && b_count != columns) {
    throw unsupported("element-wise: B must have rows*columns, 1 or columns elements");
  }
  const std::size_t z = required_z_multiple(table);
  if (o.check_z_multiple && columns % z != 0) {
    throw unsupported(std::string(name(table)) + " needs the innermost dimension to be a multiple of " +
                      std::to_string(z) + "; it is " + std::to_string(columns));
  }
  const auto b_index = [&](std::size_t i, std::size_t j) {
    return b_count == rows * columns ? i * columns + j : (b_count == 1 ? 0 : j);
  };
  if (is_integer(ta)) {
    if (o.a_scale.given || o.b_scale.given) throw unsupported("element-wise: integer tensors take no scale");
    const long long lo = tc == element_type::i8 ? -128 : 0;
    const long long hi = tc == element_type::i8 ? 127 : 255;
    for (std::size_t i = 0; i < rows; ++i) {
      for (std::size_t j = 0; j < columns; ++j) {
        const auto x = static_cast<long long>(decode_bits(ta, a[i * columns + j]));
        const auto y = static_cast<long long>(decode_bits(tb, b[b_index(i, j)]));
        c[i * columns + j] = static_cast<std::uint32_t>(detail::eltwise_integer(o.op, x, y, lo, hi)) & 0xFFu;
      }
    }
    return;
  }
  float sa = 1.0f;
  float sb = 1.0f;
  detail::eltwise_scales(ta, tb, o, sa, sb);
  for (std::size_t i = 0; i < rows; ++i) {
    for (std::size_t j = 0; j < columns; ++j) {
      const double v = detail::eltwise_value(o, ta, tb, decode_bits(ta, a[i * columns + j]),
                                             decode_bits(tb, b[b_index(i, j)]), sa, sb);
      c[i * columns + j] = detail::encode_output(tc, v, o.output, o.output.offset + i * columns + j);
    }
  }
}

// The same over the library's value types, the table checked at compile time.
template <class Table = vendor_hybrid_fp8, class A, class B, class C>
void eltwise(const A* a, const B* b, std::size_t b_count, C* c, std::size_t rows,
             std::size_t columns, const eltwise_options& o = {}) {
  static_assert(eltwise_supported(Table::id, element_id_v<A>, element_id_v<B>, element_id_v<C>),
                "this table does not accept the element-wise type combination");
  std::vector<std::uint32_t> ea(rows * columns), eb(b_count), ec(rows * columns);
  const auto encode = [](auto v) -> std::uint32_t {
    if constexpr (std::is_integral_v<decltype(v)>) {
      return static_cast<std::uint32_t>(static_cast<std::uint8_t>(v));
    } else {
      return v.bits();
    }
  };
  for (std::size_t i = 0; i < ea.size(); ++i) ea[i] = encode(a[i]);
  for (std::size_t i = 0; i < eb.size(); ++i) eb[i] = encode(b[i]);
  eltwise(Table::id, element_id_v<A>, element_id_v<B>, element_id_v<C>, ea.data(), eb.data(),
          b_count, ec.data(), rows, columns, o);
  for (std::size_t i = 0; i < ec.size(); ++i) c[i] = from_encoding<C>(ec[i]);
}

}  // namespace mf::hybrid
