// The core header in a consumer's strict build: a project that sees
// minifloat's headers through a plain -I (add_subdirectory, FetchContent)
// gets their warnings as its own, so the value type's whole API is used here
// for every format under -Wconversion -Wsign-conversion -Wshadow
// -Wold-style-cast -Wdouble-promotion -Werror (CMakeLists.txt). Exit status
// 0 when the few results checked are right.
#include <minifloat/minifloat.hpp>

#include <cstdint>
#include <functional>
#include <limits>
#include <sstream>
#include <string>

namespace {

template <class T>
bool use_every_part() {
  using limits = std::numeric_limits<T>;
  const T from_float(1.5f);
  const T from_double(0.75);
  const T from_int(2);
  const T from_other(mf::e4m3fn(1.0f));
  const T toward_zero = mf::round_to<T>(3.3f, mf::rounding::toward_zero, mf::overflow::saturating);
  const T stochastic = mf::round_to_stochastic<T>(1.3f, mf::stochastic_random_bits(7, 0, 16),
                                                  mf::overflow::saturating, 16);
  const T from_bits = T::from_bits(static_cast<typename T::storage_type>(from_float.bits()));
  float sum = from_float + from_double;
  sum += static_cast<float>(from_int * from_other);
  sum += static_cast<float>(toward_zero - stochastic);
  const bool compared = from_float < from_int && from_float == from_bits && from_double != from_int;
  const bool classified = !mf::isnan(from_float) && mf::isfinite(from_int) &&
                          mf::fpclassify(from_double) != FP_NAN && !mf::signbit(mf::abs(from_int));
  const T next = mf::nextafter(from_float, limits::max());
  const T lowest = limits::lowest();
  std::ostringstream text;
  text << from_float << ' ' << mf::to_string(next);
  T parsed{};
  const bool read = mf::parse(mf::to_string(lowest), parsed) && parsed == lowest;
  const bool hashed = std::hash<T>{}(from_float) == std::hash<T>{}(from_bits);
  return compared && classified && read && hashed && sum > 0.0f && !text.str().empty();
}

template <class... T>
bool use_all() {
  return (use_every_part<T>() && ...);
}

}  // namespace

int main() {
  const bool ok = use_all<mf::e4m3fn, mf::e4m3fnuz, mf::e5m2, mf::e5m2fnuz, mf::e2m3fn, mf::e3m2fn,
                          mf::e2m1fn, mf::e4m3, mf::e3m4, mf::e4m3b11fnuz, mf::binary16,
                          mf::bfloat16>();
  const mf::e8m0fnu scale(4.0f);
  const bool scale_ok = scale.bits() == 129 && static_cast<float>(scale) == 4.0f;
  return ok && scale_ok ? 0 : 1;
}
