// Packed FP4 / FP6 storage (mf::mx::pack / unpack, encode_packed /
// decode_packed of <minifloat/mx/packing.hpp>, docs/mx.md section 1) for
// Python: FP4 two codes per byte, the first in the low nibble; FP6 a
// little-endian bit stream, code i in bits [6i, 6i + 6). Each call is one
// call of the C++ entry on the arrays' own buffers, with the GIL released;
// the Python layer has checked the names, dtypes and sizes.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include <minifloat/minifloat.hpp>
#include <minifloat/mx/packing.hpp>

#include "common.hpp"

namespace minifloat_python {

namespace {

// Calls f(T{}) with T the 4- or 6-bit format of `id` (e2m1fn, e2m3fn,
// e3m2fn); anything else is an error of the Python layer.
template <class F>
void visit_packable(int id, F&& f) {
  bool done = false;
  visit_format(id, [&](auto t) {
    using T = decltype(t);
    if constexpr (T::format::bits == 4 || T::format::bits == 6) {
      f(t);
      done = true;
    }
  });
  if (!done) throw nb::value_error("format id: not a 4- or 6-bit format");
}

std::size_t bytes_for(int bits, std::size_t n) {
  return bits == 4 ? mf::mx::packed_bytes<4>(n) : mf::mx::packed_bytes<6>(n);
}

void check_sizes(const char* what, std::size_t have, std::size_t want) {
  if (have != want) {
    throw nb::value_error((std::string(what) + ": " + std::to_string(have) + " elements, expected " +
                           std::to_string(want))
                              .c_str());
  }
}

void pack(const in_array& codes, out_array& packed, int format) {
  check_itemsize("codes", codes.itemsize(), 1);
  check_itemsize("out", packed.itemsize(), 1);
  const std::size_t n = codes.size();
  const auto* in = static_cast<const std::uint8_t*>(codes.data());
  auto* out = static_cast<std::uint8_t*>(packed.data());
  visit_packable(format, [&](auto t) {
    using T = decltype(t);
    check_sizes("out", packed.size(), bytes_for(T::format::bits, n));
    nb::gil_scoped_release unlocked;
    mf::mx::pack<T>(in, out, n);
  });
}

void unpack(const in_array& packed, out_array& codes, int format) {
  check_itemsize("packed", packed.itemsize(), 1);
  check_itemsize("out", codes.itemsize(), 1);
  const std::size_t n = codes.size();
  const auto* in = static_cast<const std::uint8_t*>(packed.data());
  auto* out = static_cast<std::uint8_t*>(codes.data());
  visit_packable(format, [&](auto t) {
    using T = decltype(t);
    check_sizes("packed", packed.size(), bytes_for(T::format::bits, n));
    nb::gil_scoped_release unlocked;
    mf::mx::unpack<T>(in, out, n);
  });
}

void encode_packed(const in_array& x, out_array& packed, int format, int mode, bool saturate,
                   bool stochastic, std::uint64_t seed, std::uint64_t offset, int random_bits) {
  check_itemsize("x", x.itemsize(), sizeof(float));
  check_itemsize("out", packed.itemsize(), 1);
  const std::size_t n = x.size();
  const mf::conversion c = make_conversion(mode, saturate, stochastic, seed, offset, random_bits);
  const auto* in = static_cast<const float*>(x.data());
  auto* out = static_cast<std::uint8_t*>(packed.data());
  visit_packable(format, [&](auto t) {
    using T = decltype(t);
    check_sizes("out", packed.size(), bytes_for(T::format::bits, n));
    nb::gil_scoped_release unlocked;
    mf::mx::encode_packed<T>(in, out, n, c);
  });
}

void decode_packed(const in_array& packed, out_array& y, int format) {
  check_itemsize("packed", packed.itemsize(), 1);
  check_itemsize("out", y.itemsize(), sizeof(float));
  const std::size_t n = y.size();
  const auto* in = static_cast<const std::uint8_t*>(packed.data());
  auto* out = static_cast<float*>(y.data());
  visit_packable(format, [&](auto t) {
    using T = decltype(t);
    check_sizes("packed", packed.size(), bytes_for(T::format::bits, n));
    nb::gil_scoped_release unlocked;
    mf::mx::decode_packed<T>(in, out, n);
  });
}

}  // namespace

void bind_packing(nb::module_& m) {
  m.def("pack", &pack, nb::arg("codes").noconvert(), nb::arg("packed").noconvert(),
        nb::arg("format"));
  m.def("unpack", &unpack, nb::arg("packed").noconvert(), nb::arg("codes").noconvert(),
        nb::arg("format"));
  m.def("encode_packed", &encode_packed, nb::arg("x").noconvert(), nb::arg("packed").noconvert(),
        nb::arg("format"), nb::arg("mode"), nb::arg("saturate"), nb::arg("stochastic"),
        nb::arg("seed"), nb::arg("offset"), nb::arg("random_bits"));
  m.def("decode_packed", &decode_packed, nb::arg("packed").noconvert(), nb::arg("out").noconvert(),
        nb::arg("format"));
}

}  // namespace minifloat_python
