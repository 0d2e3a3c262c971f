# Runs the tool and compares its stdout with a checked-in file.
#
#   cmake -DTOOL=minifloat "-DARGS=vectors;e4m3fn;--count;100;--seed;1"
#         -DEXPECTED=golden/file.csv [-DIGNORE_PREFIX=text] [-DACTUAL=path] -P compare_output.cmake
#
# Lines starting with IGNORE_PREFIX (the library version line, say) are left
# out of the comparison on both sides. ACTUAL, when given, receives what the tool
# printed, for a diff or to update the file once a change is intended.
cmake_minimum_required(VERSION 3.16)

if(NOT DEFINED TOOL OR NOT DEFINED ARGS OR NOT DEFINED EXPECTED)
  message(FATAL_ERROR "compare_output.cmake needs -DTOOL, -DARGS and -DEXPECTED")
endif()

execute_process(COMMAND "${TOOL}" ${ARGS}
                OUTPUT_VARIABLE actual ERROR_VARIABLE stderr RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  string(REPLACE ";" " " shown "${ARGS}")
  message(FATAL_ERROR "minifloat ${shown} failed (${status}): ${stderr}")
endif()
if(DEFINED ACTUAL)
  file(WRITE "${ACTUAL}" "${actual}")
endif()
file(READ "${EXPECTED}" expected)

if(DEFINED IGNORE_PREFIX)
  string(REGEX REPLACE "([][+.*?^$()|\\])" "\\\\\\1" prefix_regex "${IGNORE_PREFIX}")
  foreach(variable actual expected)
    string(REGEX REPLACE "(^|\n)${prefix_regex}[^\n]*" "\\1" ${variable} "${${variable}}")
  endforeach()
endif()

if(NOT actual STREQUAL expected)
  # Name the first line that differs.
  string(REPLACE "\n" ";" actual_lines "${actual}")
  string(REPLACE "\n" ";" expected_lines "${expected}")
  list(LENGTH actual_lines actual_count)
  list(LENGTH expected_lines expected_count)
  set(where "line counts ${actual_count} (now) and ${expected_count} (checked in)")
  set(index 0)
  while(index LESS actual_count AND index LESS expected_count)
    list(GET actual_lines ${index} a)
    list(GET expected_lines ${index} b)
    if(NOT a STREQUAL b)
      math(EXPR line "${index} + 1")
      set(where "line ${line}: now '${a}', checked in '${b}'")
      break()
    endif()
    math(EXPR index "${index} + 1")
  endwhile()
  set(hint "")
  if(DEFINED ACTUAL)
    set(hint "\nThe tool's output is in ${ACTUAL}; if the change is intended, copy it over ${EXPECTED}.")
  endif()
  string(REPLACE ";" " " shown "${ARGS}")
  message(FATAL_ERROR "minifloat ${shown} differs from ${EXPECTED}: ${where}${hint}")
endif()
