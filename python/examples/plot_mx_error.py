#!/usr/bin/env python3
"""The error of each MX format and NVFP4 per element type and scale rule:
the signal-to-quantization-noise ratio of mx_quantize followed by
mx_dequantize, on Gaussian data and on heavy-tailed data (Student's t with
3 degrees of freedom, as weights and activations with outliers are).

    python python/examples/plot_mx_error.py [--out docs/figures/mx_error.png]

SQNR = 10 log10(sum x^2 / sum (x - x')^2) in dB over 64 x 4096 values
(seeded); higher is better. Each mantissa bit of the element buys about
6 dB, while exponent bits beyond what one block of 32 spans buy little
(MXFP8 E4M3 and MXFP6 E2M3 come out alike, as do E5M2 and E3M2). The scale
rule decides what a block's largest value does: floor (OCP MX v1.0 §6.3)
lets it saturate, ceil keeps it in range at the cost of resolution, even
rounds amax to the element's precision first (docs/mx.md).
"""

import argparse

import matplotlib

matplotlib.use("Agg")  # files only; no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import minifloat as mf  # noqa: E402

FORMATS = ["mxfp8_e4m3", "mxfp8_e5m2", "mxfp6_e2m3", "mxfp6_e3m2", "mxfp4", "mxint8"]
RULES = ["floor", "ceil", "even"]


def sqnr_db(x, fmt, **kwargs):
    y = mf.mx_dequantize(mf.mx_quantize(x, fmt, **kwargs)).astype(np.float64)
    x = x.astype(np.float64)
    return 10 * np.log10(np.sum(x * x) / np.sum((x - y) ** 2))


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="docs/figures/mx_error.png")
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    data = {"N(0, 1)": rng.standard_normal((64, 4096)).astype(np.float32),
            "Student's t, 3 d.o.f.": rng.standard_t(3, (64, 4096)).astype(np.float32)}
    fig, axes = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
    width = 0.8 / len(RULES)
    for ax, (title, x) in zip(axes, data.items()):
        positions = np.arange(len(FORMATS) + 1)
        for r, rule in enumerate(RULES):
            values = [sqnr_db(x, fmt, scale_rounding=rule) for fmt in FORMATS]
            print(f"{title}, {rule}: " + ", ".join(f"{f} {v:.1f}" for f, v in
                                                  zip(FORMATS, values)))
            ax.bar(positions[:-1] + (r - 1) * width, values, width, label=f"scale: {rule}")
        nvfp4 = sqnr_db(x, "nvfp4")
        print(f"{title}: nvfp4 {nvfp4:.1f}")
        ax.bar(positions[-1], nvfp4, width, color="0.4", label="NVFP4")
        ax.set_xticks(positions)
        ax.set_xticklabels(FORMATS + ["nvfp4"], rotation=30, ha="right", fontsize=8)
        ax.set_title(title)
        ax.grid(True, axis="y", alpha=0.3)
    axes[0].set_ylabel("SQNR (dB), higher is better")
    axes[1].legend(fontsize=8)
    fig.suptitle("MX formats: quantize + dequantize, blocks of 32 along rows (NVFP4: 16)",
                 fontsize=10)
    fig.tight_layout()
    fig.savefig(args.out, dpi=90)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
