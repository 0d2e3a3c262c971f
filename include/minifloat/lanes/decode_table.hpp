// Tables of a format's values for formats of 8 bits or fewer, indexed by
// the raw byte: every value as a float (the scalar kernels' decode, one
// load), and the byte planes of the table decode (AVX-512 VBMI vpermi2b
// lookups, in bulk/avx512.hpp and mx/dequantize_avx512.hpp). Data only: no
// instruction-set code here.
#pragma once

#include <cstdint>

#include "../config.hpp"
#include "../scalar_convert.hpp"
#include "constants.hpp"

namespace mf {
namespace lanes {

// Every value of F as a float, indexed by the raw byte (bits above the
// format's width ignored), from the scalar decode (the reference), at
// compile time. A decode through it is one load: the scalar decode's
// branches (normal or subnormal) mispredict on data where both are common,
// and held the scalar kernel set at 0.7-0.9 G elements/s on such data.
template <class F>
struct value_table {
  float value[256];
};

template <class F>
constexpr value_table<F> make_value_table() noexcept {
  static_assert(F::bits <= 8, "one table entry per byte");
  value_table<F> t{};
  for (unsigned b = 0; b < 256; ++b) {
    t.value[b] = mf::detail::decode_to_float<F>(b & decode_constants<F>::valid_mask);
  }
  return t;
}

template <class F>
inline constexpr value_table<F> value_table_of = make_value_table<F>();

// Every value of such a format is a float whose low 16 bits are zero, so a
// byte decodes through two 256-entry byte tables (bits 16..23 and 24..31 of
// the float), each looked up with two vpermi2b and a blend on the index's
// top bit. The tables come from the scalar decode (the reference), indexed
// by the raw byte, so bits above a sub-byte format's width, NaN, Inf and
// subnormals need no code.
template <class F>
struct decode_table {
  alignas(64) std::uint8_t plane16[256];  // float bits 16..23
  alignas(64) std::uint8_t plane24[256];  // float bits 24..31
  bool exact;                             // every low half was zero
};

// How the values of the bytes with the top bit set relate to the others,
// which decides how many lookups the table decode needs: the same values
// (formats of fewer than 8 bits, whose high bits are ignored: half the
// lookups, no blend), the same values negated, the sign being the top bit
// (a sign-magnitude byte format with a signed NaN: half the lookups and the
// sign put back), or neither (fnuz, whose 0x80 is NaN; e8m0fnu).
enum class upper_half_values { same, negated, other };

template <class F>
constexpr upper_half_values upper_half_of() noexcept {
  bool same = true, negated = true;
  for (unsigned b = 0; b < 128; ++b) {
    const std::uint32_t low = mf::detail::bit_cast<std::uint32_t>(value_table_of<F>.value[b]);
    const std::uint32_t high =
        mf::detail::bit_cast<std::uint32_t>(value_table_of<F>.value[b | 0x80u]);
    same = same && high == low;
    negated = negated && high == (low ^ 0x80000000u);
  }
  return same ? upper_half_values::same
              : negated ? upper_half_values::negated : upper_half_values::other;
}

template <class F>
inline const decode_table<F>& decode_table_of() {
  static const decode_table<F> table = [] {
    decode_table<F> t{};
    t.exact = true;
    for (unsigned b = 0; b < 256; ++b) {
      const std::uint32_t bits = mf::detail::bit_cast<std::uint32_t>(value_table_of<F>.value[b]);
      if ((bits & 0xFFFFu) != 0) t.exact = false;
      t.plane16[b] = static_cast<std::uint8_t>(bits >> 16);
      t.plane24[b] = static_cast<std::uint8_t>(bits >> 24);
    }
    return t;
  }();
  return table;
}

}  // namespace lanes
}  // namespace mf
