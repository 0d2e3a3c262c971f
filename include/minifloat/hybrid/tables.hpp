// Which (activation, weight) -> output type combinations a unit accepts, as
// data: the tables of an accelerator vendor's "Hybrid FP8 ONNX" notes (the
// default), cuBLASLt's FP8 table, and `any` for research. A policy type names
// a table, so the same MatMul code runs under each.
#pragma once

#include <cstddef>
#include <string>

#include "element_type.hpp"

namespace mf::hybrid {

enum class table_id : unsigned char { vendor_hybrid_fp8, cublaslt_fp8, any };

constexpr std::string_view name(table_id t) noexcept {
  switch (t) {
    case table_id::vendor_hybrid_fp8: return "vendor_hybrid_fp8";
    case table_id::cublaslt_fp8: return "cublaslt_fp8";
    case table_id::any: return "any";
  }
  return "?";
}

struct type_row {
  element_type a;
  element_type b;
  element_type out;
};

namespace detail {
using T = element_type;

// The vendor notes' "Acts/Wts cross data type support (ZM)" table, one row per
// output (BF8 x HF8 -> BF8/HF8 is two rows).
inline constexpr type_row vendor_matmul_rows[] = {
    {T::i8, T::i8, T::i8},      {T::u8, T::u8, T::u8},
    {T::f16, T::f16, T::f16},   {T::f16, T::i8, T::f16},
    {T::f16, T::bf8, T::f16},   {T::f16, T::hf8, T::f16},
    {T::bf8, T::f16, T::f16},   {T::hf8, T::f16, T::f16},
    {T::bf16, T::bf16, T::bf16}, {T::bf16, T::bf8, T::bf16},
    {T::bf16, T::hf8, T::bf16}, {T::bf8, T::bf16, T::bf16},
    {T::hf8, T::bf16, T::bf16}, {T::bf8, T::bf8, T::bf8},
    {T::bf8, T::hf8, T::bf8},   {T::bf8, T::hf8, T::hf8},
    {T::hf8, T::hf8, T::hf8},   {T::hf8, T::bf8, T::hf8},
    {T::hf8, T::bf8, T::bf8}};

// The vendor notes' "Acts/Wts data type support (Elt-wise)" table.
inline constexpr type_row vendor_eltwise_rows[] = {
    {T::i8, T::i8, T::i8},       {T::u8, T::u8, T::u8},
    {T::bf8, T::bf8, T::f16},    {T::bf8, T::bf8, T::bf16},
    {T::bf8, T::hf8, T::f16},    {T::bf8, T::hf8, T::bf16},
    {T::hf8, T::hf8, T::f16},    {T::hf8, T::hf8, T::bf16},
    {T::hf8, T::bf8, T::f16},    {T::hf8, T::bf8, T::bf16},
    {T::f16, T::bf8, T::f16},    {T::f16, T::hf8, T::f16},
    {T::bf8, T::f16, T::f16},    {T::hf8, T::f16, T::f16},
    {T::f16, T::f16, T::f16},    {T::bf16, T::bf8, T::bf16},
    {T::bf16, T::hf8, T::bf16},  {T::bf8, T::bf16, T::bf16},
    {T::hf8, T::bf16, T::bf16},  {T::bf16, T::bf16, T::bf16}};

// cuBLASLt's FP8 matmul (cuBLAS documentation, cublasLtMatmul, FP8 data
// types): A x B in {E4M3 x E4M3, E4M3 x E5M2, E5M2 x E4M3} (no E5M2 x E5M2);
// D is FP32, FP16, BF16 or E4M3, and also E5M2 when an input is E5M2.
inline constexpr type_row cublaslt_matmul_rows[] = {
    {T::hf8, T::hf8, T::f32},  {T::hf8, T::hf8, T::f16},  {T::hf8, T::hf8, T::bf16},
    {T::hf8, T::hf8, T::hf8},  {T::hf8, T::bf8, T::f32},  {T::hf8, T::bf8, T::f16},
    {T::hf8, T::bf8, T::bf16}, {T::hf8, T::bf8, T::hf8},  {T::hf8, T::bf8, T::bf8},
    {T::bf8, T::hf8, T::f32},  {T::bf8, T::hf8, T::f16},  {T::bf8, T::hf8, T::bf16},
    {T::bf8, T::hf8, T::hf8},  {T::bf8, T::hf8, T::bf8}};

template <std::size_t N>
constexpr bool contains(const type_row (&rows)[N], element_type a, element_type b,
                        element_type out) noexcept {
  for (const type_row& r : rows) {
    if (r.a == a && r.b == b && r.out == out) return true;
  }
  return false;
}

// `any`: every float pair with a float output, and the integer pairs with
// their own type (an integer times a float is a float product).
constexpr bool any_accepts(element_type a, element_type b, element_type out) noexcept {
  if (a == T::f32 || b == T::f32) return false;  // f32 is not an input type
  if (is_integer(a) && is_integer(b)) return a == b && out == a;
  return !is_integer(out);
}
}  // namespace detail

// The one lookup: does `table` accept a x b -> out for a MatMul (or an
// element-wise op)?
constexpr bool matmul_supported(table_id table, element_type a, element_type b,
                                element_type out) noexcept {
  switch (table) {
    case table_id::vendor_hybrid_fp8: return detail::contains(detail::vendor_matmul_rows, a, b, out);
    case table_id::cublaslt_fp8: return detail::contains(detail::cublaslt_matmul_rows, a, b, out);
    case table_id::any: return detail::any_accepts(a, b, out);
  }
  return false;
}
constexpr bool eltwise_supported(table_id table, element_type a, element_type b,
                                 element_type out) noexcept {
  switch (table) {
    case table_id::vendor_hybrid_fp8: return detail::contains(detail::vendor_eltwise_rows, a, b, out);
    case table_id::cublaslt_fp8: return false;  // cuBLASLt has no element-wise unit
    case table_id::any: return detail::any_accepts(a, b, out);
  }
  return false;
}

// The vendor notes' "Input Z multiple" column (16 in every row): the unit
// takes a reduction (or, element-wise, innermost) dimension that is a
// multiple of 16.
constexpr std::size_t required_z_multiple(table_id table) noexcept {
  return table == table_id::vendor_hybrid_fp8 ? 16 : 1;
}

// The policy types: a table as a template argument.
struct vendor_hybrid_fp8 { static constexpr table_id id = table_id::vendor_hybrid_fp8; };
struct cublaslt_fp8 { static constexpr table_id id = table_id::cublaslt_fp8; };
struct any { static constexpr table_id id = table_id::any; };

// The message of a rejected combination: "vendor_hybrid_fp8 does not accept
// MatMul BF8 x BF8 -> HF8".
inline std::string rejection(table_id table, std::string_view op, element_type a,
                             element_type b, element_type out) {
  std::string m(name(table));
  m += " does not accept ";
  m += op;
  m += ' ';
  m += name(a);
  m += " x ";
  m += name(b);
  m += " -> ";
  m += name(out);
  return m;
}

}  // namespace mf::hybrid
