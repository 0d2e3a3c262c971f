// Fused scaling and fused absolute maximum, the two extra steps per-tensor
// scaled FP8 needs:
//   encode_scaled:  out[i] = round(in[i] * scale), the product rounded to
//                   float first (IEEE multiply in the current floating-point
//                   environment, as `x * scale` in C++), then encoded once;
//   decode_scaled:  out[i] = float(in[i]) * scale (exact decode, one float
//                   rounding of the product);
//   *_amax:         also return max |in[i]| of the (unscaled) input: NaN if
//                   any input is NaN, else the largest magnitude (Inf
//                   included, +0 for an empty range), as torch.amax.
// Sources are float, mf::bfloat16 or mf::binary16 (widened exactly).
// Every ISA gives the scalar path's bits. See docs/scaling.md.
#pragma once

#include <cstddef>

#include "fused.hpp"

namespace mf {
namespace bulk {

template <class Fmt, class Src>
inline void encode_scaled(const Src* in, typename Fmt::storage_type* out, std::size_t n,
                          float scale, rounding mode = rounding::nearest_even,
                          overflow on_overflow = overflow::non_saturating) {
  detail::run_fused<Fmt, false, true, false>(
      in, out, n, detail::deterministic_request(mode, on_overflow, scale));
}

template <class Fmt, class Src>
inline float encode_scaled_amax(const Src* in, typename Fmt::storage_type* out, std::size_t n,
                                float scale, rounding mode = rounding::nearest_even,
                                overflow on_overflow = overflow::non_saturating) {
  return detail::amax_from_bits(detail::run_fused<Fmt, false, true, true>(
      in, out, n, detail::deterministic_request(mode, on_overflow, scale)));
}

// encode (no scale) that also returns max |in[i]|.
template <class Fmt, class Src>
inline float encode_amax(const Src* in, typename Fmt::storage_type* out, std::size_t n,
                         rounding mode = rounding::nearest_even,
                         overflow on_overflow = overflow::non_saturating) {
  return detail::amax_from_bits(detail::run_fused<Fmt, false, false, true>(
      in, out, n, detail::deterministic_request(mode, on_overflow, 1.0f)));
}

// Stochastic rounding of in[i] * scale (stochastic.hpp for the rule).
template <class Fmt, class Src>
inline void encode_scaled_stochastic(const Src* in, typename Fmt::storage_type* out,
                                     std::size_t n, float scale,
                                     const stochastic_rounding& sr,
                                     overflow on_overflow = overflow::non_saturating) {
  detail::run_fused<Fmt, true, true, false>(in, out, n,
                                            detail::stochastic_request(sr, on_overflow, scale));
}

template <class Fmt, class Src>
inline float encode_scaled_stochastic_amax(const Src* in, typename Fmt::storage_type* out,
                                           std::size_t n, float scale,
                                           const stochastic_rounding& sr,
                                           overflow on_overflow = overflow::non_saturating) {
  return detail::amax_from_bits(detail::run_fused<Fmt, true, true, true>(
      in, out, n, detail::stochastic_request(sr, on_overflow, scale)));
}

template <class Fmt, class Src>
inline float encode_stochastic_amax(const Src* in, typename Fmt::storage_type* out,
                                    std::size_t n, const stochastic_rounding& sr,
                                    overflow on_overflow = overflow::non_saturating) {
  return detail::amax_from_bits(detail::run_fused<Fmt, true, false, true>(
      in, out, n, detail::stochastic_request(sr, on_overflow, 1.0f)));
}

template <class Fmt>
inline void decode_scaled(const typename Fmt::storage_type* in, float* out, std::size_t n,
                          float scale) {
  static_assert(is_minifloat_v<Fmt>, "decode from a minifloat type");
  assert(!detail::ranges_overlap(in, n * sizeof(typename Fmt::storage_type), out,
                                 n * sizeof(float)));
  switch (active_isa()) {
#if MF_BULK_X86
    case isa::avx512:
      return avx512_kernels::decode_scaled<Fmt>(in, out, n, scale);
    case isa::avx2:
      return avx2_kernels::decode_scaled<Fmt>(in, out, n, scale);
#endif
#if MF_BULK_NEON
    case isa::neon:
      return neon_kernels::decode_scaled<Fmt>(in, out, n, scale);
#endif
    default:
      return scalar_kernels::decode_scaled<Fmt>(in, out, n, scale);
  }
}

}  // namespace bulk
}  // namespace mf
