// The formats under test: the one list every test takes its formats from.
//
// The library names its formats in include/minifloat/formats.hpp and has no
// list of them (a list would be a type the library itself never uses), so
// this is the list. tests/CMakeLists.txt reads the `using X = minifloat<...>`
// lines of formats.hpp at configure time and generates a header
// (declared_formats.hpp in the build tree) that static_asserts every one of
// them is here: a format added to the library without a line here does not
// compile in any test.
//
// Each format is named once, in MFT_FOR_EACH_FORMAT, which gives both the
// type list and the name the typed tests print (EncodeFloat/e4m3fn.Rule).
#pragma once

#include <cstddef>
#include <string>
#include <type_traits>

#include <gtest/gtest.h>

#include <minifloat/formats.hpp>

// X(name) for every format of include/minifloat/formats.hpp, by its name
// there.
#define MFT_FOR_EACH_FORMAT(X) \
  X(e4m3fn)                    \
  X(e4m3fnuz)                  \
  X(e5m2)                      \
  X(e5m2fnuz)                  \
  X(e2m1fn)                    \
  X(e2m3fn)                    \
  X(e3m2fn)                    \
  X(e8m0fnu)                   \
  X(e4m3)                      \
  X(e3m4)                      \
  X(e4m3b11fnuz)               \
  X(binary16)                  \
  X(bfloat16)

namespace mft {

template <class... T>
struct type_list {};

namespace detail {

template <class List>
struct drop_first;
template <class First, class... Rest>
struct drop_first<type_list<First, Rest...>> {
  using type = type_list<Rest...>;
};

template <class List, template <class> class Keep, class Kept = type_list<>>
struct filter;
template <template <class> class Keep, class... Kept>
struct filter<type_list<>, Keep, type_list<Kept...>> {
  using type = type_list<Kept...>;
};
template <class First, class... Rest, template <class> class Keep, class... Kept>
struct filter<type_list<First, Rest...>, Keep, type_list<Kept...>> {
  using type = typename filter<
      type_list<Rest...>, Keep,
      std::conditional_t<Keep<First>::value, type_list<Kept..., First>, type_list<Kept...>>>::type;
};

template <class List>
struct as_gtest_types;
template <class... T>
struct as_gtest_types<type_list<T...>> {
  using type = ::testing::Types<T...>;
};

template <class T, class List>
struct contains;
template <class T, class... U>
struct contains<T, type_list<U...>> : std::bool_constant<(std::is_same<T, U>::value || ...)> {};

}  // namespace detail

// The entries of MFT_FOR_EACH_FORMAT follow a leading `void` (so that each
// can begin with a comma), which is then dropped.
#define MFT_FORMAT_TYPE_ENTRY(name) , mf::name
using all_format_list =
    detail::drop_first<type_list<void MFT_FOR_EACH_FORMAT(MFT_FORMAT_TYPE_ENTRY)>>::type;
#undef MFT_FORMAT_TYPE_ENTRY

template <class T>
struct format_name_of;
#define MFT_FORMAT_NAME_ENTRY(name)                   \
  template <>                                         \
  struct format_name_of<mf::name> {                   \
    static constexpr const char* value = #name;       \
  };
MFT_FOR_EACH_FORMAT(MFT_FORMAT_NAME_ENTRY)
#undef MFT_FORMAT_NAME_ENTRY

template <class T>
std::string format_name() {
  return format_name_of<T>::value;
}

// Names the typed tests after the format: Suite/e4m3fn.Name.
struct format_names {
  template <class T>
  static std::string GetName(int) {
    return format_name<T>();
  }
};

template <class T, class List>
inline constexpr bool list_contains = detail::contains<T, List>::value;

template <class List, template <class> class Keep>
using filter_list = typename detail::filter<List, Keep>::type;

// A type_list as GoogleTest's TYPED_TEST_SUITE takes it.
template <class List>
using gtest_types = typename detail::as_gtest_types<List>::type;

// The one-byte formats (every pair of them is small enough to enumerate)
// and the 16-bit ones, told apart by storage size.
template <class T>
struct is_byte_format : std::bool_constant<sizeof(typename T::storage_type) == 1> {};
template <class T>
struct is_wide_format : std::bool_constant<sizeof(typename T::storage_type) == 2> {};

using byte_format_list = filter_list<all_format_list, is_byte_format>;
using wide_format_list = filter_list<all_format_list, is_wide_format>;

using all_formats = gtest_types<all_format_list>;
using byte_formats = gtest_types<byte_format_list>;
using wide_formats = gtest_types<wide_format_list>;

// Calls f(static_cast<T*>(nullptr)) for every T of the list, in order.
template <class... T, class F>
void for_each_type(type_list<T...>, F&& f) {
  (f(static_cast<T*>(nullptr)), ...);
}

}  // namespace mft
