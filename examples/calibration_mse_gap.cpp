// How far the histogram model's mse scale (calibrate from the histogram
// alone) is from the data's least squared error (calibrate with the values:
// the exact search on the data itself), on 30 seeded sets of 10^4 values
// (normal, Student's t with 3 degrees of freedom, Laplace) per format. The
// table in docs/scaling.md ("The histogram model's gap") is its output.
#include <minifloat/calibration.hpp>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>
namespace cal = mf::calibration;
template <class F> void run(const char* name) {
  int misses = 0; double worst = 0, best = 1e9;
  for (int seed = 0; seed < 30; ++seed) {
    std::mt19937 g(seed);
    std::normal_distribution<float> n(0, 1); std::student_t_distribution<float> t(3); std::exponential_distribution<float> e(1);
    std::vector<float> x(10000);
    for (auto& v : x) v = seed % 3 == 0 ? n(g) : seed % 3 == 1 ? t(g) : (g() & 1 ? e(g) : -e(g));
    cal::abs_histogram h; h.observe(x.data(), x.size());
    cal::calibration_options o; o.how = cal::method::mse;
    const float sh = cal::calibrate<F>(h, o).scale;
    const auto exact = cal::calibrate<F>(h, x.data(), x.size(), o);
    const double truth_h = cal::cost_of<F>(cal::value_model(x.data(), x.size()), sh).sse;
    const double r = truth_h / exact.cost.sse - 1;
    if (r < 0) std::printf("BUG %s seed %d\n", name, seed);
    if (r > 0) ++misses;
    worst = std::max(worst, r); if (r > 0) best = std::min(best, r);
  }
  std::printf("%s: histogram scale worse on %d of 30 sets, SSE ratio - 1 in [%.2g, %.2g]\n", name, misses, misses ? best : 0.0, worst);
}
int main() { run<mf::e4m3fn>("e4m3fn"); run<mf::e5m2>("e5m2"); run<mf::e2m1fn>("e2m1fn"); run<mf::e3m2fn>("e3m2fn"); }
