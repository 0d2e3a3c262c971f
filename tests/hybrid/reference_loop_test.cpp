// The hybrid MatMul's reference triple loop (options.reference_only) on its
// own, against answers computed here without the library's accumulation
// code: for each model whose answer can be written independently, on random
// matrices of wide-range finite FP8 codes (uniform over the codes, so that
// the products span the whole exponent range and summation orders differ).
//
//  * exact / exact(true): the sum of products as an integer multiple of the
//    product unit (E4M3 2^-9, E5M2 2^-16: every product is an integer times
//    2^-25 or 2^-32; docs/hybrid.md, "The exact sum and its width"), in
//    __int128, rounded once here to float32 (nearest even) or, for
//    exact(true) with an FP8 output, once to the output format by the
//    independent reference of tests/reference/; a sum placed just off an
//    E4M3 midpoint shows a rounding to float32 on the way (random data
//    rarely does).
//  * chunked_exact{chunk, rounding, presum_round}: per chunk the exact
//    integer sum, acc = round(acc + S) (or round(acc + round(S))) with the
//    rounding written here (docs/hybrid.md, "The accumulation models").
//  * sequential_fp32 and chunked_exact{1}: acc = acc + p_k in float32,
//    k = 0..K-1 (every FP8 x FP8 product is exact in float32: 4 x 4
//    significant bits at most, so the FMA is this addition).
//  * avx512_bf16_pairs: per pair i, the odd product 2i+1 first, then the
//    even one 2i, an odd K padded with the pair (+0, +0) (Intel SDM,
//    VDPBF16PS, as docs/hybrid.md states it).
//  * amx_tile_pairs{chunk, sdm}: per chunk, even and odd partial sums from
//    +0, t = even + odd, dst = dst + t; {guide}: dst += even, dst += odd per
//    pair (the Intel SDM's TDPBF16PS pseudocode; the intrinsics guide).
// For FP8 operands the DAZ/FTZ rules of the two 16-bit models never apply:
// the operands are BF16 normals (|x| >= 2^-16) and every non-zero partial
// sum is a multiple of 2^-32, far above 2^-126.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <minifloat/hybrid.hpp>

#include "hybrid_test_support.hpp"
#include "reference/reference.hpp"

namespace {

namespace hy = mf::hybrid;
using hy::element_type;
using T = element_type;

// GCC/Clang 128-bit integers: the exact sums of E5M2 x E5M2 products need
// more than 64 bits (docs/hybrid.md, "The exact sum and its width").
__extension__ typedef __int128 wide;
__extension__ typedef unsigned __int128 uwide;

// The test's own decoders of the two FP8 inputs (OCP 8-bit FP v1.0):
// E4M3 bias 7, S.1111.111 NaN; E5M2 bias 15, IEEE specials. The value as
// an integer times 2^-9 (E4M3) or 2^-16 (E5M2).
struct fp8_value {
  std::int64_t units;  // signed multiple of 2^unit_exponent
  int unit_exponent;
};

fp8_value decode_fp8(element_type t, std::uint32_t code) {
  const int m_bits = t == T::hf8 ? 3 : 2;
  const int bias = t == T::hf8 ? 7 : 15;
  const int e_bits = 7 - m_bits;
  const int sub_exp = 1 - bias - m_bits;  // the subnormal unit: 2^-9, 2^-16
  const std::uint32_t e = (code >> m_bits) & ((1u << e_bits) - 1u);
  const std::uint32_t m = code & ((1u << m_bits) - 1u);
  std::int64_t units = e == 0 ? static_cast<std::int64_t>(m)
                              : static_cast<std::int64_t>((1u << m_bits) | m) << (e - 1);
  if (code & 0x80u) units = -units;
  return {units, sub_exp};
}

enum class mode { nearest_even, toward_zero };

// n * 2^unit rounded to float32 (no overflow or subnormal results arise
// here: |n * 2^unit| < 2^40 and any non-zero one is >= 2^-32). A zero is +0.
float round_scaled(wide n, int unit, mode how) {
  if (n == 0) return 0.0f;
  const bool negative = n < 0;
  uwide mag = negative ? static_cast<uwide>(-n) : static_cast<uwide>(n);
  int length = 0;
  for (uwide x = mag; x != 0; x >>= 1) ++length;
  int shift = length - 24;
  if (shift > 0) {
    const uwide rest = mag & ((uwide{1} << shift) - 1u);
    const uwide half = uwide{1} << (shift - 1);
    mag >>= shift;
    if (how == mode::nearest_even && (rest > half || (rest == half && (mag & 1u)))) ++mag;
  } else {
    shift = 0;
  }
  const double r = std::ldexp(static_cast<double>(mag), unit + shift);  // <= 25 bits: exact
  const float f = static_cast<float>(r);
  EXPECT_EQ(static_cast<double>(f), r) << "not a float32";
  return negative ? -f : f;
}

// A float32 as an integer multiple of 2^unit (exact for the partial sums
// here, multiples of 2^unit by construction).
wide to_units(float f, int unit) {
  const double scaled = std::ldexp(static_cast<double>(f), -unit);
  EXPECT_EQ(scaled, std::trunc(scaled)) << f << " is not a multiple of 2^" << unit;
  EXPECT_LT(std::fabs(scaled), 0x1p100);
  // Two halves: each is exact in double and in int64.
  const double high = std::trunc(scaled / 0x1p52) * 0x1p52;
  return static_cast<wide>(static_cast<std::int64_t>(high / 0x1p52)) * (wide{1} << 52) +
         static_cast<std::int64_t>(scaled - high);
}

// n * 2^unit as a long double (64 significant bits) rounded to odd: exact
// when n has at most 64 bits, otherwise cut to 63 bits with the sticky bit
// as the 64th. Rounding that once more to a format of at most 4 significant
// bits gives the correctly rounded value (round to odd keeps the ties and
// halfway crossings of every format narrower by two bits or more).
long double to_odd_long_double(wide n, int unit) {
  const bool negative = n < 0;
  uwide mag = negative ? static_cast<uwide>(-n) : static_cast<uwide>(n);
  int shift = 0;
  while ((mag >> 64) != 0) {
    const bool sticky = (mag & 1u) != 0;
    mag >>= 1;
    mag |= sticky ? 1u : 0u;
    ++shift;
  }
  const long double r =
      std::ldexp(static_cast<long double>(static_cast<std::uint64_t>(mag)), unit + shift);
  return negative ? -r : r;
}

struct problem {
  element_type ta, tb;
  std::size_t m, n, k;
  std::vector<std::uint32_t> a, b;  // row-major, M x K and K x N
  int unit;                          // the product unit exponent
  // The products of output (i, j), as integers times 2^unit, k = 0..K-1.
  std::vector<wide> products(std::size_t i, std::size_t j) const {
    std::vector<wide> p(k);
    for (std::size_t x = 0; x < k; ++x) {
      const fp8_value va = decode_fp8(ta, a[i * k + x]);
      const fp8_value vb = decode_fp8(tb, b[x * n + j]);
      p[x] = static_cast<wide>(va.units) * vb.units;
    }
    return p;
  }
};

problem make_problem(element_type ta, element_type tb, std::size_t m, std::size_t n,
                     std::size_t k, std::mt19937_64& rng) {
  problem p{ta, tb, m, n, k, hybrid_test::random_matrix(ta, m * k, rng),
            hybrid_test::random_matrix(tb, k * n, rng), 0};
  p.unit = decode_fp8(ta, 1).unit_exponent + decode_fp8(tb, 1).unit_exponent;
  return p;
}

std::vector<std::uint32_t> run_reference(const problem& p, element_type tc,
                                         const hy::accumulation_model& model) {
  hy::matmul_options o;
  o.model = model;
  o.reference_only = true;
  o.check_z_multiple = false;
  std::vector<std::uint32_t> c(p.m * p.n, 0xDEADBEEFu);
  hy::matmul(hy::table_id::any, p.ta, p.tb, tc, p.a.data(), p.k, p.b.data(), p.n, c.data(), p.n,
             p.m, p.n, p.k, o);
  return c;
}

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

// The expected float32 accumulator of one output element, per model.
using expectation = float (*)(const std::vector<wide>& products, int unit);

float expect_exact(const std::vector<wide>& p, int unit) {
  wide s = 0;
  for (wide x : p) s += x;
  return round_scaled(s, unit, mode::nearest_even);
}

// acc = acc + p_k in float32 (each product exact in float32).
float float_sum_in_order(const std::vector<wide>& p, int unit, const std::vector<std::size_t>& order) {
  float acc = 0.0f;
  for (std::size_t x : order) {
    const float product = round_scaled(p[x], unit, mode::nearest_even);
    EXPECT_EQ(to_units(product, unit), p[x]) << "a product is not exact in float32";
    acc += product;
  }
  return acc;
}

float expect_sequential(const std::vector<wide>& p, int unit) {
  std::vector<std::size_t> order(p.size());
  for (std::size_t x = 0; x < p.size(); ++x) order[x] = x;
  return float_sum_in_order(p, unit, order);
}

// The pair rule: 1, 0, 3, 2, ...; the padding (+0, +0) adds +0 to a
// non-negative-zero accumulator and is left out.
float expect_bf16_pairs(const std::vector<wide>& p, int unit) {
  std::vector<std::size_t> order;
  for (std::size_t x = 0; x < p.size(); x += 2) {
    if (x + 1 < p.size()) order.push_back(x + 1);
    order.push_back(x);
  }
  return float_sum_in_order(p, unit, order);
}

template <int Chunk>
float expect_amx_sdm(const std::vector<wide>& p, int unit) {
  float dst = 0.0f;
  for (std::size_t start = 0; start < p.size(); start += Chunk) {
    float even = 0.0f, odd = 0.0f;
    for (std::size_t x = start; x < start + Chunk && x < p.size(); ++x) {
      const float product = round_scaled(p[x], unit, mode::nearest_even);
      if ((x - start) % 2 == 0) {
        even += product;
      } else {
        odd += product;
      }
    }
    dst += even + odd;
  }
  return dst;
}

template <int Chunk, mode How, bool Presum>
float expect_chunked(const std::vector<wide>& p, int unit) {
  float acc = 0.0f;
  for (std::size_t start = 0; start < p.size(); start += Chunk) {
    wide s = 0;
    for (std::size_t x = start; x < start + Chunk && x < p.size(); ++x) s += p[x];
    if (Presum) s = to_units(round_scaled(s, unit, How), unit);
    acc = round_scaled(to_units(acc, unit) + s, unit, How);
  }
  return acc;
}

struct model_case {
  std::string name;
  hy::accumulation_model model;
  expectation expected;
  bool is_sequential;  // the model is the sequential sum by definition
};

std::vector<model_case> model_cases() {
  using hy::models::amx_tile_pairs;
  using hy::models::chunked_exact;
  const auto rz = hy::fp32_rounding::toward_zero;
  return {
      {"sequential_fp32", hy::models::sequential_fp32(), expect_sequential, true},
      {"exact", hy::models::exact(), expect_exact, false},
      {"exact(true)", hy::models::exact(true), expect_exact, false},
      {"chunked_exact{1}", chunked_exact(1), expect_sequential, true},
      {"chunked_exact{1}", chunked_exact(1), expect_chunked<1, mode::nearest_even, false>, true},
      {"chunked_exact{16}", chunked_exact(16), expect_chunked<16, mode::nearest_even, false>, false},
      {"chunked_exact{64}", chunked_exact(64), expect_chunked<64, mode::nearest_even, false>, false},
      {"chunked_exact{16, toward_zero}", chunked_exact(16, rz),
       expect_chunked<16, mode::toward_zero, false>, false},
      {"chunked_exact{16, presum_round}", chunked_exact(16, hy::fp32_rounding::nearest_even, true),
       expect_chunked<16, mode::nearest_even, true>, false},
      {"chunked_exact{64, toward_zero, presum_round}", chunked_exact(64, rz, true),
       expect_chunked<64, mode::toward_zero, true>, false},
      {"avx512_bf16_pairs", hy::models::avx512_bf16_pairs(), expect_bf16_pairs, false},
      {"amx_tile_pairs{32, sdm}", amx_tile_pairs(32), expect_amx_sdm<32>, false},
      {"amx_tile_pairs{8, sdm}", amx_tile_pairs(8), expect_amx_sdm<8>, false},
      {"amx_tile_pairs{32, guide}", amx_tile_pairs(32, hy::amx_order::guide), expect_sequential,
       true},
  };
}

const element_type kPairs[][2] = {{T::hf8, T::hf8}, {T::hf8, T::bf8}, {T::bf8, T::hf8},
                                  {T::bf8, T::bf8}};
const char* name_of(element_type t) { return t == T::hf8 ? "hf8" : "bf8"; }

TEST(HybridReferenceLoop, Float32OutputIsTheModelsSum) {
  std::mt19937_64 rng(20260302);
  for (const model_case& mc : model_cases()) {
    std::size_t differs_from_sequential = 0, checked = 0;
    for (const auto& pair : kPairs) {
      for (std::size_t k : {1, 2, 3, 17, 64, 65, 130, 203}) {
        const problem p = make_problem(pair[0], pair[1], 6, 8, k, rng);
        const std::vector<std::uint32_t> c = run_reference(p, T::f32, mc.model);
        for (std::size_t i = 0; i < p.m; ++i) {
          for (std::size_t j = 0; j < p.n; ++j) {
            const std::vector<wide> products = p.products(i, j);
            const float want = mc.expected(products, p.unit);
            ASSERT_EQ(c[i * p.n + j], bits_of(want))
                << mc.name << ", " << name_of(p.ta) << " x " << name_of(p.tb) << ", K = " << k
                << ", C[" << i << "][" << j << "]: got " << hybrid_test::as_float(c[i * p.n + j])
                << ", expected " << want;
            ++checked;
            if (want != expect_sequential(products, p.unit)) ++differs_from_sequential;
          }
        }
      }
    }
    EXPECT_EQ(checked, 4u * 8u * 48u);
    // The data tells the orders apart: except the models that are the
    // sequential sum, many outputs differ from it.
    if (!mc.is_sequential) {
      EXPECT_GT(differs_from_sequential, 100u) << mc.name;
    }
  }
}

// exact(true) with an FP8 output: the exact sum rounded once to the output
// format (nearest even, non-saturating: the default output conversion), by
// the independent reference; against exact() whose float32 rounding comes
// first, the double rounding shows.
TEST(HybridReferenceLoop, ExactToOutputRoundsTheExactSumOnce) {
  const mfref::reference e4m3fn({"e4m3fn", 4, 3, 7, mfref::kind::fn});
  const mfref::reference e5m2({"e5m2", 5, 2, 15, mfref::kind::ieee});
  std::mt19937_64 rng(7);
  std::size_t checked = 0;
  for (const auto& pair : kPairs) {
    for (element_type tc : {T::hf8, T::bf8}) {
      const mfref::reference& out = tc == T::hf8 ? e4m3fn : e5m2;
      for (std::size_t k : {1, 5, 64, 131}) {
        const problem p = make_problem(pair[0], pair[1], 4, 5, k, rng);
        const std::vector<std::uint32_t> c = run_reference(p, tc, hy::models::exact(true));
        for (std::size_t i = 0; i < p.m; ++i) {
          for (std::size_t j = 0; j < p.n; ++j) {
            wide s = 0;
            for (wide x : p.products(i, j)) s += x;
            const unsigned want = out.encode(to_odd_long_double(s, p.unit),
                                             mfref::round_mode::nearest_even,
                                             mfref::overflow_mode::non_saturating);
            ASSERT_EQ(c[i * p.n + j], want)
                << name_of(p.ta) << " x " << name_of(p.tb) << " -> " << name_of(tc)
                << ", K = " << k << ", C[" << i << "][" << j << "]";
            ++checked;
          }
        }
      }
    }
  }
  EXPECT_EQ(checked, 4u * 2u * 4u * 20u);
}

// A sum just below an E4M3 midpoint by less than half a float32 ulp:
// 288 * 1 + 16 * 1 + 2^-9 * -2^-9 = 304 - 2^-18. Rounded once it is 288
// (below the midpoint 304 of 288 and 320); rounded to float32 first it
// becomes 304 (ulp 2^-15 there), a tie that goes to the even 320.
TEST(HybridReferenceLoop, ExactToOutputDoesNotRoundToFloat32First) {
  problem p{T::hf8, T::hf8, 1, 1, 3, {0x79, 0x58, 0x01}, {0x38, 0x38, 0x81}, -18};
  const std::vector<std::uint32_t> c = run_reference(p, T::hf8, hy::models::exact(true));
  EXPECT_EQ(c[0], 0x79u) << "expected 288 (0x79); 320 is 0x7A";
  // exact() rounds to float32 on the way: 304, then the tie to 320.
  const std::vector<std::uint32_t> f = run_reference(p, T::hf8, hy::models::exact());
  EXPECT_EQ(f[0], 0x7Au);
}

}  // namespace
