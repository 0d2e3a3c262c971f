// Bulk conversion throughput (Google Benchmark): encode float32 -> e4m3fn /
// e5m2 and decode back, per ISA, at three sizes (4 KiB of output: L1;
// 256 KiB: L2; 64 MiB: memory), next to baselines measured
// in the same binary and run:
//   stream/...         reads n inputs, writes n outputs, trivial work (the
//                      memory bound of the same traffic); stream_nt/... the
//                      same with non-temporal stores; each in zmm (avx512)
//                      and ymm (avx2) registers
//   hw_f16/...         the CPU's own float32 <-> binary16 (vcvtps2ph /
//                      vcvtph2ps; 512-bit and F16C ymm) over the same n, in
//                      the register form (convert in a register, then store;
//                      load, then convert): the fast form, the one the
//                      ratios use; hw_f16_mem/... the memory-operand forms
//   .../scalar/...     the scalar loop (the library's scalar conversion)
//   decode_route/...   one AVX-512 byte route of the e5m2 decode (table or
//                      binary16), forced whatever the dispatch picks here;
//                      bound_no_nan: the binary16 route without its NaN step
// Names: <kernel>/<format>/<mode>/<isa>/<size>. Items = elements converted;
// bytes = bytes read + bytes written. bench/bulk_compare.py prints the ratios.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_support.hpp"
#include <minifloat/bulk.hpp>

namespace {

using bench_support::aligned_buffer;
using bench_support::fill_floats;
using bench_support::kSizes;
using bench_support::size_class;

template <class S>
void fill_codes(S* p, std::size_t n) {
  std::mt19937 rng(7);
  for (std::size_t i = 0; i < n; ++i) p[i] = static_cast<S>(rng());
}

void set_counters(benchmark::State& state, std::size_t n, std::size_t in_bytes,
                  std::size_t out_bytes) {
  const auto iterations = static_cast<std::int64_t>(state.iterations());
  state.SetItemsProcessed(iterations * static_cast<std::int64_t>(n));
  state.SetBytesProcessed(iterations * static_cast<std::int64_t>(in_bytes + out_bytes));
}

template <class Fmt>
void bench_encode(benchmark::State& state, mf::target::isa isa, std::size_t n, mf::overflow ovf,
                  mf::rounding mode = mf::rounding::nearest_even) {
  using S = typename Fmt::storage_type;
  if (!bench_support::select_isa(state, isa)) return;
  aligned_buffer<float> in(n);
  aligned_buffer<S> out(n);
  fill_floats(in.data, n);
  for (auto _ : state) {
    mf::bulk::encode<Fmt>(in.data, out.data, n, mf::conversion::with(mode, ovf));
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  set_counters(state, n, n * sizeof(float), n * sizeof(S));
}

// scale: 1 is the plain decode; another value the decode with a scale (one
// product per element).
template <class Fmt>
void bench_decode(benchmark::State& state, mf::target::isa isa, std::size_t n,
                  float scale = 1.0f) {
  using S = typename Fmt::storage_type;
  if (!bench_support::select_isa(state, isa)) return;
  aligned_buffer<S> in(n);
  aligned_buffer<float> out(n);
  fill_codes(in.data, n);
  for (auto _ : state) {
    mf::bulk::decode<Fmt>(in.data, out.data, n, scale);
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  set_counters(state, n, n * sizeof(S), n * sizeof(float));
}

// The other sources and targets of sources.hpp: `run` converts n elements
// of In (raw codes, or fill_floats' values converted) into Out.
template <class In, class Out, class Run>
void bench_source(benchmark::State& state, mf::target::isa isa, std::size_t n,
                  Run run) {
  if (!bench_support::select_isa(state, isa)) return;
  aligned_buffer<In> in(n);
  if constexpr (std::is_integral_v<In>) {
    fill_codes(in.data, n);
  } else {
    aligned_buffer<float> floats(n);
    fill_floats(floats.data, n);
    for (std::size_t i = 0; i < n; ++i) in.data[i] = static_cast<In>(floats.data[i]);
  }
  aligned_buffer<Out> out(n);
  for (auto _ : state) {
    run(in.data, out.data, n);
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  set_counters(state, n, n * sizeof(In), n * sizeof(Out));
}

void register_sources(mf::target::isa isa) {
  for (const size_class& size : {kSizes[0], kSizes[1]}) {
    const std::string name = std::string("/") + mf::target::isa_name(isa) + "/" + size.name;
    const std::size_t n = size.output_bytes;  // one-byte outputs; 2n for 16-bit
    benchmark::RegisterBenchmark(("source/double_to_e4m3fn" + name).c_str(),
                                 [=](benchmark::State& s) {
                                   bench_source<double, std::uint8_t>(
                                       s, isa, n, [](const double* i, std::uint8_t* o,
                                                     std::size_t k) {
                                         mf::bulk::encode<mf::e4m3fn>(i, o, k);
                                       });
                                 });
    benchmark::RegisterBenchmark(("source/binary16_to_e4m3fn" + name).c_str(),
                                 [=](benchmark::State& s) {
                                   bench_source<mf::binary16, std::uint8_t>(
                                       s, isa, n, [](const mf::binary16* i, std::uint8_t* o,
                                                     std::size_t k) {
                                         mf::bulk::encode<mf::e4m3fn>(i, o, k);
                                       });
                                 });
    benchmark::RegisterBenchmark(("source/e4m3fn_to_e5m2" + name).c_str(),
                                 [=](benchmark::State& s) {
                                   bench_source<mf::e4m3fn, std::uint8_t>(
                                       s, isa, n, [](const mf::e4m3fn* i, std::uint8_t* o,
                                                     std::size_t k) {
                                         mf::bulk::encode<mf::e5m2>(i, o, k);
                                       });
                                 });
    benchmark::RegisterBenchmark(("source/e4m3fn_to_binary16" + name).c_str(),
                                 [=](benchmark::State& s) {
                                   bench_source<std::uint8_t, std::uint16_t>(
                                       s, isa, n / 2, [](const std::uint8_t* i, std::uint16_t* o,
                                                         std::size_t k) {
                                         mf::bulk::decode_to_binary16<mf::e4m3fn>(i, o, k);
                                       });
                                 });
  }
}

#if MF_HAS_X86_KERNELS
// ---- baselines -------------------------------------------------------------
#define MF_BENCH_AVX512 \
  __attribute__((target("avx2,f16c,fma,avx512f,avx512bw,avx512vl,avx512dq")))
#define MF_BENCH_AVX2 __attribute__((target("avx2,f16c,fma")))

// Stream bound of encode: n floats in, n bytes out, the top byte of each
// float as the "conversion".
MF_BENCH_AVX512 void stream_encode_avx512(const float* in, std::uint8_t* out,
                                          std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    const __m512i a = _mm512_srli_epi32(_mm512_load_si512(in + i), 24);
    const __m512i b = _mm512_srli_epi32(_mm512_load_si512(in + i + 16), 24);
    const __m512i c = _mm512_srli_epi32(_mm512_load_si512(in + i + 32), 24);
    const __m512i d = _mm512_srli_epi32(_mm512_load_si512(in + i + 48), 24);
    const __m512i ab = _mm512_packus_epi32(a, b);
    const __m512i cd = _mm512_packus_epi32(c, d);
    _mm512_store_si512(out + i, _mm512_packus_epi16(ab, cd));  // lane order is irrelevant here
  }
  for (; i < n; ++i) {
    std::uint32_t u;
    std::memcpy(&u, in + i, 4);
    out[i] = static_cast<std::uint8_t>(u >> 24);
  }
}

// The same with non-temporal stores (the kernels stream outputs of 8 MiB and
// more; n a multiple of 64 here, out 64-byte aligned).
MF_BENCH_AVX512 void stream_nt_encode_avx512(const float* in, std::uint8_t* out,
                                             std::size_t n) {
  for (std::size_t i = 0; i + 64 <= n; i += 64) {
    const __m512i a = _mm512_srli_epi32(_mm512_load_si512(in + i), 24);
    const __m512i b = _mm512_srli_epi32(_mm512_load_si512(in + i + 16), 24);
    const __m512i c = _mm512_srli_epi32(_mm512_load_si512(in + i + 32), 24);
    const __m512i d = _mm512_srli_epi32(_mm512_load_si512(in + i + 48), 24);
    _mm512_stream_si512(reinterpret_cast<__m512i*>(out + i),
                        _mm512_packus_epi16(_mm512_packus_epi32(a, b),
                                            _mm512_packus_epi32(c, d)));
  }
  _mm_sfence();
}

MF_BENCH_AVX512 void stream_nt_decode_avx512(const std::uint8_t* in, float* out,
                                             std::size_t n) {
  for (std::size_t i = 0; i + 16 <= n; i += 16) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(out + i),
                        _mm512_slli_epi32(_mm512_cvtepu8_epi32(_mm_load_si128(
                                              reinterpret_cast<const __m128i*>(in + i))),
                                          24));
  }
  _mm_sfence();
}

// Stream bound of decode: n bytes in, n floats out (byte << 24).
MF_BENCH_AVX512 void stream_decode_avx512(const std::uint8_t* in, float* out,
                                          std::size_t n) {
  std::size_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i v = _mm512_slli_epi32(
        _mm512_cvtepu8_epi32(_mm_load_si128(reinterpret_cast<const __m128i*>(in + i))), 24);
    _mm512_store_si512(out + i, v);
  }
  for (; i < n; ++i) {
    const std::uint32_t u = static_cast<std::uint32_t>(in[i]) << 24;
    std::memcpy(out + i, &u, 4);
  }
}

// The same four bounds in ymm registers, for a CPU whose widest kernels are
// AVX2 (the memory bound is not the ISA's, but a CPU without AVX-512 needs a
// loop it can run; the compare scripts take the faster of the two forms).

// The top byte of each of the 8 floats at p (32-byte aligned), in 32-bit
// lanes; of the 32 floats at p, in one vector (lane order is irrelevant
// here). Functions, not lambdas: a lambda would not take the target.
MF_BENCH_AVX2 inline __m256i top_bytes_of_8(const float* p) {
  return _mm256_srli_epi32(_mm256_load_si256(reinterpret_cast<const __m256i*>(p)), 24);
}
MF_BENCH_AVX2 inline __m256i top_bytes_of_32(const float* p) {
  return _mm256_packus_epi16(_mm256_packus_epi32(top_bytes_of_8(p), top_bytes_of_8(p + 8)),
                             _mm256_packus_epi32(top_bytes_of_8(p + 16), top_bytes_of_8(p + 24)));
}

MF_BENCH_AVX2 void stream_encode_avx2(const float* in, std::uint8_t* out, std::size_t n) {
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + i), top_bytes_of_32(in + i));
  }
  for (; i < n; ++i) {
    std::uint32_t u;
    std::memcpy(&u, in + i, 4);
    out[i] = static_cast<std::uint8_t>(u >> 24);
  }
}

MF_BENCH_AVX2 void stream_nt_encode_avx2(const float* in, std::uint8_t* out, std::size_t n) {
  for (std::size_t i = 0; i + 32 <= n; i += 32) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(out + i), top_bytes_of_32(in + i));
  }
  _mm_sfence();
}

MF_BENCH_AVX2 void stream_nt_decode_avx2(const std::uint8_t* in, float* out, std::size_t n) {
  for (std::size_t i = 0; i + 8 <= n; i += 8) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(out + i),
                        _mm256_slli_epi32(_mm256_cvtepu8_epi32(_mm_loadl_epi64(
                                              reinterpret_cast<const __m128i*>(in + i))),
                                          24));
  }
  _mm_sfence();
}

// The tail starts at a bound computed before the loop: with `for (; i + 8
// <= n; ...)` g++ counted with lea at -O3 and add at -O2, and
// check_baseline_asm.py wants the same main loop at both levels.
MF_BENCH_AVX2 void stream_decode_avx2(const std::uint8_t* in, float* out, std::size_t n) {
  const std::size_t whole = n - n % 8;
  for (std::size_t i = 0; i < whole; i += 8) {
    const __m256i v = _mm256_slli_epi32(
        _mm256_cvtepu8_epi32(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(in + i))), 24);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + i), v);
  }
  for (std::size_t i = whole; i < n; ++i) {
    const std::uint32_t u = static_cast<std::uint32_t>(in[i]) << 24;
    std::memcpy(out + i, &u, 4);
  }
}

// ---- the CPU's float32 <-> binary16 conversions ------------------------------
// Each in two forms, timed separately, because the forms differ in speed:
//   register form: vcvtps2ph into a register, then a plain store (encode);
//                  a plain load, then vcvtph2ps from the register (decode)
//   memory form:   vcvtps2ph with a memory destination (encode); vcvtph2ps
//                  with a memory source (decode)
// The memory-destination vcvtps2ph is slower on AMD cores: on a Zen 4
// (family 25 model 17) 1.1-1.2x for the 512-bit form and 2.0-2.1x for the
// ymm form in L1 (docs/performance.md); about 2.7x has been reported on a
// Zen 5. g++ folds `store(cvtps_ph(x))` into it unless the value is pinned
// in a register, so an unpinned baseline times the slow form.
// The bulk kernels are compared with the faster form of each (hw_f16/...);
// the memory forms are the extra rows hw_f16_mem/...
//
// Forms are pinned, not left to the compiler: MF_BENCH_IN_REGISTER(v) is an
// empty asm that takes and gives back v in a vector register, so the
// conversion cannot be folded into the store (or the load into the
// conversion); the memory forms are written as inline asm. Both forms run
// 64 elements per iteration on AVX-512 (32 on AVX2): four independent
// conversions, unrolled by hand because g++ -O2 does not unroll a loop over
// k (it kept an array on the stack and copied it out).
//
// Checked in the generated code (objdump -d), g++ 12.2 at -O3
// (minifloat_bench_bulk) and at -O2 (minifloat_bench_bulk_o2), and clang 14
// at -O3 and -O2, by bench/check_baseline_asm.py: each register-form loop
// has 4 vector vcvtps2ph/vcvtph2ps with register operands only (encode:
// vcvtps2ph $0,%zmm,%ymm then vmovdqa %ymm,(mem); decode: vmovdqa
// (mem),%ymm then vcvtph2ps %ymm,%zmm; AVX2 the same with ymm/xmm), each
// memory-form loop 4 with the memory operand, and every baseline's main loop
// is the same instruction sequence at -O2 and -O3. Without
// MF_BENCH_IN_REGISTER g++ 12 -O3 folds the store into vcvtps2ph (the check
// then fails). Re-run it after touching these functions.
#define MF_BENCH_IN_REGISTER(v) __asm__("" : "+v"(v))
// vcvtps2ph $0 (nearest even) of the vector x into the Half-typed memory at p.
#define MF_BENCH_CVTPS2PH_TO_MEMORY(x, Half, p) \
  __asm__("vcvtps2ph $0, %1, %0" : "=m"(*reinterpret_cast<Half*>(p)) : "v"(x))
// vcvtph2ps of the Half-typed memory at p into the vector x.
#define MF_BENCH_CVTPH2PS_FROM_MEMORY(x, Half, p) \
  __asm__("vcvtph2ps %1, %0" : "=v"(x) : "m"(*reinterpret_cast<const Half*>(p)))

MF_BENCH_AVX512 void hw_f16_encode_avx512(const float* in, std::uint16_t* out,
                                          std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m256i h0 = _mm512_cvtps_ph(_mm512_load_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
    __m256i h1 = _mm512_cvtps_ph(_mm512_load_ps(in + i + 16), _MM_FROUND_TO_NEAREST_INT);
    __m256i h2 = _mm512_cvtps_ph(_mm512_load_ps(in + i + 32), _MM_FROUND_TO_NEAREST_INT);
    __m256i h3 = _mm512_cvtps_ph(_mm512_load_ps(in + i + 48), _MM_FROUND_TO_NEAREST_INT);
    MF_BENCH_IN_REGISTER(h0);
    MF_BENCH_IN_REGISTER(h1);
    MF_BENCH_IN_REGISTER(h2);
    MF_BENCH_IN_REGISTER(h3);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + i), h0);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + i + 16), h1);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + i + 32), h2);
    _mm256_store_si256(reinterpret_cast<__m256i*>(out + i + 48), h3);
  }
  for (; i < n; ++i) out[i] = mf::binary16(in[i]).bits();
}

MF_BENCH_AVX512 void hw_f16_mem_encode_avx512(const float* in, std::uint16_t* out,
                                              std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    MF_BENCH_CVTPS2PH_TO_MEMORY(_mm512_load_ps(in + i), __m256i, out + i);
    MF_BENCH_CVTPS2PH_TO_MEMORY(_mm512_load_ps(in + i + 16), __m256i, out + i + 16);
    MF_BENCH_CVTPS2PH_TO_MEMORY(_mm512_load_ps(in + i + 32), __m256i, out + i + 32);
    MF_BENCH_CVTPS2PH_TO_MEMORY(_mm512_load_ps(in + i + 48), __m256i, out + i + 48);
  }
  for (; i < n; ++i) out[i] = mf::binary16(in[i]).bits();
}

MF_BENCH_AVX512 void hw_f16_decode_avx512(const std::uint16_t* in, float* out,
                                          std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m256i h0 = _mm256_load_si256(reinterpret_cast<const __m256i*>(in + i));
    __m256i h1 = _mm256_load_si256(reinterpret_cast<const __m256i*>(in + i + 16));
    __m256i h2 = _mm256_load_si256(reinterpret_cast<const __m256i*>(in + i + 32));
    __m256i h3 = _mm256_load_si256(reinterpret_cast<const __m256i*>(in + i + 48));
    MF_BENCH_IN_REGISTER(h0);
    MF_BENCH_IN_REGISTER(h1);
    MF_BENCH_IN_REGISTER(h2);
    MF_BENCH_IN_REGISTER(h3);
    _mm512_store_ps(out + i, _mm512_cvtph_ps(h0));
    _mm512_store_ps(out + i + 16, _mm512_cvtph_ps(h1));
    _mm512_store_ps(out + i + 32, _mm512_cvtph_ps(h2));
    _mm512_store_ps(out + i + 48, _mm512_cvtph_ps(h3));
  }
  for (; i < n; ++i) out[i] = static_cast<float>(mf::binary16::from_bits(in[i]));
}

MF_BENCH_AVX512 void hw_f16_mem_decode_avx512(const std::uint16_t* in, float* out,
                                              std::size_t n) {
  std::size_t i = 0;
  for (; i + 64 <= n; i += 64) {
    __m512 x0, x1, x2, x3;
    MF_BENCH_CVTPH2PS_FROM_MEMORY(x0, __m256i, in + i);
    MF_BENCH_CVTPH2PS_FROM_MEMORY(x1, __m256i, in + i + 16);
    MF_BENCH_CVTPH2PS_FROM_MEMORY(x2, __m256i, in + i + 32);
    MF_BENCH_CVTPH2PS_FROM_MEMORY(x3, __m256i, in + i + 48);
    _mm512_store_ps(out + i, x0);
    _mm512_store_ps(out + i + 16, x1);
    _mm512_store_ps(out + i + 32, x2);
    _mm512_store_ps(out + i + 48, x3);
  }
  for (; i < n; ++i) out[i] = static_cast<float>(mf::binary16::from_bits(in[i]));
}

// AVX2 + F16C (the ymm forms): 8 elements per conversion, 32 per iteration.
MF_BENCH_AVX2 void hw_f16_encode_f16c(const float* in, std::uint16_t* out,
                                      std::size_t n) {
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m128i h0 = _mm256_cvtps_ph(_mm256_load_ps(in + i), _MM_FROUND_TO_NEAREST_INT);
    __m128i h1 = _mm256_cvtps_ph(_mm256_load_ps(in + i + 8), _MM_FROUND_TO_NEAREST_INT);
    __m128i h2 = _mm256_cvtps_ph(_mm256_load_ps(in + i + 16), _MM_FROUND_TO_NEAREST_INT);
    __m128i h3 = _mm256_cvtps_ph(_mm256_load_ps(in + i + 24), _MM_FROUND_TO_NEAREST_INT);
    MF_BENCH_IN_REGISTER(h0);
    MF_BENCH_IN_REGISTER(h1);
    MF_BENCH_IN_REGISTER(h2);
    MF_BENCH_IN_REGISTER(h3);
    _mm_store_si128(reinterpret_cast<__m128i*>(out + i), h0);
    _mm_store_si128(reinterpret_cast<__m128i*>(out + i + 8), h1);
    _mm_store_si128(reinterpret_cast<__m128i*>(out + i + 16), h2);
    _mm_store_si128(reinterpret_cast<__m128i*>(out + i + 24), h3);
  }
  for (; i < n; ++i) out[i] = mf::binary16(in[i]).bits();
}

MF_BENCH_AVX2 void hw_f16_mem_encode_f16c(const float* in, std::uint16_t* out,
                                          std::size_t n) {
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    MF_BENCH_CVTPS2PH_TO_MEMORY(_mm256_load_ps(in + i), __m128i, out + i);
    MF_BENCH_CVTPS2PH_TO_MEMORY(_mm256_load_ps(in + i + 8), __m128i, out + i + 8);
    MF_BENCH_CVTPS2PH_TO_MEMORY(_mm256_load_ps(in + i + 16), __m128i, out + i + 16);
    MF_BENCH_CVTPS2PH_TO_MEMORY(_mm256_load_ps(in + i + 24), __m128i, out + i + 24);
  }
  for (; i < n; ++i) out[i] = mf::binary16(in[i]).bits();
}

MF_BENCH_AVX2 void hw_f16_decode_f16c(const std::uint16_t* in, float* out,
                                      std::size_t n) {
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m128i h0 = _mm_load_si128(reinterpret_cast<const __m128i*>(in + i));
    __m128i h1 = _mm_load_si128(reinterpret_cast<const __m128i*>(in + i + 8));
    __m128i h2 = _mm_load_si128(reinterpret_cast<const __m128i*>(in + i + 16));
    __m128i h3 = _mm_load_si128(reinterpret_cast<const __m128i*>(in + i + 24));
    MF_BENCH_IN_REGISTER(h0);
    MF_BENCH_IN_REGISTER(h1);
    MF_BENCH_IN_REGISTER(h2);
    MF_BENCH_IN_REGISTER(h3);
    _mm256_store_ps(out + i, _mm256_cvtph_ps(h0));
    _mm256_store_ps(out + i + 8, _mm256_cvtph_ps(h1));
    _mm256_store_ps(out + i + 16, _mm256_cvtph_ps(h2));
    _mm256_store_ps(out + i + 24, _mm256_cvtph_ps(h3));
  }
  for (; i < n; ++i) out[i] = static_cast<float>(mf::binary16::from_bits(in[i]));
}

MF_BENCH_AVX2 void hw_f16_mem_decode_f16c(const std::uint16_t* in, float* out,
                                          std::size_t n) {
  std::size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    __m256 x0, x1, x2, x3;
    MF_BENCH_CVTPH2PS_FROM_MEMORY(x0, __m128i, in + i);
    MF_BENCH_CVTPH2PS_FROM_MEMORY(x1, __m128i, in + i + 8);
    MF_BENCH_CVTPH2PS_FROM_MEMORY(x2, __m128i, in + i + 16);
    MF_BENCH_CVTPH2PS_FROM_MEMORY(x3, __m128i, in + i + 24);
    _mm256_store_ps(out + i, x0);
    _mm256_store_ps(out + i + 8, x1);
    _mm256_store_ps(out + i + 16, x2);
    _mm256_store_ps(out + i + 24, x3);
  }
  for (; i < n; ++i) out[i] = static_cast<float>(mf::binary16::from_bits(in[i]));
}

template <class In, class Out, void (*Kernel)(const In*, Out*, std::size_t)>
void bench_baseline(benchmark::State& state, std::size_t n, bool needs_avx512) {
  if (!mf::target::isa_supported(needs_avx512 ? mf::target::isa::avx512
                                            : mf::target::isa::avx2)) {
    state.SkipWithError("ISA not available");
    return;
  }
  aligned_buffer<In> in(n);
  aligned_buffer<Out> out(n);
  if constexpr (sizeof(In) == 4) {
    fill_floats(reinterpret_cast<float*>(in.data), n);
  } else {
    fill_codes(in.data, n);
  }
  for (auto _ : state) {
    Kernel(in.data, out.data, n);
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  set_counters(state, n, n * sizeof(In), n * sizeof(Out));
}

template <class In, class Out, void (*Kernel)(const In*, Out*, std::size_t)>
void register_baseline(const std::string& name, std::size_t n, bool needs_avx512) {
  benchmark::RegisterBenchmark(name.c_str(), [=](benchmark::State& s) {
    bench_baseline<In, Out, Kernel>(s, n, needs_avx512);
  });
}
#endif

#if MF_HAS_AVX512_KERNELS
// One AVX-512 byte route of the e5m2 decode, forced: the dispatch picks the
// route by the CPU's vendor and the size (bulk/avx512.hpp), so that one
// machine measures both.
//
// Its bound on a core where the memory form of vcvtph2ps skips the shuffle
// port: the route's widening (two vpermb into the top bytes of 64 halves) and
// its conversion from memory, without the NaN step (wrong bits for NaN
// inputs: a timing only).
MF_TARGET_AVX512VBMI void decode_route_bound(const std::uint8_t* in, float* out, std::size_t n) {
  const auto& positions = mf::bulk::avx512::binary16_half_positions;
  const __m512i low_elements = _mm512_load_si512(positions.low_elements);
  const __m512i high_elements = _mm512_load_si512(positions.high_elements);
  struct {
    alignas(64) std::uint16_t bits[64];
  } halves;
  for (std::size_t i = 0; i + 64 <= n; i += 64) {
    const __m512i bytes = _mm512_loadu_si512(in + i);
    _mm512_store_si512(halves.bits, _mm512_maskz_permutexvar_epi8(0xAAAAAAAAAAAAAAAAull,
                                                                   low_elements, bytes));
    _mm512_store_si512(halves.bits + 32, _mm512_maskz_permutexvar_epi8(0xAAAAAAAAAAAAAAAAull,
                                                                        high_elements, bytes));
    __asm__("" : "+m"(halves));
    __m512 f0, f1, f2, f3;
    MF_BENCH_CVTPH2PS_FROM_MEMORY(f0, __m256i, halves.bits);
    MF_BENCH_CVTPH2PS_FROM_MEMORY(f1, __m256i, halves.bits + 16);
    MF_BENCH_CVTPH2PS_FROM_MEMORY(f2, __m256i, halves.bits + 32);
    MF_BENCH_CVTPH2PS_FROM_MEMORY(f3, __m256i, halves.bits + 48);
    _mm512_storeu_ps(out + i, f0);
    _mm512_storeu_ps(out + i + 16, f1);
    _mm512_storeu_ps(out + i + 32, f2);
    _mm512_storeu_ps(out + i + 48, f3);
  }
}

// Decode: a route of the library or the bound above, on a CPU with VBMI.
template <void (*Decode)(const std::uint8_t*, float*, std::size_t)>
void bench_decode_route(benchmark::State& state, std::size_t n) {
  if (!mf::target::detail::cpu().avx512vbmi) {
    state.SkipWithError("no AVX-512 VBMI on this CPU");
    return;
  }
  aligned_buffer<std::uint8_t> in(n);
  aligned_buffer<float> out(n);
  fill_codes(in.data, n);
  for (auto _ : state) {
    Decode(in.data, out.data, n);
    benchmark::DoNotOptimize(out.data);
    benchmark::ClobberMemory();
  }
  set_counters(state, n, n, n * sizeof(float));
}
#endif

const char* ovf_name(mf::overflow o) {
  return o == mf::overflow::saturating ? "nearest_sat" : "nearest";
}

void register_all() {
  const mf::target::isa isas[] = {mf::target::isa::scalar, mf::target::isa::avx2,
                                mf::target::isa::avx512, mf::target::isa::neon};
  for (const size_class& size : kSizes) {
    // Element counts: encode writes 1 byte per element, decode 4.
    const std::size_t n_encode = size.output_bytes;
    const std::size_t n_decode = size.output_bytes / 4;
    const std::string suffix = std::string("/") + size.name;
#if MF_HAS_X86_KERNELS
    benchmark::RegisterBenchmark(("stream/encode/avx512" + suffix).c_str(),
                                 [=](benchmark::State& s) {
                                   bench_baseline<float, std::uint8_t, stream_encode_avx512>(
                                       s, n_encode, true);
                                 });
    benchmark::RegisterBenchmark(("stream_nt/encode/avx512" + suffix).c_str(),
                                 [=](benchmark::State& s) {
                                   bench_baseline<float, std::uint8_t, stream_nt_encode_avx512>(
                                       s, n_encode, true);
                                 });
    benchmark::RegisterBenchmark(("stream_nt/decode/avx512" + suffix).c_str(),
                                 [=](benchmark::State& s) {
                                   bench_baseline<std::uint8_t, float, stream_nt_decode_avx512>(
                                       s, n_decode, true);
                                 });
    benchmark::RegisterBenchmark(("stream/decode/avx512" + suffix).c_str(),
                                 [=](benchmark::State& s) {
                                   bench_baseline<std::uint8_t, float, stream_decode_avx512>(
                                       s, n_decode, true);
                                 });
    register_baseline<float, std::uint8_t, stream_encode_avx2>("stream/encode/avx2" + suffix,
                                                               n_encode, false);
    register_baseline<float, std::uint8_t, stream_nt_encode_avx2>("stream_nt/encode/avx2" + suffix,
                                                                  n_encode, false);
    register_baseline<std::uint8_t, float, stream_decode_avx2>("stream/decode/avx2" + suffix,
                                                               n_decode, false);
    register_baseline<std::uint8_t, float, stream_nt_decode_avx2>("stream_nt/decode/avx2" + suffix,
                                                                  n_decode, false);
    // hw_f16: the register forms (the baselines of the ratios); hw_f16_mem:
    // the memory forms (see "the CPU's float32 <-> binary16 conversions").
    register_baseline<float, std::uint16_t, hw_f16_encode_avx512>(
        "hw_f16/encode/avx512" + suffix, n_encode, true);
    register_baseline<float, std::uint16_t, hw_f16_mem_encode_avx512>(
        "hw_f16_mem/encode/avx512" + suffix, n_encode, true);
    register_baseline<float, std::uint16_t, hw_f16_encode_f16c>(
        "hw_f16/encode/f16c" + suffix, n_encode, false);
    register_baseline<float, std::uint16_t, hw_f16_mem_encode_f16c>(
        "hw_f16_mem/encode/f16c" + suffix, n_encode, false);
    register_baseline<std::uint16_t, float, hw_f16_decode_avx512>(
        "hw_f16/decode/avx512" + suffix, n_decode, true);
    register_baseline<std::uint16_t, float, hw_f16_mem_decode_avx512>(
        "hw_f16_mem/decode/avx512" + suffix, n_decode, true);
    register_baseline<std::uint16_t, float, hw_f16_decode_f16c>(
        "hw_f16/decode/f16c" + suffix, n_decode, false);
    register_baseline<std::uint16_t, float, hw_f16_mem_decode_f16c>(
        "hw_f16_mem/decode/f16c" + suffix, n_decode, false);
#endif
#if MF_HAS_AVX512_KERNELS
    using mf::bulk::avx512::byte_route;
    benchmark::RegisterBenchmark(
        ("decode_route/e5m2/table/avx512" + suffix).c_str(), [=](benchmark::State& s) {
          bench_decode_route<mf::bulk::avx512::decode_bytes<mf::e5m2, byte_route::table>>(
              s, n_decode);
        });
    benchmark::RegisterBenchmark(
        ("decode_route/e5m2/binary16/avx512" + suffix).c_str(), [=](benchmark::State& s) {
          bench_decode_route<mf::bulk::avx512::decode_bytes<mf::e5m2, byte_route::binary16>>(
              s, n_decode);
        });
    benchmark::RegisterBenchmark(("decode_route/e5m2/bound_no_nan/avx512" + suffix).c_str(),
                                 [=](benchmark::State& s) {
                                   bench_decode_route<decode_route_bound>(s, n_decode);
                                 });
#endif
    for (mf::target::isa isa : isas) {
      if (!mf::target::isa_supported(isa)) continue;
      const std::string name = std::string("/") + mf::target::isa_name(isa) + suffix;
      for (mf::overflow ovf : {mf::overflow::non_saturating, mf::overflow::saturating}) {
        benchmark::RegisterBenchmark(
            ("encode/e4m3fn/" + std::string(ovf_name(ovf)) + name).c_str(),
            [=](benchmark::State& s) { bench_encode<mf::e4m3fn>(s, isa, n_encode, ovf); });
        benchmark::RegisterBenchmark(
            ("encode/e5m2/" + std::string(ovf_name(ovf)) + name).c_str(),
            [=](benchmark::State& s) { bench_encode<mf::e5m2>(s, isa, n_encode, ovf); });
      }
      // Toward zero: the formats that take the encode through binary16
      // (bulk/generic/binary16_lanes.hpp) on AVX2.
      benchmark::RegisterBenchmark(
          ("encode/e4m3fn/toward_zero" + name).c_str(), [=](benchmark::State& s) {
            bench_encode<mf::e4m3fn>(s, isa, n_encode, mf::overflow::non_saturating,
                                     mf::rounding::toward_zero);
          });
      benchmark::RegisterBenchmark(
          ("encode/e5m2/toward_zero" + name).c_str(), [=](benchmark::State& s) {
            bench_encode<mf::e5m2>(s, isa, n_encode, mf::overflow::non_saturating,
                                   mf::rounding::toward_zero);
          });
      benchmark::RegisterBenchmark(
          ("decode/e4m3fn/exact" + name).c_str(),
          [=](benchmark::State& s) { bench_decode<mf::e4m3fn>(s, isa, n_decode); });
      benchmark::RegisterBenchmark(
          ("decode/e5m2/exact" + name).c_str(),
          [=](benchmark::State& s) { bench_decode<mf::e5m2>(s, isa, n_decode); });
      benchmark::RegisterBenchmark(
          ("decode/e4m3fn/scaled" + name).c_str(),
          [=](benchmark::State& s) { bench_decode<mf::e4m3fn>(s, isa, n_decode, 0.375f); });
    }
  }
  // The other formats, best ISA, L1 only (target: within 1.5x of e4m3fn).
  const mf::target::isa best = mf::target::best_isa();
  const std::string name = std::string("/") + mf::target::isa_name(best) + "/4KiB";
  const std::size_t n = kSizes[0].output_bytes;
#define MF_BENCH_FORMAT(F)                                                        \
  benchmark::RegisterBenchmark(("encode/" #F "/nearest" + name).c_str(),          \
                               [=](benchmark::State& s) {                         \
                                 bench_encode<mf::F>(s, best, n,                  \
                                                     mf::overflow::non_saturating); \
                               });                                                \
  benchmark::RegisterBenchmark(("decode/" #F "/exact" + name).c_str(),            \
                               [=](benchmark::State& s) {                         \
                                 bench_decode<mf::F>(s, best, n / 4);             \
                               });
  MF_BENCH_FORMAT(e4m3fnuz)
  MF_BENCH_FORMAT(e5m2fnuz)
  MF_BENCH_FORMAT(e2m1fn)
  MF_BENCH_FORMAT(e2m3fn)
  MF_BENCH_FORMAT(e3m2fn)
  MF_BENCH_FORMAT(e8m0fnu)
  MF_BENCH_FORMAT(e4m3)
  MF_BENCH_FORMAT(e3m4)
  MF_BENCH_FORMAT(e4m3b11fnuz)
#undef MF_BENCH_FORMAT
  register_sources(best);
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
