// Fuzz target: every bulk kernel the machine has (scalar, AVX2, AVX-512,
// NEON) against the scalar conversion, element by element: encode, decode
// (of the encodings and of raw bytes) and the stochastic encode. The input is
// float32 bit patterns; its first byte picks the format, rounding mode,
// overflow mode and a misaligned start, so every lane position and tail
// length is reached.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>

namespace {

constexpr mf::bulk::isa all_isas[] = {mf::bulk::isa::scalar, mf::bulk::isa::avx2,
                                      mf::bulk::isa::avx512, mf::bulk::isa::neon};

template <class Fmt>
void check(const float* in, std::size_t n, mf::rounding mode, mf::overflow overflow,
           const mf::stochastic_rounding& sr) {
  using storage = typename Fmt::storage_type;
  std::vector<storage> codes(n);
  std::vector<float> decoded(n);
  // The input's bytes as codes of the format, for decode.
  std::vector<storage> raw(n);
  if (n != 0) std::memcpy(raw.data(), in, n * sizeof(storage));
  for (const mf::bulk::isa isa : all_isas) {
    if (!mf::bulk::isa_supported(isa)) continue;
    mf::bulk::set_isa(isa);
    mf::bulk::encode<Fmt>(in, codes.data(), n, mf::conversion::with(mode, overflow));
    for (std::size_t i = 0; i < n; ++i) {
      if (codes[i] != mf::round_to<Fmt>(in[i], mode, overflow).bits()) std::abort();
    }
    // Decode what was encoded and the raw input bytes as codes (bits above
    // the format's width are ignored, as in from_bits).
    mf::bulk::decode<Fmt>(codes.data(), decoded.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      const float expected = static_cast<float>(Fmt::from_bits(codes[i]));
      if (std::memcmp(&expected, &decoded[i], sizeof expected) != 0) std::abort();
    }
    mf::bulk::decode<Fmt>(raw.data(), decoded.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      const float expected = static_cast<float>(Fmt::from_bits(raw[i]));
      if (std::memcmp(&expected, &decoded[i], sizeof expected) != 0) std::abort();
    }
    // Stochastic rounding: element i uses stochastic_random_bits(seed, offset + i, bits).
    mf::bulk::encode<Fmt>(in, codes.data(), n,
                          mf::conversion::stochastic(sr).with_overflow(overflow));
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t random =
          mf::stochastic_random_bits(sr.seed, sr.offset + i, sr.random_bits);
      if (codes[i] !=
          mf::round_to_stochastic<Fmt>(in[i], random, overflow, sr.random_bits).bits()) {
        std::abort();
      }
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size < 1) return 0;
  const std::uint8_t control = data[0];
  const std::size_t offset = (control >> 6) & 3u;  // misalign the float array
  const std::size_t n = (size - 1) / sizeof(float);
  std::vector<float> storage(n + 4);
  std::memcpy(storage.data() + offset, data + 1, n * sizeof(float));
  const float* in = storage.data() + offset;
  const auto mode = static_cast<mf::rounding>((control >> 4) & 3u);
  const mf::overflow overflow =
      (control & 8u) != 0 ? mf::overflow::saturating : mf::overflow::non_saturating;
  // Seed, offset and width of the stochastic run from the data itself: the
  // width cycles through 1..32 (packed 8- and 16-bit lanes and full words),
  // the offset starts the stream mid-word.
  const mf::stochastic_rounding sr{size * 0x9E3779B97F4A7C15u, size % 7u,
                                         static_cast<int>(1 + size % 32u)};
  switch (control & 7u) {
    case 0: check<mf::e4m3fn>(in, n, mode, overflow, sr); break;
    case 1: check<mf::e5m2>(in, n, mode, overflow, sr); break;
    case 2: check<mf::e4m3fnuz>(in, n, mode, overflow, sr); break;
    case 3: check<mf::e2m1fn>(in, n, mode, overflow, sr); break;
    case 4: check<mf::e8m0fnu>(in, n, mode, overflow, sr); break;
    case 5: check<mf::e3m2fn>(in, n, mode, overflow, sr); break;
    case 6: check<mf::bfloat16>(in, n, mode, overflow, sr); break;
    default: check<mf::binary16>(in, n, mode, overflow, sr); break;
  }
  mf::bulk::set_isa(mf::bulk::isa::scalar);
  return 0;
}
