# Cross build for AArch64 Linux with Debian's cross compiler, tests run under
# qemu-user. Used by the ci-aarch64 preset; needs (Debian 12)
#
#   apt-get install g++-aarch64-linux-gnu qemu-user
#
# The target's libraries live in /usr/aarch64-linux-gnu (libc6-dev-arm64-cross),
# which is also the prefix qemu-aarch64 loads the dynamic loader from.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)

set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)

set(MINIFLOAT_AARCH64_SYSROOT /usr/aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH ${MINIFLOAT_AARCH64_SYSROOT})
# Host programs, target libraries and packages only: the build machine's
# GoogleTest or Google Benchmark (built for x86-64) must not be picked up.
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# add_test() and gtest_discover_tests() run the test executables through it.
find_program(MINIFLOAT_QEMU_AARCH64 NAMES qemu-aarch64 qemu-aarch64-static)
if(NOT MINIFLOAT_QEMU_AARCH64)
  message(FATAL_ERROR "qemu-aarch64 not found (Debian: apt-get install qemu-user)")
endif()
set(CMAKE_CROSSCOMPILING_EMULATOR ${MINIFLOAT_QEMU_AARCH64} -L ${MINIFLOAT_AARCH64_SYSROOT})
