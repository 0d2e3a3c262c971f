// The definitions of bulk_instances.hpp: each forwards to the mf::bulk entry
// of the same name. Included by the generated per-format translation units
// (tests/CMakeLists.txt), which then instantiate them with
// MFT_INSTANTIATE_BULK_ENTRIES, or, under MFT_BULK_INSTANCES_INLINE, by
// bulk_instances.hpp itself.
#pragma once

#include "bulk_instances.hpp"

namespace mft {

template <class Fmt, class Src>
void bulk_encode(const Src* in, bulk_storage<Fmt>* out, std::size_t n, const mf::conversion& c,
                 const mf::bulk::fused_steps& steps) {
  mf::bulk::encode<Fmt>(in, out, n, c, steps);
}

template <class Fmt>
void bulk_decode(const bulk_storage<Fmt>* in, float* out, std::size_t n, float scale) {
  mf::bulk::decode<Fmt>(in, out, n, scale);
}

template <class To, class From>
void bulk_convert(const bulk_storage<From>* in, bulk_storage<To>* out, std::size_t n,
                  const mf::conversion& c) {
  mf::bulk::convert<To, From>(in, out, n, c);
}

template <class Fmt>
void bulk_encode_from_binary16(const std::uint16_t* in, bulk_storage<Fmt>* out, std::size_t n,
                               const mf::conversion& c, const mf::bulk::fused_steps& steps) {
  mf::bulk::encode_from_binary16<Fmt>(in, out, n, c, steps);
}

template <class Fmt>
void bulk_encode_from_bfloat16(const std::uint16_t* in, bulk_storage<Fmt>* out, std::size_t n,
                               const mf::conversion& c, const mf::bulk::fused_steps& steps) {
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

// Every entry of bulk_instances.hpp whose destination (or only) format is
// mf::<name>: one expansion per generated translation unit.
#define MFT_INSTANTIATE_BULK_SOURCE(source)                                               \
  template void mft::bulk_encode<MFT_INSTANCE_FORMAT, mf::source>(                       \
      const mf::source*, mft::bulk_storage<MFT_INSTANCE_FORMAT>*, std::size_t,          \
      const mf::conversion&, const mf::bulk::fused_steps&);                              \
  template void mft::bulk_convert<MFT_INSTANCE_FORMAT, mf::source>(                      \
      const mft::bulk_storage<mf::source>*, mft::bulk_storage<MFT_INSTANCE_FORMAT>*,     \
      std::size_t, const mf::conversion&);

#define MFT_INSTANTIATE_BULK_ENTRIES()                                                    \
  template void mft::bulk_encode<MFT_INSTANCE_FORMAT, float>(                            \
      const float*, mft::bulk_storage<MFT_INSTANCE_FORMAT>*, std::size_t,               \
      const mf::conversion&, const mf::bulk::fused_steps&);                              \
  template void mft::bulk_encode<MFT_INSTANCE_FORMAT, double>(                           \
      const double*, mft::bulk_storage<MFT_INSTANCE_FORMAT>*, std::size_t,              \
      const mf::conversion&, const mf::bulk::fused_steps&);                              \
  template void mft::bulk_decode<MFT_INSTANCE_FORMAT>(                                   \
      const mft::bulk_storage<MFT_INSTANCE_FORMAT>*, float*, std::size_t, float);        \
  template void mft::bulk_encode_from_binary16<MFT_INSTANCE_FORMAT>(                     \
      const std::uint16_t*, mft::bulk_storage<MFT_INSTANCE_FORMAT>*, std::size_t,       \
      const mf::conversion&, const mf::bulk::fused_steps&);                              \
  template void mft::bulk_encode_from_bfloat16<MFT_INSTANCE_FORMAT>(                     \
      const std::uint16_t*, mft::bulk_storage<MFT_INSTANCE_FORMAT>*, std::size_t,       \
      const mf::conversion&, const mf::bulk::fused_steps&);                              \
  template void mft::bulk_decode_to_binary16<MFT_INSTANCE_FORMAT>(                       \
      const mft::bulk_storage<MFT_INSTANCE_FORMAT>*, std::uint16_t*, std::size_t);      \
  template void mft::bulk_decode_to_bfloat16<MFT_INSTANCE_FORMAT>(                       \
      const mft::bulk_storage<MFT_INSTANCE_FORMAT>*, std::uint16_t*, std::size_t);      \
  MFT_FOR_EACH_FORMAT(MFT_INSTANTIATE_BULK_SOURCE)
