// The rounding and overflow modes every conversion into a format takes.
#pragma once

#include "config.hpp"

namespace mf {

// Rounding direction for a value that falls between two representable
// neighbours. The default everywhere is nearest_even, as in IEEE 754,
// ml_dtypes, PyTorch and LLVM APFloat. Stochastic rounding is a separate
// function (round_to_stochastic) because it needs the caller's random bits.
enum class rounding : unsigned char {
  nearest_even,
  toward_zero,
  toward_positive,
  toward_negative,
};

// What a finite value beyond the largest finite magnitude becomes.
// non_saturating (the default) follows IEEE 754: Inf where the format has
// one, NaN where it has only NaN, and max finite for the directed modes that
// point toward zero. saturating clamps to +-max finite (CUDA's behaviour).
enum class overflow : unsigned char {
  non_saturating,
  saturating,
};

// Number of random bits stochastic rounding consumes unless told otherwise:
// one 32-bit word per element, so the probability of rounding up is exact
// to within 2^-32 of an ulp.
inline constexpr int stochastic_default_bits = 32;

namespace detail {

// The random_bits a stochastic rounding uses: below 1 counts as 1, above 32
// as 32 (every entry that takes random_bits says so).
MF_HOST_DEVICE constexpr int clamp_random_bits(int random_bits) noexcept {
  return random_bits < 1 ? 1 : (random_bits > 32 ? 32 : random_bits);
}

}  // namespace detail

}  // namespace mf
