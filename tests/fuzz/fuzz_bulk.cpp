// Fuzz target: every bulk kernel the machine has (scalar, AVX2, AVX-512,
// NEON) against the independent reference of tests/reference/ (the format as
// runtime parameters, a table of its values; no library code), element by
// element: encode, decode (of the encodings and of raw bytes) and the
// stochastic encode. Not against mf::round_to: the scalar kernel set calls
// the same rounding function, so that comparison would be a self-comparison.
// The input is float32 bit patterns; its first byte picks the format,
// rounding mode, overflow mode and a misaligned start, so every lane
// position and tail length is reached.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>

#include "reference/reference.hpp"

namespace {

constexpr mf::target::isa all_isas[] = {mf::target::isa::scalar, mf::target::isa::avx2,
                                      mf::target::isa::avx512, mf::target::isa::neon};

mfref::round_mode reference_mode(mf::rounding mode) {
  switch (mode) {
    case mf::rounding::nearest_even: return mfref::round_mode::nearest_even;
    case mf::rounding::toward_zero: return mfref::round_mode::toward_zero;
    case mf::rounding::toward_positive: return mfref::round_mode::toward_positive;
    case mf::rounding::toward_negative: return mfref::round_mode::toward_negative;
  }
  std::abort();
}

// The float32 bits of a decoded encoding: the value, or the quiet NaN with
// the sign the specification gives it.
std::uint32_t decoded_bits(const mfref::reference& ref, unsigned code) {
  const mfref::decoded d = ref.decode(code & ((1u << ref.width()) - 1u));
  if (d.cls == mfref::value_class::nan) return std::signbit(d.value) ? 0xFFC00000u : 0x7FC00000u;
  const float f = static_cast<float>(d.value);
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

template <class Fmt>
void check(const mfref::reference& ref, const float* in, std::size_t n, mf::rounding mode,
           mf::overflow overflow, const mf::stochastic_rounding& sr) {
  using storage = typename Fmt::storage_type;
  const mfref::overflow_mode ref_overflow = overflow == mf::overflow::saturating
                                                ? mfref::overflow_mode::saturating
                                                : mfref::overflow_mode::non_saturating;
  std::vector<storage> codes(n);
  std::vector<float> decoded(n);
  // The input's bytes as codes of the format, for decode.
  std::vector<storage> raw(n);
  if (n != 0) std::memcpy(raw.data(), in, n * sizeof(storage));
  const auto same_bits = [](std::uint32_t expected, float got) {
    return std::memcmp(&expected, &got, sizeof got) == 0;
  };
  for (const mf::target::isa isa : all_isas) {
    if (!mf::target::isa_supported(isa)) continue;
    mf::target::set_isa(isa);
    mf::bulk::encode<Fmt>(in, codes.data(), n, mf::conversion::with(mode, overflow));
    for (std::size_t i = 0; i < n; ++i) {
      if (codes[i] != ref.encode(in[i], reference_mode(mode), ref_overflow)) std::abort();
    }
    // Decode what was encoded and the raw input bytes as codes (bits above
    // the format's width are ignored, as in from_bits).
    mf::bulk::decode<Fmt>(codes.data(), decoded.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!same_bits(decoded_bits(ref, codes[i]), decoded[i])) std::abort();
    }
    mf::bulk::decode<Fmt>(raw.data(), decoded.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      if (!same_bits(decoded_bits(ref, raw[i]), decoded[i])) std::abort();
    }
    // Stochastic rounding: element i uses stochastic_random_bits(seed, offset + i, bits).
    mf::bulk::encode<Fmt>(in, codes.data(), n,
                          mf::conversion::stochastic(sr).with_overflow(overflow));
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint32_t random =
          mf::stochastic_random_bits(sr.seed, sr.offset + i, sr.random_bits);
      if (codes[i] != ref.encode(in[i], mfref::round_mode::stochastic, ref_overflow, random,
                                 sr.random_bits)) {
        std::abort();
      }
    }
  }
}

// The formats as the specification's parameters (E, M, bias, kind), one
// reference each, built once.
const mfref::reference& reference_of(int which) {
  static const mfref::reference refs[] = {
      mfref::reference({"e4m3fn", 4, 3, 7, mfref::kind::fn}),
      mfref::reference({"e5m2", 5, 2, 15, mfref::kind::ieee}),
      mfref::reference({"e4m3fnuz", 4, 3, 8, mfref::kind::fnuz}),
      mfref::reference({"e2m1fn", 2, 1, 1, mfref::kind::finite}),
      mfref::reference({"e8m0fnu", 8, 0, 127, mfref::kind::fnu}),
      mfref::reference({"e3m2fn", 3, 2, 3, mfref::kind::finite}),
      mfref::reference({"bfloat16", 8, 7, 127, mfref::kind::ieee}),
      mfref::reference({"binary16", 5, 10, 15, mfref::kind::ieee}),
  };
  return refs[which];
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
  const int which = static_cast<int>(control & 7u);
  const mfref::reference& ref = reference_of(which);
  switch (which) {
    case 0: check<mf::e4m3fn>(ref, in, n, mode, overflow, sr); break;
    case 1: check<mf::e5m2>(ref, in, n, mode, overflow, sr); break;
    case 2: check<mf::e4m3fnuz>(ref, in, n, mode, overflow, sr); break;
    case 3: check<mf::e2m1fn>(ref, in, n, mode, overflow, sr); break;
    case 4: check<mf::e8m0fnu>(ref, in, n, mode, overflow, sr); break;
    case 5: check<mf::e3m2fn>(ref, in, n, mode, overflow, sr); break;
    case 6: check<mf::bfloat16>(ref, in, n, mode, overflow, sr); break;
    default: check<mf::binary16>(ref, in, n, mode, overflow, sr); break;
  }
  mf::target::set_isa(mf::target::isa::scalar);
  return 0;
}
