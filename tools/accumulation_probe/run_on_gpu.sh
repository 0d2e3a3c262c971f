#!/usr/bin/env bash
# Builds the accumulation probe and runs it on this machine's GPU: the
# record (accumulation_record.txt), the report (accumulation_report.txt)
# and the configure log go to the folder given as the first argument
# (default: the current one); further arguments go to
# minifloat_cublaslt_accumulation.
#
# Made for a machine with a GPU, the CUDA toolkit, CMake, g++ and python3,
# and nothing else: no GoogleTest, no network. Only the library's compiled
# kernels and the probe are built. Where CMake finds no cuBLASLt in the
# toolkit, the one of an nvidia-cublas Python package is used.
set -euo pipefail
mkdir -p "${1:-.}"
out=$(realpath "${1:-.}")
shift || true
source_dir=$(cd "$(dirname "$0")/../.." && pwd)
build=${MINIFLOAT_PROBE_BUILD:-/tmp/minifloat-probe-build}

nvidia-smi -L || true
lscpu | grep -E '^(Model name|CPU family|Model):' || true

cmake -S "$source_dir" -B "$build" -DCMAKE_BUILD_TYPE=Release \
  -DMINIFLOAT_BUILD_TESTS=OFF -DMINIFLOAT_ACCUMULATION_PROBE=ON -DMINIFLOAT_BUILD_EXAMPLES=OFF \
  -DMINIFLOAT_BUILD_BENCHMARKS=OFF -DMINIFLOAT_BUILD_C_API=OFF -DMINIFLOAT_CUDA_COMPILE_TEST=OFF \
  -DMINIFLOAT_INSTALL=OFF >"$out/configure.log" 2>&1 || { cat "$out/configure.log"; exit 1; }
probe=$build/tools/accumulation_probe/minifloat_cublaslt_accumulation
if grep -q "no cuBLASLt found" "$out/configure.log"; then
  # cuBLASLt from a Python package (nvidia/cu13/lib for CUDA 13's wheels,
  # nvidia/cublas/lib for CUDA 12's), its headers in the include folder
  # beside; the CUDA runtime from the toolkit.
  lt=$(python3 -c '
import glob, os, site
for d in site.getsitepackages() + [site.getusersitepackages()]:
    for p in sorted(glob.glob(os.path.join(d, "nvidia", "*", "lib", "libcublasLt.so*"))):
        print(p)
        raise SystemExit
')
  if [ -z "$lt" ]; then
    echo "no cuBLASLt: neither in the CUDA toolkit nor in an nvidia-cublas Python package" >&2
    exit 1
  fi
  cublas_include=$(dirname "$(dirname "$lt")")/include
  cuda=${CUDA_HOME:-${CUDA_PATH:-/usr/local/cuda}}
  cmake --build "$build" -j"$(nproc)" --target minifloat_kernels
  g++ -std=c++17 -O2 -DMINIFLOAT_KERNELS_COMPILED -I"$source_dir/include" \
    -I"$source_dir/tools/accumulation_probe" -I"$cublas_include" -I"$cuda/include" \
    "$source_dir/tools/accumulation_probe/cublaslt_accumulation.cpp" \
    "$source_dir/tools/accumulation_probe/accumulation_probe.cpp" \
    "$build/src/kernels/libminifloat_kernels.a" -L"$cuda/lib64" -lcudart "$lt" \
    -Wl,-rpath,"$(dirname "$lt")" -pthread -o "$build/probe"
  probe=$build/probe
else
  cmake --build "$build" -j"$(nproc)" --target minifloat_cublaslt_accumulation
fi
"$probe" --record "$out/accumulation_record.txt" "$@" 2>&1 | tee "$out/accumulation_report.txt"
