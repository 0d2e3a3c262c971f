// The unit fp32_to_fp8 under Verilator, checked from C++ with the header-only
// library directly (no DPI): the third way of docs/verification.md. Inputs:
// every sign, exponent and top 11 mantissa bits of FP32 (2^20 patterns),
// each with the low 12 bits zero (exact ties) and random (sticky bits); for
// E4M3FN and E5M2, saturate 0 and 1. Exit status 0 when all match.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>

#include <minifloat/minifloat.hpp>

#include "Vfp32_to_fp8.h"
#include "verilated.h"

namespace {

float as_float(std::uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  const auto context = std::make_unique<VerilatedContext>();
  context->commandArgs(argc, argv);
  const auto unit = std::make_unique<Vfp32_to_fp8>(context.get());
  std::uint64_t checks = 0, mismatches = 0;
  std::uint32_t random = 12345u;  // xorshift32 for the low bits
  for (std::uint32_t pattern = 0; pattern < (1u << 20); ++pattern) {
    for (int low = 0; low < 2; ++low) {
      random ^= random << 13;
      random ^= random >> 17;
      random ^= random << 5;
      const std::uint32_t bits = (pattern << 12) | (low ? (random & 0xFFFu) : 0u);
      for (int saturate = 0; saturate < 2; ++saturate) {
        unit->f32 = bits;
        unit->saturate = saturate;
        unit->eval();
        const auto on_overflow = saturate ? mf::overflow::saturating : mf::overflow::non_saturating;
        const unsigned want_e4m3fn =
            mf::round_to<mf::e4m3fn>(as_float(bits), mf::rounding::nearest_even, on_overflow).bits();
        const unsigned want_e5m2 =
            mf::round_to<mf::e5m2>(as_float(bits), mf::rounding::nearest_even, on_overflow).bits();
        checks += 2;
        if (unit->e4m3fn != want_e4m3fn || unit->e5m2 != want_e5m2) {
          if (++mismatches <= 10) {
            std::printf("MISMATCH input 0x%08x saturate %d: unit %02x %02x, model %02x %02x\n",
                        bits, saturate, unit->e4m3fn, unit->e5m2, want_e4m3fn, want_e5m2);
          }
        }
      }
    }
  }
  unit->final();
  std::printf("cpp_harness: %llu checks, %llu mismatches\n",
              static_cast<unsigned long long>(checks), static_cast<unsigned long long>(mismatches));
  return mismatches == 0 && checks > 0 ? 0 : 1;
}
