// Text I/O under a C locale whose decimal point is ',' (de_DE): to_string
// still writes '.', parse and operator>> still read '.', and a ',' is not a
// number, as in the "C" locale. The locale is made under the build tree by
// ctest's fixture (localedef, LOCPATH); without it the tests skip.
#include <clocale>
#include <cstdint>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <minifloat/minifloat.hpp>

namespace {

// Switches the whole C locale to one with a ',' point for one test.
class CommaLocale : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"de_DE.UTF-8", "de_DE.utf8", "de_DE"}) {
      if (std::setlocale(LC_ALL, name) != nullptr) break;
    }
    const char* point = std::localeconv()->decimal_point;
    if (point == nullptr || std::string(point) != ",") {
      std::setlocale(LC_ALL, "C");
      GTEST_SKIP() << "no locale with a ',' decimal point (localedef and the de_DE source, or "
                      "LOCPATH, are missing)";
    }
  }
  void TearDown() override { std::setlocale(LC_ALL, "C"); }
};

template <class T>
void every_encoding_reads_back() {
  for (std::uint32_t bits = 0; bits < (1u << T::format::bits); ++bits) {
    const T x = T::from_bits(static_cast<typename T::storage_type>(bits));
    if (mf::isnan(x)) continue;
    const std::string text = mf::to_string(x);
    EXPECT_EQ(text.find(','), std::string::npos) << text;
    T back{};
    ASSERT_TRUE(mf::parse(text, back)) << text;
    EXPECT_EQ(back.bits(), x.bits()) << text;
    std::istringstream in(text);
    T streamed{};
    in >> streamed;
    EXPECT_FALSE(in.fail()) << text;
    EXPECT_EQ(streamed.bits(), x.bits()) << text;
  }
}

TEST_F(CommaLocale, TextKeepsTheDecimalPoint) {
  every_encoding_reads_back<mf::e4m3fn>();
  every_encoding_reads_back<mf::e5m2>();
  every_encoding_reads_back<mf::e2m1fn>();
  every_encoding_reads_back<mf::bfloat16>();
  EXPECT_EQ(mf::to_string(mf::e5m2(1.5f)), "1.5");
  EXPECT_EQ(mf::to_string(mf::bfloat16(3.14159f)), "3.14");
  EXPECT_EQ(mf::to_string(mf::binary16(1e-7f)), "1e-07");
}

TEST_F(CommaLocale, ACommaIsNotANumber) {
  mf::e5m2 x(2.0f);
  EXPECT_FALSE(mf::parse("1,5", x));
  EXPECT_EQ(x.bits(), mf::e5m2(2.0f).bits());
  mf::e5m2 y{};
  EXPECT_TRUE(mf::parse("0x1.8p1", y));
  EXPECT_EQ(static_cast<float>(y), 3.0f);
  std::istringstream in("1,5");
  in >> y;
  EXPECT_TRUE(in.fail());
}

}  // namespace
