// The C++ side of the C ABI test: each function calls the C++ API the C
// entry wraps, with its own name -> type table (see reference.h).
#include "reference.h"

#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>
#include <vector>

#include <minifloat/format_registry.hpp>
#include <minifloat/minifloat.hpp>
#include <minifloat/hybrid.hpp>
#include <minifloat/mx.hpp>

namespace {

template <class T>
struct named {
  using type = T;
  std::string_view name;
};

template <class F>
bool by_name(std::string_view name, F&& f) {
  bool found = false;
  auto one = [&](auto entry) {
    if (!found && entry.name == name) {
      found = true;
      f(entry);
    }
  };
  one(named<mf::bfloat16>{"bfloat16"});
  one(named<mf::binary16>{"binary16"});
  one(named<mf::e2m1fn>{"e2m1fn"});
  one(named<mf::e2m3fn>{"e2m3fn"});
  one(named<mf::e3m2fn>{"e3m2fn"});
  one(named<mf::e3m4>{"e3m4"});
  one(named<mf::e4m3>{"e4m3"});
  one(named<mf::e4m3b11fnuz>{"e4m3b11fnuz"});
  one(named<mf::e4m3fn>{"e4m3fn"});
  one(named<mf::e4m3fnuz>{"e4m3fnuz"});
  one(named<mf::e5m2>{"e5m2"});
  one(named<mf::e5m2fnuz>{"e5m2fnuz"});
  one(named<mf::e8m0fnu>{"e8m0fnu"});
  return found;
}

template <class F>
bool mx_by_name(std::string_view name, F&& f) {
  bool found = false;
  auto one = [&](auto entry) {
    if (!found && entry.name == name) {
      found = true;
      f(entry);
    }
  };
  one(named<mf::mx::mxfp4>{"mxfp4"});
  one(named<mf::mx::mxfp6_e2m3>{"mxfp6_e2m3"});
  one(named<mf::mx::mxfp6_e3m2>{"mxfp6_e3m2"});
  one(named<mf::mx::mxfp8_e4m3>{"mxfp8_e4m3"});
  one(named<mf::mx::mxfp8_e5m2>{"mxfp8_e5m2"});
  one(named<mf::mx::mxint8>{"mxint8"});
  return found;
}

bool rounding_by_name(std::string_view name, mf::rounding* mode) {
  if (name == "nearest_even") *mode = mf::rounding::nearest_even;
  else if (name == "toward_zero") *mode = mf::rounding::toward_zero;
  else if (name == "toward_positive") *mode = mf::rounding::toward_positive;
  else if (name == "toward_negative") *mode = mf::rounding::toward_negative;
  else return false;
  return true;
}

mf::overflow overflow_of(int saturate) {
  return saturate ? mf::overflow::saturating : mf::overflow::non_saturating;
}

template <class Source>
int encode(const char* format, Source value, const char* rounding, int saturate,
           unsigned int* code) {
  mf::rounding mode{};
  if (!rounding_by_name(rounding, &mode)) return 0;
  return by_name(format, [&](auto entry) {
    using T = typename decltype(entry)::type;
    *code = mf::round_to<T>(value, mode, overflow_of(saturate)).bits();
  });
}

// Element i of a packed MX element array, written from the layout the OCP
// spec gives (low bits first), not with the library's unpacking.
unsigned element_code(const std::uint8_t* packed, int bits, int i) {
  unsigned code = 0;
  for (int b = 0; b < bits; ++b) {
    const int bit = i * bits + b;
    code |= ((packed[bit / 8] >> (bit % 8)) & 1u) << b;
  }
  return code;
}

}  // namespace

extern "C" {

int ref_encode_f32(const char* format, unsigned int f32_bits, const char* rounding,
                   int saturate, unsigned int* code) {
  float value;
  std::memcpy(&value, &f32_bits, sizeof value);
  return encode(format, value, rounding, saturate, code);
}

int ref_encode_f64(const char* format, unsigned long long f64_bits, const char* rounding,
                   int saturate, unsigned int* code) {
  double value;
  std::memcpy(&value, &f64_bits, sizeof value);
  return encode(format, value, rounding, saturate, code);
}

int ref_encode_f32_stochastic(const char* format, unsigned int f32_bits, int saturate,
                              unsigned int random, int random_bits, unsigned int* code) {
  float value;
  std::memcpy(&value, &f32_bits, sizeof value);
  return by_name(format, [&](auto entry) {
    using T = typename decltype(entry)::type;
    *code = mf::round_to_stochastic<T>(value, random, overflow_of(saturate), random_bits).bits();
  });
}

int ref_decode(const char* format, unsigned int code, unsigned int* f32_bits,
               unsigned long long* f64_bits) {
  return by_name(format, [&](auto entry) {
    using T = typename decltype(entry)::type;
    const T x = T::from_bits(static_cast<typename T::storage_type>(code));
    const float f = static_cast<float>(x);
    const double d = static_cast<double>(x);
    std::memcpy(f32_bits, &f, sizeof f);
    std::memcpy(f64_bits, &d, sizeof d);
  });
}

int ref_classify(const char* format, unsigned int code, int* cls, int* sign) {
  return by_name(format, [&](auto entry) {
    using T = typename decltype(entry)::type;
    const T x = T::from_bits(static_cast<typename T::storage_type>(code));
    *cls = mf::isnan(x) ? 4 : mf::isinf(x) ? 3 : mf::iszero(x) ? 0 : mf::isnormal(x) ? 2 : 1;
    *sign = mf::signbit(x) ? 1 : 0;
  });
}

unsigned int ref_random_bits(unsigned long long seed, unsigned long long index, int bits) {
  return mf::stochastic_random_bits(seed, index, bits);
}

int ref_mx_quantize_block(const char* mx_format, const char* scale_rounding,
                          const unsigned int* f32_bits, unsigned char* scale,
                          unsigned char* codes) {
  mf::mx::scale_rounding mode{};
  const std::string_view r = scale_rounding;
  if (r == "floor") mode = mf::mx::scale_rounding::floor;
  else if (r == "ceil") mode = mf::mx::scale_rounding::ceil;
  else if (r == "even") mode = mf::mx::scale_rounding::even;
  else return 0;
  return mx_by_name(mx_format, [&](auto entry) {
    using Fmt = typename decltype(entry)::type;
    float in[32];
    std::memcpy(in, f32_bits, sizeof in);
    std::uint8_t packed[Fmt::element_bytes];
    mf::mx::quantize<Fmt>(in, scale, packed, 32, mode);
    for (int i = 0; i < 32; ++i) {
      codes[i] = static_cast<unsigned char>(element_code(packed, Fmt::element_bits, i));
    }
  });
}

int ref_mx_dequantize_block(const char* mx_format, unsigned char scale,
                            const unsigned char* codes, unsigned int* f32_bits) {
  return mx_by_name(mx_format, [&](auto entry) {
    using Fmt = typename decltype(entry)::type;
    using Elem = typename Fmt::element;
    // Element by element: decode_element times the scale's power of two,
    // the definition of an MX value (OCP MX v1.0 section 5.1).
    for (int i = 0; i < 32; ++i) {
      if (scale == mf::mx::scale_nan) {  // a NaN scale makes the whole block NaN
        f32_bits[i] = 0x7FC00000u;
        continue;
      }
      const unsigned code = codes[i] & ((1u << Fmt::element_bits) - 1u);
      const float p = mf::mx::decode_element<Elem>(static_cast<std::uint8_t>(code));
      const float v = mf::detail::bit_cast<float>(
          mf::mx::multiply_by_scale(mf::detail::bit_cast<std::uint32_t>(p), scale));
      std::memcpy(&f32_bits[i], &v, sizeof v);
    }
  });
}

int ref_format_alias(int i, const char** alias, const char** canonical) {
  int row = 0;
  for (const mf::format_name& name : mf::format_names) {
    if (!mf::names_a_minifloat(name.id)) continue;
    if (row++ != i) continue;
    // The registry's names are string literals: data() is NUL-terminated.
    *alias = name.name.data();
    *canonical = mf::canonical_name(name.id).data();
    return 1;
  }
  return 0;
}

}  // extern "C"

namespace {

// The types, tables and models by name, mapped here to the C++ enums and
// named constructors (not through the c_api.h ids). The request goes
// through the C++ entry over run-time types, mf::hybrid::matmul(table_id,
// element_type, ...), the one the C ABI wraps: what is compared is the
// C ABI's own work, its checks and its mapping of every field.
bool hybrid_type_of(std::string_view name, mf::hybrid::element_type& t) {
  using T = mf::hybrid::element_type;
  if (name == "I8") t = T::i8;
  else if (name == "U8") t = T::u8;
  else if (name == "HF8") t = T::hf8;
  else if (name == "BF8") t = T::bf8;
  else if (name == "FP16") t = T::f16;
  else if (name == "BF16") t = T::bf16;
  else if (name == "FP32") t = T::f32;
  else return false;
  return true;
}

bool hybrid_table_of(std::string_view name, mf::hybrid::table_id& t) {
  using T = mf::hybrid::table_id;
  if (name == "vendor_hybrid_fp8") t = T::vendor_hybrid_fp8;
  else if (name == "cublaslt_fp8") t = T::cublaslt_fp8;
  else if (name == "any") t = T::any;
  else return false;
  return true;
}

bool hybrid_model_of(const ref_hybrid_problem& p, mf::hybrid::accumulation_model& m) {
  namespace hy = mf::hybrid;
  namespace hm = mf::hybrid::models;
  const std::string_view name = p.model;
  if (name == "sequential_fp32") {
    m = hm::sequential_fp32();
  } else if (name == "exact") {
    m = hm::exact();
  } else if (name == "exact_to_output") {
    m = hm::exact(true);
  } else if (name == "avx512_bf16_pairs") {
    m = hm::avx512_bf16_pairs();
  } else if (name == "amx_tile_pairs") {
    m = hm::amx_tile_pairs(p.chunk, p.amx_guide ? hy::amx_order::guide : hy::amx_order::sdm);
  } else if (name == "chunked_exact") {
    m = hm::chunked_exact(p.chunk,
                          p.chunk_toward_zero ? hy::fp32_rounding::toward_zero
                                              : hy::fp32_rounding::nearest_even,
                          p.presum_round != 0);
  } else if (name == "reduced_precision") {
    m = hm::reduced_precision(p.reduced_bits, p.promote_every,
                              p.reduced_block_variant ? hy::reduced_variant::block
                                                      : hy::reduced_variant::seq,
                              p.block, p.truncation_floor ? hy::truncation::floor
                                                          : hy::truncation::toward_zero);
  } else {
    return false;
  }
  m.nans = p.nan_propagate ? hy::nan_payload::propagate : hy::nan_payload::canonical;
  return true;
}

float f32(unsigned int bits) {
  return mf::detail::bit_cast<float>(static_cast<std::uint32_t>(bits));
}

std::vector<float> floats(const unsigned int* bits, int count) {
  std::vector<float> v;
  for (int i = 0; bits != nullptr && i < count; ++i) v.push_back(f32(bits[i]));
  return v;
}

}  // namespace

extern "C" {

int ref_hybrid_matmul(const ref_hybrid_problem* p) {
  namespace hy = mf::hybrid;
  static_assert(std::is_same_v<unsigned int, std::uint32_t>, "codes cross as uint32");
  hy::matmul_options o;
  hy::table_id table{};
  hy::element_type ta{}, tb{}, tc{};
  if (!hybrid_model_of(*p, o.model) || !hybrid_table_of(p->table, table) ||
      !hybrid_type_of(p->a_type, ta) || !hybrid_type_of(p->b_type, tb) ||
      !hybrid_type_of(p->out_type, tc)) {
    return 0;
  }
  const std::vector<float> a_rows = floats(p->scale_a_rows, p->m);
  const std::vector<float> b_columns = floats(p->scale_b_columns, p->n);
  const std::vector<float> bias = floats(p->bias, p->n);
  o.scales.a = f32(p->scale_a);
  o.scales.b = f32(p->scale_b);
  o.scales.a_rows = p->scale_a_rows ? a_rows.data() : nullptr;
  o.scales.b_columns = p->scale_b_columns ? b_columns.data() : nullptr;
  o.scales.bias = p->bias ? bias.data() : nullptr;
  o.scales.output = f32(p->output_scale);
  o.scales.output_rule =
      p->output_divide ? hy::output_scale_rule::divide : hy::output_scale_rule::multiply;
  o.scales.where = p->operands_placement ? hy::placement::operands : hy::placement::epilogue;
  o.output.on_overflow = p->saturate ? mf::overflow::saturating : mf::overflow::non_saturating;
  o.output.stochastic = p->stochastic != 0;
  o.output.seed = p->seed;
  o.output.offset = p->offset;
  o.output.random_bits = p->random_bits;
  o.integer_scale = f32(p->integer_scale);
  o.requant = p->requant_fp32 ? hy::requantization::fp32 : hy::requantization::exact;
  o.check_z_multiple = p->check_z_multiple != 0;
  const auto m = static_cast<std::size_t>(p->m);
  const auto n = static_cast<std::size_t>(p->n);
  std::vector<std::uint32_t> c(m * n);
  try {
    hy::matmul(table, ta, tb, tc, p->a, static_cast<std::size_t>(p->lda), p->b,
               static_cast<std::size_t>(p->ldb), c.data(), n, m, n,
               static_cast<std::size_t>(p->k), o);
  } catch (const hy::unsupported&) {
    return 2;
  }
  for (std::size_t i = 0; i < m; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      p->c[i * static_cast<std::size_t>(p->ldc) + j] = c[i * n + j];
    }
  }
  return 1;
}

}  // extern "C"
