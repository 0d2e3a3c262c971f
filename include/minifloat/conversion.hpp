// How a value is rounded into a format, as one value type that every
// converting entry takes (mf::round_to, mf::bulk::encode, the scaling
// toolkit): a rounding mode, an overflow mode and, optionally, a stochastic
// stream. Named constructors read at the call site:
//   mf::conversion::nearest_even()                       (the default, IEEE 754)
//   mf::conversion::toward_zero().saturating()
//   mf::conversion::stochastic({seed, offset}).saturating()
//   mf::conversion::with(mode, on_overflow)              (modes known at run time)
// A plain aggregate (a bool beside the stream, not std::optional) so that it
// is a literal type usable in constexpr and CUDA device code.
#pragma once

#include <cstdint>

#include "config.hpp"
#include "convert.hpp"
#include "random.hpp"
#include "rounding.hpp"
#include "value.hpp"

namespace mf {

// The random stream of a stochastic conversion: element i of a call rounds
// with mf::stochastic_random_bits(seed, offset + i, random_bits) (1..32
// bits; with 8 or fewer, four elements share a Philox word, with 16 or fewer
// two, see random.hpp). random_bits below 1 counts as 1 and above 32 as 32,
// as in mf::round_to_stochastic. A tensor converted in chunks, each call
// passing the chunk's start as offset, gets the bits of one call.
struct stochastic_rounding {
  std::uint64_t seed = 0;
  std::uint64_t offset = 0;
  int random_bits = stochastic_default_bits;
};

struct conversion {
  rounding mode = rounding::nearest_even;  // ignored when is_stochastic
  overflow on_overflow = overflow::non_saturating;
  bool is_stochastic = false;
  stochastic_rounding stream{};  // used when is_stochastic

  MF_HOST_DEVICE static constexpr conversion with(
      rounding m, overflow o = overflow::non_saturating) noexcept {
    return conversion{m, o, false, stochastic_rounding{}};
  }
  MF_HOST_DEVICE static constexpr conversion nearest_even() noexcept {
    return with(rounding::nearest_even);
  }
  MF_HOST_DEVICE static constexpr conversion toward_zero() noexcept {
    return with(rounding::toward_zero);
  }
  MF_HOST_DEVICE static constexpr conversion toward_positive() noexcept {
    return with(rounding::toward_positive);
  }
  MF_HOST_DEVICE static constexpr conversion toward_negative() noexcept {
    return with(rounding::toward_negative);
  }
  // Stochastic rounding (the rule of mf::round_to_stochastic) with the
  // random bits drawn from `s`.
  MF_HOST_DEVICE static constexpr conversion stochastic(stochastic_rounding s) noexcept {
    return conversion{rounding::nearest_even, overflow::non_saturating, true, s};
  }

  // The same conversion with another overflow mode.
  MF_HOST_DEVICE constexpr conversion saturating() const noexcept {
    return with_overflow(overflow::saturating);
  }
  MF_HOST_DEVICE constexpr conversion non_saturating() const noexcept {
    return with_overflow(overflow::non_saturating);
  }
  MF_HOST_DEVICE constexpr conversion with_overflow(overflow o) const noexcept {
    return conversion{mode, o, is_stochastic, stream};
  }
  // The conversion of element `index` of a call made with *this: the stream
  // starts `index` elements later (deterministic conversions are unchanged).
  // mf::bulk::encode(in, out, n, c)[i] == mf::round_to<Fmt>(in[i], c.at_element(i)).
  MF_HOST_DEVICE constexpr conversion at_element(std::uint64_t index) const noexcept {
    return conversion{mode, on_overflow, is_stochastic,
                      stochastic_rounding{stream.seed, stream.offset + index, stream.random_bits}};
  }
};

// Rounds `value` into To as `c` says. A deterministic conversion is
// round_to(value, c.mode, c.on_overflow). A stochastic one rounds with the
// random bits of element c.stream.offset of its stream (what a bulk encode
// does for its first element): a loop over elements must advance the
// offset (c.at_element(i)), or every element draws the same bits. To round
// with random bits of your own, call round_to_stochastic.
template <class To, class From>
MF_HOST_DEVICE constexpr To round_to(From value, const conversion& c) noexcept {
  if (c.is_stochastic) {
    return round_to_stochastic<To>(
        value, stochastic_random_bits(c.stream.seed, c.stream.offset, c.stream.random_bits),
        c.on_overflow, c.stream.random_bits);
  }
  return round_to<To>(value, c.mode, c.on_overflow);
}

}  // namespace mf
