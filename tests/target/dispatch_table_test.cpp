// The dispatch table (target/dispatch.hpp's active_kernels) holds each ISA's
// own kernels in that ISA's row, and set_isa moves every module's row at
// once. Every kernel set gives the same bits, so the conversion tests
// cannot see a row that points at another ISA's kernels; this test does.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "minifloat/bulk.hpp"
#include "minifloat/hybrid/kernels/targets.hpp"
#include "minifloat/mx/packing.hpp"
#include "minifloat/mx/quantize.hpp"

namespace {

using mf::target::isa;
using mf::target::kernels_of;
using plain = mf::bulk::detail::encode_kernels<mf::e4m3fn>;
using plain_decode = mf::bulk::detail::decode_kernels<mf::e4m3fn>;
using wide = mf::bulk::detail::decode_kernels<mf::bfloat16>;
using fused = mf::bulk::detail::fused_kernels<mf::e5m2, true, true, false>;
using format_free = mf::bulk::detail::format_free_kernels;
using mx_blocks = mf::mx::detail::block_kernels<mf::mx::mxfp8_e4m3>;

const isa every_isa[] = {isa::scalar, isa::avx2, isa::avx512, isa::neon};

// Restores the selection a test changed.
struct isa_guard {
  isa saved = mf::target::active_isa();
  ~isa_guard() { mf::target::set_isa(saved); }
};

TEST(DispatchTable, ScalarRowHoldsTheScalarKernels) {
  namespace s = mf::bulk::scalar;
  EXPECT_EQ(kernels_of<plain>(isa::scalar), &s::encode<mf::e4m3fn>);
  EXPECT_EQ(kernels_of<plain_decode>(isa::scalar).decode, &s::decode<mf::e4m3fn>);
  EXPECT_EQ(kernels_of<wide>(isa::scalar).decode_scaled, &s::decode_scaled<mf::bfloat16>);
  EXPECT_EQ(kernels_of<fused>(isa::scalar), (&s::encode_fused<mf::e5m2, true, true>));
  EXPECT_EQ(kernels_of<format_free>(isa::scalar).amax_bits, &s::amax_bits);
  EXPECT_EQ(kernels_of<mx_blocks>(isa::scalar).quantize, nullptr);
  EXPECT_EQ(kernels_of<mf::mx::detail::packing_kernels>(isa::scalar).pack_fp4, nullptr);
}

#if MF_HAS_X86_KERNELS
TEST(DispatchTable, EachX86RowHoldsItsOwnKernels) {
  namespace a2 = mf::bulk::avx2;
  EXPECT_EQ(kernels_of<plain>(isa::avx2), &a2::encode<mf::e4m3fn>);
  EXPECT_EQ(kernels_of<wide>(isa::avx2).decode, &a2::decode<mf::bfloat16>);
  EXPECT_EQ(kernels_of<plain_decode>(isa::avx2).decode_scaled, &a2::decode_scaled<mf::e4m3fn>);
  EXPECT_EQ(kernels_of<fused>(isa::avx2), (&a2::encode_fused<mf::e5m2, true, true, false>));
  EXPECT_EQ(kernels_of<format_free>(isa::avx2).amax_bits, &a2::amax_bits);
  EXPECT_EQ(kernels_of<format_free>(isa::avx2).narrow_to_odd,
            &mf::bulk::detail::narrow_to_odd_scalar);
  // MX: the generic block loops on AVX2, packing on AVX-512 only.
  EXPECT_EQ(kernels_of<mx_blocks>(isa::avx2).quantize,
            &mf::mx::avx2::quantize<mf::mx::mxfp8_e4m3>);
  EXPECT_EQ(kernels_of<mx_blocks>(isa::avx2).dequantize,
            &mf::mx::avx2::dequantize<mf::mx::mxfp8_e4m3>);
  EXPECT_EQ(kernels_of<mf::mx::detail::packing_kernels>(isa::avx2).pack_fp6, nullptr);
  // The MatMul tiles.
  namespace hk = mf::hybrid::kernels;
  EXPECT_EQ(hk::detail::target_for(isa::scalar).fma, &hk::scalar::fma_kernel);
  EXPECT_EQ(hk::detail::target_for(isa::avx2).fma, &hk::avx2::fma_kernel);
  // NEON is not compiled here: its row is the scalar one.
  EXPECT_EQ(kernels_of<plain>(isa::neon), kernels_of<plain>(isa::scalar));
}
#endif

#if MF_HAS_AVX512_KERNELS
TEST(DispatchTable, Avx512RowHoldsItsOwnKernels) {
  namespace a5 = mf::bulk::avx512;
  EXPECT_EQ(kernels_of<plain>(isa::avx512), &a5::encode<mf::e4m3fn>);
  EXPECT_EQ(kernels_of<wide>(isa::avx512).decode, &a5::decode<mf::bfloat16>);
  EXPECT_EQ(kernels_of<plain_decode>(isa::avx512).decode_scaled, &a5::decode_scaled<mf::e4m3fn>);
  EXPECT_EQ(kernels_of<fused>(isa::avx512),
            (&a5::encode_fused<mf::e5m2, true, true, false>));
  EXPECT_EQ(kernels_of<format_free>(isa::avx512).amax_bits, &a5::amax_bits);
  EXPECT_EQ(kernels_of<format_free>(isa::avx512).narrow_to_odd,
            &mf::bulk::detail::narrow_to_odd_avx512);
  EXPECT_EQ(kernels_of<mx_blocks>(isa::avx512).quantize,
            &mf::mx::avx512::quantize<mf::mx::mxfp8_e4m3>);
  EXPECT_NE(kernels_of<mx_blocks>(isa::avx512).dequantize, nullptr);
  EXPECT_NE(kernels_of<mx_blocks>(isa::avx2).quantize, kernels_of<mx_blocks>(isa::avx512).quantize);
  EXPECT_NE(kernels_of<mx_blocks>(isa::avx2).dequantize,
            kernels_of<mx_blocks>(isa::avx512).dequantize);
  EXPECT_EQ(kernels_of<mf::mx::detail::packing_kernels>(isa::avx512).pack_fp6,
            &mf::mx::avx512::pack_fp6);
  namespace hk = mf::hybrid::kernels;
  EXPECT_EQ(hk::detail::target_for(isa::avx512).fma, &hk::avx512::fma_kernel);
}
#else
// Built without the AVX-512 kernels (MINIFLOAT_NO_AVX512, or not x86):
// the row is the scalar one, and no CPU is offered it.
TEST(DispatchTable, Avx512RowIsTheScalarOneWhenNotCompiled) {
  EXPECT_EQ(kernels_of<plain>(isa::avx512), kernels_of<plain>(isa::scalar));
  EXPECT_EQ(kernels_of<mx_blocks>(isa::avx512).quantize, nullptr);
  EXPECT_FALSE(mf::target::isa_supported(isa::avx512));
}
#endif

#if MF_HAS_NEON_KERNELS
TEST(DispatchTable, NeonRowHoldsTheNeonKernels) {
  namespace n = mf::bulk::neon;
  EXPECT_EQ(kernels_of<plain>(isa::neon), &n::encode<mf::e4m3fn>);
  EXPECT_EQ(kernels_of<wide>(isa::neon).decode, &n::decode<mf::bfloat16>);
  EXPECT_EQ(kernels_of<fused>(isa::neon), (&n::encode_fused<mf::e5m2, true, true, false>));
  EXPECT_EQ(kernels_of<format_free>(isa::neon).amax_bits, &n::amax_bits);
  EXPECT_EQ(kernels_of<mx_blocks>(isa::neon).quantize,
            &mf::mx::neon::quantize<mf::mx::mxfp8_e4m3>);
  EXPECT_EQ(kernels_of<mx_blocks>(isa::neon).dequantize,
            &mf::mx::neon::dequantize<mf::mx::mxfp8_e4m3>);
  // x86 is not compiled here: those rows are the scalar one.
  EXPECT_EQ(kernels_of<plain>(isa::avx2), kernels_of<plain>(isa::scalar));
}
#endif

// The AVX-512 extensions only in the AVX-512 row, AVX-VNNI only in the
// AVX2 row, each as CPUID reports it.
TEST(DispatchTable, OptionalFeaturesOnlyInTheirRows) {
  for (isa i : every_isa) {
    const auto& f = mf::target::optional_features_of(i);
    if (i == isa::avx512 && MF_HAS_AVX512_KERNELS) {
      EXPECT_EQ(f.avx512vbmi, mf::target::detail::cpu().avx512vbmi);
      EXPECT_EQ(f.avx512bf16, mf::target::detail::cpu().avx512bf16);
      EXPECT_EQ(f.avx512vnni, mf::target::detail::cpu().avx512vnni);
      EXPECT_EQ(f.avx512ifma, mf::target::detail::cpu().avx512ifma);
    } else {
      EXPECT_FALSE(f.avx512vbmi) << mf::target::isa_name(i);
      EXPECT_FALSE(f.avx512bf16) << mf::target::isa_name(i);
      EXPECT_FALSE(f.avx512vnni) << mf::target::isa_name(i);
      EXPECT_FALSE(f.avx512ifma) << mf::target::isa_name(i);
    }
    if (i == isa::avx2 && MF_HAS_X86_KERNELS) {
      EXPECT_EQ(f.avxvnni, mf::target::detail::cpu().avxvnni);
    } else {
      EXPECT_FALSE(f.avxvnni) << mf::target::isa_name(i);
    }
  }
}

TEST(DispatchTable, SetIsaMovesEveryFamily) {
  isa_guard guard;
  for (isa i : every_isa) {
    if (!mf::target::isa_supported(i)) continue;
    ASSERT_EQ(mf::target::set_isa(i), i);
    EXPECT_EQ(&mf::target::active_kernels<plain>(), &kernels_of<plain>(i));
    EXPECT_EQ(&mf::target::active_kernels<plain_decode>(), &kernels_of<plain_decode>(i));
    EXPECT_EQ(&mf::target::active_kernels<fused>(), &kernels_of<fused>(i));
    EXPECT_EQ(&mf::target::active_kernels<format_free>(), &kernels_of<format_free>(i));
    EXPECT_EQ(&mf::mx::detail::active_kernels<mx_blocks>(), &kernels_of<mx_blocks>(i));
    EXPECT_EQ(&mf::target::active_optional_features(),
              &mf::target::optional_features_of(i));
  }
}

}  // namespace

// The cache sizes the MatMul blocking reads (target::detail::caches(), from
// CPUID leaf 4 / 0x8000001D) against Linux's own reading of the caches
// (/sys/devices/system/cpu/cpu0/cache/index*/{level,type,size}).
#if defined(__linux__) && MF_HAS_X86_KERNELS
std::string sysfs_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

TEST(CpuCaches, AgreeWithLinux) {
  std::size_t l1d = 0, l2 = 0;
  for (int index = 0; index < 8; ++index) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index) + "/";
    const std::string level = sysfs_line(dir + "level"), type = sysfs_line(dir + "type");
    const std::string size = sysfs_line(dir + "size");  // "48K"
    if (level.empty() || size.empty()) continue;
    const std::size_t bytes = std::stoul(size) * (size.back() == 'K' ? 1024u : size.back() == 'M' ? 1u << 20 : 1u);
    if (level == "1" && type == "Data") l1d = bytes;
    if (level == "2" && type == "Unified") l2 = bytes;
  }
  if (l1d == 0 || l2 == 0) GTEST_SKIP() << "Linux reports no L1d/L2 sizes here (no /sys cache entries)";
  EXPECT_EQ(mf::target::detail::caches().l1d, l1d);
  EXPECT_EQ(mf::target::detail::caches().l2, l2);
}
#endif

// The optional instruction sets the integer MatMul and the BF16 pair kernel
// choose from CPUID, against the flags Linux derives from the same CPUID
// bits (/proc/cpuinfo; the kernel hides those the OS cannot use, as XCR0
// does here).
#if defined(__linux__) && MF_HAS_X86_KERNELS
TEST(CpuFeatures, AgreeWithLinux) {
  std::ifstream in("/proc/cpuinfo");
  std::string line, flags;
  while (std::getline(in, line)) {
    if (line.rfind("flags", 0) == 0) {
      flags = " " + line.substr(line.find(':') + 1) + " ";
      break;
    }
  }
  if (flags.empty()) GTEST_SKIP() << "no flags line in /proc/cpuinfo";
  const auto has = [&](const char* flag) { return flags.find(std::string(" ") + flag + " ") != std::string::npos; };
  const auto& cpu = mf::target::detail::cpu();
  if (cpu.avx2) {
    EXPECT_EQ(cpu.avxvnni, has("avx_vnni"));
  }
  if (cpu.avx512) {
    EXPECT_EQ(cpu.avx512vnni, has("avx512_vnni"));
    EXPECT_EQ(cpu.avx512bf16, has("avx512_bf16"));
    EXPECT_EQ(cpu.avx512vbmi, has("avx512vbmi"));
    EXPECT_EQ(cpu.avx512ifma, has("avx512ifma"));
  }
}
#endif
