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
#include "dispatch.hpp"
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

// The formats whose kernels minifloat::kernels compiles (dispatch.hpp's
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
  using kernel = void (*)(const float*, typename Fmt::storage_type*, std::size_t, rounding,
                          overflow);
  static constexpr kernel row(isa_tag<isa::scalar>) noexcept {
    return &scalar_kernels::encode<Fmt>;
  }
#if MF_BULK_X86
  static constexpr kernel row(isa_tag<isa::avx2>) noexcept { return &avx2_kernels::encode<Fmt>; }
  static constexpr kernel row(isa_tag<isa::avx512>) noexcept {
    return &avx512_kernels::encode<Fmt>;
  }
#endif
#if MF_BULK_NEON
  static constexpr kernel row(isa_tag<isa::neon>) noexcept { return &neon_kernels::encode<Fmt>; }
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
    return {&scalar_kernels::decode<Fmt>, &scalar_kernels::decode_scaled<Fmt>};
  }
#if MF_BULK_X86
  static constexpr kernel_set row(isa_tag<isa::avx2>) noexcept {
    return {&avx2_kernels::decode<Fmt>, &avx2_kernels::decode_scaled<Fmt>};
  }
  static constexpr kernel_set row(isa_tag<isa::avx512>) noexcept {
    return {&avx512_kernels::decode<Fmt>, &avx512_kernels::decode_scaled<Fmt>};
  }
#endif
#if MF_BULK_NEON
  static constexpr kernel_set row(isa_tag<isa::neon>) noexcept {
    return {&neon_kernels::decode<Fmt>, &neon_kernels::decode_scaled<Fmt>};
  }
#endif
};

// The encode with fused steps (stochastic rounding, scale, amax) from a
// float source (encode.hpp widens every other source to float first). The
// scalar set takes the steps from the request at run time (only the scale is
// a template flag there).
template <class Fmt, bool Stochastic, bool Scale, bool Amax>
struct fused_kernels {
  using storage = typename Fmt::storage_type;
  using kernel = std::uint32_t (*)(const float*, storage*, std::size_t, const fused_request&);
  static constexpr kernel row(isa_tag<isa::scalar>) noexcept {
    return &scalar_kernels::encode_fused<Fmt, Scale>;
  }
#if MF_BULK_X86
  static constexpr kernel row(isa_tag<isa::avx2>) noexcept {
    return &avx2_kernels::encode_fused<Fmt, Stochastic, Scale, Amax>;
  }
  static constexpr kernel row(isa_tag<isa::avx512>) noexcept {
    return &avx512_kernels::encode_fused<Fmt, Stochastic, Scale, Amax>;
  }
#endif
#if MF_BULK_NEON
  static constexpr kernel row(isa_tag<isa::neon>) noexcept {
    return &neon_kernels::encode_fused<Fmt, Stochastic, Scale, Amax>;
  }
#endif
};

template <class Fmt>
struct compiled_in_library<encode_kernels<Fmt>> {
  static constexpr bool value = is_compiled_format<Fmt>;
};
template <class Fmt>
struct compiled_in_library<decode_kernels<Fmt>> {
  static constexpr bool value = is_compiled_format<Fmt>;
};
// The combinations encode.hpp's run_fused_steps asks for (the plain case
// takes encode_kernels).
template <class Fmt, bool Stochastic, bool Scale, bool Amax>
struct compiled_in_library<fused_kernels<Fmt, Stochastic, Scale, Amax>> {
  static constexpr bool value = is_compiled_format<Fmt> && (Stochastic || Scale || Amax);
};

// The kernels that do not depend on a format: amax and the double -> float
// narrowing (AVX-512 only; every other set narrows with the scalar code).
struct format_free_kernels {
  struct kernel_set {
    std::uint32_t (*amax_bits)(const float*, std::size_t, bool);
    void (*narrow_to_odd)(const double*, float*, std::size_t);
  };
  static constexpr kernel_set row(isa_tag<isa::scalar>) noexcept {
    return {&scalar_kernels::amax_bits, &narrow_to_odd_scalar};
  }
#if MF_BULK_X86
  static constexpr kernel_set row(isa_tag<isa::avx2>) noexcept {
    return {&avx2_kernels::amax_bits, &narrow_to_odd_scalar};
  }
  static constexpr kernel_set row(isa_tag<isa::avx512>) noexcept {
    return {&avx512_kernels::amax_bits, &narrow_to_odd_avx512};
  }
#endif
#if MF_BULK_NEON
  static constexpr kernel_set row(isa_tag<isa::neon>) noexcept {
    return {&neon_kernels::amax_bits, &narrow_to_odd_scalar};
  }
#endif
};

template <>
struct compiled_in_library<format_free_kernels> {
  static constexpr bool value = true;
};

// Every in[i] rounded to odd into out[i] (narrow_double.hpp).
inline void narrow_to_odd(const double* in, float* out, std::size_t n) {
  active_kernels<format_free_kernels>().narrow_to_odd(in, out, n);
}

}  // namespace detail
}  // namespace bulk
}  // namespace mf
