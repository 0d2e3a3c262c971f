// Which requests the fast kernels take, and the glue between the public
// entries (matmul.hpp) and the blocked driver: operands widened to float32
// by the library's bulk decoders while packing, the y3 values rounded into
// the output type by the bulk encoders (the same bits as round_to, which the
// reference's encode_output calls).
//
// Fast, with a nearest-even output (saturating or not):
// - sequential_fp32 for every float type pair the table accepts, on every
//   ISA, with the scales in the epilogue or on the operands (applied while
//   packing);
// - avx512_bf16_pairs where the CPU has AVX512_BF16;
// - exact (K <= 2^17; rounded to float32, or with exact_to_output carried
//   exactly through the post-processing, element by element) for every FP8
//   pair, and for FP16 and BF16 with any of these where the CPU has
//   AVX512_IFMA (integers there, a BF16 matrix only within a span of 40
//   bits; E5M2 operands split elsewhere; on finite operands);
// - chunked_exact (both roundings, with or without pre-rounding, chunk <=
//   2^17) for every FP8 pair, on every ISA (E5M2 operands split, finite,
//   K < 2^40), and for the pairs of E4M3, E5M2, FP16 and BF16 but E4M3 x
//   E4M3 on the limbs where the CPU has AVX512_IFMA (K <= 2^23, a BF16
//   matrix within a span of 40 bits, values' quanta multiplying to between
//   2^-149 and 2^104; finite operands);
// - amx_tile_pairs (both orders) for every pair it accepts, on every ISA,
//   when the operands cannot reach its flushes (amx_pairs_operands_fit);
// - reduced_precision (seq, and block with blocks <= 64; bits <= 24, any
//   promote_every, both truncations) for HF8, BF8 and FP16 operands, and
//   BF16 within reduced_operands_fit's range, on every ISA;
// these with the scales in the epilogue (sequential_fp32 also on the
// operands).
// Every other request (other models, placement::operands, stochastic
// output, integer operands) returns false and runs on the reference; the
// integer MatMul has its own fast path (integer_driver.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../../bulk/amax.hpp"
#include "../../bulk/encode.hpp"
#include "../element_type.hpp"
#include "../matmul_options.hpp"
#include "../output.hpp"
#include "driver.hpp"

namespace mf::hybrid::kernels {

namespace detail {

// Elements per step through a small stack buffer of encodings (the
// run-time entry's uint32 codes only).
inline constexpr std::size_t codes_per_step = 256;

// Source = Fmt (typed entry: its values are its encodings, encodings.hpp)
// or std::uint32_t (run-time entry: the low bits, as from_bits reads them).
template <class Fmt, class Source>
void decode_elements(const void* base, std::size_t offset, std::size_t count, float* out) {
  const Source* in = static_cast<const Source*>(base) + offset;
  if constexpr (std::is_same_v<Source, Fmt>) {
    mf::bulk::decode<Fmt>(in, out, count);
  } else {
    typename Fmt::storage_type codes[codes_per_step];
    for (std::size_t first = 0; first < count; first += codes_per_step) {
      const std::size_t n = count - first < codes_per_step ? count - first : codes_per_step;
      for (std::size_t i = 0; i < n; ++i) codes[i] = static_cast<typename Fmt::storage_type>(in[first + i]);
      mf::bulk::decode<Fmt>(codes, out + first, n);
    }
  }
}

// Target = Fmt (typed entry) or std::uint32_t (run-time entry).
template <class Fmt, class Target>
void encode_elements(const float* values, std::size_t count, void* base, std::size_t offset,
                     const output_conversion& o) {
  Target* out = static_cast<Target*>(base) + offset;
  const conversion nearest = conversion::with(rounding::nearest_even, o.on_overflow);
  if constexpr (std::is_same_v<Target, Fmt>) {
    mf::bulk::encode<Fmt>(values, out, count, nearest);
  } else {
    typename Fmt::storage_type codes[codes_per_step];
    for (std::size_t first = 0; first < count; first += codes_per_step) {
      const std::size_t n = count - first < codes_per_step ? count - first : codes_per_step;
      mf::bulk::encode<Fmt>(values + first, codes, n, nearest);
      for (std::size_t i = 0; i < n; ++i) out[first + i] = codes[i];
    }
  }
}

// A float32 output: the reference's own conversion (saturation included).
template <class Target>
void encode_float32(const float* values, std::size_t count, void* base, std::size_t offset,
                    const output_conversion& o) {
  Target* out = static_cast<Target*>(base) + offset;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t bits = hybrid::detail::encode_output(element_type::f32, values[i], o, 0);
    if constexpr (std::is_same_v<Target, std::uint32_t>) {
      out[i] = bits;
    } else {
      out[i] = mf::detail::bit_cast<float>(bits);
    }
  }
}

using decode_function = void (*)(const void*, std::size_t, std::size_t, float*);
using encode_function = void (*)(const float*, std::size_t, void*, std::size_t,
                                 const output_conversion&);

// The decoder of run-time codes of a float input type.
inline decode_function code_decoder(element_type t) noexcept {
  switch (t) {
    case element_type::hf8: return &decode_elements<mf::e4m3fn, std::uint32_t>;
    case element_type::bf8: return &decode_elements<mf::e5m2, std::uint32_t>;
    case element_type::f16: return &decode_elements<mf::binary16, std::uint32_t>;
    case element_type::bf16: return &decode_elements<mf::bfloat16, std::uint32_t>;
    default: return nullptr;
  }
}

inline encode_function code_encoder(element_type t) noexcept {
  switch (t) {
    case element_type::hf8: return &encode_elements<mf::e4m3fn, std::uint32_t>;
    case element_type::bf8: return &encode_elements<mf::e5m2, std::uint32_t>;
    case element_type::f16: return &encode_elements<mf::binary16, std::uint32_t>;
    case element_type::bf16: return &encode_elements<mf::bfloat16, std::uint32_t>;
    case element_type::f32: return &encode_float32<std::uint32_t>;
    default: return nullptr;
  }
}

template <class T>
decode_function value_decoder() noexcept {
  if constexpr (is_minifloat_v<T>) {
    return &decode_elements<T, T>;
  } else {
    return nullptr;  // integers: the reference
  }
}

template <class T>
encode_function value_encoder() noexcept {
  if constexpr (std::is_same_v<T, float>) {
    return &encode_float32<float>;
  } else if constexpr (is_minifloat_v<T>) {
    return &encode_elements<T, T>;
  } else {
    return nullptr;
  }
}

}  // namespace detail

// The range of an operand's nonzero finite values: every one is a multiple
// of 2^smallest_quantum (its exponent less its mantissa bits) and below
// 2^(largest_exponent + 1). FP8 and FP16 operands take their type's bounds;
// a BF16 operand is read once (its subnormals have the quantum 2^-133 and
// set `subnormal`; Inf and NaN set `non_finite`). An operand of zeros has
// the quantum 2^0 and the largest exponent -1000.
struct operand_range {
  int smallest_quantum = 0;
  int largest_exponent = -1000;
  bool subnormal = false;
  bool non_finite = false;
};

inline operand_range range_of(element_type t, const operand_reader& x, std::size_t rows,
                              std::size_t columns) {
  switch (t) {
    case element_type::hf8: return {-9, 8};    // E4M3: 2^-6 * 2^-3; 448 < 2^9
    case element_type::bf8: return {-16, 15};  // E5M2: 2^-14 * 2^-2; 57344 < 2^16
    case element_type::f16: return {-24, 15};  // binary16: 2^-14 * 2^-10; 65504 < 2^16
    default: break;
  }
  operand_range r;
  int smallest = 1000;
  std::vector<float> row(columns);
  for (std::size_t i = 0; i < rows; ++i) {
    x.decode(x.base, i * x.ld, columns, row.data());
    for (float v : row) {
      std::uint32_t bits;
      std::memcpy(&bits, &v, sizeof bits);
      const int field = static_cast<int>((bits >> 23) & 0xFFu);
      if (field == 0xFF) r.non_finite = true;
      if (field == 0xFF || (bits & 0x7FFFFFFFu) == 0) continue;
      r.subnormal = r.subnormal || field == 0;
      const int exponent = field == 0 ? -127 : field - 127;  // a subnormal is below 2^-126
      smallest = std::min(smallest, (field == 0 ? -126 : exponent) - 7);  // BF16: 7 mantissa bits
      r.largest_exponent = std::max(r.largest_exponent, exponent);
    }
  }
  r.smallest_quantum = smallest == 1000 ? 0 : smallest;
  return r;
}

// amx_tile_pairs on plain FMAs (generic/amx_pairs_tile.hpp): true when no
// step of the model can meet or make a float32 subnormal, so its DAZ and
// FTZ never act. Every nonzero value of a type is a multiple of its quantum
// 2^q, so every product, every partial sum and every rounded step is a
// multiple of 2^(qa + qb), the smallest quanta of A's and B's values: with
// qa + qb >= -126 a nonzero one is at least 2^-126, a normal. FP8 and FP16
// values always qualify (qa + qb >= -48); a BF16 subnormal (which the model
// reads as 0) sends the request to the reference.
inline bool amx_pairs_operands_fit(element_type ta, element_type tb, const operand_reader& a,
                                   const operand_reader& b, std::size_t m, std::size_t n,
                                   std::size_t k) {
  const operand_range ra = range_of(ta, a, m, k);
  if (ra.subnormal) return false;
  const operand_range rb = range_of(tb, b, k, n);
  return !rb.subnormal && ra.smallest_quantum + rb.smallest_quantum >= -126;
}

// reduced_precision with a BF16 operand (generic/reduced_tile.hpp and
// reduced_block_tile.hpp prove their kernels for FP8 and FP16 operands, from
// three facts that BF16 operands keep where this holds): products exact in
// float32 (at most 8 + 11 significant bits); every nonzero product, part
// and cut value a multiple of 2^(qa + qb) that is a normal float32 (seq:
// qa + qb >= -126), or whose scaled terms are (block: qa + qb >= -60, so
// that no nonzero term is below the tile's starting maximum 2^-60, and a
// term times 1/Q >= 2^(bits - 1 - 63) stays normal; its blocks with terms
// of 2^64 or more take the reference's step); and, for both variants,
// products below 2^104 with sums of K of them below 2^103, which the
// `floor` overflow argument (reduced_tile.hpp, 7.) needs, and without
// which a product or a positive part past float32's range would be Inf
// in the kernels where the model keeps it finite (the block tile keeps its
// part in float32). Inf and NaN act as the proofs say.
inline bool reduced_operands_fit(element_type ta, element_type tb, const operand_reader& a,
                                 const operand_reader& b, std::size_t m, std::size_t n, std::size_t k,
                                 reduced_variant variant) {
  if (ta != element_type::bf16 && tb != element_type::bf16) return true;
  const operand_range ra = range_of(ta, a, m, k);
  const operand_range rb = range_of(tb, b, k, n);
  int log2_k = 0;
  while ((std::size_t{1} << log2_k) < k) ++log2_k;
  const bool sums_below_2_103 = ra.largest_exponent + 1 + rb.largest_exponent + 1 + log2_k <= 103;
  const int quanta = ra.smallest_quantum + rb.smallest_quantum;
  return sums_below_2_103 && quanta >= (variant == reduced_variant::block ? -60 : -126);
}

// Whether every value of an operand is finite: a split operand's Inf
// would meet the other class's +0 (Inf x 0 = NaN), and Inf or NaN has no
// integer for the limb sum, so such requests take the reference
// (split_sum.hpp, limb_sum.hpp).
inline bool operand_finite(const operand_reader& x, std::size_t rows, std::size_t columns) {
  std::vector<float> row(columns);
  for (std::size_t i = 0; i < rows; ++i) {
    x.decode(x.base, i * x.ld, columns, row.data());
    if (!std::isfinite(mf::bulk::amax(row.data(), columns))) return false;  // Inf or NaN (propagated)
  }
  return true;
}

// Whether an operand can take the limb sum (limb_sum.hpp), in one pass over
// it: finite values, and for BF16 a scale, set here: every nonzero value
// is an integer times 2^q, and with q the smallest such quantum, s = -q
// serves where every value is below 2^(q + 40). False (the reference) for a
// wider span or a value that is not finite; other types keep their scale.
inline bool limb_scale_fits(element_type t, const operand_reader& x, std::size_t rows,
                            std::size_t columns, int& scale) {
  if (t != element_type::bf16) return operand_finite(x, rows, columns);
  const operand_range r = range_of(t, x, rows, columns);
  scale = -r.smallest_quantum;
  return !r.non_finite && r.largest_exponent + 1 - r.smallest_quantum <= detail::limb_offset_bits;
}

// Whether a fast kernel computes this request on the active ISA (the
// checks aside; amx_tile_pairs also needs amx_pairs_operands_fit).
inline bool has_fast_kernel(element_type ta, element_type tb, element_type tc, std::size_t k,
                            const matmul_options& o) noexcept {
  if (o.reference_only || is_integer(ta) || is_integer(tb) || is_integer(tc)) return false;
  if (o.accumulator != nullptr) return false;  // the reference keeps each acc
  if (o.output.stochastic) return false;
  // placement::operands scales the operands at packing: sequential_fp32 only
  // (the other fast models' operand types would be float32).
  if (o.scales.where == placement::operands && o.model.kind != model_kind::sequential_fp32) {
    return false;
  }
  return kernel_for(o.model, ta, tb, k, target::active_isa()).run != nullptr;
}

// Runs the request on the fast kernels of the active ISA and returns true,
// or returns false (nothing done) when the reference must compute it.
// Throws what the reference throws for a request the rules reject.
inline bool try_fast_matmul(table_id table, element_type ta, element_type tb, element_type tc,
                            const operand_reader& a, const operand_reader& b,
                            const result_writer& c, std::size_t m, std::size_t n, std::size_t k,
                            const matmul_options& o) {
  if (!has_fast_kernel(ta, tb, tc, k, o) || a.decode == nullptr || b.decode == nullptr ||
      c.encode == nullptr || (o.model.exact_to_output && c.store == nullptr)) {
    return false;
  }
  hybrid::detail::check_request(table, ta, tb, tc, k, o);
  hybrid::detail::check_float_request(ta, tb, tc, o);
  if (o.model.kind == model_kind::amx_tile_pairs && !amx_pairs_operands_fit(ta, tb, a, b, m, n, k)) {
    return false;
  }
  if (o.model.kind == model_kind::reduced_precision &&
      !reduced_operands_fit(ta, tb, a, b, m, n, k, o.model.variant)) {
    return false;
  }
  tile_kernel kernel = kernel_for(o.model, ta, tb, k, target::active_isa());
  if ((kernel.split_a || kernel.split_b) && !(operand_finite(a, m, k) && operand_finite(b, k, n))) {
    return false;
  }
  // reduced_precision's floor cut (and the cut to 1 bit) leaves out its NaN
  // guard where no lane can be NaN (generic/reduced_tile.hpp, 6.): one pass
  // over each operand.
  if (o.model.kind == model_kind::reduced_precision && o.model.variant == reduced_variant::seq &&
      (o.model.trunc == truncation::floor || o.model.bits == 1)) {
    kernel.operands_finite = operand_finite(a, m, k) && operand_finite(b, k, n);
  }
  if (kernel.operands == packing::offset_integers) {
    if (!(limb_scale_fits(ta, a, m, k, kernel.scale_a) && limb_scale_fits(tb, b, k, n, kernel.scale_b))) {
      return false;
    }
    // chunked_exact (limb_sum.hpp): every nonzero sum at least 2^-149, so
    // that no chunk's rounding makes a zero of a nonzero value; and a unit
    // of at most 2^104, of which FLT_MAX (an overflow toward zero) is a
    // multiple.
    const int value_scale = kernel.scale_a + kernel.scale_b;
    if (kernel.chunk != 0 && (value_scale > 149 || value_scale < -104)) return false;
  }
  run_blocked(kernel, {a, b, c, m, n, k, &o});
  return true;
}

}  // namespace mf::hybrid::kernels
