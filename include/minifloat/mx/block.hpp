// The MX block formats (OCP MX v1.0 §5, Table 1 of §5.1): k elements of one
// element type sharing one E8M0 scale X; element i stands for X * P_i.
// Storage, as the StableHLO MX RFC states it for k = 32: MXFP8 33 bytes,
// MXFP6 25, MXFP4 17 (packed elements + one scale byte).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#if __cplusplus >= 202002L && __has_include(<span>)
#include <span>
#endif

#include "../encodings.hpp"
#include "../formats.hpp"
#include "element.hpp"
#include "packing_scalar.hpp"

namespace mf {
namespace mx {

// An MX format: element type Elem (a minifloat type or int8_element), K
// elements per block (32 in the spec). K times the element width must be a
// whole number of bytes, so that every block of a packed tensor starts on a
// byte (FP4: K even; FP6: K a multiple of 4).
template <class Elem, std::size_t K = 32>
struct block_format {
  using element = Elem;
  static constexpr std::size_t block_size = K;
  static constexpr int element_bits = element_traits<Elem>::bits;
  static_assert(K >= 1, "a block has at least one element");
  static_assert(K * element_bits % 8 == 0, "a block's elements must fill whole bytes");
  static constexpr std::size_t element_bytes = K * static_cast<std::size_t>(element_bits) / 8;
  static constexpr std::size_t block_bytes = 1 + element_bytes;
};

using mxfp8_e4m3 = block_format<e4m3fn>;
using mxfp8_e5m2 = block_format<e5m2>;
using mxfp6_e2m3 = block_format<e2m3fn>;
using mxfp6_e3m2 = block_format<e3m2fn>;
using mxfp4 = block_format<e2m1fn>;
using mxint8 = block_format<int8_element>;

// One block in the "array of blocks" layout: the scale byte, then the K
// elements (packed for FP4/FP6). Standard layout, no padding.
template <class Fmt>
struct block {
  std::uint8_t scale;
  std::uint8_t elements[Fmt::element_bytes];
};

static_assert(sizeof(block<mxfp8_e4m3>) == 33 && sizeof(block<mxfp8_e5m2>) == 33,
              "MXFP8: 32 bytes of elements + 1 scale");
static_assert(sizeof(block<mxfp6_e2m3>) == 25 && sizeof(block<mxfp6_e3m2>) == 25,
              "MXFP6: 24 bytes of elements + 1 scale");
static_assert(sizeof(block<mxfp4>) == 17, "MXFP4: 16 bytes of elements + 1 scale");
static_assert(sizeof(block<mxint8>) == 33, "MXINT8: 32 bytes of elements + 1 scale");

// The tensor layout ("structure of arrays", what GEMM kernels read): for n
// elements, scale_count(n) scale bytes in one array (block j's scale at
// index j) and element_bytes(n) bytes of elements in another (element i at
// bit offset i * element_bits; block j starts at byte j * Fmt::element_bytes).
// A last, partial block (n not a multiple of K) has its own scale over the
// elements it has.
template <class Fmt>
constexpr std::size_t scale_count(std::size_t n) noexcept {
  return (n + Fmt::block_size - 1) / Fmt::block_size;
}

template <class Fmt>
constexpr std::size_t element_bytes(std::size_t n) noexcept {
  return packed_bytes<Fmt::element_bits>(n);
}

// The element array of the tensor layout as the entries take it. Elements
// of 8-bit minifloats are one encoding per byte, so the entries take them as
// their storage or as values (encodings.hpp: std::vector<mf::e4m3fn>::data()
// for MXFP8); packed elements (FP6, FP4) and INT8 are bytes.
template <class Fmt>
inline constexpr bool elements_are_encodings =
    is_minifloat_v<typename Fmt::element> && Fmt::element_bits == 8;

template <class Fmt>
using element_pointer = std::conditional_t<elements_are_encodings<Fmt>,
                                           encodings<typename Fmt::element>, std::uint8_t*>;
template <class Fmt>
using const_element_pointer =
    std::conditional_t<elements_are_encodings<Fmt>, encodings<const typename Fmt::element>,
                       const std::uint8_t*>;

#if __cplusplus >= 202002L && __has_include(<span>)
template <class Fmt>
using element_span = std::conditional_t<elements_are_encodings<Fmt>,
                                        encoding_span<typename Fmt::element>,
                                        std::span<std::uint8_t>>;
template <class Fmt>
using const_element_span =
    std::conditional_t<elements_are_encodings<Fmt>, encoding_span<const typename Fmt::element>,
                       std::span<const std::uint8_t>>;
#endif

namespace detail {

// The block formats the SIMD kernels (generic/quantize_loop.hpp,
// generic/dequantize_loop.hpp, dequantize_avx512.hpp) cover: float elements
// of 8 or 4 bits, blocks of a multiple of 16 (a whole number of vectors on
// every ISA).
template <class Fmt>
inline constexpr bool simd_kernels_cover =
    !element_traits<typename Fmt::element>::is_integer && Fmt::block_size % 16 == 0 &&
    (Fmt::element_bits == 8 || Fmt::element_bits == 4);

}  // namespace detail
}  // namespace mx
}  // namespace mf
