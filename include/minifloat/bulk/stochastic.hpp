// Bulk stochastic rounding, reproducible by seed: element i of a call is
//   mf::round_to_stochastic<Fmt>(x[i],
//       mf::stochastic_random_bits(seed, offset + i, random_bits), on_overflow, random_bits)
// With random_bits > 16 that is the low bits of one Philox word per element,
// mf::stochastic_random_word(seed, offset + i); with 16 or fewer the words
// are cut into packed lanes (two 16-bit lanes, or four 8-bit ones with 8 or
// fewer), so one word serves two or four elements (random.hpp). Same bits
// on every ISA, for any vector width, chunking or thread split (the words
// come from the counter-based Philox4x32-10 of random.hpp). The same rule as
// the command-line tool's `encode --round stochastic --seed N`. See
// docs/stochastic-rounding.md.
#pragma once

#include <cstddef>

#include "fused.hpp"

namespace mf {
namespace bulk {

// Stochastically rounds in[0..n) (float, mf::bfloat16 or mf::binary16; the
// 16-bit values widen to float exactly) into Fmt and writes the encodings to
// out[0..n). Overflow follows on_overflow as in mf::round_to_stochastic: a
// magnitude rounded past max finite is Inf/NaN (non_saturating) or max.
//   mf::bulk::encode_stochastic<mf::e4m3fn>(x, q, n, {seed, offset});
template <class Fmt, class Src>
inline void encode_stochastic(const Src* in, typename Fmt::storage_type* out, std::size_t n,
                              const stochastic_rounding& sr,
                              overflow on_overflow = overflow::non_saturating) {
  detail::run_fused<Fmt, true, false, false>(in, out, n,
                                             detail::stochastic_request(sr, on_overflow, 1.0f));
}

}  // namespace bulk
}  // namespace mf
