// The mse search against brute force: for data the histogram holds exactly
// (every value has at most 8 significant bits, so each bin of the default
// observer holds one distinct value), the scale mse_scale returns has an
// error no float32 scale beats, checked against
// - every float32 scale within 1000 ulps either side of it (2001 scales),
// - 512 scales spread geometrically over [s_max / 2, 8 s_max)
//   (s_max = max_finite / amax), where any other local minimum would be,
// - every power of two for the power-of-two search,
// for every 8-, 6- and 4-bit format with zero, on four seeded distributions.
// The brute-force error is computed per value from mf::round_to of the exact
// product x * s (nearest-even, saturating) in double-double arithmetic
// written here, independently of the library's search and error model.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <minifloat/calibration.hpp>

namespace {

namespace cal = mf::calibration;

// Keeps the top `bits` significant bits of x (truncation): 8 bits make every
// value the lower edge of its bin in a mantissa_bits = 7.. observer.
float keep_bits(float x, int bits) {
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  u &= ~((std::uint32_t{1} << (24 - bits)) - 1u);
  std::memcpy(&x, &u, sizeof x);
  return x;
}

// grid_midpoints: midpoints between neighbouring values of the format (both
// signs), times 2^-1..2^1, so that power-of-two scales meet many exact ties.
enum class distribution { normal, laplace, student_t3, uniform, grid_midpoints };

// bits: the significant bits each value keeps (24: full float32 values).
template <class Fmt>
std::vector<float> sample(distribution d, std::size_t n, std::uint32_t seed, int bits = 8) {
  const cal::format_grid<Fmt>& grid = cal::format_grid<Fmt>::get();
  std::uniform_int_distribution<std::size_t> midpoint(0, grid.size() - 2);
  std::uniform_int_distribution<int> power(-1, 1);
  std::mt19937 g(seed);
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::exponential_distribution<float> exponential(1.0f);
  std::student_t_distribution<float> student(3.0f);
  std::uniform_real_distribution<float> uniform(-3.0f, 3.0f);
  std::vector<float> x(n);
  for (float& v : x) {
    switch (d) {
      case distribution::normal: v = normal(g); break;
      case distribution::laplace: v = (g() & 1u ? 1.0f : -1.0f) * exponential(g); break;
      case distribution::student_t3: v = student(g); break;
      case distribution::uniform: v = uniform(g); break;
      case distribution::grid_midpoints:
        v = (g() & 1u ? 1.0f : -1.0f) *
            static_cast<float>(std::ldexp(grid.midpoint(midpoint(g)), power(g)));
        break;
    }
    v = keep_bits(v, bits);
  }
  return x;
}

// A double-double sum, independent of the library's.
struct exact_sum {
  double hi = 0, lo = 0;
  void add(double x) {
    const double s = hi + x, b = s - hi;
    const double e = (hi - (s - b)) + (x - b);
    const double t = s + (lo + e);
    lo = (lo + e) - (t - s);
    hi = t;
  }
};

// sum (x - q / s)^2 over the data, q = round_to(x * s) (exact product),
// as (hi, lo) of sum (x s - q)^2 / s^2.
template <class Fmt>
exact_sum brute_force_error(const std::vector<float>& x, float s) {
  exact_sum sum;
  for (const float v : x) {
    const double y = std::fabs(static_cast<double>(v)) * static_cast<double>(s);  // exact
    const double q = static_cast<double>(static_cast<float>(
        mf::round_to<Fmt>(y, mf::rounding::nearest_even, mf::overflow::saturating)));
    const double d = y - q;  // exact (at most 50 significant bits)
    const double p = d * d;
    sum.add(p);
    sum.add(std::fma(d, d, -p));
  }
  const double s2 = static_cast<double>(s) * s;  // exact
  const double q1 = sum.hi / s2;
  const double r = std::fma(-q1, s2, sum.hi);
  exact_sum out;
  out.add(q1);
  out.add((r + sum.lo) / s2);
  return out;
}

bool less(const exact_sum& a, const exact_sum& b) {
  return a.hi < b.hi || (a.hi == b.hi && a.lo < b.lo);
}

// data_model: the histogram's model of data it holds exactly (8 significant
// bits), or the values' own model (cal::value_model) of full float32 data.
enum class model_kind { histogram_of_held_data, values_of_full_data };

template <class Fmt>
void check_mse_against_brute_force(const std::string& name, std::size_t values = 1000,
                                   int ulps = 1000, int per_binade = 128,
                                   std::vector<distribution> sets = {
                                       distribution::normal, distribution::laplace,
                                       distribution::student_t3, distribution::uniform,
                                       distribution::grid_midpoints},
                                   model_kind kind = model_kind::histogram_of_held_data) {
  const double max = cal::format_grid<Fmt>::get().max();
  std::size_t scales_checked = 0, ties = 0;
  for (distribution d : sets) {
    SCOPED_TRACE(name + " distribution " + std::to_string(static_cast<int>(d)));
    const bool full = kind == model_kind::values_of_full_data;
    const std::vector<float> x =
        sample<Fmt>(d, values, 17u + static_cast<std::uint32_t>(d), full ? 24 : 8);
    cal::abs_histogram h;
    h.observe(x.data(), x.size());
    const cal::histogram_model model =
        full ? cal::value_model(x.data(), x.size()) : cal::histogram_model(h);

    const float mine = cal::mse_scale<Fmt>(model);
    const exact_sum mine_error = brute_force_error<Fmt>(x, mine);
    // The model's error is the brute-force error here (data held exactly).
    EXPECT_NEAR(cal::cost_of<Fmt>(model, mine).sse, mine_error.hi, 1e-12 * mine_error.hi + 1e-300);

    const auto beats_mine = [&](float s) {
      const exact_sum e = brute_force_error<Fmt>(x, s);
      ++scales_checked;
      if (!less(mine_error, e) && !less(e, mine_error)) ++ties;
      if (less(e, mine_error)) {
        ADD_FAILURE() << "scale " << s << " (" << std::hexfloat << s << std::defaultfloat
                      << ") error " << e.hi << " beats mse_scale " << mine << " error "
                      << mine_error.hi;
        return true;
      }
      return false;
    };
    float s = mine;
    for (int i = 0; i < ulps; ++i) s = std::nextafter(s, 0.0f);
    for (int i = 0; i < 2 * ulps + 1; ++i, s = std::nextafter(s, 1e30f)) {
      if (s != mine && beats_mine(s)) break;
    }
    const double s_max = max / static_cast<double>(h.amax());
    for (int k = -per_binade; k < 3 * per_binade; ++k) {
      if (beats_mine(static_cast<float>(s_max * std::exp2(k / static_cast<double>(per_binade))))) {
        break;
      }
    }

    const float mine_p2 = cal::mse_scale<Fmt>(model, true);
    EXPECT_EQ(std::exp2(std::round(std::log2(mine_p2))), mine_p2);
    const exact_sum p2_error = brute_force_error<Fmt>(x, mine_p2);
    for (int k = -40; k <= 40; ++k) {
      const exact_sum e = brute_force_error<Fmt>(x, std::ldexp(1.0f, k));
      EXPECT_FALSE(less(e, p2_error)) << "2^" << k << " beats " << mine_p2;
    }
    // The unconstrained optimum is at least as good as the constrained one.
    EXPECT_FALSE(less(p2_error, mine_error));
  }
  std::printf("[ %s ] %zu scales checked against the mse scale, %zu ties\n", name.c_str(),
              scales_checked, ties);
}

// Data not held exactly (full float32 values, several per bin): the model
// is off only by the bins that straddle a rounding midpoint, by at most
// 2 n (cell width / s) (bin width) each (docs/scaling.md). Checked: the
// model's error against the brute-force error at 200 scales, and the mse
// scale's brute-force error against the least of them within the bound.
template <class Fmt>
double straddle_bound(const cal::abs_histogram& h, double s) {
  const cal::format_grid<Fmt>& grid = cal::format_grid<Fmt>::get();
  double bound = 0;
  for (std::uint32_t i = h.first_bin(); i < h.end_bin(); ++i) {
    if (h.bin(i).empty()) continue;
    const double lower = h.lower_edge(i), upper = h.upper_edge(i);
    const std::size_t a = grid.nearest(lower * s);
    const std::size_t b = grid.nearest(std::nextafter(upper, 0.0) * s);
    if (a != b) {
      bound += 2.0 * static_cast<double>(h.bin(i).count) * (grid.value(b) - grid.value(a)) / s *
               (upper - lower);
    }
  }
  return bound;
}

template <class Fmt>
void check_binned_data_within_bound(const std::string& name) {
  const double max = cal::format_grid<Fmt>::get().max();
  for (distribution d : {distribution::normal, distribution::student_t3}) {
    SCOPED_TRACE(name + " distribution " + std::to_string(static_cast<int>(d)));
    std::mt19937 g(99u + static_cast<std::uint32_t>(d));
    std::normal_distribution<float> normal(0.0f, 1.0f);
    std::student_t_distribution<float> student(3.0f);
    std::vector<float> x(2000);
    for (float& v : x) v = d == distribution::normal ? normal(g) : student(g);
    cal::abs_histogram h;
    h.observe(x.data(), x.size());
    const cal::histogram_model model(h);
    const float mine = cal::mse_scale<Fmt>(model);
    const double mine_true = brute_force_error<Fmt>(x, mine).hi;
    const double s_max = max / static_cast<double>(h.amax());
    double least = mine_true, least_bound = 0;
    for (int k = -256; k < 1024 - 256; k += 4) {
      const float s = static_cast<float>(s_max * std::exp2(k / 256.0));
      const double truth = brute_force_error<Fmt>(x, s).hi;
      const double modelled = cal::cost_of<Fmt>(model, s).sse;
      const double bound = straddle_bound<Fmt>(h, s);
      EXPECT_LE(std::fabs(modelled - truth), bound * (1 + 1e-9) + 1e-12 * truth) << "s = " << s;
      if (truth < least) {
        least = truth;
        least_bound = bound;
      }
    }
    EXPECT_LE(mine_true, least + least_bound + straddle_bound<Fmt>(h, mine) + 1e-12 * least);
  }
}

TEST(MseBinnedData, WithinTheResolutionBound) {
  check_binned_data_within_bound<mf::e4m3fn>("e4m3fn");
  check_binned_data_within_bound<mf::e5m2>("e5m2");
  check_binned_data_within_bound<mf::e3m4>("e3m4");
  check_binned_data_within_bound<mf::e2m3fn>("e2m3fn");
  check_binned_data_within_bound<mf::e3m2fn>("e3m2fn");
  check_binned_data_within_bound<mf::e2m1fn>("e2m1fn");
}

TEST(MseBruteForce, E4m3fn) { check_mse_against_brute_force<mf::e4m3fn>("e4m3fn"); }
TEST(MseBruteForce, E4m3fnuz) { check_mse_against_brute_force<mf::e4m3fnuz>("e4m3fnuz"); }
TEST(MseBruteForce, E5m2) { check_mse_against_brute_force<mf::e5m2>("e5m2"); }
TEST(MseBruteForce, E5m2fnuz) { check_mse_against_brute_force<mf::e5m2fnuz>("e5m2fnuz"); }
TEST(MseBruteForce, E4m3) { check_mse_against_brute_force<mf::e4m3>("e4m3"); }
TEST(MseBruteForce, E3m4) { check_mse_against_brute_force<mf::e3m4>("e3m4"); }
TEST(MseBruteForce, E4m3b11fnuz) {
  check_mse_against_brute_force<mf::e4m3b11fnuz>("e4m3b11fnuz");
}
TEST(MseBruteForce, E2m3fn) { check_mse_against_brute_force<mf::e2m3fn>("e2m3fn"); }
TEST(MseBruteForce, E3m2fn) { check_mse_against_brute_force<mf::e3m2fn>("e3m2fn"); }
TEST(MseBruteForce, E2m1fn) { check_mse_against_brute_force<mf::e2m1fn>("e2m1fn"); }
// 10^5 values (Student-t 3, held exactly), a narrower bracket: 201 floats
// around the mse scale and 128 over [s_max / 2, 8 s_max).
// Full float32 data, many values per histogram bin: the values' own model
// makes the search exact on the data itself.
TEST(MseBruteForceFullData, EveryFormat) {
  const auto full = model_kind::values_of_full_data;
  const std::vector<distribution> sets = {distribution::normal, distribution::student_t3,
                                          distribution::uniform};
  check_mse_against_brute_force<mf::e4m3fn>("e4m3fn", 1000, 300, 64, sets, full);
  check_mse_against_brute_force<mf::e5m2>("e5m2", 1000, 300, 64, sets, full);
  check_mse_against_brute_force<mf::e4m3fnuz>("e4m3fnuz", 1000, 300, 64, sets, full);
  check_mse_against_brute_force<mf::e3m4>("e3m4", 1000, 300, 64, sets, full);
  check_mse_against_brute_force<mf::e2m3fn>("e2m3fn", 1000, 300, 64, sets, full);
  check_mse_against_brute_force<mf::e2m1fn>("e2m1fn", 1000, 300, 64, sets, full);
}

TEST(MseBruteForce, E4m3fnHundredThousandValues) {
  check_mse_against_brute_force<mf::e4m3fn>("e4m3fn, 10^5 values", 100000, 100, 32,
                                            {distribution::student_t3});
}

}  // namespace
