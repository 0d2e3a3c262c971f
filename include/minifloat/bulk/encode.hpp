// The bulk conversion entries, in one vocabulary: (inputs, outputs, n,
// options), where the options are an mf::conversion (conversion.hpp: rounding
// mode, overflow mode, optional stochastic stream) and the fused steps.
//   mf::bulk::encode<mf::e4m3fn>(x, q, n);                                nearest even
//   mf::bulk::encode<mf::e4m3fn>(x, q, n, mf::conversion::toward_zero().saturating());
//   mf::bulk::encode<mf::e4m3fn>(x, q, n, mf::conversion::stochastic({seed, offset}));
//   float amax;
//   mf::bulk::encode<mf::e4m3fn>(x, q, n, {}, {scale, &amax});          fused scale + amax
//   mf::bulk::decode<mf::e4m3fn>(q, y, n, scale_inv);                    fused scale
// Sources: float, double, mf::bfloat16, mf::binary16 and any other minifloat
// type; raw 16-bit encodings through encode_from_binary16 /
// encode_from_bfloat16, whose names say which format the bits are.
// Every element is the scalar definition (docs/semantics.md, "Bulk
// conversions"), on every ISA:
//   out[i] == mf::round_to<Fmt>(p_i, c.at_element(i)).bits(),
//   p_i = x_i * scale in the source's arithmetic (float, or double for a
//   double source; the 16-bit and minifloat sources widen to float exactly),
//   p_i = x_i when scale is exactly 1 (no multiply at all).
#pragma once

#include <cassert>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "../conversion.hpp"
#include "../encodings.hpp"
#include "../formats.hpp"
#include "api.hpp"
#include "fused.hpp"
#include "sources.hpp"

namespace mf {
namespace bulk {

// The steps an encode can fuse into its one pass over the input.
//   scale: multiply each input by it before rounding (the product rounded
//          to float, or double for double inputs, in the current
//          floating-point environment, as `x * scale` in C++); exactly 1
//          means no multiply.
//   amax:  where to write max |x| of the unscaled input: NaN if any input
//          is NaN (the quiet NaN 0x7FC00000), else the largest magnitude
//          (Inf included, +0 for n == 0), as torch.amax. A double input's
//          maximum is rounded to float (nearest even). nullptr: not computed.
struct fused_steps {
  float scale = 1.0f;
  float* amax = nullptr;
};

namespace detail {

// The one place the fused kernels' template flags are chosen, so that each
// of the seven combinations of stochastic / scale / amax is instantiated
// from here alone; the eighth (deterministic, unscaled, no amax) takes the
// plain kernels of api.hpp and never reaches here.
template <class Fmt>
inline std::uint32_t run_fused_steps(const float* in, typename Fmt::storage_type* out,
                                     std::size_t n, const conversion& c, float scale,
                                     bool with_amax) {
  const bool with_scale = scale != 1.0f;
  if (c.is_stochastic) {
    if (with_scale) {
      return with_amax ? run_fused<Fmt, true, true, true>(in, out, n, c, scale)
                       : run_fused<Fmt, true, true, false>(in, out, n, c, scale);
    }
    return with_amax ? run_fused<Fmt, true, false, true>(in, out, n, c, scale)
                     : run_fused<Fmt, true, false, false>(in, out, n, c, scale);
  }
  if (with_scale) {
    return with_amax ? run_fused<Fmt, false, true, true>(in, out, n, c, scale)
                     : run_fused<Fmt, false, true, false>(in, out, n, c, scale);
  }
  return run_fused<Fmt, false, false, true>(in, out, n, c, scale);
}

inline bool nothing_fused(const conversion& c, const fused_steps& steps) noexcept {
  return !c.is_stochastic && steps.scale == 1.0f && steps.amax == nullptr;
}

// Encodes n floats produced a chunk at a time by widen(first, count, buffer)
// (exactly: a widened value is the source value) through the float entry,
// each chunk with the stream position of its first element, so the bits are
// those of one call.
template <class Fmt, class Widen>
inline void encode_widened(std::size_t n, storage_of<Fmt>* out, const conversion& c,
                           const fused_steps& steps, Widen widen);

// Doubles: a deterministic conversion narrows to odd float (exact for the
// final rounding, sources.hpp) after the optional multiply in double; a
// stochastic one needs more of the double's bits than float keeps, so it
// takes the scalar definition element by element.
template <class Fmt>
inline void encode_double(const double* in, storage_of<Fmt>* out, std::size_t n,
                          const conversion& c, const fused_steps& steps) {
  if (steps.amax != nullptr) {
    double m = 0.0;
    bool nan = false;
    for (std::size_t i = 0; i < n; ++i) {
      const double a = std::fabs(in[i]);
      nan = nan || a != a;
      m = a > m ? a : m;
    }
    *steps.amax = nan ? std::numeric_limits<float>::quiet_NaN() : static_cast<float>(m);
  }
  const bool with_scale = steps.scale != 1.0f;
  const double scale = static_cast<double>(steps.scale);
  if (c.is_stochastic) {
    for (std::size_t i = 0; i < n; ++i) {
      const double p = with_scale ? in[i] * scale : in[i];
      out[i] = mf::round_to<Fmt>(p, c.at_element(i)).bits();
    }
    return;
  }
  if (!with_scale) return encode_double_plain<Fmt>(in, out, n, c);
  double scaled[chunk_elements];
  for_each_chunk(n, [&](std::size_t first, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) scaled[i] = in[first + i] * scale;
    encode_double_plain<Fmt>(scaled, out + first, count, c);
  });
}

template <class Src>
inline constexpr bool is_bulk_source_v =
    std::is_same<Src, float>::value || std::is_same<Src, double>::value ||
    is_minifloat_v<Src>;

}  // namespace detail

// Rounds in[0..n) into Fmt (a minifloat type such as mf::e4m3fn) as `c`
// says, with the fused `steps`, and writes the encodings to out[0..n), one
// per storage_type element (sub-byte formats are not packed: mx/packing.hpp);
// out points to the storage or to Fmt values (encodings.hpp).
// in and out must not overlap.
template <class Fmt, class Src>
inline void encode(const Src* in, encodings<Fmt> out_codes, std::size_t n,
                   const conversion& c = {}, const fused_steps& steps = {}) {
  typename Fmt::storage_type* const out = out_codes.get();
  static_assert(is_minifloat_v<Fmt>, "encode into a minifloat type");
  static_assert(detail::is_bulk_source_v<Src>,
                "sources: float, double, or a minifloat type (mf::bfloat16, mf::binary16, ...); "
                "raw 16-bit encodings: encode_from_binary16 / encode_from_bfloat16");
  if constexpr (std::is_same<Src, double>::value) {
    detail::encode_double<Fmt>(in, out, n, c, steps);
  } else {
    if constexpr (std::is_same<Src, float>::value) {
      if (!detail::nothing_fused(c, steps)) {
        const std::uint32_t amax =
            detail::run_fused_steps<Fmt>(in, out, n, c, steps.scale, steps.amax != nullptr);
        if (steps.amax != nullptr) *steps.amax = lanes::amax_from_bits(amax);
        return;
      }
      detail::encode_float_plain<Fmt>(in, out, n, c);
    } else {
      // A minifloat source (binary16 and bfloat16 included) widens to float
      // exactly, a chunk at a time in L1, and takes the float kernels: one
      // set of fused kernels per format instead of one per source type
      // (each set is ~70 kernels, ~150 KB of code, ~10 s of g++ -O3 per format).
      // The values are read as their storage in place (encodings.hpp).
      const detail::storage_of<Src>* const codes = storage_pointer(in);
      detail::encode_widened<Fmt>(n, out, c, steps,
                                  [&](std::size_t first, std::size_t count, float* buffer) {
                                    detail::decode_plain<Src>(codes + first, buffer, count);
                                  });
    }
  }
}

namespace detail {

template <class Fmt, class Widen>
inline void encode_widened(std::size_t n, storage_of<Fmt>* out, const conversion& c,
                           const fused_steps& steps, Widen widen) {
  float widened[chunk_elements];
  std::uint32_t amax = 0;
  for_each_chunk(n, [&](std::size_t first, std::size_t count) {
    widen(first, count, widened);
    float chunk_amax = 0.0f;
    const fused_steps chunk_steps{steps.scale, steps.amax != nullptr ? &chunk_amax : nullptr};
    encode<Fmt>(static_cast<const float*>(widened), out + first, count, c.at_element(first),
                chunk_steps);
    const std::uint32_t a = lanes::float_magnitude_bits(chunk_amax);
    amax = a > amax ? a : amax;
  });
  if (steps.amax != nullptr) *steps.amax = lanes::amax_from_bits(amax);
}

template <class Fmt>
inline void decode_scaled_kernels(const storage_of<Fmt>* in, float* out, std::size_t n,
                                  float scale) {
  assert(!ranges_overlap(in, n * sizeof(storage_of<Fmt>), out, n * sizeof(float)));
  active_kernels<decode_kernels<Fmt>>().decode_scaled(in, out, n, scale);
}

}  // namespace detail

// Decodes in[0..n) (encodings of Fmt, as storage or Fmt values; bits above
// the format's width are ignored, as in Fmt::from_bits) to float: out[i] ==
// static_cast<float>(Fmt::from_bits(in[i])) * scale, the decode exact (NaN is
// the quiet NaN 0x7FC00000, with the sign where the format has signed NaNs)
// and the product rounded to float once; a scale of exactly 1 is no multiply.
template <class Fmt>
inline void decode(encodings<const Fmt> in, float* out, std::size_t n, float scale = 1.0f) {
  static_assert(is_minifloat_v<Fmt>, "decode from a minifloat type");
  if (scale == 1.0f) return detail::decode_plain<Fmt>(in.get(), out, n);
  detail::decode_scaled_kernels<Fmt>(in.get(), out, n, scale);
}

// Rounds encodings of From (storage or From values; bits above From's width
// ignored) into To: out[i] == mf::round_to<To>(From::from_bits(in[i]),
// c.at_element(i)).bits(). Correctly rounded: the float in between is exact.
template <class To, class From>
inline void convert(encodings<const From> in, encodings<To> out, std::size_t n,
                    const conversion& c = {}) {
  static_assert(is_minifloat_v<To> && is_minifloat_v<From>, "convert between minifloat types");
  assert(!detail::ranges_overlap(in.get(), n * sizeof(detail::storage_of<From>), out.get(),
                                 n * sizeof(detail::storage_of<To>)));
  detail::encode_widened<To>(n, out.get(), c, fused_steps{},
                             [&](std::size_t first, std::size_t count, float* buffer) {
                               detail::decode_plain<From>(in.get() + first, buffer, count);
                             });
}

// Raw IEEE binary16 / bfloat16 bit patterns as the source: the same as
// encode from mf::binary16 / mf::bfloat16 objects.
template <class Fmt>
inline void encode_from_binary16(const std::uint16_t* in, encodings<Fmt> out, std::size_t n,
                                 const conversion& c = {}, const fused_steps& steps = {}) {
  detail::encode_widened<Fmt>(n, out.get(), c, steps,
                              [&](std::size_t first, std::size_t count, float* buffer) {
                                detail::decode_plain<binary16>(in + first, buffer, count);
                              });
}

template <class Fmt>
inline void encode_from_bfloat16(const std::uint16_t* in, encodings<Fmt> out, std::size_t n,
                                 const conversion& c = {}, const fused_steps& steps = {}) {
  detail::encode_widened<Fmt>(n, out.get(), c, steps,
                              [&](std::size_t first, std::size_t count, float* buffer) {
                                detail::decode_plain<bfloat16>(in + first, buffer, count);
                              });
}

// Decodes encodings of Fmt to binary16 or bfloat16 bit patterns, rounding
// to nearest even without saturation (as static_cast<mf::binary16> does).
// Exact, value for value, for every format whose values all fit: into
// binary16 every 8-bit-or-smaller format except e8m0fnu; into bfloat16 every
// 8-bit-or-smaller format (docs/performance.md lists them).
template <class Fmt>
inline void decode_to_binary16(encodings<const Fmt> in, encodings<binary16> out, std::size_t n) {
  convert<binary16, Fmt>(in, out, n);
}

template <class Fmt>
inline void decode_to_bfloat16(encodings<const Fmt> in, encodings<bfloat16> out, std::size_t n) {
  convert<bfloat16, Fmt>(in, out, n);
}

}  // namespace bulk
}  // namespace mf
