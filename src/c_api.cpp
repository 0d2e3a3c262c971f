// The C ABI (include/minifloat/c_api.h): validates the run-time ids, turns
// each into the compile-time type of the C++ library and calls it. No
// conversion is written here; every result comes from mf::round_to,
// mf::round_to_stochastic, mf::stochastic_random_bits and mf::mx.
#include "minifloat/c_api.h"

#include <climits>
#include <cstdint>
#include <cstring>

#include <minifloat/minifloat.hpp>
#include <minifloat/mx.hpp>

// Annex H's C types must be the fixed-width ones the library works in.
static_assert(sizeof(unsigned int) == 4 && CHAR_BIT == 8, "unsigned int is 32 bits");
static_assert(sizeof(unsigned long long) == 8, "unsigned long long is 64 bits");

namespace {

template <class T>
struct tag {
  using type = T;
};

// Calls f(tag<T>) for the format `id`; false for an unknown id.
template <class F>
bool with_format(int id, F&& f) {
  switch (id) {
    case MF_FORMAT_E4M3FN: f(tag<mf::e4m3fn>{}); return true;
    case MF_FORMAT_E4M3FNUZ: f(tag<mf::e4m3fnuz>{}); return true;
    case MF_FORMAT_E5M2: f(tag<mf::e5m2>{}); return true;
    case MF_FORMAT_E5M2FNUZ: f(tag<mf::e5m2fnuz>{}); return true;
    case MF_FORMAT_E2M1FN: f(tag<mf::e2m1fn>{}); return true;
    case MF_FORMAT_E2M3FN: f(tag<mf::e2m3fn>{}); return true;
    case MF_FORMAT_E3M2FN: f(tag<mf::e3m2fn>{}); return true;
    case MF_FORMAT_E8M0FNU: f(tag<mf::e8m0fnu>{}); return true;
    case MF_FORMAT_E4M3: f(tag<mf::e4m3>{}); return true;
    case MF_FORMAT_E3M4: f(tag<mf::e3m4>{}); return true;
    case MF_FORMAT_E4M3B11FNUZ: f(tag<mf::e4m3b11fnuz>{}); return true;
    case MF_FORMAT_BINARY16: f(tag<mf::binary16>{}); return true;
    case MF_FORMAT_BFLOAT16: f(tag<mf::bfloat16>{}); return true;
    default: return false;
  }
}

template <class F>
bool with_mx_format(int id, F&& f) {
  switch (id) {
    case MF_MX_FP8_E4M3: f(tag<mf::mx::mxfp8_e4m3>{}); return true;
    case MF_MX_FP8_E5M2: f(tag<mf::mx::mxfp8_e5m2>{}); return true;
    case MF_MX_FP6_E2M3: f(tag<mf::mx::mxfp6_e2m3>{}); return true;
    case MF_MX_FP6_E3M2: f(tag<mf::mx::mxfp6_e3m2>{}); return true;
    case MF_MX_FP4_E2M1: f(tag<mf::mx::mxfp4>{}); return true;
    case MF_MX_INT8: f(tag<mf::mx::mxint8>{}); return true;
    default: return false;
  }
}

bool valid_format(int id) { return id >= 0 && id < MF_FORMAT_COUNT; }
bool valid_mx_format(int id) { return id >= 0 && id < MF_MX_FORMAT_COUNT; }
bool valid_rounding(int id) { return id >= MF_ROUND_NEAREST_EVEN && id <= MF_ROUND_STOCHASTIC; }
bool valid_overflow(int id) {
  return id == MF_OVERFLOW_NON_SATURATING || id == MF_OVERFLOW_SATURATING;
}
bool valid_random_bits(int bits) { return bits >= 1 && bits <= 32; }
bool valid_scale_rounding(int id) { return id >= MF_MX_SCALE_FLOOR && id <= MF_MX_SCALE_EVEN; }

int format_width(int id) {
  int bits = 0;
  with_format(id, [&](auto t) { bits = decltype(t)::type::format::bits; });
  return bits;
}

// The enum values of c_api.h are those of the C++ enums, in order; the
// casts below rely on it.
static_assert(static_cast<int>(mf::rounding::toward_negative) == MF_ROUND_TOWARD_NEGATIVE, "");
static_assert(static_cast<int>(mf::overflow::saturating) == MF_OVERFLOW_SATURATING, "");
static_assert(static_cast<int>(mf::mx::scale_rounding::even) == MF_MX_SCALE_EVEN, "");

template <class Source>
int encode(int format, Source value, int rounding, int overflow, unsigned long long seed,
           unsigned long long offset, int random_bits, unsigned int* code) {
  if (!valid_format(format)) return MF_ERR_UNKNOWN_FORMAT;
  if (!valid_rounding(rounding)) return MF_ERR_BAD_ROUNDING;
  if (!valid_overflow(overflow)) return MF_ERR_BAD_OVERFLOW;
  if (rounding == MF_ROUND_STOCHASTIC && !valid_random_bits(random_bits)) {
    return MF_ERR_BAD_RANDOM_BITS;
  }
  if (code == nullptr) return MF_ERR_NULL_POINTER;
  const auto on_overflow = static_cast<mf::overflow>(overflow);
  with_format(format, [&](auto t) {
    using T = typename decltype(t)::type;
    if (rounding == MF_ROUND_STOCHASTIC) {
      const std::uint32_t random = mf::stochastic_random_bits(seed, offset, random_bits);
      *code = mf::round_to_stochastic<T>(value, random, on_overflow, random_bits).bits();
    } else {
      *code = mf::round_to<T>(value, static_cast<mf::rounding>(rounding), on_overflow).bits();
    }
  });
  return MF_OK;
}

// Packs one code per byte into the layout of mf::mx (and back).
template <class Fmt>
void pack(const unsigned char* codes, std::uint8_t* packed) {
  std::uint8_t masked[MF_MX_BLOCK_SIZE];
  for (int i = 0; i < MF_MX_BLOCK_SIZE; ++i) {
    masked[i] = static_cast<std::uint8_t>(codes[i] & ((1u << Fmt::element_bits) - 1u));
  }
  if constexpr (Fmt::element_bits == 4) {
    mf::mx::scalar_packing::pack_fp4(masked, packed, MF_MX_BLOCK_SIZE);
  } else if constexpr (Fmt::element_bits == 6) {
    mf::mx::scalar_packing::pack_fp6(masked, packed, MF_MX_BLOCK_SIZE);
  } else {
    std::memcpy(packed, masked, MF_MX_BLOCK_SIZE);
  }
}

template <class Fmt>
void unpack(const std::uint8_t* packed, unsigned char* codes) {
  if constexpr (Fmt::element_bits == 4) {
    mf::mx::scalar_packing::unpack_fp4(packed, codes, MF_MX_BLOCK_SIZE);
  } else if constexpr (Fmt::element_bits == 6) {
    mf::mx::scalar_packing::unpack_fp6(packed, codes, MF_MX_BLOCK_SIZE);
  } else {
    std::memcpy(codes, packed, MF_MX_BLOCK_SIZE);
  }
}

}  // namespace

extern "C" {

const char* mf_status_name(int status) {
  switch (status) {
    case MF_OK: return "MF_OK";
    case MF_ERR_NULL_POINTER: return "MF_ERR_NULL_POINTER";
    case MF_ERR_UNKNOWN_FORMAT: return "MF_ERR_UNKNOWN_FORMAT";
    case MF_ERR_BAD_ROUNDING: return "MF_ERR_BAD_ROUNDING";
    case MF_ERR_BAD_OVERFLOW: return "MF_ERR_BAD_OVERFLOW";
    case MF_ERR_BAD_RANDOM_BITS: return "MF_ERR_BAD_RANDOM_BITS";
    case MF_ERR_BAD_ENCODING: return "MF_ERR_BAD_ENCODING";
    case MF_ERR_UNKNOWN_MX_FORMAT: return "MF_ERR_UNKNOWN_MX_FORMAT";
    case MF_ERR_BAD_SCALE_ROUNDING: return "MF_ERR_BAD_SCALE_ROUNDING";
    default: return "unknown status";
  }
}

int mf_format_bits(int format, int* bits) {
  if (!valid_format(format)) return MF_ERR_UNKNOWN_FORMAT;
  if (bits == nullptr) return MF_ERR_NULL_POINTER;
  *bits = format_width(format);
  return MF_OK;
}

int mf_encode_f32(int format, unsigned int f32_bits, int rounding, int overflow,
                  unsigned long long seed, unsigned long long offset, int random_bits,
                  unsigned int* code) {
  return encode(format, mf::detail::bit_cast<float>(static_cast<std::uint32_t>(f32_bits)),
                rounding, overflow, seed, offset, random_bits, code);
}

int mf_encode_f64(int format, unsigned long long f64_bits, int rounding, int overflow,
                  unsigned long long seed, unsigned long long offset, int random_bits,
                  unsigned int* code) {
  return encode(format, mf::detail::bit_cast<double>(static_cast<std::uint64_t>(f64_bits)),
                rounding, overflow, seed, offset, random_bits, code);
}

int mf_encode_f32_random(int format, unsigned int f32_bits, int overflow, unsigned int random,
                         int random_bits, unsigned int* code) {
  if (!valid_format(format)) return MF_ERR_UNKNOWN_FORMAT;
  if (!valid_overflow(overflow)) return MF_ERR_BAD_OVERFLOW;
  if (!valid_random_bits(random_bits)) return MF_ERR_BAD_RANDOM_BITS;
  if (code == nullptr) return MF_ERR_NULL_POINTER;
  const float value = mf::detail::bit_cast<float>(static_cast<std::uint32_t>(f32_bits));
  with_format(format, [&](auto t) {
    using T = typename decltype(t)::type;
    *code = mf::round_to_stochastic<T>(value, random, static_cast<mf::overflow>(overflow),
                                       random_bits)
                .bits();
  });
  return MF_OK;
}

int mf_stochastic_random_bits(unsigned long long seed, unsigned long long index,
                              int random_bits, unsigned int* random) {
  if (!valid_random_bits(random_bits)) return MF_ERR_BAD_RANDOM_BITS;
  if (random == nullptr) return MF_ERR_NULL_POINTER;
  *random = mf::stochastic_random_bits(seed, index, random_bits);
  return MF_OK;
}

int mf_decode_f32(int format, unsigned int code, unsigned int* f32_bits) {
  if (!valid_format(format)) return MF_ERR_UNKNOWN_FORMAT;
  if (code >> format_width(format) != 0) return MF_ERR_BAD_ENCODING;
  if (f32_bits == nullptr) return MF_ERR_NULL_POINTER;
  with_format(format, [&](auto t) {
    using T = typename decltype(t)::type;
    const auto x = T::from_bits(static_cast<typename T::storage_type>(code));
    *f32_bits = mf::detail::bit_cast<std::uint32_t>(static_cast<float>(x));
  });
  return MF_OK;
}

int mf_decode_f64(int format, unsigned int code, unsigned long long* f64_bits) {
  if (!valid_format(format)) return MF_ERR_UNKNOWN_FORMAT;
  if (code >> format_width(format) != 0) return MF_ERR_BAD_ENCODING;
  if (f64_bits == nullptr) return MF_ERR_NULL_POINTER;
  with_format(format, [&](auto t) {
    using T = typename decltype(t)::type;
    const auto x = T::from_bits(static_cast<typename T::storage_type>(code));
    *f64_bits = mf::detail::bit_cast<std::uint64_t>(static_cast<double>(x));
  });
  return MF_OK;
}

int mf_classify(int format, unsigned int code, int* value_class, int* sign) {
  if (!valid_format(format)) return MF_ERR_UNKNOWN_FORMAT;
  if (code >> format_width(format) != 0) return MF_ERR_BAD_ENCODING;
  if (value_class == nullptr || sign == nullptr) return MF_ERR_NULL_POINTER;
  with_format(format, [&](auto t) {
    using T = typename decltype(t)::type;
    const auto x = T::from_bits(static_cast<typename T::storage_type>(code));
    switch (mf::fpclassify(x)) {
      case FP_ZERO: *value_class = MF_CLASS_ZERO; break;
      case FP_SUBNORMAL: *value_class = MF_CLASS_SUBNORMAL; break;
      case FP_NORMAL: *value_class = MF_CLASS_NORMAL; break;
      case FP_INFINITE: *value_class = MF_CLASS_INFINITE; break;
      default: *value_class = MF_CLASS_NAN; break;
    }
    *sign = mf::signbit(x) ? 1 : 0;
  });
  return MF_OK;
}

int mf_mx_quantize_block(int mx_format, int scale_rounding, const unsigned int* f32_bits,
                         unsigned char* scale, unsigned char* elements) {
  if (!valid_mx_format(mx_format)) return MF_ERR_UNKNOWN_MX_FORMAT;
  if (!valid_scale_rounding(scale_rounding)) return MF_ERR_BAD_SCALE_ROUNDING;
  if (f32_bits == nullptr || scale == nullptr || elements == nullptr) {
    return MF_ERR_NULL_POINTER;
  }
  with_mx_format(mx_format, [&](auto t) {
    using Fmt = typename decltype(t)::type;
    static_assert(Fmt::block_size == MF_MX_BLOCK_SIZE, "c_api.h's block size");
    float in[MF_MX_BLOCK_SIZE];
    std::memcpy(in, f32_bits, sizeof in);
    std::uint8_t packed[Fmt::element_bytes];
    mf::mx::quantize<Fmt>(in, MF_MX_BLOCK_SIZE, scale, packed,
                          static_cast<mf::mx::scale_rounding>(scale_rounding));
    unpack<Fmt>(packed, elements);
  });
  return MF_OK;
}

int mf_mx_dequantize_block(int mx_format, unsigned char scale, const unsigned char* elements,
                           unsigned int* f32_bits) {
  if (!valid_mx_format(mx_format)) return MF_ERR_UNKNOWN_MX_FORMAT;
  if (elements == nullptr || f32_bits == nullptr) return MF_ERR_NULL_POINTER;
  with_mx_format(mx_format, [&](auto t) {
    using Fmt = typename decltype(t)::type;
    std::uint8_t packed[Fmt::element_bytes];
    pack<Fmt>(elements, packed);
    float out[MF_MX_BLOCK_SIZE];
    const std::uint8_t scale_code = scale;
    mf::mx::dequantize<Fmt>(&scale_code, packed, MF_MX_BLOCK_SIZE, out);
    std::memcpy(f32_bits, out, sizeof out);
  });
  return MF_OK;
}

int mf_mx_quantize(int mx_format, int scale_rounding, const float* in, size_t n,
                   unsigned char* scales, unsigned char* elements) {
  if (!valid_mx_format(mx_format)) return MF_ERR_UNKNOWN_MX_FORMAT;
  if (!valid_scale_rounding(scale_rounding)) return MF_ERR_BAD_SCALE_ROUNDING;
  if (n == 0) return MF_OK;
  if (in == nullptr || scales == nullptr || elements == nullptr) return MF_ERR_NULL_POINTER;
  with_mx_format(mx_format, [&](auto t) {
    using Fmt = typename decltype(t)::type;
    mf::mx::quantize<Fmt>(in, n, scales, elements,
                          static_cast<mf::mx::scale_rounding>(scale_rounding));
  });
  return MF_OK;
}

int mf_mx_dequantize(int mx_format, const unsigned char* scales, const unsigned char* elements,
                     size_t n, float* out) {
  if (!valid_mx_format(mx_format)) return MF_ERR_UNKNOWN_MX_FORMAT;
  if (n == 0) return MF_OK;
  if (scales == nullptr || elements == nullptr || out == nullptr) return MF_ERR_NULL_POINTER;
  with_mx_format(mx_format, [&](auto t) {
    using Fmt = typename decltype(t)::type;
    mf::mx::dequantize<Fmt>(scales, elements, n, out);
  });
  return MF_OK;
}

}  // extern "C"
