// The error of each hybrid accumulation model against `exact`, in float32
// ulps of the output (the table in docs/hybrid.md):
//   cmake --build <build dir> --target minifloat_hybrid_error
//   <build dir>/examples/minifloat_hybrid_error
// A and B are N(0, 1) samples (seeded) quantized to E4M3 or E5M2, 16 x K and
// K x 16; the output is float32, so every error is a whole number of ulps.
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <minifloat/hybrid.hpp>

namespace {

namespace hy = mf::hybrid;

struct named_model {
  const char* name;
  hy::accumulation_model model;
};

std::vector<std::uint32_t> normal_codes(hy::element_type t, std::size_t count, std::mt19937_64& rng) {
  std::normal_distribution<double> normal(0.0, 1.0);
  std::vector<std::uint32_t> codes(count);
  for (auto& c : codes) {
    const double x = normal(rng);
    c = t == hy::element_type::hf8 ? mf::e4m3fn(x).bits() : mf::e5m2(x).bits();
  }
  return codes;
}

std::vector<std::uint32_t> run(hy::element_type t, const hy::accumulation_model& m,
                               const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b,
                               std::size_t rows, std::size_t k) {
  std::vector<std::uint32_t> c(rows * rows);
  hy::matmul_options o;
  o.model = m;
  hy::matmul(hy::table_id::any, t, t, hy::element_type::f32, a.data(), k, b.data(), rows, c.data(),
             rows, rows, rows, k, o);
  return c;
}

}  // namespace

int main() {
  const std::vector<named_model> models = {
      {"sequential_fp32", hy::models::sequential_fp32()},
      {"avx512_bf16_pairs", hy::models::avx512_bf16_pairs()},
      {"amx_tile_pairs (32, sdm)", hy::models::amx_tile_pairs()},
      {"amx_tile_pairs (32, guide)", hy::models::amx_tile_pairs(32, hy::amx_order::guide)},
      {"chunked_exact{64} (AMX-FP8)", hy::models::chunked_exact(64)},
      {"chunked_exact{64, toward zero}", hy::models::chunked_exact(64, hy::fp32_rounding::toward_zero)},
      {"reduced_precision{14, 128, seq}", hy::models::reduced_precision(14, 128)},
      {"reduced_precision{14, 128, block}",
       hy::models::reduced_precision(14, 128, hy::reduced_variant::block)},
      {"reduced_precision{22, 128, seq}", hy::models::reduced_precision(22, 128)},
  };
  const std::size_t rows = 16;
  const std::size_t ks[] = {64, 256, 1024, 4096};
  for (hy::element_type t : {hy::element_type::hf8, hy::element_type::bf8}) {
    std::printf("\n%s x %s -> FP32, %zu x %zu outputs per K; mean |error| / max |error| in ulps\n\n",
                t == hy::element_type::hf8 ? "E4M3" : "E5M2",
                t == hy::element_type::hf8 ? "E4M3" : "E5M2", rows, rows);
    std::printf("| model |");
    for (std::size_t k : ks) std::printf(" K = %zu |", k);
    std::printf("\n|---|");
    for (std::size_t i = 0; i < 4; ++i) std::printf("---:|");
    std::printf("\n");
    std::vector<std::vector<std::uint32_t>> as, bs, exacts;
    std::mt19937_64 rng(2026);
    for (std::size_t k : ks) {
      as.push_back(normal_codes(t, rows * k, rng));
      bs.push_back(normal_codes(t, k * rows, rng));
      exacts.push_back(run(t, hy::models::exact(), as.back(), bs.back(), rows, k));
    }
    for (const auto& m : models) {
      std::printf("| %s |", m.name);
      for (std::size_t i = 0; i < 4; ++i) {
        const auto c = run(t, m.model, as[i], bs[i], rows, ks[i]);
        double sum = 0, worst = 0;
        for (std::size_t e = 0; e < c.size(); ++e) {
          const double err = std::fabs(hy::error_in_ulps(
              hy::element_type::f32, hy::decode_bits(hy::element_type::f32, c[e]),
              hy::decode_bits(hy::element_type::f32, exacts[i][e])));
          sum += err;
          worst = err > worst ? err : worst;
        }
        std::printf(" %.2f / %.0f |", sum / static_cast<double>(c.size()), worst);
      }
      std::printf("\n");
    }
  }
  return 0;
}
