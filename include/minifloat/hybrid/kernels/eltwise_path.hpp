// The element-wise operations on the bulk decoders and encoders: the
// operands decoded to float32 a run at a time (mf::bulk::decode), the
// arithmetic on the active ISA's vectors (generic/eltwise_span.hpp), the
// results rounded into the output type by the bulk encoders (the bits of
// round_to, which the reference's encode_output calls).
//
// Fast: add, sub and mul of float operands with the scales in the epilogue
// (placement::epilogue), rounded through float32 (exact = false), with a
// nearest-even output, saturating or not, for every B shape. add and sub
// also need each scaled operand a * sa exact in float32 (scaled_exactly);
// the reference computes it in double otherwise. Everything else (integer
// operands, exact, placement::operands, stochastic output) returns false
// and runs on the reference.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "../accumulation.hpp"
#include "../eltwise_options.hpp"
#include "fast_path.hpp"

namespace mf::hybrid::kernels {

namespace detail {

// Elements per run through the decoders, the arithmetic and the encoder:
// three 4 KiB float buffers, in L1 beside the codes.
inline constexpr std::size_t eltwise_run = 1024;

// Whether x * s is exact in float32 for every finite x of type t: no
// overflow (largest * |s| <= FLT_MAX) and no bit below float32's smallest
// subnormal (the products are multiples of t's unit times s's last bit, at
// least 2^-149). Their significands fit: at most 11 + 11 bits. A zero,
// infinite or NaN scale makes every product exact (or the NaN the
// reference's double arithmetic makes too). The second condition is a
// guard: the scales the rules accept (FP16, or BF16 down to 2^-133) times
// the FP8 units (E4M3 2^-9, E5M2 2^-16) never go below 2^-149, so the
// range is what sends a request to the reference.
inline bool scaled_exactly(element_type t, float s) noexcept {
  if (s == 0 || !std::isfinite(s)) return true;
  const hybrid::detail::value_range r = hybrid::detail::range_of(t);
  int exponent = 0;
  auto significand = static_cast<std::uint64_t>(std::ldexp(std::frexp(std::fabs(s), &exponent), 53));
  int last_bit = exponent - 53;
  while ((significand & 1u) == 0) {
    significand >>= 1;
    ++last_bit;
  }
  return r.largest * std::fabs(static_cast<double>(s)) <= static_cast<double>(std::numeric_limits<float>::max()) &&
         r.unit + last_bit >= -149;
}

}  // namespace detail

// Whether the fast path computes this request. Throws what the reference
// throws for scales the rules reject.
inline bool has_fast_eltwise(element_type ta, element_type tb, element_type tc,
                             const eltwise_options& o) {
  if (o.reference_only || is_integer(ta) || is_integer(tb) || is_integer(tc) || o.exact ||
      o.where != placement::epilogue || o.output.stochastic) {
    return false;
  }
  float sa = 1.0f, sb = 1.0f;
  hybrid::detail::eltwise_scales(ta, tb, o, sa, sb);
  return o.op == eltwise_op::mul || (detail::scaled_exactly(ta, sa) && detail::scaled_exactly(tb, sb));
}

// Runs the request on the fast path and returns true, or returns false
// (nothing done) when the reference must compute it. The caller has
// checked the request (detail::check_eltwise_request).
inline bool try_fast_eltwise(element_type ta, element_type tb, element_type tc,
                             const operand_reader& a, const operand_reader& b, std::size_t b_count,
                             const result_writer& c, std::size_t rows, std::size_t columns,
                             const eltwise_options& o) {
  if (a.decode == nullptr || b.decode == nullptr || c.encode == nullptr ||
      !has_fast_eltwise(ta, tb, tc, o)) {
    return false;
  }
  float sa = 1.0f, sb = 1.0f;
  hybrid::detail::eltwise_scales(ta, tb, o, sa, sb);
  const auto span = detail::target_for(target::active_isa()).eltwise;
  const float first_scale = o.op == eltwise_op::mul ? sa * sb : sa;  // RN32(sa * sb)
  const float second_scale = o.op == eltwise_op::sub ? -sb : sb;
  const std::size_t total = rows * columns;
  std::vector<float> x(detail::eltwise_run), y(detail::eltwise_run), out(detail::eltwise_run);
  // B as one value, or one row of `columns` values, decoded once.
  std::vector<float> b_values;
  if (b_count != total) {
    b_values.resize(b_count);
    b.decode(b.base, 0, b_count, b_values.data());
  }
  // Runs never cross a row when B is one value per column.
  const std::size_t row_length = b_count == total || b_count == 1 ? total : columns;
  for (std::size_t row = 0; row < total; row += row_length) {
    for (std::size_t first = 0; first < row_length; first += detail::eltwise_run) {
      const std::size_t n = std::min(detail::eltwise_run, row_length - first);
      const std::size_t offset = row + first;
      a.decode(a.base, offset, n, x.data());
      const float* b_run = nullptr;
      std::size_t b_step = 1;
      if (b_count == total) {
        b.decode(b.base, offset, n, y.data());
        b_run = y.data();
      } else if (b_count == 1) {
        b_run = b_values.data();
        b_step = 0;
      } else {
        b_run = b_values.data() + first;
      }
      span(o.op, x.data(), b_run, b_step, first_scale, second_scale, n, out.data());
      c.encode(out.data(), n, c.base, offset, o.output);
    }
  }
  return true;
}

}  // namespace mf::hybrid::kernels
