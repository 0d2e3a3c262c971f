// The options of the hybrid MatMul and the checks of a request against
// them, shared by the reference (matmul.hpp) and the fast kernels
// (kernels/fast_path.hpp), so both reject the same requests with the same
// messages.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "accumulation.hpp"
#include "element_type.hpp"
#include "output.hpp"
#include "tables.hpp"

namespace mf::hybrid {

// How an int32 accumulator becomes int8/uint8: round-half-even(acc * scale),
// saturated. exact computes acc * scale exactly; fp32 is the usual CPU
// sequence RN32(RN32(float(acc)) * scale), which differs when |acc| > 2^24
// and at ties.
enum class requantization : unsigned char { exact, fp32 };

struct matmul_options {
  accumulation_model model = models::sequential_fp32();
  scale_options scales;
  output_conversion output;
  // The vendor table's "Input Z multiple 16": K must be a multiple of 16.
  // Off, the reference computes any K (the unit itself would not).
  bool check_z_multiple = true;
  // If set, receives max |y2| over the output (after the bias, before the
  // output scale); NaN if any y2 is NaN.
  float* amax = nullptr;
  // If set, receives each output element's accumulator, M x N row-major
  // (row stride N), before any post-processing: a float MatMul's float32
  // acc as the model returns it (`exact`: the exact sum rounded once to
  // float32, also under exact_to_output, whose C is computed from the exact
  // sum itself; placement::operands: the sum of the scaled operands).
  // Requesting it makes matmul run the reference loop (the fast kernels keep
  // acc in registers), with the same bits of C.
  float* accumulator = nullptr;
  // If set, an integer MatMul's int32 accumulators (the sums of the
  // products, wrapping modulo 2^32), M x N row-major, before requantization.
  std::int32_t* integer_accumulator = nullptr;
  // Integer MatMul: the one float32 requantization scale, and its rule.
  float integer_scale = 1.0f;
  requantization requant = requantization::exact;
  // Threads for the fast kernels (kernels/driver.hpp): C is split into
  // blocks, each computed exactly as with one thread, so the bits do not
  // depend on this. 0 counts as 1. The reference path is single-threaded.
  unsigned threads = 1;
  // Skip the fast kernels and run the reference triple loop (for tests and
  // benchmarks; both give the same bits).
  bool reference_only = false;
};

namespace detail {

inline void check_model(const accumulation_model& m, element_type a, element_type b,
                        placement where) {
  const bool pairs = m.kind == model_kind::avx512_bf16_pairs || m.kind == model_kind::amx_tile_pairs;
  if (pairs && where == placement::operands) {
    throw unsupported("the 16-bit dot-product models take the 16-bit inputs; they cannot run on "
                      "float32 operands (placement operands)");
  }
  if (m.kind == model_kind::avx512_bf16_pairs &&
      (a == element_type::f16 || b == element_type::f16)) {
    throw unsupported("avx512_bf16_pairs needs BF16-exact operands; FP16 is not");
  }
  if (m.kind == model_kind::amx_tile_pairs &&
      ((a == element_type::bf16 && b == element_type::f16) ||
       (a == element_type::f16 && b == element_type::bf16))) {
    throw unsupported("amx_tile_pairs: BF16 x FP16 has no instruction (TDPBF16PS or TDPFP16PS)");
  }
  if (m.nans == nan_payload::propagate && !pairs) {
    throw unsupported("nan_payload propagate is the NaN rule of the instructions that avx512_bf16_pairs "
                      "and amx_tile_pairs model; other models return the canonical NaN");
  }
  if (m.exact_to_output && m.kind != model_kind::exact) {
    throw unsupported("exact_to_output is the exact model's option (models::exact(true))");
  }
  if (m.kind == model_kind::amx_tile_pairs && (m.chunk < 2 || m.chunk % 2 != 0)) {
    throw unsupported("amx_tile_pairs: chunk must be even and >= 2");
  }
  if (m.kind == model_kind::chunked_exact && m.chunk < 1) {
    throw unsupported("chunked_exact: chunk must be >= 1");
  }
  if (m.kind == model_kind::reduced_precision &&
      (m.bits < 1 || m.bits > 53 || m.promote_every < 1 || m.block < 1)) {
    throw unsupported("reduced_precision: bits must be 1..53, promote_every and block >= 1");
  }
}

// The checks every request passes before any arithmetic: the table accepts
// the type combination, and K is a multiple of the table's Z multiple.
inline void check_request(table_id table, element_type ta, element_type tb, element_type tc,
                          std::size_t k, const matmul_options& o) {
  if (!matmul_supported(table, ta, tb, tc)) {
    throw unsupported(rejection(table, "MatMul", ta, tb, tc));
  }
  check_output_conversion(tc, o.output);
  const std::size_t z = required_z_multiple(table);
  if (o.check_z_multiple && k % z != 0) {
    throw unsupported(std::string(name(table)) + " needs K to be a multiple of " +
                      std::to_string(z) + " (\"Input Z multiple 16\"); K is " +
                      std::to_string(k));
  }
}

// The checks of a float MatMul: the request's, the model's, and none of the
// integer MatMul's options, which it would ignore.
inline void check_float_request(table_id table, element_type ta, element_type tb,
                                element_type tc, std::size_t k, const matmul_options& o) {
  check_request(table, ta, tb, tc, k, o);
  check_model(o.model, ta, tb, o.scales.where);
  if (!(o.integer_scale == 1.0f) || o.requant != requantization::exact ||
      o.integer_accumulator != nullptr) {
    throw unsupported("float MatMul: integer_scale, requant and integer_accumulator are the integer "
                      "MatMul's (I8 x I8, U8 x U8); the float MatMul's scales are `scales`");
  }
}

// A matrix argument of `rows` x `columns` elements at row stride `ld`, as
// BLAS checks one: with elements it is not null; with more than one row its
// rows do not overlap (ld >= columns); and the last element it reaches,
// (rows - 1) * ld + columns, is within size_t. Throws std::invalid_argument
// (of which `unsupported` is the table's and the model's kind).
inline void check_matrix(const char* operation, const char* which, const void* p,
                         std::size_t rows, std::size_t columns, std::size_t ld) {
  if (rows == 0 || columns == 0) return;
  const std::string matrix = std::string(operation) + ": " + which;
  if (p == nullptr) throw std::invalid_argument(matrix + " is null and has elements");
  if (rows == 1) return;
  if (ld < columns) {
    throw std::invalid_argument(matrix + "'s leading dimension " + std::to_string(ld) +
                                " is below its row length " + std::to_string(columns));
  }
  if (rows - 1 > (SIZE_MAX - columns) / ld) {
    throw std::invalid_argument(matrix + " reaches past the range of size_t");
  }
}

inline void check_matrices(const void* a, std::size_t lda, const void* b, std::size_t ldb,
                           const void* c, std::size_t ldc, std::size_t m, std::size_t n,
                           std::size_t k) {
  check_matrix("MatMul", "A", a, m, k, lda);
  check_matrix("MatMul", "B", b, k, n, ldb);
  check_matrix("MatMul", "C", c, m, n, ldc);
}

// The checks of an integer MatMul (I8 x I8, U8 x U8): the request's, then
// the model's parameters, which an integer sum does not use but which must
// still be ones some request could take (an odd AMX chunk, nan_payload
// propagate under sequential_fp32 are mistakes whatever the types), then
// the scales: its one scale is a finite integer_scale, and a float
// MatMul's scales or bias would be ignored, so they are rejected (as a
// stochastic output is, check_output_conversion).
inline void check_integer_request(table_id table, element_type ta, element_type tb,
                                  element_type tc, std::size_t k, const matmul_options& o) {
  check_request(table, ta, tb, tc, k, o);
  check_model(o.model, ta, tb, o.scales.where);
  if (!std::isfinite(o.integer_scale)) throw unsupported("integer MatMul: the scale must be finite");
  const scale_options& s = o.scales;
  if (!(s.a == 1.0f) || !(s.b == 1.0f) || !(s.output == 1.0f) || s.a_rows != nullptr ||
      s.b_columns != nullptr || s.bias != nullptr) {
    throw unsupported("integer MatMul: its one scale is integer_scale; the float MatMul's scales, "
                      "bias and output scale do not apply");
  }
  if (o.accumulator != nullptr) {
    throw unsupported("integer MatMul: its accumulators are int32, asked for by integer_accumulator "
                      "(accumulator is the float MatMul's)");
  }
}

}  // namespace detail
}  // namespace mf::hybrid
