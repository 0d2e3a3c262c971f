// Helpers of the fast-kernel tests: the ISAs this machine runs, the models
// and type pairs that have fast kernels, and one comparison of the fast
// path with the reference triple loop (options.reference_only), bit for bit,
// C's untouched padding and amax included.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <minifloat/hybrid.hpp>

#include "hybrid_test_support.hpp"
#include "support/isa_tests.hpp"

namespace kernel_test {

namespace hy = mf::hybrid;
using hy::element_type;

// Sets an ISA for the life of the object.
class isa_scope {
 public:
  explicit isa_scope(mf::target::isa i) { mf::target::set_isa(i); }
  ~isa_scope() { mf::target::reset_isa_from_environment(); }
  isa_scope(const isa_scope&) = delete;
  isa_scope& operator=(const isa_scope&) = delete;
};

struct named_model {
  std::string name;
  hy::accumulation_model model;
};

// Whether the model has a fast kernel on `isa` (for E4M3 x E4M3, which
// every fast model takes).
inline bool has_kernel(const hy::accumulation_model& m, mf::target::isa isa) {
  return hy::kernels::kernel_for(m, element_type::hf8, element_type::hf8, 1, isa).run != nullptr;
}

// Every model with a fast kernel on `isa` (kernels/fast_path.hpp).
inline std::vector<named_model> fast_models(mf::target::isa isa = mf::target::active_isa()) {
  const std::vector<named_model> all = {
      {"sequential_fp32", hy::models::sequential_fp32()},
      {"avx512_bf16_pairs", hy::models::avx512_bf16_pairs()},
      {"avx512_bf16_pairs_propagate", hy::models::avx512_bf16_pairs(hy::nan_payload::propagate)},
      {"exact", hy::models::exact()},
      {"exact_to_output", hy::models::exact(true)},
      {"chunked_exact_64", hy::models::chunked_exact(64)},
      {"chunked_exact_5", hy::models::chunked_exact(5)},
      {"chunked_exact_1", hy::models::chunked_exact(1)},
      {"chunked_exact_2048", hy::models::chunked_exact(2048)},
      {"chunked_exact_64_toward_zero", hy::models::chunked_exact(64, hy::fp32_rounding::toward_zero)},
      {"chunked_exact_5_presum", hy::models::chunked_exact(5, hy::fp32_rounding::nearest_even, true)},
      {"chunked_exact_3_toward_zero_presum", hy::models::chunked_exact(3, hy::fp32_rounding::toward_zero, true)},
      {"amx_tile_pairs_32", hy::models::amx_tile_pairs()},
      {"amx_tile_pairs_6", hy::models::amx_tile_pairs(6)},
      {"amx_tile_pairs_guide", hy::models::amx_tile_pairs(32, hy::amx_order::guide)},
      {"amx_tile_pairs_32_propagate",
       hy::models::amx_tile_pairs(32, hy::amx_order::sdm, hy::nan_payload::propagate)},
      {"reduced_precision_14_128", hy::models::reduced_precision(14, 128)},
      {"reduced_precision_14_128_floor",
       hy::models::reduced_precision(14, 128, hy::reduced_variant::seq, 32, hy::truncation::floor)},
      {"reduced_precision_1_5", hy::models::reduced_precision(1, 5)},
      {"reduced_precision_1_7_floor",
       hy::models::reduced_precision(1, 7, hy::reduced_variant::seq, 32, hy::truncation::floor)},
      {"reduced_precision_24_3", hy::models::reduced_precision(24, 3)},
      {"reduced_precision_14_4096", hy::models::reduced_precision(14, 4096)},
      {"reduced_precision_14_128_block", hy::models::reduced_precision(14, 128, hy::reduced_variant::block)},
      {"reduced_precision_14_32_block_floor",
       hy::models::reduced_precision(14, 32, hy::reduced_variant::block, 32, hy::truncation::floor)},
      {"reduced_precision_1_7_block_3", hy::models::reduced_precision(1, 7, hy::reduced_variant::block, 3)},
      {"reduced_precision_24_100_block_64_floor",
       hy::models::reduced_precision(24, 100, hy::reduced_variant::block, 64, hy::truncation::floor)}};
  std::vector<named_model> out;
  for (const named_model& m : all) {
    if (has_kernel(m.model, isa)) out.push_back(m);
  }
  return out;
}

inline constexpr element_type float_inputs[] = {element_type::hf8, element_type::bf8,
                                                element_type::f16, element_type::bf16};
inline constexpr element_type float_outputs[] = {element_type::hf8, element_type::bf8,
                                                 element_type::f16, element_type::bf16,
                                                 element_type::f32};

struct type_triple {
  element_type a, b, c;
};

// Whether the ISA sums the exact model's products as integers in 52-bit
// limbs (kernels/limb_sum.hpp: AVX512_IFMA, or AVX2's float64 pieces).
inline bool has_limbs(mf::target::isa isa) {
  return isa == mf::target::isa::avx2 || isa == mf::target::isa::avx512;
}

// Whether the limbs take ta x tb on `isa`: every pair but E4M3 x E4M3 with
// AVX512_IFMA; without it, the pairs with an FP16 or a BF16 (two FP8
// operands take the split chains).
inline bool limbs_take(mf::target::isa isa, element_type ta, element_type tb) {
  if (!has_limbs(isa) || (ta == element_type::hf8 && tb == element_type::hf8)) return false;
  const bool ifma = isa == mf::target::isa::avx512 && mf::target::optional_features_of(isa).avx512ifma;
  return ifma || !(hy::is_fp8(ta) && hy::is_fp8(tb));
}

// Whether the model has a fast kernel for these operand types on `isa`, on
// wide-range random codes (the BF16 pair model needs BF16-exact operands;
// the exact and chunked_exact kernels take FP8 pairs, and with the limbs
// FP16 too; BF16
// operands of exact and reduced_precision take the kernels only within
// ranges that random codes exceed: their own tests).
inline bool accepts(const hy::accumulation_model& m, type_triple t,
                    mf::target::isa isa = mf::target::active_isa()) {
  const bool on_limbs = has_limbs(isa) && t.a != element_type::bf16 && t.b != element_type::bf16;
  switch (m.kind) {
    case hy::model_kind::avx512_bf16_pairs:
      return t.a != element_type::f16 && t.b != element_type::f16;
    case hy::model_kind::exact:  // FP8 pairs (E5M2 split), or on the limbs
    case hy::model_kind::chunked_exact:
      return (hy::is_fp8(t.a) && hy::is_fp8(t.b)) || on_limbs;
    case hy::model_kind::amx_tile_pairs:  // no instruction multiplies BF16 by FP16
      return !((t.a == element_type::bf16 && t.b == element_type::f16) ||
               (t.a == element_type::f16 && t.b == element_type::bf16));
    case hy::model_kind::reduced_precision:  // BF16 within a range only (reduced_operands_fit)
      return t.a != element_type::bf16 && t.b != element_type::bf16;
    default: return true;
  }
}

// BF16 codes with exponents in [low, high] (biased fields 127 + low ...),
// random signs and significands: operands within a chosen range.
inline void fill_bf16_within(std::vector<std::uint32_t>& v, int low, int high, std::mt19937_64& rng) {
  for (auto& code : v) {
    const auto field = static_cast<std::uint32_t>(127 + low + static_cast<int>(rng() % (high - low + 1)));
    code = static_cast<std::uint32_t>(rng() & 0x807Fu) | (field << 7);
  }
}

// The float type combinations of table `any` that the model accepts.
inline std::vector<type_triple> float_triples(const hy::accumulation_model& m,
                                              mf::target::isa isa = mf::target::active_isa()) {
  std::vector<type_triple> out;
  for (element_type a : float_inputs) {
    for (element_type b : float_inputs) {
      for (element_type c : float_outputs) {
        if (accepts(m, {a, b, c}, isa)) out.push_back({a, b, c});
      }
    }
  }
  return out;
}

struct problem {
  type_triple types;
  std::size_t m = 0, n = 0, k = 0;
  std::size_t lda = 0, ldb = 0, ldc = 0;  // >= k, n, n
  std::vector<std::uint32_t> a, b;       // m x lda, k x ldb
};

// Fills with uniformly random finite codes (every exponent of the type), or,
// with `specials`, a quarter of the elements from the type's edge set
// (zeros, subnormals, max, Inf and NaN where the type has them).
inline void fill(std::vector<std::uint32_t>& v, element_type t, std::mt19937_64& rng,
                 bool specials) {
  const int bits = hy::storage_bits(t);
  const std::uint32_t mask = (1u << bits) - 1u;
  std::vector<std::uint32_t> edges;
  if (specials) {
    float largest = 0.0f;
    for (std::uint32_t code = 0; code <= mask; ++code) {
      const float x = std::fabs(hy::decode_bits(t, code));
      if (std::isfinite(x) && x > largest) largest = x;
    }
    const std::uint32_t magnitude_mask = mask >> 1;
    for (std::uint32_t code = 0; code <= mask; ++code) {
      const float x = hy::decode_bits(t, code);
      // zeros and the smallest subnormals, the largest finite, Inf, NaN
      if ((code & magnitude_mask) < 8 || !std::isfinite(x) || std::fabs(x) == largest) {
        edges.push_back(code);
      }
    }
  }
  for (auto& x : v) {
    if (specials && rng() % 4 == 0) {
      x = edges[rng() % edges.size()];
    } else {
      x = hybrid_test::random_finite_code(t, rng);
    }
  }
}

inline problem random_problem(type_triple types, std::size_t m, std::size_t n, std::size_t k,
                              std::size_t pad, std::mt19937_64& rng, bool specials) {
  problem p;
  p.types = types;
  p.m = m;
  p.n = n;
  p.k = k;
  p.lda = k + pad;
  p.ldb = n + pad;
  p.ldc = n + pad;
  p.a.resize(m * p.lda);
  p.b.resize(k * p.ldb);
  fill(p.a, types.a, rng, specials);
  fill(p.b, types.b, rng, specials);
  return p;
}

// A problem from values: A is m x k and B is k x n, both row-major without
// padding.
inline problem problem_of(type_triple types, std::size_t m, std::size_t n, std::size_t k,
                          const std::vector<double>& a, const std::vector<double>& b) {
  problem p;
  p.types = types;
  p.m = m;
  p.n = n;
  p.k = k;
  p.lda = k;
  p.ldb = p.ldc = n;
  for (const double x : a) p.a.push_back(hybrid_test::encode(types.a, x));
  for (const double x : b) p.b.push_back(hybrid_test::encode(types.b, x));
  return p;
}

inline std::string describe(const problem& p, const hy::matmul_options& o) {
  return std::string(hy::name(p.types.a)) + " x " + std::string(hy::name(p.types.b)) + " -> " +
         std::string(hy::name(p.types.c)) + " m=" + std::to_string(p.m) +
         " n=" + std::to_string(p.n) + " k=" + std::to_string(p.k) +
         " lda=" + std::to_string(p.lda) + " threads=" + std::to_string(o.threads) +
         " isa=" + mf::target::isa_name(mf::target::active_isa());
}

// C through the run-time entry; C's padding starts as 0xA5A5A5A5 and must
// stay so.
inline std::vector<std::uint32_t> run(const problem& p, hy::matmul_options o, float* amax) {
  std::vector<std::uint32_t> c(p.m * p.ldc + 1, 0xA5A5A5A5u);
  o.check_z_multiple = false;
  o.amax = amax;
  hy::matmul(hy::table_id::any, p.types.a, p.types.b, p.types.c, p.a.data(), p.lda, p.b.data(),
             p.ldb, c.data(), p.ldc, p.m, p.n, p.k, o);
  return c;
}

inline std::uint32_t bits_of(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

// The problem's operands as the fast path reads them (run-time codes).
inline hy::kernels::operand_reader reader_a(const problem& p) {
  return {p.a.data(), p.lda, hy::kernels::detail::code_decoder(p.types.a),
          hy::kernels::detail::code_element_keeping_nan(p.types.a)};
}
inline hy::kernels::operand_reader reader_b(const problem& p) {
  return {p.b.data(), p.ldb, hy::kernels::detail::code_decoder(p.types.b),
          hy::kernels::detail::code_element_keeping_nan(p.types.b)};
}

// Whether two runs' C (padding included) are the same codes; reports the
// first element that differs, with `what` naming the fast side.
inline bool same_codes(const std::vector<std::uint32_t>& fast, const std::vector<std::uint32_t>& reference,
                       const problem& p, const hy::matmul_options& o, const char* what) {
  for (std::size_t i = 0; i < fast.size(); ++i) {
    if (fast[i] != reference[i]) {
      ADD_FAILURE() << describe(p, o) << ": " << what << ", element " << i / p.ldc << "," << i % p.ldc
                    << " 0x" << std::hex << fast[i] << " reference 0x" << reference[i];
      return false;
    }
  }
  return true;
}

// The fast path (on the active ISA) against the reference, bit for bit.
// Returns false (and reports) on the first difference. A request whose
// operands a kernel's own check turns away (pairs_operands_fit,
// reduced_operands_fit, finite operands for the split and limb sums) runs
// on the reference both ways; the tests of those kernels give them
// operands that pass the check and assert that they do.
inline bool matches_reference(const problem& p, hy::matmul_options o) {
  EXPECT_TRUE(hy::kernels::has_fast_kernel(p.types.a, p.types.b, p.types.c, p.k, o))
      << "this request would not take the fast path: the comparison would be vacuous";
  float fast_amax = -1.0f, reference_amax = -2.0f;
  const std::vector<std::uint32_t> fast = run(p, o, &fast_amax);
  o.reference_only = true;
  const std::vector<std::uint32_t> reference = run(p, o, &reference_amax);
  if (!same_codes(fast, reference, p, o, "fast path")) return false;
  if (bits_of(fast_amax) != bits_of(reference_amax)) {
    ADD_FAILURE() << describe(p, o) << ": amax " << fast_amax << " reference " << reference_amax;
    return false;
  }
  return true;
}

// C from one given kernel through the blocked driver (kernels::run_blocked),
// not the one the fast path would pick: for kernels the active CPU's
// choice passes over (the split tiles where the limbs take the pairs, the
// FMA tile where VDPBF16PS takes avx512_bf16_pairs). C's padding starts as
// run()'s does. The caller checks that the operands meet the kernel's
// conditions.
inline std::vector<std::uint32_t> run_kernel(const hy::kernels::tile_kernel& kernel, const problem& p,
                                             hy::matmul_options o) {
  EXPECT_NE(kernel.run, nullptr);
  o.check_z_multiple = false;
  std::vector<std::uint32_t> c(p.m * p.ldc + 1, 0xA5A5A5A5u);
  const hy::kernels::result_writer writer{c.data(), p.ldc, hy::kernels::detail::code_encoder(p.types.c),
                                          hy::detail::encoding_store::codes(c.data(), p.ldc).write,
                                          p.types.c};
  hy::kernels::run_blocked(kernel, {reader_a(p), reader_b(p), writer, p.m, p.n, p.k, &o,
                                    hy::fp16_instruction_for(p.types.a, p.types.b)});
  return c;
}

// run_kernel() against the reference, bit for bit and C's untouched padding.
inline bool kernel_matches_reference(const hy::kernels::tile_kernel& kernel, const problem& p,
                                     hy::matmul_options o) {
  const std::vector<std::uint32_t> fast = run_kernel(kernel, p, o);
  o.reference_only = true;
  return same_codes(fast, run(p, o, nullptr), p, o, "the given kernel");
}

}  // namespace kernel_test
