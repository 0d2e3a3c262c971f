// include/minifloat/cuda_types.hpp against CUDA's own types, on the CPU
// (CUDA's headers compiled as host code): for every encoding of each pair,
// the exchange keeps the bits both ways, and CUDA's conversion to float
// gives the library's value (NaN for NaN), so the two encodings mean the
// same numbers.
#include <minifloat/cuda_types.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace {

// Every encoding of T, both ways, with its value on CUDA's side (each CUDA
// type's own conversion to float).
template <class T>
void expect_same_encoding(unsigned encodings) {
  for (unsigned code = 0; code < encodings; ++code) {
    const T value = T::from_bits(static_cast<typename T::storage_type>(code));
    const auto cuda = mf::to_cuda(value);
    const T back = mf::from_cuda(cuda);
    EXPECT_EQ(back.bits(), value.bits()) << "code 0x" << std::hex << code;
    const float expected = static_cast<float>(value);
    const auto got = static_cast<float>(cuda);
    if (std::isnan(expected)) {
      EXPECT_TRUE(std::isnan(got)) << "code 0x" << std::hex << code;
    } else {
      // Bits, so that the sign of zero counts.
      EXPECT_EQ(mf::detail::bit_cast<std::uint32_t>(got),
                mf::detail::bit_cast<std::uint32_t>(expected))
          << "code 0x" << std::hex << code;
    }
  }
}

TEST(CudaTypes, Fp8) {
  expect_same_encoding<mf::e4m3fn>(256);
  expect_same_encoding<mf::e5m2>(256);
  expect_same_encoding<mf::e8m0fnu>(256);
}

TEST(CudaTypes, Fp6AndFp4) {
  expect_same_encoding<mf::e2m3fn>(64);
  expect_same_encoding<mf::e3m2fn>(64);
  expect_same_encoding<mf::e2m1fn>(16);
}

TEST(CudaTypes, SixteenBit) {
  expect_same_encoding<mf::binary16>(65536);
  expect_same_encoding<mf::bfloat16>(65536);
}

TEST(CudaTypes, TheExchangeCopiesBitsAndDoesNotRound) {
  // A NaN payload and -0 come through; CUDA's own byte is the library's.
  EXPECT_EQ(mf::to_cuda(mf::e5m2::from_bits(0xFD)).__x, 0xFD);
  EXPECT_EQ(mf::to_cuda(mf::e4m3fn::from_bits(0x80)).__x, 0x80);
  EXPECT_EQ(mf::from_cuda(mf::to_cuda(mf::binary16::from_bits(0x7C01))).bits(), 0x7C01);
  __nv_fp8_e4m3 max;
  max.__x = 0x7E;
  EXPECT_EQ(static_cast<float>(mf::from_cuda(max)), 448.0f);
}

}  // namespace
