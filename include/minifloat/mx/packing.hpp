// Packed FP4 / FP6 storage, in bulk (layout in packing_scalar.hpp), and
// float32 <-> packed encode/decode directly. The AVX-512 packers run when
// mf::target::active_isa() is avx512; elsewhere (and for the tails) the
// scalar ones. FP6 one-per-byte (CUDA's layout) is the plain bulk API:
// mf::bulk::encode<mf::e2m3fn>.
#pragma once

#include <cstddef>
#include <cstdint>

#if __cplusplus >= 202002L && __has_include(<span>)
#include <cassert>
#include <span>
#endif

#include "../bulk.hpp"
#include "kernel_sets.hpp"
#include "packing_scalar.hpp"
#include "../target/dispatch.hpp"
#include "../target/region.hpp"
#if MF_HAS_X86_KERNELS
#include "../target/x86_intrinsics.hpp"
#endif

namespace mf {
namespace mx {

// codes[0..n) (one per byte, bits above 4 ignored) -> packed_bytes<4>(n) bytes.
inline void pack_fp4(const std::uint8_t* codes, std::uint8_t* packed, std::size_t n) {
  std::size_t done = 0;
  if (const auto kernel = detail::active_kernels<detail::packing_kernels>().pack_fp4) {
    done = kernel(codes, packed, n);
  }
  scalar::pack_fp4(codes + done, packed + done / 2, n - done);
}

inline void unpack_fp4(const std::uint8_t* packed, std::uint8_t* codes, std::size_t n) {
  std::size_t done = 0;
  if (const auto kernel = detail::active_kernels<detail::packing_kernels>().unpack_fp4) {
    done = kernel(packed, codes, n);
  }
  scalar::unpack_fp4(packed + done / 2, codes + done, n - done);
}

// codes[0..n) (bits above 6 ignored) -> packed_bytes<6>(n) bytes.
inline void pack_fp6(const std::uint8_t* codes, std::uint8_t* packed, std::size_t n) {
  std::size_t done = 0;
  if (const auto kernel = detail::active_kernels<detail::packing_kernels>().pack_fp6) {
    done = kernel(codes, packed, n);
  }
  scalar::pack_fp6(codes + done, packed + done / 4 * 3, n - done);
}

inline void unpack_fp6(const std::uint8_t* packed, std::uint8_t* codes, std::size_t n) {
  std::size_t done = 0;
  if (const auto kernel = detail::active_kernels<detail::packing_kernels>().unpack_fp6) {
    done = kernel(packed, codes, n);
  }
  scalar::unpack_fp6(packed + done / 4 * 3, codes + done, n - done);
}

// Packs or unpacks by the width of Fmt (4 or 6 bits); the codes are bytes
// or Fmt values (encodings.hpp: std::vector<mf::e2m1fn>::data()).
template <class Fmt>
inline void pack(encodings<const Fmt> codes, std::uint8_t* packed, std::size_t n) {
  constexpr int bits = Fmt::format::bits;
  static_assert(bits == 4 || bits == 6, "packing is for the 4- and 6-bit formats");
  if constexpr (bits == 4) {
    pack_fp4(codes.get(), packed, n);
  } else {
    pack_fp6(codes.get(), packed, n);
  }
}

template <class Fmt>
inline void unpack(const std::uint8_t* packed, encodings<Fmt> codes, std::size_t n) {
  constexpr int bits = Fmt::format::bits;
  static_assert(bits == 4 || bits == 6, "packing is for the 4- and 6-bit formats");
  if constexpr (bits == 4) {
    unpack_fp4(packed, codes.get(), n);
  } else {
    unpack_fp6(packed, codes.get(), n);
  }
}

namespace detail {
// Elements per pass of the direct encode/decode: a multiple of 64 (the
// vector packers' step, so only the last pass has a scalar tail) whose
// one-byte staging buffer stays in L1.
inline constexpr std::size_t packing_chunk = 1024;
}  // namespace detail

// Rounds in[0..n) into Fmt (e2m1fn, e2m3fn or e3m2fn) as `c` says and
// writes them packed: same bits as mf::bulk::encode<Fmt> followed by
// pack<Fmt> (a stochastic stream advances across the passes as in one call).
template <class Fmt>
inline void encode_packed(const float* in, std::uint8_t* out, std::size_t n,
                          const conversion& c = {}) {
  constexpr int bits = Fmt::format::bits;
  std::uint8_t codes[detail::packing_chunk];
  for (std::size_t i = 0; i < n; i += detail::packing_chunk) {
    const std::size_t count = n - i < detail::packing_chunk ? n - i : detail::packing_chunk;
    mf::bulk::encode<Fmt>(in + i, codes, count, c.at_element(i));
    pack<Fmt>(codes, out + i * bits / 8, count);
  }
}

// Decodes packed_bytes<bits>(n) bytes of Fmt to n floats (exact).
template <class Fmt>
inline void decode_packed(const std::uint8_t* in, float* out, std::size_t n) {
  constexpr int bits = Fmt::format::bits;
  std::uint8_t codes[detail::packing_chunk];
  for (std::size_t i = 0; i < n; i += detail::packing_chunk) {
    const std::size_t count = n - i < detail::packing_chunk ? n - i : detail::packing_chunk;
    unpack<Fmt>(in + i * bits / 8, codes, count);
    mf::bulk::decode<Fmt>(codes, out + i, count);
  }
}

#if __cplusplus >= 202002L && __has_include(<span>)
// std::span overloads (C++20): n is the element count (codes or floats);
// the packed span must hold packed_bytes<bits>(n) bytes (debug assertion;
// release builds shorten n to what both spans hold).
namespace detail {

template <int Bits>
inline std::size_t fitting_elements(std::size_t wanted, std::size_t packed_slots) noexcept {
  assert(packed_bytes<Bits>(wanted) <= packed_slots);
  const std::size_t by_bytes = packed_slots * 8 / static_cast<std::size_t>(Bits);
  return wanted < by_bytes ? wanted : by_bytes;
}

}  // namespace detail

inline void pack_fp4(std::span<const std::uint8_t> codes, std::span<std::uint8_t> packed) {
  pack_fp4(codes.data(), packed.data(), detail::fitting_elements<4>(codes.size(), packed.size()));
}

inline void unpack_fp4(std::span<const std::uint8_t> packed, std::span<std::uint8_t> codes) {
  unpack_fp4(packed.data(), codes.data(),
             detail::fitting_elements<4>(codes.size(), packed.size()));
}

inline void pack_fp6(std::span<const std::uint8_t> codes, std::span<std::uint8_t> packed) {
  pack_fp6(codes.data(), packed.data(), detail::fitting_elements<6>(codes.size(), packed.size()));
}

inline void unpack_fp6(std::span<const std::uint8_t> packed, std::span<std::uint8_t> codes) {
  unpack_fp6(packed.data(), codes.data(),
             detail::fitting_elements<6>(codes.size(), packed.size()));
}

template <class Fmt>
inline void pack(encoding_span<const Fmt> codes, std::span<std::uint8_t> packed) {
  pack<Fmt>(codes.data(), packed.data(),
            detail::fitting_elements<Fmt::format::bits>(codes.size(), packed.size()));
}

template <class Fmt>
inline void unpack(std::span<const std::uint8_t> packed, encoding_span<Fmt> codes) {
  unpack<Fmt>(packed.data(), codes.data(),
              detail::fitting_elements<Fmt::format::bits>(codes.size(), packed.size()));
}

template <class Fmt>
inline void encode_packed(std::span<const float> in, std::span<std::uint8_t> out,
                          const conversion& c = {}) {
  encode_packed<Fmt>(in.data(), out.data(),
                     detail::fitting_elements<Fmt::format::bits>(in.size(), out.size()), c);
}

template <class Fmt>
inline void decode_packed(std::span<const std::uint8_t> in, std::span<float> out) {
  decode_packed<Fmt>(in.data(), out.data(),
                     detail::fitting_elements<Fmt::format::bits>(out.size(), in.size()));
}
#endif

}  // namespace mx
}  // namespace mf
