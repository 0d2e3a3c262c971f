# Two vectors-matmul cases, concatenated as they are, fed to matmul --check:
# status 0 and the two Cs (with their '#' blocks), separated by an empty
# line; then one code of the second expected C changed: status 1.
#   cmake -DTOOL=minifloat -DWORK_DIR=dir "-DOPTIONS=--a;HF8;..." -P hybrid_batch.cmake
set(input "")
set(expected "")
foreach(seed 5 6)
  execute_process(COMMAND "${TOOL}" vectors-matmul ${OPTIONS} --m 3 --k 20 --n 2 --data-seed ${seed}
                  OUTPUT_VARIABLE vectors RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "vectors-matmul failed (${status})")
  endif()
  string(FIND "${vectors}" "# C\n" split)
  math(EXPR c_start "${split} + 4")
  string(SUBSTRING "${vectors}" ${c_start} -1 c)
  if(NOT expected STREQUAL "")
    string(APPEND expected "\n")
  endif()
  string(APPEND expected "${c}")
  string(APPEND input "${vectors}")
endforeach()
file(WRITE "${WORK_DIR}/hybrid_batch.in" "${input}")
execute_process(COMMAND "${TOOL}" matmul ${OPTIONS} --check
                INPUT_FILE "${WORK_DIR}/hybrid_batch.in"
                OUTPUT_VARIABLE actual RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0 OR NOT actual STREQUAL expected)
  message(FATAL_ERROR "matmul --check: status ${status} (${errors}), printed\n${actual}\nexpected\n${expected}")
endif()

# The last line of the second C, its first code changed.
string(FIND "${input}" "# C\n" first_c)
string(FIND "${input}" "# C\n" last_c REVERSE)
string(SUBSTRING "${input}" ${last_c} -1 tail)
string(REGEX MATCH "\n0x([0-9a-f]+)" code "${tail}")
set(old "${CMAKE_MATCH_1}")
if(old STREQUAL "0000")
  set(new "0001")
else()
  set(new "0000")
endif()
string(SUBSTRING "${input}" 0 ${last_c} head)
string(REGEX REPLACE "\n0x${old}" "\n0x${new}" tail "${tail}")
file(WRITE "${WORK_DIR}/hybrid_batch_bad.in" "${head}${tail}")
execute_process(COMMAND "${TOOL}" matmul ${OPTIONS} --check
                INPUT_FILE "${WORK_DIR}/hybrid_batch_bad.in"
                OUTPUT_VARIABLE actual RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 1 OR NOT errors MATCHES "^minifloat: matmul: --check: problem 2 .*C\\[0\\]\\[0\\] is 0x${old}, expected 0x${new} \\(1 of 2 problems differ\\)\n$")
  message(FATAL_ERROR "matmul --check on a changed C: status ${status}, stderr: ${errors}")
endif()
message(STATUS "matmul --check: 2 problems agree; a changed code is found:\n${errors}")
