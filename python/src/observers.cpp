// Streaming calibration (mf::calibration::abs_histogram, observe_channels,
// docs/scaling.md "Static calibration") for Python: one observer, or one
// per channel, fed batch by batch, then calibrated on the histograms. Each
// call is one call of the C++ entry on the array's own buffer, with the GIL
// released; the Python layer has checked the shapes and the names.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include <minifloat/calibration.hpp>
#include <minifloat/minifloat.hpp>

#include "common.hpp"

namespace minifloat_python {

namespace {

namespace cal = mf::calibration;

// (scale, sse, mse, sqnr_db, saturated_fraction, flushed_fraction), as
// core.cpp's calibrate returns them.
using calibration_row = std::tuple<float, double, double, double, double, double>;
// (finite_count, zeros, nans, infs, amax).
using count_row = std::tuple<std::uint64_t, std::uint64_t, std::uint64_t, std::uint64_t, float>;

class observers {
 public:
  // per_channel false: one observer of every value; else `channels`
  // observers along `axis` (0 rows, 1 columns).
  observers(bool per_channel, std::size_t channels, int axis)
      : per_channel_(per_channel), axis_(axis), histograms_(per_channel ? channels : 1) {
    if (axis != 0 && axis != 1) throw nb::value_error("channel axis id out of range");
  }

  void observe(const in_array& x, std::size_t rows, std::size_t cols) {
    check_itemsize("x", x.itemsize(), sizeof(float));
    if (x.size() != rows * cols) throw nb::value_error("x: size differs from rows x columns");
    const auto axis = axis_ == 0 ? mf::scaling::channel_axis::rows
                                 : mf::scaling::channel_axis::columns;
    if (per_channel_ && mf::scaling::channel_count(rows, cols, axis) != histograms_.size()) {
      throw nb::value_error("x: channel count differs from the observers'");
    }
    const auto* in = static_cast<const float*>(x.data());
    nb::gil_scoped_release unlocked;
    if (per_channel_) {
      cal::observe_channels(in, rows, cols, axis, histograms_);
    } else {
      histograms_[0].observe(in, rows * cols);
    }
  }

  void merge(const observers& other) {
    if (other.histograms_.size() != histograms_.size()) {
      throw nb::value_error("other: channel count differs");
    }
    for (std::size_t i = 0; i < histograms_.size(); ++i) histograms_[i].merge(other.histograms_[i]);
  }

  std::vector<count_row> counts() const {
    std::vector<count_row> rows;
    for (const cal::abs_histogram& h : histograms_) {
      rows.emplace_back(h.finite_count(), h.zeros(), h.nans(), h.infs(), h.amax());
    }
    return rows;
  }

  // method: mf::calibration::method (the histogram's model; no data).
  std::vector<calibration_row> calibrate(int format, int method, double percentile,
                                         bool power_of_two) const {
    if (method < 0 || method > 3) throw nb::value_error("calibration method id out of range");
    cal::calibration_options o;
    o.how = static_cast<cal::method>(method);
    o.percentile = percentile;
    o.power_of_two = power_of_two;
    for (std::size_t i = 0; i < histograms_.size(); ++i) {
      if (histograms_[i].finite_count() == 0) {
        throw nb::value_error(("no finite values observed" +
                               (per_channel_ ? " in channel " + std::to_string(i) : std::string()) +
                               ": nothing to calibrate (NaN and Inf do not move the scale)")
                                  .c_str());
      }
    }
    std::vector<calibration_row> results(histograms_.size());
    visit_format(format, [&](auto t) {
      using T = decltype(t);
      if constexpr (!T::format::has_zero) {
        throw nb::value_error("fmt: the format has no zero; calibration needs one");
      } else {
        nb::gil_scoped_release unlocked;
        for (std::size_t i = 0; i < histograms_.size(); ++i) {
          const cal::calibration_result c = cal::calibrate<T>(histograms_[i], o);
          results[i] = {c.scale, c.cost.sse, c.cost.mse, c.cost.sqnr_db,
                        c.cost.saturated_fraction, c.cost.flushed_fraction};
        }
      }
    });
    return results;
  }

 private:
  bool per_channel_;
  int axis_;
  std::vector<cal::abs_histogram> histograms_;
};

}  // namespace

void bind_observers(nb::module_& m) {
  nb::class_<observers>(m, "Observers")
      .def(nb::init<bool, std::size_t, int>(), nb::arg("per_channel"), nb::arg("channels"),
           nb::arg("axis"))
      .def("observe", &observers::observe, nb::arg("x").noconvert(), nb::arg("rows"),
           nb::arg("cols"))
      .def("merge", &observers::merge, nb::arg("other"))
      .def("counts", &observers::counts)
      .def("calibrate", &observers::calibrate, nb::arg("format"), nb::arg("method"),
           nb::arg("percentile"), nb::arg("power_of_two"));
}

}  // namespace minifloat_python
