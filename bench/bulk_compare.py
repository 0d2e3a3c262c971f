#!/usr/bin/env python3
"""Prints the bulk conversion ratios of docs/performance.md (each kernel
against the CPU's own float32 <-> binary16 conversion, a memory stream and
the scalar set) from a minifloat_bench_bulk JSON output.

    build/bench/minifloat_bench_bulk --benchmark_repetitions=5 \\
        --benchmark_report_aggregates_only=true \\
        --benchmark_out=bulk.json --benchmark_out_format=json
    python3 bench/bulk_compare.py bulk.json

Uses the median of the repetitions (items per second, from CPU time).
vs_hw_f16 divides by the CPU's float32 <-> binary16 conversion of the same
size in the faster of its two forms in this run (hw_f16/...: register form,
hw_f16_mem/...: memory form); AVX-512 kernels by the 512-bit instruction,
the others by the F16C (ymm) one."""
import sys

from bench_json import median_rates


def main():
    rates = median_rates(sys.argv[1] if len(sys.argv) > 1 else "bulk.json")
    g = lambda name: rates.get(name)

    def ratio(a, b):
        return f"{a / b:5.2f}x" if a and b else "  n/a"

    print(f"{'kernel':44s} {'G items/s':>10s}  ratios")
    sizes = ["4KiB", "256KiB", "64MiB"]
    for size in sizes:
        def hw(kind, isa):
            forms = [g(f"{form}/{kind}/{isa}/{size}") for form in ("hw_f16", "hw_f16_mem")]
            return max([r for r in forms if r], default=None)
        # The memory bound: the faster of the zmm and ymm stream loops (a CPU
        # without AVX-512 runs only the ymm one).
        def stream(base, kind):
            forms = [g(f"{base}/{kind}/{isa}/{size}") for isa in ("avx512", "avx2")]
            return max([r for r in forms if r], default=None)
        st_e, st_d = stream("stream", "encode"), stream("stream", "decode")
        nt_e, nt_d = stream("stream_nt", "encode"), stream("stream_nt", "decode")
        for base in ("stream", "stream_nt", "hw_f16", "hw_f16_mem"):
            for kind in ("encode", "decode"):
                for isa in ("avx512", "avx2", "f16c"):
                    r = g(f"{base}/{kind}/{isa}/{size}")
                    if r:
                        print(f"{base}/{kind}/{isa}/{size}".ljust(44), f"{r / 1e9:10.2f}")
        for name in sorted(k for k in rates if k.endswith("/" + size)
                           and k.split("/")[0] in ("encode", "decode")):
            r = rates[name]
            kind, isa = name.split("/")[0], name.split("/")[-2]
            st, nt = (st_e, nt_e) if kind == "encode" else (st_d, nt_d)
            hw_f16 = hw(kind, "avx512" if isa == "avx512" else "f16c")
            scalar = g(name.replace(f"/{isa}/", "/scalar/"))
            extra = f" vs_scalar {ratio(r, scalar)}" if isa != "scalar" and scalar else ""
            print(f"{name:44s} {r / 1e9:10.2f}  vs_hw_f16 {ratio(r, hw_f16)} "
                  f"vs_stream {ratio(r, st)} vs_stream_nt {ratio(r, nt)}{extra}")


if __name__ == "__main__":
    main()
