// minifloat._core: the bulk conversions of <minifloat/bulk.hpp>, the
// hybrid MatMul and element-wise operations of <minifloat/hybrid.hpp>, the
// MX block formats of <minifloat/mx.hpp>, the calibration of
// <minifloat/calibration.hpp> and the ONNX operators of <minifloat/onnx.hpp>
// for Python (the scaling of <minifloat/scaling/>: scaling.cpp; packed FP4 /
// FP6 storage: packing.cpp; streaming calibration: observers.cpp).
//
// Everything here is glue: a run-time format id becomes a template argument
// and the call goes to mf::bulk::encode / mf::bulk::decode, the kernels that
// minifloat::kernels compiled once. The checks a Python user should read
// (argument names, accepted dtypes, shapes) are made in minifloat/__init__.py
// before any call; the ones here only keep a wrong call from this module's
// own Python layer from touching memory it does not own.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/calibration.hpp>
#include <minifloat/format_registry.hpp>
#include <minifloat/hybrid.hpp>
#include <minifloat/minifloat.hpp>
#include <minifloat/mx.hpp>
#include <minifloat/onnx.hpp>

#include "common.hpp"

namespace nb = nanobind;
using namespace minifloat_python;

namespace {

// ---------------------------------------------------------------------------
// The formats and their names: mf::format_registry (format_registry.hpp),
// the library's one table of spellings, so that Python accepts what the tool,
// the hybrid tables and the ONNX layer accept. Ids are mf::format_id values;
// the minifloats are the first minifloat_format_count of them.
// ---------------------------------------------------------------------------

// Source kinds beyond the formats (a format's id means "its encodings").
constexpr int source_float32 = format_count;
constexpr int source_float64 = format_count + 1;

// The NumPy or ml_dtypes scalar type that holds one encoding of each format,
// by id (every format of ml_dtypes 0.5+ is here; binary16 is NumPy's
// float16).
constexpr const char* typed_dtype_names[format_count] = {
    "float8_e4m3fn", "float8_e4m3fnuz", "float8_e5m2",  "float8_e5m2fnuz",
    "float4_e2m1fn", "float6_e2m3fn",   "float6_e3m2fn", "float8_e8m0fnu",
    "float8_e4m3",   "float8_e3m4",     "float8_e4m3b11fnuz", "float16", "bfloat16"};
constexpr bool typed_dtype_names_follow_the_ids() {
  for (int id = 0; id < format_count; ++id) {
    const auto found = mf::find_minifloat(typed_dtype_names[id]);
    if (!found || static_cast<int>(*found) != id) return false;
  }
  return true;
}
static_assert(typed_dtype_names_follow_the_ids(),
              "typed_dtype_names[id] must be a registry spelling of format id");


const char* specials_name(mf::specials s) {
  switch (s) {
    case mf::specials::ieee: return "ieee";
    case mf::specials::fn: return "fn";
    case mf::specials::fnuz: return "fnuz";
    case mf::specials::finite: return "finite";
    case mf::specials::fnu: return "fnu";
  }
  return "?";
}

template <class T>
nb::dict describe() {
  using format = typename T::format;
  using limits = std::numeric_limits<T>;
  nb::dict d;
  d["bits"] = format::bits;
  d["exponent_bits"] = format::exponent_bits;
  d["mantissa_bits"] = format::mantissa_bits;
  d["bias"] = format::bias;
  d["specials"] = specials_name(format::encoding);
  d["signed"] = format::is_signed;
  d["has_inf"] = format::has_inf;
  d["has_nan"] = format::has_nan;
  d["has_zero"] = format::has_zero;
  d["has_negative_zero"] = format::has_negative_zero;
  d["has_subnormals"] = format::has_subnormals;
  // Every value of every format is a float exactly (docs/semantics.md, 2).
  d["max"] = static_cast<double>(static_cast<float>(limits::max()));
  d["lowest"] = static_cast<double>(static_cast<float>(limits::lowest()));
  d["min_normal"] = static_cast<double>(static_cast<float>(limits::min()));
  d["min_subnormal"] = format::has_subnormals
                           ? nb::object(nb::float_(
                                 static_cast<double>(static_cast<float>(limits::denorm_min()))))
                           : nb::none();
  d["epsilon"] = static_cast<double>(static_cast<float>(limits::epsilon()));
  d["max_bits"] = static_cast<unsigned>(limits::max().bits());
  return d;
}

// ---------------------------------------------------------------------------
// The item size of each source kind (the arrays: common.hpp).
// ---------------------------------------------------------------------------

std::size_t source_itemsize(int source) {
  if (source == source_float32) return sizeof(float);
  if (source == source_float64) return sizeof(double);
  std::size_t size = 0;
  visit_format(source, [&](auto t) { size = sizeof(decltype(t)); });
  return size;
}


// max |x| of float64 values, NaN if any is NaN, 0 for none: the amax a
// float64 caller is promised (the fused amax of the bulk encode is a
// float32, which would turn 1e300 into inf and 1e-50 into 0).
double float64_amax(const double* x, std::size_t n) {
  double amax = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double v = std::fabs(x[i]);
    if (std::isnan(v)) return v;
    amax = v > amax ? v : amax;
  }
  return amax;
}

// mf::bulk::encode<To> of n elements of `source` kind; returns the amax
// (NaN when not asked for).
double encode(const in_array& in, int source, out_array& out, int target, int mode,
              bool saturate, bool stochastic, std::uint64_t seed, std::uint64_t offset,
              int random_bits, float scale, bool with_amax) {
  const std::size_t n = in.size();
  if (out.size() != n) throw nb::value_error("out: element count differs from the input's");
  check_itemsize("input", in.itemsize(), source_itemsize(source));
  const mf::conversion c = make_conversion(mode, saturate, stochastic, seed, offset, random_bits);
  float amax = std::numeric_limits<float>::quiet_NaN();
  const bool float32_amax = with_amax && source != source_float64;
  const mf::bulk::fused_steps steps{scale, float32_amax ? &amax : nullptr};
  const void* src = in.data();
  void* dst = out.data();
  visit_format(target, [&](auto to) {
    using To = decltype(to);
    using storage = typename To::storage_type;
    check_itemsize("out", out.itemsize(), sizeof(storage));
    auto* q = static_cast<storage*>(dst);
    if (source == source_float32) {
      nb::gil_scoped_release unlocked;
      mf::bulk::encode<To>(static_cast<const float*>(src), q, n, c, steps);
    } else if (source == source_float64) {
      nb::gil_scoped_release unlocked;
      mf::bulk::encode<To>(static_cast<const double*>(src), q, n, c, steps);
    } else {
      visit_format(source, [&](auto from) {
        using From = decltype(from);
        // A minifloat object is exactly its encoding (standard layout, one
        // member), and the entry reads the values in place (encodings.hpp).
        nb::gil_scoped_release unlocked;
        mf::bulk::encode<To>(static_cast<const From*>(src), q, n, c, steps);
      });
    }
  });
  if (with_amax && source == source_float64) {
    nb::gil_scoped_release unlocked;
    return float64_amax(static_cast<const double*>(src), n);
  }
  return static_cast<double>(amax);
}

// mf::bulk::decode<Fmt> into float32.
void decode(const in_array& in, int source, out_array& out, float scale) {
  const std::size_t n = in.size();
  if (out.size() != n) throw nb::value_error("out: element count differs from the input's");
  check_itemsize("out", out.itemsize(), sizeof(float));
  const void* src = in.data();
  auto* y = static_cast<float*>(out.data());
  visit_format(source, [&](auto from) {
    using From = decltype(from);
    using storage = typename From::storage_type;
    check_itemsize("input", in.itemsize(), sizeof(storage));
    nb::gil_scoped_release unlocked;
    mf::bulk::decode<From>(static_cast<const storage*>(src), y, n, scale);
  });
}

// ---------------------------------------------------------------------------
// The hybrid MatMul: mf::hybrid::matmul's run-time entry (uint32 codes),
// the fast kernels where one exists, the reference otherwise. The Python
// layer has checked the shapes and names; the model arrives as its fields.
// ---------------------------------------------------------------------------
namespace hy = mf::hybrid;

hy::element_type element_type_of(const std::string& name, const char* what) {
  hy::element_type t{};
  if (!hy::parse_element_type(name, t)) {
    throw nb::value_error((std::string(what) + ": " + name + " is not a type of the hybrid MatMul").c_str());
  }
  return t;
}

std::vector<std::uint32_t> codes_of(const in_array& x, const char* what) {
  std::vector<std::uint32_t> codes(x.size());
  if (x.itemsize() == 1) {
    const auto* p = static_cast<const std::uint8_t*>(x.data());
    for (std::size_t i = 0; i < codes.size(); ++i) codes[i] = p[i];
  } else if (x.itemsize() == 2) {
    const auto* p = static_cast<const std::uint16_t*>(x.data());
    for (std::size_t i = 0; i < codes.size(); ++i) codes[i] = p[i];
  } else {
    throw nb::type_error((std::string(what) + ": 1- or 2-byte encodings expected").c_str());
  }
  return codes;
}

const float* optional_vector(const nb::object& v, std::size_t size, const char* what,
                             std::vector<float>& storage) {
  if (v.is_none()) return nullptr;
  storage = nb::cast<std::vector<float>>(v);
  if (storage.size() != size) {
    throw nb::value_error((std::string(what) + ": " + std::to_string(storage.size()) +
                           " values, expected " + std::to_string(size))
                              .c_str());
  }
  return storage.data();
}

struct model_fields {
  int kind, chunk, order, rounding, bits, promote_every, variant, block, trunc;
  bool exact_to_output, presum_round;
  int nans = 0;  // mf::hybrid::nan_payload
};

hy::accumulation_model model_of(const model_fields& f) {
  hy::accumulation_model m;
  m.kind = static_cast<hy::model_kind>(f.kind);
  m.exact_to_output = f.exact_to_output;
  m.chunk = f.chunk;
  m.order = static_cast<hy::amx_order>(f.order);
  m.rounding = static_cast<hy::fp32_rounding>(f.rounding);
  m.presum_round = f.presum_round;
  m.bits = f.bits;
  m.promote_every = f.promote_every;
  m.variant = static_cast<hy::reduced_variant>(f.variant);
  m.block = f.block;
  m.trunc = static_cast<hy::truncation>(f.trunc);
  m.nans = static_cast<hy::nan_payload>(f.nans);
  return m;
}

// The output codes (one uint32 each, as the run-time entries write them)
// into `out`, whose item size is the output type's storage.
void write_codes(const std::vector<std::uint32_t>& codes, out_array& out) {
  switch (out.itemsize()) {
    case 1: {
      auto* p = static_cast<std::uint8_t*>(out.data());
      for (std::size_t i = 0; i < codes.size(); ++i) p[i] = static_cast<std::uint8_t>(codes[i]);
      break;
    }
    case 2: {
      auto* p = static_cast<std::uint16_t*>(out.data());
      for (std::size_t i = 0; i < codes.size(); ++i) p[i] = static_cast<std::uint16_t>(codes[i]);
      break;
    }
    default:
      if (!codes.empty()) std::memcpy(out.data(), codes.data(), codes.size() * 4);
  }
}

std::size_t output_itemsize(hy::element_type t) {
  return t == hy::element_type::f32 ? 4u : static_cast<std::size_t>(hy::storage_bits(t) / 8);
}

// Calls f(T{}) with T the value type of float operand type t (FP8, FP16,
// BF16); false for the other types.
template <class F>
bool visit_float_operand(hy::element_type t, F&& f) {
  switch (t) {
    case hy::element_type::hf8: return f(mf::e4m3fn{}), true;
    case hy::element_type::bf8: return f(mf::e5m2{}), true;
    case hy::element_type::f16: return f(mf::binary16{}), true;
    case hy::element_type::bf16: return f(mf::bfloat16{}), true;
    default: return false;
  }
}

// The same for a float output type: those operand types and FP32 (float).
template <class F>
bool visit_float_output(hy::element_type t, F&& f) {
  if (t == hy::element_type::f32) return f(0.0f), true;
  return visit_float_operand(t, f);
}

// Float operands (FP8, FP16, BF16) through the typed entry
// mf::hybrid::matmul<Table>(const A*, ...) on the arrays in place (a
// minifloat object is exactly its encoding), so that no operand or result is
// widened to the run-time entry's uint32 codes: at 1024^3 those three copies
// cost 2 to 3 ms, a seventh of the fastest FP8 model's time. Each array must
// hold its type's storage (1 or 2 bytes an element). The table enters the
// computation only through its checks (the accepted types and the multiple
// of K, matmul_options.hpp's check_request), so a request the asked table
// accepts runs with Table = any, and one it rejects goes to the run-time
// entry, which says why. Returns false where this path does not apply.
bool typed_matmul(hy::table_id table, hy::element_type ta, hy::element_type tb,
                  hy::element_type tc, const in_array& a, const in_array& b, void* c,
                  std::size_t m, std::size_t n, std::size_t k, const hy::matmul_options& o) {
  if (!hy::matmul_supported(table, ta, tb, tc)) return false;
  if (o.check_z_multiple && k % hy::required_z_multiple(table) != 0) return false;
  if (a.itemsize() * 8 != static_cast<std::size_t>(hy::storage_bits(ta)) ||
      b.itemsize() * 8 != static_cast<std::size_t>(hy::storage_bits(tb))) {
    return false;
  }
  bool done = false;
  visit_float_operand(ta, [&](auto a_value) {
    using A = decltype(a_value);
    visit_float_operand(tb, [&](auto b_value) {
      using B = decltype(b_value);
      visit_float_output(tc, [&](auto c_value) {
        using C = decltype(c_value);
        if constexpr (hy::matmul_supported(hy::table_id::any, hy::element_id_v<A>,
                                           hy::element_id_v<B>, hy::element_id_v<C>)) {
          nb::gil_scoped_release unlocked;
          hy::matmul<hy::any>(static_cast<const A*>(a.data()), k,
                              static_cast<const B*>(b.data()), n, static_cast<C*>(c), n, m, n,
                              k, o);
          done = true;
        }
      });
    });
  });
  return done;
}

// C (m x n) into `out` (its itemsize: the output type's storage, float32 as
// 4 bytes); returns (amax, accumulator or None).
nb::tuple matmul(const in_array& a, const in_array& b, out_array& out, std::size_t m,
                 std::size_t n, std::size_t k, const std::string& a_type, const std::string& b_type,
                 const std::string& out_type, int table, const model_fields& model,
                 float scale_a, float scale_b, const nb::object& a_rows, const nb::object& b_columns,
                 const nb::object& bias, float scale_out, bool divide, bool on_operands,
                 bool saturate, bool stochastic, std::uint64_t seed, std::uint64_t offset,
                 int random_bits, unsigned threads, bool reference_only, bool check_z,
                 float integer_scale, bool requant_fp32, bool want_accumulator) {
  if (a.size() != m * k || b.size() != k * n || out.size() != m * n) {
    throw nb::value_error("a, b, out: element counts differ from m x k, k x n, m x n");
  }
  const hy::element_type ta = element_type_of(a_type, "a_type");
  const hy::element_type tb = element_type_of(b_type, "b_type");
  const hy::element_type tc = element_type_of(out_type, "out_type");
  check_itemsize("out", out.itemsize(), output_itemsize(tc));
  std::vector<float> row_scales, column_scales, bias_values;
  hy::matmul_options o;
  o.model = model_of(model);
  o.scales.a = scale_a;
  o.scales.b = scale_b;
  o.scales.a_rows = optional_vector(a_rows, m, "scale_a", row_scales);
  o.scales.b_columns = optional_vector(b_columns, n, "scale_b", column_scales);
  o.scales.bias = optional_vector(bias, n, "bias", bias_values);
  o.scales.output = scale_out;
  o.scales.output_rule = divide ? hy::output_scale_rule::divide : hy::output_scale_rule::multiply;
  o.scales.where = on_operands ? hy::placement::operands : hy::placement::epilogue;
  o.output.on_overflow = saturate ? mf::overflow::saturating : mf::overflow::non_saturating;
  o.output.stochastic = stochastic;
  o.output.seed = seed;
  o.output.offset = offset;
  o.output.random_bits = random_bits;
  o.threads = threads;
  o.reference_only = reference_only;
  o.check_z_multiple = check_z;
  o.integer_scale = integer_scale;
  o.requant = requant_fp32 ? hy::requantization::fp32 : hy::requantization::exact;
  float amax = std::numeric_limits<float>::quiet_NaN();
  o.amax = &amax;
  const bool integer = hy::is_integer(ta);
  std::vector<float> accumulator;
  std::vector<std::int32_t> integer_accumulator;
  if (want_accumulator && integer) {
    integer_accumulator.resize(m * n);
    o.integer_accumulator = integer_accumulator.data();
  } else if (want_accumulator) {
    accumulator.resize(m * n);
    o.accumulator = accumulator.data();
  }
  try {
    if (!typed_matmul(static_cast<hy::table_id>(table), ta, tb, tc, a, b, out.data(), m, n, k,
                      o)) {
      const std::vector<std::uint32_t> ca = codes_of(a, "a"), cb = codes_of(b, "b");
      std::vector<std::uint32_t> cc(m * n);
      {
        nb::gil_scoped_release unlocked;
        hy::matmul(static_cast<hy::table_id>(table), ta, tb, tc, ca.data(), k, cb.data(), n,
                   cc.data(), n, m, n, k, o);
      }
      write_codes(cc, out);
    }
  } catch (const hy::unsupported& e) {
    throw nb::value_error(e.what());
  }
  nb::object acc = nb::none();
  if (want_accumulator) {
    acc = integer ? nb::cast(integer_accumulator) : nb::cast(accumulator);
  }
  return nb::make_tuple(integer ? nb::object(nb::none()) : nb::object(nb::float_(amax)), acc);
}

// C = out(A op B) (rows x columns) into `out` by mf::hybrid::eltwise's
// run-time entry (the fast path where one exists, the reference loop
// otherwise); B has rows x columns, 1 or columns elements (b.size()).
void eltwise(const in_array& a, const in_array& b, out_array& out, std::size_t rows,
             std::size_t columns, const std::string& a_type, const std::string& b_type,
             const std::string& out_type, int table, int op, const std::string& scale_type,
             bool a_scale_given, float a_scale, bool b_scale_given, float b_scale, bool exact,
             bool on_operands, bool saturate, bool stochastic, std::uint64_t seed,
             std::uint64_t offset, int random_bits, bool check_z, bool reference_only) {
  if (a.size() != rows * columns || out.size() != rows * columns) {
    throw nb::value_error("a, out: element counts differ from rows x columns");
  }
  if (op < 0 || op > 2) throw nb::value_error("eltwise op id out of range");
  if (table < 0 || table > 2) throw nb::value_error("table id out of range");
  const hy::element_type ta = element_type_of(a_type, "a_type");
  const hy::element_type tb = element_type_of(b_type, "b_type");
  const hy::element_type tc = element_type_of(out_type, "out_type");
  check_itemsize("out", out.itemsize(), output_itemsize(tc));
  const std::vector<std::uint32_t> ca = codes_of(a, "a"), cb = codes_of(b, "b");
  std::vector<std::uint32_t> cc(rows * columns);
  hy::eltwise_options o;
  o.op = static_cast<hy::eltwise_op>(op);
  o.scale_type = element_type_of(scale_type, "scale_type");
  o.a_scale = {a_scale_given, a_scale};
  o.b_scale = {b_scale_given, b_scale};
  o.exact = exact;
  o.where = on_operands ? hy::placement::operands : hy::placement::epilogue;
  o.output.on_overflow = saturate ? mf::overflow::saturating : mf::overflow::non_saturating;
  o.output.stochastic = stochastic;
  o.output.seed = seed;
  o.output.offset = offset;
  o.output.random_bits = random_bits;
  o.check_z_multiple = check_z;
  o.reference_only = reference_only;
  try {
    nb::gil_scoped_release unlocked;
    hy::eltwise(static_cast<hy::table_id>(table), ta, tb, tc, ca.data(), cb.data(), cb.size(),
                cc.data(), rows, columns, o);
  } catch (const hy::unsupported& e) {
    throw nb::value_error(e.what());
  }
  write_codes(cc, out);
}

// ---------------------------------------------------------------------------
// MX block formats (mf::mx, docs/mx.md) and NVFP4 (mf::mx::nvfp4), in the
// tensor layout, one C++ call per row: blocks run along the last axis and a
// row's last block may be partial, as the C++ entries allow for any n. Ids
// follow the Python layer's MX_FORMATS.
// ---------------------------------------------------------------------------
constexpr int mx_nvfp4 = 6;

// Calls f(Fmt{}) with Fmt the MX block format of `id` (0 <= id < 6).
template <class F>
void visit_mx_format(int id, F&& f) {
  switch (id) {
    case 0: f(mf::mx::mxfp8_e4m3{}); return;
    case 1: f(mf::mx::mxfp8_e5m2{}); return;
    case 2: f(mf::mx::mxfp6_e2m3{}); return;
    case 3: f(mf::mx::mxfp6_e3m2{}); return;
    case 4: f(mf::mx::mxfp4{}); return;
    case 5: f(mf::mx::mxint8{}); return;
    default: throw nb::value_error(("MX format id " + std::to_string(id) + " out of range").c_str());
  }
}

// Bits of an element of format `id` (NVFP4: e2m1fn's 4).
int mx_element_bits(int id) {
  if (id == mx_nvfp4) return 4;
  int bits = 0;
  visit_mx_format(id, [&](auto fmt) { bits = decltype(fmt)::element_bits; });
  return bits;
}

// Scale bytes and element bytes of one row of `length` elements: packed
// as the C++ tensor layout stores them, or one code per byte (`packed`
// false: the same as packed for the 8-bit elements).
std::tuple<std::size_t, std::size_t> mx_row_sizes(int id, std::size_t length, bool packed) {
  std::size_t scales = 0, elements = 0;
  if (id == mx_nvfp4) {
    scales = mf::mx::nvfp4::scale_count(length);
    elements = mf::mx::nvfp4::element_bytes(length);
  } else {
    visit_mx_format(id, [&](auto fmt) {
      using Fmt = decltype(fmt);
      scales = mf::mx::scale_count<Fmt>(length);
      elements = mf::mx::element_bytes<Fmt>(length);
    });
  }
  return {scales, packed ? elements : length};
}

void check_mx_arrays(int id, std::size_t rows, std::size_t length, bool packed,
                     std::size_t values, const char* values_name, std::size_t scales,
                     std::size_t elements) {
  const auto [row_scales, row_elements] = mx_row_sizes(id, length, packed);
  if (values != rows * length || scales != rows * row_scales ||
      elements != rows * row_elements) {
    throw nb::value_error((std::string(values_name) +
                           ", scales, elements: sizes differ from rows x length").c_str());
  }
}

// The elements of one row in the packed layout the C++ entries read and
// write: the caller's row itself, or (one code per byte asked for FP4 /
// FP6) a row buffer that mf::mx::pack_fp4 / pack_fp6 fill from the codes
// and unpack_fp4 / unpack_fp6 empty into them.
class packed_row {
 public:
  packed_row(int id, std::size_t length, bool packed)
      : bits_(mx_element_bits(id)), length_(length), convert_(!packed && bits_ < 8) {
    if (convert_) buffer_.resize(std::get<1>(mx_row_sizes(id, length, true)));
  }
  std::uint8_t* for_writing(std::uint8_t* row) { return convert_ ? buffer_.data() : row; }
  void written(std::uint8_t* row) {
    if (!convert_) return;
    if (bits_ == 4) mf::mx::unpack_fp4(buffer_.data(), row, length_);
    else mf::mx::unpack_fp6(buffer_.data(), row, length_);
  }
  const std::uint8_t* for_reading(const std::uint8_t* row) {
    if (!convert_) return row;
    if (bits_ == 4) mf::mx::pack_fp4(row, buffer_.data(), length_);
    else mf::mx::pack_fp6(row, buffer_.data(), length_);
    return buffer_.data();
  }

 private:
  int bits_;
  std::size_t length_;
  bool convert_;
  std::vector<std::uint8_t> buffer_;
};

// Quantizes `rows` rows of `length` float32 values; returns the NVFP4 tensor
// scale (the given one, or mf::mx::nvfp4::tensor_scale of the whole input
// when `tensor_scale_given` is false), NaN for the MX formats.
double mx_quantize(const in_array& in, std::size_t rows, std::size_t length, int id, int mode,
                   bool packed, out_array& scales, out_array& elements, bool tensor_scale_given,
                   float tensor_scale) {
  check_itemsize("x", in.itemsize(), sizeof(float));
  check_itemsize("scales", scales.itemsize(), 1);
  check_itemsize("elements", elements.itemsize(), 1);
  check_mx_arrays(id, rows, length, packed, in.size(), "x", scales.size(), elements.size());
  if (mode < 0 || mode > 2) throw nb::value_error("scale rounding id out of range");
  const auto [row_scales, row_elements] = mx_row_sizes(id, length, packed);
  const auto* x = static_cast<const float*>(in.data());
  auto* s = static_cast<std::uint8_t*>(scales.data());
  auto* e = static_cast<std::uint8_t*>(elements.data());
  packed_row row(id, length, packed);
  if (id == mx_nvfp4) {
    nb::gil_scoped_release unlocked;
    // One tensor scale for the whole input (NVFP4's second level), then the
    // rows with it.
    const float s_t = tensor_scale_given ? tensor_scale
                                         : mf::mx::nvfp4::tensor_scale(x, rows * length);
    for (std::size_t r = 0; r < rows; ++r) {
      mf::mx::nvfp4::quantize(x + r * length, s + r * row_scales,
                              row.for_writing(e + r * row_elements), length, s_t);
      row.written(e + r * row_elements);
    }
    return static_cast<double>(s_t);
  }
  const auto rounding = static_cast<mf::mx::scale_rounding>(mode);
  visit_mx_format(id, [&](auto fmt) {
    using Fmt = decltype(fmt);
    nb::gil_scoped_release unlocked;
    for (std::size_t r = 0; r < rows; ++r) {
      mf::mx::quantize<Fmt>(x + r * length, s + r * row_scales,
                            row.for_writing(e + r * row_elements), length, rounding);
      row.written(e + r * row_elements);
    }
  });
  return std::numeric_limits<double>::quiet_NaN();
}

void mx_dequantize(const in_array& scales, const in_array& elements, std::size_t rows,
                   std::size_t length, int id, bool packed, float tensor_scale, out_array& out) {
  check_itemsize("scales", scales.itemsize(), 1);
  check_itemsize("elements", elements.itemsize(), 1);
  check_itemsize("out", out.itemsize(), sizeof(float));
  check_mx_arrays(id, rows, length, packed, out.size(), "out", scales.size(), elements.size());
  const auto [row_scales, row_elements] = mx_row_sizes(id, length, packed);
  const auto* s = static_cast<const std::uint8_t*>(scales.data());
  const auto* e = static_cast<const std::uint8_t*>(elements.data());
  auto* y = static_cast<float*>(out.data());
  packed_row row(id, length, packed);
  if (id == mx_nvfp4) {
    nb::gil_scoped_release unlocked;
    for (std::size_t r = 0; r < rows; ++r) {
      mf::mx::nvfp4::dequantize(s + r * row_scales, row.for_reading(e + r * row_elements),
                                y + r * length, length, tensor_scale);
    }
    return;
  }
  visit_mx_format(id, [&](auto fmt) {
    using Fmt = decltype(fmt);
    nb::gil_scoped_release unlocked;
    for (std::size_t r = 0; r < rows; ++r) {
      mf::mx::dequantize<Fmt>(s + r * row_scales, row.for_reading(e + r * row_elements),
                              y + r * length, length);
    }
  });
}

// ---------------------------------------------------------------------------
// Calibration (mf::calibration, docs/scaling.md "Static calibration"): one
// observer per row, as the tool's `calibrate --per-row`; a whole tensor is
// one row. `on_data`: the mse search and every cost on the values
// themselves (calibrate(h, x, n)), else on the histogram's model.
// ---------------------------------------------------------------------------
using calibration_row = std::tuple<float, double, double, double, double, double>;

std::vector<calibration_row> calibrate(const in_array& in, std::size_t rows, std::size_t length,
                                       int format, int method, double percentile,
                                       bool power_of_two, bool on_data) {
  check_itemsize("x", in.itemsize(), sizeof(float));
  if (in.size() != rows * length) throw nb::value_error("x: size differs from rows x length");
  if (method < 0 || method > 3) throw nb::value_error("calibration method id out of range");
  namespace cal = mf::calibration;
  cal::calibration_options o;
  o.how = static_cast<cal::method>(method);
  o.percentile = percentile;
  o.power_of_two = power_of_two;
  const auto* x = static_cast<const float*>(in.data());
  std::vector<calibration_row> results(rows);
  std::size_t without_finite = rows;  // the first row with no finite value
  visit_format(format, [&](auto t) {
    using T = decltype(t);
    if constexpr (!T::format::has_zero) {
      throw nb::value_error("fmt: the format has no zero; calibration needs one");
    } else {
      nb::gil_scoped_release unlocked;
      for (std::size_t r = 0; r < rows && without_finite == rows; ++r) {
        const float* row = x + r * length;
        cal::abs_histogram h;
        h.observe(row, length);
        if (h.finite_count() == 0) {
          without_finite = r;
          break;
        }
        const cal::calibration_result c =
            on_data ? cal::calibrate<T>(h, row, length, o) : cal::calibrate<T>(h, o);
        results[r] = {c.scale, c.cost.sse, c.cost.mse, c.cost.sqnr_db,
                      c.cost.saturated_fraction, c.cost.flushed_fraction};
      }
    }
  });
  if (without_finite != rows) {
    throw nb::value_error(("x: no finite values" +
                           (rows > 1 ? " in channel " + std::to_string(without_finite)
                                     : std::string()) +
                           ": nothing to calibrate (NaN and Inf do not move the scale)")
                              .c_str());
  }
  return results;
}

// ---------------------------------------------------------------------------
// ONNX QuantizeLinear, DequantizeLinear and Cast (mf::onnx, docs/onnx.md) on
// mf::onnx::tensor, the TensorProto-like storage the operators take: the
// Python layer hands each input over as one uint32 code per element with
// its ONNX type number and shape, and receives the output's codes in a
// uint32 array of x's size (every operator keeps x's shape); the result's
// type number is returned. Invalid models (mf::onnx::invalid_model: a type
// the operator lacks, a scale shape that fits no granularity, an opset)
// become ValueError with the operator's message.
// ---------------------------------------------------------------------------
namespace ox = mf::onnx;
using shape_type = std::vector<std::int64_t>;

// An operator input as the binding receives it, checked with the GIL
// held; tensor() copies it into an mf::onnx::tensor, which needs no Python
// and runs with the GIL released.
struct onnx_input {
  const std::uint32_t* codes = nullptr;
  std::size_t count = 0;
  ox::data_type type = ox::data_type::undefined;
  shape_type shape;

  ox::tensor tensor() const {
    return ox::tensor_from_codes(type, shape, std::vector<std::uint32_t>(codes, codes + count));
  }
};

onnx_input onnx_input_of(const in_array& codes, int type, const shape_type& shape,
                         const char* what) {
  check_itemsize(what, codes.itemsize(), sizeof(std::uint32_t));
  onnx_input in;
  in.type = ox::data_type_from_int(type);
  if (in.type == ox::data_type::undefined) {
    throw nb::value_error((std::string(what) + ": ONNX type " + std::to_string(type) +
                           " is not one of the operators'").c_str());
  }
  std::size_t count = 1;
  for (const std::int64_t d : shape) {
    if (d < 0) throw nb::value_error((std::string(what) + ": negative dimension").c_str());
    count *= static_cast<std::size_t>(d);
  }
  if (count != codes.size()) {
    throw nb::value_error(
        (std::string(what) + ": the shape's element count differs from the codes'").c_str());
  }
  in.codes = static_cast<const std::uint32_t*>(codes.data());
  in.count = codes.size();
  in.shape = shape;
  return in;
}

ox::data_type onnx_type_or_undefined(int type) {
  return type == 0 ? ox::data_type::undefined : ox::data_type_from_int(type);
}

// Runs `op` (which builds the input tensors and returns the output tensor)
// and writes the output's codes into `out`, all without the GIL: the
// copies into and out of the tensors are as long as the operator's own
// loop.
template <class Op>
int onnx_run(const char* name, out_array& out, Op&& op) {
  check_itemsize("out", out.itemsize(), sizeof(std::uint32_t));
  auto* y_codes = static_cast<std::uint32_t*>(out.data());
  const std::size_t y_count = out.size();
  int type = 0;
  bool count_differs = false;
  std::string error;
  {
    nb::gil_scoped_release unlocked;
    try {
      const ox::tensor y = op();
      const std::vector<std::uint32_t> codes = ox::codes_of(y);
      if (codes.size() != y_count) {
        count_differs = true;
      } else if (!codes.empty()) {
        std::memcpy(y_codes, codes.data(), codes.size() * sizeof(std::uint32_t));
      }
      type = static_cast<int>(y.type);
    } catch (const ox::invalid_model& e) {
      error = e.what();
    }
  }
  if (!error.empty()) throw nb::value_error((std::string(name) + ": " + error).c_str());
  if (count_differs) throw nb::value_error("out: element count differs from x's");
  return type;
}

int onnx_quantize_linear(const in_array& x, int x_type, const shape_type& x_shape,
                         const in_array& scale, int scale_type, const shape_type& scale_shape,
                         const nb::object& zero, int zero_type, std::int64_t axis,
                         std::int64_t block_size, bool saturate, int output_dtype, int precision,
                         int opset, out_array& out) {
  const onnx_input ix = onnx_input_of(x, x_type, x_shape, "x");
  const onnx_input is = onnx_input_of(scale, scale_type, scale_shape, "y_scale");
  const bool has_zero = !zero.is_none();
  onnx_input iz;
  if (has_zero) {
    iz = onnx_input_of(nb::cast<in_array>(zero), zero_type, scale_shape, "y_zero_point");
  }
  ox::quantize_attributes a;
  a.axis = axis;
  a.block_size = block_size;
  a.saturate = saturate;
  a.output_dtype = onnx_type_or_undefined(output_dtype);
  a.precision = onnx_type_or_undefined(precision);
  a.opset = opset;
  return onnx_run("quantize_linear", out, [&] {
    const ox::tensor tz = has_zero ? iz.tensor() : ox::tensor{};
    return ox::quantize_linear(ix.tensor(), is.tensor(), has_zero ? &tz : nullptr, a);
  });
}

int onnx_dequantize_linear(const in_array& x, int x_type, const shape_type& x_shape,
                           const in_array& scale, int scale_type, const shape_type& scale_shape,
                           const nb::object& zero, std::int64_t axis, std::int64_t block_size,
                           int output_dtype, int opset, out_array& out) {
  const onnx_input ix = onnx_input_of(x, x_type, x_shape, "x");
  const onnx_input is = onnx_input_of(scale, scale_type, scale_shape, "x_scale");
  const bool has_zero = !zero.is_none();
  onnx_input iz;
  // x_zero_point has x's type (DequantizeLinear: "x_zero_point: T1").
  if (has_zero) iz = onnx_input_of(nb::cast<in_array>(zero), x_type, scale_shape, "x_zero_point");
  ox::dequantize_attributes a;
  a.axis = axis;
  a.block_size = block_size;
  a.output_dtype = onnx_type_or_undefined(output_dtype);
  a.opset = opset;
  return onnx_run("dequantize_linear", out, [&] {
    const ox::tensor tz = has_zero ? iz.tensor() : ox::tensor{};
    return ox::dequantize_linear(ix.tensor(), is.tensor(), has_zero ? &tz : nullptr, a);
  });
}

int onnx_cast(const in_array& x, int x_type, const shape_type& x_shape, int to, bool saturate,
              int round_mode, int opset, out_array& out) {
  const onnx_input ix = onnx_input_of(x, x_type, x_shape, "x");
  const ox::data_type t = ox::data_type_from_int(to);
  if (t == ox::data_type::undefined) throw nb::value_error("to: not an ONNX type number");
  if (round_mode < 0 || round_mode > 2) throw nb::value_error("round_mode id out of range");
  ox::cast_attributes a;
  a.saturate = saturate;
  a.round_mode = static_cast<ox::e8m0_round_mode>(round_mode);
  a.opset = opset;
  return onnx_run("cast", out, [&] { return ox::cast(ix.tensor(), t, a); });
}

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "The bulk conversions of the minifloat C++ library (internal; use minifloat).";
  m.attr("version") = MINIFLOAT_VERSION_STRING;
  m.attr("format_count") = format_count;
  m.attr("source_float32") = source_float32;
  m.attr("source_float64") = source_float64;
  bind_scaling(m);
  bind_packing(m);
  bind_observers(m);

  m.def("format_names", [] {
    std::vector<std::tuple<std::string, int, bool>> names;
    for (const mf::format_name& row : mf::format_names) {
      if (!mf::names_a_minifloat(row.id)) continue;
      names.emplace_back(std::string(row.name), static_cast<int>(row.id),
                         (row.naming & mf::naming::canonical) != 0);
    }
    return names;
  }, "Every spelling of the minifloats in the registry, as (name, id, is the library's name).");
  m.def("element_type_names", [] {
    std::vector<std::tuple<std::string, std::string>> names;
    for (const mf::format_name& row : mf::format_names) {
      mf::hybrid::element_type t{};
      if (mf::hybrid::parse_element_type(row.name, t)) {
        names.emplace_back(std::string(row.name), std::string(mf::hybrid::name(t)));
      }
    }
    return names;
  }, "Every spelling of the hybrid element types in the registry, as (name, the type's name: HF8, FP16, ...).");
  m.def("typed_dtype_names", [] {
    return std::vector<std::string>(std::begin(typed_dtype_names), std::end(typed_dtype_names));
  });
  m.def("describe", [](int id) {
    nb::dict d;
    visit_format(id, [&](auto t) { d = describe<decltype(t)>(); });
    return d;
  });
  // mf::fpclassify of every encoding of format `id`, in code order, as an
  // index into ("zero", "subnormal", "normal", "inf", "nan").
  m.def("encoding_classes", [](int id) {
    std::vector<std::uint8_t> classes;
    visit_format(id, [&](auto t) {
      using T = decltype(t);
      using S = typename T::storage_type;
      for (std::uint32_t code = 0; code < (std::uint32_t{1} << T::format::bits); ++code) {
        switch (mf::fpclassify(T::from_bits(static_cast<S>(code)))) {
          case FP_ZERO: classes.push_back(0); break;
          case FP_SUBNORMAL: classes.push_back(1); break;
          case FP_NORMAL: classes.push_back(2); break;
          case FP_INFINITE: classes.push_back(3); break;
          default: classes.push_back(4); break;
        }
      }
    });
    return classes;
  });

  m.def("encode", &encode, nb::arg("input").noconvert(), nb::arg("source"),
        nb::arg("out").noconvert(), nb::arg("target"), nb::arg("mode"), nb::arg("saturate"),
        nb::arg("stochastic"), nb::arg("seed"), nb::arg("offset"), nb::arg("random_bits"),
        nb::arg("scale"), nb::arg("with_amax"));
  m.def("decode", &decode, nb::arg("input").noconvert(), nb::arg("source"),
        nb::arg("out").noconvert(), nb::arg("scale"));

  nb::class_<model_fields>(m, "ModelFields")
      .def(nb::init<>())
      .def_rw("kind", &model_fields::kind)
      .def_rw("chunk", &model_fields::chunk)
      .def_rw("order", &model_fields::order)
      .def_rw("rounding", &model_fields::rounding)
      .def_rw("bits", &model_fields::bits)
      .def_rw("promote_every", &model_fields::promote_every)
      .def_rw("variant", &model_fields::variant)
      .def_rw("block", &model_fields::block)
      .def_rw("trunc", &model_fields::trunc)
      .def_rw("exact_to_output", &model_fields::exact_to_output)
      .def_rw("presum_round", &model_fields::presum_round)
      .def_rw("nans", &model_fields::nans);
  m.def("matmul", &matmul, nb::arg("a").noconvert(), nb::arg("b").noconvert(),
        nb::arg("out").noconvert(), nb::arg("m"), nb::arg("n"), nb::arg("k"), nb::arg("a_type"),
        nb::arg("b_type"), nb::arg("out_type"), nb::arg("table"), nb::arg("model"),
        nb::arg("scale_a"), nb::arg("scale_b"), nb::arg("a_rows").none(),
        nb::arg("b_columns").none(), nb::arg("bias").none(), nb::arg("scale_out"),
        nb::arg("divide"), nb::arg("on_operands"), nb::arg("saturate"), nb::arg("stochastic"),
        nb::arg("seed"), nb::arg("offset"), nb::arg("random_bits"), nb::arg("threads"),
        nb::arg("reference_only"), nb::arg("check_z"), nb::arg("integer_scale"),
        nb::arg("requant_fp32"), nb::arg("want_accumulator"));

  m.def("eltwise", &eltwise, nb::arg("a").noconvert(), nb::arg("b").noconvert(),
        nb::arg("out").noconvert(), nb::arg("rows"), nb::arg("columns"), nb::arg("a_type"),
        nb::arg("b_type"), nb::arg("out_type"), nb::arg("table"), nb::arg("op"),
        nb::arg("scale_type"), nb::arg("a_scale_given"), nb::arg("a_scale"),
        nb::arg("b_scale_given"), nb::arg("b_scale"), nb::arg("exact"), nb::arg("on_operands"),
        nb::arg("saturate"), nb::arg("stochastic"), nb::arg("seed"), nb::arg("offset"),
        nb::arg("random_bits"), nb::arg("check_z"), nb::arg("reference_only"));

  m.def("mx_row_sizes", &mx_row_sizes, nb::arg("id"), nb::arg("length"), nb::arg("packed"));
  m.def("mx_quantize", &mx_quantize, nb::arg("x").noconvert(), nb::arg("rows"),
        nb::arg("length"), nb::arg("id"), nb::arg("mode"), nb::arg("packed"),
        nb::arg("scales").noconvert(), nb::arg("elements").noconvert(),
        nb::arg("tensor_scale_given"), nb::arg("tensor_scale"));
  m.def("mx_dequantize", &mx_dequantize, nb::arg("scales").noconvert(),
        nb::arg("elements").noconvert(), nb::arg("rows"), nb::arg("length"), nb::arg("id"),
        nb::arg("packed"), nb::arg("tensor_scale"), nb::arg("out").noconvert());
  m.def("calibrate", &calibrate, nb::arg("x").noconvert(), nb::arg("rows"), nb::arg("length"),
        nb::arg("format"), nb::arg("method"), nb::arg("percentile"), nb::arg("power_of_two"),
        nb::arg("on_data"));

  m.def("onnx_types", [] {
    // (TensorProto number, ONNX name, bits, is an integer type).
    std::vector<std::tuple<int, std::string, int, bool>> types;
    for (const auto& e : ox::data_type_formats) {
      types.emplace_back(static_cast<int>(e.type), std::string(ox::name_of(e.type)),
                         ox::bits_of(e.type), ox::is_integer(e.type));
    }
    return types;
  });
  m.def("onnx_type_from_name", [](const std::string& name) {
    return static_cast<int>(ox::data_type_from_name(name));
  });
  m.def("onnx_newest_opset", [] { return ox::newest_opset; });
  m.def("onnx_quantize_linear", &onnx_quantize_linear, nb::arg("x").noconvert(),
        nb::arg("x_type"), nb::arg("x_shape"), nb::arg("scale").noconvert(),
        nb::arg("scale_type"), nb::arg("scale_shape"), nb::arg("zero").none(),
        nb::arg("zero_type"), nb::arg("axis"), nb::arg("block_size"), nb::arg("saturate"),
        nb::arg("output_dtype"), nb::arg("precision"), nb::arg("opset"),
        nb::arg("out").noconvert());
  m.def("onnx_dequantize_linear", &onnx_dequantize_linear, nb::arg("x").noconvert(),
        nb::arg("x_type"), nb::arg("x_shape"), nb::arg("scale").noconvert(),
        nb::arg("scale_type"), nb::arg("scale_shape"), nb::arg("zero").none(),
        nb::arg("axis"), nb::arg("block_size"), nb::arg("output_dtype"), nb::arg("opset"),
        nb::arg("out").noconvert());
  m.def("onnx_cast", &onnx_cast, nb::arg("x").noconvert(), nb::arg("x_type"),
        nb::arg("x_shape"), nb::arg("to"), nb::arg("saturate"), nb::arg("round_mode"),
        nb::arg("opset"), nb::arg("out").noconvert());
}
