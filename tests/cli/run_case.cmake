# Runs the tool once and checks what it did.
#
#   cmake -DTOOL=minifloat "-DARGS=encode|e4m3fn" [-DINPUT=text] [-DSTATUS=0]
#         [-DSTDOUT=text] [-DSTDOUT_REGEX=regex] [-DSTDERR=regex]
#         [-DSTDERR_TEXT=regex] [-DNAME=unique] -P run_case.cmake
#
# ARGS are separated by '|'. INPUT (stdin; empty when not given) and STDOUT
# (the exact expected stdout) write newline, carriage return and tab as \n,
# \r and \t.
# STDERR: stderr is exactly one "minifloat: ..." line and matches the regex.
# STDERR_TEXT: stderr matches the regex (any number of lines). With neither,
# stderr must be empty. STATUS is the expected exit status (default 0).
cmake_minimum_required(VERSION 3.16)

if(NOT DEFINED TOOL)
  message(FATAL_ERROR "run_case.cmake needs -DTOOL")
endif()
if(NOT DEFINED STATUS)
  set(STATUS 0)
endif()
if(NOT DEFINED NAME)
  set(NAME run_case)
endif()
string(REPLACE "|" ";" arguments "${ARGS}")

function(unescape variable)
  string(REPLACE "\\n" "\n" text "${${variable}}")
  string(REPLACE "\\r" "\r" text "${text}")
  string(REPLACE "\\t" "\t" text "${text}")
  set(${variable} "${text}" PARENT_SCOPE)
endfunction()

if(NOT DEFINED INPUT)
  set(INPUT "")
endif()
unescape(INPUT)
set(input_file "${CMAKE_CURRENT_BINARY_DIR}/${NAME}.in")
file(WRITE "${input_file}" "${INPUT}")

execute_process(COMMAND "${TOOL}" ${arguments}
                INPUT_FILE "${input_file}"
                OUTPUT_VARIABLE stdout ERROR_VARIABLE stderr RESULT_VARIABLE status)

set(problems "")
if(NOT status STREQUAL "${STATUS}")
  string(APPEND problems "exit status ${status}, expected ${STATUS}\n")
endif()
if(DEFINED STDOUT)
  unescape(STDOUT)
  if(NOT stdout STREQUAL STDOUT)
    string(APPEND problems "stdout differs: expected\n[${STDOUT}]\n")
  endif()
endif()
if(DEFINED STDOUT_REGEX AND NOT stdout MATCHES "${STDOUT_REGEX}")
  string(APPEND problems "stdout does not match ${STDOUT_REGEX}\n")
endif()
if(DEFINED STDERR)
  if(NOT stderr MATCHES "^minifloat: [^\n]*\n$")
    string(APPEND problems "stderr is not one 'minifloat: ' line\n")
  endif()
  if(NOT stderr MATCHES "${STDERR}")
    string(APPEND problems "stderr does not match ${STDERR}\n")
  endif()
elseif(DEFINED STDERR_TEXT)
  if(NOT stderr MATCHES "${STDERR_TEXT}")
    string(APPEND problems "stderr does not match ${STDERR_TEXT}\n")
  endif()
elseif(NOT stderr STREQUAL "")
  string(APPEND problems "stderr is not empty\n")
endif()

if(NOT problems STREQUAL "")
  string(REPLACE ";" " " shown "${arguments}")
  message(FATAL_ERROR "minifloat ${shown}\n${problems}stdout:\n[${stdout}]\nstderr:\n[${stderr}]")
endif()
