#!/usr/bin/env python3
"""Prints the hybrid MatMul targets of docs/performance.md ("Hybrid MatMul")
as ratios, from one minifloat_bench_hybrid_matmul JSON output:

    env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE \\
        build/bench-o2/bench/minifloat_bench_hybrid_matmul \\
        --benchmark_repetitions=5 --benchmark_display_aggregates_only=true \\
        --benchmark_enable_random_interleaving=true \\
        --benchmark_out=hybrid_matmul.json --benchmark_out_format=json
    python3 bench/hybrid_matmul_compare.py hybrid_matmul.json

Every figure is the median of the repetitions of the GFLOP rate counter
(2*M*N*K per iteration); [min, max] is the spread of the repetitions (keep
the individual runs in the JSON: do not pass
--benchmark_report_aggregates_only). Ratios come from this one run only.

One-thread rows (threads:1, and the reference rows) are rated over the
calling thread's CPU time, two-thread rows over wall-clock time. On a shared
machine the process gets only part of a core (the column "cpu/real"), while
the core's clock does not change (the roofline loops' CPU-time rates stay
within a few % at any load), so the CPU-time rate is what the code does on
a core of its own. It is valid only where all the work runs on the calling
thread, which holds for every one-thread row here (OpenBLAS and oneDNN with
one thread, the library with threads = 1: their cpu/real equals the
roofline's in the same run). --real-time rates every row over wall-clock
time. Standard library only."""
import json
import statistics
import subprocess
import sys

SIZES = (256, 1024, 2048)
PAIRS = ("e4m3_e4m3_bf16", "bf16_e4m3_bf16", "f16_e5m2_f16")


def uses_cpu_time(name, real_time_only):
    return not real_time_only and "/threads:2" not in name


def load(path, real_time_only=False):
    with open(path) as f:
        data = json.load(f)
    runs, medians, errors = {}, {}, {}
    for b in data["benchmarks"]:
        name = b.get("run_name", b["name"]).replace("/real_time", "")
        if b.get("error_occurred"):
            errors[name] = b.get("error_message", "skipped")
            continue
        if "GFLOP" not in b:
            continue
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[name] = b["GFLOP"]
        else:
            runs.setdefault(name, []).append(b)
    rows = {}
    for name, rs in runs.items():
        cpu = uses_cpu_time(name, real_time_only)
        values = [r["GFLOP"] * (r["real_time"] / r["cpu_time"] if cpu else 1.0) for r in rs]
        share = statistics.median(r["cpu_time"] / r["real_time"] for r in rs)
        differs = [r["differs_from_reference"] for r in rs if "differs_from_reference" in r]
        rows[name] = {
            "median": statistics.median(values),
            "share": share,
            "clock": "cpu" if cpu else "real",
            "min": min(values),
            "max": max(values),
            "n": len(values),
            "differs": max(differs) if differs else None,
            "label": rs[0].get("label", ""),
        }
    for name, m in medians.items():  # aggregates-only output: no spread
        rows.setdefault(name, {"median": m, "min": None, "max": None, "n": 0, "share": None,
                               "clock": "real", "differs": None, "label": ""})
    return data.get("context", {}), rows, errors


def cpu_line(context):
    family, model = context.get("cpu_family"), context.get("cpu_model")
    if family and model:
        return f"{context.get('cpu_model_name', '?')}, family {family} model {model} (from the run)"
    try:  # an older JSON without the context: this machine's lscpu
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
        fields = dict(l.split(":", 1) for l in out.splitlines() if ":" in l)
        get = lambda k: fields.get(k, "?").strip()
        return (f"{get('Model name')}, family {get('CPU family')} model {get('Model')} "
                f"(lscpu of THIS machine, not necessarily the run's)")
    except (OSError, subprocess.CalledProcessError):
        return "unknown CPU"


def main():
    args = [a for a in sys.argv[1:] if a != "--real-time"]
    context, rows, errors = load(args[0] if args else "hybrid_matmul.json",
                                 real_time_only="--real-time" in sys.argv[1:])
    rate = lambda name: rows[name]["median"] if name in rows else None

    print("CPU:", cpu_line(context))
    for key in ("openblas_corename", "blas", "onednn_version", "avx512_bf16", "bulk_isa",
                "OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE", "OPENBLAS_NUM_THREADS",
                "OMP_NUM_THREADS", "MINIFLOAT_ISA"):
        if key in context:
            print(f"  {key}: {context[key]}")
    print()

    print(f"{'benchmark':58s} {'GFLOP/s':>9s} {'[min, max]':>19s} time cpu/real differs  label")
    for name in sorted(rows):
        r = rows[name]
        spread = f"[{r['min']:7.2f}, {r['max']:7.2f}]" if r["min"] is not None else ""
        share = "" if r["share"] is None else f"{r['share']:.2f}"
        differs = "" if r["differs"] is None else f"{r['differs']:.4f}"
        print(f"{name:58s} {r['median']:9.2f} {spread:>19s} {r['clock']:4s} {share:>8s} "
              f"{differs:7s}  {r['label']}")
    for name in sorted(errors):
        print(f"{name:58s} skipped: {errors[name]}")
    print()
    # differs_from_reference (256^3 rows): a library row must be 0 (the same
    # bits as the reference of its model); a peer row is 0 when the data make
    # every FP32 sum exact (the FP8 pairs here), so anything else there means
    # a wrong layout in the benchmark or data that no longer sum exactly.
    for name in sorted(rows):
        d = rows[name]["differs"]
        if d:
            kind = "NOT BIT-EXACT" if name.startswith("library/") else "differs"
            print(f"{kind}: {name}: {d:.4%} of the outputs differ from the reference")

    def ratio(a, b):
        return a / b if a is not None and b else None

    def show(what, value, target=None):
        goal = "" if target is None else f"(target >= {target}x"
        if value is None:
            print(f"  {what:58s}      n/a  {goal}{')' if goal else ''}")
            return
        if target is None:
            print(f"  {what:58s} {value:9.3f}x")
            return
        verdict = "meets" if value >= target else "BELOW"
        print(f"  {what:58s} {value:9.3f}x {goal}: {verdict})")

    for loop in ("fp32_fma", "bf16_dot", "fp64_fma"):
        for t in (1, 2):
            first, last = rate(f"peak/{loop}/threads:{t}"), rate(f"peak_after/{loop}/threads:{t}")
            if first and last and abs(last / first - 1) > 0.05:
                print(f"CLOCK CHANGED during the run: peak/{loop}/threads:{t} {first:.1f} at the "
                      f"start, {last:.1f} at the end GFLOP/s; the ratios below are not reliable")
    print()
    fma1, bf1 = rate("peak/fp32_fma/threads:1"), rate("peak/bf16_dot/threads:1")
    print("Targets (ratios of medians from this run)")
    print("at 1024^3, 1 thread:")
    for pair in PAIRS:
        lib = lambda model, s=1024, t=1: rate(f"library/{pair}/{model}/{s}/threads:{t}")
        blas = rate(f"openblas/{pair}/1024/threads:1")
        seq_ref = rate(f"reference/{pair}/sequential_fp32/256")
        seq = lib("sequential_fp32")
        print(f" {pair}")
        show("sequential_fp32 / FMA peak", ratio(seq, fma1), 0.88)
        show("sequential_fp32 / decode + OpenBLAS", ratio(seq, blas), 1.0)
        show("sequential_fp32 / scalar reference (256^3)", ratio(seq, seq_ref), 150)
        pairs = lib("avx512_bf16_pairs")
        if pair != "f16_e5m2_f16":  # FP16 is not BF16-exact: no pairs model
            show("avx512_bf16_pairs / VDPBF16PS peak", ratio(pairs, bf1), 0.88)
            show("avx512_bf16_pairs / decode + OpenBLAS", ratio(pairs, blas), 2.0)
            show("avx512_bf16_pairs / FP8->BF16 + oneDNN bf16",
                 ratio(pairs, rate(f"onednn_bf16/{pair}/1024/threads:1")), 1.0)
            show("avx512_bf16_pairs / scalar reference, same model (256^3)",
                 ratio(pairs, rate(f"reference/{pair}/avx512_bf16_pairs/256")), 300)
            show("avx512_bf16_pairs / scalar reference, sequential (256^3)",
                 ratio(pairs, seq_ref), 300)
        if pair == "e4m3_e4m3_bf16":
            show("exact / sequential_fp32", ratio(lib("exact"), seq), 0.5)
            show("chunked_exact64 / sequential_fp32", ratio(lib("chunked_exact64"), seq), 0.5)
    print("at 256^3, 1 thread:")
    for pair in PAIRS:
        show(f"{pair} sequential_fp32 / FMA peak",
             ratio(rate(f"library/{pair}/sequential_fp32/256/threads:1"), fma1), 0.75)
        if pair != "f16_e5m2_f16":
            show(f"{pair} avx512_bf16_pairs / VDPBF16PS peak",
                 ratio(rate(f"library/{pair}/avx512_bf16_pairs/256/threads:1"), bf1), 0.75)
    print("at 2048^3, 2 threads / 1 thread:")
    show("the machine: FMA peak", ratio(rate("peak/fp32_fma/threads:2"), fma1))
    show("the machine: VDPBF16PS peak", ratio(rate("peak/bf16_dot/threads:2"), bf1))
    for name in sorted(rows):
        if "/2048/threads:2" in name:
            one = name.replace("/threads:2", "/threads:1")
            target = 1.8 if name.startswith("library/") else None
            show(name.replace("/2048/threads:2", ""), ratio(rate(name), rate(one)), target)
    print()
    print("Peers at 1024^3, 1 thread (for the record):")
    for name in ("openblas/sgemm_only", "onednn_f32_only/f32", "onednn_bf16_only/bf16"):
        r = rate(f"{name}/1024/threads:1")
        peak = bf1 if "bf16" in name else fma1
        if r is not None:
            print(f"  {name:30s} {r:8.2f} GFLOP/s = {ratio(r, peak):.2f}x its peak")
    for pair in PAIRS:
        for peer in ("openblas", "onednn_f32", "onednn_bf16"):
            r = rate(f"{peer}/{pair}/1024/threads:1")
            if r is not None:
                peak = bf1 if peer == "onednn_bf16" else fma1
                print(f"  {peer + '/' + pair:30s} {r:8.2f} GFLOP/s = {ratio(r, peak):.2f}x its peak")


if __name__ == "__main__":
    main()
