# vectors-matmul writes A, B and C; matmul on that A and B with the same
# options must print the same C.
#   cmake -DTOOL=minifloat -DWORK_DIR=dir "-DOPTIONS=--a;HF8;..." -P hybrid_roundtrip.cmake
execute_process(COMMAND "${TOOL}" vectors-matmul ${OPTIONS} --m 4 --k 20 --n 3 --data-seed 5
                OUTPUT_VARIABLE vectors RESULT_VARIABLE status)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "vectors-matmul failed (${status})")
endif()
string(FIND "${vectors}" "# C\n" split)
if(split LESS 0)
  message(FATAL_ERROR "no '# C' line in:\n${vectors}")
endif()
string(SUBSTRING "${vectors}" 0 ${split} inputs)
math(EXPR c_start "${split} + 4")
string(SUBSTRING "${vectors}" ${c_start} -1 expected)
file(WRITE "${WORK_DIR}/hybrid_roundtrip.in" "${inputs}")
execute_process(COMMAND "${TOOL}" matmul ${OPTIONS}
                INPUT_FILE "${WORK_DIR}/hybrid_roundtrip.in"
                OUTPUT_VARIABLE actual RESULT_VARIABLE status ERROR_VARIABLE errors)
if(NOT status EQUAL 0)
  message(FATAL_ERROR "matmul failed (${status}): ${errors}")
endif()
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "matmul printed\n${actual}\nvectors-matmul's C is\n${expected}")
endif()
message(STATUS "vectors-matmul and matmul agree:\n${actual}")
