# cmake -DBUILD_DIR=<build tree> -DPREFIX=<prefix> -DCONFIG=<config> -DC_API=ON|OFF
#       -P install_check.cmake
# Installs the build tree into PREFIX (inside the build tree) and checks
# that the files a consumer needs are there.
file(REMOVE_RECURSE "${PREFIX}")
set(_config_args)
if(CONFIG)
  set(_config_args --config "${CONFIG}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${_config_args}
                RESULT_VARIABLE status OUTPUT_QUIET)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "cmake --install failed (${status})")
endif()
file(GLOB _package_config "${PREFIX}/lib*/cmake/minifloat/minifloatConfig.cmake")
set(_required "${PREFIX}/include/minifloat/minifloat.hpp" "${_package_config}")
if(C_API)  # the C header and the DPI-C package a testbench imports
  list(APPEND _required "${PREFIX}/include/minifloat/c_api.h"
       "${PREFIX}/share/minifloat/dpi/minifloat_pkg.sv"
       "${PREFIX}/share/minifloat/dpi/minifloat_pkg.f"
       "${PREFIX}/share/minifloat/dpi/minifloat_verilator.f")
endif()
foreach(required IN LISTS _required)
  if(NOT required OR NOT EXISTS "${required}")
    message(FATAL_ERROR "not installed: ${required}")
  endif()
endforeach()
message(STATUS "installed into ${PREFIX}")
