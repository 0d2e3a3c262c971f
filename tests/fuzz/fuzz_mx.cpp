// Fuzz target: MX quantize and dequantize (mf::mx::quantize / dequantize,
// which take the AVX-512 or AVX2 kernels where the machine has them) on every
// ISA against the scalar blocks (mf::mx::scalar), byte for byte and
// bit for bit. The first input byte picks the format and the scale rounding;
// the rest is float32 bit patterns (any length: partial last blocks too) for
// quantize, and the same bytes as scales + elements for dequantize.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/mx.hpp>

namespace {

constexpr mf::target::isa all_isas[] = {mf::target::isa::scalar, mf::target::isa::avx2,
                                      mf::target::isa::avx512, mf::target::isa::neon};

template <class Fmt>
void check(const std::uint8_t* data, std::size_t size, mf::mx::scale_rounding mode) {
  constexpr std::size_t k = Fmt::block_size;
  const std::size_t n = size / sizeof(float);
  if (n == 0) return;
  std::vector<float> in(n);
  std::memcpy(in.data(), data, n * sizeof(float));
  const std::size_t blocks = (n + k - 1) / k;
  std::vector<std::uint8_t> scales(blocks), elements(blocks * Fmt::element_bytes);
  std::vector<std::uint8_t> want_scales(blocks), want_elements(blocks * Fmt::element_bytes);
  mf::mx::scalar::quantize<Fmt>(in.data(), n, want_scales.data(), want_elements.data(),
                                        mode);
  // Dequantize input: the raw bytes as scales, then elements.
  std::vector<std::uint8_t> raw_scales(blocks), raw_elements(blocks * Fmt::element_bytes);
  for (std::size_t i = 0; i < raw_scales.size(); ++i) raw_scales[i] = data[i % size];
  for (std::size_t i = 0; i < raw_elements.size(); ++i) raw_elements[i] = data[(i * 7 + 3) % size];
  std::vector<float> out(n), want_out(n);
  mf::mx::scalar::dequantize<Fmt>(raw_scales.data(), raw_elements.data(), n,
                                          want_out.data());
  for (const mf::target::isa isa : all_isas) {
    if (!mf::target::isa_supported(isa)) continue;
    mf::target::set_isa(isa);
    mf::mx::quantize<Fmt>(in.data(), scales.data(), elements.data(), n, mode);
    if (scales != want_scales) std::abort();
    // The last block's unused element bytes are not compared (a partial
    // block leaves them as they were).
    const std::size_t used = (n / k) * Fmt::element_bytes +
                             ((n % k) * Fmt::element_bits + 7) / 8;
    if (std::memcmp(elements.data(), want_elements.data(), used) != 0) std::abort();
    mf::mx::dequantize<Fmt>(raw_scales.data(), raw_elements.data(), out.data(), n);
    if (std::memcmp(out.data(), want_out.data(), n * sizeof(float)) != 0) std::abort();
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 2) return 0;
  const std::uint8_t control = data[0];
  const auto mode = static_cast<mf::mx::scale_rounding>((control >> 4) % 3u);
  switch (control & 7u) {
    case 0: case 5: check<mf::mx::mxfp8_e4m3>(data + 1, size - 1, mode); break;
    case 1: case 6: check<mf::mx::mxfp4>(data + 1, size - 1, mode); break;
    case 2: check<mf::mx::mxfp8_e5m2>(data + 1, size - 1, mode); break;
    case 3: check<mf::mx::mxfp6_e2m3>(data + 1, size - 1, mode); break;
    case 4: check<mf::mx::mxfp6_e3m2>(data + 1, size - 1, mode); break;
    default: check<mf::mx::mxint8>(data + 1, size - 1, mode); break;
  }
  mf::target::set_isa(mf::target::isa::scalar);
  return 0;
}
