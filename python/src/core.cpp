// minifloat._core: the bulk conversions of <minifloat/bulk.hpp> for Python.
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

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/format_registry.hpp>
#include <minifloat/minifloat.hpp>

namespace nb = nanobind;

namespace {

// ---------------------------------------------------------------------------
// The formats and their names: mf::format_registry (format_registry.hpp),
// the library's one table of spellings, so that Python accepts what the tool,
// the hybrid tables and the ONNX layer accept. Ids are mf::format_id values;
// the minifloats are the first minifloat_format_count of them.
// ---------------------------------------------------------------------------
constexpr int format_count = static_cast<int>(mf::minifloat_format_count);

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

// Calls f(T{}) with T the format of `id` (0 <= id < format_count).
template <class F>
void visit_format(int id, F&& f) {
  if (id < 0 || id >= format_count) {
    throw nb::value_error(("format id " + std::to_string(id) + " out of range").c_str());
  }
  mf::visit_minifloat(static_cast<mf::format_id>(id),
                      [&](auto tag) { f(typename decltype(tag)::type{}); });
}

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
// Arrays. The Python layer passes C-contiguous NumPy arrays of plain dtypes
// (ml_dtypes arrays viewed as uint8/uint16): no conversion is allowed here
// (.noconvert()), so an output array is always the caller's own buffer.
// ---------------------------------------------------------------------------
using in_array = nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>;
using out_array = nb::ndarray<nb::c_contig, nb::device::cpu>;

void check_itemsize(const char* what, std::size_t itemsize, std::size_t expected) {
  if (itemsize != expected) {
    throw nb::type_error((std::string(what) + ": elements of " + std::to_string(itemsize) +
                          " bytes, expected " + std::to_string(expected))
                             .c_str());
  }
}

std::size_t source_itemsize(int source) {
  if (source == source_float32) return sizeof(float);
  if (source == source_float64) return sizeof(double);
  std::size_t size = 0;
  visit_format(source, [&](auto t) { size = sizeof(decltype(t)); });
  return size;
}

mf::conversion make_conversion(int mode, bool saturate, bool stochastic, std::uint64_t seed,
                               std::uint64_t offset, int random_bits) {
  const mf::overflow o = saturate ? mf::overflow::saturating : mf::overflow::non_saturating;
  if (stochastic) {
    return mf::conversion::stochastic({seed, offset, random_bits}).with_overflow(o);
  }
  if (mode < 0 || mode > 3) throw nb::value_error("rounding mode id out of range");
  return mf::conversion::with(static_cast<mf::rounding>(mode), o);
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
  const mf::bulk::fused_steps steps{scale, with_amax ? &amax : nullptr};
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

}  // namespace

NB_MODULE(_core, m) {
  m.doc() = "The bulk conversions of the minifloat C++ library (internal; use minifloat).";
  m.attr("version") = MINIFLOAT_VERSION_STRING;
  m.attr("format_count") = format_count;
  m.attr("source_float32") = source_float32;
  m.attr("source_float64") = source_float64;

  m.def("format_names", [] {
    std::vector<std::tuple<std::string, int, bool>> names;
    for (const mf::format_name& row : mf::format_names) {
      if (!mf::names_a_minifloat(row.id)) continue;
      names.emplace_back(std::string(row.name), static_cast<int>(row.id),
                         (row.naming & mf::naming::canonical) != 0);
    }
    return names;
  }, "Every spelling of the minifloats in the registry, as (name, id, is the library's name).");
  m.def("typed_dtype_names", [] {
    return std::vector<std::string>(std::begin(typed_dtype_names), std::end(typed_dtype_names));
  });
  m.def("describe", [](int id) {
    nb::dict d;
    visit_format(id, [&](auto t) { d = describe<decltype(t)>(); });
    return d;
  });

  m.def("encode", &encode, nb::arg("input").noconvert(), nb::arg("source"),
        nb::arg("out").noconvert(), nb::arg("target"), nb::arg("mode"), nb::arg("saturate"),
        nb::arg("stochastic"), nb::arg("seed"), nb::arg("offset"), nb::arg("random_bits"),
        nb::arg("scale"), nb::arg("with_amax"));
  m.def("decode", &decode, nb::arg("input").noconvert(), nb::arg("source"),
        nb::arg("out").noconvert(), nb::arg("scale"));
}
