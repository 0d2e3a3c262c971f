#!/usr/bin/env python3
"""Stochastic rounding's bias against nearest-even on a long sum: a running
sum kept in bfloat16, each partial sum rounded back to bfloat16 after every
addition, as an accumulator of that width does.

    python python/examples/plot_stochastic_sum.py [--out docs/figures/stochastic_sum.png]

The addends are 20,000 values from U(0, 0.02) (mean 0.01) rounded to
multiples of 2^-20, the same for every run, so that each partial sum plus
an addend is exact in float64 and is rounded once, to bfloat16. With nearest-even the sum stops growing once an addend is below
half an ulp of the sum (swamping: bfloat16 has 8 significant bits, so at 8
its ulp is 2^-4 and half of it, 0.031, exceeds every addend); with stochastic rounding each step rounds up
with probability equal to the discarded fraction, so the expected sum is
the exact sum (docs/stochastic-rounding.md) and its spread grows only as
the square root of the step count. 64 stochastic runs (one Philox stream,
run r at step t drawing element t * 64 + r) are drawn as their mean and
the band of ±1 standard deviation.
"""

import argparse

import matplotlib

matplotlib.use("Agg")  # files only; no display needed
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import minifloat as mf  # noqa: E402

STEPS = 20_000
RUNS = 64


def running_sums(addends, rounding, runs, seed=2026):
    """Each run's sum after every step."""
    s = np.zeros(runs, np.float64)
    q = np.empty(runs, np.uint16)
    history = np.empty((len(addends), runs), np.float32)
    stochastic = {"rounding": "stochastic", "seed": seed} if rounding == "stochastic" else {}
    for t, x in enumerate(addends):
        if stochastic:
            stochastic["offset"] = t * runs
        mf.encode(s + x, "bfloat16", out=q, **stochastic)  # s + x: exact in float64
        s = mf.decode(q, "bfloat16").astype(np.float64)
        history[t] = s
    return history


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", default="docs/figures/stochastic_sum.png")
    args = parser.parse_args()
    addends = np.round(np.random.default_rng(1).uniform(0, 0.02, STEPS) * 2.0**20) / 2.0**20
    exact = np.cumsum(addends)  # exact: 20,000 multiples of 2^-20 below 2^9
    nearest = running_sums(addends, "nearest_even", 1)[:, 0]
    stochastic = running_sums(addends, "stochastic", RUNS)
    mean, std = stochastic.mean(axis=1), stochastic.std(axis=1)
    step = np.arange(1, STEPS + 1)

    fig, (ax, bias) = plt.subplots(1, 2, figsize=(11, 4))
    ax.plot(step, exact, "k-", lw=1, label="exact sum")
    ax.plot(step, nearest, "C3-", lw=1.5, label="bfloat16, nearest even")
    ax.plot(step, mean, "C0-", lw=1, label=f"bfloat16, stochastic (mean of {RUNS})")
    ax.fill_between(step, mean - std, mean + std, color="C0", alpha=0.25, lw=0,
                    label="stochastic, ±1 std")
    ax.set_xlabel("additions")
    ax.set_ylabel("running sum")
    ax.set_title("Sum of U(0, 0.02) values kept in bfloat16")
    ax.legend(fontsize=8)
    ax.grid(True, alpha=0.3)

    bias.plot(step, nearest - exact, "C3-", lw=1.5, label="nearest even")
    bias.plot(step, mean - exact, "C0-", lw=1, label=f"stochastic (mean of {RUNS})")
    bias.fill_between(step, mean - std - exact, mean + std - exact, color="C0", alpha=0.25,
                      lw=0)
    bias.axhline(0, color="k", lw=0.8)
    bias.set_xlabel("additions")
    bias.set_ylabel("sum - exact sum")
    bias.set_title("Error of the running sum")
    bias.legend(fontsize=8)
    bias.grid(True, alpha=0.3)
    fig.tight_layout()
    fig.savefig(args.out, dpi=90)
    print(f"wrote {args.out}: exact {exact[-1]:.2f}, nearest even {nearest[-1]:.2f}, "
          f"stochastic {mean[-1]:.2f} ± {std[-1]:.2f}")


if __name__ == "__main__":
    main()
