// Sub-byte storage, one element at a time (the reference the vector
// packers are tested against, and their tails).
//
//   FP4: two per byte, element 2i in the low nibble, 2i+1 in the high one
//        (CUDA __nv_fp4x2, PyTorch float4_e2m1fn_x2, torchao, OpenVINO).
//   FP6: a little-endian bit stream, element i in bits [6i, 6i + 6): four
//        elements in three bytes.
// Packing ignores the bits of each code above the element width; the bits
// of a partial last byte beyond the last element are written as 0, and
// unpacking ignores them.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mf {
namespace mx {

// Bytes that n packed elements of `Bits` bits occupy (Bits = 4, 6 or 8).
template <int Bits>
constexpr std::size_t packed_bytes(std::size_t n) noexcept {
  static_assert(Bits == 4 || Bits == 6 || Bits == 8, "4, 6 or 8 bits per element");
  return (n * static_cast<std::size_t>(Bits) + 7) / 8;
}

namespace scalar {

inline void pack_fp4(const std::uint8_t* codes, std::uint8_t* packed, std::size_t n) noexcept {
  for (std::size_t i = 0; i + 1 < n; i += 2) {
    packed[i / 2] = static_cast<std::uint8_t>((codes[i] & 0x0Fu) | ((codes[i + 1] & 0x0Fu) << 4));
  }
  if (n % 2) packed[n / 2] = static_cast<std::uint8_t>(codes[n - 1] & 0x0Fu);
}

inline void unpack_fp4(const std::uint8_t* packed, std::uint8_t* codes, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    codes[i] = static_cast<std::uint8_t>((packed[i / 2] >> (4 * (i % 2))) & 0x0Fu);
  }
}

inline void pack_fp6(const std::uint8_t* codes, std::uint8_t* packed, std::size_t n) noexcept {
  std::uint32_t acc = 0;  // bits not yet written, lowest first
  int held = 0;
  std::size_t out = 0;
  for (std::size_t i = 0; i < n; ++i) {
    acc |= static_cast<std::uint32_t>(codes[i] & 0x3Fu) << held;
    held += 6;
    while (held >= 8) {
      packed[out++] = static_cast<std::uint8_t>(acc);
      acc >>= 8;
      held -= 8;
    }
  }
  if (held > 0) packed[out] = static_cast<std::uint8_t>(acc);
}

inline void unpack_fp6(const std::uint8_t* packed, std::uint8_t* codes, std::size_t n) noexcept {
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t bit = 6 * i;
    std::uint32_t window = packed[bit / 8];
    if (bit % 8 > 2) window |= static_cast<std::uint32_t>(packed[bit / 8 + 1]) << 8;
    codes[i] = static_cast<std::uint8_t>((window >> (bit % 8)) & 0x3Fu);
  }
}

}  // namespace scalar
}  // namespace mx
}  // namespace mf
