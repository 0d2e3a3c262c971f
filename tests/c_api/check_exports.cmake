# The dynamic symbols that libminifloat_c.so defines are exactly the
# functions that include/minifloat/c_api.h declares with MF_C_API: none
# missing, nothing else (no C++ symbol that a second copy of the library,
# or of libstdc++, in the same simulator could bind to).
#   cmake -DNM=<nm> -DLIBRARY=<libminifloat_c.so> -DHEADER=<c_api.h> -P check_exports.cmake
foreach(var IN ITEMS NM LIBRARY HEADER)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_exports.cmake: -D${var}=... is missing")
  endif()
endforeach()

file(READ "${HEADER}" header)
string(REGEX MATCHALL "MF_C_API[^;(]*[ *](mf_[a-z0-9_]+)\\(" declarations "${header}")
set(declared "")
foreach(declaration IN LISTS declarations)
  string(REGEX MATCH "(mf_[a-z0-9_]+)\\($" name "${declaration}")
  list(APPEND declared "${CMAKE_MATCH_1}")
endforeach()
list(SORT declared)
list(LENGTH declared declared_count)
if(declared_count EQUAL 0)
  message(FATAL_ERROR "no MF_C_API declaration found in ${HEADER}")
endif()

execute_process(COMMAND "${NM}" -D --defined-only "${LIBRARY}"
  OUTPUT_VARIABLE listing RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "${NM} -D --defined-only ${LIBRARY} failed (${status}): ${errors}")
endif()
string(REPLACE "\n" ";" lines "${listing}")
set(exported "")
foreach(line IN LISTS lines)
  # "<address> <type> <name>"; a version node (type A) is not a symbol of
  # the code, and there is none without a named version.
  if(line MATCHES "^[0-9a-fA-F]* *([A-Za-z]) (.+)$")
    list(APPEND exported "${CMAKE_MATCH_2}")
  endif()
endforeach()
list(SORT exported)

set(extra "${exported}")
list(REMOVE_ITEM extra ${declared})
set(missing "${declared}")
list(REMOVE_ITEM missing ${exported})
list(LENGTH exported exported_count)
if(extra OR missing)
  string(REPLACE ";" "\n  " extra_text "${extra}")
  string(REPLACE ";" "\n  " missing_text "${missing}")
  message(FATAL_ERROR "${LIBRARY}: ${exported_count} exported, ${declared_count} declared\n"
    "exported but not declared in c_api.h:\n  ${extra_text}\n"
    "declared in c_api.h but not exported:\n  ${missing_text}")
endif()
message(STATUS "${LIBRARY}: exactly the ${declared_count} mf_ functions of c_api.h are exported")
