// The integer MatMul (I8 x I8 -> I8, U8 x U8 -> U8) on the byte tiles
// (byte_dot_ops.hpp): C = requantize(A x B), the int32 accumulators
// wrapping modulo 2^32 as the reference's (hybrid/matmul.hpp), then the
// shared requantization (hybrid/requantize.hpp).
//
// The tiles multiply unsigned bytes of A by signed bytes of B (VPDPBUSD's
// operand types). Both operand types are moved into that form exactly,
// modulo 2^32:
//   I8 x I8:  a*b = (a + 128)*b - 128*b, so A is packed as a + 128 (the
//             byte XOR 0x80) and -128 * (column sum of B) is added;
//   U8 x U8:  a*b = a*(b - 128) + 128*a, so B is packed as b - 128 (the
//             byte XOR 0x80) and 128 * (row sum of A) is added.
// K is padded to a multiple of 4 with zero bytes in both packed operands
// (products 0). Integer addition modulo 2^32 is associative, so the
// blocking and the tile shape change no bit.
//
// Loop nest as kernels/driver.hpp's (Goto and van de Geijn, ACM TOMS
// 34(3), 2008): B packed once for all of K and N (shared by the threads,
// read only), row blocks of A packed per thread, K blocks of kc words so a
// micro-panel of B stays in the L1 cache, the int32 accumulators of one row
// block carried between K blocks, then the requantization of the block.
// Memory: K * N bytes for B (rounded up to the tile), per thread
// mc * K bytes of A and mc * N int32: O(K * N + threads * mc * (K + N)).
#pragma once

#include <algorithm>
#include <cfenv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../element_type.hpp"
#include "../requantize.hpp"
#include "driver.hpp"
#include "targets.hpp"

namespace mf::hybrid::kernels {

// Elements [offset, offset + count) of an operand as bytes (the low 8 bits
// of each element's encoding).
struct byte_reader {
  const void* base;
  std::size_t ld;
  void (*read)(const void* base, std::size_t offset, std::size_t count, std::uint8_t* out);
};

// count output bytes into elements [offset, offset + count) of C.
struct byte_writer {
  void* base;
  std::size_t ld;
  void (*write)(const std::uint8_t* bytes, std::size_t count, void* base, std::size_t offset);
};

struct integer_problem {
  byte_reader a;
  byte_reader b;
  byte_writer c;
  std::size_t m, n, k;
  bool is_signed;  // I8 x I8 -> I8; else U8 x U8 -> U8
  const matmul_options* options;
};

namespace detail {

// The byte tile of an ISA: VPDPBUSD where the CPU has it for the ISA's
// registers (AVX512_VNNI for zmm, AVX-VNNI for ymm).
struct integer_kernels {
  tile_kernel tile;
  requantize_function requantize;  // null: the scalar rule
};

inline integer_kernels integer_kernels_for(target::isa isa) noexcept {
  const target_kernels t = target_for(isa);
  integer_kernels k;
  k.tile.rows = t.rows;
  k.tile.columns = t.byte_columns;
  const target::optional_features& f = target::optional_features_of(isa);
  const bool vnni = t.vnni_bytes != nullptr && (isa == target::isa::avx512 ? f.avx512vnni : f.avxvnni);
  k.tile.run = vnni ? t.vnni_bytes : t.bytes;
  k.requantize = t.requantize;
  return k;
}

// Four bytes (k, k+1, k+2, k+3) as one word, byte 0 lowest.
inline std::int32_t word_of(const std::uint8_t* four) noexcept {
  const std::uint32_t w = four[0] | (std::uint32_t{four[1]} << 8) | (std::uint32_t{four[2]} << 16) |
                          (std::uint32_t{four[3]} << 24);
  return static_cast<std::int32_t>(w);
}

class integer_plan {
 public:
  integer_plan(const integer_kernels& kernels, const integer_problem& p)
      : kernel_(kernels.tile),
        requantize_(kernels.requantize),
        p_(p),
        mr_(static_cast<std::size_t>(kernels.tile.rows)),
        nr_(static_cast<std::size_t>(kernels.tile.columns)),
        words_((p.k + 3) / 4),
        padded_n_(round_up(std::max<std::size_t>(p.n, 1), nr_)) {}

  // B as micro-panels of nr columns, each `words_` steps of nr words, and
  // the per-column correction (I8) or zeros (U8). Four rows of B at a time
  // make one step of words.
  void pack_b() {
    b_panel_.assign(padded_n_ * words_, 0);
    column_correction_.assign(p_.n, 0u);
    std::vector<std::uint8_t> rows(4 * p_.n);
    std::vector<std::uint32_t> column_sum(p_.n, 0u);  // modulo 2^32, as the sums
    const std::uint8_t flip = p_.is_signed ? 0x00 : 0x80;
    for (std::size_t w = 0; w < words_; ++w) {
      const std::size_t depth = std::min<std::size_t>(4, p_.k - 4 * w);
      std::fill(rows.begin(), rows.end(), flip);  // a missing k packs as 0
      for (std::size_t q = 0; q < depth; ++q) {
        std::uint8_t* row = rows.data() + q * p_.n;
        p_.b.read(p_.b.base, (4 * w + q) * p_.b.ld, p_.n, row);
        if (p_.is_signed) {
          for (std::size_t j = 0; j < p_.n; ++j) {
            column_sum[j] += static_cast<std::uint32_t>(static_cast<std::int8_t>(row[j]));
          }
        }
      }
      for (std::size_t panel = 0; panel * nr_ < p_.n; ++panel) {
        std::int32_t* out = b_panel_.data() + (panel * words_ + w) * nr_;
        const std::size_t first = panel * nr_, count = std::min(nr_, p_.n - first);
        for (std::size_t lane = 0; lane < count; ++lane) {
          const std::size_t j = first + lane;
          const std::uint32_t word = static_cast<std::uint32_t>(rows[j] ^ flip) |
                                     static_cast<std::uint32_t>(rows[p_.n + j] ^ flip) << 8 |
                                     static_cast<std::uint32_t>(rows[2 * p_.n + j] ^ flip) << 16 |
                                     static_cast<std::uint32_t>(rows[3 * p_.n + j] ^ flip) << 24;
          out[lane] = static_cast<std::int32_t>(word);
        }
      }
    }
    if (p_.is_signed) {
      for (std::size_t j = 0; j < p_.n; ++j) {
        column_correction_[j] = 0u - column_sum[j] * 128u;
      }
    }
  }

  // C[rows [row_begin, row_end)], one row block (at most mc rows) at a time.
  void run(std::size_t row_begin, std::size_t row_end, std::size_t mc, std::size_t kc_words) {
    packing_buffers& buffers = this_thread_buffers();
    const std::size_t block_rows = round_up(mc, mr_);
    buffers.a_block.reserve(block_rows * std::max<std::size_t>(words_, 1) * 4);
    buffers.accumulators.reserve(block_rows * padded_n_ * 4);
    buffers.row.reserve(std::max<std::size_t>(words_ * 4, p_.n) + 64);
    buffers.second_row.reserve(p_.n * 4 + 64);
    auto* a_block = buffers.a_block.as<std::int32_t>();
    auto* acc = buffers.accumulators.as<std::int32_t>();
    std::vector<std::uint32_t> row_correction(block_rows);
    for (std::size_t ic = row_begin; ic < row_end; ic += mc) {
      const std::size_t rows = std::min(mc, row_end - ic);
      const std::size_t padded_rows = round_up(rows, mr_);
      pack_a(ic, rows, padded_rows, a_block, row_correction.data(), buffers.row.as<std::uint8_t>());
      if (words_ == 0) std::fill(acc, acc + padded_rows * padded_n_, 0);
      for (std::size_t pc = 0; pc < words_; pc += kc_words) {
        const std::size_t depth = std::min(kc_words, words_ - pc);
        for (std::size_t jr = 0; jr < padded_n_; jr += nr_) {
          const std::int32_t* b = b_panel_.data() + (jr * words_ + pc * nr_);
          for (std::size_t ir = 0; ir < padded_rows; ir += mr_) {
            const tile_args args{a_block + ir * words_ + pc * mr_, b, acc + ir * padded_n_ + jr,
                                 padded_n_, depth, pc == 0, 0};
            kernel_.run(args);
          }
        }
      }
      finish(ic, rows, acc, row_correction.data(), buffers.second_row.as<std::int32_t>(),
             buffers.row.as<std::uint8_t>());
    }
  }

 private:
  // A[ic + [0, rows)) as micro-panels of mr rows, each words_ steps of mr
  // words (the whole of K: a K block starts at step pc of every panel);
  // rows past the end are zero.
  void pack_a(std::size_t ic, std::size_t rows, std::size_t padded_rows, std::int32_t* block,
              std::uint32_t* row_correction, std::uint8_t* row) const {
    const std::uint8_t flip = p_.is_signed ? 0x80 : 0x00;
    for (std::size_t i = 0; i < padded_rows; ++i) {
      std::int32_t* panel = block + (i / mr_) * mr_ * words_ + i % mr_;
      std::fill(row, row + words_ * 4, static_cast<std::uint8_t>(0));
      std::uint32_t sum = 0;
      if (i < rows) {
        p_.a.read(p_.a.base, (ic + i) * p_.a.ld, p_.k, row);
        for (std::size_t kk = 0; kk < p_.k; ++kk) {
          sum += row[kk];
          row[kk] = static_cast<std::uint8_t>(row[kk] ^ flip);
        }
      }
      row_correction[i] = p_.is_signed ? 0u : sum * 128u;
      for (std::size_t w = 0; w < words_; ++w) panel[w * mr_] = word_of(row + 4 * w);
    }
  }

  // The corrections, the accumulator output, the requantization.
  void finish(std::size_t ic, std::size_t rows, const std::int32_t* acc,
              const std::uint32_t* row_correction, std::int32_t* sums, std::uint8_t* out) const {
    const matmul_options& o = *p_.options;
    const hybrid::detail::requantizer requantize(o.integer_scale, o.requant, p_.is_signed);
    for (std::size_t i = 0; i < rows; ++i) {
      const std::int32_t* row = acc + i * padded_n_;
      for (std::size_t j = 0; j < p_.n; ++j) {
        sums[j] = static_cast<std::int32_t>(static_cast<std::uint32_t>(row[j]) + row_correction[i] +
                                            column_correction_[j]);
      }
      if (o.integer_accumulator != nullptr) {
        std::copy(sums, sums + p_.n, o.integer_accumulator + (ic + i) * p_.n);
      }
      if (requantize_ != nullptr) {
        requantize_(requantize, sums, p_.n, out);
      } else {
        for (std::size_t j = 0; j < p_.n; ++j) out[j] = requantize(sums[j]);
      }
      p_.c.write(out, p_.n, p_.c.base, (ic + i) * p_.c.ld);
    }
  }

  tile_kernel kernel_;
  requantize_function requantize_;
  const integer_problem& p_;
  std::size_t mr_, nr_, words_, padded_n_;
  std::vector<std::int32_t> b_panel_;
  std::vector<std::uint32_t> column_correction_;
};

}  // namespace detail

// C = requantize(A x B) on the byte tiles of the active ISA, on
// options.threads threads (row blocks dealt out in turn).
inline void run_integer(const integer_problem& p, blocking b = {}) {
  if (p.m == 0 || p.n == 0) return;
  const detail::integer_kernels kernels = detail::integer_kernels_for(target::active_isa());
  const tile_kernel& kernel = kernels.tile;
  detail::integer_plan plan(kernels, p);
  plan.pack_b();
  const std::size_t mc = detail::round_up(std::min(b.mc, p.m), static_cast<std::size_t>(kernel.rows));
  // kc: 4 * 128 = 512 k per K block, so a micro-panel of B (128 steps of
  // 64 words on AVX-512: 32 KiB) stays in a 48 KiB L1 data cache.
  const std::size_t kc_words = 128;
  const std::size_t blocks = (p.m + mc - 1) / mc;
  const std::size_t workers = std::min<std::size_t>(std::max<unsigned>(p.options->threads, 1), blocks);
  // The fp32 requantization rounds in the caller's floating-point
  // environment (requantize.hpp), so every worker takes the caller's: a
  // new thread has it only where the platform passes it on.
  std::fenv_t caller_environment;
  std::fegetenv(&caller_environment);
  detail::run_on_threads(workers, [&](std::size_t w) {
    if (w != 0) std::fesetenv(&caller_environment);
    for (std::size_t block = w; block < blocks; block += workers) {
      const std::size_t begin = block * mc;
      plan.run(begin, std::min(p.m, begin + mc), mc, kc_words);
    }
  });
}

namespace detail {

// The low byte of each of count elements of type T (the encodings of the
// integer types, or run-time codes in uint32).
template <class T>
void read_low_bytes(const void* base, std::size_t offset, std::size_t count, std::uint8_t* out) {
  if (count == 0) return;  // K = 0: base may be null, and memcpy must not see it
  const T* p = static_cast<const T*>(base) + offset;
  if constexpr (sizeof(T) == 1) {
    std::memcpy(out, p, count);  // int8_t, uint8_t: the bytes themselves
  } else {
    for (std::size_t i = 0; i < count; ++i) {
      out[i] = static_cast<std::uint8_t>(static_cast<std::uint32_t>(p[i]) & 0xFFu);
    }
  }
}

// Output bytes as elements of T (from_encoding: int8_t, uint8_t, or the
// uint32 codes of the run-time entry).
template <class T>
void write_bytes(const std::uint8_t* bytes, std::size_t count, void* base, std::size_t offset) {
  if (count == 0) return;
  T* p = static_cast<T*>(base) + offset;
  if constexpr (sizeof(T) == 1) {
    std::memcpy(p, bytes, count);  // from_encoding of a byte type keeps the bits
  } else {
    for (std::size_t i = 0; i < count; ++i) p[i] = from_encoding<T>(bytes[i]);
  }
}

}  // namespace detail

// Runs an integer request (I8 x I8 or U8 x U8) on the byte tiles and
// returns true; false for any other request, or with reference_only.
// Checks as the reference does (hybrid/matmul.hpp), in its order.
inline bool try_integer_matmul(table_id table, element_type ta, element_type tb,
                               element_type tc, const byte_reader& a, const byte_reader& b,
                               const byte_writer& c, std::size_t m, std::size_t n, std::size_t k,
                               const matmul_options& o) {
  if (o.reference_only || !is_integer(ta) || !is_integer(tb)) return false;
  hybrid::detail::check_integer_request(table, ta, tb, tc, k, o);
  run_integer({a, b, c, m, n, k, ta == element_type::i8, &o});
  return true;
}

}  // namespace mf::hybrid::kernels
