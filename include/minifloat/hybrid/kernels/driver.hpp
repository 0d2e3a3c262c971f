// The blocked MatMul loop around the micro-kernels (Goto and van de Geijn,
// "Anatomy of high-performance matrix multiplication", ACM TOMS 34(3),
// 2008; the BLIS loop nest): column panels of C, B packed once per panel
// for all of K, row blocks of A packed per K block, the float32
// accumulators carried between K blocks in a small workspace, then the
// epilogue of the finished block. The carried float IS the model's acc, so
// the blocking changes no bit.
//
// Memory, per thread and per call: B panel K x nc (at most 8 MiB unless one
// tile's width needs more), A block mc x kc,
// accumulators mc x nc (4-byte values, nc and mc rounded up to the tile;
// half the K steps with BF16 pairs; 8-byte values for the exact models,
// twice as many along an operand split in two, "Split operands" below),
// plus two rows of nc or kc floats, and for chunked_exact on the limbs the
// model's float32 acc (mc x nc) and one int64 column sum per column and
// chunk (at most the B panel's size): O(K * nc + mc * kc + mc * nc), never
// O(M * N). Each thread keeps its buffers for its next call.
//
// Split operands (the exact and chunked_exact models on E5M2,
// split_sum.hpp): a split operand's values are packed as two, the part
// >= 1 in magnitude and the part below 1, as if B had twice the columns
// (each micro-panel: its nr large parts, then its nr small parts) or A
// twice the rows (each micro-panel: its mr large rows, then its mr small
// rows). The tile runs unchanged over that doubled operand, and the
// epilogue first sums each element's chains (combined_chains); the chunked
// tile sums them after each chunk itself and keeps the model's acc in the
// element's first chain (split_chunked_accs).
//
// Limbs (the exact model on E5M2, FP16 and BF16 operands, limb_sum.hpp):
// the operands are packed as offset integers by the limb kernels' own
// packing, which sets their size (one uint64, or two float64 pieces on
// AVX2); each element has two accumulators laid out as two columns are
// along a split B (its low limb, then nr columns further its high limb),
// and the packing sums each row's and each column's integers: the last
// step's correction for the offset (combined_limbs). chunked_exact on the
// limbs: the packing sums
// each chunk's rows and columns, and the tile folds every element's chunk
// sum into its float32 acc after each chunk (limb_sum.hpp's chunk step),
// the acc kept in a workspace of its own.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <optional>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "../../config.hpp"
#include "../../target/float_environment.hpp"
#include "../amax.hpp"
#include "../exact_epilogue.hpp"
#include "../fp32_rounding.hpp"
#include "../matmul_options.hpp"
#include "instruction_nans.hpp"
#include "limb_sum.hpp"
#include "split_sum.hpp"
#include "targets.hpp"

namespace mf::hybrid::kernels {

// A matrix operand, read as decoded float32 values: `decode` widens
// elements [offset, offset + count) of the matrix at `base` (the library's
// bulk decoders, kernels/fast_path.hpp).
struct operand_reader {
  const void* base;
  std::size_t ld;
  void (*decode)(const void* base, std::size_t offset, std::size_t count, float* out);
  // Element `index` as the instruction reads it, a NaN with its payload
  // (decode_keeping_nan_payload), for nan_payload::propagate; may be null
  // where that is not asked for.
  detail::instruction_nans::element_function element_keeping_nan = nullptr;
};

// C of element type `type`: `encode` rounds count float32 values y3 into
// the output type and writes them to elements [offset, offset + count) of
// `base`; `store` (where not null) writes one output encoding to element
// `index`, for the models whose value reaches the output conversion
// unrounded (exact(true): exact_epilogue.hpp).
struct result_writer {
  void* base;
  std::size_t ld;
  void (*encode)(const float* values, std::size_t count, void* base, std::size_t offset,
                 const output_conversion& o);
  void (*store)(void* base, std::size_t index, std::uint32_t bits);
  element_type type;
};

// Block sizes (elements). nc is rounded up to the tile's columns, mc to its
// rows. kc * tile columns floats of B (256 KiB for AVX-512's 64 columns)
// and mc * kc of A stay in the L2 cache while the tiles of a block run. kc
// 1024 keeps K <= 1024 in one block (no accumulator carry through the
// workspace). Measured on Zen 4 (docs/performance.md, "Hybrid MatMul"): kc
// 1024 with mc 48 3-5% faster end to end at 1024^3 than kc 512, mc 96.
struct blocking {
  std::size_t mc = 48;
  std::size_t kc = 1024;
  std::size_t nc = 1024;
  std::size_t panel_bytes = std::size_t{8} << 20;
};

// The blocking for this CPU's L2 (target::detail::caches(), from CPUID):
// the A block (mc x kc floats) and a B micro-panel (kc x 64 floats) in at
// most half of it, mc a multiple of 48: 48 rows for a 1 MiB L2 (Zen 4),
// 192 for 2 MiB (Golden Cove; measured in docs/performance.md). An unknown
// L2 keeps 48.
inline blocking blocking_for_this_cpu() noexcept {
  blocking b;
  const std::size_t l2 = target::detail::caches().l2;
  const std::size_t b_panel = b.kc * 64 * sizeof(float);
  const std::size_t a_row = b.kc * sizeof(float);
  if (l2 / 2 > b_panel) {
    const std::size_t rows = (l2 / 2 - b_panel) / a_row / 48 * 48;
    if (rows > b.mc) b.mc = rows < 384 ? rows : 384;
  }
  return b;
}

inline const blocking& default_blocking() noexcept {
  static const blocking b = blocking_for_this_cpu();
  return b;
}

namespace detail {

inline std::size_t round_up(std::size_t x, std::size_t to) noexcept { return (x + to - 1) / to * to; }

// Uninitialised storage, 64-byte aligned (a cache line, a zmm register),
// that keeps its capacity: every element is written before it is read.
class aligned_buffer {
 public:
  aligned_buffer() = default;
  ~aligned_buffer() { release(); }
  aligned_buffer(const aligned_buffer&) = delete;
  aligned_buffer& operator=(const aligned_buffer&) = delete;

  // At least `bytes` bytes; the old contents are not kept.
  void reserve(std::size_t bytes) {
    if (bytes <= capacity_) return;
    release();
    data_ = ::operator new[](bytes, std::align_val_t{64});
    capacity_ = bytes;
  }
  template <class T>
  T* as() noexcept {
    return static_cast<T*>(data_);
  }

 private:
  void release() noexcept {
    if (data_ != nullptr) ::operator delete[](data_, std::align_val_t{64});
    data_ = nullptr;
    capacity_ = 0;
  }
  void* data_ = nullptr;
  std::size_t capacity_ = 0;
};

// A thread's packing buffers, kept between calls (and freed when the thread
// ends): a fresh multi-megabyte allocation per call costs page faults that
// took a quarter of a 256^3 MatMul's time.
struct packing_buffers {
  aligned_buffer b_panel, a_block, accumulators, row, second_row, split_row, operand_sums, model_acc;
};

inline packing_buffers& this_thread_buffers() {
  thread_local packing_buffers buffers;
  return buffers;
}

// work(w) for w in [0, workers): worker 0 on the calling thread, the others
// on std::threads (or on the calling thread too when no thread can be
// started); the first exception of a worker is rethrown after all ended.
template <class Work>
void run_on_threads(std::size_t workers, const Work& work) {
  std::vector<std::exception_ptr> errors(workers);
  const auto guarded = [&](std::size_t w) {
    try {
      work(w);
    } catch (...) {
      errors[w] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  pool.reserve(workers > 0 ? workers - 1 : 0);
  for (std::size_t w = 1; w < workers; ++w) {
    try {
      pool.emplace_back(guarded, w);
    } catch (const std::system_error&) {
      guarded(w);  // no thread to be had: the same items on this one
    }
  }
  if (workers > 0) guarded(0);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors) {
    if (e) std::rethrow_exception(e);
  }
}

struct problem {
  operand_reader a;
  operand_reader b;
  result_writer c;
  std::size_t m, n, k;
  const matmul_options* options;
  // amx_tile_pairs on an FP16 operand (TDPFP16PS: inputs without DAZ), for
  // the NaN elements of nan_payload::propagate (instruction_nans.hpp).
  bool fp16_instruction = false;
};

inline std::size_t packed_value_bytes(const tile_kernel& kernel) noexcept {
  if (kernel.operands == packing::offset_integers) return kernel.limbs.value_bytes;
  return kernel.operands == packing::float64 ? 8 : 4;
}

// The blocking with fewer rows per A block where a kernel's runs (chunk,
// promotion interval) are longer than kc, so that K blocks hold whole runs:
// the A block (mc x the K block) stays within panel_bytes.
inline blocking fitted_blocking(const tile_kernel& kernel, blocking b) noexcept {
  if (kernel.chunk <= b.kc) return b;
  const std::size_t rows = std::max<std::size_t>(1, b.panel_bytes / (kernel.chunk * packed_value_bytes(kernel)));
  b.mc = std::max(static_cast<std::size_t>(kernel.rows), std::min(b.mc, rows));
  return b;
}

// The columns of one panel: nc, fewer for a long K (panel_bytes), whole tiles.
inline std::size_t panel_columns(const tile_kernel& kernel, const problem& p, const blocking& b) noexcept {
  const auto nr = static_cast<std::size_t>(kernel.columns);
  const std::size_t step_bytes =
      std::max<std::size_t>(p.k, 1) * packed_value_bytes(kernel) * split_factor(kernel.split_b);
  const std::size_t fitting = std::max(nr, b.panel_bytes / step_bytes / nr * nr);
  return round_up(std::min({b.nc, p.n, fitting}), nr);
}

// One thread's buffers and the blocks it computes. Sizes in steps: a step
// is one k, or one k-pair (bf16_pairs); kc is a multiple of the kernel's
// chunk where it has one (chunked_exact, amx_tile_pairs, reduced_precision),
// else even, so K blocks start at chunk boundaries, and at pair boundaries
// for the kernels without a chunk that pair k (bf16_pairs,
// float32_odd_first).
class block_worker {
 public:
  block_worker(const tile_kernel& kernel, const problem& p, const blocking& b)
      : kernel_(kernel),
        p_(p),
        per_step_(kernel.operands == packing::bf16_pairs ? 2 : 1),
        value_bytes_(packed_value_bytes(kernel)),
        acc_bytes_(kernel.wide_accumulators ? 8 : 4),
        steps_((p.k + per_step_ - 1) / per_step_),
        mr_(static_cast<std::size_t>(kernel.rows)),
        nr_(static_cast<std::size_t>(kernel.columns)),
        sa_(split_factor(kernel.split_a)),
        sb_(split_factor(kernel.split_b)),
        limbs_(kernel.operands == packing::offset_integers),
        odd_first_(kernel.operands == packing::float32_odd_first),
        exact_to_output_(p.options->model.kind == model_kind::exact && p.options->model.exact_to_output),
        instruction_nans_(p.options->model.nans == nan_payload::propagate),
        chunked_limbs_(limbs_ && kernel.chunk != 0),
        acc_b_(limbs_ ? 2 : sb_),
        mc_(round_up(std::min(b.mc, p.m), mr_)),
        kc_(kernel.chunk != 0 ? std::max<std::size_t>(1, b.kc / kernel.chunk) * kernel.chunk
                              : round_up(std::min(b.kc, std::max<std::size_t>(p.k, 1)), 2)),
        nc_(panel_columns(kernel, p, b)),
        b_panel_(this_thread_buffers().b_panel),
        a_block_(this_thread_buffers().a_block),
        accumulators_(this_thread_buffers().accumulators),
        row_(this_thread_buffers().row),
        second_row_(this_thread_buffers().second_row),
        split_row_(this_thread_buffers().split_row),
        operand_sums_(this_thread_buffers().operand_sums),
        model_acc_(this_thread_buffers().model_acc) {
    b_panel_.reserve(steps_ * sb_ * nc_ * value_bytes_);
    a_block_.reserve(sa_ * mc_ * kc_ * value_bytes_);
    accumulators_.reserve(sa_ * mc_ * acc_b_ * nc_ * acc_bytes_);
    row_.reserve(std::max(kc_, nc_) * sizeof(float));
    second_row_.reserve(sb_ * nc_ * sizeof(float));
    if (sa_ * sb_ > 1) split_row_.reserve(std::max(kc_, nc_) * 2 * sizeof(float));
    if (limbs_) operand_sums_.reserve((mc_ * row_sum_sets() + nc_ * sum_blocks()) * sizeof(std::int64_t));
    if (chunked_limbs_) model_acc_.reserve(mc_ * nc_ * sizeof(float));
  }

  // C[rows, columns), rows within one row range, columns within one panel.
  void run(std::size_t row_begin, std::size_t row_end, std::size_t col_begin, std::size_t col_end) {
    const std::size_t columns = col_end - col_begin;
    const std::size_t padded_columns = round_up(columns, nr_);
    pack_b(col_begin, columns, padded_columns);
    auto* panel = b_panel_.as<unsigned char>();
    auto* block = a_block_.as<unsigned char>();
    auto* acc = accumulators_.as<unsigned char>();
    for (std::size_t ic = row_begin; ic < row_end; ic += mc_) {
      const std::size_t rows = std::min(mc_, row_end - ic);
      const std::size_t padded_rows = round_up(rows, mr_);
      if (p_.k == 0) {
        std::fill(acc, acc + sa_ * mc_ * acc_b_ * nc_ * acc_bytes_, static_cast<unsigned char>(0));  // +0
        if (limbs_) std::fill(row_sums(), row_sums() + mc_ + nc_, std::int64_t{0});  // and no operand
        if (chunked_limbs_) std::fill(model_acc_.as<float>(), model_acc_.as<float>() + mc_ * nc_, 0.0f);
      }
      for (std::size_t pc = 0; pc < p_.k; pc += kc_) {
        const std::size_t depth = std::min(kc_, p_.k - pc);
        const std::size_t block_steps = (depth + per_step_ - 1) / per_step_;
        pack_a(ic, rows, padded_rows, pc, depth, block_steps);
        for (std::size_t jr = 0; jr < padded_columns; jr += nr_) {
          const void* b = panel + (sb_ * (jr * steps_ + pc / per_step_ * nr_)) * value_bytes_;
          for (std::size_t ir = 0; ir < padded_rows; ir += mr_) {
            limb_chunk_sums chunk_sums{};
            if (chunked_limbs_) {
              chunk_sums = {row_sums() + ir,        mc_,
                            column_sums(pc / kernel_.chunk) + jr, nc_,
                            model_acc_.as<float>() + ir * nc_ + jr, nc_,
                            kernel_.scale_a + kernel_.scale_b};
            }
            const tile_args args{block + sa_ * ir * block_steps * value_bytes_,
                                 b,
                                 acc + (sa_ * ir * acc_b_ * nc_ + acc_b_ * jr) * acc_bytes_,
                                 acc_b_ * nc_,
                                 block_steps,
                                 pc == 0,
                                 kernel_.chunk,
                                 kernel_.bits,
                                 kernel_.trunc,
                                 kernel_.rounding,
                                 kernel_.presum_round,
                                 kernel_.block,
                                 kernel_.split_a,
                                 kernel_.split_b,
                                 chunked_limbs_ ? &chunk_sums : nullptr,
                                 kernel_.operands_finite,
                                 kernel_.join_exact};
            kernel_.run(args);
          }
        }
      }
      finish(ic, rows, col_begin, columns);
    }
  }

  const hybrid::detail::amax_tracker& amax() const noexcept { return amax_; }

 private:
  // placement::operands: the scales apply to the operands as they are
  // packed, as the reference scales them before the sum.
  bool scales_operands() const noexcept {
    return p_.options->scales.where == placement::operands;
  }

  // The k packed at step position `p` (packing::float32_odd_first: the
  // other k of its pair, where K has it).
  std::size_t packed_k(std::size_t p) const noexcept {
    return odd_first_ && (p ^ 1) < p_.k ? p ^ 1 : p;
  }

  // B[0..K, col_begin + [0, columns)) as micro-panels of nr columns, each
  // `steps` steps of nr values; columns past the end are +0, and so is the
  // odd k of an odd K's last pair. Decoded (and scaled) here one row at a
  // time, laid out by the target's kernel.pack.b.
  void pack_b(std::size_t col_begin, std::size_t columns, std::size_t padded_columns) {
    float* row = row_.as<float>();
    float* odd = second_row_.as<float>();
    for (std::size_t step = 0; step < steps_; ++step) {
      const std::size_t p = step * per_step_;
      p_.b.decode(p_.b.base, packed_k(p) * p_.b.ld + col_begin, columns, row);
      if (scales_operands()) {
        const scale_options& sc = p_.options->scales;
        for (std::size_t j = 0; j < columns; ++j) {
          row[j] = row[j] * (sc.b_columns ? sc.b_columns[col_begin + j] : sc.b);  // b' = RN32(b * sb)
        }
      }
      if (limbs_) {
        std::int64_t* sums = column_sums(chunked_limbs_ ? step / kernel_.chunk : 0);
        if (step == 0 || (chunked_limbs_ && step % kernel_.chunk == 0)) {
          std::fill(sums, sums + padded_columns, std::int64_t{0});  // the tiles read the padding's too
        }
        kernel_.limbs.pack_b(row, columns, padded_columns, nr_, steps_, step, kernel_.scale_b,
                             b_panel_.as<unsigned char>(), sums);
        continue;
      }
      const bool has_odd = per_step_ == 2 && p + 1 < p_.k;
      if (has_odd) p_.b.decode(p_.b.base, (p + 1) * p_.b.ld + col_begin, columns, odd);
      if (sb_ > 1) {
        // Split: per micro-panel, the nr parts >= 1 in magnitude, then the
        // nr parts below 1; the panel is that of 2 x padded_columns columns.
        float* split = split_row_.as<float>();
        for (std::size_t j = 0; j < padded_columns; ++j) {
          const float v = j < columns ? row[j] : 0.0f;
          const std::size_t at = (j / nr_) * 2 * nr_ + j % nr_;
          split[at] = std::fabs(v) >= 1.0f ? v : 0.0f;
          split[at + nr_] = std::fabs(v) >= 1.0f ? 0.0f : v;
        }
        kernel_.pack.b(split, nullptr, 2 * padded_columns, 2 * padded_columns, 2 * nr_, steps_, step,
                       b_panel_.as<unsigned char>());
        continue;
      }
      kernel_.pack.b(row, has_odd ? odd : nullptr, columns, padded_columns, nr_, steps_, step,
                     b_panel_.as<unsigned char>());
    }
  }

  // A[ic + [0, rows), pc + [0, depth)) as micro-panels of mr rows, each
  // block_steps steps of mr values; rows past the end are +0.
  void pack_a(std::size_t ic, std::size_t rows, std::size_t padded_rows, std::size_t pc,
              std::size_t depth, std::size_t block_steps) {
    float* row = row_.as<float>();
    auto* block = a_block_.as<unsigned char>();
    for (std::size_t i = 0; i < padded_rows; ++i) {
      // Split: the row's parts >= 1 in magnitude at its place in a
      // micro-panel of 2 x mr rows, its parts below 1 mr rows further.
      const std::size_t panel_rows = sa_ * mr_;
      unsigned char* tile = block + ((i / mr_) * panel_rows * block_steps + i % mr_) * value_bytes_;
      unsigned char* small_tile = tile + mr_ * value_bytes_;
      if (limbs_) {
        pack_a_limbs(i < rows ? ic + i : p_.m, i, pc, depth, block_steps, tile);
        continue;
      }
      if (i >= rows) {
        kernel_.pack.a(nullptr, depth, block_steps, panel_rows, tile);
        if (sa_ > 1) kernel_.pack.a(nullptr, depth, block_steps, panel_rows, small_tile);
        continue;
      }
      p_.a.decode(p_.a.base, (ic + i) * p_.a.ld + pc, depth, row);
      if (odd_first_) {  // pc is even (kc is); a pair cut by K's end keeps its one k
        for (std::size_t q = 0; q + 1 < depth; q += 2) std::swap(row[q], row[q + 1]);
      }
      if (sa_ > 1) {
        float* small = split_row_.as<float>();
        for (std::size_t q = 0; q < depth; ++q) {
          const bool large = std::fabs(row[q]) >= 1.0f;
          small[q] = large ? 0.0f : row[q];
          row[q] = large ? row[q] : 0.0f;
        }
        kernel_.pack.a(row, depth, block_steps, panel_rows, tile);
        kernel_.pack.a(small, depth, block_steps, panel_rows, small_tile);
        continue;
      }
      if (scales_operands()) {
        const scale_options& sc = p_.options->scales;
        const float sa = sc.a_rows ? sc.a_rows[ic + i] : sc.a;
        for (std::size_t q = 0; q < depth; ++q) row[q] = row[q] * sa;  // a' = RN32(a * sa)
      }
      kernel_.pack.a(row, depth, block_steps, mr_, tile);
    }
  }

  // Row `row` of A (p_.m: a padding row of +0's), row i of the block, as
  // offset integers, with the sum of its integers: over all of K, or for
  // chunked_exact per chunk of the block (row_sums() + c * mc_ for its
  // chunk c), which the tile reads for the padding rows too.
  void pack_a_limbs(std::size_t row, std::size_t i, std::size_t pc, std::size_t depth, std::size_t block_steps,
                    unsigned char* tile) {
    float* values = nullptr;
    if (row < p_.m) {
      values = row_.as<float>();
      p_.a.decode(p_.a.base, row * p_.a.ld + pc, depth, values);
    }
    if (!chunked_limbs_) {
      const std::int64_t sum = kernel_.limbs.pack_a(values, depth, block_steps, mr_, kernel_.scale_a, tile);
      row_sums()[i] = (pc == 0 ? 0 : row_sums()[i]) + sum;
      return;
    }
    for (std::size_t c = 0, q = 0; q < depth; ++c, q += kernel_.chunk) {
      const std::size_t length = std::min(kernel_.chunk, depth - q);
      row_sums()[c * mc_ + i] = kernel_.limbs.pack_a(values == nullptr ? nullptr : values + q, length, length, mr_,
                                                     kernel_.scale_a, tile + q * mr_ * value_bytes_);
    }
  }

  // The epilogue of every finished element, then the output conversion of
  // each row. Float64 accumulators (the exact sum) are rounded to float32
  // first, once, to nearest even.
  void finish(std::size_t ic, std::size_t rows, std::size_t col_begin, std::size_t columns) {
    float* y3 = row_.as<float>();
    for (std::size_t i = 0; i < rows; ++i) {
      const float* acc = accumulators_.as<float>() + i * nc_;
      if (chunked_limbs_) {
        acc = model_acc_.as<float>() + i * nc_;
      } else if (limbs_) {
        acc = combined_limbs(i, columns);
      } else if (sa_ * sb_ > 1 && kernel_.chunk != 0) {
        acc = split_chunked_accs(i, columns);
      } else if (sa_ * sb_ > 1) {
        acc = combined_chains(i, columns);
      } else if (acc_bytes_ == 8) {
        const double* wide = accumulators_.as<double>() + i * nc_;
        float* narrowed = second_row_.as<float>();
        for (std::size_t j = 0; j < columns; ++j) narrowed[j] = static_cast<float>(wide[j]);
        acc = narrowed;
      }
      if (exact_to_output_) {
        finish_exact_to_output(ic + i, i, col_begin, columns, acc);
        continue;
      }
      if (instruction_nans_) acc = with_instruction_nans(ic + i, col_begin, columns, acc);
      kernel_.epilogue(p_.options->scales, acc, ic + i, col_begin, columns, y3, amax_);
      if (instruction_nans_) hybrid::detail::keep_accumulator_nans(acc, columns, y3);
      p_.c.encode(y3, columns, p_.c.base, (ic + i) * p_.c.ld + col_begin, p_.options->output);
    }
  }

  // nan_payload::propagate (the pairs models, whose accumulators are one
  // float32 row here): the accumulators of row `row`, in a copy where one is
  // NaN, each NaN the instruction's (instruction_nans.hpp); the others keep
  // the kernel's value, which is the model's.
  const float* with_instruction_nans(std::size_t row, std::size_t col_begin, std::size_t columns,
                                     const float* acc) {
    std::size_t j = 0;
    while (j < columns && !std::isnan(acc[j])) ++j;
    if (j == columns) return acc;
    if (!nans_) {
      nans_.emplace(p_.options->model, p_.fp16_instruction,
                    instruction_nans::matrix{p_.a.base, p_.a.ld, p_.a.element_keeping_nan},
                    instruction_nans::matrix{p_.b.base, p_.b.ld, p_.b.element_keeping_nan}, p_.n, p_.k);
    }
    float* recomputed = second_row_.as<float>();
    std::copy(acc, acc + columns, recomputed);
    for (; j < columns; ++j) {
      if (std::isnan(acc[j])) recomputed[j] = nans_->element(row, col_begin + j);
    }
    return recomputed;
  }

  // exact(true): row `row` of C (row i of the block) element by element,
  // each exact sum carried through the post-processing and rounded once to
  // the output type (exact_epilogue.hpp), as the reference does; acc holds
  // the sums rounded to float32, the float32 path's fallback.
  void finish_exact_to_output(std::size_t row, std::size_t i, std::size_t col_begin, std::size_t columns,
                              const float* acc) {
    const matmul_options& o = *p_.options;
    double terms[4];
    for (std::size_t j = 0; j < columns; ++j) {
      const std::size_t column = col_begin + j;
      const std::size_t n = exact_terms_of(i, j, terms);
      const double value = hybrid::detail::exact_output_value(terms, n, acc[j], o.scales, row, column, amax_);
      const std::uint32_t bits =
          hybrid::detail::encode_output(p_.c.type, value, o.output, o.output.offset + row * p_.n + column);
      p_.c.store(p_.c.base, row * p_.c.ld + column, bits);
    }
  }

  // Element (i, j)'s exact sum as float64 terms, each exact, from its
  // accumulators: one float64 chain, the chains of split operands, or the
  // two terms of its limbs. Returns how many.
  std::size_t exact_terms_of(std::size_t i, std::size_t j, double* terms) {
    if (!limbs_) return chains_of(i, j, terms);
    const std::uint64_t* low = accumulators_.as<std::uint64_t>() + i * acc_b_ * nc_ + (j / nr_) * 2 * nr_ + j % nr_;
    const limb_terms t = limb_terms_of(limb_parts_of(low[0], low[nr_], row_sums()[i] + column_sums(0)[j], p_.k),
                                       kernel_.scale_a + kernel_.scale_b);
    terms[0] = t.c0;
    terms[1] = t.c1;
    return 2;
  }

  // Where element (i, j)'s chain of its row part ca and column part cb lies
  // among the float64 accumulators (split_sum.hpp's order; 0, 0 unsplit).
  std::size_t chain_index(std::size_t i, std::size_t j, std::size_t ca, std::size_t cb) const noexcept {
    const std::size_t row = (i / mr_) * sa_ * mr_ + ca * mr_ + i % mr_;
    return row * sb_ * nc_ + (j / nr_) * sb_ * nr_ + cb * nr_ + j % nr_;
  }

  // Element (i, j)'s float64 chains: sa x sb of them for split operands
  // (split_sum.hpp's order), else its one accumulator. Returns how many.
  std::size_t chains_of(std::size_t i, std::size_t j, double* chains) {
    const double* acc = accumulators_.as<double>();
    std::size_t n = 0;
    for (std::size_t ca = 0; ca < sa_; ++ca) {
      for (std::size_t cb = 0; cb < sb_; ++cb) chains[n++] = acc[chain_index(i, j, ca, cb)];
    }
    return n;
  }

  // Row i's exact sums of split operands, each rounded once to float32
  // (split_sum.hpp), from the sa x sb chains of each element.
  const float* combined_chains(std::size_t i, std::size_t columns) {
    float* out = second_row_.as<float>();
    double chains[4];
    for (std::size_t j = 0; j < columns; ++j) out[j] = split_chains_to_fp32(chains, chains_of(i, j, chains));
    return out;
  }

  // Row i's float32 acc of chunked_exact on split operands, which the tile
  // keeps in each element's first chain (generic/exact_tile.hpp).
  const float* split_chunked_accs(std::size_t i, std::size_t columns) {
    float* out = second_row_.as<float>();
    const double* acc = accumulators_.as<double>();
    for (std::size_t j = 0; j < columns; ++j) out[j] = static_cast<float>(acc[chain_index(i, j, 0, 0)]);  // exact
    return out;
  }

  // Row i's exact sums from its limbs (limb_sum.hpp), each rounded once to
  // float32.
  const float* combined_limbs(std::size_t i, std::size_t columns) {
    float* out = second_row_.as<float>();
    kernel_.limbs.finish_row(accumulators_.as<std::uint64_t>() + i * acc_b_ * nc_, nr_, row_sums()[i],
                             column_sums(0), p_.k, kernel_.scale_a + kernel_.scale_b, columns, out);
    return out;
  }

  // The sums of the operands' integers that limb_sum.hpp corrects by: per
  // row of the A block (over all of K, or one set per chunk of the current
  // K block for chunked_exact), then per column of the B panel (over all of
  // K, or one set per chunk for chunked_exact).
  std::size_t row_sum_sets() const noexcept { return chunked_limbs_ ? kc_ / kernel_.chunk : 1; }
  std::size_t sum_blocks() const noexcept {
    return chunked_limbs_ ? std::max<std::size_t>(1, (p_.k + kernel_.chunk - 1) / kernel_.chunk) : 1;
  }
  std::int64_t* row_sums() noexcept { return operand_sums_.as<std::int64_t>(); }
  std::int64_t* column_sums(std::size_t set) noexcept {
    return operand_sums_.as<std::int64_t>() + mc_ * row_sum_sets() + set * nc_;
  }

  tile_kernel kernel_;
  const problem& p_;
  std::size_t per_step_, value_bytes_, acc_bytes_, steps_, mr_, nr_, sa_, sb_;
  bool limbs_, odd_first_, exact_to_output_, instruction_nans_, chunked_limbs_;
  std::size_t acc_b_;  // accumulators per element along B: sb_, or the two limbs
  std::size_t mc_, kc_, nc_;
  aligned_buffer &b_panel_, &a_block_, &accumulators_, &row_, &second_row_, &split_row_, &operand_sums_,
      &model_acc_;
  hybrid::detail::amax_tracker amax_;
  std::optional<instruction_nans> nans_;  // made on the first NaN element
};

}  // namespace detail

// C = epilogue(A x B) with the sequential_fp32 micro-kernel `kernel`, on
// options.threads threads. Work items are (column panel, row range) pairs;
// with fewer panels than threads, M is also split (in multiples of mc). Each
// element is computed by one thread exactly as with one thread.
inline void run_blocked(const tile_kernel& kernel, const detail::problem& p,
                        const blocking& requested = default_blocking()) {
  const blocking b = detail::fitted_blocking(kernel, requested);
  hybrid::detail::amax_tracker amax;
  if (p.m != 0 && p.n != 0) {
    const std::size_t nc = detail::panel_columns(kernel, p, b);
    const std::size_t mc = detail::round_up(std::min(b.mc, p.m), static_cast<std::size_t>(kernel.rows));
    const std::size_t panels = (p.n + nc - 1) / nc;
    const std::size_t threads = std::max<std::size_t>(p.options->threads, 1);
    const std::size_t row_blocks = (p.m + mc - 1) / mc;
    const std::size_t row_groups = std::min(row_blocks, std::max<std::size_t>(1, (threads + panels - 1) / panels));
    const std::size_t group_rows = detail::round_up((p.m + row_groups - 1) / row_groups, mc);
    const std::size_t items = panels * row_groups;
    const std::size_t workers = std::min(threads, items);
    std::vector<hybrid::detail::amax_tracker> partial(workers);
    detail::run_on_threads(workers, [&](std::size_t w) {
      // Set here too: a new thread's environment is the caller's where the
      // platform passes it on (C++ [cfenv.thread]), not everywhere.
      target::in_default_float_environment([&] {
        detail::block_worker worker(kernel, p, b);
        for (std::size_t item = w; item < items; item += workers) {
          const std::size_t panel = item / row_groups, group = item % row_groups;
          const std::size_t row_begin = std::min(p.m, group * group_rows);
          const std::size_t row_end = std::min(p.m, row_begin + group_rows);
          if (row_begin == row_end) continue;
          worker.run(row_begin, row_end, panel * nc, std::min(p.n, (panel + 1) * nc));
        }
        partial[w] = worker.amax();
      });
    });
    for (const hybrid::detail::amax_tracker& x : partial) amax.merge(x);
  }
  if (p.options->amax) *p.options->amax = amax.value();
}

}  // namespace mf::hybrid::kernels
