// Binds each library type to its row of the specification's format table
// (written out here by hand, not read from the library's traits) and holds
// the helpers the conformance tests share. The formats are those of
// support/formats.hpp; each must have a row here (checked below).
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <sstream>
#include <string>
#include <type_traits>

#include <minifloat/convert.hpp>
#include <minifloat/formats.hpp>

#include "reference/reference.hpp"
#include "support/formats.hpp"

namespace mftest {

template <class T>
struct spec_for;

#define MFTEST_SPEC(type, E, M, bias, k)                               \
  template <>                                                              \
  struct spec_for<mf::type> {                                              \
    static constexpr mfref::format_spec value{#type, E, M, bias, mfref::kind::k}; \
  }

MFTEST_SPEC(e4m3fn, 4, 3, 7, fn);
MFTEST_SPEC(e4m3fnuz, 4, 3, 8, fnuz);
MFTEST_SPEC(e5m2, 5, 2, 15, ieee);
MFTEST_SPEC(e5m2fnuz, 5, 2, 16, fnuz);
MFTEST_SPEC(e2m1fn, 2, 1, 1, finite);
MFTEST_SPEC(e2m3fn, 2, 3, 1, finite);
MFTEST_SPEC(e3m2fn, 3, 2, 3, finite);
MFTEST_SPEC(e8m0fnu, 8, 0, 127, fnu);
MFTEST_SPEC(e4m3, 4, 3, 7, ieee);
MFTEST_SPEC(e3m4, 3, 4, 3, ieee);
MFTEST_SPEC(e4m3b11fnuz, 4, 3, 11, fnuz);
MFTEST_SPEC(binary16, 5, 10, 15, ieee);
MFTEST_SPEC(bfloat16, 8, 7, 127, ieee);

#undef MFTEST_SPEC

using AllFormats = mft::all_formats;

// Names the typed tests after the format: EncodeFloat/e4m3fn.Rule.
using mft::format_names;

namespace detail {

constexpr bool same_text(const char* a, const char* b) {
  while (*a != '\0' && *a == *b) {
    ++a;
    ++b;
  }
  return *a == *b;
}

// Every format of the list has a row, under the list's name.
template <class... Ts>
constexpr bool every_row_named(mft::type_list<Ts...>) {
  return (same_text(spec_for<Ts>::value.name, mft::format_name_of<Ts>::value) && ...);
}
static_assert(every_row_named(mft::all_format_list{}),
              "a row of the table above is missing or misnamed");

}  // namespace detail

template <class T>
struct tag {
  using type = T;
};

template <class F, class... Ts>
void for_each_format(mft::type_list<Ts...>, F&& f) {
  (f(tag<Ts>{}), ...);
}
template <class F>
void for_each_format(F&& f) {
  for_each_format(mft::all_format_list{}, f);
}

// One reference per format, built once.
template <class T>
const mfref::reference& reference_for() {
  static const mfref::reference ref(spec_for<T>::value);
  return ref;
}

struct mode_pair {
  mf::rounding rounding;
  mf::overflow overflow;
  mfref::round_mode ref_rounding;
  mfref::overflow_mode ref_overflow;
};

inline std::string to_string(const mode_pair& m) {
  return std::string(mfref::to_string(m.ref_rounding)) + "/" +
         mfref::to_string(m.ref_overflow);
}

// Every deterministic rounding mode with both overflow modes.
inline const std::array<mode_pair, 8>& deterministic_modes() {
  using R = mf::rounding;
  using O = mf::overflow;
  using RR = mfref::round_mode;
  using RO = mfref::overflow_mode;
  static const std::array<mode_pair, 8> modes = {{
      {R::nearest_even, O::non_saturating, RR::nearest_even, RO::non_saturating},
      {R::nearest_even, O::saturating, RR::nearest_even, RO::saturating},
      {R::toward_zero, O::non_saturating, RR::toward_zero, RO::non_saturating},
      {R::toward_zero, O::saturating, RR::toward_zero, RO::saturating},
      {R::toward_positive, O::non_saturating, RR::toward_positive, RO::non_saturating},
      {R::toward_positive, O::saturating, RR::toward_positive, RO::saturating},
      {R::toward_negative, O::non_saturating, RR::toward_negative, RO::non_saturating},
      {R::toward_negative, O::saturating, RR::toward_negative, RO::saturating},
  }};
  return modes;
}

inline std::string hex(std::uint64_t v) {
  char buffer[24];
  std::snprintf(buffer, sizeof buffer, "0x%llX", static_cast<unsigned long long>(v));
  return buffer;
}

template <class X>
std::string describe_input(X x) {
  std::ostringstream s;
  s.precision(17);
  if constexpr (std::is_same<X, float>::value) {
    std::uint32_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    s << x << " (float bits " << hex(bits) << ")";
  } else if constexpr (std::is_same<X, double>::value) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    s << x << " (double bits " << hex(bits) << ")";
  } else if constexpr (std::is_integral<X>::value) {
    s << +x;
  } else {
    s << x;
  }
  return s.str();
}

// Counts comparisons and mismatches; reports the first few mismatches as
// test failures and keeps quiet after that.
class mismatch_log {
 public:
  explicit mismatch_log(int limit = 6) : limit_(limit) {}

  template <class Describe>
  void expect_eq(unsigned got, unsigned expected, Describe&& describe) {
    ++checked_;
    if (got == expected) return;
    ++mismatches_;
    if (mismatches_ <= static_cast<std::size_t>(limit_)) {
      ADD_FAILURE() << describe() << ": got " << hex(got) << ", expected "
                    << hex(expected);
    }
  }

  std::size_t checked() const { return checked_; }
  std::size_t mismatches() const { return mismatches_; }

 private:
  int limit_;
  std::size_t checked_ = 0;
  std::size_t mismatches_ = 0;
};

// Checks the log at the end of a test: no mismatch, and at least `minimum`
// comparisons were made (an empty input set is a defect, not a pass).
#define MFTEST_EXPECT_CLEAN(log, minimum)                                  \
  do {                                                                     \
    EXPECT_EQ((log).mismatches(), 0u)                                      \
        << (log).mismatches() << " of " << (log).checked() << " differ";   \
    EXPECT_GE((log).checked(), static_cast<std::size_t>(minimum));         \
  } while (0)

}  // namespace mftest
