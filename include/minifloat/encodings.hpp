// Arrays of encodings as the array entries (bulk, MX, scaling) take them:
// either the raw storage (std::uint8_t* for e4m3fn, std::uint16_t* for
// binary16) or the value type itself (mf::e4m3fn*, so that
// std::vector<mf::e4m3fn>::data() goes straight in), and in C++20 any
// contiguous range of either (std::span, std::vector, std::array).
//
// Why a value array may be read and written as its storage: a minifloat is
// a standard-layout class whose one non-static data member is its
// storage_type (value.hpp), so the object and that member are
// pointer-interconvertible (C++17 [basic.compound]/4) and
// reinterpret_cast yields a pointer to the member itself; the kernels then
// access storage_type objects through storage_type lvalues
// ([basic.lval]/11). An array of minifloats is an array of such members at
// a stride of sizeof(storage_type), which the static_asserts below check.
#pragma once

#include <cstddef>
#include <type_traits>

#if __cplusplus >= 202002L && __has_include(<span>)
#include <iterator>
#include <utility>
#endif

#include "value.hpp"

namespace mf {
namespace detail {

template <class Fmt>
constexpr bool is_its_storage() noexcept {
  using storage = typename Fmt::storage_type;
  return std::is_standard_layout<Fmt>::value && std::is_trivially_copyable<Fmt>::value &&
         sizeof(Fmt) == sizeof(storage) && alignof(Fmt) == alignof(storage);
}

template <class From, class To>
using same_const_t = std::conditional_t<std::is_const<From>::value, const To, To>;

}  // namespace detail

// The storage of a value array (see the header comment).
template <class T, std::enable_if_t<is_minifloat_v<std::remove_const_t<T>>, int> = 0>
inline detail::same_const_t<T, typename std::remove_const_t<T>::storage_type>* storage_pointer(
    T* values) noexcept {
  using fmt = std::remove_const_t<T>;
  static_assert(detail::is_its_storage<fmt>(),
                "a minifloat must be exactly its storage_type: standard layout, same size and "
                "alignment");
  return reinterpret_cast<detail::same_const_t<T, typename fmt::storage_type>*>(values);
}

// A pointer to encodings of Fmt (T is Fmt, or const Fmt for inputs), from a
// pointer to the storage or to the values. It converts implicitly, so an
// entry declared with it accepts either; get() is the storage pointer.
template <class T>
class encodings {
 public:
  using format_type = std::remove_const_t<T>;
  using storage_type = detail::same_const_t<T, typename format_type::storage_type>;
  static_assert(is_minifloat_v<format_type>, "encodings of a minifloat type");

  constexpr encodings(storage_type* p) noexcept : p_(p) {}  // NOLINT: implicit by design
  encodings(T* values) noexcept : p_(storage_pointer(values)) {}  // NOLINT
  constexpr encodings(std::nullptr_t) noexcept : p_(nullptr) {}   // NOLINT

  constexpr storage_type* get() const noexcept { return p_; }

 private:
  storage_type* p_;
};

namespace detail {

// The storage pointer of an entry's argument, whether the entry declares it
// as encodings<T> or as plain bytes (packed sub-byte elements).
template <class T>
constexpr typename encodings<T>::storage_type* raw_pointer(encodings<T> p) noexcept {
  return p.get();
}
template <class T>
constexpr T* raw_pointer(T* p) noexcept {
  return p;
}

}  // namespace detail

#if __cplusplus >= 202002L && __has_include(<span>)
// A contiguous range of encodings of Fmt (T as above): std::span,
// std::vector or std::array of the storage or of the values, or a C array.
template <class T>
class encoding_span {
 public:
  using storage_type = typename encodings<T>::storage_type;

  template <class R, class Data = decltype(std::data(std::declval<R&>())),
            class = decltype(std::size(std::declval<R&>())),
            std::enable_if_t<std::is_convertible<Data, storage_type*>::value ||
                                 std::is_convertible<Data, T*>::value,
                             int> = 0>
  encoding_span(R&& range) noexcept  // NOLINT: implicit by design
      : p_(encodings<T>(std::data(range)).get()), n_(std::size(range)) {}

  constexpr storage_type* data() const noexcept { return p_; }
  constexpr std::size_t size() const noexcept { return n_; }

 private:
  storage_type* p_;
  std::size_t n_;
};

namespace detail {

// The element type, const removed, of a contiguous range R (std::span,
// std::vector, std::array, a C array); no type for anything else, a pointer
// included. The entries whose element type is deduced take their ranges
// through it: a std::span<const T> parameter would not take a
// std::vector<T> (template deduction does not convert).
template <class R>
using contiguous_element_t =
    std::remove_cv_t<std::remove_pointer_t<decltype(std::data(std::declval<R&>()))>>;

}  // namespace detail
#endif

}  // namespace mf
