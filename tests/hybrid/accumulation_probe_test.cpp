// The accumulation probe's host side (tools/accumulation_probe) without a
// GPU: the operands it regenerates, the sample it records from cuBLASLt's
// column-major D, the record file, and the search, which must find a model
// planted in a record and tell it from its neighbours.
#include <gtest/gtest.h>

#include <minifloat/hybrid.hpp>

#include <cmath>
#include <cstring>
#include <set>
#include <sstream>
#include <stdexcept>

#include "accumulation_probe.hpp"

namespace {

namespace probe = mf_accumulation_probe;
namespace hy = mf::hybrid;

TEST(AccumulationProbe, OperandCodesAreSplitmix64) {
  // splitmix64's first output from seed 0 is 0xE220A8397B1DCDAF (Vigna's
  // reference splitmix64.c); 0xE220A8397B1DCDAF mod 254 = 87 = code 0x57.
  EXPECT_EQ(probe::operand_code(probe::operand_data::wide, 0, 0), 0x57);
  const auto codes = probe::operand_codes(probe::operand_data::wide, 2026, 3, 5);
  ASSERT_EQ(codes.size(), 15u);
  EXPECT_EQ(codes[7], probe::operand_code(probe::operand_data::wide, 2026, 7));
}

TEST(AccumulationProbe, WideDataIsEveryFiniteCode) {
  std::set<unsigned> seen;
  for (std::uint64_t i = 0; i < 100000; ++i) seen.insert(probe::operand_code(probe::operand_data::wide, 7, i));
  EXPECT_EQ(seen.size(), 254u);
  EXPECT_EQ(seen.count(0x7F), 0u);
  EXPECT_EQ(seen.count(0xFF), 0u);
}

TEST(AccumulationProbe, NarrowDataLiesInAQuarterToFour) {
  bool negative = false, positive = false;
  for (std::uint64_t i = 0; i < 10000; ++i) {
    const auto code = probe::operand_code(probe::operand_data::narrow, 7, i);
    const float v = mf::e4m3fn::from_bits(code);
    ASSERT_GE(std::fabs(v), 0.25f);
    ASSERT_LT(std::fabs(v), 4.0f);
    (v < 0 ? negative : positive) = true;
  }
  EXPECT_TRUE(negative && positive);
}

TEST(AccumulationProbe, SampleMeetsEveryPlaceInAStride) {
  std::set<std::size_t> positions, in_32, in_128;
  for (std::size_t i = 0; i < 128; ++i) {
    const std::size_t p = probe::sample_position(i, 128, 4096);
    ASSERT_LT(p, 4096u);
    positions.insert(p);
    in_32.insert(p % 32);
    in_128.insert(p % 128);
  }
  EXPECT_EQ(positions.size(), 128u);
  EXPECT_EQ(in_32.size(), 32u);
  EXPECT_EQ(in_128.size(), 128u);
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(probe::sample_position(i, 16, 16), i);
}

TEST(AccumulationProbe, SampleReadsAColumnMajorOutput) {
  probe::probe_case c;
  c.m = 48;
  c.n = 32;
  c.sample_rows = 6;
  c.sample_columns = 4;
  std::vector<float> d(c.m * c.n);
  for (std::size_t j = 0; j < c.n; ++j) {
    for (std::size_t i = 0; i < c.m; ++i) d[i + j * c.m] = static_cast<float>(i * 1000 + j);
  }
  probe::record_sample(c, d.data());
  ASSERT_EQ(c.d_bits.size(), 24u);
  for (std::size_t r = 0; r < 6; ++r) {
    for (std::size_t s = 0; s < 4; ++s) {
      const float expected = static_cast<float>(probe::sample_position(r, 6, 48) * 1000 +
                                                probe::sample_position(s, 4, 32));
      float got;
      std::memcpy(&got, &c.d_bits[r * 4 + s], sizeof got);
      EXPECT_EQ(got, expected) << r << ", " << s;
    }
  }
}

TEST(AccumulationProbe, RecordRoundTrips) {
  probe::probe_case c;
  c.fast_accumulation = true;
  c.data = probe::operand_data::narrow;
  c.seed = 123456789012345ull;
  c.m = 64;
  c.n = 80;
  c.k = 4096;
  c.sample_rows = 3;
  c.sample_columns = 7;
  c.algorithm = "cuBLASLt id 66, tile 20; a second run: 0 elements differ";
  for (std::size_t i = 0; i < 21; ++i) c.d_bits.push_back(static_cast<std::uint32_t>(i * 0x9E3779B9u));
  probe::probe_case wide = c;
  wide.fast_accumulation = false;
  wide.data = probe::operand_data::wide;
  std::stringstream file;
  probe::write_record(file, "GPU 9, compute capability 9.0", {c, wide});
  std::string device;
  const auto back = probe::read_record(file, device);
  EXPECT_EQ(device, "GPU 9, compute capability 9.0");
  ASSERT_EQ(back.size(), 2u);
  EXPECT_TRUE(back[0].fast_accumulation);
  EXPECT_EQ(back[0].data, probe::operand_data::narrow);
  EXPECT_EQ(back[0].seed, c.seed);
  EXPECT_EQ(back[0].m, 64u);
  EXPECT_EQ(back[0].n, 80u);
  EXPECT_EQ(back[0].k, 4096u);
  EXPECT_EQ(back[0].sample_rows, 3u);
  EXPECT_EQ(back[0].sample_columns, 7u);
  EXPECT_EQ(back[0].algorithm, c.algorithm);
  EXPECT_EQ(back[0].d_bits, c.d_bits);
  EXPECT_FALSE(back[1].fast_accumulation);
  EXPECT_EQ(back[1].data, probe::operand_data::wide);
  EXPECT_EQ(back[1].d_bits, c.d_bits);
}

TEST(AccumulationProbe, MalformedRecordsAreRejected) {
  std::string device;
  std::istringstream header("a record of something else\n");
  EXPECT_THROW(probe::read_record(header, device), std::runtime_error);
  std::istringstream short_values(
      "minifloat accumulation probe record 1\ndevice x\n"
      "case fast_accumulation=0 data=wide seed=1 m=16 n=16 k=16 rows=1 columns=2 algorithm=a\n"
      "3f800000\n");
  EXPECT_THROW(probe::read_record(short_values, device), std::runtime_error);
  std::istringstream bad_data(
      "minifloat accumulation probe record 1\ndevice x\n"
      "case fast_accumulation=0 data=medium seed=1 m=16 n=16 k=16 rows=1 columns=1 algorithm=a\n"
      "3f800000\n");
  EXPECT_THROW(probe::read_record(bad_data, device), std::runtime_error);
  // One value short: the next case line is not read as values.
  std::istringstream next_case(
      "minifloat accumulation probe record 1\ndevice x\n"
      "case fast_accumulation=0 data=wide seed=1 m=16 n=16 k=16 rows=1 columns=2 algorithm=a\n"
      "3f800000\n"
      "case fast_accumulation=0 data=wide seed=1 m=16 n=16 k=16 rows=1 columns=1 algorithm=a\n"
      "3f800000\n");
  EXPECT_THROW(probe::read_record(next_case, device), std::runtime_error);
}

TEST(AccumulationProbe, CandidatesHaveOneNameEach) {
  const auto models = probe::candidate_models();
  std::set<std::string> names;
  for (const auto& m : models) names.insert(m.name);
  EXPECT_EQ(names.size(), models.size());
  // sequential_fp32, exact, 8 chunked_exact, 17 x 7 x 5 x 2 reduced_precision.
  EXPECT_EQ(models.size(), 2u + 8u + 1190u);
}

probe::candidate named(const std::string& name) {
  for (const auto& m : probe::candidate_models()) {
    if (m.name == name) return m;
  }
  throw std::invalid_argument("no candidate " + name);
}

// A record whose D is the library's under `model`, written column-major as
// cuBLASLt writes it, then sampled as the probe samples it.
probe::probe_case planted_case(const hy::accumulation_model& model) {
  probe::probe_case c;
  c.data = probe::operand_data::wide;
  c.seed = 99;
  c.m = 64;
  c.n = 48;
  c.k = 512;
  c.sample_rows = 16;
  c.sample_columns = 12;
  const auto a_codes = probe::operand_codes(c.data, c.seed, c.m, c.k);
  const auto b_columns = probe::operand_codes(c.data, probe::b_seed(c.seed), c.n, c.k);
  std::vector<mf::e4m3fn> a(c.m * c.k), b(c.k * c.n);
  for (std::size_t i = 0; i < a.size(); ++i) a[i] = mf::e4m3fn::from_bits(a_codes[i]);
  for (std::size_t j = 0; j < c.n; ++j) {
    for (std::size_t p = 0; p < c.k; ++p) b[p * c.n + j] = mf::e4m3fn::from_bits(b_columns[j * c.k + p]);
  }
  std::vector<float> row_major(c.m * c.n), column_major(c.m * c.n);
  hy::matmul_options o;
  o.model = model;
  hy::matmul<hy::cublaslt_fp8>(a.data(), c.k, b.data(), c.n, row_major.data(), c.n, c.m, c.n, c.k, o);
  for (std::size_t i = 0; i < c.m; ++i) {
    for (std::size_t j = 0; j < c.n; ++j) column_major[i + j * c.m] = row_major[i * c.n + j];
  }
  probe::record_sample(c, column_major.data());
  return c;
}

TEST(AccumulationProbe, SearchFindsAPlantedModel) {
  const std::string planted = "reduced_precision{13, 64, block 16, floor}";
  const probe::probe_case c =
      planted_case(hy::models::reduced_precision(13, 64, hy::reduced_variant::block, 16, hy::truncation::floor));
  std::vector<probe::candidate> models;
  for (const char* name : {"sequential_fp32", "exact", "chunked_exact{32}",
                           "reduced_precision{12, 64, block 16, floor}",
                           "reduced_precision{14, 64, block 16, floor}",
                           "reduced_precision{13, 32, block 16, floor}",
                           "reduced_precision{13, 128, block 16, floor}",
                           "reduced_precision{13, 64, block 8, floor}",
                           "reduced_precision{13, 64, block 32, floor}",
                           "reduced_precision{13, 64, seq, floor}",
                           "reduced_precision{13, 64, block 16, toward_zero}"}) {
    models.push_back(named(name));
  }
  models.push_back(named(planted));
  const auto scores = probe::score_models(c, models, 2);
  ASSERT_EQ(scores.size(), models.size());
  EXPECT_EQ(scores[0].model, planted);
  EXPECT_EQ(scores[0].equal, 16u * 12u);
  EXPECT_EQ(scores[0].max_ulps, 0u);
  // Wide-range codes tell every neighbour apart from it.
  for (std::size_t i = 1; i < scores.size(); ++i) {
    EXPECT_LT(scores[i].equal, scores[i].compared) << scores[i].model;
    EXPECT_GT(scores[i].max_ulps, 0u) << scores[i].model;
  }
  std::ostringstream text;
  probe::report(text, {c}, models, 2, 3);
  EXPECT_NE(text.str().find("1 of 12 models reproduce every recorded element"), std::string::npos)
      << text.str();
}

TEST(AccumulationProbe, SignificantBitsOfATruncatedSum) {
  const probe::probe_case c =
      planted_case(hy::models::reduced_precision(11, 1 << 30, hy::reduced_variant::seq, 32, hy::truncation::toward_zero));
  const auto counts = probe::significant_bit_counts(c);
  std::size_t total = 0;
  for (std::size_t w = 0; w < counts.size(); ++w) {
    total += counts[w];
    if (w > 11) {
      EXPECT_EQ(counts[w], 0u) << w;  // never promoted: at most 11 bits
    }
  }
  EXPECT_EQ(total, c.d_bits.size());
  EXPECT_GT(counts[11] + counts[10], 0u);
}

}  // namespace
