// The library's host-side bulk conversions for the GPU comparison
// (hardware_conversions.cu). They live in a C++ translation unit of their own
// so that nvcc never compiles the x86 kernels and their target regions.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mf_cuda_test {

enum class fp8 { e4m3fn, e5m2 };

// Round to nearest even, saturating: what the GPU's cvt.rn.satfinite does.
void host_encode_float(fp8 format, const float* in, std::uint8_t* out, std::size_t n);
void host_encode_binary16(fp8 format, const std::uint16_t* in, std::uint8_t* out,
                          std::size_t n);
void host_decode_binary16(fp8 format, const std::uint8_t* in, std::uint16_t* out,
                          std::size_t n);

// The instruction set the bulk dispatcher chose on this CPU.
const char* host_isa();

}  // namespace mf_cuda_test
