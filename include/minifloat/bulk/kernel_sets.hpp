// The bulk kernel families of the dispatch table (dispatch.hpp's
// active_kernels): for each operation, the row of function pointers of each
// ISA. This is the one header that names the per-ISA kernel namespaces;
// the entries (api.hpp, fused.hpp, encode.hpp, amax.hpp, sources.hpp) only
// call active_kernels<family>().
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "../format_registry.hpp"
#include "avx2.hpp"
#include "avx512.hpp"
#include "../target/dispatch.hpp"
#include "fused_avx2.hpp"
#include "fused_avx512.hpp"
#include "fused_neon.hpp"
#include "fused_scalar.hpp"
#include "narrow_double.hpp"
#include "neon.hpp"
#include "scalar.hpp"

namespace mf {
namespace bulk {
namespace detail {

using target::active_kernels;
using target::isa;
using target::isa_tag;

// The formats whose kernels minifloat::kernels compiles (target/dispatch.hpp's
// compiled_in_library): every format of the registry. src/kernels/ compiles
// one translation unit per `using` line of formats.hpp and checks there
// that its format is in this list.
template <class Fmt>
inline constexpr bool is_compiled_format = is_registered_minifloat_v<Fmt>;

// The plain encode of one format. The encode and decode rows are separate
// families so that a program that only decodes a format (a widening
// conversion, a decode after a MatMul) compiles no encode kernel of it.
template <class Fmt>
struct encode_kernels {
  using kernel = void (*)(const float*, typename Fmt::storage_type*, std::size_t,
                          const conversion&);
  static constexpr kernel row(isa_tag<isa::scalar>) noexcept {
    return &scalar::encode<Fmt>;
  }
#if MF_HAS_X86_KERNELS
  static constexpr kernel row(isa_tag<isa::avx2>) noexcept { return &avx2::encode<Fmt>; }
  static constexpr kernel row(isa_tag<isa::avx512>) noexcept {
    return &avx512::encode<Fmt>;
  }
#endif
#if MF_HAS_NEON_KERNELS
  static constexpr kernel row(isa_tag<isa::neon>) noexcept { return &neon::encode<Fmt>; }
#endif
};

// The decode of one format, plain and scaled.
template <class Fmt>
struct decode_kernels {
  using storage = typename Fmt::storage_type;
  struct kernel_set {
    void (*decode)(const storage*, float*, std::size_t);
    void (*decode_scaled)(const storage*, float*, std::size_t, float);
  };
  static constexpr kernel_set row(isa_tag<isa::scalar>) noexcept {
    return {&scalar::decode<Fmt>, &scalar::decode_scaled<Fmt>};
  }
#if MF_HAS_X86_KERNELS
  static constexpr kernel_set row(isa_tag<isa::avx2>) noexcept {
    return {&avx2::decode<Fmt>, &avx2::decode_scaled<Fmt>};
  }
  static constexpr kernel_set row(isa_tag<isa::avx512>) noexcept {
    return {&avx512::decode<Fmt>, &avx512::decode_scaled<Fmt>};
  }
#endif
#if MF_HAS_NEON_KERNELS
  static constexpr kernel_set row(isa_tag<isa::neon>) noexcept {
    return {&neon::decode<Fmt>, &neon::decode_scaled<Fmt>};
  }
#endif
};

// The encode with fused steps (stochastic rounding, scale, amax) from a
// float source (encode.hpp widens every other source to float first): the
// conversion and the scale (used when Scale). The scalar set computes the
// maximum whether Amax or not (one compare per element).
template <class Fmt, bool Stochastic, bool Scale, bool Amax>
struct fused_kernels {
  using storage = typename Fmt::storage_type;
  using kernel = std::uint32_t (*)(const float*, storage*, std::size_t, const conversion&,
                                   float scale);
  static constexpr kernel row(isa_tag<isa::scalar>) noexcept {
    return &scalar::encode_fused<Fmt, Stochastic, Scale>;
  }
#if MF_HAS_X86_KERNELS
  static constexpr kernel row(isa_tag<isa::avx2>) noexcept {
    return &avx2::encode_fused<Fmt, Stochastic, Scale, Amax>;
  }
  static constexpr kernel row(isa_tag<isa::avx512>) noexcept {
    return &avx512::encode_fused<Fmt, Stochastic, Scale, Amax>;
  }
#endif
#if MF_HAS_NEON_KERNELS
  static constexpr kernel row(isa_tag<isa::neon>) noexcept {
    return &neon::encode_fused<Fmt, Stochastic, Scale, Amax>;
  }
#endif
};

// The kernels that do not depend on a format: amax and the double -> float
// narrowing (AVX-512 only; every other set narrows with the scalar code).
struct format_free_kernels {
  struct kernel_set {
    std::uint32_t (*amax_bits)(const float*, std::size_t, bool);
    void (*narrow_to_odd)(const double*, float*, std::size_t);
  };
  static constexpr kernel_set row(isa_tag<isa::scalar>) noexcept {
    return {&scalar::amax_bits, &narrow_to_odd_scalar};
  }
#if MF_HAS_X86_KERNELS
  static constexpr kernel_set row(isa_tag<isa::avx2>) noexcept {
    return {&avx2::amax_bits, &narrow_to_odd_scalar};
  }
  static constexpr kernel_set row(isa_tag<isa::avx512>) noexcept {
    return {&avx512::amax_bits, &narrow_to_odd_avx512};
  }
#endif
#if MF_HAS_NEON_KERNELS
  static constexpr kernel_set row(isa_tag<isa::neon>) noexcept {
    return {&neon::amax_bits, &narrow_to_odd_scalar};
  }
#endif
};

// Every in[i] rounded to odd into out[i] (narrow_double.hpp).
inline void narrow_to_odd(const double* in, float* out, std::size_t n) {
  active_kernels<format_free_kernels>().narrow_to_odd(in, out, n);
}

}  // namespace detail
}  // namespace bulk

// The bulk families minifloat::kernels compiles (target/dispatch.hpp's
// compiled_in_library).
namespace target {
template <class Fmt>
struct compiled_in_library<bulk::detail::encode_kernels<Fmt>> {
  static constexpr bool value = bulk::detail::is_compiled_format<Fmt>;
};
template <class Fmt>
struct compiled_in_library<bulk::detail::decode_kernels<Fmt>> {
  static constexpr bool value = bulk::detail::is_compiled_format<Fmt>;
};
// The combinations encode.hpp's run_fused_steps asks for (the plain case
// takes encode_kernels).
template <class Fmt, bool Stochastic, bool Scale, bool Amax>
struct compiled_in_library<bulk::detail::fused_kernels<Fmt, Stochastic, Scale, Amax>> {
  static constexpr bool value =
      bulk::detail::is_compiled_format<Fmt> && (Stochastic || Scale || Amax);
};
template <>
struct compiled_in_library<bulk::detail::format_free_kernels> {
  static constexpr bool value = true;
};
}  // namespace target
}  // namespace mf
