// Arrays of the value types (std::vector<mf::e4m3fn>, std::vector<mf::e2m1fn>)
// go through the array entries (encodings.hpp) and give the same bits as the
// storage arrays: bulk encode, decode and convert, MX and NVFP4 quantize and
// dequantize, packing, the scaling toolkit, and the hybrid MatMul. Built as
// C++17 (the pointer forms) and as C++20 (the span forms too).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <minifloat/bulk.hpp>
#include <minifloat/hybrid.hpp>
#include <minifloat/mx.hpp>
#include <minifloat/scaling.hpp>

#if __cplusplus >= 202002L && __has_include(<span>)
#include <span>
#define MF_TEST_SPANS 1
#else
#define MF_TEST_SPANS 0
#endif

namespace {

static_assert(mf::detail::is_its_storage<mf::e4m3fn>() &&
                  mf::detail::is_its_storage<mf::e2m1fn>() &&
                  mf::detail::is_its_storage<mf::e8m0fnu>() &&
                  mf::detail::is_its_storage<mf::binary16>() &&
                  mf::detail::is_its_storage<mf::bfloat16>(),
              "every value type is its storage");
// A value pointer is not a storage pointer of another format's constness.
static_assert(!std::is_convertible<const mf::e4m3fn*, mf::encodings<mf::e4m3fn>>::value,
              "an output must not accept a const array");
static_assert(std::is_convertible<mf::e4m3fn*, mf::encodings<const mf::e4m3fn>>::value &&
                  std::is_convertible<std::uint8_t*, mf::encodings<const mf::e4m3fn>>::value,
              "an input accepts values and storage, const or not");
static_assert(!std::is_convertible<mf::e5m2*, mf::encodings<mf::e4m3fn>>::value,
              "the format is part of the type");

// Inputs across every class: zeros, subnormals, normals, ties, beyond max,
// Inf, NaN, and a ramp long enough for the SIMD loops and a partial block.
std::vector<float> inputs() {
  std::vector<float> x = {0.0f,    -0.0f,   0x1p-10f, -0x1p-9f, 0.3f,   -1.5f,  2.75f,
                          448.0f,  -464.0f, 1e9f,     -7.0f,    0.26f,  5.5f,   -0.75f,
                          1e30f,   -1e-30f, 6.0f,     3.25f,    -0.25f, 100.0f};
  x.push_back(std::numeric_limits<float>::infinity());
  x.push_back(std::numeric_limits<float>::quiet_NaN());
  for (int i = 0; i < 300; ++i) x.push_back(static_cast<float>(i - 150) * 0.37f);
  return x;
}

template <class Fmt>
std::vector<typename Fmt::storage_type> bits_of(const std::vector<Fmt>& values) {
  std::vector<typename Fmt::storage_type> bits;
  for (const Fmt& v : values) bits.push_back(v.bits());
  return bits;
}

template <class Fmt>
std::vector<Fmt> values_of(const std::vector<typename Fmt::storage_type>& bits) {
  std::vector<Fmt> values;
  for (auto b : bits) values.push_back(Fmt::from_bits(b));
  return values;
}

std::vector<std::uint32_t> float_bits(const std::vector<float>& x) {
  std::vector<std::uint32_t> bits(x.size());
  std::memcpy(bits.data(), x.data(), x.size() * sizeof(float));
  return bits;
}

template <class Fmt>
void check_bulk() {
  const std::vector<float> x = inputs();
  const std::size_t n = x.size();
  const mf::conversion c = mf::conversion::toward_zero().saturating();
  std::vector<std::uint8_t> q_bits(n);
  std::vector<Fmt> q(n);
  mf::bulk::encode<Fmt>(x.data(), q_bits.data(), n, c);
  mf::bulk::encode<Fmt>(x.data(), q.data(), n, c);
  EXPECT_EQ(bits_of(q), q_bits);

  float amax_bits = 0, amax_values = 1;
  const mf::conversion sr = mf::conversion::stochastic({99u, 3u});
  mf::bulk::encode<Fmt>(x.data(), q_bits.data(), n, sr, {0.5f, &amax_bits});
  mf::bulk::encode<Fmt>(x.data(), q.data(), n, sr, {0.5f, &amax_values});
  EXPECT_EQ(bits_of(q), q_bits);
  EXPECT_TRUE(amax_bits != amax_bits && amax_values != amax_values);  // a NaN input

  std::vector<float> y_bits(n), y_values(n);
  mf::bulk::decode<Fmt>(q_bits.data(), y_bits.data(), n, 3.0f);
  mf::bulk::decode<Fmt>(q.data(), y_values.data(), n, 3.0f);
  EXPECT_EQ(float_bits(y_values), float_bits(y_bits));
  const std::vector<Fmt>& cq = q;
  mf::bulk::decode<Fmt>(cq.data(), y_values.data(), n);
  mf::bulk::decode<Fmt>(q_bits.data(), y_bits.data(), n);
  EXPECT_EQ(float_bits(y_values), float_bits(y_bits));

  std::vector<std::uint8_t> e5_bits(n);
  std::vector<mf::e5m2> e5(n);
  mf::bulk::convert<mf::e5m2, Fmt>(q_bits.data(), e5_bits.data(), n);
  mf::bulk::convert<mf::e5m2, Fmt>(q.data(), e5.data(), n);
  EXPECT_EQ(bits_of(e5), e5_bits);
  // Into the values from the storage, and back: the same array either way.
  std::vector<Fmt> back(n);
  std::vector<std::uint8_t> back_bits(n);
  mf::bulk::convert<Fmt, mf::e5m2>(e5_bits.data(), back.data(), n, c);
  mf::bulk::convert<Fmt, mf::e5m2>(e5.data(), back_bits.data(), n, c);
  EXPECT_EQ(bits_of(back), back_bits);
  // A value array as the source of encode is the same as convert.
  mf::bulk::encode<mf::e5m2>(q.data(), e5.data(), n);
  EXPECT_EQ(bits_of(e5), e5_bits);

  std::vector<std::uint16_t> h_bits(n);
  std::vector<mf::binary16> h(n);
  mf::bulk::decode_to_binary16<Fmt>(q_bits.data(), h_bits.data(), n);
  mf::bulk::decode_to_binary16<Fmt>(q.data(), h.data(), n);
  EXPECT_EQ(bits_of(h), h_bits);
  std::vector<mf::bfloat16> b(n);
  mf::bulk::decode_to_bfloat16<Fmt>(q_bits.data(), h_bits.data(), n);
  mf::bulk::decode_to_bfloat16<Fmt>(q.data(), b.data(), n);
  EXPECT_EQ(bits_of(b), h_bits);
  mf::bulk::encode_from_bfloat16<Fmt>(h_bits.data(), q.data(), n);
  mf::bulk::encode_from_bfloat16<Fmt>(h_bits.data(), q_bits.data(), n);
  EXPECT_EQ(bits_of(q), q_bits);

#if MF_TEST_SPANS
  // The span forms take the vectors themselves.
  std::vector<Fmt> qs(n);
  mf::bulk::encode<Fmt>(std::span<const float>(x), qs, c);
  mf::bulk::encode<Fmt>(x.data(), q_bits.data(), n, c);
  EXPECT_EQ(bits_of(qs), q_bits);
  mf::bulk::encode<Fmt>(std::span<const float>(x), std::span<Fmt>(qs), sr, {0.5f, nullptr});
  mf::bulk::encode<Fmt>(x.data(), q_bits.data(), n, sr, {0.5f, nullptr});
  EXPECT_EQ(bits_of(qs), q_bits);
  mf::bulk::decode<Fmt>(std::span<const Fmt>(qs), y_values, 0.25f);
  mf::bulk::decode<Fmt>(q_bits.data(), y_bits.data(), n, 0.25f);
  EXPECT_EQ(float_bits(y_values), float_bits(y_bits));
  mf::bulk::convert<mf::e5m2, Fmt>(qs, e5);
  mf::bulk::convert<mf::e5m2, Fmt>(q_bits.data(), e5_bits.data(), n);
  EXPECT_EQ(bits_of(e5), e5_bits);
  mf::bulk::decode_to_binary16<Fmt>(qs, h);
  mf::bulk::decode_to_binary16<Fmt>(q_bits, h_bits);
  EXPECT_EQ(bits_of(h), h_bits);
#endif
}

TEST(ValueArrays, BulkE4m3fn) { check_bulk<mf::e4m3fn>(); }
TEST(ValueArrays, BulkE2m1fn) { check_bulk<mf::e2m1fn>(); }

TEST(ValueArrays, MxFp8) {
  using mx = mf::mx::mxfp8_e4m3;
  const std::vector<float> x = inputs();
  const std::size_t n = x.size();
  std::vector<std::uint8_t> scale_bits(mf::mx::scale_count<mx>(n)),
      element_bits(mf::mx::element_bytes<mx>(n));
  std::vector<mf::e8m0fnu> scales(scale_bits.size());
  std::vector<mf::e4m3fn> elements(element_bits.size());
  mf::mx::quantize<mx>(x.data(), scale_bits.data(), element_bits.data(), n,
                       mf::mx::scale_rounding::even);
  mf::mx::quantize<mx>(x.data(), scales.data(), elements.data(), n,
                       mf::mx::scale_rounding::even);
  EXPECT_EQ(bits_of(scales), scale_bits);
  EXPECT_EQ(bits_of(elements), element_bits);
  std::vector<float> y_bits(n), y_values(n);
  mf::mx::dequantize<mx>(scale_bits.data(), element_bits.data(), y_bits.data(), n);
  mf::mx::dequantize<mx>(scales.data(), elements.data(), y_values.data(), n);
  EXPECT_EQ(float_bits(y_values), float_bits(y_bits));
#if MF_TEST_SPANS
  std::vector<mf::e8m0fnu> scales2(scales.size());
  std::vector<mf::e4m3fn> elements2(elements.size());
  mf::mx::quantize<mx>(std::span<const float>(x), scales2, elements2,
                       mf::mx::scale_rounding::even);
  EXPECT_EQ(bits_of(scales2), scale_bits);
  EXPECT_EQ(bits_of(elements2), element_bits);
  mf::mx::dequantize<mx>(scales2, elements2, y_values);
  EXPECT_EQ(float_bits(y_values), float_bits(y_bits));
#endif
}

// MXFP4's elements are packed two to a byte, so they stay bytes; its scales
// and the one-code-per-byte arrays that pack and unpack take are values.
TEST(ValueArrays, MxFp4AndPacking) {
  using mx = mf::mx::mxfp4;
  const std::vector<float> x = inputs();
  const std::size_t n = x.size();
  std::vector<std::uint8_t> scale_bits(mf::mx::scale_count<mx>(n)),
      element_bits(mf::mx::element_bytes<mx>(n)), element_bytes(element_bits.size());
  std::vector<mf::e8m0fnu> scales(scale_bits.size());
  mf::mx::quantize<mx>(x.data(), scale_bits.data(), element_bits.data(), n);
  mf::mx::quantize<mx>(x.data(), scales.data(), element_bytes.data(), n);
  EXPECT_EQ(bits_of(scales), scale_bits);
  EXPECT_EQ(element_bytes, element_bits);
  std::vector<float> y_bits(n), y_values(n);
  mf::mx::dequantize<mx>(scale_bits.data(), element_bits.data(), y_bits.data(), n);
  mf::mx::dequantize<mx>(scales.data(), element_bytes.data(), y_values.data(), n);
  EXPECT_EQ(float_bits(y_values), float_bits(y_bits));

  std::vector<mf::e2m1fn> codes(n);
  std::vector<std::uint8_t> code_bits(n);
  mf::bulk::encode<mf::e2m1fn>(x.data(), codes.data(), n);
  mf::bulk::encode<mf::e2m1fn>(x.data(), code_bits.data(), n);
  std::vector<std::uint8_t> packed_values(mf::mx::packed_bytes<4>(n)),
      packed_bits(packed_values.size());
  mf::mx::pack<mf::e2m1fn>(codes.data(), packed_values.data(), n);
  mf::mx::pack<mf::e2m1fn>(code_bits.data(), packed_bits.data(), n);
  EXPECT_EQ(packed_values, packed_bits);
  std::vector<mf::e2m1fn> unpacked(n);
  mf::mx::unpack<mf::e2m1fn>(packed_values.data(), unpacked.data(), n);
  EXPECT_EQ(bits_of(unpacked), code_bits);

  // NVFP4: e4m3fn block scales (finite inputs, so that the tensor scale is
  // a number).
  const float* finite = x.data() + 22;
  const std::size_t n_finite = n - 22;
  std::vector<std::uint8_t> nv_scale_bits(mf::mx::nvfp4::scale_count(n)),
      nv_elements(mf::mx::nvfp4::element_bytes(n)), nv_elements2(nv_elements.size());
  std::vector<mf::e4m3fn> nv_scales(nv_scale_bits.size());
  const float s_t = mf::mx::nvfp4::quantize(finite, nv_scale_bits.data(),
                                            nv_elements.data(), n_finite);
  EXPECT_EQ(mf::mx::nvfp4::quantize(finite, nv_scales.data(), nv_elements2.data(), n_finite),
            s_t);
  EXPECT_EQ(bits_of(nv_scales), nv_scale_bits);
  EXPECT_EQ(nv_elements2, nv_elements);
  mf::mx::nvfp4::dequantize(nv_scale_bits.data(), nv_elements.data(), y_bits.data(), n_finite, s_t);
  mf::mx::nvfp4::dequantize(nv_scales.data(), nv_elements.data(), y_values.data(), n_finite, s_t);
  EXPECT_EQ(float_bits(y_values), float_bits(y_bits));
#if MF_TEST_SPANS
  std::vector<mf::e2m1fn> unpacked2(n);
  mf::mx::pack<mf::e2m1fn>(codes, packed_values);
  EXPECT_EQ(packed_values, packed_bits);
  mf::mx::unpack<mf::e2m1fn>(std::span<const std::uint8_t>(packed_values), unpacked2);
  EXPECT_EQ(bits_of(unpacked2), code_bits);
#endif
}

TEST(ValueArrays, Scaling) {
  const std::size_t rows = 12, cols = 25;
  std::vector<float> x = inputs();
  x.resize(rows * cols);
  const std::size_t n = rows * cols;
  mf::scaling::quantize_options o;
  o.conversion = mf::conversion::stochastic({5u}).saturating();
  std::vector<std::uint8_t> q_bits(n);
  std::vector<mf::e4m3fn> q(n);
  std::vector<float> y_bits(n), y_values(n);

  const float inv_bits = mf::scaling::quantize_per_tensor<mf::e4m3fn>(x.data(), q_bits.data(), n, o);
  const float inv_values = mf::scaling::quantize_per_tensor<mf::e4m3fn>(x.data(), q.data(), n, o);
  EXPECT_EQ(inv_values, inv_bits);
  EXPECT_EQ(bits_of(q), q_bits);
  mf::scaling::dequantize_per_tensor<mf::e4m3fn>(q_bits.data(), y_bits.data(), n, inv_bits);
  mf::scaling::dequantize_per_tensor<mf::e4m3fn>(q.data(), y_values.data(), n, inv_bits);
  EXPECT_EQ(float_bits(y_values), float_bits(y_bits));

  for (mf::scaling::channel_axis axis :
       {mf::scaling::channel_axis::rows, mf::scaling::channel_axis::columns}) {
    std::vector<float> s_bits(mf::scaling::channel_count(rows, cols, axis)), s_values(s_bits.size());
    mf::scaling::quantize_per_channel<mf::e4m3fn>(x.data(), q_bits.data(), s_bits.data(), rows,
                                                  cols, axis, o);
    mf::scaling::quantize_per_channel<mf::e4m3fn>(x.data(), q.data(), s_values.data(), rows, cols,
                                                  axis, o);
    EXPECT_EQ(bits_of(q), q_bits);
    EXPECT_EQ(float_bits(s_values), float_bits(s_bits));
    mf::scaling::dequantize_per_channel<mf::e4m3fn>(q_bits.data(), s_bits.data(), y_bits.data(),
                                                    rows, cols, axis);
    mf::scaling::dequantize_per_channel<mf::e4m3fn>(q.data(), s_bits.data(), y_values.data(), rows,
                                                    cols, axis);
    EXPECT_EQ(float_bits(y_values), float_bits(y_bits));
  }

  const mf::scaling::block_shape block{4, 8};
  std::vector<float> b_bits(mf::scaling::block_count(rows, cols, block)), b_values(b_bits.size());
  mf::scaling::quantize_per_block<mf::e4m3fn>(x.data(), q_bits.data(), b_bits.data(), rows, cols,
                                              block, o);
  mf::scaling::quantize_per_block<mf::e4m3fn>(x.data(), q.data(), b_values.data(), rows, cols,
                                              block, o);
  EXPECT_EQ(bits_of(q), q_bits);
  EXPECT_EQ(float_bits(b_values), float_bits(b_bits));
  mf::scaling::dequantize_per_block<mf::e4m3fn>(q_bits.data(), b_bits.data(), y_bits.data(), rows,
                                                cols, block);
  mf::scaling::dequantize_per_block<mf::e4m3fn>(q.data(), b_bits.data(), y_values.data(), rows,
                                                cols, block);
  EXPECT_EQ(float_bits(y_values), float_bits(y_bits));
#if MF_TEST_SPANS
  std::vector<mf::e4m3fn> qs(n);
  EXPECT_EQ(mf::scaling::quantize_per_tensor<mf::e4m3fn>(std::span<const float>(x), qs, o),
            mf::scaling::quantize_per_tensor<mf::e4m3fn>(x.data(), q_bits.data(), n, o));
  EXPECT_EQ(bits_of(qs), q_bits);
  mf::scaling::dequantize_per_tensor<mf::e4m3fn>(qs, y_values, inv_bits);
  mf::scaling::dequantize_per_tensor<mf::e4m3fn>(q_bits.data(), y_bits.data(), n, inv_bits);
  EXPECT_EQ(float_bits(y_values), float_bits(y_bits));
#endif
}

// The typed MatMul over value arrays against the run-time entry over the
// same encodings as uint32 codes.
TEST(ValueArrays, HybridMatmul) {
  const std::size_t m = 5, n = 7, k = 48;
  const std::vector<float> x = inputs();
  std::vector<mf::e4m3fn> a(m * k), b(k * n);
  for (std::size_t i = 0; i < a.size(); ++i) {
    a[i] = mf::round_to<mf::e4m3fn>(x[(i + 30) % x.size()] * 0.01f, mf::rounding::nearest_even,
                                    mf::overflow::saturating);
  }
  for (std::size_t i = 0; i < b.size(); ++i) {
    b[i] = mf::round_to<mf::e4m3fn>(x[(3 * i + 25) % x.size()] * 0.02f,
                                    mf::rounding::nearest_even, mf::overflow::saturating);
  }
  std::vector<mf::e4m3fn> c(m * n);
  mf::hybrid::matmul(a.data(), k, b.data(), n, c.data(), n, m, n, k);

  std::vector<std::uint32_t> a_codes(a.size()), b_codes(b.size()), c_codes(c.size());
  for (std::size_t i = 0; i < a.size(); ++i) a_codes[i] = a[i].bits();
  for (std::size_t i = 0; i < b.size(); ++i) b_codes[i] = b[i].bits();
  using mf::hybrid::element_type;
  mf::hybrid::matmul(mf::hybrid::table_id::vendor_hybrid_fp8, element_type::hf8,
                     element_type::hf8, element_type::hf8, a_codes.data(), k, b_codes.data(), n,
                     c_codes.data(), n, m, n, k);
  for (std::size_t i = 0; i < c.size(); ++i) EXPECT_EQ(c[i].bits(), c_codes[i]) << i;
#if MF_TEST_SPANS
  std::vector<mf::e4m3fn> c2(m * n);
  mf::hybrid::matmul(std::span<const mf::e4m3fn>(a), k, std::span<const mf::e4m3fn>(b), n,
                     std::span<mf::e4m3fn>(c2), n, m, n, k);
  for (std::size_t i = 0; i < c.size(); ++i) EXPECT_EQ(c2[i].bits(), c_codes[i]) << i;
  // The vectors themselves (the element types deduced from any contiguous range).
  std::vector<mf::e4m3fn> c3(m * n);
  mf::hybrid::matmul(a, k, b, n, c3, n, m, n, k);
  for (std::size_t i = 0; i < c.size(); ++i) EXPECT_EQ(c3[i].bits(), c_codes[i]) << i;
#endif
}

}  // namespace
