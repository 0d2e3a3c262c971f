// The hybrid MatMul reference: C = out(post(acc_k A[i,k] * B[k,j])) for the
// type pairs of a table, under one accumulation model, with the scale rules
// of the post-processing engine. Row-major matrices with leading
// dimensions, as the bulk API: inputs, outputs, sizes, options. Where a
// vectorized kernel computes the request (kernels/fast_path.hpp), matmul
// runs it, with the same bits; options.reference_only keeps the triple loop.
//
//   mf::hybrid::matmul_options o;                  // sequential_fp32, scales 1
//   o.scales.a = 0.5f; o.scales.b = 2.0f;
//   mf::hybrid::matmul(a, K, b, N, c, N, M, N, K, o);   // e4m3fn x e4m3fn -> e4m3fn
#pragma once

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#if __cplusplus >= 202002L && __has_include(<span>)
#include <iterator>
#include <span>
#endif

#include "../encodings.hpp"
#include "../target/float_environment.hpp"
#include "accumulation.hpp"
#include "element_type.hpp"
#include "epilogue.hpp"
#include "exact_epilogue.hpp"
#include "kernels/fast_path.hpp"
#include "kernels/integer_driver.hpp"
#include "matmul_options.hpp"
#include "output.hpp"
#include "requantize.hpp"
#include "tables.hpp"

namespace mf::hybrid {

namespace detail {

// A (m x k, row stride lda) as m rows of k floats, and B (k x n, row stride
// ldb) transposed, n rows of k: the layout matmul_decoded reads.
template <class A, class B, class DecodeA, class DecodeB>
void decode_operands(const A* a, std::size_t lda, const B* b, std::size_t ldb, std::size_t m,
                     std::size_t n, std::size_t k, DecodeA decode_a, DecodeB decode_b,
                     std::vector<float>& a_values, std::vector<float>& b_columns) {
  a_values.resize(m * k);
  b_columns.resize(n * k);
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t p = 0; p < k; ++p) a_values[i * k + p] = decode_a(a[i * lda + p]);
  }
  for (std::size_t p = 0; p < k; ++p) {
    for (std::size_t j = 0; j < n; ++j) b_columns[j * k + p] = decode_b(b[p * ldb + j]);
  }
}

// Where the reference writes output (i, j): element i * ldc + j of c,
// through one function per element type, so that the reference loop below
// is compiled once for every output type and entry, not once per entry and
// type combination.
struct encoding_store {
  void* c;
  std::size_t ldc;
  void (*write)(void* c, std::size_t index, std::uint32_t bits);

  void operator()(std::size_t i, std::size_t j, std::uint32_t bits) const {
    write(c, i * ldc + j, bits);
  }
  // A matrix of the output's value type (from_encoding).
  template <class C>
  static encoding_store values(C* c, std::size_t ldc) {
    return {c, ldc, [](void* base, std::size_t index, std::uint32_t bits) {
              static_cast<C*>(base)[index] = from_encoding<C>(bits);
            }};
  }
  // A matrix of encodings, each the output's low bits of an unsigned T.
  template <class T>
  static encoding_store codes(T* c, std::size_t ldc) {
    static_assert(std::is_unsigned_v<T>, "codes are unsigned integers");
    return {c, ldc, [](void* base, std::size_t index, std::uint32_t bits) {
              static_cast<T*>(base)[index] = static_cast<T>(bits);
            }};
  }
};

// The one implementation behind every entry: operands decoded to float32
// (exact), A as M rows of K, B transposed as N rows of K. `store(i, j, bits)`
// receives each output encoding.
inline void matmul_decoded(table_id table, element_type ta, element_type tb, element_type tc,
                           const std::vector<float>& a, const std::vector<float>& bt,
                           std::size_t m, std::size_t n, std::size_t k, const matmul_options& o,
                           const encoding_store& store) {
  if (is_integer(ta) && is_integer(tb)) {  // I8 x I8 or U8 x U8 (an integer times a float is a float product)
    check_integer_request(table, ta, tb, tc, k, o);
    const requantizer requantize(o.integer_scale, o.requant, tc == element_type::i8);
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        std::uint32_t acc = 0;  // int32, wrapping modulo 2^32 past its range
        for (std::size_t p = 0; p < k; ++p) {
          acc += static_cast<std::uint32_t>(static_cast<std::int32_t>(a[i * k + p]) *
                                            static_cast<std::int32_t>(bt[j * k + p]));
        }
        const auto acc32 = static_cast<std::int32_t>(acc);
        if (o.integer_accumulator) o.integer_accumulator[i * n + j] = acc32;
        store(i, j, requantize(acc32));
      }
    }
    return;
  }
  check_float_request(table, ta, tb, tc, k, o);
  // The float models' roundings are IEEE 754's defaults, whatever the
  // caller's environment holds (the integer rule above follows it).
  target::in_default_float_environment([&] {
    const scale_options& s = o.scales;
    const bool operands = s.where == placement::operands;
    const operand_kinds kinds{fp16_instruction_for(ta, tb),
                              operands ? sum_layout_for(element_type::f32, element_type::f32, k)
                                       : sum_layout_for(ta, tb, k)};
    std::vector<float> a_row(k), b_column(k);
    amax_tracker amax;
    for (std::size_t i = 0; i < m; ++i) {
      const float sa = s.a_rows ? s.a_rows[i] : s.a;
      for (std::size_t j = 0; j < n; ++j) {
        const float sb = s.b_columns ? s.b_columns[j] : s.b;
        const float* x = a.data() + i * k;  // not &a[i * k]: K = 0 leaves a empty
        const float* y = bt.data() + j * k;
        if (operands) {
          for (std::size_t p = 0; p < k; ++p) {
            a_row[p] = x[p] * sa;  // a' = RN32(a * sa)
            b_column[p] = y[p] * sb;
          }
          x = a_row.data();
          y = b_column.data();
        }
        const float acc = accumulate_in_default_environment(o.model, x, y, k, kinds);
        if (o.accumulator) o.accumulator[i * n + j] = acc;
        double value;
        if (o.model.kind == model_kind::exact && o.model.exact_to_output) {
          value = exact_output_value(exact_sum(x, y, k, kinds.layout), acc, s, operands, i, j, amax);
        } else {
          float y3 = 0.0f;
          apply_epilogue(s, &acc, i, j, 1, &y3, amax);
          if (o.model.nans == nan_payload::propagate) keep_accumulator_nans(&acc, 1, &y3);
          value = static_cast<double>(y3);
        }
        store(i, j, encode_output(tc, value, o.output, o.output.offset + i * n + j));
      }
    }
    if (o.amax) *o.amax = amax.value();
  });
}

}  // namespace detail

// The reference MatMul over the library's value types (std::int8_t and
// std::uint8_t for I8 and U8; C may be float for a float32 output where the
// table has one). The table is checked at compile time.
template <class Table = vendor_hybrid_fp8, class A, class B, class C>
void matmul(const A* a, std::size_t lda, const B* b, std::size_t ldb, C* c, std::size_t ldc,
            std::size_t m, std::size_t n, std::size_t k, const matmul_options& options = {}) {
  static_assert(matmul_supported(Table::id, element_id_v<A>, element_id_v<B>, element_id_v<C>),
                "this table does not accept the MatMul type combination (see "
                "mf::hybrid::matmul_supported and docs/hybrid.md)");
  detail::check_matrices(a, lda, b, ldb, c, ldc, m, n, k);
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B> && std::is_integral_v<C>) {
    if (kernels::try_integer_matmul(Table::id, element_id_v<A>, element_id_v<B>, element_id_v<C>,
                                    {a, lda, &kernels::detail::read_low_bytes<A>},
                                    {b, ldb, &kernels::detail::read_low_bytes<B>},
                                    {c, ldc, &kernels::detail::write_bytes<C>}, m, n, k, options)) {
      return;
    }
  }
  if (kernels::try_fast_matmul(Table::id, element_id_v<A>, element_id_v<B>, element_id_v<C>,
                               {a, lda, kernels::detail::value_decoder<A>(), &kernels::detail::value_keeping_nan<A>},
                               {b, ldb, kernels::detail::value_decoder<B>(), &kernels::detail::value_keeping_nan<B>},
                               {c, ldc, kernels::detail::value_encoder<C>(),
                                detail::encoding_store::values(c, ldc).write, element_id_v<C>},
                               m, n, k, options)) {
    return;
  }
  std::vector<float> a_values, b_columns;
  const bool keep_nan_payloads = options.model.nans == nan_payload::propagate;
  const auto read = [keep_nan_payloads](auto v) {
    using T = decltype(v);
    return keep_nan_payloads ? decode_keeping_nan_payload(element_id_v<T>, to_encoding(v)) : to_float(v);
  };
  detail::decode_operands(a, lda, b, ldb, m, n, k, read, read, a_values, b_columns);
  detail::matmul_decoded(Table::id, element_id_v<A>, element_id_v<B>, element_id_v<C>, a_values,
                         b_columns, m, n, k, options, detail::encoding_store::values(c, ldc));
}

#if __cplusplus >= 202002L && __has_include(<span>)
// Range form (C++20): each matrix a contiguous range of its element type
// (std::span, std::vector, std::array) that holds what its shape and
// leading dimension reach, (rows - 1) * ld + columns elements (a debug
// assertion; in release builds a call whose ranges do not fit does nothing,
// as the other span forms of the library).
template <class Table = vendor_hybrid_fp8, class RangeA, class RangeB, class RangeC,
          class A = mf::detail::contiguous_element_t<const RangeA>,
          class B = mf::detail::contiguous_element_t<const RangeB>,
          class C = mf::detail::contiguous_element_t<RangeC>>
void matmul(const RangeA& a, std::size_t lda, const RangeB& b, std::size_t ldb, RangeC&& c,
            std::size_t ldc, std::size_t m, std::size_t n, std::size_t k,
            const matmul_options& options = {}) {
  const std::span<const A> as(std::data(a), std::size(a));
  const std::span<const B> bs(std::data(b), std::size(b));
  const std::span<C> cs(std::data(c), std::size(c));  // C: a range of non-const elements
  const auto reach = [](std::size_t rows, std::size_t columns, std::size_t ld) {
    return rows == 0 || columns == 0 ? std::size_t{0} : (rows - 1) * ld + columns;
  };
  const bool fit = as.size() >= reach(m, k, lda) && bs.size() >= reach(k, n, ldb) &&
                   cs.size() >= reach(m, n, ldc);
  assert(fit);
  if (fit) matmul<Table>(as.data(), lda, bs.data(), ldb, cs.data(), ldc, m, n, k, options);
}
#endif

// The same over encodings chosen at run time (the command-line tool, the C
// ABI): each element is the low storage_bits(type) bits of a uint32. Throws
// mf::hybrid::unsupported for a combination the table rejects.
inline void matmul(table_id table, element_type ta, element_type tb, element_type tc,
                   const std::uint32_t* a, std::size_t lda, const std::uint32_t* b, std::size_t ldb,
                   std::uint32_t* c, std::size_t ldc, std::size_t m, std::size_t n, std::size_t k,
                   const matmul_options& options = {}) {
  if (ta == element_type::f32 || tb == element_type::f32) {
    throw unsupported("FP32 is not an input type of the hybrid MatMul");
  }
  detail::check_matrices(a, lda, b, ldb, c, ldc, m, n, k);
  if (kernels::try_integer_matmul(table, ta, tb, tc,
                                  {a, lda, &kernels::detail::read_low_bytes<std::uint32_t>},
                                  {b, ldb, &kernels::detail::read_low_bytes<std::uint32_t>},
                                  {c, ldc, &kernels::detail::write_bytes<std::uint32_t>}, m, n,
                                  k, options)) {
    return;
  }
  using kernels::detail::code_element_keeping_nan;
  if (kernels::try_fast_matmul(table, ta, tb, tc,
                               {a, lda, kernels::detail::code_decoder(ta), code_element_keeping_nan(ta)},
                               {b, ldb, kernels::detail::code_decoder(tb), code_element_keeping_nan(tb)},
                               {c, ldc, kernels::detail::code_encoder(tc),
                                detail::encoding_store::codes(c, ldc).write, tc},
                               m, n, k, options)) {
    return;
  }
  std::vector<float> a_values, b_columns;
  const auto decode = options.model.nans == nan_payload::propagate ? &decode_keeping_nan_payload : &decode_bits;
  detail::decode_operands(a, lda, b, ldb, m, n, k, [ta, decode](std::uint32_t v) { return decode(ta, v); },
                          [tb, decode](std::uint32_t v) { return decode(tb, v); }, a_values, b_columns);
  detail::matmul_decoded(table, ta, tb, tc, a_values, b_columns, m, n, k, options,
                         detail::encoding_store::codes(c, ldc));
}

}  // namespace mf::hybrid
