#!/usr/bin/env python3
"""The error of each accumulation model of the hybrid MatMul against K: the
table of docs/hybrid.md ("The error of each model") as a figure.

    python python/examples/plot_model_error.py [--out docs/figures/model_error.png]

A (64 x K) and B (K x 64) are N(0, 1) samples rounded to E4M3 or E5M2
(nearest even); C is FP32 from minifloat.matmul with each model, and its
error is |C - C_exact| in float32 ulps of C_exact (the `exact` model: the
sum rounded once; hybrid::error_in_ulps), averaged over the 64 x 64 outputs
(the table's 16 x 16 let one output of deep cancellation move the mean). A
mean of 0 (every output exact) is drawn at the bottom of the log axis.
"""

import argparse

import matplotlib

matplotlib.use("Agg")  # files only; no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import minifloat as mf  # noqa: E402

# (label, mf.matmul keywords): the models of docs/hybrid.md's table.
MODELS = [
    ("sequential_fp32", {"model": "sequential_fp32"}),
    ("avx512_bf16_pairs", {"model": "avx512_bf16_pairs"}),
    ("amx_tile_pairs (32, sdm)", {"model": "amx_tile_pairs"}),
    ("amx_tile_pairs (32, guide)", {"model": "amx_tile_pairs", "order": "guide"}),
    ("chunked_exact{64}", {"model": "chunked_exact", "chunk": 64}),
    ("chunked_exact{64, toward zero}", {"model": "chunked_exact", "chunk": 64,
                                        "chunk_rounding": "toward_zero"}),
    ("reduced_precision{14, 128, seq}", {"model": "reduced_precision", "bits": 14}),
    ("reduced_precision{14, 128, block}", {"model": "reduced_precision", "bits": 14,
                                           "variant": "block"}),
    ("reduced_precision{22, 128, seq}", {"model": "reduced_precision", "bits": 22}),
]
KS = [2 ** p for p in range(4, 13)]  # 16 .. 4096
ROWS = 64
FLOOR = 1e-3  # where a mean error of 0 is drawn


def ulps(c, exact):
    """|c - exact| in float32 ulps of exact (the spacing at |exact|)."""
    e = exact.astype(np.float64)
    spacing = np.spacing(np.abs(exact)).astype(np.float64)
    return np.abs(c.astype(np.float64) - e) / spacing


def errors(fmt, element, rng):
    table = {label: [] for label, _ in MODELS}
    for k in KS:
        a = mf.encode(rng.standard_normal((ROWS, k)), fmt, dtype=np.uint8)
        b = mf.encode(rng.standard_normal((k, ROWS)), fmt, dtype=np.uint8)
        exact = mf.matmul(a, b, "FP32", a_type=element, b_type=element, model="exact")
        for label, kwargs in MODELS:
            c = mf.matmul(a, b, "FP32", a_type=element, b_type=element, **kwargs)
            table[label].append(max(float(np.mean(ulps(c, exact))), FLOOR))
    return table


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="docs/figures/model_error.png")
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), sharey=True)
    for ax, (fmt, element, title) in zip(axes, [("e4m3fn", "HF8", "E4M3 x E4M3 -> FP32"),
                                                ("e5m2", "BF8", "E5M2 x E5M2 -> FP32")]):
        for (label, _), (_, values) in zip(MODELS, errors(fmt, element, rng).items()):
            style = "--" if label.startswith("reduced") else "-"
            ax.plot(KS, values, style, marker="o", markersize=3, label=label)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_title(title)
        ax.set_xlabel("K")
        ax.grid(True, which="major", alpha=0.3)
    axes[0].set_ylabel(f"mean |error| (float32 ulps; {FLOOR:g} = exact)")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="center right")
    fig.suptitle("Hybrid MatMul: error of each accumulation model against the exact sum "
                 f"({ROWS} x K times K x {ROWS}, N(0, 1) data)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 0.78, 1))
    fig.savefig(args.out, dpi=90)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
