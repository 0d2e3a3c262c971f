// MX quantize and dequantize one element at a time: every format, every
// block size, every scale rule. The AVX-512 kernels give the same bytes and
// floats (tests/mx checks both against a separate double-precision model).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "block.hpp"
#include "element.hpp"
#include "packing_scalar.hpp"
#include "scale.hpp"

namespace mf {
namespace mx {
namespace detail {

// Largest |V| of a block as float bits: integer max of the magnitudes, so a
// NaN anywhere (bits above Inf's) or an Inf gives a pattern >= 0x7F800000.
inline std::uint32_t amax_bits(const float* in, std::size_t count) noexcept {
  std::uint32_t amax = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const std::uint32_t a = mf::detail::bit_cast<std::uint32_t>(in[i]) & 0x7FFFFFFFu;
    amax = a > amax ? a : amax;
  }
  return amax;
}

template <int Bits>
inline void store_codes(const std::uint8_t* codes, std::uint8_t* out, std::size_t count) noexcept {
  if constexpr (Bits == 8) {
    std::memcpy(out, codes, count);
  } else if constexpr (Bits == 4) {
    scalar::pack_fp4(codes, out, count);
  } else {
    scalar::pack_fp6(codes, out, count);
  }
}

template <int Bits>
inline void load_codes(const std::uint8_t* in, std::uint8_t* codes, std::size_t count) noexcept {
  if constexpr (Bits == 8) {
    std::memcpy(codes, in, count);
  } else if constexpr (Bits == 4) {
    scalar::unpack_fp4(in, codes, count);
  } else {
    scalar::unpack_fp6(in, codes, count);
  }
}

}  // namespace detail

namespace scalar {

// One block of `count` (<= K) elements: its scale byte, and its elements
// written from `elements` on (packed for FP4/FP6).
template <class Fmt>
MF_FORCE_INLINE void quantize_block(const float* in, std::size_t count, std::uint8_t& scale,
                                    std::uint8_t* elements, scale_rounding mode) noexcept {
  using Elem = typename Fmt::element;
  std::uint8_t codes[Fmt::block_size] = {};
  const std::uint8_t code = shared_scale<Elem>(detail::amax_bits(in, count), mode);
  scale = code;
  // A NaN scale makes the whole block NaN whatever P_i hold (§6.3); they
  // are written as zeros.
  if (code != scale_nan) {
    const int shift = 127 - static_cast<int>(code) + element_traits<Elem>::implicit_shift;
    for (std::size_t i = 0; i < count; ++i) {
      codes[i] = encode_element<Elem>(
          scale_by_power_of_two(mf::detail::bit_cast<std::uint32_t>(in[i]), shift));
    }
  }
  detail::store_codes<Fmt::element_bits>(codes, elements, count);
}

template <class Fmt>
MF_FORCE_INLINE void dequantize_block(std::uint8_t scale, const std::uint8_t* elements,
                                      std::size_t count, float* out) noexcept {
  using Elem = typename Fmt::element;
  std::uint8_t codes[Fmt::block_size];
  detail::load_codes<Fmt::element_bits>(elements, codes, count);
  if (scale == scale_nan) {
    for (std::size_t i = 0; i < count; ++i) out[i] = scale_value(scale_nan);
    return;
  }
  if (multiply_is_exact<Elem>(scale)) {  // the common case: one exact multiply
    const float x = mf::detail::bit_cast<float>(static_cast<std::uint32_t>(scale) << 23);
    for (std::size_t i = 0; i < count; ++i) out[i] = decode_element<Elem>(codes[i]) * x;
    return;
  }
  for (std::size_t i = 0; i < count; ++i) {
    out[i] = mf::detail::bit_cast<float>(
        multiply_by_scale(mf::detail::bit_cast<std::uint32_t>(decode_element<Elem>(codes[i])), scale));
  }
}

// The whole blocks pass their size as a constant, so that each block's
// loops have a known trip count: g++ -O2 vectorizes only such loops (the
// scalar MXFP4 quantize lost 7% at -O2 to its element-by-element maximum).
template <class Fmt>
inline void quantize(const float* in, std::size_t n, std::uint8_t* scales,
                     std::uint8_t* elements, scale_rounding mode) noexcept {
  constexpr std::size_t k = Fmt::block_size;
  const std::size_t whole = n / k;
  for (std::size_t j = 0; j < whole; ++j) {
    quantize_block<Fmt>(in + j * k, k, scales[j], elements + j * Fmt::element_bytes, mode);
  }
  if (n % k != 0) {
    quantize_block<Fmt>(in + whole * k, n % k, scales[whole],
                        elements + whole * Fmt::element_bytes, mode);
  }
}

template <class Fmt>
inline void dequantize(const std::uint8_t* scales, const std::uint8_t* elements, std::size_t n,
                       float* out) noexcept {
  constexpr std::size_t k = Fmt::block_size;
  const std::size_t whole = n / k;
  for (std::size_t j = 0; j < whole; ++j) {
    dequantize_block<Fmt>(scales[j], elements + j * Fmt::element_bytes, k, out + j * k);
  }
  if (n % k != 0) {
    dequantize_block<Fmt>(scales[whole], elements + whole * Fmt::element_bytes, n % k,
                          out + whole * k);
  }
}

}  // namespace scalar
}  // namespace mx
}  // namespace mf
