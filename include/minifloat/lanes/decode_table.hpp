// The byte tables of the table decode (AVX-512 VBMI vpermi2b lookups, in
// bulk/avx512.hpp and mx/dequantize_avx512.hpp), for formats of 8 bits or
// fewer. Data only: no instruction-set code here.
#pragma once

#include <cstdint>

#include "../config.hpp"
#include "../scalar_convert.hpp"
#include "constants.hpp"

namespace mf {
namespace lanes {

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

template <class F>
inline const decode_table<F>& decode_table_of() {
  static const decode_table<F> table = [] {
    decode_table<F> t{};
    t.exact = true;
    for (unsigned b = 0; b < 256; ++b) {
      const std::uint32_t bits = mf::detail::bit_cast<std::uint32_t>(
          mf::detail::decode_to_float<F>(b & decode_constants<F>::valid_mask));
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
