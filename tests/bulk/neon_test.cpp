// The NEON kernel set: on AArch64 it is available, chosen by default, and its
// kernels (called directly, not only through the dispatcher) give the bits of
// the independent reference model (tests/reference) whatever FPCR holds:
// every rounding direction, flush-to-zero, default-NaN. Elsewhere NEON is
// never reported as available. The cross build (preset ci-aarch64) runs this
// under qemu-user; bulk_test.cpp covers NEON like every other ISA.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <vector>

#include <minifloat/bulk.hpp>

#include "support/formats_under_test.hpp"

namespace {

#if MF_HAS_NEON_KERNELS

using mftest::AllFormats;

template <class Fmt>
class NeonKernels : public ::testing::Test {};
TYPED_TEST_SUITE(NeonKernels, AllFormats, mftest::format_names);

std::uint32_t float_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float bits_float(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

std::uint64_t read_fpcr() {
  std::uint64_t v;
  __asm__ volatile("mrs %0, fpcr" : "=r"(v) : : "memory");
  return v;
}
void write_fpcr(std::uint64_t v) {
  __asm__ volatile("msr fpcr, %0" : : "r"(v) : "memory");
}

// FPCR settings: RMode (bits 23:22) = up, down, toward zero; FZ (bit 24);
// DN (bit 25); all of them at once. 0 is the default (nearest, no FZ/DN).
constexpr std::uint64_t kRMode = 3u << 22, kFZ = 1u << 24, kDN = 1u << 25;
const std::uint64_t kFpcrSettings[] = {0,          1u << 22,   2u << 22,
                                       3u << 22,   kFZ,        kDN,
                                       kFZ | kDN | (3u << 22)};

// Sets FPCR for the lifetime of the object.
class fpcr_scope {
 public:
  explicit fpcr_scope(std::uint64_t bits) : saved_(read_fpcr()) {
    write_fpcr((saved_ & ~(kRMode | kFZ | kDN)) | bits);
  }
  ~fpcr_scope() { write_fpcr(saved_); }
  fpcr_scope(const fpcr_scope&) = delete;
  fpcr_scope& operator=(const fpcr_scope&) = delete;

 private:
  std::uint64_t saved_;
};

// Each value of the format (every one for 8-bit formats, a stride through
// the 16-bit ones), the midpoints to the next, each with its float
// neighbours, both signs; the overflow region, float subnormals, specials.
// Computed from the reference's table, not from the library.
template <class Fmt>
std::vector<float> inputs() {
  const mfref::reference& ref = mftest::reference_for<Fmt>();
  const std::vector<double>& table = ref.table();  // magnitudes + virtual next
  const std::size_t stride = table.size() > 512 ? 61 : 1;
  std::vector<float> points;
  for (std::size_t k = 0; k + 1 < table.size(); k += stride) {
    points.push_back(static_cast<float>(table[k]));
    points.push_back(static_cast<float>((table[k] + table[k + 1]) / 2));
  }
  points.push_back(static_cast<float>(table.back()));
  for (std::uint32_t u : {0x00000001u, 0x00400000u, 0x00600000u, 0x007FFFFFu,
                          0x00800000u, 0x7F7FFFFFu}) {
    points.push_back(bits_float(u));
  }
  std::vector<float> out;
  for (float p : points) {
    const std::uint32_t u = float_bits(p);
    for (std::uint32_t m : {u - 1, u, u + 1}) {
      if (m > 0x7F7FFFFFu) continue;  // wrapped below zero or past max
      out.push_back(bits_float(m));
      out.push_back(bits_float(m | 0x80000000u));
    }
  }
  for (std::uint32_t u : {0x00000000u, 0x7F800000u, 0x7F800001u, 0x7FC00000u,
                          0x7FFFFFFFu}) {
    out.push_back(bits_float(u));
    out.push_back(bits_float(u | 0x80000000u));
  }
  // A pseudo-random spread over all bit patterns.
  std::uint32_t state = 12345u;
  for (int k = 0; k < 2000; ++k) {
    state = state * 1664525u + 1013904223u;
    out.push_back(bits_float(state));
  }
  return out;
}

TEST(NeonDispatch, AvailableAndChosenByDefault) {
  EXPECT_TRUE(mf::target::isa_supported(mf::target::isa::neon));
  EXPECT_FALSE(mf::target::isa_supported(mf::target::isa::avx2));
  EXPECT_FALSE(mf::target::isa_supported(mf::target::isa::avx512));
  EXPECT_EQ(mf::target::best_isa(), mf::target::isa::neon);
  const char* saved = std::getenv("MINIFLOAT_ISA");
  const std::string saved_text = saved ? saved : "";
  ASSERT_EQ(unsetenv("MINIFLOAT_ISA"), 0);
  EXPECT_EQ(mf::target::reset_isa_from_environment(), mf::target::isa::neon);
  EXPECT_FALSE(mf::target::current_selection().fell_back);
  EXPECT_EQ(mf::target::set_isa(mf::target::isa::neon), mf::target::isa::neon);
  EXPECT_FALSE(mf::target::current_selection().fell_back);
  if (saved) setenv("MINIFLOAT_ISA", saved_text.c_str(), 1);
  mf::target::reset_isa_from_environment();
}

// The settings take effect (else the tests below could not fail): float
// arithmetic in the scope follows them.
TEST(NeonFpcr, SettingsTakeEffect) {
  volatile float one = 1.0f, tiny = std::ldexp(1.0f, -30);
  volatile float subnormal = bits_float(0x00000001u), unit = 1.0f;
  {
    fpcr_scope scope(1u << 22);  // toward +infinity
    const float sum = one + tiny;
    EXPECT_EQ(float_bits(sum), 0x3F800001u);
  }
  {
    fpcr_scope scope(2u << 22);  // toward -infinity
    const float difference = one - tiny;
    EXPECT_EQ(float_bits(difference), 0x3F7FFFFFu);
  }
  {
    fpcr_scope scope(kFZ);  // subnormal inputs and results flushed to zero
    const float product = subnormal * unit;
    EXPECT_EQ(float_bits(product), 0u);
  }
  const float sum = one + tiny;
  EXPECT_EQ(float_bits(sum), 0x3F800000u);
}

TYPED_TEST(NeonKernels, EncodeMatchesReferenceUnderEveryFpcr) {
  using Fmt = TypeParam;
  using S = typename Fmt::storage_type;
  const mfref::reference& ref = mftest::reference_for<Fmt>();
  const std::vector<float> in = inputs<Fmt>();
  for (const mftest::mode_pair& m : mftest::deterministic_modes()) {
    std::vector<S> expected(in.size());
    for (std::size_t k = 0; k < in.size(); ++k) {
      expected[k] = static_cast<S>(
          ref.encode(static_cast<double>(in[k]), m.ref_rounding, m.ref_overflow));
    }
    for (std::uint64_t fpcr : kFpcrSettings) {
      std::vector<S> got(in.size(), S{0x5A});
      {
        fpcr_scope scope(fpcr);
        mf::bulk::neon::encode<Fmt>(in.data(), got.data(), in.size(),
                                    mf::conversion::with(m.rounding, m.overflow));
      }
      for (std::size_t k = 0; k < in.size(); ++k) {
        ASSERT_EQ(+got[k], +expected[k])
            << mftest::to_string(m) << ", FPCR bits " << mftest::hex(fpcr)
            << ", input " << mftest::describe_input(in[k]);
      }
    }
  }
}

TYPED_TEST(NeonKernels, DecodeMatchesReferenceUnderEveryFpcr) {
  using Fmt = TypeParam;
  using S = typename Fmt::storage_type;
  const mfref::reference& ref = mftest::reference_for<Fmt>();
  // Every encoding, then the same with the bits above the format's width
  // set (ignored); a length that leaves a tail.
  std::vector<S> in;
  const unsigned count = ref.encoding_count();
  for (unsigned b = 0; b < count; ++b) in.push_back(static_cast<S>(b));
  if (ref.width() < 8 * static_cast<int>(sizeof(S))) {
    for (unsigned b = 0; b < count; ++b) {
      in.push_back(static_cast<S>(b | (~0u << ref.width())));
    }
  }
  in.push_back(S{0});
  in.push_back(S{1});
  std::vector<std::uint32_t> expected(in.size());
  for (std::size_t k = 0; k < in.size(); ++k) {
    const unsigned code = in[k] & ((1u << ref.width()) - 1u);
    const mfref::decoded d = ref.decode(code);
    if (d.cls == mfref::value_class::nan) {
      // The quiet NaN, with the sign the specification gives it.
      expected[k] = std::signbit(d.value) ? 0xFFC00000u : 0x7FC00000u;
    } else {
      expected[k] = float_bits(static_cast<float>(d.value));
    }
  }
  for (std::uint64_t fpcr : kFpcrSettings) {
    std::vector<float> got(in.size());
    {
      fpcr_scope scope(fpcr);
      mf::bulk::neon::decode<Fmt>(in.data(), got.data(), in.size());
    }
    for (std::size_t k = 0; k < in.size(); ++k) {
      ASSERT_EQ(float_bits(got[k]), expected[k])
          << "FPCR bits " << mftest::hex(fpcr) << ", encoding "
          << mftest::hex(in[k]);
    }
  }
}

#else  // !MF_HAS_NEON_KERNELS

TEST(NeonDispatch, NeverAvailableWithoutNeonKernels) {
  EXPECT_FALSE(mf::target::isa_supported(mf::target::isa::neon));
  EXPECT_NE(mf::target::best_isa(), mf::target::isa::neon);
  EXPECT_NE(mf::target::set_isa(mf::target::isa::neon), mf::target::isa::neon);
  EXPECT_TRUE(mf::target::current_selection().fell_back);
  mf::target::reset_isa_from_environment();
}

#endif

}  // namespace
