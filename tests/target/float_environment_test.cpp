// The library's float entries give the same bits whatever floating-point
// environment the caller holds (docs/semantics.md, section 11): the hybrid
// MatMul, element-wise ops and accumulate(), the scaling module, ONNX's
// QuantizeLinear, DequantizeLinear and Cast, MX, NVFP4, the bulk encode
// without a scale, and calibration. The environments: every rounding
// direction, flush-to-zero and denormals-are-zero (which a library built
// with -ffast-math sets for a whole process), every exception unmasked (a
// rounding that the library did not expect would trap). The MatMul on the
// fast kernels and on the reference loop, with one and two threads; the
// MatMul, MX and the bulk encode on every kernel set; the value type's
// operators and conversion to double where its values include float
// subnormals. The caller's environment must come back unchanged.
//
// The integer MatMul's fp32 requantization follows the rounding direction
// on purpose (hybrid/integer_matmul_test.cpp).
#include <gtest/gtest.h>

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/calibration.hpp>
#include <minifloat/hybrid.hpp>
#include <minifloat/mx.hpp>
#include <minifloat/onnx.hpp>
#include <minifloat/scaling.hpp>

#include "support/isa_tests.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

namespace {

namespace hy = mf::hybrid;

// One environment a caller might hold: a name, how to enter it and how to
// leave it, and whether it unmasks exceptions (a float operation with an
// exceptional result then traps, as the caller asked).
struct environment {
  std::string name;
  std::function<void()> enter;
  std::function<void()> leave;
  bool traps = false;
};

std::vector<environment> caller_environments() {
  std::vector<environment> all;
  const auto rounding = [](const char* name, int mode) {
    return environment{name, [mode] { ASSERT_EQ(std::fesetround(mode), 0); },
                       [] { std::fesetround(FE_TONEAREST); }};
  };
  all.push_back(rounding("toward zero", FE_TOWARDZERO));
  all.push_back(rounding("upward", FE_UPWARD));
  all.push_back(rounding("downward", FE_DOWNWARD));
#if defined(__x86_64__) || defined(_M_X64)
  // MXCSR (Intel SDM vol. 1, 10.2.3): FTZ bit 15, DAZ bit 6, the exception
  // masks bits 7-12.
  const auto mxcsr = [](const char* name, unsigned set, unsigned clear) {
    auto saved = std::make_shared<unsigned>(0);
    return environment{name,
                       [=] {
                         *saved = _mm_getcsr();
                         _mm_setcsr((*saved & ~clear) | set);
                       },
                       [=] { _mm_setcsr(*saved); }};
  };
  all.push_back(mxcsr("FTZ and DAZ", 0x8040u, 0));
  all.push_back(mxcsr("every exception unmasked", 0, 0x1F80u));
  all.back().traps = true;
  all.push_back(mxcsr("toward zero, FTZ and DAZ", 0xE040u, 0));
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
  // FPCR.FZ (bit 24) and FPCR.DN (bit 25, default NaN).
  auto saved = std::make_shared<std::uint64_t>(0);
  all.push_back(environment{"FZ and DN",
                            [=] {
                              std::uint64_t fpcr = 0;
                              __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
                              *saved = fpcr;
                              __asm__ __volatile__("msr fpcr, %0" : : "r"(fpcr | (3ull << 24)));
                            },
                            [=] { __asm__ __volatile__("msr fpcr, %0" : : "r"(*saved)); }});
#endif
  return all;
}

// The controls of the environment now (not its exception flags).
unsigned long long controls() {
#if defined(__x86_64__) || defined(_M_X64)
  return _mm_getcsr() & 0xFFC0u;
#elif defined(__aarch64__) && (defined(__GNUC__) || defined(__clang__))
  std::uint64_t fpcr = 0;
  __asm__ __volatile__("mrs %0, fpcr" : "=r"(fpcr));
  return fpcr;
#else
  return static_cast<unsigned long long>(std::fegetround());
#endif
}

std::vector<mf::e4m3fn> wide_codes(std::size_t n, std::mt19937& rng) {
  std::vector<mf::e4m3fn> v(n);
  for (auto& x : v) {
    unsigned c;
    do {
      c = rng() & 0xFFu;
    } while ((c & 0x7Fu) == 0x7Fu);  // NaN
    x = mf::e4m3fn::from_bits(static_cast<std::uint8_t>(c));
  }
  return v;
}

std::vector<std::uint32_t> bits_of(const std::vector<float>& v) {
  std::vector<std::uint32_t> b(v.size());
  std::memcpy(b.data(), v.data(), v.size() * sizeof(float));
  return b;
}

// Runs `compute` in the default environment, then in each caller
// environment, and expects the same bits and the caller's controls back.
// With `in_trapping`, also where exceptions are unmasked: the library's
// entries run with them masked; the value type's operators are float
// operations of the caller's, which trap there as the caller's own would.
void expect_environment_free(const std::function<std::vector<std::uint32_t>()>& compute,
                             bool in_trapping = true) {
  const std::vector<std::uint32_t> expected = compute();
  for (const environment& e : caller_environments()) {
    if (e.traps && !in_trapping) continue;
    SCOPED_TRACE(e.name);
    e.enter();
    const unsigned long long entered = controls();
    const std::vector<std::uint32_t> got = compute();
    const unsigned long long after = controls();
    e.leave();
    EXPECT_EQ(after, entered) << "the caller's environment was not restored";
    std::size_t differ = 0;
    for (std::size_t i = 0; i < got.size(); ++i) differ += got[i] != expected[i];
    EXPECT_EQ(differ, 0u) << "of " << got.size();
  }
}

TEST(FloatEnvironment, MatMulIsTheSameInEveryEnvironment) {
  std::mt19937 rng(2026);
  const std::size_t m = 13, n = 40, k = 96;  // tails in M and N
  const auto a = wide_codes(m * k, rng), b = wide_codes(k * n, rng);
  const std::vector<hy::accumulation_model> models = {
      hy::models::sequential_fp32(),
      hy::models::exact(),
      hy::models::exact(true),
      hy::models::chunked_exact(32),
      hy::models::chunked_exact(32, hy::fp32_rounding::toward_zero),
      hy::models::reduced_precision(14, 32),
      hy::models::reduced_precision(14, 32, hy::reduced_variant::seq, 32, hy::truncation::floor),
      hy::models::reduced_precision(11, 64, hy::reduced_variant::block, 16),
      hy::models::avx512_bf16_pairs(),
  };
  for (const mf::target::isa isa : mft::available_isas()) {
  const mft::isa_scope selected(isa);
  for (const auto& model : models) {
    for (const bool reference : {false, true}) {
      for (const unsigned threads : {1u, 2u}) {
        SCOPED_TRACE(std::string(mf::target::isa_name(isa)) + ", model " +
                     std::to_string(static_cast<int>(model.kind)) + (reference ? ", reference" : ", fast") +
                     ", threads " + std::to_string(threads));
        expect_environment_free([&] {
          hy::matmul_options o;
          o.model = model;
          o.reference_only = reference;
          o.threads = threads;
          // Scales that put many outputs among float32's subnormals, where
          // flush-to-zero would act, and make every epilogue step round.
          o.scales.a = 0x1.3p-100f;
          o.scales.b = 0x1.7p-30f;
          std::vector<float> c(m * n);
          hy::matmul<hy::any>(a.data(), k, b.data(), n, c.data(), n, m, n, k, o);
          return bits_of(c);
        });
      }
    }
  }
  }
}

TEST(FloatEnvironment, EltwiseIsTheSameInEveryEnvironment) {
  std::mt19937 rng(7);
  const std::size_t rows = 5, columns = 48;
  const auto a = wide_codes(rows * columns, rng), b = wide_codes(rows * columns, rng);
  for (const hy::eltwise_op op : {hy::eltwise_op::add, hy::eltwise_op::mul}) {
    for (const bool reference : {false, true}) {
      SCOPED_TRACE(std::string(op == hy::eltwise_op::add ? "add" : "mul") +
                   (reference ? ", reference" : ", fast"));
      expect_environment_free([&] {
        hy::eltwise_options o;
        o.op = op;
        o.reference_only = reference;
        o.a_scale = {true, 0x1.33p-2f};  // FP16 values, as the rule needs
        o.b_scale = {true, 0x1.b3p0f};
        std::vector<mf::binary16> c(rows * columns);
        hy::eltwise<hy::any>(a.data(), b.data(), b.size(), c.data(), rows, columns, o);
        std::vector<std::uint32_t> bits(c.size());
        for (std::size_t i = 0; i < c.size(); ++i) bits[i] = c[i].bits();
        return bits;
      });
    }
  }
}

TEST(FloatEnvironment, AccumulateIsTheSameInEveryEnvironment) {
  // Products near float32's smallest normals, and sums that round.
  std::vector<float> x, y;
  std::mt19937 rng(3);
  for (int i = 0; i < 64; ++i) {
    x.push_back(std::ldexp(1.0f + static_cast<float>(rng() % 1024) / 1024.0f, -70 + static_cast<int>(rng() % 8)));
    y.push_back((rng() & 1 ? -1.0f : 1.0f) * std::ldexp(1.0f + static_cast<float>(rng() % 1024) / 1024.0f, -60));
  }
  expect_environment_free([&] {
    std::vector<float> r;
    for (const auto& model : {hy::models::sequential_fp32(), hy::models::exact(), hy::models::chunked_exact(16)}) {
      r.push_back(hy::accumulate(model, x.data(), y.data(), x.size()));
    }
    return bits_of(r);
  });
}

// Values from 2^-140 to 2^10 of both signs: subnormal floats, values that
// round in every conversion, some beyond FP8's range.
std::vector<float> wide_floats(std::size_t n, std::mt19937& rng) {
  std::vector<float> v(n);
  for (float& x : v) {
    const float m = 1.0f + static_cast<float>(rng() % (1u << 23)) * 0x1p-23f;
    x = (rng() & 1 ? -1.0f : 1.0f) * std::ldexp(m, static_cast<int>(rng() % 151) - 140);
  }
  return v;
}

std::vector<std::uint32_t> with_floats(std::vector<std::uint32_t> bits, const std::vector<float>& v) {
  const std::vector<std::uint32_t> more = bits_of(v);
  bits.insert(bits.end(), more.begin(), more.end());
  return bits;
}

template <class Codes>
std::vector<std::uint32_t> codes_of(const Codes& codes) {
  std::vector<std::uint32_t> bits;
  for (const auto c : codes) bits.push_back(static_cast<std::uint32_t>(c));
  return bits;
}

TEST(FloatEnvironment, ScalingIsTheSameInEveryEnvironment) {
  std::mt19937 rng(11);
  const std::size_t rows = 6, cols = 40;
  std::vector<float> x = wide_floats(rows * cols, rng);
  // Channels of small values, so that their scales are large and their
  // products round.
  for (std::size_t j = 0; j < cols; ++j) x[j] *= 0x1p-100f;
  expect_environment_free([&] {
    namespace sc = mf::scaling;
    std::vector<std::uint8_t> q(rows * cols);
    std::vector<float> back(rows * cols), scale_inv(cols), block_inv(sc::block_count(rows, cols, {2, 16}));
    std::vector<std::uint32_t> bits;
    bits.push_back(mf::detail::bit_cast<std::uint32_t>(sc::compute_scale<mf::e4m3fn>(0x1.37p-90f)));
    const float inv = sc::quantize_per_tensor<mf::e4m3fn>(x.data(), q.data(), q.size());
    sc::dequantize_per_tensor<mf::e4m3fn>(q.data(), back.data(), q.size(), inv);
    bits = with_floats(bits, {inv});
    bits = with_floats(bits, back);
    sc::quantize_per_channel<mf::e4m3fn>(x.data(), q.data(), scale_inv.data(), rows, cols,
                                         sc::channel_axis::columns);
    sc::dequantize_per_channel<mf::e4m3fn>(q.data(), scale_inv.data(), back.data(), rows, cols,
                                           sc::channel_axis::columns);
    bits = with_floats(bits, scale_inv);
    bits = with_floats(bits, back);
    sc::quantize_per_block<mf::e5m2>(x.data(), q.data(), block_inv.data(), rows, cols, {2, 16});
    sc::dequantize_per_block<mf::e5m2>(q.data(), block_inv.data(), back.data(), rows, cols, {2, 16});
    bits = with_floats(bits, block_inv);
    bits = with_floats(bits, back);
    sc::delayed_scaling<mf::e4m3fn> delayed(4);
    delayed.record(0x1.37p-90f);
    bits = with_floats(bits, {delayed.scale(), delayed.scale_inv()});
    delayed.record(1e-40f);  // a subnormal amax: DAZ would read it as 0
    return with_floats(bits, {delayed.reduced_amax(), delayed.scale(), delayed.scale_inv()});
  });
}

TEST(FloatEnvironment, OnnxIsTheSameInEveryEnvironment) {
  std::mt19937 rng(12);
  const std::vector<float> x = wide_floats(64, rng);
  std::vector<std::uint32_t> x_bits = bits_of(x);
  const mf::onnx::tensor tx = mf::onnx::tensor_from_codes(mf::onnx::data_type::float32, {4, 16}, x_bits);
  const mf::onnx::tensor scale = mf::onnx::tensor_from_codes(
      mf::onnx::data_type::float32, {}, {mf::detail::bit_cast<std::uint32_t>(0x1.37p-100f)});
  expect_environment_free([&] {
    mf::onnx::quantize_attributes q;
    q.output_dtype = mf::onnx::data_type::float8e4m3fn;
    const mf::onnx::tensor y = mf::onnx::quantize_linear(tx, scale, nullptr, q);
    const mf::onnx::tensor back = mf::onnx::dequantize_linear(y, scale, nullptr);
    mf::onnx::cast_attributes c;
    const mf::onnx::tensor half = mf::onnx::cast(tx, mf::onnx::data_type::bfloat16, c);
    std::vector<std::uint32_t> bits = codes_of(mf::onnx::codes_of(y));
    for (const auto& t : {back, half}) {
      const auto more = codes_of(mf::onnx::codes_of(t));
      bits.insert(bits.end(), more.begin(), more.end());
    }
    return bits;
  });
}

// MX's quantize and dequantize, and the bulk encode without a scale, are
// independent of the environment by construction (no guard): on every
// kernel set, since AVX2's route for subnormal results is a float add.
TEST(FloatEnvironment, MxIsTheSameInEveryEnvironment) {
  std::mt19937 rng(13);
  const std::vector<float> x = wide_floats(256, rng);
  for (const mf::target::isa isa : mft::available_isas()) {
  const mft::isa_scope selected(isa);
  SCOPED_TRACE(mf::target::isa_name(isa));
  expect_environment_free([&] {
    using fmt = mf::mx::mxfp8_e4m3;
    std::vector<std::uint8_t> scales(x.size() / fmt::block_size), elements(x.size());
    std::vector<float> back(x.size());
    mf::mx::quantize<fmt>(x.data(), scales.data(), elements.data(), x.size());
    mf::mx::dequantize<fmt>(scales.data(), elements.data(), back.data(), x.size());
    std::vector<std::uint32_t> bits = codes_of(scales);
    const auto e = codes_of(elements);
    bits.insert(bits.end(), e.begin(), e.end());
    bits = with_floats(bits, back);
    bits = with_floats(bits, {mf::mx::dot<fmt, fmt>(scales.data(), elements.data(), scales.data(),
                                                    elements.data(), x.size())});
    std::vector<std::uint8_t> nv_scales(x.size() / mf::mx::nvfp4::block_size),
        nv_elements(mf::mx::nvfp4::element_bytes(x.size()));
    const float tensor_scale = mf::mx::nvfp4::quantize(x.data(), nv_scales.data(), nv_elements.data(), x.size());
    mf::mx::nvfp4::dequantize(nv_scales.data(), nv_elements.data(), back.data(), x.size(), tensor_scale);
    const auto nv = codes_of(nv_scales);
    bits.insert(bits.end(), nv.begin(), nv.end());
    std::vector<std::uint8_t> encoded(x.size());
    mf::bulk::encode<mf::e4m3fn>(x.data(), encoded.data(), x.size());
    const auto en = codes_of(encoded);
    bits.insert(bits.end(), en.begin(), en.end());
    return with_floats(bits, back);
  });
  }
}

TEST(FloatEnvironment, CalibrationIsTheSameInEveryEnvironment) {
  std::mt19937 rng(14);
  std::vector<float> x = wide_floats(2000, rng);
  for (float& v : x) v *= 0x1p-60f;  // many subnormals
  expect_environment_free([&] {
    namespace cal = mf::calibration;
    cal::abs_histogram h;
    h.observe(x.data(), x.size());
    std::vector<std::uint32_t> bits;
    for (const auto how : {cal::method::max, cal::method::percentile, cal::method::mse, cal::method::kl}) {
      cal::calibration_options o;
      o.how = how;
      const cal::calibration_result r = cal::calibrate<mf::e4m3fn>(h, x.data(), x.size(), o);
      // The cost as its double's bits: a conversion here would round in
      // the caller's environment.
      const auto mse = mf::detail::bit_cast<std::uint64_t>(r.cost.mse);
      bits.insert(bits.end(), {mf::detail::bit_cast<std::uint32_t>(r.scale),
                               static_cast<std::uint32_t>(mse), static_cast<std::uint32_t>(mse >> 32)});
    }
    // Per channel: the observers and calibrate_channels.
    std::vector<cal::abs_histogram> channels(2);
    cal::observe_channels(x.data(), 2, x.size() / 2, cal::channel_axis::rows, channels);
    for (const cal::calibration_result& r : cal::calibrate_channels<mf::e4m3fn>(channels)) {
      bits.push_back(mf::detail::bit_cast<std::uint32_t>(r.scale));
    }
    // The public steps of the methods, called directly.
    const cal::histogram_model model = cal::value_model(x.data(), x.size());
    const auto sse = mf::detail::bit_cast<std::uint64_t>(cal::cost_of<mf::e4m3fn>(model, 0x1.37p60f).sse);
    bits.insert(bits.end(), {static_cast<std::uint32_t>(sse), static_cast<std::uint32_t>(sse >> 32),
                             mf::detail::bit_cast<std::uint32_t>(cal::mse_scale<mf::e4m3fn>(model)),
                             mf::detail::bit_cast<std::uint32_t>(cal::kl_scale<mf::e4m3fn>(h)),
                             mf::detail::bit_cast<std::uint32_t>(cal::abs_percentile(h, 99.9))});
    return bits;
  });
}

// A result's bits, every NaN as one value: which NaN an operation on a NaN
// gives is the hardware's (AArch64's FPCR.DN makes it the default NaN).
template <class T>
std::uint32_t bits_or_nan(T x) {
  return mf::isnan(x) ? 0xFFFFFFFFu : x.bits();
}

// The value type's operators and its conversion to double. Where a
// format's values include float subnormals (bfloat16's subnormals,
// e8m0fnu's 2^-127), denormals-are-zero would read them as zero in float:
// those are computed in double and decoded with integer operations. In
// every format an exact zero sum takes round-to-nearest's sign whatever
// the caller's rounding direction.
template <class T>
std::vector<std::uint32_t> operators_and_decode(unsigned step) {
  using storage = typename T::storage_type;
  const unsigned count = 1u << (8 * sizeof(storage));
  std::vector<T> values;
  for (unsigned c = 0; c < count; ++c) {
    // Every code of e8m0fnu; bfloat16's subnormals and every step-th code.
    if (c % step == 0 || (c & 0x7F80u) == 0) values.push_back(T::from_bits(static_cast<storage>(c)));
  }
  std::vector<std::uint32_t> bits;
  for (const T a : values) {
    const auto wide = mf::detail::bit_cast<std::uint64_t>(static_cast<double>(a));
    bits.insert(bits.end(), {static_cast<std::uint32_t>(wide), static_cast<std::uint32_t>(wide >> 32)});
    for (const T b : values) {
      T difference = a;
      difference -= b;
      T product = a;
      product *= b;
      bits.insert(bits.end(), {bits_or_nan(a + b), bits_or_nan(a - b), bits_or_nan(a * b),
                               bits_or_nan(a / b), bits_or_nan(difference), bits_or_nan(product),
                               static_cast<std::uint32_t>((a < b) | (a == b) << 1 | (a >= b) << 2)});
    }
  }
  return bits;
}

TEST(FloatEnvironment, ValueTypeOperatorsAreTheSameInEveryEnvironment) {
  expect_environment_free([] { return operators_and_decode<mf::e8m0fnu>(1); }, false);
  expect_environment_free([] { return operators_and_decode<mf::bfloat16>(509); }, false);
  expect_environment_free([] { return operators_and_decode<mf::e4m3fn>(1); }, false);
  expect_environment_free([] { return operators_and_decode<mf::e5m2fnuz>(1); }, false);
  // The shortest text reads the exact value (through the double).
  expect_environment_free([] {
    std::vector<std::uint32_t> bits;
    for (unsigned c = 1; c < 0x80u; c += 7) {
      const mf::bfloat16 x = mf::bfloat16::from_bits(static_cast<std::uint16_t>(c));
      mf::bfloat16 back{};
      bits.push_back(mf::parse(mf::to_string(x), back) ? back.bits() : 0xFFFFFFFFu);
    }
    return bits;
  }, false);
}

}  // namespace
