// The MX kernel families of the dispatch table (bulk/dispatch.hpp's
// active_kernels): for each ISA, the SIMD kernel of whole blocks (or of the
// bytes a packer covers), nullptr where that ISA has none; the entries
// (quantize.hpp, packing.hpp) finish the rest with the scalar kernels.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../bulk/dispatch.hpp"
#include "dequantize_avx2.hpp"
#include "dequantize_avx512.hpp"
#include "packing_avx512.hpp"
#include "quantize_avx512.hpp"
#include "scale.hpp"

namespace mf {
namespace mx {
namespace detail {

using bulk::detail::isa_tag;
using bulk::isa;

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
    return {nullptr, nullptr};  // scalar, NEON: the scalar kernels do it all
  }
#if MF_BULK_X86
  static constexpr kernel_set row(isa_tag<isa::avx2>) noexcept {
    if constexpr (avx2_dequantize::supports<Fmt>) {
      return {nullptr, &avx2_dequantize::dequantize<Fmt>};
    } else {
      return {nullptr, nullptr};
    }
  }
  static constexpr kernel_set row(isa_tag<isa::avx512>) noexcept {
    kernel_set set{nullptr, nullptr};
    if constexpr (avx512_kernels::supports<Fmt>) set.quantize = &avx512_kernels::quantize<Fmt>;
    if constexpr (avx512_dequantize::supports<Fmt>) {
      set.dequantize = &avx512_dequantize::dequantize<Fmt>;
    }
    return set;
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
#if MF_BULK_X86
  static constexpr kernel_set row(isa_tag<isa::avx512>) noexcept {
    return {&avx512_packing::pack_fp4, &avx512_packing::unpack_fp4, &avx512_packing::pack_fp6,
            &avx512_packing::unpack_fp6};
  }
#endif
};

template <class Family>
inline const auto& active_kernels() noexcept {
  return bulk::detail::active_kernels<Family>();
}

}  // namespace detail
}  // namespace mx
}  // namespace mf
