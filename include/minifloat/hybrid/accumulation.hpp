// The accumulation models: how one output element's sum of K products is
// formed in float32. Each model is a documented algorithm (docs/hybrid.md)
// and gives exactly one answer; the operands arrive decoded to float32
// (exact for every input type).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <limits>

#include "../limits.hpp"
#include "../target/float_environment.hpp"
#include "element_type.hpp"
#include "fp32_rounding.hpp"
#include "wide_sum.hpp"

namespace mf::hybrid {

enum class model_kind : unsigned char {
  sequential_fp32,    // acc = fma(a_k, b_k, acc), k = 0..K-1
  exact,              // the exact sum, rounded once
  avx512_bf16_pairs,  // VDPBF16PS
  amx_tile_pairs,     // TDPBF16PS / TDPFP16PS
  chunked_exact,      // exact within chunks, one rounding per chunk (AMX-FP8 with chunk 64)
  reduced_precision,  // a parameterised model of FP8 tensor cores' "fast accumulation"
};

// The order of the products inside one AMX instruction.
//   sdm:   even and odd partial sums from +0, t = even + odd, dst = dst + t
//          (the Intel SDM's pseudocode for TDPBF16PS / TDPFP16PS);
//   guide: dst = fma(a_even, b_even, dst), then the odd product, per pair
//          (the Intel intrinsics guide and LLVM's amxfp16intrin.h).
enum class amx_order : unsigned char { sdm, guide };

// The two shapes of reduced_precision (see docs/hybrid.md).
enum class reduced_variant : unsigned char { seq, block };

// The NaN a model returns.
//   canonical: the one NaN model_nan (0x7FC00000), whatever made it;
//   propagate: the NaN the instruction writes (avx512_bf16_pairs and
//              amx_tile_pairs only): each step whose result is NaN returns
//              its first NaN operand in the instruction's order, quieted,
//              or 0xFFC00000 (x86's default NaN) for an invalid operation
//              (Inf x 0, Inf - Inf) without NaN operands. The orders are in
//              detail::pairs_step and detail::amx_sum; docs/hybrid.md,
//              "NaN bits as the instruction writes them".
enum class nan_payload : unsigned char { canonical, propagate };

struct accumulation_model {
  model_kind kind = model_kind::sequential_fp32;
  // exact: round the exact sum once to float32 (false), or carry it exactly
  // through the whole post-processing and round once to the output type.
  bool exact_to_output = false;
  // amx_tile_pairs: 16-bit elements per instruction (32 for a full 16x32
  // tile row); chunked_exact: products per exactly summed chunk.
  int chunk = 32;
  amx_order order = amx_order::sdm;
  // chunked_exact: how acc + chunk sum is rounded; presum_round rounds the
  // chunk sum to float32 first (two roundings; LLVM's `dst + FP32(temp1)`
  // read literally).
  fp32_rounding rounding = fp32_rounding::nearest_even;
  bool presum_round = false;
  // reduced_precision: significant bits of the partial accumulator
  // (leading one included), products between promotions into the float32
  // accumulator, the variant, the block of the block variant, and how
  // negative terms are truncated.
  int bits = 14;
  int promote_every = 128;
  reduced_variant variant = reduced_variant::seq;
  int block = 32;
  truncation trunc = truncation::toward_zero;
  // avx512_bf16_pairs and amx_tile_pairs: the NaN they return.
  nan_payload nans = nan_payload::canonical;
};

// Named constructors, so a call site reads like the model's name.
namespace models {
inline accumulation_model sequential_fp32() { return {}; }
inline accumulation_model exact(bool to_output = false) {
  accumulation_model m;
  m.kind = model_kind::exact;
  m.exact_to_output = to_output;
  return m;
}
inline accumulation_model avx512_bf16_pairs(nan_payload nans = nan_payload::canonical) {
  accumulation_model m;
  m.kind = model_kind::avx512_bf16_pairs;
  m.nans = nans;
  return m;
}
inline accumulation_model amx_tile_pairs(int chunk = 32, amx_order order = amx_order::sdm,
                                         nan_payload nans = nan_payload::canonical) {
  accumulation_model m;
  m.kind = model_kind::amx_tile_pairs;
  m.chunk = chunk;
  m.order = order;
  m.nans = nans;
  return m;
}
inline accumulation_model chunked_exact(int chunk, fp32_rounding rounding = fp32_rounding::nearest_even,
                                        bool presum_round = false) {
  accumulation_model m;
  m.kind = model_kind::chunked_exact;
  m.chunk = chunk;
  m.rounding = rounding;
  m.presum_round = presum_round;
  return m;
}
inline accumulation_model reduced_precision(int bits, int promote_every,
                                            reduced_variant variant = reduced_variant::seq,
                                            int block = 32,
                                            truncation trunc = truncation::toward_zero) {
  accumulation_model m;
  m.kind = model_kind::reduced_precision;
  m.bits = bits;
  m.promote_every = promote_every;
  m.variant = variant;
  m.block = block;
  m.trunc = trunc;
  return m;
}
}  // namespace models

// What the models need to know of the operand types: whether the 16-bit
// instruction that a pairs/tile model stands for reads FP16 (TDPFP16PS: no
// DAZ on inputs) or BF16 (VDPBF16PS / TDPBF16PS: inputs DAZ), and the fixed
// point that holds their exact sums (sum_layout_for).
struct operand_kinds {
  bool fp16_instruction = false;
  sum_layout layout;
};

// Whether A's and B's types make the instruction TDPFP16PS: an FP16 operand.
constexpr bool fp16_instruction_for(element_type a, element_type b) noexcept {
  return a == element_type::f16 || b == element_type::f16;
}

namespace detail {
// Every value of the type is a multiple of 2^unit, none above `largest`.
struct value_range {
  int unit;
  double largest;
};
template <class T>
value_range float_range() noexcept {
  return {std::ilogb(static_cast<double>(std::numeric_limits<T>::denorm_min())),
          static_cast<double>(std::numeric_limits<T>::max())};
}
inline value_range range_of(element_type t) noexcept {
  switch (t) {
    case element_type::i8: return {0, 128.0};
    case element_type::u8: return {0, 255.0};
    case element_type::hf8: return float_range<element_t<element_type::hf8>>();
    case element_type::bf8: return float_range<element_t<element_type::bf8>>();
    case element_type::f16: return float_range<element_t<element_type::f16>>();
    case element_type::bf16: return float_range<element_t<element_type::bf16>>();
    case element_type::f32: break;
  }
  return float_range<float>();
}
}  // namespace detail

// The fixed point for exact sums of k products of a and b (FP32 for the
// `operands` placement): the unit is the product of the two smallest
// magnitudes, and the width is that of k + 1 largest products (the float32
// accumulator these sums meet stays within one rounding of them) plus one
// bit of margin. reduced_precision's partial sums, whose exponent is
// unbounded, use fixed points of their own (aligned_pair_sum, and the
// block step's quantum).
// E4M3 x E4M3: 36 bits + log2(k + 1), one 64-bit limb for k < 2^27; E5M2 x
// E5M2 needs two from k = 1.
inline sum_layout sum_layout_for(element_type a, element_type b, std::size_t k) noexcept {
  const detail::value_range ra = detail::range_of(a), rb = detail::range_of(b);
  const double largest_product_bits = std::log2(ra.largest) - ra.unit + std::log2(rb.largest) - rb.unit;
  const int bits =
      static_cast<int>(std::floor(largest_product_bits + std::log2(static_cast<double>(k) + 1.0) + 1e-9)) + 2;
  const int limbs = (bits + 63) / 64;
  return {ra.unit + rb.unit, limbs < 1 ? 1 : (limbs > detail::wide_limbs ? detail::wide_limbs : limbs)};
}

namespace detail {

// Calls f(begin, end) for consecutive runs of `size` indices of [0, k), the
// last one shorter.
template <class F>
void for_each_run(std::size_t k, std::size_t size, F f) {
  for (std::size_t begin = 0; begin < k; begin += size) f(begin, begin + size < k ? begin + size : k);
}

inline float sequential_sum(const float* a, const float* b, std::size_t k) noexcept {
  float acc = 0.0f;
  for (std::size_t i = 0; i < k; ++i) acc = std::fma(a[i], b[i], acc);
  return acc;
}

// Element i of an operand padded with +0 past its end.
inline float padded(const float* x, std::size_t k, std::size_t i) noexcept {
  return i < k ? x[i] : 0.0f;
}

// The NaN an x86 instruction writes when its result is NaN: its first NaN
// operand in the instruction's order, quieted (bit 22 set), or, with no NaN
// operand, the default NaN of an invalid operation, the "QNaN floating-point
// indefinite" 0xFFC00000 (Intel SDM vol. 1, 4.8.3.5 and 4.8.3.7).
inline float instruction_nan(std::initializer_list<float> operands) noexcept {
  for (const float x : operands) {
    if (std::isnan(x)) return mf::detail::bit_cast<float>(mf::detail::bit_cast<std::uint32_t>(x) | 0x00400000u);
  }
  return mf::detail::bit_cast<float>(0xFFC00000u);
}

// One FMA step of a dot-product instruction, fma_ftz(a, b, c); under
// nan_payload::propagate a NaN result is the instruction's NaN with the
// operands in the order a, b, c.
inline float fma_step(float a, float b, float c, nan_payload nans) noexcept {
  const float r = fma_ftz(a, b, c);
  return nans == nan_payload::propagate && std::isnan(r) ? instruction_nan({a, b, c}) : r;
}

// One VDPBF16PS lane step: acc + odd product, then + even product (Intel
// SDM, VDPBF16PS). Its NaN follows the SDM's Table 5-1: the operands in
// the order src1 low (a_even), src2 low (b_even), src1 high (a_odd),
// src2 high (b_odd), srcdest (acc), A being src1. A NaN of an earlier
// step, carried in acc, so yields to a NaN operand of this one (checked
// against the instruction: tests/hybrid/vdpbf16ps_test.cpp).
inline float pairs_step(float a_even, float b_even, float a_odd, float b_odd, float acc,
                        nan_payload nans) noexcept {
  const float r = fma_ftz(a_even, b_even, fma_ftz(a_odd, b_odd, acc));
  if (nans == nan_payload::propagate && std::isnan(r)) return instruction_nan({a_even, b_even, a_odd, b_odd, acc});
  return r;
}

inline float bf16_pairs_sum(const float* a, const float* b, std::size_t k, nan_payload nans) noexcept {
  float acc = 0.0f;
  for (std::size_t i = 0; i < k; i += 2) {  // an odd K appends the pair (+0, +0)
    acc = pairs_step(denormal_as_zero(a[i]), denormal_as_zero(b[i]), denormal_as_zero(padded(a, k, i + 1)),
                     denormal_as_zero(padded(b, k, i + 1)), acc, nans);
  }
  return acc;
}

// TDPBF16PS / TDPFP16PS, one element. Under nan_payload::propagate each
// step's NaN is fma_step's: within a step a, b, then the accumulator; t
// takes the even chain's NaN before the odd one's, dst + t takes C's
// before t's.
inline float amx_sum(const accumulation_model& m, const float* a, const float* b, std::size_t k,
                     operand_kinds kinds) noexcept {
  const auto input = [&](const float* x, std::size_t i) {
    const float v = padded(x, k, i);
    return kinds.fp16_instruction ? v : denormal_as_zero(v);
  };
  const auto chunk = static_cast<std::size_t>(m.chunk);
  // The pairs of a chunk past K are +0 products: each leaves a chain as it
  // is, except that it makes a -0 (which a flush to zero can leave) +0. So
  // the pairs stop at K, and a chain that skipped some gets that one effect
  // (a chunk far longer than K costs nothing).
  const auto after_padding = [](float chain) { return chain == 0.0f ? 0.0f : chain; };
  float dst = 0.0f;
  for (std::size_t start = 0; start < k; start += chunk) {
    const std::size_t end = std::min(start + chunk, k + (k & 1));
    const bool padded_pairs = end < start + chunk;
    if (m.order == amx_order::guide) {
      for (std::size_t i = start; i < end; i += 2) {
        dst = fma_step(input(a, i), input(b, i), dst, m.nans);
        dst = fma_step(input(a, i + 1), input(b, i + 1), dst, m.nans);
      }
      if (padded_pairs) dst = after_padding(dst);
      continue;
    }
    float even = 0.0f;
    float odd = 0.0f;
    for (std::size_t i = start; i < end; i += 2) {
      even = fma_step(input(a, i), input(b, i), even, m.nans);
      odd = fma_step(input(a, i + 1), input(b, i + 1), odd, m.nans);
    }
    if (padded_pairs) {
      even = after_padding(even);
      odd = after_padding(odd);
    }
    const float t = fma_step(even, 1.0f, odd, m.nans);
    dst = fma_step(dst, 1.0f, t, m.nans);
  }
  return dst;
}

inline wide_sum exact_sum(const float* a, const float* b, std::size_t k,
                          sum_layout layout) noexcept {
  wide_sum s(layout);
  for (std::size_t i = 0; i < k; ++i) s.add_product(a[i], b[i]);
  return s;
}

inline float chunked_sum(const accumulation_model& m, const float* a, const float* b,
                         std::size_t k, sum_layout layout) noexcept {
  float acc = 0.0f;
  for_each_run(k, static_cast<std::size_t>(m.chunk), [&](std::size_t begin, std::size_t end) {
    wide_sum total = exact_sum(a + begin, b + begin, end - begin, layout);
    if (m.presum_round) {
      const float t = round_to_fp32(total, m.rounding);
      total = wide_sum(layout);
      total.add(static_cast<double>(t));
    }
    total.add(static_cast<double>(acc));
    acc = round_to_fp32(total, m.rounding);
  });
  return acc;
}

// The exact sum x + y of two doubles, in a fixed point sized for the pair,
// for roundings to at most 53 significant bits (reduced_precision's part
// and its promotion). The partial register's exponent is unbounded in the
// model (a floor truncation can double a negative part at every step), so
// no fixed point chosen per type pair holds it. Here the unit follows the
// larger term: with t its top exponent and L = t - 600, a smaller term with
// bits below 2^L is replaced by its multiple of 2^L toward zero plus 2^(L-1)
// of its sign (a sticky bit, as a hardware adder keeps one). Such a term is
// below 2^(L+53), so the sum is above 2^(t-1) and every grid of at most 53
// significant bits around it is made of multiples of 2^L; the true sum and
// the replaced one lie strictly between the same two multiples of 2^L, so
// every rounding to such a grid, in any direction, treats them alike. Ten
// 64-bit limbs hold the 603 bits. Inf and NaN keep IEEE 754's rules.
inline wide_sum aligned_pair_sum(double x, double y) noexcept {
  if (!std::isfinite(x) || !std::isfinite(y) || (x == 0 && y == 0)) {
    wide_sum special;
    special.add(x);
    special.add(y);
    return special;
  }
  const bool x_larger = std::fabs(x) >= std::fabs(y);
  const double larger = x_larger ? x : y, smaller = x_larger ? y : x;
  const int low = std::ilogb(larger) - 600;
  wide_sum sum(sum_layout{low - 1, wide_limbs});
  sum.add(larger);
  const double kept = std::ldexp(std::trunc(std::ldexp(smaller, -low)), low);  // exact
  sum.add(kept);
  if (kept != smaller) sum.add(std::copysign(std::ldexp(1.0, low - 1), smaller));
  return sum;
}

// The block variant: the part and the block's products aligned to the
// largest exponent among them, each cut to a multiple of 2^(emax - bits + 1),
// summed exactly, the sum cut to `bits` significant bits. The cut terms are
// multiples of that quantum below 2^(emax + 1): a fixed point from the
// quantum holds their sum, whatever the part's exponent.
inline double reduced_block_step(const accumulation_model& m, double part, const float* a,
                                 const float* b, std::size_t count, sum_layout layout) noexcept {
  wide_sum special_check(layout);
  int emax = -100000;
  const auto consider = [&](double x) {
    special_check.add(std::isfinite(x) ? 0.0 : x);
    if (std::isfinite(x) && x != 0) {
      int e = 0;
      std::frexp(x, &e);
      if (e - 1 > emax) emax = e - 1;
    }
  };
  consider(part);
  for (std::size_t i = 0; i < count; ++i) {
    consider(static_cast<double>(a[i]) * static_cast<double>(b[i]));
  }
  if (special_check.is_special()) return special_check.special();
  if (emax == -100000) {  // every term is a zero: the zero their sum has
    wide_sum zeros(layout);
    zeros.add(part);
    for (std::size_t i = 0; i < count; ++i) zeros.add_product(a[i], b[i]);
    return zeros.zero();
  }
  const double quantum = std::ldexp(1.0, emax - m.bits + 1);
  const auto cut = [&](double x) {
    const double units = x / quantum;  // exact: a power-of-two scaling
    const double kept = m.trunc == truncation::floor ? std::floor(units) : std::trunc(units);
    return kept * quantum;
  };
  const int width = m.bits + 2 + static_cast<int>(std::ceil(std::log2(static_cast<double>(count) + 2.0)));
  wide_sum total(sum_layout{emax - m.bits + 1, (width + 63) / 64});
  total.add(cut(part));
  for (std::size_t i = 0; i < count; ++i) {
    total.add(cut(static_cast<double>(a[i]) * static_cast<double>(b[i])));
  }
  return total.truncate(m.bits, m.trunc);
}

inline float reduced_sum(const accumulation_model& m, const float* a, const float* b,
                         std::size_t k, sum_layout layout) noexcept {
  float acc = 0.0f;
  for_each_run(k, static_cast<std::size_t>(m.promote_every), [&](std::size_t begin, std::size_t end) {
    double part = 0.0;
    if (m.variant == reduced_variant::seq) {
      for (std::size_t i = begin; i < end; ++i) {
        const double product = static_cast<double>(a[i]) * static_cast<double>(b[i]);
        part = aligned_pair_sum(part, product).truncate(m.bits, m.trunc);
      }
    } else {
      for_each_run(end - begin, static_cast<std::size_t>(m.block), [&](std::size_t first, std::size_t last) {
        part = reduced_block_step(m, part, a + begin + first, b + begin + first, last - first,
                                  layout);
      });
    }
    acc = round_to_fp32(aligned_pair_sum(static_cast<double>(acc), part),
                        fp32_rounding::nearest_even);
  });
  return acc;
}

inline float accumulate_any_nan(const accumulation_model& m, const float* a, const float* b,
                                std::size_t k, operand_kinds kinds) noexcept {
  switch (m.kind) {
    case model_kind::sequential_fp32: return detail::sequential_sum(a, b, k);
    case model_kind::exact: {
      wide_sum sum = detail::exact_sum(a, b, k, kinds.layout);
      sum.add(0.0);  // the accumulator starts at +0
      return round_to_fp32(sum, fp32_rounding::nearest_even);
    }
    case model_kind::avx512_bf16_pairs: return detail::bf16_pairs_sum(a, b, k, m.nans);
    case model_kind::amx_tile_pairs: return detail::amx_sum(m, a, b, k, kinds);
    case model_kind::chunked_exact: return detail::chunked_sum(m, a, b, k, kinds.layout);
    case model_kind::reduced_precision: return detail::reduced_sum(m, a, b, k, kinds.layout);
  }
  return model_nan;
}

// accumulate() for a caller that holds the default environment already
// (the reference loop sets it once, not per element).
inline float accumulate_in_default_environment(const accumulation_model& m, const float* a,
                                               const float* b, std::size_t k,
                                               operand_kinds kinds) noexcept {
  const float r = accumulate_any_nan(m, a, b, k, kinds);
  return std::isnan(r) && m.nans == nan_payload::canonical ? model_nan : r;
}
}  // namespace detail

// One output element's accumulator: the model applied to a[0..k) and
// b[0..k). For `exact` this is the exact sum rounded to float32 (the
// exact_to_output path reads exact_sum itself). A NaN result is the one
// canonical NaN, model_nan (0x7FC00000), or under nan_payload::propagate
// the instruction's (operands decoded with their NaN payloads:
// decode_keeping_nan_payload). The caller's floating-point environment does
// not matter (target/float_environment.hpp).
inline float accumulate(const accumulation_model& m, const float* a, const float* b,
                        std::size_t k, operand_kinds kinds = {}) noexcept {
  return target::in_default_float_environment([&]() -> float {
    return detail::accumulate_in_default_environment(m, a, b, k, kinds);
  });
}

}  // namespace mf::hybrid
