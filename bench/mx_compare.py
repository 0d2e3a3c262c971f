#!/usr/bin/env python3
"""Prints the MX ratios of docs/performance.md from a minifloat_bench_mx JSON
output.

    build/bench/minifloat_bench_mx --benchmark_repetitions=5 \\
        --benchmark_report_aggregates_only=true \\
        --benchmark_out=mx.json --benchmark_out_format=json
    python3 bench/mx_compare.py mx.json

Median of the repetitions (items per second, from CPU time); quantize is
divided by plain e4m3fn encode, dequantize by plain e4m3fn decode, both of
the same ISA and size in the same run."""
import sys

from bench_json import median_rates


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "mx.json"
    rates = {name: rate / 1e9 for name, rate in median_rates(path).items()}
    print("| kernel | ISA | size | G items/s | baseline G items/s | ratio |")
    print("|---|---|---|---:|---:|---:|")
    for size in ("4KiB", "256KiB", "64MiB"):
        for isa in ("scalar", "avx2", "avx512"):
            for kernel, base in (("quantize/mxfp8_e4m3", "encode/e4m3fn"),
                                 ("quantize/mxfp4", "encode/e4m3fn"),
                                 ("dequantize/mxfp8_e4m3", "decode/e4m3fn"),
                                 ("dequantize/mxfp4", "decode/e4m3fn")):
                r = rates.get(f"{kernel}/{isa}/{size}")
                b = rates.get(f"{base}/{isa}/{size}")
                if r is None or b is None:
                    continue
                print(f"| {kernel} | {isa} | {size} | {r:.2f} | {b:.2f} | {r / b:.2f} |")


if __name__ == "__main__":
    main()
