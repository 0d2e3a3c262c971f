// nan_payload::propagate on the fast kernels (driver.hpp): the NaN the
// instruction writes for an element whose accumulator a kernel found NaN.
// The kernels' packing drops NaN payloads and their FMAs pick a NaN by
// x86's rules, not the modelled instruction's, so the element's NaN is
// computed again by the reference's model (accumulation.hpp) from the
// operands read with their payloads, on the products that decide it:
//
// - avx512_bf16_pairs, and amx_tile_pairs in the guide order: a step with a
//   NaN operand returns one of its operands, and a later step without one
//   returns its accumulator's NaN unchanged (each step's first NaN operand,
//   the accumulator last). The NaN is therefore that of the last step with
//   a NaN operand, which the model gives on that step's pair alone.
// - amx_tile_pairs in the SDM order: dst + t takes C's NaN before t's, so
//   the first instruction whose dst is NaN decides, and an instruction with
//   a NaN operand makes its t, and dst, NaN: the model on the chunks up to
//   the first one that holds a NaN operand. Where no earlier instruction
//   can make a NaN, that chunk alone: with no Inf operand and
//   K max|a| max|b| <= 2^126, K <= 2^23, every partial sum stays below
//   2^126 (1 + 2^-24)^K < 2^127, so nothing reaches Inf, and without Inf
//   and NaN no operation is invalid; each instruction's chains start from
//   +0, so the chunk's t is the same alone, and 0 + t is t's NaN.
// - Without NaN operands every NaN is an invalid operation's, which the
//   model on all of K gives.
//
// An element's operands are read from its row of A (once per row) and its
// column of B (once per column): the first and the last index k where
// either holds a NaN, whether either holds an Inf, and their largest
// finite magnitudes.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "../accumulation.hpp"

namespace mf::hybrid::kernels::detail {

class instruction_nans {
 public:
  // Element `index` of a matrix as the instruction reads it, a NaN with its
  // payload (decode_keeping_nan_payload).
  using element_function = float (*)(const void* base, std::size_t index);
  struct matrix {
    const void* base;
    std::size_t ld;
    element_function element;
  };

  instruction_nans(const accumulation_model& model, bool fp16_instruction, matrix a, matrix b,
                   std::size_t n, std::size_t k)
      : model_(model), kinds_{fp16_instruction, {}}, a_(a), b_(b), k_(k), columns_(n) {}

  // The accumulator of element (row, column), whose model value is NaN.
  float element(std::size_t row, std::size_t column) {
    if (row != row_) {
      row_ = row;
      row_nans_ = nans_in(a_, row * a_.ld, 1);
    }
    span& c = columns_[column];
    if (!c.read) c = nans_in(b_, column, b_.ld);
    std::size_t begin = 0, end = k_;
    accumulation_model model = model_;
    if (row_nans_.any || c.any) {
      const std::size_t first = std::min(row_nans_.any ? row_nans_.first : k_, c.any ? c.first : k_);
      const std::size_t last = std::max(row_nans_.any ? row_nans_.last : 0, c.any ? c.last : 0);
      if (model.kind == model_kind::amx_tile_pairs && model.order == amx_order::sdm) {
        const auto chunk = static_cast<std::size_t>(model.chunk);
        end = std::min(k_, (first / chunk + 1) * chunk);
        const bool no_inf = !row_nans_.inf && !c.inf && k_ <= (std::size_t{1} << 23) &&
                            static_cast<double>(k_) * row_nans_.largest * c.largest <= 0x1p126;
        if (no_inf) begin = first / chunk * chunk;
      } else {
        begin = last & ~std::size_t{1};  // the pair (even k, odd k) that holds it
        end = std::min(k_, begin + 2);
        model.chunk = 2;  // the guide order's one chain: its chunks do not matter
      }
    }
    a_values_.resize(end - begin);
    b_values_.resize(end - begin);
    for (std::size_t q = begin; q < end; ++q) {
      a_values_[q - begin] = a_.element(a_.base, row * a_.ld + q);
      b_values_[q - begin] = b_.element(b_.base, q * b_.ld + column);
    }
    return hybrid::detail::accumulate_in_default_environment(model, a_values_.data(), b_values_.data(),
                                                             end - begin, kinds_);
  }

 private:
  // A row of A or a column of B: the first and last index k of a NaN
  // (where `any`), whether it holds an Inf, its largest finite magnitude.
  struct span {
    bool read = false;
    bool any = false;
    std::size_t first = 0, last = 0;
    bool inf = false;
    double largest = 0.0;
  };

  span nans_in(const matrix& x, std::size_t offset, std::size_t stride) const {
    span s;
    s.read = true;
    for (std::size_t q = 0; q < k_; ++q) {
      const float v = x.element(x.base, offset + q * stride);
      if (std::isinf(v)) s.inf = true;
      if (!std::isnan(v)) {
        if (!std::isinf(v)) s.largest = std::max(s.largest, static_cast<double>(std::fabs(v)));
        continue;
      }
      if (!s.any) s.first = q;
      s.any = true;
      s.last = q;
    }
    return s;
  }

  accumulation_model model_;
  operand_kinds kinds_;
  matrix a_, b_;
  std::size_t k_;
  std::size_t row_ = static_cast<std::size_t>(-1);
  span row_nans_;
  std::vector<span> columns_;
  std::vector<float> a_values_, b_values_;
};

}  // namespace mf::hybrid::kernels::detail
