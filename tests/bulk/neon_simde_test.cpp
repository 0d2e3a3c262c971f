// The NEON kernels without AArch64 hardware: neon.hpp and fused_neon.hpp
// (the encode loop) compiled against
// SIMDe's portable NEON intrinsics (simde_shim/arm_neon.h) and run natively
// for every format, every rounding mode and both overflow modes, compared
// bit for bit with the scalar path: at MINIFLOAT_TEST_LEVEL=full (label
// `exhaustive`) on all 2^32 float32 inputs, at ci level on two chunks of
// 2^20 ([1, 2) and around -448). (Under qemu-user the full sweep would take hours; CI runs the bulk
// tests there.) Built only with -DMINIFLOAT_NEON_SIMDE_TEST=ON and SIMDe
// installed (Debian: libsimde-dev); MINIFLOAT_TEST_THREADS and
// MINIFLOAT_EXHAUSTIVE_CHUNKS as in support/float32_chunks.hpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <minifloat/target/dispatch.hpp>
// Compile the NEON kernels here although the target is not AArch64 (the
// dispatcher, compiled above, still never offers them: they are called
// directly).
#undef MF_HAS_NEON_KERNELS
#define MF_HAS_NEON_KERNELS 1
#include <minifloat/bulk/fused_neon.hpp>
#include <minifloat/formats.hpp>

#include "support/float32_chunks.hpp"
#include "support/formats.hpp"

namespace {

const mf::rounding kModes[] = {mf::rounding::nearest_even, mf::rounding::toward_zero,
                               mf::rounding::toward_positive,
                               mf::rounding::toward_negative};

template <class Fmt>
void check_chunk(const std::vector<float>& in, mft::sweep_failure& failure) {
  using S = typename Fmt::storage_type;
  std::vector<S> expected(in.size()), got(in.size());
  for (mf::rounding mode : kModes) {
    for (mf::overflow ovf : {mf::overflow::non_saturating, mf::overflow::saturating}) {
      const mf::conversion c = mf::conversion::with(mode, ovf);
      mf::bulk::scalar::encode<Fmt>(in.data(), expected.data(), in.size(), c);
      mf::bulk::neon::encode<Fmt>(in.data(), got.data(), in.size(), c);
      for (std::size_t k = 0; k < in.size(); ++k) {
        if (got[k] != expected[k]) {
          std::uint32_t bits;
          std::memcpy(&bits, &in[k], sizeof bits);
          std::ostringstream os;
          os << mft::format_name<Fmt>() << " mode " << static_cast<int>(mode) << " saturating "
             << (ovf == mf::overflow::saturating) << ": input 0x" << std::hex << bits
             << " got 0x" << +got[k] << " expected 0x" << +expected[k];
          failure.report(os.str());
          return;
        }
      }
    }
  }
}

TEST(NeonSimde, AllFloat32InputsEveryFormatEveryMode) {
  mft::sweep_failure failure;
  mft::for_each_float32_chunk({0x3F8, 0xC3E}, failure, [&](const std::vector<float>& in) {
    mft::for_each_type(mft::all_format_list{}, [&](auto* format) {
      check_chunk<std::remove_pointer_t<decltype(format)>>(in, failure);
    });
  });
  EXPECT_FALSE(failure.failed.load()) << failure.first << " (level " << mft::level_name() << ")";
}

}  // namespace
