// Shared by the stochastic-rounding bulk tests and the fused-scale test: the
// scalar definition the kernels must meet (written from round_to_stochastic
// and stochastic_random_bits directly, not through any kernel), and inputs
// that reach every branch of the rule.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "support/bulk_helpers.hpp"

namespace stochastic_test {

using bulk_test::bits_float;
using bulk_test::float_bits;

// out[i] = round_to_stochastic<Fmt>(widen(in[i]) [* scale],
//                                   stochastic_random_bits(seed, offset + i, random_bits))
template <class Fmt, class Src>
std::vector<typename Fmt::storage_type> reference_stochastic(
    const std::vector<Src>& in, std::uint64_t seed, std::uint64_t offset, mf::overflow ovf,
    int random_bits = 32, const float* scale = nullptr) {
  std::vector<typename Fmt::storage_type> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    float x = static_cast<float>(in[i]);
    if (scale != nullptr) x = x * *scale;
    out[i] = mf::round_to_stochastic<Fmt>(
                 x, mf::stochastic_random_bits(seed, offset + i, random_bits), ovf, random_bits)
                 .bits();
  }
  return out;
}

// Every finite value of the format, the midpoints and quarter points between
// neighbours (and up to the next value above max), their float neighbours,
// values far below the smallest subnormal (the fraction then sits up to 60
// bits below the significand), float subnormals, specials; both signs.
template <class Fmt>
std::vector<float> rounding_inputs() {
  using F = typename Fmt::format;
  std::vector<double> values = bulk_test::finite_nonnegative_values<Fmt>();
  values.push_back(values.back() + std::ldexp(1.0, F::max_exponent - F::mantissa_bits));
  std::vector<float> out;
  const auto add = [&](float f) {
    if (!std::isfinite(f)) f = std::numeric_limits<float>::max();
    const std::uint32_t u = float_bits(f) & 0x7FFFFFFFu;
    for (int d = -1; d <= 1; ++d) {
      const std::int64_t n = static_cast<std::int64_t>(u) + d;
      if (n < 0 || n >= 0x7F800000) continue;
      out.push_back(bits_float(static_cast<std::uint32_t>(n)));
      out.push_back(bits_float(static_cast<std::uint32_t>(n) | 0x80000000u));
    }
  };
  // Keep the size moderate for the 16-bit formats: every 64th value.
  const std::size_t stride = values.size() > 1024 ? 64 : 1;
  for (std::size_t i = 0; i + 1 < values.size(); i += stride) {
    const double a = values[i], b = values[i + 1];
    for (double k : {0.0, 0.25, 0.5, 0.75, 1.0 / 4096}) add(static_cast<float>(a + (b - a) * k));
  }
  for (int e = -149; e <= 127; ++e) add(std::ldexp(1.0f, e) * 1.37f);
  for (std::uint32_t u : {0x00000001u, 0x00012345u, 0x003FFFFFu, 0x00400000u, 0x00400001u,
                          0x005FFFFFu, 0x00600000u, 0x007FFFFFu, 0x7F7FFFFFu}) {
    out.push_back(bits_float(u));
    out.push_back(bits_float(u | 0x80000000u));
  }
  for (std::uint32_t u : {0x00000000u, 0x7F800000u, 0x7F800001u, 0x7FC00000u, 0x7FFFFFFFu}) {
    out.push_back(bits_float(u));
    out.push_back(bits_float(u | 0x80000000u));
  }
  // Random bit patterns over the whole float range.
  std::mt19937 gen(12345);
  for (int i = 0; i < 2000; ++i) out.push_back(bits_float(static_cast<std::uint32_t>(gen())));
  return out;
}

inline const mf::overflow kOverflows[] = {mf::overflow::non_saturating,
                                          mf::overflow::saturating};

}  // namespace stochastic_test
