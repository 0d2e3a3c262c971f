#!/usr/bin/env python3
"""Prints the stochastic-rounding table of docs/performance.md from a
minifloat_bench_stochastic JSON output.

    build/ci/bench/minifloat_bench_stochastic --benchmark_filter='/(avx512|avx2)/' \\
        --benchmark_repetitions=12 --benchmark_enable_random_interleaving=true \\
        --benchmark_report_aggregates_only=true \\
        --benchmark_out=sr.json --benchmark_out_format=json
    python3 bench/stochastic_compare.py sr.json

G elements/s, median of the repetitions; each ratio divides a stochastic
encode by the nearest-even encode of the same ISA, format, overflow mode and
size in the same run."""
import sys

from bench_json import median_rates

KERNELS = [
    ("nearest", "encode_nearest"),
    ("SR 32 bits", "encode_stochastic"),
    ("SR 16 bits", "encode_stochastic_16bits"),
    ("SR 8 bits", "encode_stochastic_8bits"),
    ("scaled nearest", "encode_scaled_nearest"),
    ("scaled SR 32 bits", "encode_scaled_stochastic"),
    ("scaled nearest + amax", "encode_scaled_amax_nearest"),
]
RATIOS = ["SR 32 bits", "SR 16 bits", "SR 8 bits"]


def main():
    rates = median_rates(sys.argv[1] if len(sys.argv) > 1 else "sr.json")
    header = ["ISA", "format, overflow", "size"] + [k for k, _ in KERNELS[:4]] + \
        [f"{k} / nearest" for k in RATIOS] + [k for k, _ in KERNELS[4:]]
    print("| " + " | ".join(header) + " |")
    print("|---|---|---|" + "---:|" * (len(header) - 3))
    for isa in ("avx512", "avx2", "scalar"):
        for fmt in ("e4m3fn", "e5m2"):
            for ovf in ("sat", "nonsat"):
                for size in ("4KiB", "256KiB", "64MiB"):
                    got = {label: rates.get(f"{name}/{fmt}/{ovf}/{isa}/{size}")
                           for label, name in KERNELS}
                    if got["nearest"] is None:
                        continue
                    cell = lambda v: "" if v is None else f"{v / 1e9:.2f}"
                    ratio = lambda v: "" if v is None else f"**{v / got['nearest']:.2f}**"
                    row = [isa, f"{fmt} {ovf}", size] + [cell(got[k]) for k, _ in KERNELS[:4]] + \
                        [ratio(got[k]) for k in RATIOS] + [cell(got[k]) for k, _ in KERNELS[4:]]
                    print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    main()
