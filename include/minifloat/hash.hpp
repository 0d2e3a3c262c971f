// std::hash, consistent with operator==: +0 and -0 compare equal, so they
// hash alike.
#pragma once

#include <cstddef>
#include <functional>

#include "value.hpp"

namespace std {

template <int E, int M, int B, mf::specials S>
struct hash<mf::minifloat<E, M, B, S>> {
  std::size_t operator()(mf::minifloat<E, M, B, S> x) const noexcept {
    using format = typename mf::minifloat<E, M, B, S>::format;
    const unsigned bits = x.bits();
    const bool negative_zero =
        format::has_negative_zero && bits == format::sign_mask;
    return std::hash<unsigned>{}(negative_zero ? 0u : bits);
  }
};

}  // namespace std
