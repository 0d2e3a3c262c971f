// Fuzz target: the hybrid MatMul reference (mf::hybrid::matmul) on small
// shapes with every table, type combination, model and option the input
// bytes pick, under ASan and UBSan. Besides crashes and undefined
// behaviour it aborts on a broken invariant: the fast kernels (where one
// takes the request) must give the reference loop's C and amax; under
// nan_payload::propagate an FP32 output holds a NaN accumulator's bits on
// both; chunked_exact{1} must equal sequential_fp32; and for E4M3 x E4M3
// the exact model must equal an independent int64 sum of the products
// (E4M3 values are integers times 2^-9). A rejected combination
// (mf::hybrid::unsupported) is fine.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include <minifloat/hybrid.hpp>

namespace {

namespace hy = mf::hybrid;

struct byte_stream {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t at = 0;
  std::uint32_t next() { return at < size ? data[at++] : 0u; }
  std::uint32_t next16() { return next() | (next() << 8); }
};

bool same_bits_or_nan(hy::element_type t, std::uint32_t x, std::uint32_t y) {
  return x == y || (std::isnan(hy::decode_bits(t, x)) && std::isnan(hy::decode_bits(t, y)));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  byte_stream in{data, size};
  const auto table = static_cast<hy::table_id>(in.next() % 3);
  const auto ta = static_cast<hy::element_type>(in.next() % 6);
  const auto tb = static_cast<hy::element_type>(in.next() % 6);
  const auto tc = static_cast<hy::element_type>(in.next() % 7);
  const std::size_t m = 1 + in.next() % 3, n = 1 + in.next() % 3, k = 1 + in.next() % 40;
  hy::matmul_options o;
  o.check_z_multiple = (in.next() & 1u) != 0;
  const std::uint32_t pick = in.next();
  const hy::nan_payload nans = (pick & 16u) ? hy::nan_payload::propagate : hy::nan_payload::canonical;
  switch (pick % 7) {
    case 0: o.model = hy::models::sequential_fp32(); break;
    case 1: o.model = hy::models::exact((pick & 8u) != 0); break;
    case 2: o.model = hy::models::avx512_bf16_pairs(nans); break;
    case 3: o.model = hy::models::amx_tile_pairs(2 * (1 + static_cast<int>(in.next() % 20)),
                                                 (pick & 8u) ? hy::amx_order::guide : hy::amx_order::sdm,
                                                 nans); break;
    case 4: o.model = hy::models::chunked_exact(1 + static_cast<int>(in.next() % 70),
                                                (pick & 8u) ? hy::fp32_rounding::toward_zero
                                                            : hy::fp32_rounding::nearest_even,
                                                (pick & 16u) != 0); break;
    default: o.model = hy::models::reduced_precision(
                 1 + static_cast<int>(in.next() % 30), 1 + static_cast<int>(in.next() % 200),
                 (pick & 8u) ? hy::reduced_variant::block : hy::reduced_variant::seq,
                 1 + static_cast<int>(in.next() % 40),
                 (pick & 16u) ? hy::truncation::floor : hy::truncation::toward_zero);
  }
  const auto scale = [&] {  // any float32, NaN and Inf included
    const std::uint32_t bits = in.next16() | (in.next16() << 16);
    return mf::detail::bit_cast<float>(bits);
  };
  o.scales.a = scale();
  o.scales.b = scale();
  o.scales.output = scale();
  o.scales.output_rule = (pick & 32u) ? hy::output_scale_rule::divide : hy::output_scale_rule::multiply;
  o.scales.where = (pick & 64u) ? hy::placement::operands : hy::placement::epilogue;
  std::vector<float> bias(n);
  for (auto& v : bias) v = scale();
  if (pick & 128u) o.scales.bias = bias.data();
  o.output.on_overflow = (in.next() & 1u) ? mf::overflow::saturating : mf::overflow::non_saturating;
  o.output.stochastic = (in.next() & 1u) != 0;
  o.output.seed = in.next();
  o.output.random_bits = 1 + static_cast<int>(in.next() % 32);
  o.integer_scale = scale();
  float amax = 0;
  o.amax = &amax;
  std::vector<std::uint32_t> a(m * k), b(k * n), c(m * n);
  const auto code = [&](hy::element_type t) { return hy::storage_bits(t) == 16 ? in.next16() : in.next(); };
  for (auto& v : a) v = code(ta);
  for (auto& v : b) v = code(tb);
  try {
    hy::matmul(table, ta, tb, tc, a.data(), k, b.data(), n, c.data(), n, m, n, k, o);
  } catch (const hy::unsupported&) {
    return 0;
  }
  {  // the same request on the reference loop
    hy::matmul_options r = o;
    r.reference_only = true;
    float reference_amax = 0;
    r.amax = &reference_amax;
    std::vector<std::uint32_t> z(m * n);
    hy::matmul(table, ta, tb, tc, a.data(), k, b.data(), n, z.data(), n, m, n, k, r);
    for (std::size_t i = 0; i < z.size(); ++i) {
      if (!same_bits_or_nan(tc, z[i], c[i])) std::abort();
    }
    if (!(amax == reference_amax || (std::isnan(amax) && std::isnan(reference_amax)))) std::abort();
    // nan_payload::propagate: a NaN accumulator is an FP32 output's bits,
    // on both paths, whatever the scales and bias.
    if (o.model.nans == hy::nan_payload::propagate && tc == hy::element_type::f32) {
      std::vector<float> acc(m * n);
      r.accumulator = acc.data();
      hy::matmul(table, ta, tb, tc, a.data(), k, b.data(), n, z.data(), n, m, n, k, r);
      for (std::size_t i = 0; i < z.size(); ++i) {
        const std::uint32_t bits = mf::detail::bit_cast<std::uint32_t>(acc[i]);
        if (std::isnan(acc[i]) && (z[i] != bits || c[i] != bits)) std::abort();
      }
    }
  }
  // chunked_exact{1} (each exact product added to the accumulator, one
  // rounding to nearest even) is sequential_fp32's fma step, so the two
  // agree on every input. Checked from either side, so that every
  // sequential_fp32 input reaches it too, not only the 1 in ~2000 inputs
  // that pick chunked_exact with chunk 1. Neither model has a rejection of
  // its own: the other one's request is accepted as this one's was.
  const bool chunk_one = o.model.kind == hy::model_kind::chunked_exact && o.model.chunk == 1 &&
                         o.model.rounding == hy::fp32_rounding::nearest_even &&
                         !o.model.presum_round;
  if (chunk_one || o.model.kind == hy::model_kind::sequential_fp32) {
    std::vector<std::uint32_t> s(m * n);
    hy::matmul_options q = o;
    q.model = chunk_one ? hy::models::sequential_fp32() : hy::models::chunked_exact(1);
    hy::matmul(table, ta, tb, tc, a.data(), k, b.data(), n, s.data(), n, m, n, k, q);
    for (std::size_t i = 0; i < s.size(); ++i) {
      if (!same_bits_or_nan(tc, s[i], c[i])) std::abort();
    }
  }
  if (ta == hy::element_type::hf8 && tb == hy::element_type::hf8 && tc == hy::element_type::f32 &&
      table == hy::table_id::any) {
    hy::matmul_options e;
    e.model = hy::models::exact();
    e.check_z_multiple = false;
    std::vector<std::uint32_t> x(m * n);
    hy::matmul(table, ta, tb, tc, a.data(), k, b.data(), n, x.data(), n, m, n, k, e);
    for (std::size_t i = 0; i < m; ++i) {
      for (std::size_t j = 0; j < n; ++j) {
        long long sum = 0;
        bool special = false;
        for (std::size_t p = 0; p < k; ++p) {
          const float fa = hy::decode_bits(ta, a[i * k + p]), fb = hy::decode_bits(tb, b[p * n + j]);
          if (std::isnan(fa) || std::isnan(fb)) {
            special = true;
            break;
          }
          sum += std::llround(std::ldexp(fa, 9)) * std::llround(std::ldexp(fb, 9));
        }
        if (special) continue;
        const float want = static_cast<float>(std::ldexp(static_cast<double>(sum), -18));
        if (hy::decode_bits(tc, x[i * n + j]) != want) std::abort();
      }
    }
  }
  return 0;
}
