# The include graph's rules (docs/architecture.md, "Layers"), checked on
# every header under include/minifloat/:
#  1. the layers below the modules (target/, simd/, lanes/) include no
#     module header;
#  2. a module (bulk, mx, hybrid, scaling, calibration, onnx) includes no
#     other module's per-ISA kernel headers (avx2, avx512, neon, scalar
#     kernels, kernel sets, generic kernel sources, MatMul tiles);
#  3. a module names no other module's detail or per-ISA namespace.
# A module uses another only through its public entries, and every
# instruction-set concern through target/ (docs/architecture.md).
# Run: cmake -DINCLUDE_DIR=<repo>/include/minifloat -P check_layers.cmake
cmake_minimum_required(VERSION 3.20)
if(NOT INCLUDE_DIR)
  message(FATAL_ERROR "pass -DINCLUDE_DIR=<repo>/include/minifloat")
endif()

set(modules bulk mx hybrid scaling calibration onnx)
set(lower_layers target simd lanes)
# Header names (relative to the module) that hold per-ISA kernels.
set(isa_header_regex
    "(avx2|avx512|neon|_scalar|/scalar|kernel_sets|x86_lanes|generic/|kernels/)[a-z0-9_/]*\\.hpp")

set(violations "")
file(GLOB_RECURSE headers RELATIVE "${INCLUDE_DIR}" "${INCLUDE_DIR}/*.hpp")
foreach(header IN LISTS headers)
  string(REGEX MATCH "^[a-z_]+/" top "${header}")
  string(REPLACE "/" "" top "${top}")
  get_filename_component(dir "${header}" DIRECTORY)
  file(STRINGS "${INCLUDE_DIR}/${header}" include_lines REGEX "^#include \"")
  file(READ "${INCLUDE_DIR}/${header}" text)
  foreach(line IN LISTS include_lines)
    string(REGEX REPLACE "^#include \"([^\"]+)\".*" "\\1" target_path "${line}")
    get_filename_component(resolved "${INCLUDE_DIR}/${dir}/${target_path}" ABSOLUTE)
    file(RELATIVE_PATH included "${INCLUDE_DIR}" "${resolved}")
    string(REGEX MATCH "^[a-z_]+/" included_top "${included}")
    string(REPLACE "/" "" included_top "${included_top}")
    if(top IN_LIST lower_layers AND included_top IN_LIST modules)
      list(APPEND violations "${header}: the ${top}/ layer includes the module header ${included}")
    endif()
    if(top IN_LIST modules AND included_top IN_LIST modules AND NOT top STREQUAL included_top)
      string(REGEX REPLACE "^[a-z_]+/" "" inside "${included}")
      if(inside MATCHES "^${isa_header_regex}$" OR inside MATCHES "/${isa_header_regex}$")
        list(APPEND violations "${header}: includes ${included}, another module's kernels")
      endif()
    endif()
  endforeach()
  if(top IN_LIST modules)
    foreach(other IN LISTS modules)
      if(NOT other STREQUAL top)
        string(REGEX MATCH "[^a-z_]${other}::(detail|scalar|avx2|avx512|neon|kernels)::" hit "${text}")
        if(hit)
          list(APPEND violations "${header}: names ${other}'s internals (${hit})")
        endif()
      endif()
    endforeach()
  endif()
endforeach()

list(LENGTH headers count)
if(violations)
  list(JOIN violations "\n  " report)
  message(FATAL_ERROR "include-graph rules broken:\n  ${report}")
endif()
message(STATUS "include-graph rules hold for ${count} headers")
