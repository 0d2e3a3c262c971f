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
// - avx512_bf16_pairs for every pair it accepts: VDPBF16PS where the CPU
//   has AVX512_BF16; elsewhere plain FMAs, when the operands cannot reach
//   its flushes (pairs_operands_fit);
// - exact (K <= 2^17; rounded to float32, or with exact_to_output carried
//   exactly through the post-processing, element by element) for every FP8
//   pair, and for FP16 and BF16 with any of these on AVX2 and AVX-512
//   (integers in two limbs, a BF16 matrix only within a span of 40 bits;
//   FP8 pairs with an E5M2 split where the CPU lacks AVX512_IFMA; on
//   finite operands);
// - chunked_exact (both roundings, with or without pre-rounding, chunk <=
//   2^17) for every FP8 pair, on every ISA (E5M2 operands split, finite,
//   K < 2^40), and for the pairs of E4M3, E5M2, FP16 and BF16 but E4M3 x
//   E4M3 on the limbs, on AVX2 and AVX-512, the FP8 pairs only with
//   AVX512_IFMA (K <= 2^23, a BF16 matrix within a span of 40 bits,
//   values' quanta multiplying to between 2^-149 and 2^104; finite
//   operands);
// - amx_tile_pairs (both orders) for every pair it accepts, on every ISA,
//   when the operands cannot reach its flushes (pairs_operands_fit);
// - reduced_precision (seq, and block with blocks <= 64; bits <= 24, any
//   promote_every, both truncations) for HF8, BF8 and FP16 operands, and
//   BF16 within reduced_operands_fit's range, on every ISA;
// these with the scales in the epilogue; sequential_fp32 also with the
// scales on the operands, and reduced_precision's seq variant where its
// step rounds in a set direction (AVX-512's directed FMA, AVX2's MXCSR)
// and the scaled operands lie within
// scaled_reduced_operands_fit's range.
// Every other request (other models, placement::operands elsewhere,
// stochastic output, integer operands) returns false and runs on the
// reference; the integer MatMul has its own fast path (integer_driver.hpp).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "../../bulk/amax.hpp"
#include "../../bulk/encode.hpp"
#include "../../target/float_environment.hpp"
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
    const double value = static_cast<double>(values[i]);
    const std::uint32_t bits = hybrid::detail::encode_output(element_type::f32, value, o, 0);
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

// Element readers for nan_payload::propagate (driver.hpp,
// operand_reader::element_keeping_nan): a run-time code of type T, or a
// value of the typed entry.
template <element_type T>
float code_keeping_nan(const void* base, std::size_t index) {
  return decode_keeping_nan_payload(T, static_cast<const std::uint32_t*>(base)[index]);
}
template <class T>
float value_keeping_nan(const void* base, std::size_t index) {
  return decode_keeping_nan_payload(element_id_v<T>, to_encoding(static_cast<const T*>(base)[index]));
}

using element_function = instruction_nans::element_function;

inline element_function code_element_keeping_nan(element_type t) noexcept {
  switch (t) {
    case element_type::i8: return &code_keeping_nan<element_type::i8>;
    case element_type::u8: return &code_keeping_nan<element_type::u8>;
    case element_type::hf8: return &code_keeping_nan<element_type::hf8>;
    case element_type::bf8: return &code_keeping_nan<element_type::bf8>;
    case element_type::f16: return &code_keeping_nan<element_type::f16>;
    case element_type::bf16: return &code_keeping_nan<element_type::bf16>;
    case element_type::f32: break;
  }
  return nullptr;
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
  int smallest_quantum = 0;  // 0 where there is no nonzero finite value
  int largest_exponent = -1000;
  bool subnormal = false;
  bool non_finite = false;
  bool any_value = false;  // a nonzero finite value was added

  // Takes in float32 values of a type with `mantissa_bits` stored bits: a
  // nonzero value of exponent e is a multiple of 2^(e - mantissa_bits), so
  // the smallest quantum is that of the smallest nonzero magnitude and the
  // largest exponent that of the largest (one pass of min and max).
  void add(const float* values, std::size_t count, int mantissa_bits) noexcept {
    float largest = 0.0f, smallest = std::numeric_limits<float>::infinity();
    for (std::size_t i = 0; i < count; ++i) {
      const float v = std::fabs(values[i]);
      if (!(v <= std::numeric_limits<float>::max())) non_finite = true;  // Inf or NaN
      else if (v != 0.0f) {
        largest = std::max(largest, v);
        smallest = std::min(smallest, v);
      }
    }
    if (largest == 0.0f) return;  // no nonzero finite value
    const int low_field = static_cast<int>(mf::detail::bit_cast<std::uint32_t>(smallest) >> 23);
    const int high_field = static_cast<int>(mf::detail::bit_cast<std::uint32_t>(largest) >> 23);
    subnormal = subnormal || low_field == 0;
    const int quantum = (low_field == 0 ? -126 : low_field - 127) - mantissa_bits;  // a subnormal's: 2^-149
    const int exponent = high_field == 0 ? -127 : high_field - 127;  // a subnormal is below 2^-126
    smallest_quantum = any_value ? std::min(smallest_quantum, quantum) : quantum;
    largest_exponent = std::max(largest_exponent, exponent);
    any_value = true;
  }
};

inline operand_range range_of(element_type t, const operand_reader& x, std::size_t rows,
                              std::size_t columns) {
  switch (t) {
    // The types' own extremes, as if every value occurred (none of them a
    // float32 subnormal; Inf and NaN not looked for):
    case element_type::hf8: return {-9, 8, false, false, true};    // E4M3: 2^-6 * 2^-3; 448 < 2^9
    case element_type::bf8: return {-16, 15, false, false, true};  // E5M2: 2^-14 * 2^-2; 57344 < 2^16
    case element_type::f16: return {-24, 15, false, false, true};  // binary16: 2^-14 * 2^-10; 65504 < 2^16
    default: break;
  }
  operand_range r;
  std::vector<float> row(columns);
  for (std::size_t i = 0; i < rows; ++i) {
    x.decode(x.base, i * x.ld, columns, row.data());
    r.add(row.data(), columns, 7);  // BF16: 7 mantissa bits
  }
  return r;
}

// The range of an operand's values as placement::operands packs them,
// x' = RN32(x * scale) (float32: 23 mantissa bits); `scale_of(i, j)` is
// the scale of row i, column j.
template <class ScaleOf>
operand_range scaled_range_of(const operand_reader& x, std::size_t rows, std::size_t columns,
                              ScaleOf scale_of) {
  operand_range r;
  std::vector<float> row(columns);
  for (std::size_t i = 0; i < rows; ++i) {
    x.decode(x.base, i * x.ld, columns, row.data());
    for (std::size_t j = 0; j < columns; ++j) row[j] *= scale_of(i, j);
    r.add(row.data(), columns, 23);
  }
  return r;
}

// amx_tile_pairs (generic/amx_pairs_tile.hpp) and avx512_bf16_pairs
// (targets.hpp, bf16_pairs_on_fma_kernel_for) on plain FMAs: true when no
// step of the model can meet or make a float32 subnormal, so its DAZ and
// FTZ never act. Every nonzero value of a type is a multiple of its quantum
// 2^q, so every product, every partial sum and every rounded step is a
// multiple of 2^(qa + qb), the smallest quanta of A's and B's values: with
// qa + qb >= -126 a nonzero one is at least 2^-126, a normal. FP8 and FP16
// values always qualify (qa + qb >= -48); a BF16 subnormal (which the model
// reads as 0) sends the request to the reference.
inline bool pairs_operands_fit(element_type ta, element_type tb, const operand_reader& a,
                               const operand_reader& b, std::size_t m, std::size_t n, std::size_t k) {
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
inline bool reduced_ranges_fit(const operand_range& ra, const operand_range& rb, std::size_t k,
                               reduced_variant variant) noexcept {
  int log2_k = 0;
  while ((std::size_t{1} << log2_k) < k) ++log2_k;
  const bool sums_below_2_103 = ra.largest_exponent + 1 + rb.largest_exponent + 1 + log2_k <= 103;
  const int quanta = ra.smallest_quantum + rb.smallest_quantum;
  return sums_below_2_103 && quanta >= (variant == reduced_variant::block ? -60 : -126);
}

inline bool reduced_operands_fit(element_type ta, element_type tb, const operand_reader& a,
                                 const operand_reader& b, std::size_t m, std::size_t n, std::size_t k,
                                 reduced_variant variant) {
  if (ta != element_type::bf16 && tb != element_type::bf16) return true;
  return reduced_ranges_fit(range_of(ta, a, m, k), range_of(tb, b, k, n), k, variant);
}

// The magnitudes of one operand's scales (a_rows or the one s.a; b_columns
// or s.b): the smallest nonzero, the largest, and whether all are finite.
struct scale_extremes {
  float smallest = std::numeric_limits<float>::infinity();
  float largest = 0.0f;
  bool finite = true;
};

inline scale_extremes extremes_of(const float* per_line, std::size_t count, float one) noexcept {
  scale_extremes e;
  for (std::size_t i = 0; i < (per_line ? count : 1); ++i) {
    const float v = std::fabs(per_line ? per_line[i] : one);
    if (!(v <= std::numeric_limits<float>::max())) e.finite = false;
    else if (v != 0.0f) {
      e.smallest = std::min(e.smallest, v);
      e.largest = std::max(e.largest, v);
    }
  }
  return e;
}

// A range that holds every x' = RN32(x * scale) of an operand, found
// without a pass over the data: every nonzero finite |x| lies within
// [2^q, 2^(e + 1)) for the operand's range r (range_of: q its smallest
// quantum, e its largest exponent), every nonzero scale's magnitude within
// the extremes, and RN32 is monotonic, so every nonzero finite |x'| lies
// within [RN32(2^q s_min), 2^(e + 1) s_max] (the upper end a float32, or
// false where it would pass float32's range, or where the lower end is
// below 2^-126: a subnormal x' is left to the pass over the values). A
// nonzero x' at or above 2^f is a multiple of 2^(f - 23).
inline bool scaled_range_bound(const operand_range& r, const scale_extremes& scales, operand_range& out) {
  out = operand_range{};
  if (!r.any_value || scales.largest == 0.0f) return true;  // every finite x' is 0
  const double low = std::ldexp(static_cast<double>(scales.smallest), r.smallest_quantum);
  const double high = std::ldexp(static_cast<double>(scales.largest), r.largest_exponent + 1);
  if (!(high < 0x1p128) || !(low >= 0x1p-126)) return false;  // may overflow, or be subnormal
  int low_binade = 0, high_binade = 0;
  std::frexp(low, &low_binade);  // low in [2^(low_binade - 1), 2^low_binade)
  std::frexp(high, &high_binade);
  out.smallest_quantum = low_binade - 1 - 23;
  out.largest_exponent = high_binade - 1;
  out.any_value = true;
  return true;
}

// reduced_precision (seq) on the float32 operands of placement::operands,
// where its step is one directed FMA (generic/reduced_tile.hpp, 8.): the
// range reduced_ranges_fit asks of BF16 operands, of the scaled values
// (products of them need not be exact in float32: the FMA rounds the exact
// part + a' * b' once), and no scaled value a float32 subnormal (which
// DAZ, if the caller set it, would read as 0). First from the types' (or
// a BF16 matrix's) range and the scales' extremes, which leaves a finite
// x' finite and an Inf or NaN to the kernel's guard
// (tile_args::operands_finite, read from the unscaled operands); where
// that bound is too loose, from the scaled values themselves, one pass,
// none of them Inf or NaN (a finite x whose x' overflows would pass the
// guard unseen).
inline bool scaled_reduced_operands_fit(element_type ta, element_type tb, const operand_reader& a,
                                        const operand_reader& b, std::size_t m, std::size_t n, std::size_t k,
                                        const scale_options& s) {
  const scale_extremes sa = extremes_of(s.a_rows, m, s.a), sb = extremes_of(s.b_columns, n, s.b);
  if (!sa.finite || !sb.finite) return false;
  operand_range bound_a, bound_b;
  if (scaled_range_bound(range_of(ta, a, m, k), sa, bound_a) &&
      scaled_range_bound(range_of(tb, b, k, n), sb, bound_b) &&
      reduced_ranges_fit(bound_a, bound_b, k, reduced_variant::seq)) {
    return true;
  }
  const operand_range ra = scaled_range_of(a, m, k, [&](std::size_t i, std::size_t) {
    return s.a_rows ? s.a_rows[i] : s.a;
  });
  if (ra.non_finite || ra.subnormal) return false;
  const operand_range rb = scaled_range_of(b, k, n, [&](std::size_t, std::size_t j) {
    return s.b_columns ? s.b_columns[j] : s.b;
  });
  return !rb.non_finite && !rb.subnormal && reduced_ranges_fit(ra, rb, k, reduced_variant::seq);
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
// checks aside; amx_tile_pairs and avx512_bf16_pairs on FMAs also need
// pairs_operands_fit).
inline bool has_fast_kernel_on(element_type ta, element_type tb, element_type tc, std::size_t k,
                               const matmul_options& o, target::isa isa) noexcept {
  if (o.reference_only || is_integer(ta) || is_integer(tb) || is_integer(tc)) return false;
  if (o.accumulator != nullptr) return false;  // the reference keeps each acc
  if (o.output.stochastic) return false;
  // placement::operands scales the operands at packing: float32 operands,
  // which not every kernel takes (targets.hpp, takes_scaled_operands).
  if (o.scales.where == placement::operands && !takes_scaled_operands(o.model, isa)) return false;
  return kernel_for(o.model, ta, tb, k, isa).run != nullptr;
}

inline bool has_fast_kernel(element_type ta, element_type tb, element_type tc, std::size_t k,
                            const matmul_options& o) noexcept {
  return has_fast_kernel_on(ta, tb, tc, k, o, target::active_isa());
}

// Runs the request on the fast kernels of the active ISA and returns true,
// or returns false (nothing done) when the reference must compute it.
// Throws what the reference throws for a request the rules reject.
inline bool try_fast_matmul(table_id table, element_type ta, element_type tb, element_type tc,
                            const operand_reader& a, const operand_reader& b,
                            const result_writer& c, std::size_t m, std::size_t n, std::size_t k,
                            const matmul_options& o) {
  // The kernels' roundings and their proofs assume IEEE 754's default
  // environment (the workers set it too: driver.hpp).
  return target::in_default_float_environment([&]() -> bool {
    // The ISA read once: whether a kernel takes a request may depend on it
    // (takes_scaled_operands), and a set_isa on another thread must not
    // change it between the check and the kernel.
    const target::isa isa = target::active_isa();
    if (!has_fast_kernel_on(ta, tb, tc, k, o, isa) || a.decode == nullptr || b.decode == nullptr ||
        c.encode == nullptr || (o.model.exact_to_output && c.store == nullptr)) {
      return false;
    }
    hybrid::detail::check_float_request(table, ta, tb, tc, k, o);
    if (o.model.kind == model_kind::reduced_precision &&
        !(o.scales.where == placement::operands ? scaled_reduced_operands_fit(ta, tb, a, b, m, n, k, o.scales)
                                                  : reduced_operands_fit(ta, tb, a, b, m, n, k, o.model.variant))) {
      return false;
    }
    tile_kernel kernel = kernel_for(o.model, ta, tb, k, isa);
    const bool pairs_on_fma =
        o.model.kind == model_kind::amx_tile_pairs ||
        (o.model.kind == model_kind::avx512_bf16_pairs && kernel.operands != packing::bf16_pairs);
    if (pairs_on_fma && !pairs_operands_fit(ta, tb, a, b, m, n, k)) return false;
    const bool instruction_nans = o.model.nans == nan_payload::propagate;
    if (instruction_nans && (a.element_keeping_nan == nullptr || b.element_keeping_nan == nullptr)) return false;
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
    run_blocked(kernel, {a, b, c, m, n, k, &o, fp16_instruction_for(ta, tb)});
    return true;
  });
}

}  // namespace mf::hybrid::kernels
