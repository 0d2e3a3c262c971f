// Consumer smoke test: the installed / add_subdirectory'd package gives a
// working include path and C++ standard. Exit status 0 when 1.5 round-trips.
#include <minifloat/minifloat.hpp>

int main() {
  const mf::e4m3fn x(1.5f);
  return static_cast<float>(x) == 1.5f ? 0 : 1;
}
