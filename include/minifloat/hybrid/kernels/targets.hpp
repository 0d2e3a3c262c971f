// The micro-kernels of each instruction set: the generic sources of
// kernels/generic/ included once per target, inside that target's region
// (target/region.hpp) and namespace, with the tile shapes chosen for
// the target's register file. kernel_for() is the one place that maps a
// model and the active ISA (target/dispatch.hpp) to a kernel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../../target/dispatch.hpp"
#include "../../simd/scalar/vector_ops.hpp"
#include "../../target/region.hpp"
#include "../../simd/x86/avx2/vector_ops.hpp"
#include "../../simd/x86/avx512/vector_ops.hpp"
#include "../accumulation.hpp"
#include "../amax.hpp"
#include "../element_type.hpp"
#include "../eltwise_options.hpp"
#include "../fp32_rounding.hpp"
#include "../output.hpp"
#include "../requantize.hpp"
#include "byte_dot_ops.hpp"
#include "x86/avx2/byte_dot_ops.hpp"
#include "x86/avx2/requantize.hpp"
#include "x86/avx512/bf16_pair_ops.hpp"
#include "x86/avx512/byte_dot_ops.hpp"
#include "x86/avx512/requantize.hpp"

namespace mf::hybrid::kernels {

// chunked_exact on the limbs (limb_sum.hpp, x86/avx512/limb_tile.hpp):
// what the tile needs to fold each chunk of its K block into the model's
// acc. For chunk c of the block: the sums of the integers of the tile's
// rows at row_sums + c * row_stride, of its columns' at column_sums +
// c * column_stride; the float32 acc of the tile's elements at model_acc
// (row stride model_ld); value_scale = sa + sb.
struct limb_chunk_sums {
  const std::int64_t* row_sums;
  std::size_t row_stride;
  const std::int64_t* column_sums;
  std::size_t column_stride;
  float* model_acc;
  std::size_t model_ld;
  int value_scale;
};

// One micro-kernel call: a tile of accumulators (c, row stride ldc) over
// `steps` steps of packed A and B (generic/fma_tile.hpp has the layout);
// `first`: the accumulators start at +0 instead of being read; `chunk`:
// steps per exactly summed chunk (chunked_exact), per instruction
// (amx_tile_pairs) or per promotion (reduced_precision); `bits`, `trunc`
// and `block`: reduced_precision's partial register and block; `rounding`
// and `presum_round`: chunked_exact's; `split_a`, `split_b`: which operands
// are split (chunked_exact on E5M2, generic/exact_tile.hpp); `limb_chunks`:
// chunked_exact on the limbs (null otherwise); `operands_finite`: no Inf or
// NaN among the operands (fast_path.hpp checks it where a kernel uses it);
// `join_exact`: chunked_exact on E4M3 x E4M3 with K short enough that each
// chunk's join is exact in float64 (generic/exact_tile.hpp).
struct tile_args {
  const void* a;
  const void* b;
  void* c;
  std::size_t ldc;
  std::size_t steps;
  bool first;
  std::size_t chunk;
  int bits = 24;
  truncation trunc = truncation::toward_zero;
  fp32_rounding rounding = fp32_rounding::nearest_even;
  bool presum_round = false;
  std::size_t block = 32;
  bool split_a = false;
  bool split_b = false;
  const limb_chunk_sums* limb_chunks = nullptr;
  bool operands_finite = false;
  bool join_exact = false;
};

using tile_function = void (*)(const tile_args&) noexcept;

// The arithmetic of an element-wise run (generic/eltwise_span.hpp).
using eltwise_function = void (*)(eltwise_op op, const float* a, const float* b,
                                  std::size_t b_step, float sa, float sb, std::size_t count,
                                  float* out) noexcept;

// The post-processing of a run of one row (generic/epilogue_span.hpp).
using epilogue_function = void (*)(const scale_options& s, const float* acc, std::size_t i,
                                   std::size_t first_column, std::size_t count, float* y3,
                                   hybrid::detail::amax_tracker& amax) noexcept;

// How the driver packs the operands for a kernel: one float32 per k; one
// float32 per k with the two k of each pair swapped (k + 1 before k, for
// an even k: VDPBF16PS's order, detail::bf16_pairs_sum; an odd K's last k
// stays last); a pair of BF16 values per 32-bit word (k and k + 1, K
// padded to even with +0, as detail::bf16_pairs_sum pads); one float64 per
// k; or one unsigned 64-bit integer per k (the value over its smallest
// subnormal, plus 2^40: limb_sum.hpp).
enum class packing : unsigned char { float32, float32_odd_first, bf16_pairs, float64, offset_integers };

// Where column j of step `step` lies in a packed B panel: micro-panels of
// nr columns, each `steps` steps of nr values (generic/fma_tile.hpp).
constexpr std::size_t b_panel_offset(std::size_t j, std::size_t nr, std::size_t steps,
                                     std::size_t step) noexcept {
  return (j / nr) * nr * steps + step * nr + j % nr;
}

// The layout transform of the packing, compiled per target
// (generic/pack.hpp has the layouts): one step of B into a panel, one row
// of A into a block.
using pack_b_function = void (*)(const float* row, const float* odd, std::size_t columns,
                                 std::size_t padded_columns, std::size_t nr, std::size_t steps,
                                 std::size_t step, void* panel) noexcept;
using pack_a_function = void (*)(const float* row, std::size_t depth, std::size_t block_steps,
                                 std::size_t mr, void* tile) noexcept;
struct packers {
  pack_b_function b = nullptr;
  pack_a_function a = nullptr;
};

// The exact sum in two 52-bit limbs (limb_sum.hpp; x86/avx512/
// limb_tile.hpp on AVX512_IFMA, x86/avx2/limb_tile.hpp elsewhere): the
// tile, its packing (one step of B, adding each column's integers to
// column_sums; one row of A, returning the sum of its integers; values
// times 2^scale; value_bytes per value), and the last step of a row of
// finished elements (accumulators, nr, the row's sum, the columns' sums, K,
// sa + sb, columns, output). chunked_exact runs the same tile with
// tile_args::limb_chunks.
struct limb_tile {
  tile_function run = nullptr;
  int rows = 0;
};

struct limb_kernels {
  limb_tile tile;
  // The tiles for an E4M3 A or B (null: `tile` takes them; x86/avx2/
  // limb_tile.hpp's narrow operands).
  limb_tile narrow_a;
  limb_tile narrow_b;
  int columns = 0;
  void (*pack_b)(const float* row, std::size_t columns, std::size_t padded_columns, std::size_t nr,
                 std::size_t steps, std::size_t step, int scale, void* panel,
                 std::int64_t* column_sums) noexcept = nullptr;
  std::int64_t (*pack_a)(const float* row, std::size_t depth, std::size_t block_steps, std::size_t mr,
                         int scale, void* tile) noexcept = nullptr;
  void (*finish_row)(const std::uint64_t* acc, std::size_t nr, std::int64_t row_sum,
                     const std::int64_t* column_sums, std::size_t k, int value_scale, std::size_t columns,
                     float* out) noexcept = nullptr;
  std::size_t value_bytes = 8;
  bool needs_avx512ifma = false;
  // Whether they take pairs of FP8 types (else the split chains do).
  bool fp8_pairs = true;
};

struct tile_kernel {
  int rows = 0;
  int columns = 0;
  tile_function run = nullptr;  // null: no fast kernel
  packing operands = packing::float32;
  // The accumulators the driver carries between K blocks are float64 (the
  // exact model's exact sum), rounded to float32 once at the end.
  bool wide_accumulators = false;
  std::size_t chunk = 0;  // chunked_exact: K blocks are whole chunks
  epilogue_function epilogue = nullptr;
  packers pack;  // the target's packing for `operands`
  int bits = 24;  // reduced_precision's partial register (tile_args)
  truncation trunc = truncation::toward_zero;
  fp32_rounding rounding = fp32_rounding::nearest_even;  // chunked_exact (tile_args)
  bool presum_round = false;
  std::size_t block = 32;  // reduced_precision's block variant (tile_args)
  // The exact sum of E5M2 operands (driver.hpp, "Split operands"): each
  // value of a split operand is packed as two, its part of magnitude >= 1
  // and its part below 1 (one of them 0), so the register tile holds
  // split_factor(a) x split_factor(b) exact float64 chains per element;
  // `rows` x `columns` is the tile of C elements.
  bool split_a = false;
  bool split_b = false;
  // packing::offset_integers: the limb kernels and each operand's 2^scale
  // (limb_sum.hpp).
  limb_kernels limbs = {};
  int scale_a = 0;
  int scale_b = 0;
  // Checked by fast_path.hpp (tile_args::operands_finite).
  bool operands_finite = false;
  bool join_exact = false;  // tile_args::join_exact
};

// Chains per element along a split operand.
constexpr std::size_t split_factor(bool split) noexcept { return split ? 2 : 1; }

// The kernels of one target and their tile; bf16_pairs (VDPBF16PS) is null
// except in the AVX-512 row of a build with the AVX-512 kernels, vnni_bytes
// (VPDPBUSD) except in that row and the AVX2 row; they run only where the
// CPU has AVX512_BF16, AVX512_VNNI or AVX-VNNI. `bytes` and `vnni_bytes` are the integer MatMul's tile
// (rows x byte_columns int32 accumulators over words of four bytes,
// byte_dot_ops.hpp); `requantize` is set in the AVX2 and AVX-512 rows.
// The requantization of a row of integer accumulators into output bytes
// (hybrid/requantize.hpp's rules); null: the scalar rule.
using requantize_function = void (*)(const hybrid::detail::requantizer& q, const std::int32_t* in,
                                     std::size_t n, std::uint8_t* out) noexcept;

struct target_kernels {
  int rows;
  int float_columns;
  int double_columns;
  int byte_columns;
  tile_function fma;
  tile_function exact;
  tile_function chunked;
  tile_function bytes;
  epilogue_function epilogue;
  packers (*pack)(packing) noexcept;
  // amx_tile_pairs (sdm order) without AMX: amx_rows x amx_columns floats.
  tile_function amx_pairs = nullptr;
  int amx_rows = 0;
  int amx_columns = 0;
  tile_function vnni_bytes = nullptr;
  requantize_function requantize = nullptr;
  tile_function bf16_pairs = nullptr;
  int pair_rows = 0;
  int pair_columns = 0;
  // reduced_precision (seq variant): reduced_rows x reduced_columns floats.
  // reduced_directed: each step is one FMA rounded in the model's direction
  // (AVX-512's static rounding, AVX2's MXCSR), right for any float32 product, so the
  // tile also takes the float32 operands of placement::operands
  // (generic/reduced_tile.hpp, 8.); the other targets' steps need exact
  // products.
  tile_function reduced = nullptr;
  int reduced_rows = 0;
  int reduced_columns = 0;
  bool reduced_directed = false;
  // reduced_precision (block variant): block_rows x block_columns floats.
  tile_function reduced_block = nullptr;
  int block_rows = 0;
  int block_columns = 0;
  eltwise_function eltwise = nullptr;
  // exact with E5M2, FP16 or BF16 operands, as integers in two 52-bit
  // limbs: rows x columns elements, two uint64 accumulators each.
  limb_kernels limbs = {};
};

}  // namespace mf::hybrid::kernels

// Kernels written per ISA that need tile_args.
#include "x86/avx2/limb_tile.hpp"
#include "x86/avx512/limb_tile.hpp"

// Each target: generic/target_kernels.hpp over its vector operations, with
// the tile sizes of its registers. Scalar: 4 x 4 tiles of plain floats, the
// fallback on every CPU and the kernel that tests the driver everywhere.
MF_SIMD_REGION_BEGIN_SCALAR
namespace mf::hybrid::kernels::scalar {
using float_ops = simd::scalar::float_ops;
using double_ops = simd::scalar::double_ops;
using byte_ops = byte_dot_ops;
inline constexpr int rows = 4, vectors = 4;
inline constexpr int amx_rows = 4, amx_vectors = 4;
inline constexpr bool amx_side_by_side = false;
inline constexpr int reduced_rows = 4, reduced_vectors = 4;
inline constexpr int block_rows = 4, block_vectors = 4, block_sum_rows = 4;
inline constexpr bool has_bf16_pairs = true;
#include "generic/target_kernels.hpp"
}  // namespace mf::hybrid::kernels::scalar
MF_SIMD_REGION_END_SCALAR

#if MF_HAS_X86_KERNELS
// AVX2: 6 rows x 2 ymm (12 accumulators, 2 of B and a broadcast in 16
// registers): 6 x 16 floats, 6 x 8 doubles.
MF_SIMD_REGION_BEGIN_AVX2
namespace mf::hybrid::kernels::avx2 {
using float_ops = simd::avx2::float_ops;
using double_ops = simd::avx2::double_ops;
using byte_ops = byte_dot_ops;
inline constexpr int rows = 6, vectors = 2;
// amx_tile_pairs keeps two chains per element: 3 x 2 ymm (12 of 16), one
// k's 2 B vectors and a broadcast beside them.
inline constexpr int amx_rows = 3, amx_vectors = 2;
inline constexpr bool amx_side_by_side = false;
// reduced_precision: one FMA and one AND per step, as for the FMA tile:
// 6 x 2 ymm (1.2x the rate of 4 x 2 on a Zen 3).
inline constexpr int reduced_rows = 6, reduced_vectors = 2;
// The block variant keeps a block of products per element (16 KiB); its
// second pass sums two rows at a time: 4 sums and 4 of 1/Q in registers,
// where the whole tile's 16 left none for the products (1.2x on a Zen 3).
inline constexpr int block_rows = 4, block_vectors = 2, block_sum_rows = 2;
inline constexpr bool has_bf16_pairs = false;
#include "generic/target_kernels.hpp"
}  // namespace mf::hybrid::kernels::avx2
MF_SIMD_REGION_END

// AVX-512: 6 rows x 4 zmm (24 accumulators, 4 of B and a broadcast in 32
// registers; 24 independent FMA chains hide the FMA latency): 6 x 64
// floats, 6 x 32 doubles.
MF_SIMD_REGION_BEGIN_AVX512
namespace mf::hybrid::kernels::avx512 {
using float_ops = simd::avx512::float_ops;
using double_ops = simd::avx512::double_ops;
using byte_ops = byte_dot_ops;
inline constexpr int rows = 6, vectors = 4;
// amx_tile_pairs keeps two chains per element: 4 x 3 zmm (24 of 32), and
// both k's B vectors of a pair with two broadcasts beside them.
inline constexpr int amx_rows = 4, amx_vectors = 3;
inline constexpr bool amx_side_by_side = true;
// reduced_precision: one partial register per element, as fma_tile's.
inline constexpr int reduced_rows = 6, reduced_vectors = 4;
// The block variant keeps a block of products per element (32 KiB); its
// 8 sums and 8 of 1/Q fit in the 32 registers at once.
inline constexpr int block_rows = 4, block_vectors = 2, block_sum_rows = 4;
inline constexpr bool has_bf16_pairs = true;
#include "generic/target_kernels.hpp"
}  // namespace mf::hybrid::kernels::avx512
MF_SIMD_REGION_END

// AVX512_BF16: the same 6 x 64 tile, each step a k-pair (VDPBF16PS).
MF_SIMD_REGION_BEGIN_AVX512_BF16
namespace mf::hybrid::kernels::avx512_bf16 {
#include "generic/fma_tile.hpp"
inline constexpr int rows = 6, vectors = 4;
inline void pair_kernel(const tile_args& t) noexcept { fma_tile<pair_ops, rows, vectors>(t); }
}  // namespace mf::hybrid::kernels::avx512_bf16
MF_SIMD_REGION_END

// AVX-VNNI: the integer tile of AVX2 (6 x 16), each step VPDPBUSD on ymm.
MF_SIMD_REGION_BEGIN_AVX_VNNI
namespace mf::hybrid::kernels::avx_vnni {
#include "generic/fma_tile.hpp"
inline constexpr int rows = 6, vectors = 2;
inline void byte_kernel(const tile_args& t) noexcept { fma_tile<byte_dot_ops, rows, vectors>(t); }
}  // namespace mf::hybrid::kernels::avx_vnni
MF_SIMD_REGION_END

// AVX512_VNNI: the integer tile of AVX-512 (6 x 64), each step VPDPBUSD.
MF_SIMD_REGION_BEGIN_AVX512_VNNI
namespace mf::hybrid::kernels::avx512_vnni {
#include "generic/fma_tile.hpp"
inline constexpr int rows = 6, vectors = 4;
inline void byte_kernel(const tile_args& t) noexcept { fma_tile<byte_dot_ops, rows, vectors>(t); }
}  // namespace mf::hybrid::kernels::avx512_vnni
MF_SIMD_REGION_END
#endif

namespace mf::hybrid::kernels {

namespace detail {

// The dispatch table's family of these kernels (target/dispatch.hpp).
struct target_family {
  // NEON and every ISA without its own kernels: scalar.
  template <target::isa I>
  static constexpr target_kernels row(target::isa_tag<I>) noexcept {
    return scalar::kernels_row();
  }
#if MF_HAS_X86_KERNELS
  static constexpr target_kernels row(target::isa_tag<target::isa::avx2>) noexcept {
    target_kernels row = avx2::kernels_row();
    static_assert(avx_vnni::rows == avx2::rows &&
                      avx_vnni::vectors * avx_vnni::byte_dot_ops::lanes ==
                          avx2::vectors * avx2::byte_ops::lanes,
                  "the AVX-VNNI tile has the shape of the AVX2 row's integer tile");
    row.vnni_bytes = &avx_vnni::byte_kernel;
    row.requantize = &avx2::requantize_row;
    row.limbs = {{&avx2_limbs::any_pair_kernel, avx2_limbs::rows},
                 {&avx2_limbs::narrow_a_kernel, avx2_limbs::rows},
                 {&avx2_limbs::narrow_b_kernel, avx2_limbs::rows},
                 avx2_limbs::lanes,
                 &avx2_limbs::pack_b_step,
                 &avx2_limbs::pack_a_row,
                 &detail::limb_row,
                 2 * sizeof(double),
                 false,
                 false};
    return row;
  }
  static constexpr target_kernels row(target::isa_tag<target::isa::avx512>) noexcept {
    target_kernels row = avx512::kernels_row();
#if MF_HAS_AVX512_KERNELS
    row.bf16_pairs = &avx512_bf16::pair_kernel;
    row.pair_rows = avx512_bf16::rows;
    row.pair_columns = avx512_bf16::vectors * avx512_bf16::pair_ops::lanes;
    static_assert(avx512_vnni::rows == avx512::rows &&
                      avx512_vnni::vectors * avx512_vnni::byte_dot_ops::lanes ==
                          avx512::vectors * avx512::byte_ops::lanes,
                  "the VNNI tile has the shape of the AVX-512 row's integer tile");
    row.vnni_bytes = &avx512_vnni::byte_kernel;
    row.requantize = &avx512::requantize_row;
    row.limbs = {{&avx512_ifma::limb_kernel, avx512_ifma::rows},
                 {},
                 {},
                 avx512_ifma::vectors * 8,
                 &avx512_ifma::pack_b_step,
                 &avx512_ifma::pack_a_row,
                 &avx512_ifma::limb_row,
                 sizeof(std::uint64_t),
                 true,
                 true};
#endif
    return row;
  }
#endif
};

}  // namespace detail
}  // namespace mf::hybrid::kernels

// minifloat::kernels compiles the MatMul tiles (target/dispatch.hpp's
// compiled_in_library).
template <>
struct mf::target::compiled_in_library<mf::hybrid::kernels::detail::target_family> {
  static constexpr bool value = true;
};

namespace mf::hybrid::kernels {
namespace detail {

inline target_kernels target_for(target::isa isa) noexcept {
  return target::kernels_of<target_family>(isa);
}

}  // namespace detail

// Longest K of the exact float64 sum of E4M3 products (generic/exact_tile.hpp),
// and so the longest chunk of the chunked kernel.
inline constexpr std::size_t exact_e4m3_max_k = std::size_t{1} << 17;

// Longest K for which chunked_exact's join of E4M3 x E4M3 chunks, acc + S, is
// exact in float64: K * 448^2 <= 2^33 (generic/exact_tile.hpp).
inline constexpr std::size_t chunked_join_exact_max_k = std::size_t{1} << 15;

namespace detail {

// The packing functions of an ISA for a layout (scalar where the ISA has none).
inline packers packers_for(target::isa isa, packing how) noexcept {
  const packers found = target_for(isa).pack(how);
  return found.b != nullptr ? found : scalar::packers_for(how);
}

}  // namespace detail

// The operand types of the reduced_precision kernel: products exact in
// float32, no product or sum a float32 subnormal (generic/reduced_tile.hpp);
// BF16 operands only where their values' range allows it, which
// fast_path.hpp reads from them (reduced_operands_fit).
constexpr bool reduced_operand(element_type t) noexcept {
  return t == element_type::hf8 || t == element_type::bf8 || t == element_type::f16 ||
         t == element_type::bf16;
}

// The steps of a model's run (chunk, promotion interval) as a K block
// holds them: a run longer than K is all of K, the same sums.
inline std::size_t run_steps(int length, std::size_t k) noexcept {
  return std::min(static_cast<std::size_t>(length), std::max<std::size_t>(k, 1));
}

// The exact sum of ta x tb as integers in two 52-bit limbs (limb_sum.hpp):
// any pair of E4M3, E5M2, FP16 and BF16 but E4M3 x E4M3 where the CPU has
// AVX512_IFMA; elsewhere, on AVX2's float64 pieces, the pairs with an FP16
// or a BF16 (FP8 pairs keep the split chains, split_kernel_for: measured on
// a Zen 3, 1.6-1.7x faster with an E4M3 operand, and no slower overall for
// E5M2 x E5M2, docs/performance.md). A BF16 operand's scale is read from
// its values by fast_path.hpp, which sends a BF16 matrix of too wide a span
// to the reference. run == nullptr elsewhere.
inline tile_kernel limb_kernel_for(const target_kernels& target, element_type ta, element_type tb,
                                   target::isa isa) noexcept {
  const bool e4m3 = ta == element_type::hf8 && tb == element_type::hf8;
  if (e4m3 || !detail::limb_operand(ta) || !detail::limb_operand(tb)) return {};
  limb_kernels limbs = target.limbs;
  const bool usable =
      limbs.tile.run != nullptr && (!limbs.needs_avx512ifma || target::optional_features_of(isa).avx512ifma);
  if (!usable) {
    if (isa != target::isa::avx512) return {};
    limbs = detail::target_for(target::isa::avx2).limbs;  // an AVX-512 CPU has AVX2
  }
  if (limbs.tile.run == nullptr || (!limbs.fp8_pairs && is_fp8(ta) && is_fp8(tb))) return {};
  limb_tile tile = limbs.tile;
  if (ta == element_type::hf8 && limbs.narrow_a.run != nullptr) tile = limbs.narrow_a;
  if (tb == element_type::hf8 && limbs.narrow_b.run != nullptr) tile = limbs.narrow_b;
  tile_kernel kernel{tile.rows, limbs.columns, tile.run, packing::offset_integers, true, 0, target.epilogue, {}};
  kernel.limbs = limbs;
  kernel.scale_a = detail::limb_scale(ta);
  kernel.scale_b = detail::limb_scale(tb);
  return kernel;
}

// `exact` and `chunked_exact` on FP8 operands with an E5M2 among them,
// split (split_sum.hpp; driver.hpp's "Split operands"): the float64 tile
// over half the rows and/or columns of C per split operand, the chunk step
// in the tile for chunked_exact (generic/exact_tile.hpp, which proves it
// for K below 2^40). With its packing, so that tests can run it where the
// limbs take these pairs; run == nullptr for other requests. The callers
// check K (exact) and the chunk against exact_e4m3_max_k.
inline tile_kernel split_kernel_for(const accumulation_model& model, element_type ta, element_type tb,
                                    std::size_t k, target::isa isa) noexcept {
  const target_kernels target = detail::target_for(isa);
  const bool split_a = ta == element_type::bf8, split_b = tb == element_type::bf8;
  if (!is_fp8(ta) || !is_fp8(tb) || !(split_a || split_b)) return {};
  tile_kernel kernel{target.rows, target.double_columns, target.exact, packing::float64, true, 0,
                     target.epilogue, detail::packers_for(isa, packing::float64)};
  if (model.kind == model_kind::chunked_exact) {
    if (static_cast<std::uint64_t>(k) >= (std::uint64_t{1} << 40)) return {};
    kernel.run = target.chunked;
    kernel.chunk = run_steps(model.chunk, k);
    kernel.rounding = model.rounding;
    kernel.presum_round = model.presum_round;
  } else if (model.kind != model_kind::exact) {
    return {};
  }
  kernel.split_a = split_a;
  kernel.split_b = split_b;
  kernel.rows /= static_cast<int>(split_factor(split_a));
  kernel.columns /= static_cast<int>(split_factor(split_b));
  return kernel;
}

// avx512_bf16_pairs without VDPBF16PS: sequential_fp32's tile over the k
// of each pair swapped (packing::float32_odd_first). Where the model's DAZ
// and FTZ cannot act (kernels::pairs_operands_fit), its step is one FMA
// rounded to nearest (Intel SDM, VDPBF16PS: each product of BF16 values is
// exact in float32, added to the accumulator with one rounding), odd k
// before even k, from +0. The padding of an odd K, the product +0 x +0
// added first, is left out: it would change only an accumulator of -0,
// which this chain never holds: its nonzero steps stay at or above 2^-126
// (pairs_operands_fit), so none rounds to a zero, and an exact zero sum
// (x + (-x), +0 + -0) is +0 under round to nearest. No chunk: the driver's
// K blocks are then an even number of k, so the pairs it swaps never
// straddle two blocks. With its packing, so that tests can run it on CPUs
// where the instruction takes the model.
inline tile_kernel bf16_pairs_on_fma_kernel_for(target::isa isa) noexcept {
  const target_kernels target = detail::target_for(isa);
  return {target.rows, target.float_columns, target.fma, packing::float32_odd_first, false, 0,
          target.epilogue, detail::packers_for(isa, packing::float32_odd_first)};
}

// Whether the kernels of `model` on a kernel set take placement::operands
// (the scales applied to the operands as they are packed: float32 operands
// a' = RN32(a * sa), b' = RN32(b * sb), as the reference forms them):
// sequential_fp32 (any float32 operands), and reduced_precision's seq
// variant where its step is a directed FMA (fast_path.hpp checks the
// scaled operands' range). The other kernels' proofs need products of the
// input types.
inline bool takes_scaled_operands(const accumulation_model& model, target::isa isa) noexcept {
  if (model.kind == model_kind::sequential_fp32) return true;
  return model.kind == model_kind::reduced_precision && model.variant == reduced_variant::seq &&
         detail::target_for(isa).reduced_directed;
}

// The micro-kernel of a model for operands ta x tb with K products on a
// kernel set; run == nullptr where there is none (the reference computes it).
inline tile_kernel micro_kernel_for(const accumulation_model& model, element_type ta,
                                    element_type tb, std::size_t k, target::isa isa) noexcept {
  const target_kernels target = detail::target_for(isa);
  const bool e4m3 = ta == element_type::hf8 && tb == element_type::hf8;
  switch (model.kind) {
    case model_kind::sequential_fp32:
      return {target.rows, target.float_columns, target.fma, packing::float32, false, 0,
              target.epilogue, {}};
    case model_kind::exact: {
      // E4M3 x E4M3 on one float64 chain. Any other pair on the limbs
      // where the CPU has them; otherwise E5M2 operands split
      // (split_sum.hpp), on the same register tile as E4M3: half the C rows
      // or columns per split operand. With exact_to_output the same sums,
      // carried exactly through the post-processing (driver.hpp).
      if (k > exact_e4m3_max_k) return {};
      if (const tile_kernel limbs = limb_kernel_for(target, ta, tb, isa); limbs.run != nullptr) return limbs;
      if (e4m3) {
        return {target.rows, target.double_columns, target.exact, packing::float64, true, 0, target.epilogue, {}};
      }
      return split_kernel_for(model, ta, tb, k, isa);
    }
    case model_kind::chunked_exact:
      if (model.chunk < 1 || static_cast<std::size_t>(model.chunk) > exact_e4m3_max_k) return {};
      if (!e4m3) {  // on the limbs, one chunk per K block (limb_sum.hpp), or split
        tile_kernel kernel = limb_kernel_for(target, ta, tb, isa);
        if (kernel.run == nullptr) return split_kernel_for(model, ta, tb, k, isa);
        if (k > detail::limb_chunked_max_k) return {};
        kernel.chunk = run_steps(model.chunk, k);
        kernel.rounding = model.rounding;
        kernel.presum_round = model.presum_round;
        return kernel;
      }
      {
        tile_kernel kernel{target.rows,
                           target.double_columns,
                           target.chunked,
                           packing::float64,
                           false,
                           run_steps(model.chunk, k),
                           target.epilogue,
                           {},
                           24,
                           truncation::toward_zero,
                           model.rounding,
                           model.presum_round};
        kernel.join_exact = k <= chunked_join_exact_max_k;
        return kernel;
      }
    case model_kind::amx_tile_pairs:
      // Plain FMAs (generic/amx_pairs_tile.hpp), on operands that cannot
      // reach the model's flushes (fast_path.hpp checks them). The guide
      // order is one chain over every k: sequential_fp32's recurrence.
      if (model.order == amx_order::guide) {
        return {target.rows, target.float_columns, target.fma, packing::float32, false, 0,
                target.epilogue, {}};
      }
      return {target.amx_rows, target.amx_columns, target.amx_pairs, packing::float32, false,
              static_cast<std::size_t>(model.chunk), target.epilogue, {}};
    case model_kind::avx512_bf16_pairs:
      // The instruction itself where the CPU has it; elsewhere plain FMAs,
      // on operands that cannot reach the model's flushes (fast_path.hpp
      // checks them).
      if (target.bf16_pairs != nullptr && target::optional_features_of(isa).avx512bf16) {
        return {target.pair_rows, target.pair_columns, target.bf16_pairs, packing::bf16_pairs,
                false, 0, target.epilogue, {}};
      }
      return bf16_pairs_on_fma_kernel_for(isa);
    case model_kind::reduced_precision:
      // Float32 lanes (generic/reduced_tile.hpp says why they are exact
      // for these operand types and bits <= 24); a run ends every
      // promote_every steps, which a K block holds whole.
      // The block variant: blocks of at most 64 (generic/reduced_block_tile.hpp).
      if (model.bits < 1 || model.bits > 24 || model.promote_every < 1 || !reduced_operand(ta) ||
          !reduced_operand(tb)) {
        return {};
      }
      if (model.variant == reduced_variant::seq) {
        return {target.reduced_rows, target.reduced_columns, target.reduced, packing::float32, false,
                run_steps(model.promote_every, k), target.epilogue, {}, model.bits, model.trunc};
      }
      if (model.block < 1 || model.block > 64) return {};
      return {target.block_rows,
              target.block_columns,
              target.reduced_block,
              packing::float32,
              false,
              run_steps(model.promote_every, k),
              target.epilogue,
              {},
              model.bits,
              model.trunc,
              fp32_rounding::nearest_even,
              false,
              static_cast<std::size_t>(model.block)};
    default: return {};
  }
}

// micro_kernel_for() with the ISA's packing for its layout.
inline tile_kernel kernel_for(const accumulation_model& model, element_type ta, element_type tb,
                              std::size_t k, target::isa isa) noexcept {
  tile_kernel kernel = micro_kernel_for(model, ta, tb, k, isa);
  if (kernel.operands != packing::offset_integers) {  // the limb kernels pack for themselves
    kernel.pack = detail::packers_for(isa, kernel.operands);
  }
  return kernel;
}

}  // namespace mf::hybrid::kernels
