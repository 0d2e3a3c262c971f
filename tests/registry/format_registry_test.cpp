// mf::find_format and friends (include/minifloat/format_registry.hpp): every
// spelling of every format, written out here independently of the header's
// table, in every case variant; names that must not match; the naming
// schemes the library prints; and the visit from a run-time id to a type.
#include <minifloat/format_registry.hpp>

#include <gtest/gtest.h>

#include <cctype>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace {

using mf::format_id;

struct expected_spelling {
  std::string_view name;
  format_id id;
};

// The spellings the documentation promises (README's table of formats).
const std::vector<expected_spelling> expected_spellings = {
    {"e4m3fn", format_id::e4m3fn}, {"float8_e4m3fn", format_id::e4m3fn},
    {"float8e4m3fn", format_id::e4m3fn}, {"f8E4M3FN", format_id::e4m3fn},
    {"HF8", format_id::e4m3fn},
    {"e4m3fnuz", format_id::e4m3fnuz}, {"float8_e4m3fnuz", format_id::e4m3fnuz},
    {"float8e4m3fnuz", format_id::e4m3fnuz}, {"f8E4M3FNUZ", format_id::e4m3fnuz},
    {"e5m2", format_id::e5m2}, {"float8_e5m2", format_id::e5m2},
    {"float8e5m2", format_id::e5m2}, {"f8E5M2", format_id::e5m2}, {"BF8", format_id::e5m2},
    {"e5m2fnuz", format_id::e5m2fnuz}, {"float8_e5m2fnuz", format_id::e5m2fnuz},
    {"float8e5m2fnuz", format_id::e5m2fnuz}, {"f8E5M2FNUZ", format_id::e5m2fnuz},
    {"e2m1fn", format_id::e2m1fn}, {"float4_e2m1fn", format_id::e2m1fn},
    {"float4e2m1", format_id::e2m1fn}, {"f4E2M1FN", format_id::e2m1fn},
    {"E2M1", format_id::e2m1fn},
    {"e2m3fn", format_id::e2m3fn}, {"float6_e2m3fn", format_id::e2m3fn},
    {"float6e2m3", format_id::e2m3fn},
    {"f6E2M3FN", format_id::e2m3fn}, {"E2M3", format_id::e2m3fn},
    {"e3m2fn", format_id::e3m2fn}, {"float6_e3m2fn", format_id::e3m2fn},
    {"float6e3m2", format_id::e3m2fn},
    {"f6E3M2FN", format_id::e3m2fn}, {"E3M2", format_id::e3m2fn},
    {"e8m0fnu", format_id::e8m0fnu}, {"float8_e8m0fnu", format_id::e8m0fnu},
    {"float8e8m0", format_id::e8m0fnu}, {"f8E8M0FNU", format_id::e8m0fnu},
    {"e8m0", format_id::e8m0fnu},
    {"e4m3", format_id::e4m3}, {"float8_e4m3", format_id::e4m3}, {"f8E4M3", format_id::e4m3},
    {"e3m4", format_id::e3m4}, {"float8_e3m4", format_id::e3m4}, {"f8E3M4", format_id::e3m4},
    {"e4m3b11fnuz", format_id::e4m3b11fnuz}, {"float8_e4m3b11fnuz", format_id::e4m3b11fnuz},
    {"f8E4M3B11FNUZ", format_id::e4m3b11fnuz},
    {"binary16", format_id::binary16}, {"half", format_id::binary16},
    {"float16", format_id::binary16}, {"fp16", format_id::binary16},
    {"f16", format_id::binary16},
    {"bfloat16", format_id::bfloat16}, {"bf16", format_id::bfloat16},
    {"float32", format_id::float32}, {"float", format_id::float32},
    {"fp32", format_id::float32}, {"f32", format_id::float32},
    {"binary32", format_id::float32},
    {"float64", format_id::float64}, {"double", format_id::float64},
    {"fp64", format_id::float64}, {"f64", format_id::float64},
    {"binary64", format_id::float64},
    {"int8", format_id::int8}, {"i8", format_id::int8},
    {"uint8", format_id::uint8}, {"u8", format_id::uint8},
    {"int16", format_id::int16}, {"i16", format_id::int16},
    {"uint16", format_id::uint16}, {"u16", format_id::uint16},
    {"int4", format_id::int4}, {"i4", format_id::int4},
    {"uint4", format_id::uint4}, {"u4", format_id::uint4},
};

std::string with_case(std::string_view name, int (*change)(int)) {
  std::string s(name);
  for (char& c : s) c = static_cast<char>(change(static_cast<unsigned char>(c)));
  return s;
}

std::string alternating_case(std::string_view name) {
  std::string s(name);
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    s[i] = static_cast<char>(i % 2 ? std::toupper(c) : std::tolower(c));
  }
  return s;
}

TEST(FormatRegistry, EveryDocumentedSpellingInEveryCase) {
  for (const auto& e : expected_spellings) {
    SCOPED_TRACE(std::string(e.name));
    EXPECT_EQ(mf::find_format(e.name), e.id);
    EXPECT_EQ(mf::find_format(with_case(e.name, std::toupper)), e.id);
    EXPECT_EQ(mf::find_format(with_case(e.name, std::tolower)), e.id);
    EXPECT_EQ(mf::find_format(alternating_case(e.name)), e.id);
  }
}

// The header's table and the list above are the same set of names.
TEST(FormatRegistry, TableHasNoUndocumentedSpelling) {
  std::set<std::string> documented;
  for (const auto& e : expected_spellings) documented.insert(with_case(e.name, std::tolower));
  std::set<std::string> table;
  for (const auto& row : mf::format_names) {
    table.insert(with_case(row.name, std::tolower));
    EXPECT_EQ(mf::find_format(row.name), row.id) << row.name;
  }
  EXPECT_EQ(table, documented);
  EXPECT_EQ(table.size(), std::size(mf::format_names)) << "a name is spelled twice";
}

TEST(FormatRegistry, UnknownNames) {
  for (const std::string_view name :
       {"", "e9m9", "e4m3f", "e4m3fn ", " e4m3fn", "e4m3fn\n", "float8-e4m3fn", "hf 8", "fp8",
        "float8", "e4m3fnx", "binary", "bfloat", "int", "uint"}) {
    EXPECT_FALSE(mf::find_format(name).has_value()) << "'" << name << "'";
  }
  EXPECT_FALSE(mf::find_format(std::string_view("e4m3fn\0", 7)).has_value());
}

TEST(FormatRegistry, MinifloatsOnly) {
  EXPECT_EQ(mf::find_minifloat("HF8"), format_id::e4m3fn);
  EXPECT_EQ(mf::find_minifloat("BFLOAT16"), format_id::bfloat16);
  for (const std::string_view name : {"fp32", "float64", "int8", "u8", "int4", "nonsense"}) {
    EXPECT_FALSE(mf::find_minifloat(name).has_value()) << name;
  }
}

TEST(FormatRegistry, CanonicalNamesAreTheLibrarysTypeNames) {
  const std::vector<std::string_view> names = {
      "e4m3fn", "e4m3fnuz", "e5m2", "e5m2fnuz", "e2m1fn", "e2m3fn", "e3m2fn",
      "e8m0fnu", "e4m3", "e3m4", "e4m3b11fnuz", "binary16", "bfloat16", "float32",
      "float64", "int8", "uint8", "int16", "uint16", "int4", "uint4"};
  ASSERT_EQ(names.size(), mf::format_count);
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto id = static_cast<format_id>(i);
    EXPECT_EQ(mf::canonical_name(id), names[i]);
    EXPECT_EQ(mf::find_format(names[i]), id);
    EXPECT_EQ(mf::names_a_minifloat(id), i < mf::minifloat_format_count);
  }
}

TEST(FormatRegistry, PrintedSchemes) {
  using mf::naming::hybrid_fp8;
  using mf::naming::onnx;
  EXPECT_EQ(mf::name_in(format_id::e4m3fn, hybrid_fp8), "HF8");
  EXPECT_EQ(mf::name_in(format_id::e5m2, hybrid_fp8), "BF8");
  EXPECT_EQ(mf::name_in(format_id::binary16, hybrid_fp8), "FP16");
  EXPECT_EQ(mf::name_in(format_id::bfloat16, hybrid_fp8), "BF16");
  EXPECT_EQ(mf::name_in(format_id::float32, hybrid_fp8), "FP32");
  EXPECT_EQ(mf::name_in(format_id::int8, hybrid_fp8), "I8");
  EXPECT_EQ(mf::name_in(format_id::uint8, hybrid_fp8), "U8");
  EXPECT_EQ(mf::name_in(format_id::e4m3fnuz, hybrid_fp8), "");
  EXPECT_EQ(mf::name_in(format_id::float32, onnx), "float");
  EXPECT_EQ(mf::name_in(format_id::binary16, onnx), "float16");
  EXPECT_EQ(mf::name_in(format_id::bfloat16, onnx), "bfloat16");
  EXPECT_EQ(mf::name_in(format_id::e4m3fn, onnx), "float8e4m3fn");
  EXPECT_EQ(mf::name_in(format_id::e2m1fn, onnx), "float4e2m1");
  EXPECT_EQ(mf::name_in(format_id::e8m0fnu, onnx), "float8e8m0");
  EXPECT_EQ(mf::name_in(format_id::int4, onnx), "int4");
  // ONNX 1.23's TensorProto.FLOAT6E2M3 / FLOAT6E3M2 (opset 28).
  EXPECT_EQ(mf::name_in(format_id::e2m3fn, onnx), "float6e2m3");
  EXPECT_EQ(mf::name_in(format_id::e3m2fn, onnx), "float6e3m2");
  EXPECT_EQ(mf::find_format("FLOAT6E2M3"), format_id::e2m3fn);
  EXPECT_EQ(mf::find_format("FLOAT6E3M2"), format_id::e3m2fn);
  EXPECT_EQ(mf::name_in(format_id::e4m3, onnx), "");
}

// Lookups are constant expressions.
static_assert(mf::find_format("Float8_E4M3FN") == format_id::e4m3fn);
static_assert(!mf::find_format("e9m9"));
static_assert(mf::canonical_name(format_id::e5m2) == "e5m2");
static_assert(std::is_same_v<mf::format_t<format_id::bfloat16>, mf::bfloat16>);
static_assert(std::is_same_v<mf::format_t<format_id::int8>, std::int8_t>);

TEST(FormatRegistry, VisitReachesEachMinifloatsType) {
  std::size_t visited = 0;
  mf::for_each_minifloat([&](auto tag) {
    using T = typename decltype(tag)::type;
    EXPECT_EQ(static_cast<std::size_t>(tag.id), visited);
    const int bits = mf::visit_minifloat(tag.id, [](auto inner) {
      return static_cast<int>(decltype(inner)::type::format::bits);
    });
    EXPECT_EQ(bits, T::format::bits) << mf::canonical_name(tag.id);
    ++visited;
  });
  EXPECT_EQ(visited, mf::minifloat_format_count);
  const bool is_bfloat16 = mf::visit_minifloat(*mf::find_format("bf16"), [](auto tag) {
    return std::is_same_v<typename decltype(tag)::type, mf::bfloat16>;
  });
  EXPECT_TRUE(is_bfloat16);
  EXPECT_THROW(mf::visit_minifloat(format_id::float32, [](auto) { return 0; }),
               std::invalid_argument);
}

}  // namespace
