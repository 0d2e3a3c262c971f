// What every source of minifloat::kernels includes: the definition of
// target/dispatch.hpp's library_table_of, and the macro that instantiates it
// for one kernel family. Not installed: a program that links the library
// only declares library_table_of.
#pragma once

#ifndef MINIFLOAT_KERNELS_BUILDING
#error "src/kernels/ compiles with MINIFLOAT_KERNELS_BUILDING (its CMakeLists.txt sets it)"
#endif

#include <minifloat/target/dispatch.hpp>

namespace mf::target {

template <class Family>
const row_type_of<Family>& library_table_of(isa i) noexcept {
  static_assert(compiled_in_library<Family>::value,
                "the family's compiled_in_library must be true where the library compiles it");
  return table_of<Family>(i);
}

}  // namespace mf::target

// The table of one family (a type; commas allowed), compiled here.
#define MF_COMPILE_KERNEL_TABLE(...)                                                      \
  template const ::mf::target::row_type_of<__VA_ARGS__>&                           \
  ::mf::target::library_table_of<__VA_ARGS__>(::mf::target::isa) noexcept
