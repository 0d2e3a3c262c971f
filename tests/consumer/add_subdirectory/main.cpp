// Consumer smoke test: the add_subdirectory'd package gives a working include
// path and C++ standard, and its headers come in as system headers, so this
// project's strict warning flags (CMakeLists.txt) apply to its own code only
// while the bulk kernels are instantiated here. Exit status 0 when 1.5
// round-trips through both paths.
#include <minifloat/bulk.hpp>
#include <minifloat/minifloat.hpp>

int main() {
  const mf::e4m3fn x(1.5f);
  const float in[3] = {1.5f, -2.0f, 448.0f};
  mf::e4m3fn out[3];
  mf::bulk::encode<mf::e4m3fn>(in, out, 3);
  return static_cast<float>(x) == 1.5f && out[0] == x ? 0 : 1;
}
