// Quantization error of the MX formats (and NVFP4) on 2^20 samples of
// N(0, 1), for each E8M0 scale rule, next to the figures the StableHLO MX
// RFC quotes (MXFP8 E4M3 ~2.5%, MXFP6 E2M3 ~5%, MXFP4 ~16% "mean relative
// error"). Prints a Markdown table (docs/mx.md shows it as measured).
//
// Samples: Box-Muller (G. E. P. Box, M. E. Muller, "A Note on the
// Generation of Random Normal Deviates", Ann. Math. Statist. 29(2), 1958)
// on the Philox4x32-10 words of mf::stochastic_random_word(seed, i): pair p
// uses words 2p and 2p+1 as u1 = (w + 0.5) / 2^32 in (0, 1) and
// u2 = w / 2^32, and gives r cos(2 pi u2), r sin(2 pi u2) with
// r = sqrt(-2 ln u1), in double, rounded to float. The words are the same
// everywhere; only the last bits of log/cos/sin may differ between C
// libraries, far below the precision of the table.
//
// Columns: mean relative error = mean over elements of |q - x| / |x|;
// normalized error = sum |q - x| / sum |x|; relative RMS error =
// sqrt(sum (q - x)^2 / sum x^2); clipped blocks = share of
// blocks in which some |x| / X exceeded the element's max (saturated).
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include <minifloat/mx.hpp>

namespace {

constexpr std::size_t kSamples = std::size_t{1} << 20;
constexpr std::uint64_t kSeed = 20240601;

std::vector<float> normal_samples() {
  const double two_pi = 6.283185307179586476925286766559;
  std::vector<float> x(kSamples);
  for (std::size_t p = 0; p < kSamples / 2; ++p) {
    const double u1 = (static_cast<double>(mf::stochastic_random_word(kSeed, 2 * p)) + 0.5) /
                      4294967296.0;
    const double u2 = static_cast<double>(mf::stochastic_random_word(kSeed, 2 * p + 1)) /
                      4294967296.0;
    const double r = std::sqrt(-2.0 * std::log(u1));
    x[2 * p] = static_cast<float>(r * std::cos(two_pi * u2));
    x[2 * p + 1] = static_cast<float>(r * std::sin(two_pi * u2));
  }
  return x;
}

struct errors {
  double mean_relative;
  double normalized;
  double rms_relative;
  double clipped_blocks;
};

errors measure(const std::vector<float>& x, const std::vector<float>& q,
               const std::vector<bool>& clipped) {
  double rel = 0, num = 0, den = 0, num2 = 0, den2 = 0;
  std::size_t counted = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double d = std::fabs(static_cast<double>(q[i]) - static_cast<double>(x[i]));
    num += d;
    den += std::fabs(static_cast<double>(x[i]));
    num2 += d * d;
    den2 += static_cast<double>(x[i]) * static_cast<double>(x[i]);
    if (x[i] != 0.0f) {
      rel += d / std::fabs(static_cast<double>(x[i]));
      ++counted;
    }
  }
  std::size_t c = 0;
  for (bool b : clipped) c += b ? 1 : 0;
  return {rel / static_cast<double>(counted), num / den, std::sqrt(num2 / den2),
          static_cast<double>(c) / static_cast<double>(clipped.size())};
}

template <class Fmt>
double max_value() {
  using Elem = typename Fmt::element;
  if constexpr (mf::mx::element_traits<Elem>::is_integer) {
    return 127.0 / 64.0;
  } else {
    return static_cast<double>(static_cast<float>(Elem::from_bits(Elem::format::max_finite_magnitude)));
  }
}

template <class Fmt>
void row(const char* name, const char* rfc, const std::vector<float>& x) {
  const mf::mx::scale_rounding modes[] = {mf::mx::scale_rounding::floor,
                                          mf::mx::scale_rounding::ceil,
                                          mf::mx::scale_rounding::even};
  const char* mode_names[] = {"floor", "ceil", "even"};
  for (int m = 0; m < 3; ++m) {
    std::vector<std::uint8_t> scales(mf::mx::scale_count<Fmt>(x.size()));
    std::vector<std::uint8_t> elements(mf::mx::element_bytes<Fmt>(x.size()));
    std::vector<float> q(x.size());
    mf::mx::quantize<Fmt>(x.data(), scales.data(), elements.data(), x.size(), modes[m]);
    mf::mx::dequantize<Fmt>(scales.data(), elements.data(), q.data(), x.size());
    std::vector<bool> clipped(scales.size(), false);
    for (std::size_t i = 0; i < x.size(); ++i) {
      const double limit = max_value<Fmt>() *
                           static_cast<double>(mf::mx::scale_value(scales[i / Fmt::block_size]));
      if (std::fabs(static_cast<double>(x[i])) > limit) clipped[i / Fmt::block_size] = true;
    }
    const errors e = measure(x, q, clipped);
    std::printf("| %s | %s | %.2f%% | %.2f%% | %.2f%% | %.1f%% | %s |\n", name, mode_names[m],
                100 * e.mean_relative, 100 * e.normalized, 100 * e.rms_relative,
                100 * e.clipped_blocks,
                m == 0 ? rfc : "");
  }
}

void nvfp4_row(const std::vector<float>& x) {
  std::vector<std::uint8_t> scales(mf::mx::nvfp4::scale_count(x.size()));
  std::vector<std::uint8_t> elements(mf::mx::nvfp4::element_bytes(x.size()));
  std::vector<float> q(x.size());
  const float s_t = mf::mx::nvfp4::quantize(x.data(), scales.data(), elements.data(), x.size());
  mf::mx::nvfp4::dequantize(scales.data(), elements.data(), q.data(), x.size(), s_t);
  std::vector<bool> clipped(scales.size(), false);
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double s_b = static_cast<double>(static_cast<float>(mf::e4m3fn::from_bits(scales[i / 16])));
    if (std::fabs(static_cast<double>(x[i])) > 6.0 * s_b * static_cast<double>(s_t)) {
      clipped[i / 16] = true;
    }
  }
  const errors e = measure(x, q, clipped);
  std::printf("| NVFP4 (k=16, e4m3fn + fp32 scales) | - | %.2f%% | %.2f%% | %.2f%% | %.1f%% | |\n",
              100 * e.mean_relative, 100 * e.normalized, 100 * e.rms_relative,
              100 * e.clipped_blocks);
}

}  // namespace

int main() {
  const std::vector<float> x = normal_samples();
  double mean = 0, var = 0;
  for (float f : x) mean += f;
  mean /= static_cast<double>(x.size());
  for (float f : x) var += (f - mean) * (f - mean);
  var /= static_cast<double>(x.size());
  std::printf("%zu samples of N(0,1) (seed %llu): mean %.5f, variance %.5f\n\n", x.size(),
              static_cast<unsigned long long>(kSeed), mean, var);
  std::printf("| format | scale rule | mean relative error | normalized error | relative RMS error | clipped blocks | RFC |\n");
  std::printf("|---|---|---:|---:|---:|---:|---|\n");
  row<mf::mx::mxfp8_e4m3>("MXFP8 E4M3", "~2.5%", x);
  row<mf::mx::mxfp8_e5m2>("MXFP8 E5M2", "", x);
  row<mf::mx::mxfp6_e2m3>("MXFP6 E2M3", "~5%", x);
  row<mf::mx::mxfp6_e3m2>("MXFP6 E3M2", "", x);
  row<mf::mx::mxfp4>("MXFP4 E2M1", "~16%", x);
  row<mf::mx::mxint8>("MXINT8", "", x);
  nvfp4_row(x);
  return 0;
}
