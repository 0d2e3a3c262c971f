// The SQNR table of docs/scaling.md ("Static calibration"): each method's
// scale, fitted to seeded heavy-tailed data, then measured by quantizing
// that data with the scaling toolkit and dequantizing it:
//   SQNR = 10 log10(sum x^2 / sum (x - dequantize(quantize(x)))^2).
//   cmake --build <build dir> --target minifloat_calibration_sqnr
//   <build dir>/examples/minifloat_calibration_sqnr
// Also checks that mse's scale has the least measured error on the data it
// was fitted to, and says where it does not.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <minifloat/calibration.hpp>

namespace {

namespace cal = mf::calibration;

constexpr std::size_t kValues = 100000;

std::vector<float> data(int which) {
  std::mt19937_64 g(20240 + static_cast<unsigned>(which));
  std::vector<float> x(kValues);
  switch (which) {
    case 0: {
      std::student_t_distribution<double> d(3.0);
      for (float& v : x) v = static_cast<float>(d(g));
      break;
    }
    case 1: {
      std::student_t_distribution<double> d(5.0);
      for (float& v : x) v = static_cast<float>(d(g));
      break;
    }
    case 2: {
      std::exponential_distribution<double> d(1.0);
      for (float& v : x) v = static_cast<float>((g() & 1u ? 1.0 : -1.0) * d(g));
      break;
    }
    default: {  // N(0, 1) with 0.1 % of the values replaced by +-50
      std::normal_distribution<double> d(0.0, 1.0);
      for (float& v : x) v = static_cast<float>(d(g));
      for (std::size_t i = 0; i < kValues / 1000; ++i) {
        x[g() % kValues] = g() & 1u ? 50.0f : -50.0f;
      }
      break;
    }
  }
  return x;
}

const char* const kData[] = {"Student-t 3", "Student-t 5", "Laplace", "N(0,1) + 0.1% at 50"};

struct method_column {
  const char* name;
  cal::method how;
  double percentile;
};
const method_column kMethods[] = {{"max", cal::method::max, 0},
                                  {"p99.9", cal::method::percentile, 99.9},
                                  {"p99.99", cal::method::percentile, 99.99},
                                  {"mse", cal::method::mse, 0},
                                  {"kl", cal::method::kl, 0}};

template <class Fmt>
double measured_sqnr(const std::vector<float>& x, float scale) {
  std::vector<typename Fmt::storage_type> q(x.size());
  std::vector<float> y(x.size());
  const float inv =
      mf::scaling::quantize_per_tensor_with_scale<Fmt>(x.data(), q.data(), x.size(), scale);
  mf::scaling::dequantize_per_tensor<Fmt>(q.data(), y.data(), x.size(), inv);
  double signal = 0, noise = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = static_cast<double>(x[i]) - y[i];
    signal += static_cast<double>(x[i]) * x[i];
    noise += d * d;
  }
  return 10 * std::log10(signal / noise);
}

int surprises = 0;

template <class Fmt>
void row(const char* format, int which, const std::vector<float>& x, const cal::abs_histogram& h,
         bool power_of_two) {
  std::printf("| %s | %s |", kData[which], format);
  double sqnr[5];
  for (int m = 0; m < 5; ++m) {
    cal::calibration_options o;
    o.how = kMethods[m].how;
    o.percentile = kMethods[m].percentile;
    o.power_of_two = power_of_two;
    sqnr[m] = measured_sqnr<Fmt>(x, cal::calibrate<Fmt>(h, o).scale);
  }
  int best = 0;
  for (int m = 1; m < 5; ++m) best = sqnr[m] > sqnr[best] ? m : best;
  for (int m = 0; m < 5; ++m) {
    std::printf(sqnr[m] == sqnr[best] ? " **%.2f** |" : " %.2f |", sqnr[m]);
  }
  std::printf("\n");
  if (sqnr[best] > sqnr[3] + 1e-9) {
    ++surprises;
    std::fprintf(stderr, "note: %s %s%s: %s beats mse by %.3g dB\n", kData[which], format,
                 power_of_two ? " (power of two)" : "", kMethods[best].name,
                 sqnr[best] - sqnr[3]);
  }
}

}  // namespace

int main() {
  std::vector<std::vector<float>> sets;
  std::vector<cal::abs_histogram> histograms;
  for (int which = 0; which < 4; ++which) {
    sets.push_back(data(which));
    histograms.emplace_back();
    histograms.back().observe(sets.back().data(), sets.back().size());
  }
  for (bool power_of_two : {false, true}) {
    std::printf("\nSQNR (dB), %zu values each, %s scale; the best (and any tie) in bold\n\n", kValues,
                power_of_two ? "power-of-two" : "any float32");
    std::printf("| data | format |");
    for (const auto& m : kMethods) std::printf(" %s |", m.name);
    std::printf("\n|---|---|---:|---:|---:|---:|---:|\n");
    for (int which = 0; which < 4; ++which) {
      const auto& x = sets[which];
      const auto& h = histograms[which];
      row<mf::e4m3fn>("e4m3fn", which, x, h, power_of_two);
      row<mf::e5m2>("e5m2", which, x, h, power_of_two);
      row<mf::e2m3fn>("e2m3fn", which, x, h, power_of_two);
      row<mf::e3m2fn>("e3m2fn", which, x, h, power_of_two);
      row<mf::e2m1fn>("e2m1fn", which, x, h, power_of_two);
    }
  }
  std::printf("\nmse had the highest measured SQNR in %d of 40 rows\n", 40 - surprises);
  return 0;
}
