// Tests that run once per kernel set (scalar, AVX2, AVX-512, NEON: every one
// of the architecture, skipped where this build and CPU cannot run it), with
// the kernel set in the test's name, so that a
// failure says which set failed: Suite/e4m3fn.Name/avx2 for a test typed by
// format, Isa/Suite.Name/avx512 for a plain one.
//
//   class MySuite : public mft::per_isa {};
//   TEST_P(MySuite, Name) { ... runs with GetParam() selected ... }
//   MFT_INSTANTIATE_PER_ISA(MySuite);
//
//   MFT_TYPED_PER_ISA_TEST(MySuite, Name, mft::all_format_list, mft::format_names) {
//     ... TypeParam is the format, `isa` the selected kernel set ...
//   }
//
// The typed form registers each (type, ISA) pair with GoogleTest's
// RegisterTest: GoogleTest has no test that is typed and value-parameterized
// at once, and a type per (format, ISA) pair would instantiate every test
// body once per ISA instead of once per format.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include <minifloat/target/dispatch.hpp>

#include "support/formats.hpp"

// GoogleTest prints a parameter through PrintTo found by argument-dependent
// lookup: the kernel set's name instead of its byte.
namespace mf {
namespace target {
inline void PrintTo(isa selected, std::ostream* os) { *os << isa_name(selected); }
}  // namespace target
}  // namespace mf

namespace mft {

// The kernel sets of this build's architecture, scalar first: the per-ISA
// tests are registered for each, and skip (saying why) where this build or
// CPU cannot run it, so a set that did not run shows as skipped rather than
// missing. (NEON on x86 and AVX on AArch64 are not sets of the
// architecture: never registered.)
inline std::vector<mf::target::isa> architecture_isas() {
#if MF_HAS_X86_KERNELS
  return {mf::target::isa::scalar, mf::target::isa::avx2, mf::target::isa::avx512};
#elif defined(__aarch64__)
  return {mf::target::isa::scalar, mf::target::isa::neon};
#else
  return {mf::target::isa::scalar};
#endif
}

// Every kernel set this build and CPU run, scalar first.
inline std::vector<mf::target::isa> available_isas() {
  std::vector<mf::target::isa> result;
  for (mf::target::isa candidate : architecture_isas()) {
    if (mf::target::isa_supported(candidate)) result.push_back(candidate);
  }
  return result;
}

// Why a kernel set of the architecture does not run here.
inline std::string why_not_supported(mf::target::isa selected) {
  const std::string name = mf::target::isa_name(selected);
  if (selected == mf::target::isa::avx512 && !MF_HAS_AVX512_KERNELS) {
    return name + ": this build has no AVX-512 kernels (MINIFLOAT_NO_AVX512)";
  }
  if (selected == mf::target::isa::neon && !MF_HAS_NEON_KERNELS) {
    return name + ": this build has no NEON kernels (MINIFLOAT_NO_SIMD)";
  }
  return name + ": this CPU (or its OS) does not support it";
}

// Selects a kernel set for the lifetime of the object, then restores the
// previous one.
class isa_scope {
 public:
  explicit isa_scope(mf::target::isa selected) : previous_(mf::target::active_isa()) {
    const mf::target::isa got = mf::target::set_isa(selected);
    EXPECT_EQ(got, selected) << mf::target::isa_name(selected);
  }
  ~isa_scope() { mf::target::set_isa(previous_); }
  isa_scope(const isa_scope&) = delete;
  isa_scope& operator=(const isa_scope&) = delete;

 private:
  mf::target::isa previous_;
};

// The fixture of a value-parameterized test over the kernel sets: the
// parameter is selected while the test runs, or the test skips.
class per_isa : public ::testing::TestWithParam<mf::target::isa> {
 protected:
  void SetUp() override {
    if (!mf::target::isa_supported(GetParam())) GTEST_SKIP() << why_not_supported(GetParam());
    scope_.emplace(GetParam());
  }

 private:
  std::optional<isa_scope> scope_;
};

inline std::string isa_param_name(const ::testing::TestParamInfo<mf::target::isa>& info) {
  return mf::target::isa_name(info.param);
}

#define MFT_INSTANTIATE_PER_ISA(suite)                                            \
  INSTANTIATE_TEST_SUITE_P(Isa, suite, ::testing::ValuesIn(::mft::architecture_isas()), \
                           ::mft::isa_param_name)

namespace detail {

using isa_test_body = void (*)(mf::target::isa);

class typed_isa_test : public ::testing::Test {
 public:
  typed_isa_test(isa_test_body body, mf::target::isa selected) : body_(body), isa_(selected) {}
  void TestBody() override {
    if (!mf::target::isa_supported(isa_)) GTEST_SKIP() << why_not_supported(isa_);
    isa_scope scope(isa_);
    body_(isa_);
  }

 private:
  isa_test_body body_;
  mf::target::isa isa_;
};

// Registers suite/<type name>.name/<isa> for every type of the list and every
// available ISA; body_of(static_cast<T*>(nullptr)) is the body for type T.
// Names::GetName<T>(i) gets the type's index in the list, as in
// TYPED_TEST_SUITE.
template <class Names, class... Types, class BodyOf>
bool register_typed_per_isa(const char* suite, const char* name, const char* file, int line,
                            type_list<Types...>, BodyOf body_of) {
  const std::vector<mf::target::isa> isas = architecture_isas();
  int index = 0;
  const auto register_type = [&](auto* type_tag) {
    using type = std::remove_pointer_t<decltype(type_tag)>;
    const std::string suite_name =
        std::string(suite) + "/" + Names::template GetName<type>(index++);
    const isa_test_body body = body_of(type_tag);
    for (mf::target::isa selected : isas) {
      const std::string test_name = std::string(name) + "/" + mf::target::isa_name(selected);
      ::testing::RegisterTest(suite_name.c_str(), test_name.c_str(), nullptr,
                              mf::target::isa_name(selected), file, line,
                              [body, selected]() -> ::testing::Test* {
                                return new typed_isa_test(body, selected);
                              });
    }
  };
  (register_type(static_cast<Types*>(nullptr)), ...);
  return true;
}

}  // namespace detail
}  // namespace mft

// Defines a test body, a template over TypeParam with the selected kernel set
// `isa`, and registers it for every type of `types` (an mft::type_list) and
// every available ISA. `names` names the types as TYPED_TEST_SUITE's third
// argument does.
#define MFT_TYPED_PER_ISA_TEST(suite, name, types, names)                                 \
  template <class TypeParam>                                                             \
  void suite##_##name##_body(mf::target::isa isa);                                         \
  [[maybe_unused]] const bool suite##_##name##_registered =                              \
      ::mft::detail::register_typed_per_isa<names>(                                      \
          #suite, #name, __FILE__, __LINE__, types{},                                    \
          [](auto* type_tag) -> ::mft::detail::isa_test_body {                           \
            return &suite##_##name##_body<std::remove_pointer_t<decltype(type_tag)>>;    \
          });                                                                            \
  template <class TypeParam>                                                             \
  void suite##_##name##_body([[maybe_unused]] mf::target::isa isa)
