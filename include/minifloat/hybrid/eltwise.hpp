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

#include "../target/float_environment.hpp"
#include "element_type.hpp"
#include "eltwise_options.hpp"
#include "kernels/eltwise_path.hpp"
#include "output.hpp"
#include "tables.hpp"
#include "wide_sum.hpp"

namespace mf::hybrid {

namespace detail {

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
    const auto dequantized = [&](float x, float scale) {
      return round_to_16bit(o.scale_type, static_cast<double>(x) * static_cast<double>(scale));
    };
    if (is_fp8(ta)) a = dequantized(a, sa);
    if (is_fp8(tb)) b = dequantized(b, sb);
    sa = sb = 1.0f;
  }
  if (o.op == eltwise_op::mul) {
    // At most 30 significant bits: exact in double.
    const double exact = static_cast<double>(a) * static_cast<double>(b) *
                         static_cast<double>(sa) * static_cast<double>(sb);
    if (o.exact) return exact;
    return static_cast<double>((a * b) * (sa * sb));  // RN32(RN32(a*b) * RN32(sa*sb))
  }
  // a*sa and b*sb are exact in double; their sum is rounded once.
  wide_sum sum;
  sum.add(static_cast<double>(a) * static_cast<double>(sa));
  const double b_sign = o.op == eltwise_op::sub ? -1.0 : 1.0;
  sum.add(b_sign * static_cast<double>(b) * static_cast<double>(sb));
  if (o.exact) return sum.round_to_odd();
  return static_cast<double>(round_to_fp32(sum, fp32_rounding::nearest_even));
}

}  // namespace detail

// C[i, j] = out(A[i, j] op B[...]) over encodings (low storage_bits bits of
// each uint32), A of rows x columns, B of b_count = rows * columns, 1 or
// columns elements. Throws unsupported for a rejected combination.
inline void eltwise(table_id table, element_type ta, element_type tb, element_type tc,
                    const std::uint32_t* a, const std::uint32_t* b, std::size_t b_count,
                    std::uint32_t* c, std::size_t rows, std::size_t columns,
                    const eltwise_options& o = {}) {
  detail::check_eltwise_request(table, ta, tb, tc, b_count, rows, columns, o);
  detail::check_eltwise_arrays(a, b, b_count, c, rows, columns);
  // IEEE 754's default environment, whatever the caller's holds.
  target::in_default_float_environment([&] {
    if (kernels::try_fast_eltwise(ta, tb, tc, {a, 0, kernels::detail::code_decoder(ta)},
                                  {b, 0, kernels::detail::code_decoder(tb)}, b_count,
                                  {c, 0, kernels::detail::code_encoder(tc), nullptr, tc}, rows, columns, o)) {
      return;
    }
    const auto b_index = [&](std::size_t i, std::size_t j) {
      return b_count == rows * columns ? i * columns + j : (b_count == 1 ? 0 : j);
    };
    if (is_integer(ta) && is_integer(tb)) {  // one integer operand beside a float: the float rule below
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
  });
}

// The same over the library's value types, the table checked at compile time.
template <class Table = vendor_hybrid_fp8, class A, class B, class C>
void eltwise(const A* a, const B* b, std::size_t b_count, C* c, std::size_t rows,
             std::size_t columns, const eltwise_options& o = {}) {
  static_assert(eltwise_supported(Table::id, element_id_v<A>, element_id_v<B>, element_id_v<C>),
                "this table does not accept the element-wise type combination");
  detail::check_eltwise_request(Table::id, element_id_v<A>, element_id_v<B>, element_id_v<C>,
                                b_count, rows, columns, o);
  detail::check_eltwise_arrays(a, b, b_count, c, rows, columns);
  target::in_default_float_environment([&] {
    if (kernels::try_fast_eltwise(element_id_v<A>, element_id_v<B>, element_id_v<C>,
                                  {a, 0, kernels::detail::value_decoder<A>()},
                                  {b, 0, kernels::detail::value_decoder<B>()}, b_count,
                                  {c, 0, kernels::detail::value_encoder<C>(), nullptr, element_id_v<C>}, rows,
                                  columns, o)) {
      return;
    }
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
  });
}

}  // namespace mf::hybrid
