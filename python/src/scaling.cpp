// Scaled quantization (mf::scaling, docs/scaling.md) for Python: amax of a
// tensor and of each column (amax, column_amax), the scale of an amax
// (compute_scale), per-tensor, per-channel and per-block
// quantize / dequantize of float32 tensors into a format's encodings, and
// delayed scaling. Each call is one call of the C++ entry on the arrays'
// own buffers, with the GIL released; the Python layer has checked the
// shapes, the names and the scales.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/unique_ptr.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

#include <minifloat/minifloat.hpp>
#include <minifloat/scaling/compute_scale.hpp>
#include <minifloat/scaling/delayed_scaling.hpp>
#include <minifloat/scaling/quantize.hpp>

#include "common.hpp"

namespace minifloat_python {

namespace {

namespace sc = mf::scaling;

// The conversion and scale options of every quantize entry, as the Python
// layer hands them over.
struct quantize_fields {
  float margin = 0.0f;
  bool power_of_two = false;
  float fallback = 1.0f;
  int mode = 0;
  bool saturate = true;
  bool stochastic = false;
  std::uint64_t seed = 0;
  std::uint64_t offset = 0;
  int random_bits = mf::stochastic_default_bits;
};

sc::scale_options scale_options_of(float margin, bool power_of_two, float fallback) {
  sc::scale_options s;
  s.margin = margin;
  s.power_of_two = power_of_two;
  s.fallback = fallback;
  return s;
}

sc::quantize_options options_of(const quantize_fields& f) {
  sc::quantize_options o;
  o.scale = scale_options_of(f.margin, f.power_of_two, f.fallback);
  o.conversion = make_conversion(f.mode, f.saturate, f.stochastic, f.seed, f.offset,
                                 f.random_bits);
  return o;
}

sc::channel_axis axis_of(int axis) {
  if (axis != 0 && axis != 1) throw nb::value_error("channel axis id out of range");
  return axis == 0 ? sc::channel_axis::rows : sc::channel_axis::columns;
}

const float* floats_of(const in_array& a, std::size_t count, const char* what) {
  check_itemsize(what, a.itemsize(), sizeof(float));
  if (a.size() != count) {
    throw nb::value_error((std::string(what) + ": " + std::to_string(a.size()) +
                           " values, expected " + std::to_string(count))
                              .c_str());
  }
  return static_cast<const float*>(a.data());
}

float* floats_of(out_array& a, std::size_t count, const char* what) {
  check_itemsize(what, a.itemsize(), sizeof(float));
  if (a.size() != count) {
    throw nb::value_error((std::string(what) + ": " + std::to_string(a.size()) +
                           " values, expected " + std::to_string(count))
                              .c_str());
  }
  return static_cast<float*>(a.data());
}

template <class T>
typename T::storage_type* codes_of(out_array& q, std::size_t count) {
  check_itemsize("out", q.itemsize(), sizeof(typename T::storage_type));
  if (q.size() != count) throw nb::value_error("out: element count differs from x's");
  return static_cast<typename T::storage_type*>(q.data());
}

template <class T>
const typename T::storage_type* codes_of(const in_array& q, std::size_t count) {
  check_itemsize("q", q.itemsize(), sizeof(typename T::storage_type));
  if (q.size() != count) throw nb::value_error("q: element count differs from out's");
  return static_cast<const typename T::storage_type*>(q.data());
}

sc::amax_nan nan_of(bool finite_only) {
  return finite_only ? sc::amax_nan::finite_only : sc::amax_nan::propagate;
}

double amax(const in_array& x, bool finite_only) {
  const std::size_t n = x.size();
  const float* in = floats_of(x, n, "x");
  float a = 0.0f;
  {
    nb::gil_scoped_release unlocked;
    a = sc::amax(in, n, nan_of(finite_only));
  }
  return static_cast<double>(a);
}

void column_amax(const in_array& x, out_array& column_amax, std::size_t rows, std::size_t cols,
                 bool finite_only) {
  const float* in = floats_of(x, rows * cols, "x");
  float* out = floats_of(column_amax, cols, "out");
  nb::gil_scoped_release unlocked;
  sc::column_amax(in, out, rows, cols, nan_of(finite_only));
}

double compute_scale(int format, float amax, float margin, bool power_of_two, float fallback) {
  float scale = 0.0f;
  visit_format(format, [&](auto t) {
    scale = sc::compute_scale<decltype(t)>(amax, scale_options_of(margin, power_of_two, fallback));
  });
  return static_cast<double>(scale);
}

// Returns scale_inv. `given`: quantize with `scale` (quantize_per_tensor_with_scale).
double quantize_per_tensor(const in_array& x, out_array& q, int format, const quantize_fields& f,
                           bool given, float scale) {
  const std::size_t n = x.size();
  const float* in = floats_of(x, n, "x");
  const sc::quantize_options o = options_of(f);
  float scale_inv = 0.0f;
  visit_format(format, [&](auto t) {
    using T = decltype(t);
    auto* out = codes_of<T>(q, n);
    nb::gil_scoped_release unlocked;
    scale_inv = given ? sc::quantize_per_tensor_with_scale<T>(in, out, n, scale, o)
                      : sc::quantize_per_tensor<T>(in, out, n, o);
  });
  return static_cast<double>(scale_inv);
}

void dequantize_per_tensor(const in_array& q, int format, float scale_inv, out_array& y) {
  const std::size_t n = y.size();
  float* out = floats_of(y, n, "out");
  visit_format(format, [&](auto t) {
    using T = decltype(t);
    const auto* in = codes_of<T>(q, n);
    nb::gil_scoped_release unlocked;
    sc::dequantize_per_tensor<T>(in, out, n, scale_inv);
  });
}

// `scales`: None (each channel's from its amax) or the given scales.
void quantize_per_channel(const in_array& x, const nb::object& scales, out_array& q,
                          out_array& scale_inv, std::size_t rows, std::size_t cols, int axis,
                          int format, const quantize_fields& f) {
  const sc::channel_axis a = axis_of(axis);
  const std::size_t channels = sc::channel_count(rows, cols, a);
  const float* in = floats_of(x, rows * cols, "x");
  float* inv = floats_of(scale_inv, channels, "scale_inv");
  const float* given = nullptr;
  in_array given_array;
  if (!scales.is_none()) {
    given_array = nb::cast<in_array>(scales);
    given = floats_of(given_array, channels, "scales");
  }
  const sc::quantize_options o = options_of(f);
  visit_format(format, [&](auto t) {
    using T = decltype(t);
    auto* out = codes_of<T>(q, rows * cols);
    nb::gil_scoped_release unlocked;
    if (given != nullptr) {
      sc::quantize_per_channel_with_scales<T>(in, given, out, inv, rows, cols, a, o);
    } else {
      sc::quantize_per_channel<T>(in, out, inv, rows, cols, a, o);
    }
  });
}

void dequantize_per_channel(const in_array& q, const in_array& scale_inv, out_array& y,
                            std::size_t rows, std::size_t cols, int axis, int format) {
  const sc::channel_axis a = axis_of(axis);
  const float* inv = floats_of(scale_inv, sc::channel_count(rows, cols, a), "scale_inv");
  float* out = floats_of(y, rows * cols, "out");
  visit_format(format, [&](auto t) {
    using T = decltype(t);
    const auto* in = codes_of<T>(q, rows * cols);
    nb::gil_scoped_release unlocked;
    sc::dequantize_per_channel<T>(in, inv, out, rows, cols, a);
  });
}

sc::block_shape block_of(std::size_t block_rows, std::size_t block_cols) {
  if (block_rows == 0 || block_cols == 0) throw nb::value_error("block: a side of 0");
  return {block_rows, block_cols};
}

void quantize_per_block(const in_array& x, out_array& q, out_array& scale_inv, std::size_t rows,
                        std::size_t cols, std::size_t block_rows, std::size_t block_cols,
                        int format, const quantize_fields& f) {
  const sc::block_shape block = block_of(block_rows, block_cols);
  const float* in = floats_of(x, rows * cols, "x");
  float* inv = floats_of(scale_inv, sc::block_count(rows, cols, block), "scale_inv");
  const sc::quantize_options o = options_of(f);
  visit_format(format, [&](auto t) {
    using T = decltype(t);
    auto* out = codes_of<T>(q, rows * cols);
    nb::gil_scoped_release unlocked;
    sc::quantize_per_block<T>(in, out, inv, rows, cols, block, o);
  });
}

void dequantize_per_block(const in_array& q, const in_array& scale_inv, out_array& y,
                          std::size_t rows, std::size_t cols, std::size_t block_rows,
                          std::size_t block_cols, int format) {
  const sc::block_shape block = block_of(block_rows, block_cols);
  const float* inv = floats_of(scale_inv, sc::block_count(rows, cols, block), "scale_inv");
  float* out = floats_of(y, rows * cols, "out");
  visit_format(format, [&](auto t) {
    using T = decltype(t);
    const auto* in = codes_of<T>(q, rows * cols);
    nb::gil_scoped_release unlocked;
    sc::dequantize_per_block<T>(in, inv, out, rows, cols, block);
  });
}

// mf::scaling::delayed_scaling<Fmt> behind one type, the format chosen at
// run time.
class delayed_scaling_any {
 public:
  virtual ~delayed_scaling_any() = default;
  virtual float scale() const = 0;
  virtual float scale_inv() const = 0;
  virtual void record(float amax) = 0;
  virtual float reduced_amax() const = 0;
  virtual std::size_t history_length() const = 0;
};

template <class T>
class delayed_scaling_of final : public delayed_scaling_any {
 public:
  delayed_scaling_of(std::size_t history_length, sc::amax_reduction reduction,
                     sc::scale_options options)
      : s_(history_length, reduction, options) {}
  float scale() const override { return s_.scale(); }
  float scale_inv() const override { return s_.scale_inv(); }
  void record(float amax) override { s_.record(amax); }
  float reduced_amax() const override { return s_.reduced_amax(); }
  std::size_t history_length() const override { return s_.history_length(); }

 private:
  sc::delayed_scaling<T> s_;
};

std::unique_ptr<delayed_scaling_any> make_delayed_scaling(int format, std::size_t history_length,
                                                          int reduction, float margin,
                                                          bool power_of_two) {
  if (history_length == 0) throw nb::value_error("history_length: 0");
  if (reduction != 0 && reduction != 1) throw nb::value_error("amax reduction id out of range");
  const auto r = reduction == 0 ? sc::amax_reduction::max : sc::amax_reduction::most_recent;
  std::unique_ptr<delayed_scaling_any> s;
  visit_format(format, [&](auto t) {
    s = std::make_unique<delayed_scaling_of<decltype(t)>>(
        history_length, r, scale_options_of(margin, power_of_two, 1.0f));
  });
  return s;
}

}  // namespace

void bind_scaling(nb::module_& m) {
  nb::class_<quantize_fields>(m, "QuantizeFields")
      .def(nb::init<>())
      .def_rw("margin", &quantize_fields::margin)
      .def_rw("power_of_two", &quantize_fields::power_of_two)
      .def_rw("fallback", &quantize_fields::fallback)
      .def_rw("mode", &quantize_fields::mode)
      .def_rw("saturate", &quantize_fields::saturate)
      .def_rw("stochastic", &quantize_fields::stochastic)
      .def_rw("seed", &quantize_fields::seed)
      .def_rw("offset", &quantize_fields::offset)
      .def_rw("random_bits", &quantize_fields::random_bits);
  m.def("amax", &amax, nb::arg("x").noconvert(), nb::arg("finite_only"));
  m.def("column_amax", &column_amax, nb::arg("x").noconvert(), nb::arg("out").noconvert(),
        nb::arg("rows"), nb::arg("cols"), nb::arg("finite_only"));
  m.def("compute_scale", &compute_scale, nb::arg("format"), nb::arg("amax"), nb::arg("margin"),
        nb::arg("power_of_two"), nb::arg("fallback"));
  m.def("quantize_per_tensor", &quantize_per_tensor, nb::arg("x").noconvert(),
        nb::arg("q").noconvert(), nb::arg("format"), nb::arg("fields"), nb::arg("given"),
        nb::arg("scale"));
  m.def("dequantize_per_tensor", &dequantize_per_tensor, nb::arg("q").noconvert(),
        nb::arg("format"), nb::arg("scale_inv"), nb::arg("out").noconvert());
  m.def("quantize_per_channel", &quantize_per_channel, nb::arg("x").noconvert(),
        nb::arg("scales").none(), nb::arg("q").noconvert(), nb::arg("scale_inv").noconvert(),
        nb::arg("rows"), nb::arg("cols"), nb::arg("axis"), nb::arg("format"), nb::arg("fields"));
  m.def("dequantize_per_channel", &dequantize_per_channel, nb::arg("q").noconvert(),
        nb::arg("scale_inv").noconvert(), nb::arg("out").noconvert(), nb::arg("rows"),
        nb::arg("cols"), nb::arg("axis"), nb::arg("format"));
  m.def("quantize_per_block", &quantize_per_block, nb::arg("x").noconvert(),
        nb::arg("q").noconvert(), nb::arg("scale_inv").noconvert(), nb::arg("rows"),
        nb::arg("cols"), nb::arg("block_rows"), nb::arg("block_cols"), nb::arg("format"),
        nb::arg("fields"));
  m.def("dequantize_per_block", &dequantize_per_block, nb::arg("q").noconvert(),
        nb::arg("scale_inv").noconvert(), nb::arg("out").noconvert(), nb::arg("rows"),
        nb::arg("cols"), nb::arg("block_rows"), nb::arg("block_cols"), nb::arg("format"));
  nb::class_<delayed_scaling_any>(m, "DelayedScalingCore")
      .def("scale", &delayed_scaling_any::scale)
      .def("scale_inv", &delayed_scaling_any::scale_inv)
      .def("record", &delayed_scaling_any::record, nb::arg("amax"))
      .def("reduced_amax", &delayed_scaling_any::reduced_amax)
      .def("history_length", &delayed_scaling_any::history_length);
  m.def("make_delayed_scaling", &make_delayed_scaling, nb::arg("format"),
        nb::arg("history_length"), nb::arg("reduction"), nb::arg("margin"),
        nb::arg("power_of_two"));
}

}  // namespace minifloat_python
