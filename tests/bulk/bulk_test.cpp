// The bulk conversions give the bits of the independent reference of
// tests/reference/ (not the library's scalar path, which the scalar kernel
// set shares) for every ISA this machine has (the ISA is in each
// test's name: BulkFormat/e4m3fn.EncodeBoundarySet/avx2), every format,
// every mode: all lengths 0..300 at unaligned starts, the structured
// boundary set, specials, and a strided sweep over the float32 bit patterns;
// at MINIFLOAT_TEST_LEVEL=full (label `exhaustive`) all 2^32 float32 inputs
// through each SIMD kernel set. Plus the dispatcher's rules.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>
#include <type_traits>
#include <utility>

#if defined(__x86_64__) || defined(_M_X64)
#include <xmmintrin.h>
#endif

#include "support/bulk_helpers.hpp"
#include "support/bulk_entries.hpp"
#include "support/float32_chunks.hpp"

namespace {

using namespace bulk_test;

// Values around which a format's rounding changes: every finite value, every
// midpoint between neighbours, the overflow threshold, each with float
// neighbours +-1, +-2 ulps, both signs; plus specials, float subnormals and
// powers of two over float's range.
template <class Fmt>
std::vector<float> boundary_set() {
  using F = typename Fmt::format;
  // Magnitudes: each point is added below with both signs.
  const std::vector<double> sorted = finite_nonnegative_values<Fmt>();
  std::vector<double> points = sorted;
  for (std::size_t i = 0; i + 1 < sorted.size(); ++i) {
    points.push_back((sorted[i] + sorted[i + 1]) / 2);
  }
  // Beyond max finite: the next value of an unbounded exponent range, and
  // the midpoint up to it (the overflow threshold in nearest mode).
  const double max_value = sorted.back();
  const double ulp = std::ldexp(1.0, F::max_exponent - F::mantissa_bits);
  for (double p : {max_value + ulp / 2, max_value + ulp, max_value + 2 * ulp,
                   2 * max_value, 4 * max_value}) {
    points.push_back(p);
  }
  std::vector<float> out;
  const auto add_with_neighbours = [&](float f) {
    if (std::isinf(f)) f = std::numeric_limits<float>::max();
    const std::uint32_t u = float_bits(f) & 0x7FFFFFFFu;
    for (int d = -2; d <= 2; ++d) {
      const std::int64_t n = static_cast<std::int64_t>(u) + d;
      if (n < 0 || n > 0x7F800000) continue;
      const std::uint32_t m = static_cast<std::uint32_t>(n);
      out.push_back(bits_float(m));
      out.push_back(bits_float(m | 0x80000000u));
    }
  };
  for (double p : points) add_with_neighbours(static_cast<float>(p));
  for (int e = -149; e <= 127; ++e) add_with_neighbours(std::ldexp(1.0f, e));
  for (std::uint32_t u :
       {0x00000001u, 0x00000002u, 0x00000003u, 0x000FFFFFu, 0x00200000u,
        0x003FFFFFu, 0x00400000u, 0x00400001u, 0x005FFFFFu, 0x00600000u,
        0x00600001u, 0x007FFFFFu, 0x00800000u, 0x7F7FFFFFu}) {
    add_with_neighbours(bits_float(u));
  }
  // Specials: zeros, infinities, quiet and signalling NaNs with payloads.
  for (std::uint32_t u :
       {0x00000000u, 0x7F800000u, 0x7F800001u, 0x7F800002u, 0x7FA00000u,
        0x7FBFFFFFu, 0x7FC00000u, 0x7FC00001u, 0x7FE12345u, 0x7FFFFFFFu}) {
    out.push_back(bits_float(u));
    out.push_back(bits_float(u | 0x80000000u));
  }
  return out;
}

// A strided sweep over all 2^32 float32 bit patterns: a prime stride near
// 2^12, each point with its neighbours +-1.
inline const std::vector<float>& strided_sweep() {
  static const std::vector<float> sweep = [] {
    std::vector<float> v;
    constexpr std::uint64_t stride = 4093;
    v.reserve(3 * ((std::uint64_t{1} << 32) / stride + 1));
    for (std::uint64_t u = 1; u < (std::uint64_t{1} << 32); u += stride) {
      for (std::uint64_t d = u - 1; d <= u + 1; ++d) {
        v.push_back(bits_float(static_cast<std::uint32_t>(d)));
      }
    }
    return v;
  }();
  return sweep;
}

// Encodes `in` with the selected ISA in every mode and overflow mode;
// compares with the scalar reference.
template <class Fmt>
void check_encode_all(const std::vector<float>& in, const char* what) {
  using S = typename Fmt::storage_type;
  const std::vector<std::vector<S>> expected_per_mode = reference_encode_every_mode<Fmt>(in);
  std::size_t pair = 0;
  for (mf::rounding mode : kModes) {
    for (mf::overflow ovf : kOverflows) {
      const std::vector<S>& expected = expected_per_mode[pair++];
      std::vector<S> got(in.size(), S{0x5A});
      mft::bulk_encode<Fmt>(in.data(), got.data(), in.size(), mf::conversion::with(mode, ovf));
      const long long at = first_difference(got.data(), expected.data(), in.size());
      const std::size_t k = at < 0 ? 0 : static_cast<std::size_t>(at);
      ASSERT_LT(at, 0) << what << ": isa " << mf::target::isa_name(mf::target::active_isa())
                       << ", " << mode_name(mode) << ", saturating "
                       << (ovf == mf::overflow::saturating) << ", input 0x" << std::hex
                       << float_bits(in[k]) << " (" << in[k] << "): got 0x" << +got[k]
                       << ", expected 0x" << +expected[k];
    }
  }
}

MFT_TYPED_PER_ISA_TEST(BulkFormat, EncodeBoundarySet, mft::all_format_list, mft::format_names) {
  check_encode_all<TypeParam>(boundary_set<TypeParam>(), "boundary set");
}

MFT_TYPED_PER_ISA_TEST(BulkFormat, EncodeStridedSweep, mft::all_format_list, mft::format_names) {
  check_encode_all<TypeParam>(strided_sweep(), "strided sweep");
}

#if defined(__x86_64__) || defined(_M_X64)
// The MXCSR settings the kernels are run under (bits 13-14 the rounding
// direction, 6 DAZ, 15 FTZ): each direction, DAZ, FTZ, and DAZ with FTZ
// rounding toward zero and downward.
constexpr unsigned kMxcsrSettings[] = {0x2000u, 0x4000u, 0x6000u, 0x0040u,
                                       0x8000u, 0x8040u | 0x6000u, 0x8040u | 0x2000u};

// The kernels give the scalar bits whatever MXCSR holds: every rounding
// direction, DAZ and FTZ.
MFT_TYPED_PER_ISA_TEST(BulkFormat, EncodeIndependentOfMxcsr, mft::all_format_list,
                       mft::format_names) {
  using Fmt = TypeParam;
  using S = typename Fmt::storage_type;
  const std::vector<float> in = boundary_set<Fmt>();
  const std::vector<std::vector<S>> expected = reference_encode_every_mode<Fmt>(in);
  const unsigned saved = _mm_getcsr();
  for (unsigned bits : kMxcsrSettings) {
    std::size_t k = 0;
    for (mf::rounding mode : kModes) {
      for (mf::overflow ovf : kOverflows) {
        std::vector<S> got(in.size());
        _mm_setcsr((saved & ~0xE040u) | bits);
        mft::bulk_encode<Fmt>(in.data(), got.data(), in.size(), mf::conversion::with(mode, ovf));
        _mm_setcsr(saved);
        const long long at = first_difference(got.data(), expected[k].data(), in.size());
        ASSERT_LT(at, 0) << "MXCSR bits 0x" << std::hex << bits << " isa "
                         << mf::target::isa_name(isa) << " " << mode_name(mode) << " input 0x"
                         << float_bits(in[static_cast<std::size_t>(at < 0 ? 0 : at)]);
        ++k;
      }
    }
  }
}
#endif

// Every length 0..300 at start offsets 0..3 of both buffers; nothing outside
// [0, n) of the output is written.
MFT_TYPED_PER_ISA_TEST(BulkFormat, EncodeLengthsAndOffsets, mft::all_format_list,
                       mft::format_names) {
  using Fmt = TypeParam;
  using S = typename Fmt::storage_type;
  const std::vector<float> pool = boundary_set<Fmt>();
  constexpr std::size_t kMax = 300, kGuard = 80;
  std::vector<float> in(kMax + 8);
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = pool[(k * 7919u) % pool.size()];
  const S canary = static_cast<S>(0xA5A5u);
  for (mf::rounding mode : kModes) {
    for (mf::overflow ovf : kOverflows) {
      for (std::size_t offset = 0; offset < 4; ++offset) {
        for (std::size_t n = 0; n <= kMax; ++n) {
          std::vector<S> out(kMax + 2 * kGuard, canary);
          S* dst = out.data() + kGuard + offset;
          const float* src = in.data() + offset;
          mft::bulk_encode<Fmt>(src, dst, n, mf::conversion::with(mode, ovf));
          for (std::size_t k = 0; k < n; ++k) {
            const S expected = reference_encode_one<Fmt>(src[k], mode, ovf);
            ASSERT_EQ(+dst[k], +expected) << mf::target::isa_name(isa) << " " << mode_name(mode)
                                          << " n=" << n << " offset=" << offset << " k=" << k;
          }
          for (std::size_t k = 0; k < out.size(); ++k) {
            const bool inside = k >= kGuard + offset && k < kGuard + offset + n;
            if (!inside) {
              ASSERT_EQ(+out[k], +canary) << mf::target::isa_name(isa) << " wrote outside: n=" << n
                                          << " offset=" << offset;
            }
          }
        }
      }
    }
  }
}

// Decoding every bit pattern of the storage type (the bits above a sub-byte
// format's width are ignored, as by from_bits), at every length 0..300 and
// offset 0..3 as well.
// mf::bulk::decode through the dispatch (the ISA the test selected).
template <class Fmt>
void dispatched_decode(const typename Fmt::storage_type* in, float* out, std::size_t n) {
  mft::bulk_decode<Fmt>(in, out, n);
}

template <class Fmt, class Decode>
void check_decode_every_pattern(Decode decode, const char* what) {
  using S = typename Fmt::storage_type;
  const std::size_t count = std::size_t{1} << (8 * sizeof(S));
  std::vector<S> in(count);
  std::vector<std::uint32_t> expected(count);
  for (std::size_t b = 0; b < count; ++b) {
    in[b] = static_cast<S>(b);
    expected[b] = reference_decode_bits<Fmt>(static_cast<unsigned>(b));
  }
  std::vector<float> out(count);
  decode(in.data(), out.data(), count);
  for (std::size_t b = 0; b < count; ++b) {
    ASSERT_EQ(float_bits(out[b]), expected[b]) << what << " pattern 0x" << std::hex << b;
  }
  constexpr std::size_t kMax = 300, kGuard = 40;
  std::vector<S> cycle(kMax + 4);
  for (std::size_t k = 0; k < cycle.size(); ++k) {
    cycle[k] = in[(k * 37 + 11) % count];
  }
  for (std::size_t offset = 0; offset < 4; ++offset) {
    for (std::size_t n = 0; n <= kMax; ++n) {
      std::vector<float> buffer(kMax + 2 * kGuard, bits_float(0xDEADBEEFu));
      float* dst = buffer.data() + kGuard + offset;
      decode(cycle.data() + offset, dst, n);
      for (std::size_t k = 0; k < buffer.size(); ++k) {
        const bool inside = k >= kGuard + offset && k < kGuard + offset + n;
        const std::uint32_t want =
            inside ? expected[cycle[offset + (k - kGuard - offset)]] : 0xDEADBEEFu;
        ASSERT_EQ(float_bits(buffer[k]), want)
            << what << " n=" << n << " offset=" << offset << " k=" << k;
      }
    }
  }
}

MFT_TYPED_PER_ISA_TEST(BulkFormat, DecodeEveryPattern, mft::all_format_list, mft::format_names) {
  check_decode_every_pattern<TypeParam>(dispatched_decode<TypeParam>, mf::target::isa_name(isa));
}

#if defined(__x86_64__) || defined(_M_X64)
// decode with the MXCSR bits `bits` (rounding direction, DAZ, FTZ) set
// around each call only, so that the expected values are computed without
// them.
template <class Decode>
auto under_mxcsr(unsigned bits, Decode decode) {
  return [bits, decode](const auto* in, float* out, std::size_t n) {
    const unsigned saved = _mm_getcsr();
    _mm_setcsr((saved & ~0xE040u) | bits);
    decode(in, out, n);
    _mm_setcsr(saved);
  };
}

// The decoders give the scalar bits whatever MXCSR holds: some routes
// multiply after the hardware conversion.
MFT_TYPED_PER_ISA_TEST(BulkFormat, DecodeIndependentOfMxcsr, mft::all_format_list,
                       mft::format_names) {
  for (unsigned bits : kMxcsrSettings) {
    check_decode_every_pattern<TypeParam>(under_mxcsr(bits, dispatched_decode<TypeParam>),
                                          mf::target::isa_name(isa));
    if (::testing::Test::HasFatalFailure()) {
      ADD_FAILURE() << "MXCSR bits 0x" << std::hex << bits;
      return;
    }
  }
}
#endif

// Outputs past the non-temporal threshold (streaming stores after an
// aligning head), at misaligned starts; toward zero in both overflow modes
// too, which some sets encode through binary16.
MFT_TYPED_PER_ISA_TEST(BulkFormat, EncodeLargeOutputs, mft::all_format_list, mft::format_names) {
  using Fmt = TypeParam;
  using S = typename Fmt::storage_type;
  const std::vector<float> pool = boundary_set<Fmt>();
  const std::size_t n = (std::size_t{8} << 20) / sizeof(S) + 77;
  const auto pool_index = [&](std::size_t k) { return (k * 7919u) % pool.size(); };
  std::vector<float> in(n + 4);
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = pool[pool_index(k)];
  const std::pair<mf::rounding, mf::overflow> requests[] = {
      {mf::rounding::nearest_even, mf::overflow::non_saturating},
      {mf::rounding::toward_zero, mf::overflow::non_saturating},
      {mf::rounding::toward_zero, mf::overflow::saturating}};
  for (const auto& [mode, ovf] : requests) {
    // The reference of each pool value once; the expected output is laid
    // out as the input is (8 M elements through the reference per mode
    // and ISA were most of this program's time).
    const std::vector<S> pool_expected = reference_encode<Fmt>(pool, mode, ovf);
    for (std::size_t offset : {std::size_t{0}, std::size_t{3}}) {
      std::vector<S> expected(n + 8, static_cast<S>(0xA5A5u));
      for (std::size_t k = offset; k < offset + n; ++k) expected[k] = pool_expected[pool_index(k)];
      std::vector<S> out(n + 8, static_cast<S>(0xA5A5u));
      mft::bulk_encode<Fmt>(in.data() + offset, out.data() + offset, n,
                            mf::conversion::with(mode, ovf));
      const long long at = first_difference(out.data(), expected.data(), out.size());
      const std::size_t k = at < 0 ? 0 : static_cast<std::size_t>(at);
      ASSERT_LT(at, 0) << mf::target::isa_name(isa) << " mode " << static_cast<int>(mode)
                       << " overflow " << static_cast<int>(ovf) << " offset " << offset
                       << " k=" << k << ": got 0x" << std::hex
                       << +out[k] << ", expected 0x" << +expected[k];
    }
  }
}

// Outputs past the non-temporal threshold (streaming stores after an
// aligning head), at misaligned starts.
template <class Fmt, class Decode>
void check_decode_large_outputs(Decode decode, const char* what) {
  using S = typename Fmt::storage_type;
  const std::size_t n = (std::size_t{8} << 20) / sizeof(float) + 77;
  std::vector<S> in(n + 4);
  for (std::size_t k = 0; k < in.size(); ++k) in[k] = static_cast<S>(k * 2654435761u >> 7);
  // The reference's bits of every storage pattern, once.
  const std::size_t code_mask = (std::size_t{1} << (8 * sizeof(S))) - 1;
  std::vector<std::uint32_t> code_bits(code_mask + 1);
  for (std::size_t c = 0; c <= code_mask; ++c) {
    code_bits[c] = reference_decode_bits<Fmt>(static_cast<unsigned>(c));
  }
  for (std::size_t offset : {std::size_t{0}, std::size_t{1}, std::size_t{3}}) {
    std::vector<float> out(n + 8, bits_float(0xDEADBEEFu));
    decode(in.data() + offset, out.data() + offset, n);
    std::vector<std::uint32_t> got(out.size()), want(out.size(), 0xDEADBEEFu);
    for (std::size_t k = 0; k < out.size(); ++k) got[k] = float_bits(out[k]);
    for (std::size_t k = offset; k < offset + n; ++k) {
      want[k] = code_bits[static_cast<std::size_t>(in[k]) & code_mask];
    }
    const long long at = first_difference(got.data(), want.data(), got.size());
    const std::size_t k = at < 0 ? 0 : static_cast<std::size_t>(at);
    ASSERT_LT(at, 0) << what << " offset " << offset << " k=" << k << ": got 0x" << std::hex
                     << got[k] << ", expected 0x" << want[k];
  }
}

MFT_TYPED_PER_ISA_TEST(BulkFormat, DecodeLargeOutputs, mft::all_format_list, mft::format_names) {
  check_decode_large_outputs<TypeParam>(dispatched_decode<TypeParam>, mf::target::isa_name(isa));
}

#if MF_HAS_X86_KERNELS
// A decode route called directly: every pattern at every length and
// offset, whatever MXCSR holds (vcvtph2ps ignores DAZ), and past the
// non-temporal threshold.
template <class Fmt, class Decode>
void check_decode_route(Decode decode, const char* what) {
  check_decode_every_pattern<Fmt>(decode, what);
  for (unsigned bits : kMxcsrSettings) check_decode_every_pattern<Fmt>(under_mxcsr(bits, decode), what);
  check_decode_large_outputs<Fmt>(decode, what);
}

// The AVX2 decode of e5m2, through binary16 (F16C).
TEST(BulkDecodeRoutes, Avx2Binary16Route) {
  if (!mf::target::isa_supported(mf::target::isa::avx2)) GTEST_SKIP() << "no AVX2 on this CPU";
  check_decode_route<mf::e5m2>(
      [](const std::uint8_t* in, float* out, std::size_t n) {
        mf::bulk::avx2::decode<mf::e5m2>(in, out, n);
      },
      "avx2 e5m2 through binary16");
}
#endif

#if MF_HAS_AVX512_KERNELS
// Each AVX-512 byte decode route called directly, so that a machine with
// VBMI runs every route whichever one its dispatch picks (the route depends
// on the CPU's vendor): e5m2 through binary16 and through the table.
template <class Fmt, mf::bulk::avx512::byte_route Route>
void check_byte_route(const char* what) {
  check_decode_route<Fmt>(
      [](const std::uint8_t* in, float* out, std::size_t n) {
        mf::bulk::avx512::decode_bytes<Fmt, Route>(in, out, n);
      },
      what);
}

TEST(BulkDecodeRoutes, Avx512ByteRoutes) {
  if (!mf::target::detail::cpu().avx512vbmi) GTEST_SKIP() << "no AVX-512 VBMI on this CPU";
  using mf::bulk::avx512::byte_route;
  check_byte_route<mf::e5m2, byte_route::binary16>("e5m2 through binary16");
  check_byte_route<mf::e5m2, byte_route::table>("e5m2 through the table");
}
#endif

TEST(BulkDispatch, NeverSelectsAMissingIsa) {
  const mf::target::isa previous = mf::target::active_isa();
  EXPECT_TRUE(mf::target::isa_supported(mf::target::isa::scalar));
  EXPECT_TRUE(mf::target::isa_supported(mf::target::best_isa()));
  for (mf::target::isa i : {mf::target::isa::scalar, mf::target::isa::avx2,
                          mf::target::isa::avx512, mf::target::isa::neon}) {
    const mf::target::isa got = mf::target::set_isa(i);
    EXPECT_TRUE(mf::target::isa_supported(got));
    EXPECT_EQ(got, mf::target::active_isa());
    const mf::target::isa_selection sel = mf::target::current_selection();
    EXPECT_EQ(sel.requested, i);
    EXPECT_EQ(sel.active, got);
    if (mf::target::isa_supported(i)) {
      EXPECT_EQ(got, i);
      EXPECT_FALSE(sel.fell_back);
    } else {
      EXPECT_EQ(got, mf::target::best_isa()) << mf::target::isa_name(i);
      EXPECT_TRUE(sel.fell_back) << mf::target::isa_name(i);
    }
  }
  mf::target::set_isa(previous);
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
// The detection agrees with the compiler's own CPU model (which also checks
// the OS register state).
TEST(BulkDispatch, DetectionAgreesWithTheCompiler) {
  __builtin_cpu_init();
  const bool avx2 = __builtin_cpu_supports("avx2") &&
                    __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2");
  const bool avx512 = avx2 && __builtin_cpu_supports("avx512f") &&
                      __builtin_cpu_supports("avx512bw") &&
                      __builtin_cpu_supports("avx512vl") &&
                      __builtin_cpu_supports("avx512dq") &&
                      __builtin_cpu_supports("avx512cd");
  // F16C is not in GCC 12's list; the CPUs with AVX2 all have it.
  EXPECT_EQ(mf::target::isa_supported(mf::target::isa::avx2), avx2);
#if defined(MINIFLOAT_SIMD_EMULATED)
  // Emulated AVX-512 (tests/bulk/simde_avx512) is offered wherever AVX2 is.
  (void)avx512;
  EXPECT_EQ(mf::target::isa_supported(mf::target::isa::avx512), avx2);
#else
  // Not offered at all in a build without the AVX-512 kernels.
  EXPECT_EQ(mf::target::isa_supported(mf::target::isa::avx512), avx512 && MF_HAS_AVX512_KERNELS != 0);
#endif
  EXPECT_FALSE(mf::target::isa_supported(mf::target::isa::neon));
}
#endif

TEST(BulkDispatch, EnvironmentOverride) {
  const mf::target::isa previous = mf::target::active_isa();
  for (mf::target::isa i : {mf::target::isa::scalar, mf::target::isa::avx2,
                          mf::target::isa::avx512, mf::target::isa::neon}) {
    ASSERT_EQ(setenv("MINIFLOAT_ISA", mf::target::isa_name(i), 1), 0);
    const mf::target::isa got = mf::target::reset_isa_from_environment();
    EXPECT_EQ(got, mf::target::isa_supported(i) ? i : mf::target::best_isa());
    EXPECT_EQ(mf::target::current_selection().fell_back, !mf::target::isa_supported(i));
  }
  ASSERT_EQ(setenv("MINIFLOAT_ISA", "no-such-isa", 1), 0);
  EXPECT_EQ(mf::target::reset_isa_from_environment(), mf::target::best_isa());
  EXPECT_TRUE(mf::target::current_selection().fell_back);
  ASSERT_EQ(unsetenv("MINIFLOAT_ISA"), 0);
  EXPECT_EQ(mf::target::reset_isa_from_environment(), mf::target::best_isa());
  EXPECT_FALSE(mf::target::current_selection().fell_back);
  mf::target::set_isa(previous);
}

// Run by ctest with MINIFLOAT_ISA set (see tests/CMakeLists.txt): the value
// is honoured at first use. Must run before any other test touches the
// dispatcher, hence its own ctest entry with a filter.
TEST(BulkDispatchFirstUse, HonoursEnvironment) {
  const char* text = std::getenv("MINIFLOAT_ISA");
  if (text == nullptr) GTEST_SKIP() << "MINIFLOAT_ISA not set";
  mf::target::isa requested = mf::target::isa::scalar;
  ASSERT_TRUE(mf::target::parse_isa(text, requested)) << text;
  const mf::target::isa expected =
      mf::target::isa_supported(requested) ? requested : mf::target::best_isa();
  EXPECT_EQ(mf::target::active_isa(), expected);
  float in[37];
  std::uint8_t out[37];
  for (int k = 0; k < 37; ++k) in[k] = static_cast<float>(k) * 0.3f - 5.0f;
  mft::bulk_encode<mf::e4m3fn>(in, out, 37);
  for (int k = 0; k < 37; ++k) {
    EXPECT_EQ(out[k], mf::e4m3fn(in[k]).bits());
  }
}

// ---- every float32 input (the full level) ---------------------------------

// Each SIMD kernel set's encode against the scalar set's, called through
// the dispatch table's rows (not the active selection: the sweep's threads
// all use one ISA, but the scalar row is the reference), for every format,
// nearest-even and toward-zero, each with both overflow modes. At full level
// all 2^32 float32 inputs on MINIFLOAT_TEST_THREADS threads (minutes); at ci
// level two chunks of 2^20, [1, 2) and around -448 (the e4m3fn maximum):
// the strided sweep above already spans the range.
class BulkEveryFloat32 : public mft::per_isa {};

struct sweep_mode {
  mf::rounding mode;
  mf::overflow ovf;
};
const sweep_mode kSweepModes[] = {
    {mf::rounding::nearest_even, mf::overflow::non_saturating},
    {mf::rounding::nearest_even, mf::overflow::saturating},
    {mf::rounding::toward_zero, mf::overflow::non_saturating},
    {mf::rounding::toward_zero, mf::overflow::saturating},
};

template <class Fmt>
void check_float32_chunk(mf::target::isa isa, const std::vector<float>& in,
                         mft::sweep_failure& failure) {
  using S = typename Fmt::storage_type;
  using kernels = mf::bulk::detail::encode_kernels<Fmt>;
  const auto scalar_encode = mf::target::kernels_of<kernels>(mf::target::isa::scalar);
  const auto simd_encode = mf::target::kernels_of<kernels>(isa);
  std::vector<S> expected(in.size()), got(in.size());
  for (const sweep_mode& m : kSweepModes) {
    const mf::conversion c = mf::conversion::with(m.mode, m.ovf);
    scalar_encode(in.data(), expected.data(), in.size(), c);
    simd_encode(in.data(), got.data(), in.size(), c);
    const long long at = first_difference(got.data(), expected.data(), in.size());
    if (at >= 0) {
      const std::size_t k = static_cast<std::size_t>(at);
      std::ostringstream os;
      os << mf::target::isa_name(isa) << " " << mft::format_name<Fmt>() << " " << mode_name(m.mode)
         << " saturating " << (m.ovf == mf::overflow::saturating) << ": input 0x" << std::hex
         << float_bits(in[k]) << " got 0x" << +got[k] << " expected 0x" << +expected[k];
      failure.report(os.str());
    }
  }
}

TEST_P(BulkEveryFloat32, EncodeMatchesTheScalarSetInEveryFormat) {
  const mf::target::isa isa = GetParam();
  mft::sweep_failure failure;
  mft::for_each_float32_chunk({0x3F8, 0xC3E}, failure, [&](const std::vector<float>& in) {
    mft::for_each_type(mft::all_format_list{}, [&](auto* format) {
      check_float32_chunk<std::remove_pointer_t<decltype(format)>>(isa, in, failure);
    });
  });
  EXPECT_FALSE(failure.failed.load()) << failure.first << " (level " << mft::level_name() << ")";
}

// The SIMD sets only: the scalar set is the reference.
std::vector<mf::target::isa> simd_isas() {
  std::vector<mf::target::isa> simd;
  for (mf::target::isa isa : mft::available_isas()) {
    if (isa != mf::target::isa::scalar) simd.push_back(isa);
  }
  return simd;
}
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(BulkEveryFloat32);
INSTANTIATE_TEST_SUITE_P(Isa, BulkEveryFloat32, ::testing::ValuesIn(simd_isas()),
                         mft::isa_param_name);

}  // namespace
