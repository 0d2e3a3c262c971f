// The bulk entries the tests call, by the names the tests use: each is the
// mf::bulk entry of the same name with the same arguments, so that a test
// checks the library through one plain call whatever it sweeps (every
// format and source type of support/formats.hpp).
//
// The test programs link minifloat::kernels (src/kernels), so these compile
// no kernel; the programs that compile the kernels themselves (the emulated
// AVX-512 tests) instantiate them here.
#pragma once

#include <cstddef>
#include <cstdint>

#include <minifloat/bulk.hpp>

namespace mft {

template <class Fmt>
using bulk_storage = typename Fmt::storage_type;

// Src: float, double or any format of the test list (support/formats.hpp).
template <class Fmt, class Src>
void bulk_encode(const Src* in, bulk_storage<Fmt>* out, std::size_t n,
                 const mf::conversion& c = {}, const mf::bulk::fused_steps& steps = {}) {
  mf::bulk::encode<Fmt>(in, out, n, c, steps);
}

template <class Fmt>
void bulk_decode(const bulk_storage<Fmt>* in, float* out, std::size_t n, float scale = 1.0f) {
  mf::bulk::decode<Fmt>(in, out, n, scale);
}

template <class To, class From>
void bulk_convert(const bulk_storage<From>* in, bulk_storage<To>* out, std::size_t n,
                  const mf::conversion& c = {}) {
  mf::bulk::convert<To, From>(in, out, n, c);
}

template <class Fmt>
void bulk_encode_from_binary16(const std::uint16_t* in, bulk_storage<Fmt>* out, std::size_t n,
                               const mf::conversion& c = {},
                               const mf::bulk::fused_steps& steps = {}) {
  mf::bulk::encode_from_binary16<Fmt>(in, out, n, c, steps);
}

template <class Fmt>
void bulk_encode_from_bfloat16(const std::uint16_t* in, bulk_storage<Fmt>* out, std::size_t n,
                               const mf::conversion& c = {},
                               const mf::bulk::fused_steps& steps = {}) {
  mf::bulk::encode_from_bfloat16<Fmt>(in, out, n, c, steps);
}

template <class Fmt>
void bulk_decode_to_binary16(const bulk_storage<Fmt>* in, std::uint16_t* out, std::size_t n) {
  mf::bulk::decode_to_binary16<Fmt>(in, out, n);
}

template <class Fmt>
void bulk_decode_to_bfloat16(const bulk_storage<Fmt>* in, std::uint16_t* out, std::size_t n) {
  mf::bulk::decode_to_bfloat16<Fmt>(in, out, n);
}

}  // namespace mft
