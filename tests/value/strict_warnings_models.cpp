// The calibration, hybrid MatMul and ONNX headers under a strict consumer's
// warnings (CMakeLists.txt), header-only, so that every MatMul tile and
// calibration search they instantiate is compiled here: the flags and the
// reason are those of strict_warnings.cpp. Exit status 0 when every
// accumulation model gives the exact integer sums, the element-wise sum and
// the ONNX round trip are exact, and every calibration method finds a scale.
#include <minifloat/calibration.hpp>
#include <minifloat/hybrid.hpp>
#include <minifloat/minifloat.hpp>
#include <minifloat/onnx.hpp>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

namespace {

namespace hy = mf::hybrid;

// Integers in [-4, 4], exact in E4M3: every product is an integer of at most
// 16 and every sum of 64 of them an integer below 2^11, so every model's sum
// is exact (reduced_precision keeps 14 bits) and all of them agree.
constexpr std::size_t m = 8, n = 32, k = 64;

int small_integer(std::size_t i) { return static_cast<int>((i * 7 + 3) % 9) - 4; }

bool every_model_gives_the_exact_sums() {
  std::vector<mf::e4m3fn> a(m * k), b(k * n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = mf::e4m3fn(small_integer(i));
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = mf::e4m3fn(small_integer(i * 5 + 1));
  std::vector<float> expected(m * n);
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      int sum = 0;
      for (std::size_t p = 0; p < k; ++p) sum += small_integer(i * k + p) * small_integer((p * n + j) * 5 + 1);
      expected[i * n + j] = static_cast<float>(sum);
    }
  }
  const hy::accumulation_model models[] = {
      hy::models::sequential_fp32(),
      hy::models::exact(),
      hy::models::exact(true),
      hy::models::avx512_bf16_pairs(),
      hy::models::amx_tile_pairs(),
      hy::models::chunked_exact(32),
      hy::models::chunked_exact(32, hy::fp32_rounding::toward_zero, true),
      hy::models::reduced_precision(14, 32),
      hy::models::reduced_precision(14, 32, hy::reduced_variant::block)};
  bool ok = true;
  for (const hy::accumulation_model& model : models) {
    hy::matmul_options o;
    o.model = model;
    std::vector<float> c(m * n);
    hy::matmul<hy::any>(a.data(), k, b.data(), n, c.data(), n, m, n, k, o);
    ok = ok && c == expected;
  }
  // The integer MatMul over codes (I8 x I8 -> I8, wrapped int32 sum
  // requantized by 1/16 with round-half-even and saturation).
  std::vector<std::uint32_t> ia(m * k), ib(k * n), ic(m * n);
  for (std::size_t i = 0; i < ia.size(); ++i) ia[i] = static_cast<std::uint8_t>(small_integer(i));
  for (std::size_t i = 0; i < ib.size(); ++i) ib[i] = static_cast<std::uint8_t>(small_integer(i * 5 + 1));
  hy::matmul_options io;
  io.integer_scale = 1.0f / 16;
  hy::matmul(hy::table_id::any, hy::element_type::i8, hy::element_type::i8, hy::element_type::i8, ia.data(),
             k, ib.data(), n, ic.data(), n, m, n, k, io);
  for (std::size_t i = 0; i < ic.size(); ++i) {
    const float quarter = expected[i] / 16;
    const auto code = static_cast<std::int8_t>(static_cast<std::uint8_t>(ic[i]));
    ok = ok && static_cast<float>(code) - quarter <= 0.5f && quarter - static_cast<float>(code) <= 0.5f;
  }
  // Element-wise: a + b of E4M3 integers, exact in float32.
  std::vector<float> sum(m * n);
  hy::eltwise<hy::any>(a.data(), b.data(), m * n, sum.data(), m, n);
  for (std::size_t i = 0; i < sum.size(); ++i) {
    ok = ok && sum[i] == static_cast<float>(a[i]) + static_cast<float>(b[i]);
  }
  return ok;
}

bool every_method_finds_a_scale() {
  std::vector<float> x(4096);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(small_integer(i)) * 0.37f;
  mf::calibration::abs_histogram h;
  h.observe(x.data(), x.size());
  bool ok = true;
  for (mf::calibration::method how : {mf::calibration::method::max, mf::calibration::method::percentile,
                                      mf::calibration::method::mse, mf::calibration::method::kl}) {
    for (bool power_of_two : {false, true}) {
      mf::calibration::calibration_options o;
      o.how = how;
      o.power_of_two = power_of_two;
      const float from_histogram = mf::calibration::calibrate<mf::e4m3fn>(h, o).scale;
      const float from_values = mf::calibration::calibrate<mf::e4m3fn>(h, x.data(), x.size(), o).scale;
      ok = ok && from_histogram > 0.0f && from_values > 0.0f;
    }
  }
  std::vector<mf::calibration::abs_histogram> channels(8);
  mf::calibration::observe_channels(x.data(), 8, x.size() / 8, mf::calibration::channel_axis::rows, channels);
  for (const float s : mf::calibration::scales_of(mf::calibration::calibrate_channels<mf::e5m2>(channels))) {
    ok = ok && s > 0.0f;
  }
  return ok;
}

bool onnx_round_trip_is_exact() {
  namespace onnx = mf::onnx;
  std::vector<std::uint32_t> values(16);
  for (std::size_t i = 0; i < values.size(); ++i) {
    const float v = static_cast<float>(small_integer(i));
    std::memcpy(&values[i], &v, sizeof v);
  }
  const onnx::tensor x = onnx::tensor_from_codes(onnx::data_type::float32, {4, 4}, values);
  const onnx::tensor one = onnx::tensor_from_codes(onnx::data_type::float32, {}, {0x3F800000u});
  onnx::quantize_attributes q;
  q.output_dtype = onnx::data_type::float8e4m3fn;
  const onnx::tensor y = onnx::quantize_linear(x, one, nullptr, q);
  const onnx::tensor back = onnx::dequantize_linear(y, one, nullptr);
  const onnx::tensor cast = onnx::cast(onnx::cast(x, onnx::data_type::float8e5m2), onnx::data_type::float32);
  return onnx::codes_of(back) == values && onnx::codes_of(cast) == values;
}

}  // namespace

int main() {
  const bool ok = every_model_gives_the_exact_sums() && every_method_finds_a_scale() &&
                  onnx_round_trip_is_exact();
  return ok ? 0 : 1;
}
