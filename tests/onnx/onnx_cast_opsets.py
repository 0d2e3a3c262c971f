#!/usr/bin/env python3
"""`minifloat cast --opset N` against onnx's reference evaluator at opset N.

usage: onnx_cast_opsets.py MINIFLOAT_CLI

For every opset from 19 (Cast-19 brought the float8 types and `saturate`)
to 28, every pair of the float types Cast has at that opset (float,
float16, bfloat16, the four float8 types; float4e2m1 from Cast-23,
float8e8m0 from Cast-24) and saturate 0 and 1, one-node Cast models at
that opset run in onnx.reference.ReferenceEvaluator and through the tool,
on the inputs of onnx_reference_compare.py (every code of a narrow source,
every float16/bfloat16 pattern, float32 edges and random bits). Every
element must agree but for the classes docs/onnx.md explains, recognised
by onnx_reference_compare.py's cast_explainer; a type newer than the opset
must be rejected by both. Exit 77 (a ctest skip) when onnx cannot be
imported.
"""
from __future__ import annotations

import itertools
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import onnx_reference_compare as orc  # exits 77 itself without onnx  # noqa: E402

np, TP, helper, ReferenceEvaluator = orc.np, orc.TP, orc.helper, orc.ReferenceEvaluator

# The version of Cast that added each type (ONNX operator page, Cast).
INTRODUCED = {TP.FLOAT4E2M1: 23, TP.FLOAT8E8M0: 24}
OPSETS = range(19, 29)


def codes_hex(values, t):
    """The tool's codes in the driver's format (orc.raw_hex of the codes)."""
    c = np.asarray(values, dtype=np.uint32)
    if t in orc.FOUR_BIT:
        if c.size % 2:
            c = np.append(c, 0)
        return (c[0::2] | (c[1::2] << 4)).astype(np.uint8).tobytes().hex()
    width = orc.bits_of(t) // 8
    return c.astype("<u" + str(width)).tobytes().hex()


def reference_at(opset, x, src, to, saturate):
    node = helper.make_node("Cast", ["x"], ["y"], to=to, saturate=saturate)
    graph = helper.make_graph([node], "g", [helper.make_tensor_value_info("x", src, x.shape)],
                              [helper.make_tensor_value_info("y", to, None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", opset)])
    try:
        return ReferenceEvaluator(model).run(None, {"x": x})[0]
    except Exception as error:  # a node the reference rejects
        return error


def through_cli(cli, opset, x, src, to, saturate):
    digits = {TP.FLOAT: 8, TP.FLOAT16: 4, TP.BFLOAT16: 4}.get(src, 2)
    stdin = "\n".join(f"0x{int(c):0{digits}x}" for c in orc.codes(x, src)) + "\n"
    args = [cli, "cast", "--opset", str(opset), "--from", orc.type_name(src), "--to", orc.type_name(to)]
    if saturate:
        args.append("--saturate")
    return args, subprocess.run(args, input=stdin, text=True, capture_output=True)


def explainer(opset, x, src, to, saturate):
    """onnx_reference_compare's classes, and where the evaluator does not follow the text."""
    common = orc.cast_explainer(x, src, to, saturate, "up")  # the tool's and Cast's default round_mode
    v_all = x.astype(np.float64).reshape(-1)

    def explain(idx, ref, ours):
        yield from common(idx, ref, ours)
        if opset < 24 and saturate and to in (TP.FLOAT8E4M3FNUZ, TP.FLOAT8E5M2FNUZ):
            # The saturating table of Cast-19 ("Float stored in 8 bits"):
            # +-Inf -> NaN for E4M3FNUZ and E5M2FNUZ; Cast-24 made it +-max.
            # The evaluator applies Cast-24's rule at every opset.
            yield ("+-Inf saturating into a FNUZ type below Cast-24: NaN by Cast-19's table "
                   "(the evaluator: +-max, Cast-24's rule, at every opset)",
                   np.isinf(v_all[idx]) & (ours == 0x80))
    return explain


def main():
    cli = sys.argv[1]
    rng = np.random.default_rng(24)
    tally = orc.Tally()
    inputs = {t: orc.cast_inputs(t, rng) for t in orc.CAST_TYPES}
    rejected = 0
    for opset, src, to, saturate in itertools.product(OPSETS, orc.CAST_TYPES, orc.CAST_TYPES, [1, 0]):
        if src == TP.FLOAT8E8M0:
            continue  # the evaluator has no Cast from float8e8m0 (onnx_reference_compare.py's note)
        if saturate and to not in orc.FLOAT8 + [TP.FLOAT8E8M0]:
            continue  # saturate is for the float8 types only (the tool rejects it elsewhere)
        x = inputs[src]
        args, run = through_cli(cli, opset, x, src, to, saturate)
        newer = max(INTRODUCED.get(src, 19), INTRODUCED.get(to, 19))
        if newer > opset:
            if run.returncode != 2 or not any(f"Cast-{v} added it" in run.stderr
                                              for v in range(opset + 1, newer + 1)):
                tally.fail(f"opset {opset}: {' '.join(args[1:])} accepted a type of Cast-{newer} "
                           f"({run.stderr.strip()[:120]})")
            rejected += 1
            continue
        if run.returncode != 0:
            tally.fail(f"opset {opset}: {' '.join(args[1:])} failed: {run.stderr.strip()[:200]}")
            continue
        ours = f"{to}:{codes_hex([int(line, 16) for line in run.stdout.split()], to)}"
        if saturate and to in (TP.FLOAT8E4M3FNUZ, TP.FLOAT8E5M2FNUZ):
            # The text, which the evaluator does not follow below Cast-24:
            # +-Inf -> NaN (0x80) by Cast-19's saturating table, +-max from
            # Cast-24 on.
            got = np.array([int(line, 16) for line in run.stdout.split()])
            values = x.astype(np.float64).reshape(-1)
            for sign, big in ((1, 0x7F), (-1, 0xFF)):
                at = values == sign * np.inf
                want = 0x80 if opset < 24 else big
                if np.any(at) and not np.all(got[at] == want):
                    tally.fail(f"opset {opset}: {' '.join(args[1:])}: {sign:+d} Inf gives "
                               f"0x{int(got[at][0]):02x}, the text 0x{want:02x}")
        ref = reference_at(opset, x, src, to, saturate)
        orc.compare(tally, f"Cast opset={opset} from={src} to={to} saturate={saturate}", ref, ours, to,
                    explainer(opset, x, src, to, saturate), orc.codes(x, src))
    print(f"onnx {orc.onnx.__version__}: Cast at opsets {OPSETS.start}..{OPSETS.stop - 1}: "
          f"{tally.models} models, {tally.elements} elements compared, {rejected} type pairs "
          "newer than their opset rejected")
    return tally.finish()


if __name__ == "__main__":
    sys.exit(main())
