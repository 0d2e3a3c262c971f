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
//  * reduced_precision{bits, promote_every, variant, block, trunc}: the
//    partial sum cut to `bits` significant bits (seq), or per block aligned
//    to the largest exponent and cut (block), toward zero or floor, in
//    __int128 (docs/hybrid.md, "reduced_precision").
// For FP8 operands the DAZ/FTZ rules of the two 16-bit models never apply:
// the operands are BF16 normals (|x| >= 2^-16) and every non-zero partial
// sum is a multiple of 2^-32, far above 2^-126. So those rules are checked
// on BF16 and FP16 operands (denormal inputs, sums near 2^-126), each FMA
// emulated in double with round-to-odd and flushed here by hand.
#include <gtest/gtest.h>

#include <algorithm>
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

// ---- reduced_precision{bits, promote_every, variant, block, trunc} ------
// Written from docs/hybrid.md ("reduced_precision") in integers: every
// product is an integer multiple of the product unit, and every cut keeps
// it one (a cut only clears low bits), so part stays an exact __int128.

enum class cut { toward_zero, floor };

int bit_length(uwide x) {
  int length = 0;
  for (; x != 0; x >>= 1) ++length;
  return length;
}

// v cut to a multiple of 2^q (q > 0): toward zero, or toward -Inf.
wide cut_to_quantum(wide v, int q, cut how) {
  if (q <= 0 || v == 0) return v;
  const bool negative = v < 0;
  const uwide mag = negative ? static_cast<uwide>(-v) : static_cast<uwide>(v);
  uwide kept = (mag >> q) << q;
  if (negative && how == cut::floor && kept != mag) kept += uwide{1} << q;
  return negative ? -static_cast<wide>(kept) : static_cast<wide>(kept);
}

// v cut to `bits` significant bits, the exponent unbounded.
wide cut_to_bits(wide v, int bits, cut how) {
  if (v == 0) return 0;
  const uwide mag = v < 0 ? static_cast<uwide>(-v) : static_cast<uwide>(v);
  return cut_to_quantum(v, bit_length(mag) - bits, how);
}

struct reduced_case {
  int bits, promote_every;
  bool block_variant;
  int block;
  cut how;
};

float expect_reduced(const std::vector<wide>& p, int unit, const reduced_case& rc) {
  float acc = 0.0f;
  const std::size_t k = p.size();
  const auto promote = static_cast<std::size_t>(rc.promote_every);
  for (std::size_t start = 0; start < k; start += promote) {
    const std::size_t end = std::min(k, start + promote);
    wide part = 0;
    if (!rc.block_variant) {
      for (std::size_t x = start; x < end; ++x) part = cut_to_bits(part + p[x], rc.bits, rc.how);
    } else {
      const auto block = static_cast<std::size_t>(rc.block);
      for (std::size_t first = start; first < end; first += block) {
        const std::size_t last = std::min(end, first + block);
        // emax: the largest exponent among part and the block's products,
        // in units (bit_length - 1 of the magnitude).
        int emax = -1;
        const auto consider = [&](wide t) {
          const uwide mag = t < 0 ? static_cast<uwide>(-t) : static_cast<uwide>(t);
          if (mag != 0) emax = std::max(emax, bit_length(mag) - 1);
        };
        consider(part);
        for (std::size_t x = first; x < last; ++x) consider(p[x]);
        if (emax < 0) {  // only zeros
          part = 0;
          continue;
        }
        const int q = emax - rc.bits + 1;
        wide total = cut_to_quantum(part, q, rc.how);
        for (std::size_t x = first; x < last; ++x) total += cut_to_quantum(p[x], q, rc.how);
        part = cut_to_bits(total, rc.bits, rc.how);
      }
    }
    acc = round_scaled(to_units(acc, unit) + part, unit, mode::nearest_even);
  }
  return acc;
}

TEST(HybridReferenceLoop, ReducedPrecisionIsTheTruncatedPartialSum) {
  const reduced_case cases[] = {
      {14, 128, false, 32, cut::toward_zero}, {14, 128, true, 32, cut::toward_zero},
      {14, 128, true, 32, cut::floor},        {14, 128, false, 32, cut::floor},
      {5, 7, false, 32, cut::floor},          {3, 20, true, 4, cut::floor},
      {22, 16, true, 8, cut::toward_zero},    {1, 3, false, 32, cut::toward_zero},
      {8, 40, true, 1, cut::floor},           {53, 1000, true, 1000, cut::floor},
  };
  std::mt19937_64 rng(20261129);
  for (const reduced_case& rc : cases) {
    const hy::accumulation_model model = hy::models::reduced_precision(
        rc.bits, rc.promote_every,
        rc.block_variant ? hy::reduced_variant::block : hy::reduced_variant::seq, rc.block,
        rc.how == cut::floor ? hy::truncation::floor : hy::truncation::toward_zero);
    const std::string name = "reduced_precision{" + std::to_string(rc.bits) + ", " +
                             std::to_string(rc.promote_every) +
                             (rc.block_variant ? ", block " + std::to_string(rc.block) : ", seq") +
                             (rc.how == cut::floor ? ", floor}" : ", toward_zero}");
    std::size_t differs_from_exact = 0, differs_by_truncation = 0;
    for (const auto& pair : kPairs) {
      for (std::size_t k : {1, 2, 3, 17, 64, 65, 130, 203}) {
        const problem p = make_problem(pair[0], pair[1], 4, 6, k, rng);
        const std::vector<std::uint32_t> c = run_reference(p, T::f32, model);
        for (std::size_t i = 0; i < p.m; ++i) {
          for (std::size_t j = 0; j < p.n; ++j) {
            const std::vector<wide> products = p.products(i, j);
            const float want = expect_reduced(products, p.unit, rc);
            ASSERT_EQ(c[i * p.n + j], bits_of(want))
                << name << ", " << name_of(p.ta) << " x " << name_of(p.tb) << ", K = " << k
                << ", C[" << i << "][" << j << "]: got " << hybrid_test::as_float(c[i * p.n + j])
                << ", expected " << want;
            if (want != expect_exact(products, p.unit)) ++differs_from_exact;
            reduced_case other = rc;
            other.how = rc.how == cut::floor ? cut::toward_zero : cut::floor;
            if (want != expect_reduced(products, p.unit, other)) ++differs_by_truncation;
          }
        }
      }
    }
    // The data exercises the cuts: short accumulators lose bits, and the
    // two truncations of negative terms differ (not at 53 bits, where
    // FP8 products' sums are never cut).
    if (rc.bits <= 22) {
      EXPECT_GT(differs_from_exact, 50u) << name;
      EXPECT_GT(differs_by_truncation, 20u) << name;
    }
  }
}

// ---- DAZ and FTZ of the 16-bit dot-product models ---------------------
// avx512_bf16_pairs (VDPBF16PS) and amx_tile_pairs (TDPBF16PS, TDPFP16PS)
// per docs/hybrid.md ("DAZ and FTZ of the dot-product instructions") and
// the Intel SDM: BF16 inputs that are denormal are read as zeros of their
// sign (FP16 inputs of TDPFP16PS are not), the FP32 accumulator going in
// likewise, and each FMA's result, rounded to 24 significant bits with an
// unbounded exponent, becomes a zero of its sign when below 2^-126.
//
// Written here without the library's code: each FMA's exact value in double
// arithmetic (BF16 and FP16 products have at most 22 significant bits and
// are exact in double), the addition rounded to odd with TwoSum and one
// nextafter, then rounded to 24 bits with std::frexp / std::nearbyint; a
// round-to-odd double rounded once more to 24 bits gives the exact value
// rounded once (53 >= 24 + 2; Boldo and Melquiond, IEEE TC 2008).

// The test's own decoders (BF16: the top half of a float32; FP16: IEEE
// 754 binary16, bias 15).
double decode_bf16(std::uint32_t code) {
  const std::uint32_t bits = code << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}
double decode_f16(std::uint32_t code) {
  const std::uint32_t e = (code >> 10) & 0x1Fu, m = code & 0x3FFu;
  const double v = e == 0 ? std::ldexp(static_cast<double>(m), -24)
                          : std::ldexp(static_cast<double>(m | 0x400u), static_cast<int>(e) - 25);
  return (code & 0x8000u) ? -v : v;
}
bool is_denormal(element_type t, std::uint32_t code) {
  return t == T::bf16 ? (code & 0x7F80u) == 0 && (code & 0x7Fu) != 0
                      : (code & 0x7C00u) == 0 && (code & 0x3FFu) != 0;
}

// The instructions' rules are {BF16: true, FP16: false; true}; the other
// settings are the readings the test counts its data against.
struct flush_rules {
  bool daz_inputs;  // denormal 16-bit inputs read as zeros of their sign
  bool ftz;         // the accumulator going in read with DAZ, and results
                    // below 2^-126 (after rounding to 24 bits) flushed
};

double zero_of_sign(double x) { return std::signbit(x) ? -0.0 : 0.0; }

// fma(x, y, c) as the instructions compute it; x and y are already read
// (DAZ applied by the caller); c is read with DAZ here.
float fma_ref(double x, double y, float c_in, const flush_rules& r) {
  double c = c_in;
  if (r.ftz && std::fabs(c) < 0x1p-126) c = zero_of_sign(c);
  const double product = x * y;  // exact: <= 22 significant bits, in range
  // TwoSum: s + err == product + c exactly.
  double s = product + c;
  const double bb = s - product;
  const double err = (product - (s - bb)) + (c - bb);
  if (err != 0) {  // round to odd: an even last bit moves toward the exact value
    std::int64_t bits;
    std::memcpy(&bits, &s, sizeof bits);
    if ((bits & 1) == 0) s = std::nextafter(s, err > 0 ? HUGE_VAL : -HUGE_VAL);
  }
  if (s == 0) return static_cast<float>(s);  // an exact zero, with the sum's sign
  if (!r.ftz) return static_cast<float>(s);  // IEEE float32, gradual underflow
  int e = 0;
  const double fraction = std::frexp(s, &e);  // s = fraction * 2^e, 0.5 <= |fraction| < 1
  const double rounded = std::ldexp(std::nearbyint(std::ldexp(fraction, 24)), e - 24);
  if (std::fabs(rounded) < 0x1p-126) return static_cast<float>(zero_of_sign(s));
  return static_cast<float>(rounded);  // 24 bits, a normal float32: exact
}

struct problem16 {
  element_type t;  // bf16 or f16, both operands
  std::size_t m, n, k;
  std::vector<std::uint32_t> a, b;
  double read(std::uint32_t code, const flush_rules& r) const {
    const double v = t == T::bf16 ? decode_bf16(code) : decode_f16(code);
    return r.daz_inputs && is_denormal(t, code) ? zero_of_sign(v) : v;
  }
  // Operand element x of output (i, j); +0 past K (the instructions'
  // zero padding).
  double a_at(std::size_t i, std::size_t x, const flush_rules& r) const {
    return x < k ? read(a[i * k + x], r) : 0.0;
  }
  double b_at(std::size_t x, std::size_t j, const flush_rules& r) const {
    return x < k ? read(b[x * n + j], r) : 0.0;
  }
};

// Rows of A and columns of B are each either "tiny" (BF16: denormals and
// the smallest normals, 2^-133 .. 2^-115; FP16: denormals and normals
// below 2^-10) or "unit" (2^-8 .. 2^8), with random signs, so that many
// outputs are sums of tiny x unit products: there the input DAZ and the
// FTZ near 2^-126 decide the answer.
std::uint32_t random_16bit(element_type t, bool tiny, std::mt19937_64& rng) {
  const std::uint32_t sign = (rng() & 1u) ? 0x8000u : 0u;
  if (t == T::bf16) {
    const std::uint32_t e = tiny ? static_cast<std::uint32_t>(rng() % 12)
                                 : static_cast<std::uint32_t>(119 + rng() % 17);
    return sign | (e << 7) | static_cast<std::uint32_t>(rng() & 0x7Fu);
  }
  const std::uint32_t e = tiny ? static_cast<std::uint32_t>(rng() % 5)
                               : static_cast<std::uint32_t>(7 + rng() % 17);
  return sign | (e << 10) | static_cast<std::uint32_t>(rng() & 0x3FFu);
}

problem16 make_problem16(element_type t, std::size_t m, std::size_t n, std::size_t k,
                         std::mt19937_64& rng) {
  problem16 p{t, m, n, k, std::vector<std::uint32_t>(m * k), std::vector<std::uint32_t>(k * n)};
  for (std::size_t i = 0; i < m; ++i) {
    const bool tiny = (rng() & 1u) != 0;
    for (std::size_t x = 0; x < k; ++x) p.a[i * k + x] = random_16bit(t, tiny, rng);
  }
  for (std::size_t j = 0; j < n; ++j) {
    const bool tiny = (rng() & 1u) != 0;
    for (std::size_t x = 0; x < k; ++x) p.b[x * n + j] = random_16bit(t, tiny, rng);
  }
  return p;
}

enum class pairs_model { bf16_pairs, amx_sdm, amx_guide };

float expect_pairs(const problem16& p, std::size_t i, std::size_t j, pairs_model model,
                   std::size_t chunk, const flush_rules& r) {
  const auto a = [&](std::size_t x) { return p.a_at(i, x, r); };
  const auto b = [&](std::size_t x) { return p.b_at(x, j, r); };
  float acc = 0.0f;
  if (model == pairs_model::bf16_pairs) {
    // Per pair, the odd element first; an odd K appends the pair (+0, +0).
    for (std::size_t x = 0; x < p.k; x += 2) {
      acc = fma_ref(a(x + 1), b(x + 1), acc, r);
      acc = fma_ref(a(x), b(x), acc, r);
    }
    return acc;
  }
  for (std::size_t start = 0; start < p.k; start += chunk) {
    if (model == pairs_model::amx_guide) {
      for (std::size_t x = start; x < start + chunk; ++x) acc = fma_ref(a(x), b(x), acc, r);
      continue;
    }
    float even = 0.0f, odd = 0.0f;
    for (std::size_t x = start; x < start + chunk; x += 2) {
      even = fma_ref(a(x), b(x), even, r);
      odd = fma_ref(a(x + 1), b(x + 1), odd, r);
    }
    const float t = fma_ref(even, 1.0, odd, r);
    acc = fma_ref(acc, 1.0, t, r);
  }
  return acc;
}

void check_pairs_model(element_type t, pairs_model model, std::size_t chunk,
                       const hy::accumulation_model& library_model, const std::string& name) {
  std::mt19937_64 rng(t == T::bf16 ? 16 : 17);
  // The instruction's rules: BF16 inputs DAZ, FP16 inputs not; FTZ always.
  const flush_rules rules{t == T::bf16, true};
  const flush_rules no_input_daz{false, true}, input_daz{true, true}, no_ftz{rules.daz_inputs, false};
  std::size_t daz_decides = 0, ftz_decides = 0, checked = 0;
  for (std::size_t k : {1, 2, 3, 8, 15, 32, 33, 64, 100}) {
    const problem16 p = make_problem16(t, 8, 8, k, rng);
    hy::matmul_options o;
    o.model = library_model;
    o.reference_only = true;
    o.check_z_multiple = false;
    std::vector<std::uint32_t> c(p.m * p.n, 0xDEADBEEFu);
    hy::matmul(hy::table_id::any, t, t, T::f32, p.a.data(), p.k, p.b.data(), p.n, c.data(), p.n,
               p.m, p.n, p.k, o);
    for (std::size_t i = 0; i < p.m; ++i) {
      for (std::size_t j = 0; j < p.n; ++j) {
        const float want = expect_pairs(p, i, j, model, chunk, rules);
        ASSERT_EQ(c[i * p.n + j], bits_of(want))
            << name << ", K = " << k << ", C[" << i << "][" << j << "]: got "
            << hybrid_test::as_float(c[i * p.n + j]) << ", expected " << want;
        ++checked;
        // The other reading of the inputs (DAZ for FP16, none for BF16).
        const flush_rules other = t == T::bf16 ? no_input_daz : input_daz;
        if (bits_of(want) != bits_of(expect_pairs(p, i, j, model, chunk, other))) ++daz_decides;
        if (bits_of(want) != bits_of(expect_pairs(p, i, j, model, chunk, no_ftz))) ++ftz_decides;
      }
    }
  }
  EXPECT_EQ(checked, 9u * 64u);
  // The data reaches the rules: the inputs' DAZ (or its absence for FP16)
  // changes many outputs, and for BF16 the FTZ does too (FP16 products are
  // multiples of 2^-48, so nothing is ever tiny there).
  EXPECT_GT(daz_decides, 50u) << name;
  if (t == T::bf16) {
    EXPECT_GT(ftz_decides, 20u) << name;
  }
}

TEST(HybridReferenceLoop, Bf16PairsReadsDenormalsAsZeroAndFlushesTinyResults) {
  check_pairs_model(T::bf16, pairs_model::bf16_pairs, 2, hy::models::avx512_bf16_pairs(),
                    "avx512_bf16_pairs, BF16");
}

TEST(HybridReferenceLoop, AmxBf16ReadsDenormalsAsZeroAndFlushesTinyResults) {
  using hy::models::amx_tile_pairs;
  check_pairs_model(T::bf16, pairs_model::amx_sdm, 32, amx_tile_pairs(32), "amx{32, sdm}, BF16");
  check_pairs_model(T::bf16, pairs_model::amx_sdm, 6, amx_tile_pairs(6), "amx{6, sdm}, BF16");
  check_pairs_model(T::bf16, pairs_model::amx_guide, 32,
                    amx_tile_pairs(32, hy::amx_order::guide), "amx{32, guide}, BF16");
}

TEST(HybridReferenceLoop, AmxFp16KeepsDenormalInputs) {
  using hy::models::amx_tile_pairs;
  check_pairs_model(T::f16, pairs_model::amx_sdm, 32, amx_tile_pairs(32), "amx{32, sdm}, FP16");
  check_pairs_model(T::f16, pairs_model::amx_guide, 4,
                    amx_tile_pairs(4, hy::amx_order::guide), "amx{4, guide}, FP16");
}

// Tininess after rounding, at the boundary: 2^-126 (one pair) plus
// -m * 2^-158, m = 1..255 (the other pair; BF16 normals m * 2^-80 and
// 2^-78). Sums in [2^-126 - 2^-150, 2^-126 - 2^-151) round to 2^-126 on the
// subnormal grid, so a flush of subnormal results keeps them; rounded to 24
// bits they stay below 2^-126 and are flushed. The pair with 2^-126 goes
// first: the odd one for avx512_bf16_pairs, the even one for amx{guide}.
TEST(HybridReferenceLoop, FlushDecidesTininessAfterRoundingTo24Bits) {
  const flush_rules rules{true, true}, ieee{true, false};
  std::size_t boundary_cases = 0;
  for (const pairs_model model : {pairs_model::bf16_pairs, pairs_model::amx_guide}) {
    const hy::accumulation_model library_model =
        model == pairs_model::bf16_pairs ? hy::models::avx512_bf16_pairs()
                                         : hy::models::amx_tile_pairs(2, hy::amx_order::guide);
    for (std::uint32_t m = 1; m < 256; ++m) {
      for (const bool subtract : {true, false}) {
        // 2^-126 = 2^-63 * 2^-63; m * 2^-158 = (m * 2^-80) * 2^-78, as BF16
        // codes: m * 2^-80 = 1.f * 2^e with m's leading one at bit e + 80.
        int top = 0;
        while ((m >> (top + 1)) != 0) ++top;
        const std::uint32_t tiny_a = (subtract ? 0x8000u : 0x0000u) |
                                     static_cast<std::uint32_t>(127 - 80 + top) << 7 |
                                     (((m << 7) >> top) & 0x7Fu);
        const std::uint32_t pow63 = (127u - 63u) << 7, pow78 = (127u - 78u) << 7;
        const std::size_t first = model == pairs_model::bf16_pairs ? 1 : 0;
        problem16 p{T::bf16, 1, 1, 2, {0, 0}, {0, 0}};
        p.a[first] = pow63;
        p.b[first] = pow63;
        p.a[1 - first] = tiny_a;
        p.b[1 - first] = pow78;
        ASSERT_EQ(decode_bf16(tiny_a), (subtract ? -1.0 : 1.0) * std::ldexp(m, -80)) << m;
        hy::matmul_options o;
        o.model = library_model;
        o.reference_only = true;
        o.check_z_multiple = false;
        std::uint32_t c = 0xDEADBEEFu;
        hy::matmul(hy::table_id::any, T::bf16, T::bf16, T::f32, p.a.data(), 2, p.b.data(), 1, &c,
                   1, 1, 1, 2, o);
        const float want = expect_pairs(p, 0, 0, model, 2, rules);
        ASSERT_EQ(c, bits_of(want)) << "m = " << m << (subtract ? " (subtracted)" : " (added)")
                                    << ": got " << hybrid_test::as_float(c) << ", expected " << want;
        // A flush of the gradually underflowed result would keep 2^-126.
        const float gradual = expect_pairs(p, 0, 0, model, 2, ieee);
        const float flushed_after = std::fpclassify(gradual) == FP_SUBNORMAL ? 0.0f : gradual;
        if (bits_of(want) != bits_of(flushed_after)) ++boundary_cases;
      }
    }
  }
  EXPECT_GT(boundary_cases, 0u);
}

}  // namespace
