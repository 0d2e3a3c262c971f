// The dot product of two MX vectors as OCP MX v1.0 defines it (§6.1 Dot,
// §6.2 DotGeneral), evaluated in a fixed, documented order so that it can
// serve as a reference for hardware verification:
//
//   per block pair j: S_j = sum_{i=0}^{k-1} P_a,i * P_b,i, each product
//     exact in float32 (at most 8 significant bits for the FP elements, a
//     14-bit integer times 2^-12 for INT8), added in float32 from i = 0
//     upwards (round to nearest even after each addition);
//   Dot_j = S_j * X_a * X_b with ONE rounding to float32 (the product of
//     the two scales, 2^(e_a + e_b), may lie outside float's range);
//   DotGeneral = sum over j of Dot_j, in float32 from j = 0 upwards.
// A NaN scale makes its block's Dot NaN; NaN/Inf elements (e4m3fn NaN,
// e5m2 Inf/NaN) propagate by IEEE arithmetic.
#pragma once

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#if __cplusplus >= 202002L && __has_include(<span>)
#include <span>
#endif

#include "../target/float_environment.hpp"
#include "block.hpp"
#include "element.hpp"
#include "quantize_scalar.hpp"
#include "scale.hpp"

namespace mf {
namespace mx {

namespace detail {

// dot_block() for a caller that holds the default floating-point
// environment already (dot() sets it once, not per block).
template <class FmtA, class FmtB>
inline float block_dot(std::uint8_t scale_a, const std::uint8_t* elements_a, std::uint8_t scale_b,
                       const std::uint8_t* elements_b, std::size_t count) {
  static_assert(FmtA::block_size == FmtB::block_size, "both operands need the same block size");
  if (scale_a == scale_nan || scale_b == scale_nan) return scale_value(scale_nan);
  std::uint8_t codes_a[FmtA::block_size];
  std::uint8_t codes_b[FmtB::block_size];
  detail::load_codes<FmtA::element_bits>(elements_a, codes_a, count);
  detail::load_codes<FmtB::element_bits>(elements_b, codes_b, count);
  float sum = 0.0f;
  for (std::size_t i = 0; i < count; ++i) {
    sum += decode_element<typename FmtA::element>(codes_a[i]) *
           decode_element<typename FmtB::element>(codes_b[i]);
  }
  const int exponent = static_cast<int>(scale_a) + static_cast<int>(scale_b) - 254;
  // Exact in double (|exponent| <= 254), then one rounding to float.
  return static_cast<float>(std::ldexp(static_cast<double>(sum), exponent));
}

}  // namespace detail

// Dot of one block pair of `count` (<= K) elements, in IEEE 754's default
// environment whatever the caller's (target/float_environment.hpp).
template <class FmtA, class FmtB>
inline float dot_block(std::uint8_t scale_a, const std::uint8_t* elements_a,
                       std::uint8_t scale_b, const std::uint8_t* elements_b,
                       std::size_t count = FmtA::block_size) {
  return target::in_default_float_environment([&]() -> float {
    return detail::block_dot<FmtA, FmtB>(scale_a, elements_a, scale_b, elements_b, count);
  });
}

template <class FmtA, class FmtB>
inline float dot_block(const block<FmtA>& a, const block<FmtB>& b) {
  return dot_block<FmtA, FmtB>(a.scale, a.elements, b.scale, b.elements);
}

// DotGeneral over n elements in the tensor layout of block.hpp.
template <class FmtA, class FmtB>
inline float dot(const std::uint8_t* scales_a, const std::uint8_t* elements_a,
                 const std::uint8_t* scales_b, const std::uint8_t* elements_b, std::size_t n) {
  return target::in_default_float_environment([&]() -> float {
    constexpr std::size_t k = FmtA::block_size;
    float sum = 0.0f;
    for (std::size_t j = 0; j * k < n; ++j) {
      const std::size_t count = n - j * k < k ? n - j * k : k;
      sum += detail::block_dot<FmtA, FmtB>(scales_a[j], elements_a + j * FmtA::element_bytes,
                                           scales_b[j], elements_b + j * FmtB::element_bytes, count);
    }
    return sum;
  });
}

#if __cplusplus >= 202002L && __has_include(<span>)
// std::span overload (C++20): n elements (a span of packed elements does not
// say the count), cut to what every span holds in the layout of block.hpp
// (debug builds assert that n fits).
template <class FmtA, class FmtB>
inline float dot(std::span<const std::uint8_t> scales_a, std::span<const std::uint8_t> elements_a,
                 std::span<const std::uint8_t> scales_b, std::span<const std::uint8_t> elements_b,
                 std::size_t n) {
  std::size_t fits = n;
  for (const std::size_t held :
       {scales_a.size() * FmtA::block_size, scales_b.size() * FmtB::block_size,
        elements_a.size() * 8 / static_cast<std::size_t>(FmtA::element_bits),
        elements_b.size() * 8 / static_cast<std::size_t>(FmtB::element_bits)}) {
    if (held < fits) fits = held;
  }
  assert(fits == n);
  return dot<FmtA, FmtB>(scales_a.data(), elements_a.data(), scales_b.data(), elements_b.data(),
                         fits);
}
#endif

}  // namespace mx
}  // namespace mf
