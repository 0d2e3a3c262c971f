// The C++ library called directly from the testbench (the tb_model_
// imports of tb_wrappers.sv): the values that minifloat_pkg's wrappers,
// which go through the C ABI, must give. Formats and rounding modes arrive
// as the package's enumerator names, mapped to types here, so that a wrong
// id in the package or in src/c_api.cpp cannot cancel out.
#include <cstdint>
#include <string_view>

#include <minifloat/minifloat.hpp>

namespace {

template <class T>
struct tag {
  using type = T;
};

template <class F>
bool by_name(std::string_view name, F&& f) {
  if (name == "MF_FORMAT_E4M3FN") return f(tag<mf::e4m3fn>{}), true;
  if (name == "MF_FORMAT_E4M3FNUZ") return f(tag<mf::e4m3fnuz>{}), true;
  if (name == "MF_FORMAT_E5M2") return f(tag<mf::e5m2>{}), true;
  if (name == "MF_FORMAT_E5M2FNUZ") return f(tag<mf::e5m2fnuz>{}), true;
  if (name == "MF_FORMAT_E2M1FN") return f(tag<mf::e2m1fn>{}), true;
  if (name == "MF_FORMAT_E2M3FN") return f(tag<mf::e2m3fn>{}), true;
  if (name == "MF_FORMAT_E3M2FN") return f(tag<mf::e3m2fn>{}), true;
  if (name == "MF_FORMAT_E8M0FNU") return f(tag<mf::e8m0fnu>{}), true;
  if (name == "MF_FORMAT_E4M3") return f(tag<mf::e4m3>{}), true;
  if (name == "MF_FORMAT_E3M4") return f(tag<mf::e3m4>{}), true;
  if (name == "MF_FORMAT_E4M3B11FNUZ") return f(tag<mf::e4m3b11fnuz>{}), true;
  if (name == "MF_FORMAT_BINARY16") return f(tag<mf::binary16>{}), true;
  if (name == "MF_FORMAT_BFLOAT16") return f(tag<mf::bfloat16>{}), true;
  return false;
}

// -1 for stochastic, the mode otherwise; false for an unknown name.
bool rounding_by_name(std::string_view name, int& mode) {
  struct row {
    std::string_view name;
    int mode;
  };
  static constexpr row rows[] = {
      {"MF_ROUND_NEAREST_EVEN", static_cast<int>(mf::rounding::nearest_even)},
      {"MF_ROUND_TOWARD_ZERO", static_cast<int>(mf::rounding::toward_zero)},
      {"MF_ROUND_TOWARD_POSITIVE", static_cast<int>(mf::rounding::toward_positive)},
      {"MF_ROUND_TOWARD_NEGATIVE", static_cast<int>(mf::rounding::toward_negative)},
      {"MF_ROUND_STOCHASTIC", -1}};
  for (const row& r : rows) {
    if (r.name == name) {
      mode = r.mode;
      return true;
    }
  }
  return false;
}

template <class Source>
int encode(const char* format, Source value, const char* rounding, int saturate,
           unsigned long long seed, unsigned long long offset, int random_bits,
           unsigned int* code) {
  int mode = 0;
  if (!rounding_by_name(rounding, mode)) return 0;
  const auto on_overflow = saturate ? mf::overflow::saturating : mf::overflow::non_saturating;
  return by_name(format, [&](auto t) {
    using T = typename decltype(t)::type;
    if (mode < 0) {
      const std::uint32_t random = mf::stochastic_random_bits(seed, offset, random_bits);
      *code = mf::round_to_stochastic<T>(value, random, on_overflow, random_bits).bits();
    } else {
      *code = mf::round_to<T>(value, static_cast<mf::rounding>(mode), on_overflow).bits();
    }
  }) ? 1 : 0;
}

}  // namespace

extern "C" {

// `bits` is a binary32 pattern (low 32 bits) or, with from_f64, a binary64
// one. 1 when the names are known.
int tb_model_encode(const char* format, unsigned long long bits, int from_f64,
                    const char* rounding, int saturate, unsigned long long seed,
                    unsigned long long offset, int random_bits, unsigned int* code) {
  if (from_f64) {
    return encode(format, mf::detail::bit_cast<double>(static_cast<std::uint64_t>(bits)),
                  rounding, saturate, seed, offset, random_bits, code);
  }
  return encode(format, mf::detail::bit_cast<float>(static_cast<std::uint32_t>(bits)), rounding,
                saturate, seed, offset, random_bits, code);
}

int tb_model_decode(const char* format, unsigned int code, unsigned int* f32_bits,
                    unsigned long long* f64_bits) {
  return by_name(format, [&](auto t) {
    using T = typename decltype(t)::type;
    const T x = T::from_bits(static_cast<typename T::storage_type>(code));
    *f32_bits = mf::detail::bit_cast<std::uint32_t>(static_cast<float>(x));
    *f64_bits = mf::detail::bit_cast<std::uint64_t>(static_cast<double>(x));
  }) ? 1 : 0;
}

// The binary64 bits of the binary32 value (exact).
unsigned long long tb_model_widen(unsigned int f32_bits) {
  return mf::detail::bit_cast<std::uint64_t>(
      static_cast<double>(mf::detail::bit_cast<float>(static_cast<std::uint32_t>(f32_bits))));
}

}  // extern "C"
