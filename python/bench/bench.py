#!/usr/bin/env python3
"""Speed of minifloat's Python entries against ml_dtypes' astype, in one
process on the same arrays.

    python python/bench/bench.py [--mib 64] [--repeat 15] [--cpp build/bulk_cpp]

Prints a Markdown table: the best of --repeat runs of each call (the machine's
other load only makes a run slower), throughput in GB/s of float32 moved, and
the ratio to ml_dtypes; then the per-call time on a 16-element array in
microseconds (what the Python layer and the binding add to a call). The CPU
is printed first, from lscpu, since every figure depends on it. With --cpp,
the same calls made from C++ (bulk_cpp.cpp, whose header says how to build
it) are timed too, alternating with the Python calls so that the machine's
other load falls on both, and Python's speed is given as a ratio to C++'s.
"""

import argparse
import subprocess
import time

import numpy as np

import minifloat as mf

try:
    import ml_dtypes
except ImportError:  # the comparison columns are left empty
    ml_dtypes = None


def cpu():
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown CPU (no lscpu)"
    fields = dict(line.split(":", 1) for line in text.splitlines() if ":" in line)
    get = lambda key: fields.get(key, "?").strip()  # noqa: E731
    return (f"{get('Model name')}, CPU family {get('CPU family')}, model {get('Model')}, "
            f"{get('CPU(s)')} CPUs")


def best(call, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def per_call_us(call, calls=20000):
    for _ in range(100):
        call()
    start = time.perf_counter()
    for _ in range(calls):
        call()
    return (time.perf_counter() - start) / calls * 1e6


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--mib", type=int, default=64, help="float32 data per call (MiB)")
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--cpp", help="the bulk_cpp program, for the ratio to C++")
    args = parser.parse_args()

    n = args.mib * (1 << 20) // 4
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(n) * 50).astype(np.float32)
    q8 = np.empty(n, np.uint8)
    y = np.empty(n, np.float32)
    typed = ml_dtypes.float8_e4m3fn if ml_dtypes is not None else None
    mf.encode(x, "e4m3fn", out=q8)
    q_typed = q8.view(typed) if typed is not None else None

    print(f"minifloat {mf.__version__}, numpy {np.__version__}, ml_dtypes "
          f"{ml_dtypes.__version__ if ml_dtypes else '(not installed)'}")
    print(f"CPU: {cpu()}")
    print(f"{args.mib} MiB of float32 ({n} elements), best of {args.repeat}\n")
    print("| call | time (ms) | GB/s of float32 | vs ml_dtypes astype |")
    print("|---|---|---|---|")

    def row(name, seconds, reference=None):
        ratio = f"{reference / seconds:.1f}x" if reference else "—"
        print(f"| {name} | {seconds * 1e3:.2f} | {n * 4 / seconds / 1e9:.2f} | {ratio} |")

    ref_encode = ref_decode = None
    if typed is not None:
        ref_encode = best(lambda: x.astype(typed), args.repeat)
        ref_decode = best(lambda: q_typed.astype(np.float32), args.repeat)
        row("ml_dtypes `x.astype(float8_e4m3fn)`", ref_encode)
    row("`mf.encode(x, 'e4m3fn', out=q)`", best(lambda: mf.encode(x, "e4m3fn", out=q8),
                                                 args.repeat), ref_encode)
    row("`mf.encode(x, 'e4m3fn')` (new array)", best(lambda: mf.encode(x, "e4m3fn"),
                                                      args.repeat), ref_encode)
    row("`mf.encode(..., saturate=True, scale=0.5, return_amax=True)`",
        best(lambda: mf.encode(x, "e4m3fn", out=q8, saturate=True, scale=0.5,
                               return_amax=True), args.repeat), ref_encode)
    row("`mf.encode(..., rounding='stochastic', seed=1)`",
        best(lambda: mf.encode(x, "e4m3fn", out=q8, rounding="stochastic", seed=1),
             args.repeat), ref_encode)
    if typed is not None:
        row("ml_dtypes `q.astype(float32)`", ref_decode)
    row("`mf.decode(q, 'e4m3fn', out=y)`", best(lambda: mf.decode(q8, "e4m3fn", out=y),
                                                 args.repeat), ref_decode)
    row("`mf.decode(q, 'e4m3fn')` (new array)", best(lambda: mf.decode(q8, "e4m3fn"),
                                                      args.repeat), ref_decode)

    if args.cpp:
        py_encode = py_decode = cpp_encode = cpp_decode = float("inf")
        for _ in range(5):
            words = subprocess.run([args.cpp, str(args.mib), str(args.repeat)], check=True,
                                   capture_output=True, text=True).stdout.split()
            cpp_encode = min(cpp_encode, float(words[0]) / 1e3)
            cpp_decode = min(cpp_decode, float(words[1]) / 1e3)
            py_encode = min(py_encode, best(lambda: mf.encode(x, "e4m3fn", out=q8),
                                            args.repeat))
            py_decode = min(py_decode, best(lambda: mf.decode(q8, "e4m3fn", out=y),
                                            args.repeat))
        print("\n| same buffers, alternating runs | C++ (ms) | Python (ms) | "
              "Python's speed / C++'s |")
        print("|---|---|---|---|")
        print(f"| encode e4m3fn | {cpp_encode * 1e3:.2f} | {py_encode * 1e3:.2f} | "
              f"{cpp_encode / py_encode:.2f} |")
        print(f"| decode e4m3fn | {cpp_decode * 1e3:.2f} | {py_decode * 1e3:.2f} | "
              f"{cpp_decode / py_decode:.2f} |")

    small = x[:16].copy()
    small_q = np.empty(16, np.uint8)
    small_y = np.empty(16, np.float32)
    print("\n| 16 elements | µs per call |")
    print("|---|---|")
    print(f"| `mf.encode(x16, 'e4m3fn', out=q16)` | "
          f"{per_call_us(lambda: mf.encode(small, 'e4m3fn', out=small_q)):.2f} |")
    print(f"| `mf.encode(x16, 'e4m3fn')` | "
          f"{per_call_us(lambda: mf.encode(small, 'e4m3fn')):.2f} |")
    print(f"| `mf.decode(q16, 'e4m3fn', out=y16)` | "
          f"{per_call_us(lambda: mf.decode(small_q, 'e4m3fn', out=small_y)):.2f} |")
    if typed is not None:
        print(f"| ml_dtypes `x16.astype(float8_e4m3fn)` | "
              f"{per_call_us(lambda: small.astype(typed)):.2f} |")


if __name__ == "__main__":
    main()
