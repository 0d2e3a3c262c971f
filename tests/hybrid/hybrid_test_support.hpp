// Helpers of the hybrid tests: encodings of test values, random matrices of
// wide-range finite codes (the data that tells summation orders apart), and
// a float32 output read back from its bits.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include <minifloat/hybrid.hpp>

namespace hybrid_test {

using mf::hybrid::element_type;

inline std::uint32_t encode(element_type t, double v) {
  switch (t) {
    case element_type::i8: return static_cast<std::uint32_t>(static_cast<std::uint8_t>(static_cast<std::int8_t>(v)));
    case element_type::u8: return static_cast<std::uint32_t>(static_cast<std::uint8_t>(v));
    case element_type::hf8: return mf::e4m3fn(v).bits();
    case element_type::bf8: return mf::e5m2(v).bits();
    case element_type::f16: return mf::binary16(v).bits();
    case element_type::bf16: return mf::bfloat16(v).bits();
    case element_type::f32: {
      const auto f = static_cast<float>(v);
      std::uint32_t b;
      std::memcpy(&b, &f, 4);
      return b;
    }
  }
  return 0;
}

inline float as_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

// A random finite, non-NaN encoding of t (uniform over codes, so values span
// the whole exponent range).
inline std::uint32_t random_finite_code(element_type t, std::mt19937_64& rng) {
  const int bits = mf::hybrid::storage_bits(t);
  for (;;) {
    const auto code = static_cast<std::uint32_t>(rng()) & ((1u << bits) - 1u);
    const float v = mf::hybrid::decode_bits(t, code);
    if (std::isfinite(v)) return code;
  }
}

inline std::vector<std::uint32_t> random_matrix(element_type t, std::size_t count,
                                                std::mt19937_64& rng) {
  std::vector<std::uint32_t> m(count);
  for (auto& v : m) v = random_finite_code(t, rng);
  return m;
}

// One dot product through the run-time entry: A is 1 x k, B is k x 1.
inline std::uint32_t dot(mf::hybrid::table_id table, element_type ta, element_type tb,
                         element_type tc, const std::vector<double>& a,
                         const std::vector<double>& b, mf::hybrid::matmul_options o = {}) {
  std::vector<std::uint32_t> ea, eb;
  for (double v : a) ea.push_back(encode(ta, v));
  for (double v : b) eb.push_back(encode(tb, v));
  std::uint32_t c = 0;
  o.check_z_multiple = false;
  mf::hybrid::matmul(table, ta, tb, tc, ea.data(), a.size(), eb.data(), 1, &c, 1, 1, 1, a.size(), o);
  return c;
}

}  // namespace hybrid_test
