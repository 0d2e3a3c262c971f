#!/usr/bin/env bash
# Builds the accumulation probe and runs it on this machine's GPU: the
# record (accumulation_record.txt) and the report (accumulation_report.txt)
# go to the folder given as the first argument (default: the current one);
# further arguments go to minifloat_cublaslt_accumulation.
#
# Made for a machine with a GPU, the CUDA toolkit, CMake and g++, and
# nothing else: no GoogleTest, no network. Only the library's compiled
# kernels and the probe are built. Where CMake finds no cuBLASLt in the
# toolkit, the one of the nvidia-cublas Python package is used.
set -euo pipefail
out=$(realpath "${1:-.}")
shift || true
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build=${MINIFLOAT_PROBE_BUILD:-/tmp/minifloat-probe-build}
mkdir -p "$out"

nvidia-smi -L || true
lscpu | grep -E '^(Model name|CPU family|Model):' || true

cmake -S "$source_dir" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DMINIFLOAT_BUILD_TESTS=OFF -DMINIFLOAT_ACCUMULATION_PROBE=ON -DMINIFLOAT_BUILD_EXAMPLES=OFF -DMINIFLOAT_BUILD_BENCHMARKS=OFF \
  -DMINIFLOAT_BUILD_C_API=OFF -DMINIFLOAT_CUDA_COMPILE_TEST=OFF -DMINIFLOAT_INSTALL=OFF >"$out/configure.log"
probe=$build/tools/accumulation_probe/minifloat_cublaslt_accumulation
if grep -q "no cuBLASLt found" "$out/configure.log"; then
  # cuBLASLt from the Python package: its headers, and its library by the
  # versioned name it ships under.
  cublas=$(python3 -c 'import nvidia.cublas, os; print(os.path.dirname(nvidia.cublas.__file__))')
  cuda=$(dirname "$(dirname "$(command -v nvcc)")")
  cmake --build "$build" -j"$(nproc)" --target minifloat_kernels
  lt=$(ls "$cublas"/lib/libcublasLt.so.* | head -1)
  g++ -std=c++17 -O2 -DMINIFLOAT_KERNELS_COMPILED -I"$source_dir/include" \
    -I"$source_dir/tools/accumulation_probe" -I"$cublas/include" -I"$cuda/include" \
    "$source_dir/tools/accumulation_probe/cublaslt_accumulation.cpp" \
    "$source_dir/tools/accumulation_probe/accumulation_probe.cpp" \
    "$build/src/kernels/libminifloat_kernels.a" -L"$cuda/lib64" -lcudart "$lt" \
    -Wl,-rpath,"$cublas/lib" -pthread -o "$build/probe"
  probe=$build/probe
else
  cmake --build "$build" -j"$(nproc)" --target minifloat_cublaslt_accumulation
fi
"$probe" --record "$out/accumulation_record.txt" "$@" | tee "$out/accumulation_report.txt"
