// Shared by the bulk tests: the formats, the modes, the ISAs to run, and a
// comparison that reports the first differing element.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include <minifloat/bulk.hpp>

namespace bulk_test {

using AllFormats =
    ::testing::Types<mf::e4m3fn, mf::e5m2, mf::e4m3fnuz, mf::e5m2fnuz,
                     mf::e2m1fn, mf::e2m3fn, mf::e3m2fn, mf::e8m0fnu, mf::e4m3,
                     mf::e3m4, mf::e4m3b11fnuz, mf::binary16, mf::bfloat16>;

// Test names: E4M3 layout, bias and the kind of specials (e.g. "e4m3b7_fn").
struct FormatNames {
  template <class Fmt>
  static std::string GetName(int) {
    using F = typename Fmt::format;
    const char* kinds[] = {"ieee", "fn", "fnuz", "finite", "fnu"};
    return "e" + std::to_string(F::exponent_bits) + "m" + std::to_string(F::mantissa_bits) +
           "b" + std::to_string(F::bias) + "_" + kinds[static_cast<int>(F::encoding)];
  }
};

inline const mf::rounding kModes[] = {
    mf::rounding::nearest_even, mf::rounding::toward_zero,
    mf::rounding::toward_positive, mf::rounding::toward_negative};
inline const mf::overflow kOverflows[] = {mf::overflow::non_saturating,
                                          mf::overflow::saturating};

// Every ISA this machine runs, scalar first.
inline std::vector<mf::bulk::isa> available_isas() {
  std::vector<mf::bulk::isa> result;
  for (mf::bulk::isa i : {mf::bulk::isa::scalar, mf::bulk::isa::avx2,
                          mf::bulk::isa::avx512, mf::bulk::isa::neon}) {
    if (mf::bulk::isa_supported(i)) result.push_back(i);
  }
  return result;
}

// Selects an ISA for the lifetime of the object, then restores the previous.
class isa_scope {
 public:
  explicit isa_scope(mf::bulk::isa i) : previous_(mf::bulk::active_isa()) {
    const mf::bulk::isa got = mf::bulk::set_isa(i);
    EXPECT_EQ(got, i) << mf::bulk::isa_name(i);
  }
  ~isa_scope() { mf::bulk::set_isa(previous_); }
  isa_scope(const isa_scope&) = delete;
  isa_scope& operator=(const isa_scope&) = delete;

 private:
  mf::bulk::isa previous_;
};

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

// The scalar reference: mf::round_to, element by element.
template <class Fmt>
std::vector<typename Fmt::storage_type> reference_encode(
    const std::vector<float>& in, mf::rounding mode, mf::overflow ovf) {
  std::vector<typename Fmt::storage_type> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    out[i] = mf::round_to<Fmt>(in[i], mode, ovf).bits();
  }
  return out;
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
