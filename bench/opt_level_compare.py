#!/usr/bin/env python3
"""Runs the -O3 and the -O2 build of one benchmark program alternately and
prints, per kernel, the -O2 rate over the -O3 rate and each level's ratio
to its own baseline (docs/performance.md, "-O2 beside -O3").

    cmake --preset release
    cmake --build build/release -j1 --target minifloat_bench_bulk minifloat_bench_bulk_o2
    python3 bench/opt_level_compare.py build/release/bench/minifloat_bench_bulk \\
        build/release/bench/minifloat_bench_bulk_o2 --rounds 7 -- \\
        --benchmark_filter='/(4KiB|256KiB)$' --benchmark_min_time=0.05

Each round runs both programs once, the order swapped every round (so a
change of machine load between rounds hits both levels alike); arguments
after `--` go to both. A kernel's -O2/-O3 figure is the median over rounds
of the two programs' rates in the same round; a ratio to a baseline is the
median over rounds of kernel / baseline within one process; "best / best"
divides the fastest -O2 round by the fastest -O3 round (load from other
processes only slows a run, so on a shared machine this is the other
estimate worth reading). Rates are items
per second from CPU time (a run with repetitions contributes its median).

Baselines, by benchmark name:
  bulk (encode/..., decode/...): the CPU's float32 <-> binary16 conversion
      of the same size, AVX-512 kernels against the 512-bit instruction,
      AVX2 and scalar kernels against the F16C (ymm) one, taking the faster
      of its register form (hw_f16/...) and its memory form (hw_f16_mem/...)
      in that process; at 64MiB the stream bound (stream/..., the faster of
      its zmm and ymm loops).
  stochastic (encode_<variant>/...): encode_nearest of the same format,
      overflow mode, ISA and size.
  mx (quantize/..., dequantize/...): encode/e4m3fn or decode/e4m3fn of the
      same ISA and size.
Kernels where -O2 is more than 5% slower than -O3 are listed at the end."""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

from bench_json import median_rates

SLOWER_LIMIT = 1.05  # -O2 more than 5% slower than -O3 is listed
# The benchmarks' own baseline loops: the same machine code at both levels
# (bench/check_baseline_asm.py), so their -O2/-O3 spread is the noise.
FIXED_CODE = ("stream/", "stream_nt/", "hw_f16/", "hw_f16_mem/")


def baseline_candidates(name):
    """Names whose fastest rate in the same process is name's baseline, or
    None where name is itself a baseline or has none."""
    parts = name.split("/")
    kind, size = parts[0], parts[-1]
    if kind in ("encode", "decode") and len(parts) == 5:
        isa = parts[3]
        if size == "64MiB":
            return [f"stream/{kind}/avx512/{size}", f"stream/{kind}/avx2/{size}"]
        hw = "avx512" if isa == "avx512" else "f16c"
        return [f"hw_f16/{kind}/{hw}/{size}", f"hw_f16_mem/{kind}/{hw}/{size}"]
    if kind.startswith("encode_") and kind != "encode_nearest" and len(parts) == 5:
        return ["encode_nearest/" + "/".join(parts[1:])]
    if kind in ("quantize", "dequantize") and len(parts) == 4:
        base = "encode" if kind == "quantize" else "decode"
        return [f"{base}/e4m3fn/{parts[2]}/{size}"]
    return None


def baseline_ratio(rates, name):
    names = baseline_candidates(name)
    if not names:
        return None
    base = [rates[b] for b in names if rates.get(b)]
    return rates[name] / max(base) if base else None


def run(binary, json_path, extra):
    cmd = [binary, f"--benchmark_out={json_path}", "--benchmark_out_format=json"] + extra
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    return median_rates(json_path)


def median_or_none(values):
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("o3", help="the program built at -O3 (e.g. minifloat_bench_bulk)")
    parser.add_argument("o2", help="the same program built at -O2 (..._o2)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--keep", help="folder to keep the JSON outputs in")
    argv = sys.argv[1:]
    extra = argv[argv.index("--") + 1:] if "--" in argv else []
    args = parser.parse_args(argv[:argv.index("--")] if "--" in argv else argv)

    rounds = []  # per round: {"O3": rates, "O2": rates}
    with tempfile.TemporaryDirectory() as tmp:
        folder = args.keep or tmp
        os.makedirs(folder, exist_ok=True)
        for r in range(args.rounds):
            order = [("O3", args.o3), ("O2", args.o2)]
            if r % 2:
                order.reverse()
            got = {}
            for level, binary in order:
                print(f"round {r + 1}/{args.rounds}: -{level}", file=sys.stderr)
                got[level] = run(binary, os.path.join(folder, f"{level}_{r}.json"), extra)
            rounds.append(got)

    names = [n for n in rounds[0]["O3"] if all(n in g["O3"] and n in g["O2"] for g in rounds)]
    print(f"{args.rounds} rounds, medians over rounds; rates in G items/s")
    print("| benchmark | -O3 | -O2 | -O2 / -O3 (min-max) | best / best | -O3 / baseline "
          "| -O2 / baseline |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    kernels, noise = [], []
    for name in names:
        o3 = statistics.median(g["O3"][name] for g in rounds)
        o2 = statistics.median(g["O2"][name] for g in rounds)
        per_round = [g["O2"][name] / g["O3"][name] for g in rounds]
        # Load from other processes only slows a run down, so the fastest
        # round of each level is the other estimate of the ratio.
        best = max(g["O2"][name] for g in rounds) / max(g["O3"][name] for g in rounds)
        speed = statistics.median(per_round)
        b3 = median_or_none(baseline_ratio(g["O3"], name) for g in rounds)
        b2 = median_or_none(baseline_ratio(g["O2"], name) for g in rounds)
        cell = lambda v: "" if v is None else f"{v:.2f}"
        mark = "**" if speed * SLOWER_LIMIT < 1 else ""
        print(f"| {name} | {o3 / 1e9:.2f} | {o2 / 1e9:.2f} | {mark}{speed:.2f}{mark} "
              f"({min(per_round):.2f}-{max(per_round):.2f}) | {best:.2f} | {cell(b3)} | {cell(b2)} |")
        (noise if name.startswith(FIXED_CODE) else kernels).append((speed, name))
    print()
    listed = sorted(k for k in kernels if k[0] * SLOWER_LIMIT < 1)
    print(f"kernels where -O2 is more than {round((SLOWER_LIMIT - 1) * 100)}% slower than -O3 "
          f"(median -O2/-O3 rate < {1 / SLOWER_LIMIT:.3f}): {len(listed)} of {len(kernels)}")
    for speed, name in listed:
        print(f"  {speed:.2f}  {name}")
    if noise:
        speeds = [s for s, _ in noise]
        print(f"noise: the {len(noise)} baseline loops (same code at both levels) gave -O2/-O3 "
              f"{min(speeds):.2f}-{max(speeds):.2f}, median {statistics.median(speeds):.2f}")


if __name__ == "__main__":
    main()
