// NVFP4 (NVIDIA Blackwell's FP4 block format, as torchao and
// TransformerEngine lay it out): e2m1fn elements in blocks of 16, one
// e4m3fn scale per block, one float32 scale per tensor.
//
//   tensor scale  s_t = fl32(amax / (448 * 6))           (amax over the tensor)
//   block scale   s_b = e4m3fn(amax_block / 6 / s_t)     nearest even, saturating
//   element       P_i = e2m1fn(x_i / (s_b * s_t))        nearest even, saturating
//   value         x_i ~ (P_i * s_b) * s_t                (P_i * s_b exact; one rounding)
//
// Each quotient is rounded once, from its exact value: it is formed in
// double (the divisor 6 * s_t or s_b * s_t is exact there, the quotient
// rounded to 53 bits can only hit an e4m3fn or e2m1fn rounding boundary
// when the exact quotient does, because those boundaries have at most 5
// significant bits) and then rounded by mf::round_to.
// Edge cases: amax == 0, or amax so small that s_t underflows to 0, gives
// s_t = 1 (the elements become zeros); a NaN or Inf in the tensor gives
// s_t = NaN, every block scale NaN (0x7F) and zero elements. A block whose
// scale rounds to zero (all of it below 2^-10 * 6 * s_t, a zero block
// included) gets elements +-0 (the sign of x_i), since x_i / 0 has no
// meaning and the block decodes to zeros anyway.
// With a caller's finite tensor scale, NaN and Inf act per block: a block
// with a NaN gets scale NaN (0x7F) and elements 0x7 (NaN -> +max), so it
// decodes to NaN; a block with +-Inf and no NaN gets the saturated scale 448
// (0x7E) and +-Inf elements +-6, which decode to the finite +-6 * 448 * s_t
// (docs/mx.md, section 5).
#pragma once

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>

#if __cplusplus >= 202002L && __has_include(<span>)
#include <span>
#endif

#include "../convert.hpp"
#include "../encodings.hpp"
#include "../formats.hpp"
#include "../target/float_environment.hpp"
#include "packing_scalar.hpp"
#include "quantize_scalar.hpp"

namespace mf {
namespace mx {
namespace nvfp4 {

inline constexpr std::size_t block_size = 16;
inline constexpr float e4m3fn_max = 448.0f;
inline constexpr float e2m1fn_max = 6.0f;

constexpr std::size_t scale_count(std::size_t n) noexcept {
  return (n + block_size - 1) / block_size;
}
constexpr std::size_t element_bytes(std::size_t n) noexcept { return packed_bytes<4>(n); }

// The per-tensor scale of in[0..n).
inline float tensor_scale(const float* in, std::size_t n) noexcept {
  return target::in_default_float_environment([&]() -> float {
    const std::uint32_t amax = mx::detail::amax_bits(in, n);
    if (amax >= 0x7F800000u) return mf::detail::bit_cast<float>(0x7FC00000u);
    const float s = mf::detail::bit_cast<float>(amax) / (e4m3fn_max * e2m1fn_max);
    return s == 0.0f ? 1.0f : s;
  });
}

// Quantizes in[0..n) with a given tensor scale: scales[scale_count(n)]
// (e4m3fn encodings, as bytes or mf::e4m3fn values), elements[element_bytes(n)]
// (packed e2m1fn).
inline void quantize(const float* in, encodings<e4m3fn> scale_codes, std::uint8_t* elements,
                     std::size_t n, float tensor_scale) noexcept {
  target::in_default_float_environment([&] {
    std::uint8_t* const scales = scale_codes.get();
    std::uint8_t codes[block_size];
    const double s_t = static_cast<double>(tensor_scale);
    for (std::size_t j = 0; j * block_size < n; ++j) {
      const float* x = in + j * block_size;
      const std::size_t count = n - j * block_size < block_size ? n - j * block_size : block_size;
      std::uint8_t scale_code = 0;
      if (std::isnan(tensor_scale)) {
        scale_code = static_cast<std::uint8_t>(e4m3fn::format::positive_nan);
        for (std::size_t i = 0; i < count; ++i) codes[i] = 0;
      } else {
        const float amax = mf::detail::bit_cast<float>(mx::detail::amax_bits(x, count));
        scale_code = round_to<e4m3fn>(static_cast<double>(amax) / (6.0 * s_t),
                                      rounding::nearest_even, overflow::saturating)
                         .bits();
        const double s_b = static_cast<double>(static_cast<float>(e4m3fn::from_bits(scale_code)));
        for (std::size_t i = 0; i < count; ++i) {
          if (s_b == 0.0) {
            codes[i] = std::signbit(x[i]) ? e2m1fn::format::sign_mask : 0u;
          } else {
            codes[i] = round_to<e2m1fn>(static_cast<double>(x[i]) / (s_b * s_t),
                                        rounding::nearest_even, overflow::saturating)
                           .bits();
          }
        }
      }
      scales[j] = scale_code;
      scalar::pack_fp4(codes, elements + j * block_size / 2, count);
    }
  });
}

// Same, with the tensor scale computed from the data (returned).
inline float quantize(const float* in, encodings<e4m3fn> scales, std::uint8_t* elements,
                      std::size_t n) noexcept {
  const float s_t = tensor_scale(in, n);  // both in the default environment
  quantize(in, scales, elements, n, s_t);
  return s_t;
}

// out[i] = (P_i * s_b) * tensor_scale for the n elements.
inline void dequantize(encodings<const e4m3fn> scale_codes, const std::uint8_t* elements,
                       float* out, std::size_t n, float tensor_scale) noexcept {
  target::in_default_float_environment([&] {
    const std::uint8_t* const scales = scale_codes.get();
    std::uint8_t codes[block_size];
    for (std::size_t j = 0; j * block_size < n; ++j) {
      const std::size_t count = n - j * block_size < block_size ? n - j * block_size : block_size;
      scalar::unpack_fp4(elements + j * block_size / 2, codes, count);
      const float s_b = static_cast<float>(e4m3fn::from_bits(scales[j]));
      for (std::size_t i = 0; i < count; ++i) {
        out[j * block_size + i] =
            static_cast<float>(e2m1fn::from_bits(codes[i])) * s_b * tensor_scale;
      }
    }
  });
}

#if __cplusplus >= 202002L && __has_include(<span>)
// std::span overloads (C++20): n is in.size() / out.size(), cut to what the
// output spans hold (debug builds assert that everything fits).
inline std::size_t fitting_count(std::size_t wanted, std::size_t scale_slots,
                                 std::size_t element_slots) noexcept {
  assert(scale_count(wanted) <= scale_slots && element_bytes(wanted) <= element_slots);
  const std::size_t by_scales = scale_slots * block_size;
  const std::size_t by_elements = element_slots * 2;
  const std::size_t n = wanted < by_scales ? wanted : by_scales;
  return n < by_elements ? n : by_elements;
}

inline float tensor_scale(std::span<const float> in) noexcept {
  return tensor_scale(in.data(), in.size());
}

inline void quantize(std::span<const float> in, encoding_span<e4m3fn> scales,
                     std::span<std::uint8_t> elements, float tensor_scale) noexcept {
  quantize(in.data(), scales.data(), elements.data(),
           fitting_count(in.size(), scales.size(), elements.size()), tensor_scale);
}

inline float quantize(std::span<const float> in, encoding_span<e4m3fn> scales,
                      std::span<std::uint8_t> elements) noexcept {
  return quantize(in.data(), scales.data(), elements.data(),
                  fitting_count(in.size(), scales.size(), elements.size()));
}

inline void dequantize(encoding_span<const e4m3fn> scales,
                       std::span<const std::uint8_t> elements, std::span<float> out,
                       float tensor_scale) noexcept {
  dequantize(scales.data(), elements.data(), out.data(),
             fitting_count(out.size(), scales.size(), elements.size()), tensor_scale);
}
#endif

}  // namespace nvfp4
}  // namespace mx
}  // namespace mf
