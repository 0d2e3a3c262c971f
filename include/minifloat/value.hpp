// The value type: one byte (two for the 16-bit formats) holding an encoding,
// with exact conversion out to float and correctly rounded construction in.
#pragma once

#include <cstdint>
#include <type_traits>

#include "config.hpp"
#include "format.hpp"
#include "rounding.hpp"
#include "scalar_convert.hpp"

namespace mf {

template <int ExpBits, int ManBits, int Bias, specials Specials>
class minifloat;

template <class T>
struct is_minifloat : std::false_type {};
template <int E, int M, int B, specials S>
struct is_minifloat<minifloat<E, M, B, S>> : std::true_type {};
template <class T>
inline constexpr bool is_minifloat_v = is_minifloat<T>::value;

namespace detail {

// long double, and the extended floating types of C++23 (std::float16_t,
// std::bfloat16_t, std::float128_t) where the compiler has them: rounded
// through a double rounded to odd. Named without "long double", which nvcc
// rejects in device code even in an unused branch.
template <class T>
inline constexpr bool is_other_floating_point_v =
    std::is_floating_point<T>::value && !std::is_same<T, float>::value &&
    !std::is_same<T, double>::value;

template <class T>
inline constexpr bool is_plain_source_v =
    std::is_same<T, float>::value || std::is_same<T, double>::value ||
    (std::is_integral<T>::value && !std::is_same<T, bool>::value);

// Rounds any supported source (float, double, long double, an integer,
// another minifloat) into Format's encoding.
template <class Format, class From>
MF_HOST_DEVICE MF_FORCE_INLINE constexpr unsigned round_any(From value,
                                                   rounding_request r) {
  if constexpr (std::is_same<From, float>::value) {
    return round_float_bits<Format>(bit_cast<std::uint32_t>(value), r);
  } else if constexpr (std::is_same<From, double>::value) {
    return round_double_bits<Format>(bit_cast<std::uint64_t>(value), r);
  } else if constexpr (is_other_floating_point_v<From>) {
    return round_double_bits<Format>(double_bits_rounded_to_odd(value), r);
  } else if constexpr (is_minifloat_v<From>) {
    // Decoding is exact, so this is a single rounding.
    return round_float_bits<Format>(
        bit_cast<std::uint32_t>(static_cast<float>(value)), r);
  } else {
    static_assert(is_plain_source_v<From>,
                  "convert from float, double, long double, an integer or a minifloat");
    return round_integer<Format>(value, r);
  }
}

inline constexpr rounding_request default_rounding{
    rounding::nearest_even, overflow::non_saturating, 0u, 0};

}  // namespace detail

// A floating-point number of 1 + ExpBits + ManBits bits (no sign bit for
// specials::fnu). Trivially copyable, standard layout, and every member is
// constexpr and usable in CUDA device code. Construction rounds to nearest
// even without saturation (as ml_dtypes and LLVM APFloat do, and PyTorch
// before 2.12 did for e4m3fn); use mf::round_to for the other modes.
// Conversion to float is exact and implicit.
template <int ExpBits, int ManBits, int Bias, specials Specials>
class minifloat {
 public:
  using format = mf::format<ExpBits, ManBits, Bias, Specials>;
  using storage_type = typename format::storage_type;

  // Trivial, like float: a default-initialised minifloat is indeterminate, a
  // value-initialised one (minifloat{}) is +0 (or 2^-127 for e8m0fnu).
  minifloat() = default;

  template <class T,
            std::enable_if_t<detail::is_plain_source_v<T> || is_minifloat_v<T> ||
                                 detail::is_other_floating_point_v<T>,
                             int> = 0>
  MF_HOST_DEVICE constexpr explicit minifloat(T value) noexcept
      : bits_(static_cast<storage_type>(
            detail::round_any<format>(value, detail::default_rounding))) {}

  // The encoding's bits above the format's width are ignored: a sub-byte
  // format occupies the low bits, and from_bits masks the rest away.
  MF_HOST_DEVICE static constexpr minifloat from_bits(storage_type bits) noexcept {
    minifloat result{};
    result.bits_ = static_cast<storage_type>(
        bits & (format::magnitude_mask | format::sign_mask));
    return result;
  }
  MF_HOST_DEVICE constexpr storage_type bits() const noexcept { return bits_; }

  MF_HOST_DEVICE constexpr operator float() const noexcept {
    return detail::decode_to_float<format>(bits_);
  }
  MF_HOST_DEVICE constexpr explicit operator double() const noexcept {
    return detail::decode_to_double<format>(bits_);
  }

 private:
  storage_type bits_;
};

}  // namespace mf
