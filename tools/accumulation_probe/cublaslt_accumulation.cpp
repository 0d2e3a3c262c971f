// What cuBLASLt's FP8 GEMM does when it accumulates, against the library's
// accumulation models: E4M3 x E4M3 -> FP32 (the cuBLAS documentation's FP8
// table for cublasLtMatmul: "TN" layout, scale type and compute type FP32),
// with CUBLASLT_MATMUL_DESC_FAST_ACCUM off and on, for several K and two
// kinds of operand values (accumulation_probe.hpp).
//
// For each case the GEMM runs on a 4096 x 4096 output by default (enough
// tiles that a data-parallel schedule fills the GPU), with an algorithm from
// cuBLASLt's heuristics whose K is not split across thread blocks (split-K
// would add the partial sums in another order); it runs twice, to see that
// the bits repeat, and the next heuristics' algorithms run too, to see
// whether they agree (a kernel that divides K among thread blocks
// internally, as a stream-K schedule does, may still report a split of 1:
// algorithms that disagree are the sign, and the record may then mix
// summation orders). A sample of D goes into the record file; then every
// candidate model is scored on the sample (the search, which
// minifloat_accumulation_search repeats on a record without a GPU).
//
//   minifloat_cublaslt_accumulation [--record FILE] [--size MN] [--sample S]
//                                   [--k K1,K2,...] [--shown N] [--no-search]
//
// Exit status 0: every case ran and is recorded (the search reports, it
// does not judge); 1: a CUDA or cuBLASLt error (the cases that ran are
// still recorded and searched); 2: bad arguments; 77 (skipped): no GPU of
// compute capability 8.9 or later (FP8 GEMM needs Ada or Hopper).
#include <cublasLt.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "accumulation_probe.hpp"

namespace {

namespace probe = mf_accumulation_probe;

constexpr int skipped = 77;
constexpr std::size_t workspace_bytes = std::size_t{64} << 20;
constexpr int heuristics_asked = 8;

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
  }
}

void check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) {
    throw std::runtime_error(std::string(what) + ": cuBLAS status " + std::to_string(status));
  }
}

// A device allocation freed on every path.
struct device_buffer {
  void* data = nullptr;
  explicit device_buffer(std::size_t bytes) { check(cudaMalloc(&data, bytes), "cudaMalloc"); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { cudaFree(data); }
};

// The cuBLASLt descriptors of one GEMM: D (m x n, column-major, FP32) =
// A^T B, A stored K x M and B stored K x N, column-major E4M3 (the "TN"
// layout FP8 needs: A's columns and B's columns are the operands' rows of
// K, as probe::operand_codes lays them out).
struct gemm_descriptors {
  cublasLtMatmulDesc_t operation = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, d = nullptr;
  gemm_descriptors(std::size_t m, std::size_t n, std::size_t k, bool fast_accumulation) {
    check(cublasLtMatmulDescCreate(&operation, CUBLAS_COMPUTE_32F, CUDA_R_32F), "MatmulDescCreate");
    const cublasOperation_t transposed = CUBLAS_OP_T, plain = CUBLAS_OP_N;
    check(cublasLtMatmulDescSetAttribute(operation, CUBLASLT_MATMUL_DESC_TRANSA, &transposed,
                                         sizeof transposed),
          "TRANSA");
    check(cublasLtMatmulDescSetAttribute(operation, CUBLASLT_MATMUL_DESC_TRANSB, &plain, sizeof plain),
          "TRANSB");
    const std::int8_t fast = fast_accumulation ? 1 : 0;
    check(cublasLtMatmulDescSetAttribute(operation, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof fast),
          "FAST_ACCUM");
    check(cublasLtMatrixLayoutCreate(&a, CUDA_R_8F_E4M3, k, m, k), "layout A");
    check(cublasLtMatrixLayoutCreate(&b, CUDA_R_8F_E4M3, k, n, k), "layout B");
    check(cublasLtMatrixLayoutCreate(&d, CUDA_R_32F, m, n, m), "layout D");
  }
  gemm_descriptors(const gemm_descriptors&) = delete;
  gemm_descriptors& operator=(const gemm_descriptors&) = delete;
  ~gemm_descriptors() {
    cublasLtMatrixLayoutDestroy(d);
    cublasLtMatrixLayoutDestroy(b);
    cublasLtMatrixLayoutDestroy(a);
    cublasLtMatmulDescDestroy(operation);
  }
};

template <class T>
T config_attribute(const cublasLtMatmulAlgo_t& algo, cublasLtMatmulAlgoConfigAttributes_t attribute) {
  T value{};
  std::size_t written = 0;
  if (cublasLtMatmulAlgoConfigGetAttribute(&algo, attribute, &value, sizeof value, &written) !=
      CUBLAS_STATUS_SUCCESS) {
    return T{};
  }
  return value;
}

std::string describe(const cublasLtMatmulAlgo_t& algo) {
  std::ostringstream s;
  s << "id " << config_attribute<std::int32_t>(algo, CUBLASLT_ALGO_CONFIG_ID) << ", tile "
    << config_attribute<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_TILE_ID) << ", stages "
    << config_attribute<std::uint32_t>(algo, CUBLASLT_ALGO_CONFIG_STAGES_ID) << ", cluster "
    << config_attribute<std::uint16_t>(algo, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID) << ", split-K "
    << config_attribute<std::int32_t>(algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM);
  return s.str();
}

// The heuristics' algorithms that run without splitting K: those that
// already do not, and those that accept a split count of 1.
std::vector<cublasLtMatmulAlgo_t> unsplit_algorithms(cublasLtHandle_t handle, const gemm_descriptors& g,
                                                     std::size_t& offered) {
  cublasLtMatmulPreference_t preference = nullptr;
  check(cublasLtMatmulPreferenceCreate(&preference), "PreferenceCreate");
  const std::size_t bytes = workspace_bytes;
  check(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &bytes,
                                             sizeof bytes),
        "MAX_WORKSPACE_BYTES");
  cublasLtMatmulHeuristicResult_t results[heuristics_asked] = {};
  int count = 0;
  const cublasStatus_t status = cublasLtMatmulAlgoGetHeuristic(handle, g.operation, g.a, g.b, g.d, g.d,
                                                               preference, heuristics_asked, results, &count);
  cublasLtMatmulPreferenceDestroy(preference);
  check(status, "AlgoGetHeuristic");
  offered = static_cast<std::size_t>(count);
  std::vector<cublasLtMatmulAlgo_t> algorithms;
  for (int i = 0; i < count; ++i) {
    if (results[i].state != CUBLAS_STATUS_SUCCESS) continue;
    cublasLtMatmulAlgo_t algo = results[i].algo;
    if (config_attribute<std::int32_t>(algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM) > 1) {
      const std::int32_t one = 1;
      const std::uint32_t none = CUBLASLT_REDUCTION_SCHEME_NONE;
      cublasLtMatmulHeuristicResult_t checked = {};
      if (cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_SPLITK_NUM, &one, sizeof one) !=
              CUBLAS_STATUS_SUCCESS ||
          cublasLtMatmulAlgoConfigSetAttribute(&algo, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME, &none,
                                               sizeof none) != CUBLAS_STATUS_SUCCESS ||
          cublasLtMatmulAlgoCheck(handle, g.operation, g.a, g.b, g.d, g.d, &algo, &checked) !=
              CUBLAS_STATUS_SUCCESS) {
        continue;
      }
    }
    algorithms.push_back(algo);
  }
  return algorithms;
}

struct options {
  std::string record = "accumulation_record.txt";
  std::size_t size = 4096;   // M = N
  std::size_t sample = 128;  // sampled rows and columns
  std::vector<std::size_t> ks = {32, 64, 128, 256, 512, 1024, 4096};
  std::size_t shown = 8;
  bool search = true;
};

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    if (option == "--no-search") {
      o.search = false;
      continue;
    }
    if (i + 1 >= argc) throw std::invalid_argument(option + " needs a value");
    const std::string value = argv[++i];
    if (option == "--record") {
      o.record = value;
    } else if (option == "--size") {
      o.size = std::stoul(value);
    } else if (option == "--sample") {
      o.sample = std::stoul(value);
    } else if (option == "--shown") {
      o.shown = std::stoul(value);
    } else if (option == "--k") {
      o.ks.clear();
      std::istringstream list(value);
      for (std::string k; std::getline(list, k, ',');) o.ks.push_back(std::stoul(k));
    } else {
      throw std::invalid_argument("unknown option " + option);
    }
  }
  // cuBLASLt's FP8 GEMM wants every dimension a multiple of 16.
  for (const std::size_t k : o.ks) {
    if (k == 0 || k % 16 != 0) throw std::invalid_argument("--k: each K must be a positive multiple of 16");
  }
  if (o.size == 0 || o.size % 16 != 0 || o.sample == 0 || o.sample > o.size) {
    throw std::invalid_argument("--size must be a positive multiple of 16, --sample 1..size");
  }
  return o;
}

// Runs one case: the GEMM under each unsplit algorithm, D of the first
// recorded, what the others and a second run gave summed up in
// c.algorithm.
void run_case(cublasLtHandle_t handle, probe::probe_case& c) {
  const std::vector<std::uint8_t> a = probe::operand_codes(c.data, c.seed, c.m, c.k);
  const std::vector<std::uint8_t> b = probe::operand_codes(c.data, probe::b_seed(c.seed), c.n, c.k);
  device_buffer a_device(a.size()), b_device(b.size()), d_device(c.m * c.n * sizeof(float)),
      workspace(workspace_bytes);
  check(cudaMemcpy(a_device.data, a.data(), a.size(), cudaMemcpyHostToDevice), "copy A");
  check(cudaMemcpy(b_device.data, b.data(), b.size(), cudaMemcpyHostToDevice), "copy B");
  const gemm_descriptors g(c.m, c.n, c.k, c.fast_accumulation);
  std::size_t offered = 0;
  const std::vector<cublasLtMatmulAlgo_t> algorithms = unsplit_algorithms(handle, g, offered);
  if (algorithms.empty()) {
    throw std::runtime_error("cuBLASLt offered no algorithm that leaves K unsplit (of " +
                             std::to_string(offered) + ")");
  }
  const float one = 1.0f, zero = 0.0f;
  std::vector<float> d(c.m * c.n), first;
  const auto run = [&](const cublasLtMatmulAlgo_t& algo) {
    check(cudaMemset(d_device.data, 0xFF, d.size() * sizeof(float)), "cudaMemset");  // NaN: no stale D
    check(cublasLtMatmul(handle, g.operation, &one, a_device.data, g.a, b_device.data, g.b, &zero,
                         d_device.data, g.d, d_device.data, g.d, &algo, workspace.data, workspace_bytes,
                         nullptr),
          "cublasLtMatmul");
    check(cudaMemcpy(d.data(), d_device.data, d.size() * sizeof(float), cudaMemcpyDeviceToHost),
          "copy D");
    // D was filled with NaN; finite E4M3 operands give no NaN (|sum| < 2^30).
    for (const float x : d) {
      if (x != x) throw std::runtime_error("cublasLtMatmul left NaN in D: D was not written");
    }
  };
  const auto differing = [&]() {
    std::size_t count = 0;
    for (std::size_t i = 0; i < d.size(); ++i) count += std::memcmp(&d[i], &first[i], sizeof(float)) != 0;
    return count;
  };
  run(algorithms[0]);
  first = d;
  run(algorithms[0]);
  std::ostringstream about;
  about << "cuBLASLt " << describe(algorithms[0]) << " (unsplit: " << algorithms.size() << " of "
        << offered << " offered); a second run: " << differing() << " elements differ";
  for (std::size_t i = 1; i < algorithms.size(); ++i) {
    run(algorithms[i]);
    about << "; algorithm " << i << " (" << describe(algorithms[i]) << "): " << differing()
          << " differ";
  }
  c.algorithm = about.str();
  probe::record_sample(c, first.data());
}

}  // namespace

int main(int argc, char** argv) {
  options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 2;
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::puts("no CUDA device: skipped");
    return skipped;
  }
  cudaDeviceProp properties{};
  if (cudaGetDeviceProperties(&properties, 0) != cudaSuccess ||
      properties.major * 10 + properties.minor < 89) {
    std::puts("no GPU of compute capability 8.9 or later (FP8 GEMM): skipped");
    return skipped;
  }
  try {
    int runtime = 0;
    check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    std::ostringstream device;
    device << properties.name << ", compute capability " << properties.major << '.' << properties.minor
           << ", CUDA runtime " << runtime << ", cuBLASLt " << cublasLtGetVersion();
    std::cout << "device: " << device.str() << '\n';

    cublasLtHandle_t handle = nullptr;
    check(cublasLtCreate(&handle), "cublasLtCreate");
    // A case that fails is reported and left out; the record is rewritten
    // after every case, so what ran is kept whatever happens later.
    std::vector<probe::probe_case> cases;
    std::size_t failed = 0;
    for (const bool fast : {false, true}) {
      for (const probe::operand_data data : {probe::operand_data::wide, probe::operand_data::narrow}) {
        for (const std::size_t k : o.ks) {
          probe::probe_case c;
          c.fast_accumulation = fast;
          c.data = data;
          c.seed = 2026 + k;
          c.m = c.n = o.size;
          c.k = k;
          c.sample_rows = c.sample_columns = o.sample;
          std::cout << "fast accumulation " << (fast ? "on" : "off") << ", " << probe::name(data)
                    << ", K = " << k << ": ";
          try {
            run_case(handle, c);
          } catch (const std::exception& e) {
            std::cout << "failed: " << e.what() << '\n' << std::flush;
            ++failed;
            continue;
          }
          std::cout << c.algorithm << '\n' << std::flush;
          cases.push_back(std::move(c));
          std::ofstream record(o.record);
          probe::write_record(record, device.str(), cases);
          if (!record) throw std::runtime_error("cannot write " + o.record);
        }
      }
    }
    cublasLtDestroy(handle);
    std::cout << "record: " << o.record << " (" << cases.size() << " cases, " << failed << " failed)\n"
              << std::flush;
    if (o.search && !cases.empty()) {
      probe::report(std::cout, cases, probe::candidate_models(), std::thread::hardware_concurrency(),
                    o.shown);
    }
    if (failed != 0) return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
