#!/usr/bin/env python3
"""Speed of minifloat's Python entries against ml_dtypes' astype, in one
process on the same arrays.

    python python/bench/bench.py [--mib 64] [--repeat 15] [--cpp build/bulk_cpp]
        [--matmul-bench build/ci/bench/minifloat_bench_hybrid_matmul]

Prints a Markdown table: the best of --repeat runs of each call (the machine's
other load only makes a run slower), throughput in GB/s of float32 moved, and
the ratio to ml_dtypes; then the per-call time on a 16-element array in
microseconds (what the Python layer and the binding add to a call). The CPU
is printed first, from lscpu, since every figure depends on it. With --cpp,
the same calls made from C++ (bulk_cpp.cpp, whose header says how to build
it) are timed too, alternating with the Python calls so that the machine's
other load falls on both, and Python's speed is given as a ratio to C++'s.
With --matmul-bench, mf.matmul at 1024^3 (E4M3 x E4M3 -> BF16 on the
cuBLASLt table, N(0, 1) data rounded to E4M3, as the benchmark's
`library/e4m3_e4m3_bf16/<model>/1024/threads:1` rows) is timed against
that C++ benchmark binary's rows for the same models, again in turns.
"""

import argparse
import json
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
    parser.add_argument("--matmul-bench", help="minifloat_bench_hybrid_matmul, for matmul's "
                        "ratio to C++ at 1024^3")
    parser.add_argument("--matmul-rounds", type=int, default=3,
                        help="alternating C++ / Python rounds of the matmul comparison")
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

    if args.matmul_bench:
        matmul_table(args)

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
    print(f"| `mf.quantize_per_tensor(x16, 'e4m3fn', out=q16)` | "
          f"{per_call_us(lambda: mf.quantize_per_tensor(small, 'e4m3fn', out=small_q)):.2f} |")
    a16 = small_q.reshape(1, 16)
    print(f"| `mf.eltwise(a16, a16, 'FP16', a_type='HF8', b_type='HF8')` | "
          f"{per_call_us(lambda: mf.eltwise(a16, a16, 'FP16', a_type='HF8', b_type='HF8')):.2f} |")
    b4 = small_q.reshape(4, 4)
    print(f"| `mf.matmul(a4, b4, 'FP32', a_type='HF8', b_type='HF8')` (4 x 4 x 4) | "
          f"{per_call_us(lambda: mf.matmul(b4, b4, 'FP32', a_type='HF8', b_type='HF8')):.2f} |")
    if typed is not None:
        print(f"| ml_dtypes `x16.astype(float8_e4m3fn)` | "
              f"{per_call_us(lambda: small.astype(typed)):.2f} |")


# The benchmark's model names (bench/hybrid_matmul_bench.cpp) and the same
# model as mf.matmul's arguments.
MATMUL_MODELS = {"sequential_fp32": {"model": "sequential_fp32"},
                 "avx512_bf16_pairs": {"model": "avx512_bf16_pairs"},
                 "chunked_exact64": {"model": "chunked_exact", "chunk": 64}}


def cpp_matmul_ms(binary, model, size):
    """The C++ benchmark's best real time of one call, in ms."""
    name = f"library/e4m3_e4m3_bf16/{model}/{size}/threads:1/real_time"
    done = subprocess.run([binary, f"--benchmark_filter=^{name}$", "--benchmark_format=json",
                           "--benchmark_repetitions=3", "--benchmark_min_time=0.3"],
                          check=True, capture_output=True, text=True)
    runs = [b for b in json.loads(done.stdout)["benchmarks"] if b.get("run_type") == "iteration"]
    if not runs:
        raise SystemExit(f"{binary}: no benchmark row {name}")
    if any(b.get("error_occurred") for b in runs):
        return None  # skipped there (no AVX512_BF16, ...): its message is in the JSON
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    return min(b["real_time"] * scale[b["time_unit"]] for b in runs)


def matmul_table(args, size=1024):
    rng = np.random.default_rng(1)
    a = mf.encode(rng.standard_normal((size, size)).astype(np.float32), "e4m3fn",
                  dtype=np.uint8)
    b = mf.encode(rng.standard_normal((size, size)).astype(np.float32), "e4m3fn",
                  dtype=np.uint8)
    print(f"\n| matmul {size}^3, E4M3 x E4M3 -> BF16, 1 thread, alternating runs | C++ (ms) | "
          "Python (ms) | Python's speed / C++'s |")
    print("|---|---|---|---|")
    for model, kwargs in MATMUL_MODELS.items():
        cpp = py = float("inf")
        for _ in range(args.matmul_rounds):
            t = cpp_matmul_ms(args.matmul_bench, model, size)
            if t is None:
                break
            cpp = min(cpp, t)
            py = min(py, 1e3 * best(lambda: mf.matmul(a, b, "BF16", a_type="HF8", b_type="HF8",
                                                      table="cublaslt_fp8", threads=1,
                                                      **kwargs), 3))
        if cpp == float("inf"):
            print(f"| {model} | skipped by the benchmark | | |")
            continue
        print(f"| {model} | {cpp:.1f} | {py:.1f} | {cpp / py:.3f} |")


if __name__ == "__main__":
    main()
