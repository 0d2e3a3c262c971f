// The bulk, MX and scaling headers under a strict consumer's warnings
// (CMakeLists.txt), header-only, so that every kernel they instantiate is
// compiled here: the flags and the reason are those of strict_warnings.cpp.
// Exit status 0 when the round trips give the values back.
#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>
#include <minifloat/mx.hpp>
#include <minifloat/scaling.hpp>

#include <cstddef>
#include <vector>

int main() {
  constexpr std::size_t n = 256;
  std::vector<float> x(n), y(n);
  // Multiples of 1/4 below 2: exact in e4m3fn, in an MXFP8 block (amax
  // below 2 puts the scale at 2^-8, so every element is below 448), and
  // after a per-tensor scale to within e4m3fn's relative step, 1/8.
  for (std::size_t i = 0; i < n; ++i) x[i] = static_cast<float>(i % 8) * 0.25f;
  std::vector<mf::e4m3fn> q(n);
  mf::bulk::encode<mf::e4m3fn>(x.data(), q.data(), n);
  mf::bulk::decode<mf::e4m3fn>(q.data(), y.data(), n);
  bool ok = x == y;
  mf::bulk::encode<mf::e4m3fn>(x.data(), q.data(), n, mf::conversion::stochastic({7, 0, 32}));
  mf::bulk::decode<mf::e4m3fn>(q.data(), y.data(), n);
  ok = ok && x == y;  // every value is exact in e4m3fn: stochastic rounding keeps it
  std::vector<mf::mx::block<mf::mx::mxfp8_e4m3>> blocks(n / 32);
  mf::mx::quantize_blocks<mf::mx::mxfp8_e4m3>(x.data(), blocks.data(), blocks.size());
  mf::mx::dequantize_blocks<mf::mx::mxfp8_e4m3>(blocks.data(), y.data(), blocks.size());
  ok = ok && x == y;
  const float scale_inv = mf::scaling::quantize_per_tensor<mf::e4m3fn>(x.data(), q.data(), n);
  mf::scaling::dequantize_per_tensor<mf::e4m3fn>(q.data(), y.data(), n, scale_inv);
  for (std::size_t i = 0; i < n; ++i) ok = ok && y[i] - x[i] <= 0.125f * x[i] && x[i] - y[i] <= 0.125f * x[i];
  return ok ? 0 : 1;
}
