// The long comparison of the fast MatMul kernels with the reference (not in
// CI: ctest -L exhaustive): for every fast model, at least 10^4 random
// shapes (M, N, K up to 64, leading dimensions padded at random, 1-3
// threads), cycling through every float type combination, each shape on
// every ISA of the machine, bit for bit. Half the shapes draw a quarter of
// their elements from the edge sets; a quarter have per-row/column scales,
// a bias and a divided output scale (sequential_fp32: half of those on the
// operands).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include <minifloat/hybrid.hpp>

#include "kernel_test_support.hpp"

namespace {

namespace hy = mf::hybrid;

TEST(HybridKernelsExhaustive, TenThousandRandomShapesPerModelOnEveryIsa) {
  constexpr int shapes_per_model = 10000;
  std::mt19937_64 rng(2026);
  const auto isas = kernel_test::machine_isas();
  // The models with a kernel on the best ISA (a superset of the others').
  for (const auto& model : kernel_test::fast_models(mf::bulk::best_isa())) {
    const auto triples = kernel_test::float_triples(model.model);
    long compared = 0;
    for (int s = 0; s < shapes_per_model; ++s) {
      const auto& types = triples[static_cast<std::size_t>(s) % triples.size()];
      const std::size_t m = rng() % 65, n = rng() % 65, k = rng() % 65;
      const auto p = kernel_test::random_problem(types, m, n, k, rng() % 3, rng, s % 2 == 1);
      hy::matmul_options o;
      o.model = model.model;
      o.threads = 1 + static_cast<unsigned>(rng() % 3);
      if (rng() % 4 == 0) o.output.on_overflow = mf::overflow::saturating;
      // A quarter of the shapes with per-row/column scales, a bias and a
      // divided output scale; for sequential_fp32 half of those with the
      // scales on the operands.
      std::vector<float> a_rows(m), b_columns(n), bias(n);
      if (rng() % 4 == 0) {
        std::uniform_real_distribution<float> u(-8.0f, 8.0f);
        for (auto& x : a_rows) x = u(rng);
        for (auto& x : b_columns) x = u(rng);
        for (auto& x : bias) x = u(rng) * 64.0f;
        o.scales.a_rows = a_rows.data();
        o.scales.b_columns = b_columns.data();
        o.scales.bias = bias.data();
        o.scales.output = 0.3f;
        o.scales.output_rule = hy::output_scale_rule::divide;
        if (model.model.kind == hy::model_kind::sequential_fp32 && rng() % 2 == 0) {
          o.scales.where = hy::placement::operands;
        }
      }
      for (mf::bulk::isa isa : isas) {
        if (!kernel_test::has_kernel(model.model, isa)) continue;
        kernel_test::isa_scope scope(isa);
        ASSERT_TRUE(kernel_test::matches_reference(p, o)) << model.name << " shape " << s;
        ++compared;
      }
    }
    std::printf("%s: %d shapes, %ld comparisons (shape x ISA), all equal\n", model.name.c_str(),
                shapes_per_model, compared);
  }
}

}  // namespace
