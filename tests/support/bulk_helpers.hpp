// Shared by the bulk, stochastic and scaling tests: the modes, the
// reference encode and decode (tests/reference/), bit helpers, and a
// comparison that reports the first differing element. The formats come from support/formats.hpp and the
// kernel sets from support/isa_tests.hpp.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include <minifloat/bulk.hpp>

#include "support/formats.hpp"
#include "support/formats_under_test.hpp"
#include "support/isa_tests.hpp"

namespace bulk_test {

using ::mft::available_isas;
using ::mft::isa_scope;

inline const mf::rounding kModes[] = {
    mf::rounding::nearest_even, mf::rounding::toward_zero,
    mf::rounding::toward_positive, mf::rounding::toward_negative};
inline const mf::overflow kOverflows[] = {mf::overflow::non_saturating,
                                          mf::overflow::saturating};

inline std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
inline float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

inline const char* mode_name(mf::rounding m) {
  switch (m) {
    case mf::rounding::nearest_even: return "nearest_even";
    case mf::rounding::toward_zero: return "toward_zero";
    case mf::rounding::toward_positive: return "toward_positive";
    case mf::rounding::toward_negative: return "toward_negative";
  }
  return "?";
}

// The expected encodings: the independent reference of tests/reference/
// (the format as runtime parameters, a sorted table of its values and a
// binary search; no library code), element by element. Not mf::round_to:
// the scalar kernel set calls the same round_float_bits as round_to, so a
// comparison with round_to would compare that function with itself.
inline mfref::round_mode reference_mode(mf::rounding mode) {
  switch (mode) {
    case mf::rounding::nearest_even: return mfref::round_mode::nearest_even;
    case mf::rounding::toward_zero: return mfref::round_mode::toward_zero;
    case mf::rounding::toward_positive: return mfref::round_mode::toward_positive;
    case mf::rounding::toward_negative: return mfref::round_mode::toward_negative;
  }
  return mfref::round_mode::nearest_even;
}

inline mfref::overflow_mode reference_overflow(mf::overflow ovf) {
  return ovf == mf::overflow::saturating ? mfref::overflow_mode::saturating
                                         : mfref::overflow_mode::non_saturating;
}

template <class Fmt>
typename Fmt::storage_type reference_encode_one(float x, mf::rounding mode, mf::overflow ovf) {
  return static_cast<typename Fmt::storage_type>(mftest::reference_for<Fmt>().encode(
      x, reference_mode(mode), reference_overflow(ovf)));
}

template <class Fmt>
std::vector<typename Fmt::storage_type> reference_encode(
    const std::vector<float>& in, mf::rounding mode, mf::overflow ovf) {
  std::vector<typename Fmt::storage_type> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i] = reference_encode_one<Fmt>(in[i], mode, ovf);
  }
  return out;
}

// reference_encode for every pair of kModes x kOverflows, in that order
// (overflow varying fastest): the reference's neighbour search, most of its
// time, once per input instead of once per pair.
template <class Fmt>
std::vector<std::vector<typename Fmt::storage_type>> reference_encode_every_mode(
    const std::vector<float>& in) {
  using S = typename Fmt::storage_type;
  const mfref::reference& ref = mftest::reference_for<Fmt>();
  std::vector<std::ptrdiff_t> lower(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (std::isfinite(in[i])) lower[i] = ref.lower_index(std::fabs(static_cast<double>(in[i])));
  }
  std::vector<std::vector<S>> out;
  for (mf::rounding mode : kModes) {
    for (mf::overflow ovf : kOverflows) {
      std::vector<S> encoded(in.size());
      for (std::size_t i = 0; i < in.size(); ++i) {
        encoded[i] = static_cast<S>(
            std::isfinite(in[i])
                ? ref.decide(lower[i], static_cast<double>(in[i]), reference_mode(mode),
                             reference_overflow(ovf), 0u, 0)
                : ref.encode(in[i], reference_mode(mode), reference_overflow(ovf)));
      }
      out.push_back(std::move(encoded));
    }
  }
  return out;
}

// The float32 bits a decode gives for each encoding, from the reference's
// value formula: the value itself, or for a NaN encoding the quiet NaN with
// the sign the specification gives it.
template <class Fmt>
std::uint32_t reference_decode_bits(unsigned code) {
  const mfref::reference& ref = mftest::reference_for<Fmt>();
  const mfref::decoded d = ref.decode(code & ((1u << ref.width()) - 1u));
  if (d.cls == mfref::value_class::nan) {
    return std::signbit(d.value) ? 0xFFC00000u : 0x7FC00000u;
  }
  return float_bits(static_cast<float>(d.value));
}

// Every finite non-negative value of Fmt, ascending, each once (the
// magnitudes around which its rounding changes).
template <class Fmt>
std::vector<double> finite_nonnegative_values() {
  using F = typename Fmt::format;
  std::vector<double> values;
  for (unsigned b = 0; b < (1u << F::bits); ++b) {
    const float v = static_cast<float>(Fmt::from_bits(static_cast<typename Fmt::storage_type>(b)));
    if (std::isfinite(v) && v >= 0) values.push_back(v);
  }
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

// Index of the first difference, or -1.
template <class T>
long long first_difference(const T* a, const T* b, std::size_t n) {
  for (std::size_t i = 0; i < n; ++i) {
    if (a[i] != b[i]) return static_cast<long long>(i);
  }
  return -1;
}

}  // namespace bulk_test
