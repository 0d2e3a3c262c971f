// The library's FP8 conversions against the GPU's own conversion instructions
// (PTX cvt with FP8 operands, compute capability 8.9 and later), on every input
// each instruction takes:
//
//   float32  -> e4m3fn, e5m2   cvt.rn.satfinite.{e4m3x2,e5m2x2}.f32     2^32 inputs
//   binary16 -> e4m3fn, e5m2   cvt.rn.satfinite.{e4m3x2,e5m2x2}.f16x2   2^16 inputs
//   e4m3fn, e5m2 -> binary16   cvt.rn.f16x2.{e4m3x2,e5m2x2}             256 inputs
//
// Each instruction result is compared with two library paths: mf::round_to
// run on the GPU (the scalar conversion, compiled by nvcc), and on the host
// the bulk kernels the dispatcher picks for this CPU (host_library.cpp). The
// instructions round to nearest even and saturate (.satfinite is their only
// form), which is the library's nearest_even with overflow::saturating.
//
// NaN inputs: the instruction returns one NaN encoding whatever the input's
// sign, while the library keeps the sign (docs/semantics.md, 3.6). For NaN
// inputs the test asserts that both results are NaN and prints the
// encodings the instruction gave.
//
// Also printed, not asserted: CUDA's own cuda_fp8.h conversion with
// __NV_NOSAT against the library's non-saturating nearest-even (how the two
// treat overflow).
//
// Exit status 0: identical; 1: a difference; 77 (CTest: skipped): no GPU
// of compute capability 8.9 or later.
#include <cuda_fp8.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <thread>
#include <type_traits>
#include <vector>

#include <minifloat/minifloat.hpp>

#include "host_library.hpp"

namespace {

using mf_cuda_test::fp8;

constexpr int skipped = 77;
constexpr int examples_kept = 8;

// What one comparison found. Examples are the inputs' bit patterns, the
// first few that atomics handed out (not necessarily the smallest).
struct tally {
  unsigned long long differences;
  unsigned long long nan_differences;  // a NaN input whose results are not both NaN
  unsigned int example_count;
  unsigned int examples[examples_kept];
  unsigned int hardware_nan_seen[256];  // 1 where the instruction gave that encoding for NaN
  unsigned long long header_differences;  // cuda_fp8.h __NV_NOSAT, not asserted
  unsigned int header_example_count;
  unsigned int header_examples[examples_kept];
};

__device__ void record(unsigned long long* count, unsigned int* example_count,
                       unsigned int* examples, std::uint32_t input) {
  atomicAdd(count, 1ull);
  const unsigned int slot = atomicAdd(example_count, 1u);
  if (slot < examples_kept) examples[slot] = input;
}

template <class Fmt>
__device__ bool encodes_nan(std::uint8_t bits) {
  return mf::isnan(Fmt::from_bits(bits));
}

// The instructions take two inputs and pack two results; the second input
// (operand b, or the low half of an f16x2) lands in the low byte. Compiled
// for an architecture before 8.9 (CMAKE_CUDA_ARCHITECTURES) they trap
// instead; main() skips on such a GPU before launching anything.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 890
#define MF_TEST_FP8_CVT(...) __trap()
#else
#define MF_TEST_FP8_CVT(...) asm(__VA_ARGS__)
#endif
template <fp8 F>
__device__ std::uint8_t instruction_from_float(float x) {
  unsigned short pair = 0;
  if constexpr (F == fp8::e4m3fn) {
    MF_TEST_FP8_CVT("cvt.rn.satfinite.e4m3x2.f32 %0, %1, %2;" : "=h"(pair) : "f"(0.0f), "f"(x));
  } else {
    MF_TEST_FP8_CVT("cvt.rn.satfinite.e5m2x2.f32 %0, %1, %2;" : "=h"(pair) : "f"(0.0f), "f"(x));
  }
  return static_cast<std::uint8_t>(pair & 0xFFu);
}

template <fp8 F>
__device__ std::uint8_t instruction_from_binary16(std::uint16_t h) {
  unsigned short pair = 0;
  const unsigned int packed = h;
  if constexpr (F == fp8::e4m3fn) {
    MF_TEST_FP8_CVT("cvt.rn.satfinite.e4m3x2.f16x2 %0, %1;" : "=h"(pair) : "r"(packed));
  } else {
    MF_TEST_FP8_CVT("cvt.rn.satfinite.e5m2x2.f16x2 %0, %1;" : "=h"(pair) : "r"(packed));
  }
  return static_cast<std::uint8_t>(pair & 0xFFu);
}

template <fp8 F>
__device__ std::uint16_t instruction_to_binary16(std::uint8_t b) {
  unsigned int halves = 0;
  const unsigned short pair = b;
  if constexpr (F == fp8::e4m3fn) {
    MF_TEST_FP8_CVT("cvt.rn.f16x2.e4m3x2 %0, %1;" : "=r"(halves) : "h"(pair));
  } else {
    MF_TEST_FP8_CVT("cvt.rn.f16x2.e5m2x2 %0, %1;" : "=r"(halves) : "h"(pair));
  }
  return static_cast<std::uint16_t>(halves & 0xFFFFu);
}

template <fp8 F>
using format_of = typename std::conditional<F == fp8::e4m3fn, mf::e4m3fn, mf::e5m2>::type;

// Compares one encoding result with the instruction's; NaN inputs only by class.
template <fp8 F>
__device__ void compare_encoding(bool input_is_nan, std::uint8_t instruction,
                                 std::uint8_t library, std::uint32_t input, tally* t) {
  using Fmt = format_of<F>;
  if (input_is_nan) {
    t->hardware_nan_seen[instruction] = 1u;
    if (!encodes_nan<Fmt>(instruction) || !encodes_nan<Fmt>(library)) {
      record(&t->nan_differences, &t->example_count, t->examples, input);
    }
  } else if (instruction != library) {
    record(&t->differences, &t->example_count, t->examples, input);
  }
}

template <fp8 F>
__global__ void encode_float_chunk(std::uint32_t first, std::uint32_t n,
                                   std::uint8_t* library_out, tally* t) {
  using Fmt = format_of<F>;
  constexpr __nv_fp8_interpretation_t header_format = F == fp8::e4m3fn ? __NV_E4M3 : __NV_E5M2;
  const std::uint32_t stride = gridDim.x * blockDim.x;
  for (std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const std::uint32_t bits = first + i;
    const float x = __uint_as_float(bits);
    const std::uint8_t library =
        mf::round_to<Fmt>(x, mf::rounding::nearest_even, mf::overflow::saturating).bits();
    library_out[i] = library;
    compare_encoding<F>(x != x, instruction_from_float<F>(x), library, bits, t);

    const std::uint8_t header = __nv_cvt_float_to_fp8(x, __NV_NOSAT, header_format);
    const std::uint8_t library_nosat = mf::round_to<Fmt>(x).bits();
    if (header != library_nosat &&
        !(encodes_nan<Fmt>(header) && encodes_nan<Fmt>(library_nosat))) {
      record(&t->header_differences, &t->header_example_count, t->header_examples, bits);
    }
  }
}

template <fp8 F>
__global__ void encode_binary16_all(std::uint8_t* library_out, tally* t) {
  using Fmt = format_of<F>;
  const std::uint32_t h = blockIdx.x * blockDim.x + threadIdx.x;
  if (h > 0xFFFFu) return;
  const std::uint8_t library =
      mf::round_to<Fmt>(mf::binary16::from_bits(static_cast<std::uint16_t>(h)),
                        mf::rounding::nearest_even, mf::overflow::saturating)
          .bits();
  library_out[h] = library;
  const bool input_is_nan = (h & 0x7FFFu) > 0x7C00u;
  compare_encoding<F>(input_is_nan, instruction_from_binary16<F>(static_cast<std::uint16_t>(h)),
                      library, h, t);
}

template <fp8 F>
__global__ void decode_all(std::uint16_t* instruction_out, std::uint16_t* library_out) {
  using Fmt = format_of<F>;
  const std::uint32_t b = threadIdx.x;
  instruction_out[b] = instruction_to_binary16<F>(static_cast<std::uint8_t>(b));
  library_out[b] = mf::round_to<mf::binary16>(Fmt::from_bits(static_cast<std::uint8_t>(b))).bits();
}

bool check_cuda(cudaError_t e, const char* what) {
  if (e == cudaSuccess) return true;
  std::printf("FAIL: %s: %s\n", what, cudaGetErrorString(e));
  return false;
}

const char* name_of(fp8 f) { return f == fp8::e4m3fn ? "e4m3fn" : "e5m2"; }

// Prints one tally; returns whether it holds a difference that fails the test.
bool report(const char* what, const tally& t) {
  const bool failed = t.differences != 0 || t.nan_differences != 0;
  std::printf("%s %s: %llu differences, %llu NaN inputs not NaN in both\n",
              failed ? "FAIL" : "ok  ", what, t.differences, t.nan_differences);
  for (unsigned int i = 0; i < std::min<unsigned int>(t.example_count, examples_kept); ++i) {
    std::printf("       e.g. input 0x%08x\n", t.examples[i]);
  }
  std::printf("       instruction's encodings for NaN inputs:");
  for (int b = 0; b < 256; ++b) {
    if (t.hardware_nan_seen[b]) std::printf(" 0x%02x", b);
  }
  std::printf("\n");
  return failed;
}

// Host bulk result against the device library result, byte for byte (the
// same library on both sides: NaN encodings must agree too).
unsigned long long count_host_differences(const std::uint8_t* host, const std::uint8_t* device,
                                          std::size_t n, std::uint64_t first,
                                          const char* what) {
  unsigned long long differences = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (host[i] != device[i]) {
      if (differences < examples_kept) {
        std::printf("       %s: input 0x%08llx: host 0x%02x, device 0x%02x\n", what,
                    static_cast<unsigned long long>(first + i), host[i], device[i]);
      }
      ++differences;
    }
  }
  return differences;
}

// Runs `body(first, count)` over [0, n) on every hardware thread.
template <class Body>
void parallel_slices(std::size_t n, Body body) {
  const unsigned threads = std::max(1u, std::thread::hardware_concurrency());
  const std::size_t slice = (n + threads - 1) / threads;
  std::vector<std::thread> pool;
  for (std::size_t first = 0; first < n; first += slice) {
    pool.emplace_back(body, first, std::min(slice, n - first));
  }
  for (auto& t : pool) t.join();
}

template <fp8 F>
bool every_float32(tally* t_device) {
  constexpr std::uint32_t chunk = 1u << 28;
  std::vector<float> inputs(chunk);
  std::vector<std::uint8_t> host(chunk), from_device(chunk);
  std::uint8_t* library_device = nullptr;
  if (!check_cuda(cudaMalloc(&library_device, chunk), "cudaMalloc")) return true;
  if (!check_cuda(cudaMemset(t_device, 0, sizeof(tally)), "cudaMemset")) return true;
  unsigned long long host_differences = 0;
  for (std::uint64_t first = 0; first < (1ull << 32); first += chunk) {
    encode_float_chunk<F><<<4096, 256>>>(static_cast<std::uint32_t>(first), chunk,
                                         library_device, t_device);
    parallel_slices(chunk, [&](std::size_t s, std::size_t count) {
      for (std::size_t i = s; i < s + count; ++i) {
        const std::uint32_t bits = static_cast<std::uint32_t>(first + i);
        std::memcpy(&inputs[i], &bits, sizeof bits);
      }
      mf_cuda_test::host_encode_float(F, inputs.data() + s, host.data() + s, count);
    });
    if (!check_cuda(cudaMemcpy(from_device.data(), library_device, chunk,
                               cudaMemcpyDeviceToHost),
                    "encode_float_chunk")) {
      return true;
    }
    host_differences += count_host_differences(host.data(), from_device.data(), chunk, first,
                                                "float32 host bulk vs device round_to");
  }
  cudaFree(library_device);
  tally t{};
  if (!check_cuda(cudaMemcpy(&t, t_device, sizeof t, cudaMemcpyDeviceToHost), "tally")) {
    return true;
  }
  char what[128];
  std::snprintf(what, sizeof what, "float32 -> %s, all 2^32 inputs, cvt vs library", name_of(F));
  bool failed = report(what, t);
  std::printf("%s float32 -> %s: host bulk (%s) vs device round_to: %llu differences\n",
              host_differences ? "FAIL" : "ok  ", name_of(F), mf_cuda_test::host_isa(),
              host_differences);
  std::printf("info float32 -> %s: cuda_fp8.h __NV_NOSAT vs library non-saturating: %llu "
              "differences\n",
              name_of(F), t.header_differences);
  for (unsigned int i = 0; i < std::min<unsigned int>(t.header_example_count, examples_kept);
       ++i) {
    float x;
    std::memcpy(&x, &t.header_examples[i], sizeof x);
    std::printf("       e.g. input 0x%08x (%g)\n", t.header_examples[i], static_cast<double>(x));
  }
  return failed || host_differences != 0;
}

template <fp8 F>
bool every_binary16(tally* t_device) {
  std::vector<std::uint16_t> inputs(65536);
  std::vector<std::uint8_t> host(65536), from_device(65536);
  for (std::uint32_t h = 0; h < 65536; ++h) inputs[h] = static_cast<std::uint16_t>(h);
  mf_cuda_test::host_encode_binary16(F, inputs.data(), host.data(), inputs.size());
  std::uint8_t* library_device = nullptr;
  if (!check_cuda(cudaMalloc(&library_device, 65536), "cudaMalloc")) return true;
  if (!check_cuda(cudaMemset(t_device, 0, sizeof(tally)), "cudaMemset")) return true;
  encode_binary16_all<F><<<256, 256>>>(library_device, t_device);
  tally t{};
  if (!check_cuda(cudaMemcpy(from_device.data(), library_device, 65536, cudaMemcpyDeviceToHost),
                  "encode_binary16_all") ||
      !check_cuda(cudaMemcpy(&t, t_device, sizeof t, cudaMemcpyDeviceToHost), "tally")) {
    return true;
  }
  cudaFree(library_device);
  char what[128];
  std::snprintf(what, sizeof what, "binary16 -> %s, all 2^16 inputs, cvt vs library",
                name_of(F));
  const bool failed = report(what, t);
  const unsigned long long host_differences = count_host_differences(
      host.data(), from_device.data(), 65536, 0, "binary16 host bulk vs device round_to");
  std::printf("%s binary16 -> %s: host bulk vs device round_to: %llu differences\n",
              host_differences ? "FAIL" : "ok  ", name_of(F), host_differences);
  return failed || host_differences != 0;
}

template <fp8 F>
bool every_encoding_to_binary16() {
  using Fmt = format_of<F>;
  std::uint16_t *instruction_device = nullptr, *library_device = nullptr;
  if (!check_cuda(cudaMalloc(&instruction_device, 512), "cudaMalloc") ||
      !check_cuda(cudaMalloc(&library_device, 512), "cudaMalloc")) {
    return true;
  }
  decode_all<F><<<1, 256>>>(instruction_device, library_device);
  std::uint16_t instruction[256], device_library[256], host_library[256];
  std::uint8_t encodings[256];
  for (int b = 0; b < 256; ++b) encodings[b] = static_cast<std::uint8_t>(b);
  mf_cuda_test::host_decode_binary16(F, encodings, host_library, 256);
  if (!check_cuda(cudaMemcpy(instruction, instruction_device, 512, cudaMemcpyDeviceToHost),
                  "decode_all") ||
      !check_cuda(cudaMemcpy(device_library, library_device, 512, cudaMemcpyDeviceToHost),
                  "decode_all")) {
    return true;
  }
  cudaFree(instruction_device);
  cudaFree(library_device);
  int differences = 0;
  std::printf("     %s -> binary16: instruction's results for NaN encodings:", name_of(F));
  for (int b = 0; b < 256; ++b) {
    const bool nan = mf::isnan(Fmt::from_bits(static_cast<std::uint8_t>(b)));
    const bool instruction_nan = (instruction[b] & 0x7FFFu) > 0x7C00u;
    const bool library_nan = (device_library[b] & 0x7FFFu) > 0x7C00u;
    if (nan) std::printf(" 0x%04x", instruction[b]);
    const bool same = nan ? (instruction_nan && library_nan) : instruction[b] == device_library[b];
    if (!same || device_library[b] != host_library[b]) {
      std::printf("\n       0x%02x: instruction 0x%04x, device 0x%04x, host 0x%04x", b,
                  instruction[b], device_library[b], host_library[b]);
      ++differences;
    }
  }
  std::printf("\n%s %s -> binary16, all 256 encodings, cvt vs library (device and host): %d "
              "differences\n",
              differences ? "FAIL" : "ok  ", name_of(F), differences);
  return differences != 0;
}

}  // namespace

int main() {
  int devices = 0;
  const cudaError_t e = cudaGetDeviceCount(&devices);
  if (e != cudaSuccess || devices == 0) {
    std::printf("skipped: no CUDA device (%s)\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "none found");
    return skipped;
  }
  cudaDeviceProp properties{};
  if (!check_cuda(cudaGetDeviceProperties(&properties, 0), "cudaGetDeviceProperties")) return 1;
  std::printf("device: %s, compute capability %d.%d; host bulk ISA: %s\n", properties.name,
              properties.major, properties.minor, mf_cuda_test::host_isa());
  if (properties.major * 10 + properties.minor < 89) {
    std::printf("skipped: the FP8 cvt instructions need compute capability 8.9 or later\n");
    return skipped;
  }
  tally* t_device = nullptr;
  if (!check_cuda(cudaMalloc(&t_device, sizeof(tally)), "cudaMalloc")) return 1;
  bool failed = false;
  failed |= every_encoding_to_binary16<fp8::e4m3fn>();
  failed |= every_encoding_to_binary16<fp8::e5m2>();
  failed |= every_binary16<fp8::e4m3fn>(t_device);
  failed |= every_binary16<fp8::e5m2>(t_device);
  failed |= every_float32<fp8::e4m3fn>(t_device);
  failed |= every_float32<fp8::e5m2>(t_device);
  cudaFree(t_device);
  std::printf(failed ? "FAILED\n" : "all identical\n");
  return failed ? 1 : 0;
}
