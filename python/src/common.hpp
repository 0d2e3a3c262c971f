// What every part of minifloat._core shares: the arrays it takes, the
// run-time format id made a template argument, and the conversion options
// of the Python layer's (rounding, saturate, stochastic stream) arguments.
// The checks a Python user should read are made in minifloat/__init__.py;
// the ones here only keep a wrong call from the package's own Python layer
// from touching memory it does not own.
#pragma once
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include <minifloat/conversion.hpp>
#include <minifloat/format_registry.hpp>

namespace minifloat_python {

namespace nb = nanobind;

// Ids are mf::format_id values; the minifloats are the first
// minifloat_format_count of them.
constexpr int format_count = static_cast<int>(mf::minifloat_format_count);

// Calls f(T{}) with T the format of `id` (0 <= id < format_count).
template <class F>
inline void visit_format(int id, F&& f) {
  if (id < 0 || id >= format_count) {
    throw nb::value_error(("format id " + std::to_string(id) + " out of range").c_str());
  }
  mf::visit_minifloat(static_cast<mf::format_id>(id),
                      [&](auto tag) { f(typename decltype(tag)::type{}); });
}

// Arrays. The Python layer passes C-contiguous NumPy arrays of plain dtypes
// (ml_dtypes arrays viewed as uint8/uint16): no conversion is allowed here
// (.noconvert()), so an output array is always the caller's own buffer.
using in_array = nb::ndarray<nb::ro, nb::c_contig, nb::device::cpu>;
using out_array = nb::ndarray<nb::c_contig, nb::device::cpu>;

inline void check_itemsize(const char* what, std::size_t itemsize, std::size_t expected) {
  if (itemsize != expected) {
    throw nb::type_error((std::string(what) + ": elements of " + std::to_string(itemsize) +
                          " bytes, expected " + std::to_string(expected))
                             .c_str());
  }
}

inline mf::conversion make_conversion(int mode, bool saturate, bool stochastic, std::uint64_t seed,
                               std::uint64_t offset, int random_bits) {
  const mf::overflow o = saturate ? mf::overflow::saturating : mf::overflow::non_saturating;
  if (stochastic) {
    return mf::conversion::stochastic({seed, offset, random_bits}).with_overflow(o);
  }
  if (mode < 0 || mode > 3) throw nb::value_error("rounding mode id out of range");
  return mf::conversion::with(static_cast<mf::rounding>(mode), o);
}

// The parts bound from their own sources.
void bind_scaling(nb::module_& m);
void bind_packing(nb::module_& m);
void bind_observers(nb::module_& m);

}  // namespace minifloat_python
