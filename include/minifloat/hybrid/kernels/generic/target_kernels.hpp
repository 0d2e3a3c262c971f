// The kernels of one target, written once: the FP32 tile (sequential_fp32),
// the float64 tile (exact), the chunked tiles (chunked_exact), the
// reduced_precision tile, the element-wise arithmetic, the epilogue
// and the packers, over the target's vector operations: the generic tiles
// included here, and one entry per kernel. Included by targets.hpp inside
// each target's region and namespace, so that a new generic kernel is added
// here once for every target; no include guard, on purpose (nor in the
// tiles). The including namespace defines:
//   float_ops, double_ops   the target's vector operations (simd/...)
//   byte_ops                its integer MatMul step (byte_dot_ops.hpp)
//   rows, vectors           the register tile: rows x vectors vectors
//   amx_rows, amx_vectors   the amx_tile_pairs tile (two chains per element)
//   amx_side_by_side        whether its registers hold both k's B vectors of
//                           a pair beside the chains (generic/amx_pairs_tile.hpp)
//   reduced_rows, reduced_vectors  the reduced_precision tile (seq)
//   block_rows, block_vectors      its block variant's tile
//   block_sum_rows          the rows of that tile whose sums its second
//                           pass keeps in registers at once
//   has_bf16_pairs          whether float_ops packs the BF16 pair layout

#include "epilogue_span.hpp"
#include "eltwise_span.hpp"
#include "fma_tile.hpp"
#include "amx_pairs_tile.hpp"
#include "reduced_tile.hpp"
#include "reduced_block_tile.hpp"
#include "exact_tile.hpp"
#include "pack.hpp"

inline void epilogue_kernel(const scale_options& s, const float* acc, std::size_t i,
                            std::size_t first_column, std::size_t count, float* y3,
                            hybrid::detail::amax_tracker& amax) noexcept {
  epilogue_span<float_ops>(s, acc, i, first_column, count, y3, amax);
}
inline void eltwise_kernel(eltwise_op op, const float* a, const float* b, std::size_t b_step,
                           float sa, float sb, std::size_t count, float* out) noexcept {
  eltwise_span<float_ops>(op, a, b, b_step, sa, sb, count, out);
}
inline packers packers_for(packing how) noexcept {
  return packers_of<float_ops, double_ops, has_bf16_pairs>(how);
}
inline void fma_kernel(const tile_args& t) noexcept { fma_tile<float_ops, rows, vectors>(t); }
inline void exact_kernel(const tile_args& t) noexcept { fma_tile<double_ops, rows, vectors>(t); }
inline void amx_pairs_kernel(const tile_args& t) noexcept {
  amx_pairs_tile<float_ops, amx_rows, amx_vectors, amx_side_by_side>(t);
}
inline void byte_kernel(const tile_args& t) noexcept { fma_tile<byte_ops, rows, vectors>(t); }
inline void chunked_kernel(const tile_args& t) noexcept {
  chunked_exact_tile<double_ops, rows, vectors>(t);
}
inline void reduced_kernel(const tile_args& t) noexcept {
  reduced_seq_tile<float_ops, reduced_rows, reduced_vectors>(t);
}
inline void reduced_block_kernel(const tile_args& t) noexcept {
  reduced_block_tile<float_ops, block_rows, block_vectors, block_sum_rows>(t);
}
// The row of the dispatch table's family (target_family).
constexpr target_kernels kernels_row() noexcept {
  target_kernels row{rows,
          vectors * float_ops::lanes,
          vectors * double_ops::lanes,
          vectors * byte_ops::lanes,
          &fma_kernel,
          &exact_kernel,
          &chunked_kernel,
          &byte_kernel,
          &epilogue_kernel,
          &packers_for,
          &amx_pairs_kernel,
          amx_rows,
          amx_vectors * float_ops::lanes};
  row.reduced = &reduced_kernel;
  row.reduced_rows = reduced_rows;
  row.reduced_columns = reduced_vectors * float_ops::lanes;
  row.reduced_directed = float_ops::has_directed_fma || float_ops::has_rounding_control;
  row.reduced_block = &reduced_block_kernel;
  row.block_rows = block_rows;
  row.block_columns = block_vectors * float_ops::lanes;
  row.eltwise = &eltwise_kernel;
  return row;
}
