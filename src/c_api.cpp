// The C ABI (include/minifloat/c_api.h): validates the run-time ids, turns
// each into the compile-time type of the C++ library and calls it. No
// conversion is written here; every result comes from mf::round_to,
// mf::round_to_stochastic, mf::stochastic_random_bits and mf::mx.
#include "minifloat/c_api.h"

#include <climits>
#include <cstdint>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>
#include <vector>

#include <minifloat/format_registry.hpp>
#include <minifloat/minifloat.hpp>
#include <minifloat/hybrid.hpp>
#include <minifloat/mx.hpp>

#include <new>

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
constexpr bool format_ids_match_the_registry() {
  using id = mf::format_id;
  constexpr struct {
    int c;
    id cpp;
  } pairs[] = {{MF_FORMAT_E4M3FN, id::e4m3fn},     {MF_FORMAT_E4M3FNUZ, id::e4m3fnuz},
               {MF_FORMAT_E5M2, id::e5m2},         {MF_FORMAT_E5M2FNUZ, id::e5m2fnuz},
               {MF_FORMAT_E2M1FN, id::e2m1fn},     {MF_FORMAT_E2M3FN, id::e2m3fn},
               {MF_FORMAT_E3M2FN, id::e3m2fn},     {MF_FORMAT_E8M0FNU, id::e8m0fnu},
               {MF_FORMAT_E4M3, id::e4m3},         {MF_FORMAT_E3M4, id::e3m4},
               {MF_FORMAT_E4M3B11FNUZ, id::e4m3b11fnuz}, {MF_FORMAT_BINARY16, id::binary16},
               {MF_FORMAT_BFLOAT16, id::bfloat16}};
  for (const auto& p : pairs) {
    if (p.c != static_cast<int>(p.cpp)) return false;
  }
  return static_cast<std::size_t>(MF_FORMAT_COUNT) == mf::minifloat_format_count;
}
static_assert(format_ids_match_the_registry(),
              "the MF_FORMAT_* ids are mf::format_id's minifloats, in order");
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
    mf::mx::scalar::pack_fp4(masked, packed, MF_MX_BLOCK_SIZE);
  } else if constexpr (Fmt::element_bits == 6) {
    mf::mx::scalar::pack_fp6(masked, packed, MF_MX_BLOCK_SIZE);
  } else {
    std::memcpy(packed, masked, MF_MX_BLOCK_SIZE);
  }
}

template <class Fmt>
void unpack(const std::uint8_t* packed, unsigned char* codes) {
  if constexpr (Fmt::element_bits == 4) {
    mf::mx::scalar::unpack_fp4(packed, codes, MF_MX_BLOCK_SIZE);
  } else if constexpr (Fmt::element_bits == 6) {
    mf::mx::scalar::unpack_fp6(packed, codes, MF_MX_BLOCK_SIZE);
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
    case MF_ERR_UNKNOWN_HYBRID_ID: return "MF_ERR_UNKNOWN_HYBRID_ID";
    case MF_ERR_BAD_SIZE: return "MF_ERR_BAD_SIZE";
    case MF_ERR_HYBRID_REJECTED: return "MF_ERR_HYBRID_REJECTED";
    case MF_ERR_OUT_OF_MEMORY: return "MF_ERR_OUT_OF_MEMORY";
    case MF_ERR_BAD_FLAG: return "MF_ERR_BAD_FLAG";
    default: return "unknown status";
  }
}

int mf_format_bits(int format, int* bits) {
  if (!valid_format(format)) return MF_ERR_UNKNOWN_FORMAT;
  if (bits == nullptr) return MF_ERR_NULL_POINTER;
  *bits = format_width(format);
  return MF_OK;
}

int mf_format_from_name(const char* name, int* format) {
  if (name == nullptr) return MF_ERR_NULL_POINTER;
  const std::optional<mf::format_id> id = mf::find_minifloat(name);
  if (!id) return MF_ERR_UNKNOWN_FORMAT;
  if (format == nullptr) return MF_ERR_NULL_POINTER;
  *format = static_cast<int>(*id);
  return MF_OK;
}

const char* mf_format_name(int format) {
  if (!valid_format(format)) return nullptr;
  // The registry's names are string literals, so data() is NUL-terminated.
  return mf::canonical_name(static_cast<mf::format_id>(format)).data();
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
    mf::mx::quantize<Fmt>(in, scale, packed, MF_MX_BLOCK_SIZE,
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
    mf::mx::dequantize<Fmt>(&scale_code, packed, out, MF_MX_BLOCK_SIZE);
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
    mf::mx::quantize<Fmt>(in, scales, elements, n,
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
    mf::mx::dequantize<Fmt>(scales, elements, out, n);
  });
  return MF_OK;
}

}  // extern "C"

// ---- hybrid arithmetic -------------------------------------------------------

// The C ids are the C++ enumerators' values (a cast maps them).
static_assert(MF_HYBRID_I8 == static_cast<int>(mf::hybrid::element_type::i8) &&
                  MF_HYBRID_U8 == static_cast<int>(mf::hybrid::element_type::u8) &&
                  MF_HYBRID_HF8 == static_cast<int>(mf::hybrid::element_type::hf8) &&
                  MF_HYBRID_BF8 == static_cast<int>(mf::hybrid::element_type::bf8) &&
                  MF_HYBRID_FP16 == static_cast<int>(mf::hybrid::element_type::f16) &&
                  MF_HYBRID_BF16 == static_cast<int>(mf::hybrid::element_type::bf16) &&
                  MF_HYBRID_FP32 == static_cast<int>(mf::hybrid::element_type::f32),
              "enum mf_hybrid_type follows mf::hybrid::element_type");
static_assert(MF_TABLE_VENDOR_HYBRID_FP8 == static_cast<int>(mf::hybrid::table_id::vendor_hybrid_fp8) &&
                  MF_TABLE_CUBLASLT_FP8 == static_cast<int>(mf::hybrid::table_id::cublaslt_fp8) &&
                  MF_TABLE_ANY == static_cast<int>(mf::hybrid::table_id::any),
              "enum mf_hybrid_table follows mf::hybrid::table_id");

namespace {

float f32_of(unsigned int bits) { return mf::detail::bit_cast<float>(bits); }

// The C model id and parameters as an accumulation model; false for an
// unknown id (parameters are checked by the library, which rejects them).
// chunk 0 is the model's own default: 32 for the AMX 16-bit tiles, 64 for
// chunked_exact, the AMX-FP8 chunk (docs/hybrid.md).
bool hybrid_model(const mf_hybrid_options& o, mf::hybrid::accumulation_model& m) {
  namespace hy = mf::hybrid;
  switch (o.model) {
    case MF_MODEL_SEQUENTIAL_FP32: m = hy::models::sequential_fp32(); break;
    case MF_MODEL_EXACT: m = hy::models::exact(false); break;
    case MF_MODEL_EXACT_TO_OUTPUT: m = hy::models::exact(true); break;
    case MF_MODEL_AVX512_BF16_PAIRS: m = hy::models::avx512_bf16_pairs(); break;
    case MF_MODEL_AMX_TILE_PAIRS:
      m = hy::models::amx_tile_pairs(o.chunk != 0 ? o.chunk : 32,
                                     o.amx_order ? hy::amx_order::guide : hy::amx_order::sdm);
      break;
    case MF_MODEL_CHUNKED_EXACT:
      m = hy::models::chunked_exact(
          o.chunk != 0 ? o.chunk : 64,
          o.chunk_rounding ? hy::fp32_rounding::toward_zero : hy::fp32_rounding::nearest_even,
          o.presum_round != 0);
      break;
    case MF_MODEL_REDUCED_PRECISION:
      m = hy::models::reduced_precision(
          o.reduced_bits, o.promote_every,
          o.reduced_variant ? hy::reduced_variant::block : hy::reduced_variant::seq, o.block,
          o.truncation ? hy::truncation::floor : hy::truncation::toward_zero);
      break;
    default: return false;
  }
  // Any model: the library rejects propagate where the model has no
  // instruction NaN rule.
  m.nans = o.nan_payload == 1 ? hy::nan_payload::propagate : hy::nan_payload::canonical;
  return true;
}

bool valid_flag(int value) { return value == 0 || value == 1; }

}  // namespace

extern "C" {

int mf_hybrid_options_init(struct mf_hybrid_options* options) {
  if (options == nullptr) return MF_ERR_NULL_POINTER;
  mf_hybrid_options o{};
  o.table = MF_TABLE_VENDOR_HYBRID_FP8;
  o.model = MF_MODEL_SEQUENTIAL_FP32;
  o.chunk = 0;  // the model's own
  o.reduced_bits = 14;
  o.promote_every = 128;
  o.block = 32;
  o.scale_a = o.scale_b = o.output_scale = o.integer_scale = 0x3F800000u;  // 1.0f
  o.rounding = MF_ROUND_NEAREST_EVEN;
  o.overflow = MF_OVERFLOW_NON_SATURATING;
  o.random_bits = 32;
  o.check_z_multiple = 1;
  *options = o;
  return MF_OK;
}

int mf_hybrid_matmul(int a_type, int b_type, int out_type, const struct mf_hybrid_options* options,
                     const unsigned int* a, int lda, const unsigned int* b, int ldb,
                     unsigned int* c, int ldc, int m, int n, int k) {
  namespace hy = mf::hybrid;
  const auto valid_type = [](int t) { return t >= 0 && t < MF_HYBRID_TYPE_COUNT; };
  // c_api.h: the first error in argument order; the options' fields count
  // in their struct order at the position of `options`.
  if (!valid_type(a_type) || !valid_type(b_type) || !valid_type(out_type)) {
    return MF_ERR_UNKNOWN_HYBRID_ID;
  }
  if (options == nullptr) return MF_ERR_NULL_POINTER;
  const mf_hybrid_options& o = *options;
  if (o.table < 0 || o.table > MF_TABLE_ANY) return MF_ERR_UNKNOWN_HYBRID_ID;
  hy::matmul_options mo;
  if (!hybrid_model(o, mo.model)) return MF_ERR_UNKNOWN_HYBRID_ID;
  // The model's parameters (chunk, reduced_bits, ...) are not argument
  // checks: the library rejects a bad one (HYBRID_REJECTED, after these).
  if (!valid_flag(o.amx_order) || !valid_flag(o.nan_payload) || !valid_flag(o.chunk_rounding) ||
      !valid_flag(o.presum_round) ||
      !valid_flag(o.reduced_variant) || !valid_flag(o.truncation) ||
      !valid_flag(o.output_divide) || !valid_flag(o.operands_placement)) {
    return MF_ERR_BAD_FLAG;
  }
  if (o.rounding != MF_ROUND_NEAREST_EVEN && o.rounding != MF_ROUND_STOCHASTIC) {
    return MF_ERR_BAD_ROUNDING;
  }
  if (!valid_overflow(o.overflow)) return MF_ERR_BAD_OVERFLOW;
  if (o.rounding == MF_ROUND_STOCHASTIC && !valid_random_bits(o.random_bits)) {
    return MF_ERR_BAD_RANDOM_BITS;
  }
  if (!valid_flag(o.requant_fp32) || !valid_flag(o.check_z_multiple)) return MF_ERR_BAD_FLAG;
  if (a == nullptr) return MF_ERR_NULL_POINTER;
  if (lda < k || lda < 1) return MF_ERR_BAD_SIZE;
  if (b == nullptr) return MF_ERR_NULL_POINTER;
  if (ldb < n || ldb < 1) return MF_ERR_BAD_SIZE;
  if (c == nullptr) return MF_ERR_NULL_POINTER;
  if (ldc < n || ldc < 1 || m < 1 || n < 1 || k < 1) return MF_ERR_BAD_SIZE;
  const auto to_floats = [](const unsigned int* bits, int count) {
    std::vector<float> v;
    if (bits != nullptr) {
      for (int i = 0; i < count; ++i) v.push_back(f32_of(bits[i]));
    }
    return v;
  };
  try {
    const std::vector<float> a_rows = to_floats(o.scale_a_rows, m);
    const std::vector<float> b_columns = to_floats(o.scale_b_columns, n);
    const std::vector<float> bias = to_floats(o.bias, n);
    mo.scales.a = f32_of(o.scale_a);
    mo.scales.b = f32_of(o.scale_b);
    mo.scales.a_rows = a_rows.empty() ? nullptr : a_rows.data();
    mo.scales.b_columns = b_columns.empty() ? nullptr : b_columns.data();
    mo.scales.bias = bias.empty() ? nullptr : bias.data();
    mo.scales.output = f32_of(o.output_scale);
    mo.scales.output_rule = o.output_divide ? hy::output_scale_rule::divide : hy::output_scale_rule::multiply;
    mo.scales.where = o.operands_placement ? hy::placement::operands : hy::placement::epilogue;
    mo.output.on_overflow = o.overflow == MF_OVERFLOW_SATURATING ? mf::overflow::saturating
                                                                 : mf::overflow::non_saturating;
    mo.output.stochastic = o.rounding == MF_ROUND_STOCHASTIC;
    mo.output.seed = o.seed;
    mo.output.offset = o.offset;
    mo.output.random_bits = o.random_bits;
    mo.integer_scale = f32_of(o.integer_scale);
    mo.requant = o.requant_fp32 ? hy::requantization::fp32 : hy::requantization::exact;
    mo.check_z_multiple = o.check_z_multiple != 0;
    // Computed into a copy, so that nothing is written on error.
    std::vector<unsigned int> result(static_cast<std::size_t>(m) * static_cast<std::size_t>(n));
    hy::matmul(static_cast<hy::table_id>(o.table), static_cast<hy::element_type>(a_type),
               static_cast<hy::element_type>(b_type), static_cast<hy::element_type>(out_type), a,
               static_cast<std::size_t>(lda), b, static_cast<std::size_t>(ldb), result.data(),
               static_cast<std::size_t>(n), static_cast<std::size_t>(m),
               static_cast<std::size_t>(n), static_cast<std::size_t>(k), mo);
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        c[static_cast<std::size_t>(i) * static_cast<std::size_t>(ldc) + static_cast<std::size_t>(j)] =
            result[static_cast<std::size_t>(i) * static_cast<std::size_t>(n) + static_cast<std::size_t>(j)];
      }
    }
  } catch (const hy::unsupported&) {
    return MF_ERR_HYBRID_REJECTED;
  } catch (const std::bad_alloc&) {
    return MF_ERR_OUT_OF_MEMORY;
  } catch (const std::length_error&) {  // a copy of C larger than a vector can hold
    return MF_ERR_OUT_OF_MEMORY;
  }
  return MF_OK;
}

int mf_hybrid_dot32(int table, int a_type, int b_type, int out_type, int model, int nan_payload,
                    const unsigned int* a, const unsigned int* b, int k, unsigned int scale_a,
                    unsigned int scale_b, unsigned int output_scale, int output_divide,
                    int overflow, unsigned int* c) {
  // Checked here in this function's argument order (c_api.h); the MatMul
  // below then finds every argument valid.
  const auto valid_type = [](int t) { return t >= 0 && t < MF_HYBRID_TYPE_COUNT; };
  if (table < 0 || table > MF_TABLE_ANY) return MF_ERR_UNKNOWN_HYBRID_ID;
  if (!valid_type(a_type) || !valid_type(b_type) || !valid_type(out_type)) {
    return MF_ERR_UNKNOWN_HYBRID_ID;
  }
  if (model < 0 || model >= MF_MODEL_COUNT) return MF_ERR_UNKNOWN_HYBRID_ID;
  if (!valid_flag(nan_payload)) return MF_ERR_BAD_FLAG;
  if (a == nullptr || b == nullptr) return MF_ERR_NULL_POINTER;
  if (k < 1 || k > 32) return MF_ERR_BAD_SIZE;
  if (!valid_flag(output_divide)) return MF_ERR_BAD_FLAG;
  if (!valid_overflow(overflow)) return MF_ERR_BAD_OVERFLOW;
  if (c == nullptr) return MF_ERR_NULL_POINTER;
  mf_hybrid_options o;
  mf_hybrid_options_init(&o);
  o.table = table;
  o.model = model;
  o.nan_payload = nan_payload;
  o.scale_a = scale_a;
  o.scale_b = scale_b;
  o.output_scale = output_scale;
  o.output_divide = output_divide;
  o.overflow = overflow;
  o.check_z_multiple = 0;
  return mf_hybrid_matmul(a_type, b_type, out_type, &o, a, k, b, 1, c, 1, 1, 1, k);
}

}  // extern "C"
