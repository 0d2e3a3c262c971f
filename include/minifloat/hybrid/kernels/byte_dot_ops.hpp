// The "vector operations" of the integer MatMul's tiles: the generic
// micro-kernel (generic/fma_tile.hpp) run over words of four bytes. Each
// 32-bit word of packed A holds four k of one row as unsigned bytes, each
// word of packed B four k of one column as signed bytes
// (integer_driver.hpp says how I8 x I8 and U8 x U8 are moved into that
// form), and one step is, per 32-bit lane,
//   acc += a0*b0 + a1*b1 + a2*b2 + a3*b3   (modulo 2^32)
// which is VPDPBUSD's definition (Intel SDM, "VPDPBUSD: Multiply and Add
// Unsigned and Signed Bytes", the non-saturating form). Every product and
// every 4-term sum is exact in int32, and addition modulo 2^32 does not
// depend on its order, so every tile shape and K blocking gives the
// reference's wrapped int32 bits.
//
// This file: the scalar form (one lane), the fallback on every CPU.
// x86/avx2/byte_dot_ops.hpp and x86/avx512/byte_dot_ops.hpp hold the SIMD
// forms.
#pragma once

#include <cstdint>
#include <cstring>

#include "../../config.hpp"

namespace mf::hybrid::kernels::scalar {

struct byte_dot_ops {
  using value = std::int32_t;  // a packed word, or an int32 accumulator
  using vec = std::uint32_t;   // one accumulator, wrapping modulo 2^32
  static constexpr int lanes = 1;
  static MF_FORCE_INLINE vec zero() noexcept { return 0u; }
  static MF_FORCE_INLINE vec loadu(const value* p) noexcept {
    vec v;
    std::memcpy(&v, p, sizeof v);
    return v;
  }
  static MF_FORCE_INLINE vec broadcast(value word) noexcept {
    vec v;
    std::memcpy(&v, &word, sizeof v);
    return v;
  }
  // acc + the four products of a's unsigned and b's signed bytes.
  static MF_FORCE_INLINE vec fma(vec a, vec b, vec acc) noexcept {
    for (int q = 0; q < 4; ++q) {
      const auto ua = static_cast<std::int32_t>((a >> (8 * q)) & 0xFFu);
      const auto sb = static_cast<std::int32_t>(static_cast<std::int8_t>((b >> (8 * q)) & 0xFFu));
      acc += static_cast<std::uint32_t>(ua * sb);
    }
    return acc;
  }
  static MF_FORCE_INLINE void storeu(value* p, vec v) noexcept { std::memcpy(p, &v, sizeof v); }
};

}  // namespace mf::hybrid::kernels::scalar
