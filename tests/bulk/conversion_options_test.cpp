// The one bulk entry (mf::bulk::encode with an mf::conversion and
// fused_steps, decode with a scale, convert, encode_from_*) against the
// scalar definition, for every combination of rounding mode, overflow,
// stochastic stream, scale and amax, for each source type, on every ISA this
// machine runs (the ISA is the test's name). The reference is built from the
// pre-existing scalar functions (mf::round_to with a mode,
// mf::round_to_stochastic with mf::stochastic_random_bits), not from the new
// entry's own pieces.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <minifloat/bulk.hpp>

#include "support/bulk_helpers.hpp"
#include "support/bulk_entries.hpp"

namespace {

using bulk_test::available_isas;
using bulk_test::first_difference;
using bulk_test::isa_scope;

// Just over one chunk of the widening paths (512 elements), so the second
// chunk's stream position and amax merge are exercised; odd so every SIMD
// loop has a tail.
constexpr std::size_t kCount = 531;

template <class... T>
struct type_list {};

// One format of each kind of special-value encoding (NaN only; IEEE Inf and
// NaN; none, FP4; the E8M0 scale type): this test is about the options
// reaching the kernels. Every format goes through the same entry in the
// bulk, stochastic and scaling tests, and a format list of all 13 multiplied
// the compile time of this file by three (minutes per CI preset).
using Formats = type_list<mf::e4m3fn, mf::e5m2, mf::e2m1fn, mf::e8m0fnu>;

template <class F, class... T>
void for_each_type(type_list<T...>, F&& f) {
  (f(T{}), ...);
}

// One named conversion of the test grid.
struct named_conversion {
  std::string name;
  mf::conversion c;
};

std::vector<named_conversion> conversions() {
  std::vector<named_conversion> all;
  for (mf::overflow ovf : bulk_test::kOverflows) {
    const std::string o = ovf == mf::overflow::saturating ? "/saturating" : "/non_saturating";
    for (mf::rounding m : bulk_test::kModes) {
      all.push_back({bulk_test::mode_name(m) + o, mf::conversion::with(m, ovf)});
    }
    for (int bits : {32, 16, 8}) {
      all.push_back({"stochastic" + std::to_string(bits) + o,
                     mf::conversion::stochastic({0x5EEDu + static_cast<unsigned>(bits), 1000003u,
                                                 bits})
                         .with_overflow(ovf)});
    }
  }
  return all;
}

const float kScales[] = {1.0f, 0.3f, 4096.0f};

// Floats that reach every path: specials, signed zeros, float subnormals,
// the neighbourhood of each format's largest values and rounding ties, and
// random bit patterns.
std::vector<float> float_inputs() {
  std::vector<float> v = {0.0f, -0.0f, std::numeric_limits<float>::infinity(),
                          -std::numeric_limits<float>::infinity(),
                          std::numeric_limits<float>::quiet_NaN(),
                          -std::numeric_limits<float>::quiet_NaN(),
                          std::numeric_limits<float>::denorm_min(),
                          -std::numeric_limits<float>::min(), 448.0f, 464.0f, -480.0f,
                          57344.0f, 61440.0f, 6.0f, 7.0f, 0.25f, 1.125f, -3.5f, 1e-7f};
  std::mt19937 rng(12345);
  while (v.size() < kCount) {
    const std::uint32_t r = rng();
    float f;
    if (v.size() % 3 == 0) {
      // Random bits anywhere in float's range.
      std::memcpy(&f, &r, sizeof f);
    } else {
      // Magnitudes where the formats live: 2^-20 .. 2^20.
      f = std::ldexp(1.0f + static_cast<float>(r & 0xFFFFFF) / 16777216.0f,
                     static_cast<int>((r >> 24) % 41) - 20);
      if (r & 1u) f = -f;
    }
    v.push_back(f);
  }
  return v;
}

template <class Src>
std::vector<Src> inputs_of() {
  const std::vector<float> f = float_inputs();
  std::vector<Src> v(f.size());
  if constexpr (std::is_same<Src, float>::value) {
    v = f;
  } else if constexpr (std::is_same<Src, double>::value) {
    // Doubles with bits below float's precision, so rounding through a plain
    // float would differ from rounding the double.
    std::mt19937_64 rng(777);
    for (std::size_t i = 0; i < f.size(); ++i) {
      const double d = static_cast<double>(f[i]);
      v[i] = std::isfinite(d) && (i % 2 == 0) ? d * (1.0 + std::ldexp(double(rng() % 4096), -40))
                                              : d;
    }
  } else {
    // A minifloat source: every encoding of a narrow one first, then the
    // float inputs rounded into it (specials, range ends) alternating with
    // random encodings.
    using S = typename Src::storage_type;
    constexpr unsigned width = Src::format::bits;
    constexpr unsigned mask = (1u << width) - 1u;
    std::mt19937 rng(99);
    for (std::size_t i = 0; i < f.size(); ++i) {
      if (width <= 8 && i <= mask) {
        v[i] = Src::from_bits(static_cast<S>(i));
      } else if (i % 2 == 0) {
        v[i] = mf::round_to<Src>(f[i]);
      } else {
        v[i] = Src::from_bits(static_cast<S>(rng() & mask));
      }
    }
  }
  return v;
}

// The source's product with the scale, as the definition says: in float
// (every non-double source widens to float exactly), in double for doubles;
// no multiply at all for a scale of exactly 1.
template <class Src>
auto scaled_value(const Src& x, float scale) {
  if constexpr (std::is_same<Src, double>::value) {
    return scale == 1.0f ? x : x * static_cast<double>(scale);
  } else {
    const float f = static_cast<float>(x);
    return scale == 1.0f ? f : f * scale;
  }
}

template <class Fmt, class Src>
std::vector<typename Fmt::storage_type> reference(const std::vector<Src>& in,
                                                  const mf::conversion& c, float scale) {
  std::vector<typename Fmt::storage_type> out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) {
    const auto p = scaled_value(in[i], scale);
    if (c.is_stochastic) {
      const std::uint32_t word =
          mf::stochastic_random_bits(c.stream.seed, c.stream.offset + i, c.stream.random_bits);
      out[i] = mf::round_to_stochastic<Fmt>(p, word, c.on_overflow, c.stream.random_bits).bits();
    } else {
      out[i] = mf::round_to<Fmt>(p, c.mode, c.on_overflow).bits();
    }
  }
  return out;
}

// max |x| of the unscaled input: NaN (0x7FC00000) if any is NaN; a double's
// maximum rounded to float.
template <class Src>
std::uint32_t reference_amax_bits(const std::vector<Src>& in) {
  double m = 0.0;
  for (const Src& x : in) {
    double a;
    if constexpr (std::is_same<Src, double>::value) {
      a = std::fabs(x);
    } else {
      a = std::fabs(static_cast<double>(static_cast<float>(x)));
    }
    if (std::isnan(a)) return 0x7FC00000u;
    m = a > m ? a : m;
  }
  return bulk_test::float_bits(static_cast<float>(m));
}

template <class Src>
const char* source_name() {
  if constexpr (std::is_same<Src, float>::value) return "float";
  if constexpr (std::is_same<Src, double>::value) return "double";
  if constexpr (std::is_same<Src, mf::bfloat16>::value) return "bfloat16";
  if constexpr (std::is_same<Src, mf::binary16>::value) return "binary16";
  if constexpr (std::is_same<Src, mf::e5m2>::value) return "e5m2";
  return "?";
}

using mft::format_name;

template <class T>
::testing::AssertionResult same_codes(const std::vector<T>& got, const std::vector<T>& want,
                                      const std::string& what) {
  const long long i = first_difference(got.data(), want.data(), got.size());
  if (i < 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << what << ": element " << i << " is 0x" << std::hex << unsigned(got[i]) << ", want 0x"
         << unsigned(want[i]);
}

class ConversionOptions : public mft::per_isa {};

template <class Src>
void check_encode_entry() {
  const std::vector<Src> in = inputs_of<Src>();
  for_each_type(Formats{}, [&](auto format) {
    using Fmt = decltype(format);
    for (const named_conversion& nc : conversions()) {
      for (float scale : kScales) {
        const auto want = reference<Fmt>(in, nc.c, scale);
        for (bool with_amax : {false, true}) {
          const std::string what = std::string(source_name<Src>()) + " -> " +
                                   format_name<Fmt>() + ", " + nc.name + ", scale " +
                                   std::to_string(scale) + (with_amax ? ", amax" : "");
          std::vector<typename Fmt::storage_type> got(in.size());
          float amax = -1.0f;
          mft::bulk_encode<Fmt>(in.data(), got.data(), in.size(), nc.c,
                               {scale, with_amax ? &amax : nullptr});
          EXPECT_TRUE(same_codes(got, want, what));
          if (with_amax) {
            EXPECT_EQ(bulk_test::float_bits(amax), reference_amax_bits(in)) << what;
          } else {
            EXPECT_EQ(amax, -1.0f) << what;
          }
        }
      }
    }
  });
}

TEST_P(ConversionOptions, EncodeFromFloat) {
  isa_scope isa(GetParam());
  check_encode_entry<float>();
}
TEST_P(ConversionOptions, EncodeFromDouble) {
  isa_scope isa(GetParam());
  check_encode_entry<double>();
}
TEST_P(ConversionOptions, EncodeFromBfloat16) {
  isa_scope isa(GetParam());
  check_encode_entry<mf::bfloat16>();
}
TEST_P(ConversionOptions, EncodeFromBinary16) {
  isa_scope isa(GetParam());
  check_encode_entry<mf::binary16>();
}
TEST_P(ConversionOptions, EncodeFromE5m2) {
  isa_scope isa(GetParam());
  check_encode_entry<mf::e5m2>();
}

// The raw-bits entries: convert (From's encodings) and encode_from_binary16 /
// encode_from_bfloat16 equal the typed source's definition.
TEST_P(ConversionOptions, RawEncodingSources) {
  isa_scope isa(GetParam());
  const std::vector<mf::binary16> half = inputs_of<mf::binary16>();
  const std::vector<mf::bfloat16> brain = inputs_of<mf::bfloat16>();
  const std::vector<mf::e5m2> e5 = inputs_of<mf::e5m2>();
  std::vector<std::uint16_t> half_bits, brain_bits;
  std::vector<std::uint8_t> e5_bits;
  for (auto x : half) half_bits.push_back(x.bits());
  for (auto x : brain) brain_bits.push_back(x.bits());
  for (auto x : e5) e5_bits.push_back(x.bits());
  for_each_type(Formats{}, [&](auto format) {
    using Fmt = decltype(format);
    for (const named_conversion& nc : conversions()) {
      const std::string what = format_name<Fmt>() + ", " + nc.name;
      std::vector<typename Fmt::storage_type> got(kCount);
      mft::bulk_convert<Fmt, mf::e5m2>(e5_bits.data(), got.data(), kCount, nc.c);
      EXPECT_TRUE(same_codes(got, reference<Fmt>(e5, nc.c, 1.0f), "convert from e5m2, " + what));
      for (float scale : kScales) {
        float amax = -1.0f;
        mft::bulk_encode_from_binary16<Fmt>(half_bits.data(), got.data(), kCount, nc.c,
                                           {scale, &amax});
        EXPECT_TRUE(same_codes(got, reference<Fmt>(half, nc.c, scale),
                               "encode_from_binary16, " + what));
        EXPECT_EQ(bulk_test::float_bits(amax), reference_amax_bits(half)) << what;
        mft::bulk_encode_from_bfloat16<Fmt>(brain_bits.data(), got.data(), kCount, nc.c,
                                           {scale, &amax});
        EXPECT_TRUE(same_codes(got, reference<Fmt>(brain, nc.c, scale),
                               "encode_from_bfloat16, " + what));
        EXPECT_EQ(bulk_test::float_bits(amax), reference_amax_bits(brain)) << what;
      }
    }
  });
}

// decode with a scale: the exact decode times the scale, rounded to float
// once; a scale of 1 is the exact decode.
TEST_P(ConversionOptions, DecodeWithScale) {
  isa_scope isa(GetParam());
  for_each_type(Formats{}, [&](auto format) {
    using Fmt = decltype(format);
    const std::vector<Fmt> codes = inputs_of<Fmt>();
    std::vector<typename Fmt::storage_type> bits;
    for (auto x : codes) bits.push_back(x.bits());
    for (float scale : {1.0f, 0.3f, -2.5f, 1e30f}) {
      std::vector<float> got(kCount);
      mft::bulk_decode<Fmt>(bits.data(), got.data(), kCount, scale);
      std::vector<std::uint32_t> got_bits, want_bits;
      for (std::size_t i = 0; i < kCount; ++i) {
        const float exact = static_cast<float>(codes[i]);
        got_bits.push_back(bulk_test::float_bits(got[i]));
        want_bits.push_back(bulk_test::float_bits(scale == 1.0f ? exact : exact * scale));
      }
      EXPECT_TRUE(same_codes(got_bits, want_bits,
                             format_name<Fmt>() + ", scale " + std::to_string(scale)));
    }
  });
}

// The scalar entry: round_to with a conversion is round_to with its mode, or
// round_to_stochastic with the stream's word for element `offset`, and it is
// usable in constant expressions.
TEST(ConversionScalar, RoundToWithConversion) {
  static_assert(mf::round_to<mf::e4m3fn>(1000.0f, mf::conversion::nearest_even().saturating())
                        .bits() == 0x7E,
                "saturating clamps to max");
  static_assert(mf::round_to<mf::e4m3fn>(1000.0f, mf::conversion::nearest_even()).bits() == 0x7F,
                "non-saturating gives NaN");
  for (float x : float_inputs()) {
    for (mf::rounding m : bulk_test::kModes) {
      EXPECT_EQ(
          mf::round_to<mf::e5m2>(x, mf::conversion::with(m, mf::overflow::saturating)).bits(),
          mf::round_to<mf::e5m2>(x, m, mf::overflow::saturating).bits());
    }
    const mf::conversion c = mf::conversion::stochastic({9u, 123u, 8});
    EXPECT_EQ(mf::round_to<mf::e4m3fn>(x, c.at_element(5)).bits(),
              mf::round_to_stochastic<mf::e4m3fn>(x, mf::stochastic_random_bits(9u, 128u, 8),
                                                  mf::overflow::non_saturating, 8)
                  .bits());
  }
}

INSTANTIATE_TEST_SUITE_P(Isa, ConversionOptions, ::testing::ValuesIn(mft::architecture_isas()),
                         [](const ::testing::TestParamInfo<mf::target::isa>& info) {
                           return std::string(mf::target::isa_name(info.param));
                         });

}  // namespace
