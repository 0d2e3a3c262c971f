// The host side of the accumulation probe: which of the library's
// accumulation models reproduces a GPU's FP8 MatMul bit for bit.
//
// cublaslt_accumulation.cpp runs cuBLASLt's E4M3 x E4M3 -> FP32 GEMM with
// and without CUBLASLT_MATMUL_DESC_FAST_ACCUM (whose arithmetic no NVIDIA
// document describes) and records a sample of each output in a text file;
// accumulation_search.cpp reads such a file on any machine. Both score every
// candidate model (candidate_models) on the recorded elements.
//
// The operands are not recorded: operand_codes regenerates them from the
// case's seed, the same on every machine.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

namespace mf_accumulation_probe {

// The operands' values:
//   wide:   every finite E4M3FN code equally likely (products from 2^-18 to
//           448^2, both signs), which tells summation orders apart;
//   narrow: magnitudes in [0.25, 4) with random signs, closer to scaled
//           activations and weights.
enum class operand_data : unsigned char { wide, narrow };

const char* name(operand_data data);

// The E4M3FN code at position `index` of an operand drawn from `seed`:
// splitmix64's output for that position, so any element is computed
// without the ones before it.
std::uint8_t operand_code(operand_data data, std::uint64_t seed, std::uint64_t index);

// `rows` rows of `k` codes, row-major: element (i, p) is operand_code at
// index i * k + p.
std::vector<std::uint8_t> operand_codes(operand_data data, std::uint64_t seed, std::size_t rows,
                                        std::size_t k);

// One GEMM the probe ran: D (m x n) = A (m x k) x B (k x n). A's rows are
// operand_codes(data, seed, m, k); B's columns are
// operand_codes(data, b_seed(seed), n, k). Recorded: D at the sampled rows
// and columns (sample_position), row-major over the sample, as float32 bits.
struct probe_case {
  bool fast_accumulation = false;
  operand_data data = operand_data::wide;
  std::uint64_t seed = 0;
  std::size_t m = 0, n = 0, k = 0;
  std::size_t sample_rows = 0, sample_columns = 0;
  std::string algorithm;  // what ran, as the GPU side describes it (one line)
  std::vector<std::uint32_t> d_bits;
};

std::uint64_t b_seed(std::uint64_t seed);

// The index of the sample's `index`-th row (or column) of `count` in an
// extent of `extent`: one per stride of extent / count, at the offset
// (index / 4) within it. With 128 of 4096 (stride 32) the sample meets
// every residue modulo 32, 64 and 128 once, so every place in a tile of
// up to 128.
std::size_t sample_position(std::size_t index, std::size_t count, std::size_t extent);

// The sample of a column-major m x n output (cuBLASLt's D, leading
// dimension m): c.sample_rows x c.sample_columns values into c.d_bits.
void record_sample(probe_case& c, const float* d_column_major);

// The record file: a header line, the device line, then per case one line
// of parameters and its d_bits in hexadecimal.
void write_record(std::ostream& out, const std::string& device, const std::vector<probe_case>& cases);
// Throws std::runtime_error on a malformed file.
std::vector<probe_case> read_record(std::istream& in, std::string& device);

// One accumulation model as the probe tries it, in docs/hybrid.md's
// notation (e.g. "reduced_precision{14, 128, block 32, toward_zero}").
enum class model_family : unsigned char { sequential_fp32, exact, chunked_exact, reduced_precision };

struct candidate {
  std::string name;
  model_family family = model_family::sequential_fp32;
  int chunk = 0;              // chunked_exact
  bool toward_zero = false;   // chunked_exact's rounding (else nearest even)
  int bits = 0, promote_every = 0, block = 0;  // reduced_precision; block 0: seq
  bool floor = false;         // reduced_precision's truncation (else toward zero)
};

// Every model the search tries: sequential_fp32, exact, chunked_exact over
// chunks 16..128 in both roundings, and reduced_precision over bits 8..24,
// promote_every 32..1024 and never, seq and blocks of 8..64, both
// truncations. Each has a fast kernel for E4M3 x E4M3 (docs/hybrid.md).
std::vector<candidate> candidate_models();

struct model_score {
  std::string model;
  std::size_t equal = 0;     // elements with the same bits as the GPU's
  std::size_t compared = 0;
  std::uint64_t max_ulps = 0;  // FP32 ulps; +0 and -0 are 0 apart
};

// The library's output under each candidate on the case's sample, against
// the recorded one; best first (most equal, then least max ulps, then the
// order of `models`). `threads` goes to the MatMul.
std::vector<model_score> score_models(const probe_case& c, const std::vector<candidate>& models,
                                      unsigned threads);

// How many recorded elements have each count of significant bits (index 0:
// zeros; 1..24: the bits from the leading one to the last one; 25: Inf or
// NaN). A truncating accumulator of b bits leaves no value wider than b.
std::vector<std::size_t> significant_bit_counts(const probe_case& c);

// The report: per case its scores' best `shown` and the plain models, then
// per fast-accumulation setting the models ranked over all its cases.
void report(std::ostream& out, const std::vector<probe_case>& cases,
            const std::vector<candidate>& models, unsigned threads, std::size_t shown);

}  // namespace mf_accumulation_probe
