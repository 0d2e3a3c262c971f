// Per-channel FP8 quantization of a weight matrix: one scale per output
// channel (row), e4m3fn and e5m2, nearest-even and stochastic rounding, with
// the error statistics of each channel after dequantization.
//
//   quantize_weights [seed]
//
// The weights are synthetic: row r is Gaussian with a standard deviation that
// grows with r (so the channels need different scales), plus a few outliers.
// Relative error = |dequantize(quantize(w)) - w| / |w| over the non-zero
// weights; "bias" is the mean signed error in units of the mean |w|.
// Expect stochastic rounding to show a larger error per element (it picks
// the farther neighbour with probability proportional to the distance, so
// its mean error is up to twice nearest-even's) and no systematic bias: its
// gain is that E[round(x)] = x for every element, which is what matters for
// gradients and for updates smaller than half an ulp, not a smaller error.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include <minifloat/scaling.hpp>

namespace {

constexpr std::size_t kRows = 8;
constexpr std::size_t kCols = 4096;

struct channel_stats {
  double mean_relative;
  double max_relative;
  double bias;
};

std::vector<float> make_weights(std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<float> w(kRows * kCols);
  for (std::size_t r = 0; r < kRows; ++r) {
    std::normal_distribution<float> normal(0.0f, 0.01f * static_cast<float>(1u << r));
    for (std::size_t c = 0; c < kCols; ++c) w[r * kCols + c] = normal(gen);
    w[r * kCols + (r * 37) % kCols] *= 8.0f;  // an outlier per channel
  }
  return w;
}

template <class Fmt>
std::vector<channel_stats> quantize_and_measure(const std::vector<float>& w, bool stochastic,
                                                std::uint64_t seed) {
  mf::scaling::quantize_options options;
  if (stochastic) options.conversion = mf::conversion::stochastic({seed}).saturating();
  std::vector<typename Fmt::storage_type> q(w.size());
  std::vector<float> scale_inv(kRows), back(w.size());
  mf::scaling::quantize_per_channel<Fmt>(w.data(), q.data(), scale_inv.data(), kRows, kCols,
                                         mf::scaling::channel_axis::rows, options);
  mf::scaling::dequantize_per_channel<Fmt>(q.data(), scale_inv.data(), back.data(), kRows, kCols,
                                           mf::scaling::channel_axis::rows);
  std::vector<channel_stats> stats(kRows);
  for (std::size_t r = 0; r < kRows; ++r) {
    double sum_relative = 0, max_relative = 0, sum_error = 0, sum_magnitude = 0;
    std::size_t counted = 0;
    for (std::size_t c = 0; c < kCols; ++c) {
      const double x = w[r * kCols + c];
      const double error = static_cast<double>(back[r * kCols + c]) - x;
      sum_error += error;
      sum_magnitude += std::fabs(x);
      if (x == 0) continue;
      const double relative = std::fabs(error) / std::fabs(x);
      sum_relative += relative;
      max_relative = relative > max_relative ? relative : max_relative;
      ++counted;
    }
    stats[r] = {sum_relative / static_cast<double>(counted), max_relative,
                sum_error / sum_magnitude};
  }
  return stats;
}

template <class Fmt>
void report(const char* name, const std::vector<float>& w, std::uint64_t seed) {
  const auto nearest = quantize_and_measure<Fmt>(w, false, seed);
  const auto stochastic = quantize_and_measure<Fmt>(w, true, seed);
  std::printf("\n%s, one scale per row (%zu x %zu weights)\n", name, kRows, kCols);
  std::printf("%-7s | %-34s | %-34s\n", "", "nearest-even", "stochastic");
  std::printf("%-7s | %10s %10s %12s | %10s %10s %12s\n", "channel", "mean rel", "max rel",
              "bias", "mean rel", "max rel", "bias");
  for (std::size_t r = 0; r < kRows; ++r) {
    std::printf("%7zu | %10.3e %10.3e %+12.3e | %10.3e %10.3e %+12.3e\n", r,
                nearest[r].mean_relative, nearest[r].max_relative, nearest[r].bias,
                stochastic[r].mean_relative, stochastic[r].max_relative, stochastic[r].bias);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::uint64_t seed = argc > 1 ? std::strtoull(argv[1], nullptr, 0) : 2024;
  const std::vector<float> w = make_weights(seed);
  std::printf("kernels: %s\n", mf::target::isa_name(mf::target::active_isa()));
  report<mf::e4m3fn>("e4m3fn", w, seed);
  report<mf::e5m2>("e5m2", w, seed);
  return 0;
}
