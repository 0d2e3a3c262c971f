// The hybrid FP8 MatMul beside this core's peak and beside what users do
// today, in one binary and one run (Google Benchmark). Every row reports the
// counter GFLOP as a rate (printed GFLOP=.../s): 2*M*N*K per iteration over
// wall-clock time (bench/hybrid_matmul_compare.py rates one-thread rows over
// the calling thread's CPU time instead, from the JSON's cpu_time: these
// shared VMs time-share the cores; see docs/performance.md).
//   peak/{fp32_fma,bf16_dot,fp64_fma,int8_dot}/threads:T  (again at the end:
//       peak_after/) register-only loops of zmm FMA / VDPBF16PS / FP64 FMA /
//       VPDPBUSD: the roofline; on a CPU without AVX-512 (AVX2 + FMA), ymm
//       FMA / FP64 FMA / VPMADDWD + VPADDD, the instructions of the AVX2
//       kernels (the row's label names the form)
//   integer/{i8,u8}/<size>/threads:T, integer_reference/{i8,u8}/256
//       the integer MatMul (I8 x I8 -> I8, U8 x U8 -> U8, exact requantization):
//       the fast path and the reference loop; GFLOP counts one multiply and
//       one add per product, as int8_dot's
//   library/<pair>/<model>/<size>/threads:T
//       mf::hybrid::matmul, FP8 (or 16-bit) codes in, the output type out
//   reference/<pair>/<model>/256
//       the hybrid reference (triple loop), 256^3 only: it is slow
//   openblas/<pair>/<size>/threads:T
//       bulk decode of A and B to float32 + cblas_sgemm + bulk encode of C
//   onednn_f32/<pair>/...     the same with oneDNN's f32 matmul
//   onednn_bf16/<pair>/...    FP8 -> BF16 bulk decode + oneDNN bf16 matmul
//                             with a bf16 output (BF16-exact pairs only)
//   openblas/sgemm_only/..., onednn_{f32,bf16}_only/...   the GEMM alone
//   eltwise/{add,sub,mul}/e4m3_e4m3_e4m3/64MiB, eltwise_reference/add/...
//       mf::hybrid::eltwise over 64 Mi E4M3 elements per operand (scales
//       0.375 and 1024, FP16), fast path and reference loop; beside
//   stream/or/64MiB
//       c[i] = a[i] | b[i] over the same bytes: the memory's bound
//   layer/e4m3_e4m3_bf16/<model>/<size>/threads:T
//       one whole layer (size^3, e.g. 4096^3 = 137 GFLOP) per model with a
//       fast kernel; only when the environment sets MINIFLOAT_BENCH_LAYER_SIZE
//       (seconds per row; the reference models would take hours)
// <pair> is a_b_out: e4m3_e4m3_bf16 (the cuBLASLt table; the vendor table has
// no BF16 output for it), bf16_e4m3_bf16 and f16_e5m2_f16 (vendor table),
// e4m3_e5m2_bf16 (cuBLASLt), e5m2_e5m2_bf16 and bf16_bf16_bf16 (table `any`).
// Peers that were not found at configure time, a CPU without AVX512_BF16, or
// a library without the thread-count option skip their rows with a message.
// At 256^3 every library and peer row also reports differs_from_reference:
// the fraction of output elements that differ from the reference of the
// same model (peers: of sequential_fp32; the data below make FP32 sums
// exact for the FP8 pairs, so there it must be 0). bench/hybrid_matmul_compare.py
// prints the ratios that docs/performance.md ("Hybrid MatMul") sets as
// targets, from the JSON output of a run.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench_support.hpp"
#include <minifloat/bulk.hpp>
#include <minifloat/hybrid/eltwise.hpp>
#include <minifloat/hybrid/matmul.hpp>

#if MINIFLOAT_BENCH_HAVE_BLAS
#include <cblas.h>
#endif
#if MINIFLOAT_BENCH_HAVE_DNNL
#include <dlfcn.h>

#include <oneapi/dnnl/dnnl.hpp>
#endif

#if (defined(__x86_64__) || defined(_M_X64)) && (defined(__GNUC__) || defined(__clang__))
#define HMB_X86 1
#include <cpuid.h>
#include <immintrin.h>
#else
#define HMB_X86 0
#endif

namespace {

using bench_support::aligned_buffer;

// ---- the roofline -----------------------------------------------------------
// Sixteen independent accumulators per loop: enough to cover FMA latency x
// issue width on Zen 4 (4 cycles x 1 zmm FMA per cycle) and on Intel cores
// with two 512-bit FMA ports (4 x 2). Each round is 16 instructions:
// fp32 FMA 16 x 16 lanes x 2 FLOP, VDPBF16PS 16 x 32 products x 2 FLOP,
// fp64 FMA 16 x 8 lanes x 2 FLOP. The loops touch no memory, so the rate
// is the issue rate of the instruction.
//
// Checked in the assembly (g++ 12 and clang++ 14, each at -O2 and -O3):
//   objdump -d --no-show-raw-insn -C build/bench-o2/bench/minifloat_bench_hybrid_matmul |
//     awk '/<.*fp32_fma_loop.*>:$/,/ret/'
// The loop body (from the branch target to the jne) is exactly 16
// vfmadd132ps (g++) / vfmadd213ps (clang) with zmm register operands only,
// plus one counter update (sub / inc) and the jne; bf16_dot_loop the same
// with 16 vdpbf16ps, fp64_fma_loop with 16 vfmadd...pd. No loads, stores or
// spills inside any of the loops.
constexpr int kAccumulators = 16;
constexpr double kFp32FlopPerRound = kAccumulators * 16 * 2.0;
constexpr double kBf16FlopPerRound = kAccumulators * 32 * 2.0;
constexpr double kInt8OpPerRound = kAccumulators * 64 * 2.0;  // VPDPBUSD: 64 products
constexpr double kFp64FlopPerRound = kAccumulators * 8 * 2.0;

#define HMB_REPEAT16(X) \
  X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15)

#if HMB_X86
// acc = acc * x + y converges to y / (1 - x) = 1: no overflow, no subnormal.
// No accumulator starts at that fixed point: clang folds a loop whose value
// it can prove constant (it dropped acc1 = 1.0 from the loop, 15 FMAs left).
__attribute__((target("avx512f"), noinline)) float fp32_fma_loop(std::uint64_t rounds) {
  const __m512 x = _mm512_set1_ps(0.5f);
  const __m512 y = _mm512_set1_ps(0.5f);
#define HMB_DECLARE(i) __m512 acc##i = _mm512_set1_ps(static_cast<float>(i + 2));
  HMB_REPEAT16(HMB_DECLARE)
#undef HMB_DECLARE
  for (std::uint64_t r = rounds; r != 0; --r) {
#define HMB_STEP(i) acc##i = _mm512_fmadd_ps(acc##i, x, y);
    HMB_REPEAT16(HMB_STEP)
#undef HMB_STEP
  }
  __m512 sum = _mm512_setzero_ps();
#define HMB_SUM(i) sum = _mm512_add_ps(sum, acc##i);
  HMB_REPEAT16(HMB_SUM)
#undef HMB_SUM
  return _mm512_reduce_add_ps(sum);
}

// acc += 1.0 * 2^-20 + 1.0 * 2^-20 per lane and instruction: grows slowly.
__attribute__((target("avx512f,avx512bw,avx512bf16"), noinline)) float bf16_dot_loop(
    std::uint64_t rounds) {
  const __m512bh ones = _mm512_cvtne2ps_pbh(_mm512_set1_ps(1.0f), _mm512_set1_ps(1.0f));
  const __m512bh tiny = _mm512_cvtne2ps_pbh(_mm512_set1_ps(0x1p-20f), _mm512_set1_ps(0x1p-20f));
#define HMB_DECLARE(i) __m512 acc##i = _mm512_set1_ps(static_cast<float>(i + 2));
  HMB_REPEAT16(HMB_DECLARE)
#undef HMB_DECLARE
  for (std::uint64_t r = rounds; r != 0; --r) {
#define HMB_STEP(i) acc##i = _mm512_dpbf16_ps(acc##i, ones, tiny);
    HMB_REPEAT16(HMB_STEP)
#undef HMB_STEP
  }
  __m512 sum = _mm512_setzero_ps();
#define HMB_SUM(i) sum = _mm512_add_ps(sum, acc##i);
  HMB_REPEAT16(HMB_SUM)
#undef HMB_SUM
  return _mm512_reduce_add_ps(sum);
}

__attribute__((target("avx512f"), noinline)) double fp64_fma_loop(std::uint64_t rounds) {
  const __m512d x = _mm512_set1_pd(0.5);
  const __m512d y = _mm512_set1_pd(0.5);
#define HMB_DECLARE(i) __m512d acc##i = _mm512_set1_pd(static_cast<double>(i + 2));
  HMB_REPEAT16(HMB_DECLARE)
#undef HMB_DECLARE
  for (std::uint64_t r = rounds; r != 0; --r) {
#define HMB_STEP(i) acc##i = _mm512_fmadd_pd(acc##i, x, y);
    HMB_REPEAT16(HMB_STEP)
#undef HMB_STEP
  }
  __m512d sum = _mm512_setzero_pd();
#define HMB_SUM(i) sum = _mm512_add_pd(sum, acc##i);
  HMB_REPEAT16(HMB_SUM)
#undef HMB_SUM
  return _mm512_reduce_add_pd(sum);
}

__attribute__((target("avx512f,avx512vnni"), noinline)) int int8_dot_loop(std::uint64_t rounds) {
  const __m512i x = _mm512_set1_epi32(0x01010101);
  const __m512i y = _mm512_set1_epi32(0x01FF01FF);
#define HMB_DECLARE(i) __m512i acc##i = _mm512_set1_epi32(i);
  HMB_REPEAT16(HMB_DECLARE)
#undef HMB_DECLARE
  for (std::uint64_t r = rounds; r != 0; --r) {
#define HMB_STEP(i) acc##i = _mm512_dpbusd_epi32(acc##i, x, y);
    HMB_REPEAT16(HMB_STEP)
#undef HMB_STEP
  }
  __m512i sum = _mm512_setzero_si512();
#define HMB_SUM(i) sum = _mm512_add_epi32(sum, acc##i);
  HMB_REPEAT16(HMB_SUM)
#undef HMB_SUM
  return _mm512_reduce_add_epi32(sum);
}

// The same roofline for a CPU whose widest kernels are AVX2 + FMA: twelve
// independent ymm accumulators (with x and y, 14 of the 16 ymm registers),
// enough for FMA latency x issue width on Zen 2/3 (4 cycles x 2 ymm FMAs
// per cycle) and on Intel's Haswell to Golden Cove cores (4-5 x 2). Rounds
// of 12 instructions: fp32 12 x 8 lanes x 2 FLOP, fp64 12 x 4 x 2. Checked
// in the assembly as the zmm loops are (ymm_fp32_fma_loop: 12 vfmadd...ps
// with ymm register operands, no memory access in the loop).
constexpr int kYmmAccumulators = 12;
constexpr double kYmmFp32FlopPerRound = kYmmAccumulators * 8 * 2.0;
constexpr double kYmmFp64FlopPerRound = kYmmAccumulators * 4 * 2.0;
// VPMADDWD multiplies 16 pairs of 16-bit lanes and adds each pair: the
// step of the AVX2 integer kernel without VNNI (x86/avx2/byte_dot_ops.hpp),
// counted as 16 products (one multiply and one add each) per instruction,
// plus the VPADDD that accumulates it.
constexpr double kYmmInt8OpPerRound = kYmmAccumulators * 16 * 2.0;

#define HMB_REPEAT12(X) X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11)

__attribute__((target("avx2,fma"), noinline)) float ymm_fp32_fma_loop(std::uint64_t rounds) {
  const __m256 x = _mm256_set1_ps(0.5f);
  const __m256 y = _mm256_set1_ps(0.5f);
#define HMB_DECLARE(i) __m256 acc##i = _mm256_set1_ps(static_cast<float>(i + 2));
  HMB_REPEAT12(HMB_DECLARE)
#undef HMB_DECLARE
  for (std::uint64_t r = rounds; r != 0; --r) {
#define HMB_STEP(i) acc##i = _mm256_fmadd_ps(acc##i, x, y);
    HMB_REPEAT12(HMB_STEP)
#undef HMB_STEP
  }
  __m256 sum = _mm256_setzero_ps();
#define HMB_SUM(i) sum = _mm256_add_ps(sum, acc##i);
  HMB_REPEAT12(HMB_SUM)
#undef HMB_SUM
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, sum);
  return lanes[0] + lanes[7];
}

__attribute__((target("avx2,fma"), noinline)) double ymm_fp64_fma_loop(std::uint64_t rounds) {
  const __m256d x = _mm256_set1_pd(0.5);
  const __m256d y = _mm256_set1_pd(0.5);
#define HMB_DECLARE(i) __m256d acc##i = _mm256_set1_pd(static_cast<double>(i + 2));
  HMB_REPEAT12(HMB_DECLARE)
#undef HMB_DECLARE
  for (std::uint64_t r = rounds; r != 0; --r) {
#define HMB_STEP(i) acc##i = _mm256_fmadd_pd(acc##i, x, y);
    HMB_REPEAT12(HMB_STEP)
#undef HMB_STEP
  }
  __m256d sum = _mm256_setzero_pd();
#define HMB_SUM(i) sum = _mm256_add_pd(sum, acc##i);
  HMB_REPEAT12(HMB_SUM)
#undef HMB_SUM
  alignas(32) double lanes[4];
  _mm256_store_pd(lanes, sum);
  return lanes[0] + lanes[3];
}

// acc += the pair sums of acc's own 16-bit halves times y: each product
// depends on its accumulator (a loop-invariant VPMADDWD would be hoisted
// out of the loop), and 12 chains of VPMADDWD + VPADDD (4-6 cycles) keep
// two multiplies in flight per cycle. int32 lanes wrap, as the kernel's do.
// Each step is one asm statement: written with intrinsics, g++ 12 -O2 kept
// 5 of the 12 accumulators on the stack and stored them in the loop.
__attribute__((target("avx2"), noinline)) int ymm_int16_pairs_loop(std::uint64_t rounds) {
  const __m256i y = _mm256_set1_epi16(3);
  __m256i product;
#define HMB_DECLARE(i) __m256i acc##i = _mm256_set1_epi32(i + 1);
  HMB_REPEAT12(HMB_DECLARE)
#undef HMB_DECLARE
  for (std::uint64_t r = rounds; r != 0; --r) {
#define HMB_STEP(i)                                                      \
  __asm__("vpmaddwd %[y], %[acc], %[product]\n\tvpaddd %[product], %[acc], %[acc]" \
          : [acc] "+x"(acc##i), [product] "=&x"(product)                  \
          : [y] "x"(y));
    HMB_REPEAT12(HMB_STEP)
#undef HMB_STEP
  }
  __m256i sum = _mm256_setzero_si256();
#define HMB_SUM(i) sum = _mm256_add_epi32(sum, acc##i);
  HMB_REPEAT12(HMB_SUM)
#undef HMB_SUM
  alignas(32) int lanes[8];
  _mm256_store_si256(reinterpret_cast<__m256i*>(lanes), sum);
  return lanes[0] + lanes[7];
}

// CPUID.(EAX=7,ECX=0):ECX bit 11, AVX512_VNNI (Intel SDM vol. 2A, CPUID).
bool cpu_has_avx512_vnni() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!mf::target::isa_supported(mf::target::isa::avx512)) return false;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (c & (1u << 11)) != 0;
}

// CPUID.(EAX=7,ECX=1):EAX bit 5 (Intel SDM vol. 2A, CPUID); the OS side
// (ZMM state saved) is the bulk dispatcher's AVX-512 check.
bool cpu_has_avx512_bf16() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!mf::target::isa_supported(mf::target::isa::avx512)) return false;
  if (!__get_cpuid_count(7, 1, &a, &b, &c, &d)) return false;
  return (a & (1u << 5)) != 0;
}
#endif

void set_gflops(benchmark::State& state, double flop_per_iteration) {
  state.counters["GFLOP"] = benchmark::Counter(
      static_cast<double>(state.iterations()) * flop_per_iteration / 1e9,
      benchmark::Counter::kIsRate);
}

// ---- two-thread rows: both cores busy before timing ---------------------------
// After idle, both vCPUs of these VMs run slowly for a while; a short spin on
// two threads brings them up before the timed loop starts.
void warm_two_cores() {
  const auto spin = [] {
    const auto end = std::chrono::steady_clock::now() + std::chrono::milliseconds(200);
    std::uint64_t x = 0;
    while (std::chrono::steady_clock::now() < end) benchmark::DoNotOptimize(++x);
  };
  std::thread other(spin);
  spin();
  other.join();
}

enum class peak_kind { fp32_fma, bf16_dot, fp64_fma, int8_dot };

// The rate of `threads` copies of the loop, one per std::thread (the
// calling thread is one), over wall-clock time: the same accounting as the
// MatMul rows. An iteration is about 20 ms, so starting a thread per
// iteration costs well under 1%.
void bench_peak(benchmark::State& state, peak_kind kind, unsigned threads) {
#if HMB_X86
  // zmm where the kernels are AVX-512 (and the instruction exists), ymm
  // where they are AVX2 (bf16_dot has no ymm form in the kernels).
  const bool zmm = kind == peak_kind::bf16_dot   ? cpu_has_avx512_bf16()
                   : kind == peak_kind::int8_dot ? cpu_has_avx512_vnni()
                                                 : mf::target::isa_supported(mf::target::isa::avx512);
  const bool ymm = !zmm && kind != peak_kind::bf16_dot &&
                   !mf::target::isa_supported(mf::target::isa::avx512) &&
                   mf::target::isa_supported(mf::target::isa::avx2);
  if (!zmm && !ymm) {
    state.SkipWithError(kind == peak_kind::bf16_dot   ? "this CPU (or OS) lacks AVX512_BF16"
                        : kind == peak_kind::int8_dot ? "this CPU (or OS) lacks AVX512_VNNI"
                                                      : "this CPU (or OS) lacks AVX-512 and AVX2");
    return;
  }
  constexpr std::uint64_t rounds = 1u << 22;
  const auto loop = [kind, zmm] {
    switch (kind) {
      case peak_kind::fp32_fma:
        benchmark::DoNotOptimize(zmm ? fp32_fma_loop(rounds) : ymm_fp32_fma_loop(rounds));
        break;
      case peak_kind::bf16_dot: benchmark::DoNotOptimize(bf16_dot_loop(rounds)); break;
      case peak_kind::fp64_fma:
        benchmark::DoNotOptimize(zmm ? fp64_fma_loop(rounds) : ymm_fp64_fma_loop(rounds));
        break;
      case peak_kind::int8_dot:
        benchmark::DoNotOptimize(zmm ? int8_dot_loop(rounds) : ymm_int16_pairs_loop(rounds));
        break;
    }
  };
  if (kind == peak_kind::int8_dot) {
    state.SetLabel(zmm ? "zmm vpdpbusd" : "ymm vpmaddwd");
  } else {
    state.SetLabel(zmm ? "zmm" : "ymm");
  }
  if (threads > 1) warm_two_cores();
  for (auto _ : state) {
    std::vector<std::thread> others;
    for (unsigned t = 1; t < threads; ++t) others.emplace_back(loop);
    loop();
    for (std::thread& t : others) t.join();
  }
  const double per_round =
      kind == peak_kind::fp32_fma   ? (zmm ? kFp32FlopPerRound : kYmmFp32FlopPerRound)
      : kind == peak_kind::bf16_dot ? kBf16FlopPerRound
      : kind == peak_kind::int8_dot ? (zmm ? kInt8OpPerRound : kYmmInt8OpPerRound)
                                    : (zmm ? kFp64FlopPerRound : kYmmFp64FlopPerRound);
  set_gflops(state, per_round * rounds * threads);
#else
  (void)kind;
  (void)threads;
  state.SkipWithError("the roofline loops are AVX-512 or AVX2 (x86-64 only)");
#endif
}

// ---- the thread count of the library -----------------------------------------
// matmul_options::threads comes with the fast kernels; until then only the
// one-thread rows run (the two-thread ones skip, saying why).
template <class O, class = void>
struct has_threads : std::false_type {};
template <class O>
struct has_threads<O, std::void_t<decltype(std::declval<O&>().threads)>> : std::true_type {};

template <class O>
bool set_threads(O& options, unsigned threads) {
  if constexpr (has_threads<O>::value) {
    options.threads = threads;
    return true;
  } else {
    (void)options;
    return threads == 1;
  }
}

// ---- operands -----------------------------------------------------------------
// A type pair: table, the C++ types, its name in the rows, and whether
// both inputs are BF16-exact (no FP16 operand).
template <class Table, class A, class B, class C>
struct operand_pair {
  using table = Table;
  using a = A;
  using b = B;
  using c = C;
  static constexpr bool bf16_exact = !std::is_same_v<A, mf::binary16> && !std::is_same_v<B, mf::binary16>;
};
struct pair_e4m3_e4m3_bf16 : operand_pair<mf::hybrid::cublaslt_fp8, mf::e4m3fn, mf::e4m3fn, mf::bfloat16> {
  static constexpr const char* name = "e4m3_e4m3_bf16";
};
struct pair_bf16_e4m3_bf16 : operand_pair<mf::hybrid::vendor_hybrid_fp8, mf::bfloat16, mf::e4m3fn, mf::bfloat16> {
  static constexpr const char* name = "bf16_e4m3_bf16";
};
// The exact model on E5M2 operands (kernels/limb_sum.hpp with AVX512_IFMA,
// kernels/split_sum.hpp elsewhere): E5M2 x E5M2 is in no vendor's FP8
// table, so table `any`.
struct pair_e5m2_e5m2_bf16 : operand_pair<mf::hybrid::any, mf::e5m2, mf::e5m2, mf::bfloat16> {
  static constexpr const char* name = "e5m2_e5m2_bf16";
};
struct pair_e4m3_e5m2_bf16 : operand_pair<mf::hybrid::cublaslt_fp8, mf::e4m3fn, mf::e5m2, mf::bfloat16> {
  static constexpr const char* name = "e4m3_e5m2_bf16";
};
// BF16 x BF16 is in no vendor's FP8 table (table `any`); the exact model
// runs on integer limbs where the matrices' values span at most 40 bits
// (kernels/limb_sum.hpp), as N(0, 1) data does.
struct pair_bf16_bf16_bf16 : operand_pair<mf::hybrid::any, mf::bfloat16, mf::bfloat16, mf::bfloat16> {
  static constexpr const char* name = "bf16_bf16_bf16";
};
struct pair_f16_e5m2_f16 : operand_pair<mf::hybrid::vendor_hybrid_fp8, mf::binary16, mf::e5m2, mf::binary16> {
  static constexpr const char* name = "f16_e5m2_f16";
};

template <class T>
using storage_t = typename T::storage_type;

// n values of Fmt quantized (nearest even) from N(0, 1), fixed seed: the
// representative data of a quantized layer. Codes for the peers' decoders,
// the same values as Fmt objects for the library.
template <class Fmt>
struct matrix {
  matrix(std::size_t n, unsigned seed) : codes(n), values(n) {
    std::vector<float> x(n);
    std::mt19937 rng(seed);
    std::normal_distribution<float> dist(0.0f, 1.0f);
    for (float& v : x) v = dist(rng);
    mf::bulk::encode<Fmt>(x.data(), codes.data, n);
    for (std::size_t i = 0; i < n; ++i) values[i] = Fmt::from_bits(codes.data[i]);
  }
  aligned_buffer<storage_t<Fmt>> codes;
  std::vector<Fmt> values;
};

template <class P>
struct operands {
  explicit operands(std::size_t s) : size(s), a(s * s, 1), b(s * s, 2) {}
  std::size_t size;
  matrix<typename P::a> a;  // M x K, row-major
  matrix<typename P::b> b;  // K x N, row-major
};

// One set per pair and size, built on first use (the 2048^3 set takes a while).
template <class P>
const operands<P>& operands_for(std::size_t size) {
  static std::map<std::size_t, std::unique_ptr<operands<P>>> cache;
  auto& slot = cache[size];
  if (!slot) slot = std::make_unique<operands<P>>(size);
  return *slot;
}

// ---- models -------------------------------------------------------------------
enum class model_id {
  sequential_fp32,
  avx512_bf16_pairs,
  exact,
  exact_to_output,
  exact_to_output_scaled,
  chunked_exact64,
  amx_tile_pairs,
  reduced_precision14_128,
  reduced_precision14_128_floor,
  reduced_precision14_128_block,
  reduced_precision14_128_scaled_operands
};

const char* name(model_id m) {
  switch (m) {
    case model_id::sequential_fp32: return "sequential_fp32";
    case model_id::avx512_bf16_pairs: return "avx512_bf16_pairs";
    case model_id::exact: return "exact";
    case model_id::exact_to_output: return "exact_to_output";
    case model_id::exact_to_output_scaled: return "exact_to_output_scaled";
    case model_id::chunked_exact64: return "chunked_exact64";
    case model_id::amx_tile_pairs: return "amx_tile_pairs";
    case model_id::reduced_precision14_128: return "reduced_precision14_128";
    case model_id::reduced_precision14_128_floor: return "reduced_precision14_128_floor";
    case model_id::reduced_precision14_128_block: return "reduced_precision14_128_block";
    case model_id::reduced_precision14_128_scaled_operands: return "reduced_precision14_128_scaled_operands";
  }
  return "?";
}

mf::hybrid::accumulation_model make_model(model_id m) {
  namespace models = mf::hybrid::models;
  switch (m) {
    case model_id::sequential_fp32: return models::sequential_fp32();
    case model_id::avx512_bf16_pairs: return models::avx512_bf16_pairs();
    case model_id::exact: return models::exact();
    case model_id::exact_to_output:
    case model_id::exact_to_output_scaled: return models::exact(true);
    case model_id::chunked_exact64: return models::chunked_exact(64);
    case model_id::amx_tile_pairs: return models::amx_tile_pairs();
    case model_id::reduced_precision14_128:
    case model_id::reduced_precision14_128_scaled_operands: return models::reduced_precision(14, 128);
    case model_id::reduced_precision14_128_floor:
      return models::reduced_precision(14, 128, mf::hybrid::reduced_variant::seq, 32,
                                       mf::hybrid::truncation::floor);
    case model_id::reduced_precision14_128_block:
      return models::reduced_precision(14, 128, mf::hybrid::reduced_variant::block);
  }
  return models::sequential_fp32();
}

// The options of a row: its model, and for exact_to_output_scaled scales
// that are not powers of two (per-tensor dequantization scales and an
// output scale), which make exact(true)'s per-element post-processing
// multiply, not only shift; for reduced_precision14_128_scaled_operands
// such scales on the operands (placement::operands: float32 operands).
mf::hybrid::matmul_options make_options(model_id m) {
  mf::hybrid::matmul_options o;
  o.model = make_model(m);
  if (m == model_id::exact_to_output_scaled || m == model_id::reduced_precision14_128_scaled_operands) {
    o.scales.a = 0.3f;
    o.scales.b = 1.7f;
    o.scales.output = 0.1f;
  }
  if (m == model_id::reduced_precision14_128_scaled_operands) o.scales.where = mf::hybrid::placement::operands;
  return o;
}

// ---- the scalar reference -----------------------------------------------------
// With the fast kernels, matmul_options has `reference_only` (the triple loop
// through the public entry); before them, mf::hybrid::matmul is that loop
// itself, called here through its two steps so that the rows name the
// reference whatever mf::hybrid::matmul dispatches to.
// TODO(merge): if the reference entry is renamed, this is the one place to
// change; the reference rows must stay about 300x slower than the fast ones.
template <class O, class = void>
struct has_reference_only : std::false_type {};
template <class O>
struct has_reference_only<O, std::void_t<decltype(std::declval<O&>().reference_only)>>
    : std::true_type {};

template <class O>
bool set_reference_only(O& options) {
  if constexpr (has_reference_only<O>::value) {
    options.reference_only = true;
    return true;
  } else {
    (void)options;
    return false;
  }
}

template <class P>
void reference_matmul(const operands<P>& op, storage_t<typename P::c>* c, model_id model) {
  using C = typename P::c;
  const std::size_t s = op.size;
  mf::hybrid::matmul_options o = make_options(model);
  if (set_reference_only(o)) {
    thread_local std::vector<C> values;
    values.resize(s * s);
    mf::hybrid::matmul<typename P::table>(op.a.values.data(), s, op.b.values.data(), s,
                                          values.data(), s, s, s, s, o);
    for (std::size_t i = 0; i < s * s; ++i) c[i] = values[i].bits();
  } else {
    std::vector<float> a_values, b_columns;
    const auto decode = [](auto v) { return mf::hybrid::to_float(v); };
    mf::hybrid::detail::decode_operands(op.a.values.data(), s, op.b.values.data(), s, s, s, s,
                                        decode, decode, a_values, b_columns);
    mf::hybrid::detail::matmul_decoded(
        P::table::id, mf::hybrid::element_id_v<typename P::a>,
        mf::hybrid::element_id_v<typename P::b>, mf::hybrid::element_id_v<C>, a_values,
        b_columns, s, s, s, o, mf::hybrid::detail::encoding_store::codes(c, s));
  }
}

// The reference output of (pair, model) at the checked size, computed once.
constexpr std::size_t kCheckedSize = 256;

template <class P>
const std::vector<storage_t<typename P::c>>& reference_output(model_id model) {
  static std::map<model_id, std::vector<storage_t<typename P::c>>> cache;
  auto& out = cache[model];
  if (out.empty()) {
    out.resize(kCheckedSize * kCheckedSize);
    reference_matmul(operands_for<P>(kCheckedSize), out.data(), model);
  }
  return out;
}

// At the checked size: the fraction of c's elements whose encoding differs
// from the reference's (a wrong transposition or leading dimension shows as
// most of them).
template <class P>
void report_difference(benchmark::State& state, std::size_t size,
                       const storage_t<typename P::c>* c, model_id model) {
  if (size != kCheckedSize) return;
  const auto& ref = reference_output<P>(model);
  std::size_t differ = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) differ += c[i] != ref[i] ? 1 : 0;
  state.counters["differs_from_reference"] =
      static_cast<double>(differ) / static_cast<double>(ref.size());
}

double flop(std::size_t s) { return 2.0 * static_cast<double>(s) * s * s; }

// ---- the library ---------------------------------------------------------------
template <class P>
void bench_library(benchmark::State& state, std::size_t size, model_id model, unsigned threads) {
  using C = typename P::c;
  mf::hybrid::matmul_options o = make_options(model);
  if (!set_threads(o, threads)) {
    state.SkipWithError("this mf::hybrid::matmul_options has no `threads` (no fast kernels yet)");
    return;
  }
  const operands<P>& op = operands_for<P>(size);
  std::vector<C> c(size * size);
  if (threads > 1) warm_two_cores();
  for (auto _ : state) {
    try {
      mf::hybrid::matmul<typename P::table>(op.a.values.data(), size, op.b.values.data(), size,
                                            c.data(), size, size, size, size, o);
    } catch (const std::exception& e) {
      state.SkipWithError(e.what());
      return;
    }
    benchmark::ClobberMemory();
  }
  set_gflops(state, flop(size));
  if (size == kCheckedSize) {
    std::vector<storage_t<C>> bits(c.size());
    for (std::size_t i = 0; i < c.size(); ++i) bits[i] = c[i].bits();
    report_difference<P>(state, size, bits.data(), model);
  }
}

template <class P>
void bench_reference(benchmark::State& state, model_id model) {
  const operands<P>& op = operands_for<P>(kCheckedSize);
  std::vector<storage_t<typename P::c>> c(kCheckedSize * kCheckedSize);
  for (auto _ : state) {
    reference_matmul(op, c.data(), model);
    benchmark::ClobberMemory();
  }
  set_gflops(state, flop(kCheckedSize));
}

// ---- the peers: what users do today ----------------------------------------------
// Buffers of the decoded operands and the float32 result, allocated once
// (a user would too); decoding and the output conversion are timed, as
// they are part of the user's cost.
struct peer_workspace {
  explicit peer_workspace(std::size_t s)
      : a(s * s), b(s * s), c(s * s), a16(s * s), b16(s * s), c16(s * s) {
    std::fill(a.data, a.data + s * s, 0.0f);
    std::fill(b.data, b.data + s * s, 0.0f);
  }
  aligned_buffer<float> a, b, c;
  aligned_buffer<std::uint16_t> a16, b16, c16;  // bf16 operands and output
};

#if MINIFLOAT_BENCH_HAVE_BLAS
void set_blas_threads(unsigned threads) {
#if MINIFLOAT_BENCH_HAVE_OPENBLAS_EXTRAS
  openblas_set_num_threads(static_cast<int>(threads));
#else
  (void)threads;
#endif
}

bool can_set_blas_threads(unsigned threads) {
  return MINIFLOAT_BENCH_HAVE_OPENBLAS_EXTRAS || threads == 1;
}

void sgemm(const float* a, const float* b, float* c, std::size_t size) {
  const auto s = static_cast<int>(size);
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, s, s, s, 1.0f, a, s, b, s, 0.0f, c, s);
}
#endif

template <class P>
void bench_openblas(benchmark::State& state, std::size_t size, unsigned threads) {
#if MINIFLOAT_BENCH_HAVE_BLAS
  using C = typename P::c;
  if (!can_set_blas_threads(threads)) {
    state.SkipWithError("this BLAS is not OpenBLAS: no openblas_set_num_threads");
    return;
  }
  const operands<P>& op = operands_for<P>(size);
  peer_workspace w(size);
  aligned_buffer<storage_t<C>> c(size * size);
  const std::size_t n = size * size;
  set_blas_threads(threads);
  if (threads > 1) warm_two_cores();
  for (auto _ : state) {
    mf::bulk::decode<typename P::a>(op.a.codes.data, w.a.data, n);
    mf::bulk::decode<typename P::b>(op.b.codes.data, w.b.data, n);
    sgemm(w.a.data, w.b.data, w.c.data, size);
    mf::bulk::encode<C>(w.c.data, c.data, n);
    benchmark::ClobberMemory();
  }
  set_blas_threads(1);
  set_gflops(state, flop(size));
  report_difference<P>(state, size, c.data, model_id::sequential_fp32);
#else
  (void)size;
  (void)threads;
  state.SkipWithError("built without a BLAS (find_package(BLAS) or cblas.h not found, or MINIFLOAT_BENCH_PEERS=OFF)");
#endif
}

void bench_sgemm_only(benchmark::State& state, std::size_t size, unsigned threads) {
#if MINIFLOAT_BENCH_HAVE_BLAS
  if (!can_set_blas_threads(threads)) {
    state.SkipWithError("this BLAS is not OpenBLAS: no openblas_set_num_threads");
    return;
  }
  const operands<pair_e4m3_e4m3_bf16>& op = operands_for<pair_e4m3_e4m3_bf16>(size);
  peer_workspace w(size);
  mf::bulk::decode<mf::e4m3fn>(op.a.codes.data, w.a.data, size * size);
  mf::bulk::decode<mf::e4m3fn>(op.b.codes.data, w.b.data, size * size);
  set_blas_threads(threads);
  if (threads > 1) warm_two_cores();
  for (auto _ : state) {
    sgemm(w.a.data, w.b.data, w.c.data, size);
    benchmark::ClobberMemory();
  }
  set_blas_threads(1);
  set_gflops(state, flop(size));
#else
  (void)size;
  (void)threads;
  state.SkipWithError("built without a BLAS (find_package(BLAS) or cblas.h not found, or MINIFLOAT_BENCH_PEERS=OFF)");
#endif
}

#if MINIFLOAT_BENCH_HAVE_DNNL
// Debian's oneDNN runs on OpenMP (DNNL_CPU_RUNTIME OMP); its thread count is
// the calling thread's omp_set_num_threads. The symbol comes with libdnnl's
// own libgomp, so it is looked up at run time: the benchmark does not have
// to be compiled with OpenMP (clang without libomp) to set it.
bool set_onednn_threads(unsigned threads) {
  void* symbol = dlsym(RTLD_DEFAULT, "omp_set_num_threads");
  if (symbol == nullptr) return threads == 1;
  void (*set)(int) = nullptr;
  static_assert(sizeof(set) == sizeof(symbol), "function and object pointers differ in size");
  std::memcpy(&set, &symbol, sizeof(set));
  set(static_cast<int>(threads));
  return true;
}

// One plain row-major matmul primitive, created once (outside the timing
// loop, as a user would): C = A B with the given data types.
struct onednn_matmul {
  using dt = dnnl::memory::data_type;
  onednn_matmul(std::size_t size, dt type_ab, dt type_c, void* a, void* b, void* c)
      : engine(dnnl::engine::kind::cpu, 0), stream(engine) {
    const auto s = static_cast<dnnl::memory::dim>(size);
    const dnnl::memory::desc a_md({s, s}, type_ab, dnnl::memory::format_tag::ab);
    const dnnl::memory::desc b_md({s, s}, type_ab, dnnl::memory::format_tag::ab);
    const dnnl::memory::desc c_md({s, s}, type_c, dnnl::memory::format_tag::ab);
    const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(a_md, b_md, c_md), engine);
    implementation = pd.impl_info_str();
    primitive = dnnl::matmul(pd);
    a_mem = dnnl::memory(a_md, engine, a);
    b_mem = dnnl::memory(b_md, engine, b);
    c_mem = dnnl::memory(c_md, engine, c);
  }
  void run() {
    primitive.execute(stream,
                      {{DNNL_ARG_SRC, a_mem}, {DNNL_ARG_WEIGHTS, b_mem}, {DNNL_ARG_DST, c_mem}});
    stream.wait();
  }
  dnnl::engine engine;
  dnnl::stream stream;
  dnnl::matmul primitive;
  dnnl::memory a_mem, b_mem, c_mem;
  std::string implementation;
};

// FP8 / BF16 codes as BF16 bit patterns (exact for these pairs).
template <class Fmt>
void to_bf16(const storage_t<Fmt>* in, std::uint16_t* out, std::size_t n) {
  if constexpr (std::is_same_v<Fmt, mf::bfloat16>) {
    std::memcpy(out, in, n * sizeof(std::uint16_t));
  } else {
    mf::bulk::decode_to_bfloat16<Fmt>(in, out, n);
  }
}
#endif

enum class onednn_kind { f32, bf16 };

// kind f32: bulk decode to float32, f32 matmul, bulk encode of C; kind bf16:
// FP8 -> BF16 decode, bf16 matmul with a bf16 C. gemm_only: the matmul on
// operands decoded once, outside the loop.
template <class P>
void bench_onednn(benchmark::State& state, std::size_t size, unsigned threads, onednn_kind kind,
                  bool gemm_only) {
#if MINIFLOAT_BENCH_HAVE_DNNL
  using C = typename P::c;
  if (!set_onednn_threads(threads)) {
    state.SkipWithError("omp_set_num_threads not found: oneDNN's thread count cannot be set");
    return;
  }
  const operands<P>& op = operands_for<P>(size);
  peer_workspace w(size);
  aligned_buffer<storage_t<C>> c(size * size);
  const std::size_t n = size * size;
  using dt = dnnl::memory::data_type;
  try {
    const bool f32 = kind == onednn_kind::f32;
    onednn_matmul mm(size, f32 ? dt::f32 : dt::bf16, f32 ? dt::f32 : dt::bf16,
                     f32 ? static_cast<void*>(w.a.data) : w.a16.data,
                     f32 ? static_cast<void*>(w.b.data) : w.b16.data,
                     f32 ? static_cast<void*>(w.c.data) : w.c16.data);
    state.SetLabel(mm.implementation);
    const auto decode = [&] {
      if (f32) {
        mf::bulk::decode<typename P::a>(op.a.codes.data, w.a.data, n);
        mf::bulk::decode<typename P::b>(op.b.codes.data, w.b.data, n);
      } else {
        to_bf16<typename P::a>(op.a.codes.data, w.a16.data, n);
        to_bf16<typename P::b>(op.b.codes.data, w.b16.data, n);
      }
    };
    if (gemm_only) decode();
    if (threads > 1) warm_two_cores();
    for (auto _ : state) {
      if (!gemm_only) decode();
      mm.run();
      if (!gemm_only && f32) mf::bulk::encode<C>(w.c.data, c.data, n);
      benchmark::ClobberMemory();
    }
  } catch (const dnnl::error& e) {
    set_onednn_threads(1);
    state.SkipWithError((std::string("oneDNN: ") + e.what()).c_str());
    return;
  }
  set_onednn_threads(1);
  set_gflops(state, flop(size));
  if (!gemm_only) {
    if (kind == onednn_kind::bf16) std::memcpy(c.data, w.c16.data, n * sizeof(std::uint16_t));
    report_difference<P>(state, size, c.data, model_id::sequential_fp32);
  }
#else
  (void)size;
  (void)threads;
  (void)kind;
  (void)gemm_only;
  state.SkipWithError("built without oneDNN (oneapi/dnnl/dnnl.hpp or libdnnl not found, or MINIFLOAT_BENCH_PEERS=OFF)");
#endif
}

// ---- registration ------------------------------------------------------------------
constexpr std::size_t kSizesMNK[] = {256, 1024, 2048};
constexpr unsigned kThreads[] = {1, 2};

std::string suffix(std::size_t size, unsigned threads) {
  return "/" + std::to_string(size) + "/threads:" + std::to_string(threads);
}

template <class P>
void register_pair(std::initializer_list<model_id> models) {
  const std::string pair = P::name;
  for (model_id m : models) {
    benchmark::RegisterBenchmark(
        ("reference/" + pair + "/" + name(m) + "/" + std::to_string(kCheckedSize)).c_str(),
        [=](benchmark::State& s) { bench_reference<P>(s, m); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  for (std::size_t size : kSizesMNK) {
    for (unsigned t : kThreads) {
      for (model_id m : models) {
        benchmark::RegisterBenchmark(
            ("library/" + pair + "/" + name(m) + suffix(size, t)).c_str(),
            [=](benchmark::State& s) { bench_library<P>(s, size, m, t); })
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
      }
      benchmark::RegisterBenchmark(("openblas/" + pair + suffix(size, t)).c_str(),
                                   [=](benchmark::State& s) { bench_openblas<P>(s, size, t); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(
          ("onednn_f32/" + pair + suffix(size, t)).c_str(),
          [=](benchmark::State& s) { bench_onednn<P>(s, size, t, onednn_kind::f32, false); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      if (P::bf16_exact) {
        benchmark::RegisterBenchmark(
            ("onednn_bf16/" + pair + suffix(size, t)).c_str(),
            [=](benchmark::State& s) { bench_onednn<P>(s, size, t, onednn_kind::bf16, false); })
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
      }
    }
  }
}

// A whole layer under each model that has a fast kernel on this CPU, at
// MINIFLOAT_BENCH_LAYER_SIZE (opt-in: each row takes seconds).
void register_layers() {
  const char* size_text = std::getenv("MINIFLOAT_BENCH_LAYER_SIZE");
  if (size_text == nullptr) return;
  const std::size_t size = std::strtoull(size_text, nullptr, 10);
  if (size == 0) return;
  using M = model_id;
  for (unsigned t : kThreads) {
    for (M m : {M::sequential_fp32, M::avx512_bf16_pairs, M::exact, M::exact_to_output,
                M::exact_to_output_scaled, M::chunked_exact64, M::amx_tile_pairs, M::reduced_precision14_128,
                M::reduced_precision14_128_floor, M::reduced_precision14_128_block,
                M::reduced_precision14_128_scaled_operands}) {
      mf::hybrid::matmul_options o = make_options(m);
      if (!mf::hybrid::kernels::has_fast_kernel(mf::hybrid::element_type::hf8,
                                                mf::hybrid::element_type::hf8,
                                                mf::hybrid::element_type::bf16, size, o)) {
        continue;
      }
      benchmark::RegisterBenchmark(
          ("layer/" + std::string(pair_e4m3_e4m3_bf16::name) + "/" + name(m) + suffix(size, t)).c_str(),
          [=](benchmark::State& s) { bench_library<pair_e4m3_e4m3_bf16>(s, size, m, t); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
}

// ---- element-wise ---------------------------------------------------------------
constexpr std::size_t kEltwiseElements = std::size_t{64} << 20;  // 64 MiB of E4M3 per operand

struct eltwise_operands {
  std::vector<mf::e4m3fn> a, b, c;
  eltwise_operands() : a(kEltwiseElements), b(kEltwiseElements), c(kEltwiseElements) {
    std::mt19937_64 rng(7);
    for (std::size_t i = 0; i < kEltwiseElements; ++i) {
      a[i] = mf::e4m3fn::from_bits(static_cast<std::uint8_t>(rng() & 0x7E));  // finite, positive
      b[i] = mf::e4m3fn::from_bits(static_cast<std::uint8_t>(rng() & 0xFE));
    }
  }
};

eltwise_operands& eltwise_data() {
  static eltwise_operands data;
  return data;
}

void bench_eltwise(benchmark::State& state, mf::hybrid::eltwise_op op, bool reference) {
  eltwise_operands& d = eltwise_data();
  mf::hybrid::eltwise_options o;
  o.op = op;
  o.a_scale = {true, 0.375f};
  o.b_scale = {true, 1024.0f};
  o.output.on_overflow = mf::overflow::saturating;
  o.reference_only = reference;
  const std::size_t rows = kEltwiseElements / 1024;
  for (auto _ : state) {
    mf::hybrid::eltwise<mf::hybrid::any>(d.a.data(), d.b.data(), kEltwiseElements, d.c.data(), rows,
                                         1024, o);
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 3 *
                          static_cast<std::int64_t>(kEltwiseElements));
}

// The same bytes read and written by the simplest loop the compiler
// vectorizes: the stream bound of the element-wise rows.
void bench_stream_or(benchmark::State& state) {
  eltwise_operands& d = eltwise_data();
  const auto* a = reinterpret_cast<const std::uint8_t*>(d.a.data());
  const auto* b = reinterpret_cast<const std::uint8_t*>(d.b.data());
  auto* c = reinterpret_cast<std::uint8_t*>(d.c.data());
  for (auto _ : state) {
    for (std::size_t i = 0; i < kEltwiseElements; ++i) c[i] = a[i] | b[i];
    benchmark::ClobberMemory();
  }
  state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations()) * 3 *
                          static_cast<std::int64_t>(kEltwiseElements));
}

void register_eltwise() {
  using op = mf::hybrid::eltwise_op;
  const std::pair<const char*, op> ops[] = {{"add", op::add}, {"sub", op::sub}, {"mul", op::mul}};
  for (const auto& [n, o] : ops) {
    benchmark::RegisterBenchmark((std::string("eltwise/") + n + "/e4m3_e4m3_e4m3/64MiB").c_str(),
                                 [which = o](benchmark::State& s) { bench_eltwise(s, which, false); })
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark("eltwise_reference/add/e4m3_e4m3_e4m3/64MiB",
                               [](benchmark::State& s) { bench_eltwise(s, op::add, true); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark("stream/or/64MiB", bench_stream_or)->UseRealTime()->Unit(benchmark::kMillisecond);
}

// The roofline rows, as `prefix`/<loop>/threads:T.
void register_peaks(const std::string& prefix) {
  for (unsigned t : kThreads) {
    const auto peak = [&prefix, t](const char* n, peak_kind k) {
      benchmark::RegisterBenchmark((prefix + n + "/threads:" + std::to_string(t)).c_str(),
                                   [k, t](benchmark::State& s) { bench_peak(s, k, t); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    };
    peak("/fp32_fma", peak_kind::fp32_fma);
    peak("/bf16_dot", peak_kind::bf16_dot);
    peak("/fp64_fma", peak_kind::fp64_fma);
    peak("/int8_dot", peak_kind::int8_dot);
  }
}

// The integer MatMul, size^3, uniform random bytes (any order gives the same
// int32 sums; the data only sets how many outputs saturate).
template <class T>
void bench_integer(benchmark::State& state, std::size_t size, unsigned threads, bool reference) {
  std::mt19937 rng(7);
  std::vector<T> a(size * size), b(size * size), c(size * size);
  for (auto& x : a) x = static_cast<T>(rng());
  for (auto& x : b) x = static_cast<T>(rng());
  mf::hybrid::matmul_options o;
  o.integer_scale = 0x1p-14f;
  o.threads = threads;
  o.reference_only = reference;
  if (threads > 1) warm_two_cores();
  for (auto _ : state) {
    mf::hybrid::matmul(a.data(), size, b.data(), size, c.data(), size, size, size, size, o);
    benchmark::DoNotOptimize(c.data());
  }
  set_gflops(state, 2.0 * static_cast<double>(size) * size * size);
}

void register_integer() {
  for (std::size_t size : kSizesMNK) {
    for (unsigned t : kThreads) {
      benchmark::RegisterBenchmark(("integer/i8" + suffix(size, t)).c_str(),
                                   [=](benchmark::State& s) { bench_integer<std::int8_t>(s, size, t, false); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("integer/u8" + suffix(size, t)).c_str(),
                                   [=](benchmark::State& s) { bench_integer<std::uint8_t>(s, size, t, false); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::RegisterBenchmark("integer_reference/i8/256",
                               [](benchmark::State& s) { bench_integer<std::int8_t>(s, 256, 1, true); })
      ->UseRealTime()
      ->Unit(benchmark::kMillisecond);
}

void register_all() {
  register_peaks("peak");
  for (std::size_t size : kSizesMNK) {
    for (unsigned t : kThreads) {
      const std::string sfx = suffix(size, t);
      benchmark::RegisterBenchmark(("openblas/sgemm_only" + sfx).c_str(),
                                   [=](benchmark::State& s) { bench_sgemm_only(s, size, t); })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("onednn_f32_only/f32" + sfx).c_str(),
                                   [=](benchmark::State& s) {
                                     bench_onednn<pair_e4m3_e4m3_bf16>(s, size, t,
                                                                       onednn_kind::f32, true);
                                   })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("onednn_bf16_only/bf16" + sfx).c_str(),
                                   [=](benchmark::State& s) {
                                     bench_onednn<pair_e4m3_e4m3_bf16>(s, size, t,
                                                                       onednn_kind::bf16, true);
                                   })
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
    }
  }
  using M = model_id;
  register_pair<pair_e4m3_e4m3_bf16>({M::sequential_fp32, M::avx512_bf16_pairs, M::exact,
                                      M::exact_to_output, M::exact_to_output_scaled, M::chunked_exact64,
                                      M::amx_tile_pairs,
                                      M::reduced_precision14_128,
                                      M::reduced_precision14_128_floor,
                                      M::reduced_precision14_128_block,
                                      M::reduced_precision14_128_scaled_operands});
  // The BF16 rows of exact and reduced_precision run on the kernels only
  // where the data's range allows (kernels/fast_path.hpp); N(0, 1) data do.
  register_pair<pair_bf16_e4m3_bf16>({M::sequential_fp32, M::avx512_bf16_pairs, M::exact,
                                      M::reduced_precision14_128, M::reduced_precision14_128_block});
  register_pair<pair_bf16_bf16_bf16>({M::sequential_fp32, M::exact, M::exact_to_output,
                                      M::exact_to_output_scaled, M::chunked_exact64,
                                      M::reduced_precision14_128});
  register_pair<pair_f16_e5m2_f16>({M::sequential_fp32, M::exact, M::chunked_exact64});
  register_pair<pair_e5m2_e5m2_bf16>({M::sequential_fp32, M::exact, M::exact_to_output,
                                      M::exact_to_output_scaled, M::chunked_exact64});
  register_pair<pair_e4m3_e5m2_bf16>({M::sequential_fp32, M::exact});
  register_integer();
  register_eltwise();
  register_layers();
  // The roofline again at the end: a clock that changed during the run (these
  // VMs' vCPUs halve their speed after idle or under a neighbour's load)
  // shows as a difference between peak/ and peak_after/ (the compare script
  // prints it). With --benchmark_enable_random_interleaving both are spread
  // over the run like every other row.
  register_peaks("peak_after");
}

// "cpu family" and "model" of /proc/cpuinfo (Linux), for the JSON context:
// every figure is written beside the CPU it was measured on.
std::string cpu_field(const std::string& key) {
  std::ifstream in("/proc/cpuinfo");
  std::string line;
  while (std::getline(in, line)) {
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string k = line.substr(0, colon);
    while (!k.empty() && (k.back() == ' ' || k.back() == '\t')) k.pop_back();
    if (k == key) return colon + 2 <= line.size() ? line.substr(colon + 2) : "";
  }
  return "unknown";
}

void add_context() {
  benchmark::AddCustomContext("cpu_model_name", cpu_field("model name"));
  benchmark::AddCustomContext("cpu_family", cpu_field("cpu family"));
  benchmark::AddCustomContext("cpu_model", cpu_field("model"));
#if HMB_X86
  benchmark::AddCustomContext("avx512_bf16", cpu_has_avx512_bf16() ? "yes" : "no");
#endif
  for (const char* v : {"OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS",
                        "OMP_NUM_THREADS", "MINIFLOAT_ISA"}) {
    const char* value = std::getenv(v);
    benchmark::AddCustomContext(v, value ? value : "(unset)");
  }
#if MINIFLOAT_BENCH_HAVE_OPENBLAS_EXTRAS
  benchmark::AddCustomContext("openblas_corename", openblas_get_corename());
  benchmark::AddCustomContext("openblas_config", openblas_get_config());
#elif MINIFLOAT_BENCH_HAVE_BLAS
  benchmark::AddCustomContext("blas", "not OpenBLAS (no openblas_get_corename)");
#else
  benchmark::AddCustomContext("blas", "not found at configure time: openblas rows skip");
#endif
#if MINIFLOAT_BENCH_HAVE_DNNL
  const dnnl_version_t* v = dnnl_version();
  benchmark::AddCustomContext("onednn_version", std::to_string(v->major) + "." +
                                                    std::to_string(v->minor) + "." +
                                                    std::to_string(v->patch));
#else
  benchmark::AddCustomContext("onednn_version", "not found at configure time: onednn rows skip");
#endif
  benchmark::AddCustomContext("bulk_isa", mf::target::isa_name(mf::target::active_isa()));
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  add_context();
  // Both cores busy for a while before the first row: after idle, the vCPUs
  // of these VMs run at about half speed for a moment.
  for (int i = 0; i < 5; ++i) warm_two_cores();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
