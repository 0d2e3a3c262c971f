// The bulk conversions from the other sources (sources.hpp) give the bits
// of the scalar path, mf::round_to, for every ISA this machine has (in each
// test's name), every format and mode: doubles on a structured set (including the inputs where
// rounding through float to nearest would be wrong) and random doubles;
// every binary16 and bfloat16 bit pattern; every pattern of every format
// into every other; decode to binary16/bfloat16, exact where documented.
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <sstream>

#include "support/bulk_helpers.hpp"
#include "support/bulk_entries.hpp"

namespace {

using namespace bulk_test;


template <class Fmt>
std::vector<typename Fmt::storage_type> every_pattern() {
  std::vector<typename Fmt::storage_type> v(std::size_t{1} << Fmt::format::bits);
  for (std::size_t b = 0; b < v.size(); ++b) {
    v[b] = static_cast<typename Fmt::storage_type>(b);
  }
  return v;
}

// Compares a bulk result with the expected bits; reports the first difference.
template <class S, class Describe>
void expect_same(const std::vector<S>& got, const std::vector<S>& expected,
                 Describe&& describe) {
  const long long at = first_difference(got.data(), expected.data(), got.size());
  const std::size_t k = at < 0 ? 0 : static_cast<std::size_t>(at);
  ASSERT_LT(at, 0) << describe(k) << ": got 0x" << std::hex << +got[k]
                   << ", expected 0x" << +expected[k];
}

// ---- double ---------------------------------------------------------------

// Every finite value and midpoint of the format, each with double neighbours
// up to 3 ulps away and float-sized steps (where rounding through float to
// nearest would land on the midpoint), both signs; beyond max finite; the
// float range's edges and double-only magnitudes; specials; random doubles
// with exponents from -160 to 140.
template <class Fmt>
std::vector<double> double_inputs() {
  using F = typename Fmt::format;
  std::set<double> values;
  for (unsigned b = 0; b < (1u << F::bits); ++b) {
    const float v = static_cast<float>(
        Fmt::from_bits(static_cast<typename Fmt::storage_type>(b)));
    if (std::isfinite(v)) values.insert(static_cast<double>(v));
  }
  std::vector<double> sorted(values.begin(), values.end());
  std::vector<double> points = sorted;
  for (std::size_t i = 0; i + 1 < sorted.size(); ++i) {
    points.push_back((sorted[i] + sorted[i + 1]) / 2);
  }
  const double max_value = sorted.back();
  const double ulp = std::ldexp(1.0, F::max_exponent - F::mantissa_bits);
  for (double p : {max_value + ulp / 2, max_value + ulp, 2 * max_value}) {
    points.push_back(p);
  }
  std::vector<double> out;
  const auto add = [&](double d) {
    out.push_back(d);
    out.push_back(-d);
  };
  for (double p : points) {
    add(p);
    double up = p, down = p;
    for (int k = 0; k < 3; ++k) {
      up = std::nextafter(up, HUGE_VAL);
      down = std::nextafter(down, -HUGE_VAL);
      add(up);
      add(down);
    }
    // Half a float ulp off: a double that rounds to nearest float onto p.
    const double float_half_ulp = p == 0 ? 0x1p-150 : std::ldexp(std::fabs(p), -25);
    add(p + float_half_ulp * 0.75);
    add(p - float_half_ulp * 0.75);
  }
  for (double d : {0.0, 0x1p-1074, 0x1p-1022, 0x1p-160, 0x1p-150, 0x1.8p-150,
                   0x1p-149, 0x1.0000000000001p-149, 0x1p-127, 0x1.8p-127,
                   0x1.7ffffffffffffp-127, 0x1p-126, 0x1.fffffep127,
                   0x1.fffffefffffffp127, 0x1.ffffffp127, 0x1p128, 1e300,
                   std::numeric_limits<double>::max(),
                   std::numeric_limits<double>::infinity()}) {
    add(d);
  }
  add(std::numeric_limits<double>::quiet_NaN());
  std::mt19937_64 rng(20261121);
  for (int k = 0; k < 20000; ++k) {
    const std::uint64_t mantissa = rng() & 0x000FFFFFFFFFFFFFull;
    const std::uint64_t exponent = static_cast<std::uint64_t>(
        1023 - 160 + static_cast<int>(rng() % 301));
    const std::uint64_t sign = (rng() & 1u) << 63;
    double d;
    const std::uint64_t bits = sign | (exponent << 52) | mantissa;
    std::memcpy(&d, &bits, sizeof d);
    out.push_back(d);
  }
  return out;
}

TEST(BulkDoubleToFloat, RoundToOddKnownAnswers) {
  using mf::bulk::detail::double_to_float_round_to_odd;
  const auto bits = [](double d) {
    std::uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    return u;
  };
  EXPECT_EQ(double_to_float_round_to_odd(bits(1.0)), 0x3F800000u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(-1.0)), 0xBF800000u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(1.0 + 0x1p-52)), 0x3F800001u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(1.0 + 0x1p-23)), 0x3F800001u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(1.0 + 0x1p-22 + 0x1p-40)), 0x3F800003u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(0x1p-126)), 0x00800000u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(0x1p-127)), 0x00400000u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(0x1p-149)), 0x00000001u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(0x1p-150)), 0x00000001u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(0x1p-148 + 0x1p-160)), 0x00000003u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(0x1p-1074)), 0x00000001u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(-0.0)), 0x80000000u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(0x1p128)), 0x7F7FFFFFu);
  EXPECT_EQ(double_to_float_round_to_odd(bits(-1e300)), 0xFF7FFFFFu);
  EXPECT_EQ(double_to_float_round_to_odd(bits(HUGE_VAL)), 0x7F800000u);
  EXPECT_EQ(double_to_float_round_to_odd(bits(std::nan(""))) & 0x7FC00000u,
            0x7FC00000u);
}

MFT_TYPED_PER_ISA_TEST(BulkSources, EncodeDouble, mft::all_format_list, mft::format_names) {
  using Fmt = TypeParam;
  using S = typename Fmt::storage_type;
  const std::vector<double> in = double_inputs<Fmt>();
  for (mf::rounding mode : kModes) {
    for (mf::overflow ovf : kOverflows) {
      std::vector<S> expected(in.size());
      for (std::size_t k = 0; k < in.size(); ++k) {
        expected[k] = mf::round_to<Fmt>(in[k], mode, ovf).bits();
      }
      std::vector<S> got(in.size(), S{0x5A});
      mft::bulk_encode<Fmt>(in.data(), got.data(), in.size(), mf::conversion::with(mode, ovf));
      expect_same(got, expected, [&](std::size_t k) {
        std::ostringstream s;
        s << mf::target::isa_name(isa) << " " << mode_name(mode) << " saturating "
          << (ovf == mf::overflow::saturating) << " input " << std::hexfloat << in[k];
        return s.str();
      });
    }
  }
}

// ---- every pattern of one format into another -----------------------------

// Every encoding of From through convert<To, From> (raw) and encode<To>
// (an array of From objects), every mode, on the selected ISA, against
// mf::round_to.
template <class To, class From>
void check_every_pattern(const char* what) {
  using SF = typename From::storage_type;
  using ST = typename To::storage_type;
  const std::vector<SF> in = every_pattern<From>();
  std::vector<From> objects(in.size());
  for (std::size_t k = 0; k < in.size(); ++k) objects[k] = From::from_bits(in[k]);
  for (mf::rounding mode : kModes) {
    for (mf::overflow ovf : kOverflows) {
      std::vector<ST> expected(in.size());
      for (std::size_t k = 0; k < in.size(); ++k) {
        expected[k] = mf::round_to<To>(objects[k], mode, ovf).bits();
      }
      const auto describe = [&](std::size_t k) {
        std::ostringstream s;
        s << what << " " << mf::target::isa_name(mf::target::active_isa()) << " "
          << mode_name(mode) << " saturating " << (ovf == mf::overflow::saturating)
          << " source 0x" << std::hex << +in[k];
        return s.str();
      };
      std::vector<ST> got(in.size(), ST{0x5A});
      mft::bulk_convert<To, From>(in.data(), got.data(), in.size(),
                                  mf::conversion::with(mode, ovf));
      expect_same(got, expected, describe);
      std::vector<ST> got_objects(in.size(), ST{0x5A});
      mft::bulk_encode<To>(objects.data(), got_objects.data(), in.size(),
                           mf::conversion::with(mode, ovf));
      expect_same(got_objects, expected, describe);
    }
  }
}

// All 2^16 binary16 and bfloat16 patterns into the format, also through the
// raw uint16_t entry points.
MFT_TYPED_PER_ISA_TEST(BulkSources, EncodeEveryBinary16AndBfloat16Pattern, mft::all_format_list,
                       mft::format_names) {
  using Fmt = TypeParam;
  check_every_pattern<Fmt, mf::binary16>("binary16 ->");
  check_every_pattern<Fmt, mf::bfloat16>("bfloat16 ->");
  const std::vector<std::uint16_t> in = every_pattern<mf::binary16>();
  using S = typename Fmt::storage_type;
  std::vector<S> raw(in.size()), typed(in.size());
  mft::bulk_encode_from_binary16<Fmt>(in.data(), raw.data(), in.size());
  mft::bulk_convert<Fmt, mf::binary16>(in.data(), typed.data(), in.size());
  expect_same(raw, typed, [](std::size_t) { return "encode_from_binary16"; });
  mft::bulk_encode_from_bfloat16<Fmt>(in.data(), raw.data(), in.size());
  mft::bulk_convert<Fmt, mf::bfloat16>(in.data(), typed.data(), in.size());
  expect_same(raw, typed, [](std::size_t) { return "encode_from_bfloat16"; });
}

// Every pattern of every format of 8 bits or fewer into this format.
MFT_TYPED_PER_ISA_TEST(BulkSources, ConvertFromEverySmallFormat, mft::all_format_list,
                       mft::format_names) {
  using To = TypeParam;
  mft::for_each_type(mft::all_format_list{}, [](auto* from) {
    using From = std::remove_pointer_t<decltype(from)>;
    if constexpr (From::format::bits <= 8) {
      check_every_pattern<To, From>("format -> format");
    }
  });
}

// Decoding to binary16 / bfloat16 is round_to with the defaults, and exact
// (the same float back) for the formats the header lists.
MFT_TYPED_PER_ISA_TEST(BulkSources, DecodeToBinary16AndBfloat16, mft::all_format_list,
                       mft::format_names) {
  using Fmt = TypeParam;
  using F = typename Fmt::format;
  const std::vector<typename Fmt::storage_type> in = every_pattern<Fmt>();
  std::vector<std::uint16_t> half(in.size()), brain(in.size());
  mft::bulk_decode_to_binary16<Fmt>(in.data(), half.data(), in.size());
  mft::bulk_decode_to_bfloat16<Fmt>(in.data(), brain.data(), in.size());
  for (std::size_t k = 0; k < in.size(); ++k) {
    const Fmt v = Fmt::from_bits(in[k]);
    // round_to, not the constructor: binary16(binary16) is a copy, which
    // keeps a NaN payload that a conversion makes canonical.
    ASSERT_EQ(half[k], mf::round_to<mf::binary16>(v).bits())
        << mf::target::isa_name(isa) << " " << k;
    ASSERT_EQ(brain[k], mf::round_to<mf::bfloat16>(v).bits())
        << mf::target::isa_name(isa) << " " << k;
    const float x = static_cast<float>(v);
    if (std::isnan(x)) {
      EXPECT_TRUE(std::isnan(static_cast<float>(mf::binary16::from_bits(half[k]))));
      EXPECT_TRUE(std::isnan(static_cast<float>(mf::bfloat16::from_bits(brain[k]))));
      continue;
    }
    if (F::bits <= 8) {
      EXPECT_EQ(float_bits(static_cast<float>(mf::bfloat16::from_bits(brain[k]))),
                float_bits(x))
          << "bfloat16 holds every value of the 8-bit formats, 0x" << std::hex << k;
    }
    if (F::bits <= 8 && F::encoding != mf::specials::fnu) {
      EXPECT_EQ(float_bits(static_cast<float>(mf::binary16::from_bits(half[k]))),
                float_bits(x))
          << "binary16 holds every value of this format, 0x" << std::hex << k;
    }
  }
}

// Lengths around the chunk size, at an unaligned start, write exactly [0, n).
class BulkSourcesChunks : public mft::per_isa {};

TEST_P(BulkSourcesChunks, LengthsAroundTheChunkSize) {
  const std::size_t chunk = mf::bulk::detail::chunk_elements;
  std::vector<double> doubles(3 * chunk + 8);
  std::vector<std::uint8_t> bytes(doubles.size());
  for (std::size_t k = 0; k < doubles.size(); ++k) {
    doubles[k] = std::ldexp(static_cast<double>(k % 97) - 48.0, -static_cast<int>(k % 9));
    bytes[k] = static_cast<std::uint8_t>(k * 37u);
  }
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, chunk - 1, chunk, chunk + 1,
                        2 * chunk + 3, 3 * chunk}) {
    std::vector<std::uint8_t> out(n + 16, 0xA5), converted(n + 16, 0xA5);
    mft::bulk_encode<mf::e4m3fn>(doubles.data() + 1, out.data() + 1, n);
    mft::bulk_convert<mf::e5m2, mf::e4m3fn>(bytes.data() + 1, converted.data() + 1, n);
    for (std::size_t k = 0; k < out.size(); ++k) {
      if (k >= 1 && k < n + 1) {
        ASSERT_EQ(out[k], mf::e4m3fn(doubles[k]).bits()) << n << " " << k;
        ASSERT_EQ(converted[k], mf::e5m2(mf::e4m3fn::from_bits(bytes[k])).bits())
            << n << " " << k;
      } else {
        ASSERT_EQ(out[k], 0xA5) << "wrote outside, n=" << n;
        ASSERT_EQ(converted[k], 0xA5) << "wrote outside, n=" << n;
      }
    }
  }
}

MFT_INSTANTIATE_PER_ISA(BulkSourcesChunks);

}  // namespace
