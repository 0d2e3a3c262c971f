// Consumer of the installed minifloat::kernels: the bulk entries with the
// kernels from the library (none compiled here). Exit status 0 when the
// bulk round trip of a few values gives the scalar conversion's bits.
#include <minifloat/bulk.hpp>

#include <cstdint>

#if !MF_KERNELS_FROM_LIBRARY
#error "linking minifloat::kernels must select the compiled kernels"
#endif

int main() {
  const float in[5] = {0.3f, -448.0f, 1000.0f, 1.0e-3f, 2.5f};
  std::uint8_t codes[5];
  float out[5];
  mf::bulk::encode<mf::e4m3fn>(in, codes, 5);
  mf::bulk::decode<mf::e4m3fn>(codes, out, 5);
  for (int i = 0; i < 5; ++i) {
    const mf::e4m3fn expected(in[i]);
    if (codes[i] != expected.bits()) return 1;
    const float value = static_cast<float>(expected);
    if (!(out[i] == value || (out[i] != out[i] && value != value))) return 1;
  }
  return 0;
}
