// The MX kernel families of the dispatch table (target/dispatch.hpp's
// active_kernels): for each ISA, the SIMD kernel of whole blocks (or of the
// bytes a packer covers), nullptr where that ISA has none; the entries
// (quantize.hpp, packing.hpp) finish the rest with the scalar kernels.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../target/dispatch.hpp"
#include "block.hpp"
#include "dequantize_avx512.hpp"
#include "neon_lanes.hpp"
#include "packing_avx512.hpp"
#include "scale.hpp"
#include "x86_lanes.hpp"

namespace mf {
namespace mx {
namespace detail {

using target::isa_tag;
using target::isa;

// quantize and dequantize of `blocks` whole blocks of Fmt.
template <class Fmt>
struct block_kernels {
  struct kernel_set {
    void (*quantize)(const float* in, std::size_t blocks, std::uint8_t* scales,
                     std::uint8_t* elements, scale_rounding mode);
    void (*dequantize)(const std::uint8_t* scales, const std::uint8_t* elements,
                       std::size_t blocks, float* out);
  };
  template <isa I>
  static constexpr kernel_set row(isa_tag<I>) noexcept {
    return {nullptr, nullptr};  // scalar: the scalar kernels do it all
  }
#if MF_HAS_X86_KERNELS
  static constexpr kernel_set row(isa_tag<isa::avx2>) noexcept {
    if constexpr (simd_kernels_cover<Fmt>) {
      return {&avx2::quantize<Fmt>, &avx2::dequantize<Fmt>};
    } else {
      return {nullptr, nullptr};
    }
  }
  static constexpr kernel_set row(isa_tag<isa::avx512>) noexcept {
    if constexpr (simd_kernels_cover<Fmt>) {
      return {&avx512::quantize<Fmt>, &avx512::dequantize<Fmt>};
    } else {
      return {nullptr, nullptr};
    }
  }
#endif
#if MF_HAS_NEON_KERNELS
  static constexpr kernel_set row(isa_tag<isa::neon>) noexcept {
    if constexpr (simd_kernels_cover<Fmt>) {
      return {&neon::quantize<Fmt>, &neon::dequantize<Fmt>};
    } else {
      return {nullptr, nullptr};
    }
  }
#endif
};

// FP4 / FP6 packing: each returns how many codes it did (a multiple of its
// vector's codes); the entries pack the rest with the scalar code.
struct packing_kernels {
  using kernel = std::size_t (*)(const std::uint8_t*, std::uint8_t*, std::size_t);
  struct kernel_set {
    kernel pack_fp4;
    kernel unpack_fp4;
    kernel pack_fp6;
    kernel unpack_fp6;
  };
  template <isa I>
  static constexpr kernel_set row(isa_tag<I>) noexcept {
    return {nullptr, nullptr, nullptr, nullptr};
  }
#if MF_HAS_X86_KERNELS
  static constexpr kernel_set row(isa_tag<isa::avx512>) noexcept {
    return {&avx512::pack_fp4, &avx512::unpack_fp4, &avx512::pack_fp6,
            &avx512::unpack_fp6};
  }
#endif
};

template <class Family>
inline const auto& active_kernels() noexcept {
  return target::active_kernels<Family>();
}

}  // namespace detail
}  // namespace mx

// minifloat::kernels compiles the MX kernels of the formats of OCP MX v1.0
// §5.1, Table 1 (block.hpp) and the packers (target/dispatch.hpp's
// compiled_in_library).
namespace target {
template <class Fmt>
struct compiled_in_library<mx::detail::block_kernels<Fmt>> {
  static constexpr bool value =
      std::is_same_v<Fmt, mx::mxfp8_e4m3> || std::is_same_v<Fmt, mx::mxfp8_e5m2> ||
      std::is_same_v<Fmt, mx::mxfp6_e2m3> || std::is_same_v<Fmt, mx::mxfp6_e3m2> ||
      std::is_same_v<Fmt, mx::mxfp4> || std::is_same_v<Fmt, mx::mxint8>;
};
template <>
struct compiled_in_library<mx::detail::packing_kernels> {
  static constexpr bool value = true;
};
}  // namespace target
}  // namespace mf
