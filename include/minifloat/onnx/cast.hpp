// ONNX Cast (opsets 19 to 28: Cast-19, -21, -23, -24) between
// the float types: float, float16, bfloat16, the four float8 types,
// float4e2m1 and float8e8m0. Every rounding is the library's mf::round_to;
// this header adds only what ONNX's tables say differently: saturating ±Inf,
// and float8e8m0's round_mode and range rows.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "../convert.hpp"
#include "../formats.hpp"
#include "../limits.hpp"
#include "../target/float_environment.hpp"
#include "opset.hpp"
#include "tensor.hpp"

namespace mf {
namespace onnx {

// Cast's round_mode (opset 24): "up: round to nearest value away from zero,
// down: round to nearest value towards zero, nearest: round to nearest value
// and ties round up". It applies to float8e8m0 only.
enum class e8m0_round_mode { up, down, nearest };

inline e8m0_round_mode e8m0_round_mode_from_name(std::string_view name) {
  if (name == "up") return e8m0_round_mode::up;
  if (name == "down") return e8m0_round_mode::down;
  if (name == "nearest") return e8m0_round_mode::nearest;
  throw invalid_model("round_mode must be up, down or nearest, not '" + std::string(name) + "'");
}

struct cast_attributes {
  bool saturate = true;                          // Cast's default
  e8m0_round_mode round_mode = e8m0_round_mode::up;
  // The opset (19..28): its Cast version's type list, and below 24
  // saturating ±Inf into the FNUZ types is NaN.
  int opset = newest_opset;
};

namespace detail {

template <class T>
std::uint32_t float8_code(float value, bool saturate, int opset) {
  // Cast-24 (onnx/onnx#7130) made ±Inf saturate to ±max in every float8
  // type; Cast-19..23's table had NaN for the FNUZ types, which is what
  // mf::round_to does (semantics.md 3.6). Finite overflow: both tables
  // agree with round_to's saturating / non-saturating rules.
  if (saturate && opset >= 24 && std::isinf(value)) {
    const T max = std::numeric_limits<T>::max();
    return (value > 0 ? max : -max).bits();
  }
  return round_to<T>(value, rounding::nearest_even,
                     saturate ? overflow::saturating : overflow::non_saturating)
      .bits();
}

// Cast's float8e8m0 table, with the library's rounding for every row it
// does not fix:
//   NaN -> NaN; Inf -> E8M0_MAX saturating, NaN otherwise;
//   0 and 0 < x < E8M0_MIN -> E8M0_MIN saturating, NaN otherwise;
//   x > E8M0_MAX -> as rounded: E8M0_MAX saturating, NaN otherwise.
// -0 is read as 0. x < 0 is "unspecified": NaN, as mf::round_to gives.
inline std::uint32_t e8m0_code(float value, bool saturate, e8m0_round_mode mode) {
  constexpr std::uint32_t nan = 0xFF, min = 0x00;
  if (std::isnan(value) || value < 0) return nan;
  if (value < 0x1p-127f) return saturate ? min : nan;
  const rounding r = mode == e8m0_round_mode::up     ? rounding::toward_positive
                     : mode == e8m0_round_mode::down ? rounding::toward_zero
                                                     : rounding::nearest_even;  // ties up
  return round_to<e8m0fnu>(value, r, saturate ? overflow::saturating : overflow::non_saturating)
      .bits();
}

}  // namespace detail

// The code of `to` for the exact value `value` (one float-type element).
inline std::uint32_t cast_value(float value, data_type to, const cast_attributes& a = {}) {
  switch (to) {
    case data_type::float32: return mf::detail::bit_cast<std::uint32_t>(value);
    // "floating point: +/- infinity if OOR": round to nearest even, no saturation.
    case data_type::float16: return round_to<binary16>(value).bits();
    case data_type::bfloat16: return round_to<bfloat16>(value).bits();
    case data_type::float8e4m3fn: return detail::float8_code<e4m3fn>(value, a.saturate, a.opset);
    case data_type::float8e4m3fnuz: return detail::float8_code<e4m3fnuz>(value, a.saturate, a.opset);
    case data_type::float8e5m2: return detail::float8_code<e5m2>(value, a.saturate, a.opset);
    case data_type::float8e5m2fnuz: return detail::float8_code<e5m2fnuz>(value, a.saturate, a.opset);
    // No Inf, no NaN: overflow and ±Inf give ±max whatever `saturate` says,
    // NaN gives +max (semantics.md 3.6).
    case data_type::float4e2m1: return round_to<e2m1fn>(value).bits();
    case data_type::float8e8m0: return detail::e8m0_code(value, a.saturate, a.round_mode);
    default:
      throw invalid_model("Cast to " + std::string(name_of(to)) +
                          " is not implemented (float types only)");
  }
}

// Cast of a whole tensor between float types; the shape is kept.
inline tensor cast(const tensor& input, data_type to, const cast_attributes& a = {}) {
  return target::in_default_float_environment([&]() -> tensor {
    check_opset(a.opset);
    check_type_in_opset(onnx_operator::cast, input.type, a.opset);
    check_type_in_opset(onnx_operator::cast, to, a.opset);
    if (is_integer(input.type)) {
      throw invalid_model("Cast from " + std::string(name_of(input.type)) +
                          " is not implemented (float types only)");
    }
    // Into its own type a NaN keeps its encoding, payload included (a copy
    // is not a conversion, semantics.md 1.4); every other value goes through
    // the table (a saturating cast still turns e5m2's Inf into max).
    std::vector<std::uint32_t> codes = codes_of(input);
    for (std::uint32_t& c : codes) {
      const float value = float_value(input.type, c);
      if (!(input.type == to && std::isnan(value))) c = cast_value(value, to, a);
    }
    return tensor_from_codes(to, input.shape, codes);
  });
}

}  // namespace onnx
}  // namespace mf
