// Compiled (never run) by nvcc for sm_90 so that device use of the types
// cannot silently break: every kernel below exercises one part of the API
// (construction, the rounding functions, operators, comparisons, the
// <cmath>-style functions, numeric_limits, from_bits/bits, conversion to
// float) on several formats, the 16-bit IEEE ones and e8m0fnu included;
// the exchange with CUDA's own types (cuda_types.hpp); and the CPU kernels
// (bulk, MX) in host code, whose pragmas nvcc must pass on without a
// warning.
#include <cstdint>
#include <limits>

#include <minifloat/bulk.hpp>
#include <minifloat/cuda_types.hpp>
#include <minifloat/minifloat.hpp>
#include <minifloat/mx.hpp>

namespace {

// Round trip and arithmetic on one format; the result is written out so that
// nothing is optimised away.
template <class T>
__device__ float exercise(float input, std::uint32_t random) {
  using limits = std::numeric_limits<T>;
  using storage = typename T::storage_type;

  // Construction (explicit, rounding) and conversion back (implicit, exact).
  const T from_float(input);
  const T from_double(static_cast<double>(input) * 0.5);
  const T from_int(static_cast<int>(random & 7u));
  const T from_other{mf::e4m3fn{input}};
  float sum = from_float;
  sum += static_cast<float>(static_cast<double>(from_double));

  // Every rounding mode, both overflow modes, stochastic rounding.
  const T toward_zero = mf::round_to<T>(input, mf::rounding::toward_zero);
  const T up = mf::round_to<T>(input, mf::rounding::toward_positive, mf::overflow::saturating);
  const T down = mf::round_to<T>(static_cast<double>(input), mf::rounding::toward_negative);
  const T stochastic = mf::round_to_stochastic<T>(input, random);
  const T stochastic8 =
      mf::round_to_stochastic<T>(input, random, mf::overflow::saturating, 8);

  // Operators, compound assignment, unary, mixed with float/double/int.
  T x = from_float + from_int;
  x -= toward_zero;
  x *= up;
  x /= from_other;
  x = -x;
  x = +x;
  const T product = down * stochastic;
  const float mixed_float = stochastic8 + 1.0f;
  const double mixed_double = 2.0 * stochastic8;
  const float mixed_int = stochastic8 - 3;

  // Comparisons.
  int flags = 0;
  flags |= (x == product) ? 1 : 0;
  flags |= (x != product) ? 2 : 0;
  flags |= (x < product) ? 4 : 0;
  flags |= (x <= product) ? 8 : 0;
  flags |= (x > product) ? 16 : 0;
  flags |= (x >= product) ? 32 : 0;
  flags |= (x < 1.0f) ? 64 : 0;

  // The <cmath>-style functions.
  flags += mf::isnan(x) + mf::isinf(x) + mf::isfinite(x) + mf::isnormal(x) + mf::signbit(x) +
           mf::iszero(x) + mf::fpclassify(x);
  const T magnitude = mf::abs(x);
  const T same_magnitude = mf::fabs(product);
  const T signed_copy = mf::copysign(magnitude, product);
  const T next = mf::nextafter(signed_copy, limits::max());

  // numeric_limits.
  const T extremes[] = {limits::max(), limits::lowest(), limits::min(), limits::denorm_min(),
                        limits::epsilon(), limits::round_error(), limits::infinity(),
                        limits::quiet_NaN(), limits::signaling_NaN()};
  for (const T e : extremes) sum += static_cast<float>(e);
  flags += limits::digits + limits::max_exponent + limits::min_exponent10;

  // Bits.
  const storage bits = static_cast<storage>(next.bits() ^ same_magnitude.bits());
  const T rebuilt = T::from_bits(bits);

  return sum + rebuilt + mixed_float + static_cast<float>(mixed_double) + mixed_int +
         static_cast<float>(flags);
}

__global__ void exercise_formats(const float* input, const std::uint32_t* random,
                                 float* output, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  const float v = input[i];
  const std::uint32_t r = random[i];
  output[i] = exercise<mf::e4m3fn>(v, r) + exercise<mf::e5m2>(v, r) +
              exercise<mf::e4m3fnuz>(v, r) + exercise<mf::e5m2fnuz>(v, r) +
              exercise<mf::e2m1fn>(v, r) + exercise<mf::e3m2fn>(v, r) +
              exercise<mf::e8m0fnu>(v, r) + exercise<mf::binary16>(v, r) +
              exercise<mf::bfloat16>(v, r) +
              // The bulk kernels' random stream, on the device: same bits.
              static_cast<float>(mf::round_to_stochastic<mf::e4m3fn>(
                  v, mf::stochastic_random_bits(r, static_cast<std::uint64_t>(i), 8),
                  mf::overflow::saturating, 8));
}

// Arrays of the types in device memory: one byte per fp8 element, stored
// and loaded like any trivially copyable type.
__global__ void quantize(const float* input, mf::e4m3fn* fp8, mf::e8m0fnu* scale,
                         mf::bfloat16* wide, int n) {
  const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
  if (i >= n) return;
  fp8[i] = mf::round_to<mf::e4m3fn>(input[i], mf::rounding::nearest_even,
                                    mf::overflow::saturating);
  scale[i] = mf::e8m0fnu(input[i]);
  wide[i] = static_cast<mf::bfloat16>(fp8[i]) * static_cast<mf::bfloat16>(scale[i]);
}

// Constants that go through every path of the scalar conversion: a float
// that needs no normalisation, an int and a double (the integer paths, which
// count leading zeros), a directed rounding, bfloat16 from float. Each must
// stay a constant expression under nvcc (the static_asserts run in its host
// pass, the __device__ variable needs one in its device pass).
constexpr mf::e4m3fn two_from_int(2);
constexpr mf::e4m3fn third_from_double(1.0 / 3.0);
constexpr mf::e4m3fn toward_zero_3_3 =
    mf::round_to<mf::e4m3fn>(3.3f, mf::rounding::toward_zero);
constexpr mf::bfloat16 bfloat16_three(3.0f);
constexpr mf::bfloat16 bfloat16_epsilon = std::numeric_limits<mf::bfloat16>::epsilon();
static_assert(two_from_int.bits() == 0x40, "2 is 0x40 in e4m3fn");
static_assert(third_from_double.bits() == 0x2b, "1/3 rounds to 0.34375 (0x2b)");
static_assert(toward_zero_3_3.bits() == 0x45, "3.3 toward zero is 3.25 (0x45)");
static_assert(bfloat16_three.bits() == 0x4040, "3 is 0x4040 in bfloat16");
static_assert(bfloat16_epsilon.bits() == 0x3c00, "bfloat16's epsilon is 2^-7");
__device__ mf::bfloat16 device_three = mf::bfloat16(3.0f);  // static initialisation only

// The results of constant expressions are the same in device code.
__global__ void constants(std::uint32_t* output) {
  constexpr mf::e4m3fn nan = std::numeric_limits<mf::e4m3fn>::quiet_NaN();
  constexpr mf::e5m2 inf = std::numeric_limits<mf::e5m2>::infinity();
  constexpr mf::binary16 half_max = std::numeric_limits<mf::binary16>::max();
  output[0] = nan.bits();
  output[1] = inf.bits();
  output[2] = half_max.bits();
  output[3] = two_from_int.bits() + third_from_double.bits() + toward_zero_3_3.bits();
  output[4] = bfloat16_three.bits() + bfloat16_epsilon.bits() + device_three.bits();
}

// CUDA's types in and out (cuda_types.hpp): FP8 to bfloat16 through the
// library, FP4 and binary16 both ways.
__global__ void exchange(const __nv_fp8_e4m3* fp8, __nv_bfloat16* wide, __nv_fp4_e2m1* fp4,
                         __half* half, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const mf::e4m3fn x = mf::from_cuda(fp8[i]);
  wide[i] = mf::to_cuda(mf::bfloat16(x));
  fp4[i] = mf::to_cuda(mf::round_to<mf::e2m1fn>(x, mf::rounding::nearest_even,
                                                 mf::overflow::saturating));
  half[i] = mf::to_cuda(mf::binary16(mf::from_cuda(half[i])) + mf::binary16(x));
}

}  // namespace

// The CPU kernels in a .cu file's host code: their headers' pragmas for the
// host compiler (target regions, fp-contract=off, unrolling) must not make
// nvcc's front end warn.
void host_kernels(const float* input, mf::e4m3fn* fp8, mf::mx::block<mf::mx::mxfp8_e4m3>* blocks,
                  std::size_t n) {
  mf::bulk::encode<mf::e4m3fn>(input, fp8, n);
  mf::mx::quantize_blocks<mf::mx::mxfp8_e4m3>(input, blocks, n / 32);
}

// Host entry point, so that the kernels are referenced (and instantiated)
// without being launched by any test.
void minifloat_device_use_compile_test(const float* input, const std::uint32_t* random,
                                       float* output, mf::e4m3fn* fp8, mf::e8m0fnu* scale,
                                       mf::bfloat16* wide, std::uint32_t* constants_out,
                                       const __nv_fp8_e4m3* cuda_fp8, __nv_bfloat16* cuda_wide,
                                       __nv_fp4_e2m1* cuda_fp4, __half* cuda_half, int n) {
  exercise_formats<<<(n + 127) / 128, 128>>>(input, random, output, n);
  quantize<<<(n + 127) / 128, 128>>>(input, fp8, scale, wide, n);
  constants<<<1, 1>>>(constants_out);
  exchange<<<(n + 127) / 128, 128>>>(cuda_fp8, cuda_wide, cuda_fp4, cuda_half, n);
}
