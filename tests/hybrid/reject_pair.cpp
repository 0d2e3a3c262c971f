// Compile-fail check of the tables: BF8 x BF8 -> HF8 is not a row of the
// vendor table, so the typed MatMul must not compile (ctest builds this
// target and expects the static_assert's message). With
// MINIFLOAT_ACCEPTED_PAIR it is BF8 x BF8 -> BF8, a row, and must compile.
#include <minifloat/hybrid.hpp>

int main() {
  mf::e5m2 a[16] = {}, b[16] = {};
#ifdef MINIFLOAT_ACCEPTED_PAIR
  mf::e5m2 c[1];
#else
  mf::e4m3fn c[1];
#endif
  mf::hybrid::matmul(a, 16, b, 1, c, 1, 1, 1, 16);
  return static_cast<int>(c[0].bits()) & 0;
}
