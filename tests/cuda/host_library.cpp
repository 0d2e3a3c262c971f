#include "host_library.hpp"

#include <minifloat/bulk.hpp>

namespace mf_cuda_test {
namespace {

const mf::conversion satfinite = mf::conversion::nearest_even().saturating();

template <class Body>
void for_format(fp8 format, Body body) {
  if (format == fp8::e4m3fn) {
    body(mf::e4m3fn{});
  } else {
    body(mf::e5m2{});
  }
}

}  // namespace

void host_encode_float(fp8 format, const float* in, std::uint8_t* out, std::size_t n) {
  for_format(format, [&](auto f) { mf::bulk::encode<decltype(f)>(in, out, n, satfinite); });
}

void host_encode_binary16(fp8 format, const std::uint16_t* in, std::uint8_t* out,
                          std::size_t n) {
  for_format(format, [&](auto f) {
    mf::bulk::encode_from_binary16<decltype(f)>(in, out, n, satfinite);
  });
}

void host_decode_binary16(fp8 format, const std::uint8_t* in, std::uint16_t* out,
                          std::size_t n) {
  for_format(format,
             [&](auto f) { mf::bulk::decode_to_binary16<decltype(f)>(in, out, n); });
}

const char* host_isa() { return mf::target::isa_name(mf::target::active_isa()); }

}  // namespace mf_cuda_test
