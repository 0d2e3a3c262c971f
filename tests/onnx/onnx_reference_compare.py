#!/usr/bin/env python3
"""mf::onnx against onnx's reference evaluator, bit for bit.

usage: onnx_reference_compare.py DRIVER [--cli MINIFLOAT_CLI] [--seed N]

Builds one-node models (opset 28) of QuantizeLinear, DequantizeLinear and
Cast for every combination of granularity (per-tensor, per-axis, blocked
with a partial last block), x type, scale type, `precision`, `saturate` and
output type, on an edge set (every representable value of the output type
and every midpoint between neighbours, times each scale, and the x values 1
and 2 ulps either side; overflow thresholds; subnormals; +-0; NaN; +-Inf;
scales that make a float16/bfloat16 quotient overflow or underflow) and on
random tensors. Each model runs in onnx.reference.ReferenceEvaluator and,
through DRIVER (tests/onnx/onnx_driver.cpp), in mf::onnx; with --cli a
sample of the QuantizeLinear/DequantizeLinear models also runs through
`minifloat quantize-linear` / `dequantize-linear`.

Every element must agree, except in the classes docs/onnx.md explains
("Where onnx's reference evaluator differs"); each of those is recognised
here by a check that is itself a proof of the explanation (for example: the
element agrees once the model states the precision the schema implies).
Any other difference fails the test. Exit 77 (a ctest skip) when onnx
cannot be imported.
"""
from __future__ import annotations

import argparse
import collections
import itertools
import subprocess
import sys
import time
import warnings

SKIP = 77
try:
    import numpy as np
    import ml_dtypes
    import onnx
    from onnx import TensorProto as TP
    from onnx import helper
    from onnx.reference import ReferenceEvaluator
except ImportError as error:  # the visible skip
    print(f"SKIP: onnx is not importable ({error}); `python3 -m pip install onnx==1.23.2` runs this test")
    sys.exit(SKIP)
if onnx.defs.onnx_opset_version() < 28:
    print(f"SKIP: onnx {onnx.__version__} defines opset {onnx.defs.onnx_opset_version()}; this test "
          "compares opset 28 (onnx >= 1.23: `python3 -m pip install onnx==1.23.2`)")
    sys.exit(SKIP)

OPSET = 28
# numpy warns about the NaN and Inf the edge set is made of.
warnings.filterwarnings("ignore", category=RuntimeWarning)
WIDE = [TP.FLOAT, TP.FLOAT16, TP.BFLOAT16]
FLOAT8 = [TP.FLOAT8E4M3FN, TP.FLOAT8E4M3FNUZ, TP.FLOAT8E5M2, TP.FLOAT8E5M2FNUZ]
INTS = [TP.UINT8, TP.INT8, TP.UINT16, TP.INT16, TP.UINT4, TP.INT4]
QUANT_OUT = INTS + FLOAT8 + [TP.FLOAT4E2M1]
CAST_TYPES = WIDE + FLOAT8 + [TP.FLOAT4E2M1, TP.FLOAT8E8M0]
INT_RANGE = {TP.UINT8: (0, 255), TP.INT8: (-128, 127), TP.UINT16: (0, 65535),
             TP.INT16: (-32768, 32767), TP.UINT4: (0, 15), TP.INT4: (-8, 7)}
FOUR_BIT = {TP.UINT4, TP.INT4, TP.FLOAT4E2M1}


def np_type(t):
    return helper.tensor_dtype_to_np_dtype(t)


def bits_of(t):
    return 4 if t in FOUR_BIT else 8 * np.dtype(np_type(t)).itemsize


def codes(arr, t):
    """The elements' bit patterns as uint32, flattened."""
    a = np.ascontiguousarray(arr).reshape(-1)
    width = np.dtype(np_type(t)).itemsize
    view = a.view({1: np.uint8, 2: np.uint16, 4: np.uint32}[width]).astype(np.uint32)
    return view & 0xF if t in FOUR_BIT else view


def raw_hex(arr, t):
    c = codes(arr, t)
    if t in FOUR_BIT:
        if c.size % 2:
            c = np.append(c, 0)
        return (c[0::2] | (c[1::2] << 4)).astype(np.uint8).tobytes().hex()
    return c.astype({8: np.uint8, 16: np.uint16, 32: np.uint32}[bits_of(t)]).astype("<u" + str(
        bits_of(t) // 8)).tobytes().hex()


def from_hex(text, t, n):
    data = np.frombuffer(bytes.fromhex(text), dtype=np.uint8)
    if t in FOUR_BIT:
        c = np.empty(2 * data.size, dtype=np.uint32)
        c[0::2] = data & 0xF
        c[1::2] = data >> 4
        return c[:n]
    return np.frombuffer(data.tobytes(), dtype="<u" + str(bits_of(t) // 8)).astype(np.uint32)


def tensor_field(arr, t):
    return f"{t}:{','.join(str(d) for d in arr.shape)}:{raw_hex(arr, t)}"


def float_values(arr, t):
    return np.asarray(arr).astype(np.float64).reshape(-1)


# ---- the reference -----------------------------------------------------------------

def reference(op, inputs, attrs, out_type, check=False):
    """check: run onnx's checker with full type inference first (the
    evaluator itself does not check the schema's type constraints)."""
    names = [n for n, _, _ in inputs]
    node = helper.make_node(op, names, ["y"], **attrs)
    graph = helper.make_graph(
        [node], "g",
        [helper.make_tensor_value_info(n, t, a.shape) for n, a, t in inputs],
        # The checker needs y's shape; every node checked here keeps x's.
        [helper.make_tensor_value_info("y", out_type, inputs[0][1].shape if check else None)])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    try:
        if check:
            onnx.checker.check_model(model, full_check=True)
        return ReferenceEvaluator(model).run(None, {n: a for n, a, _ in inputs})[0]
    except Exception as error:  # a node the reference rejects
        return error


# ---- the edge set ------------------------------------------------------------------

def representable(t, rng):
    if t in INT_RANGE:
        lo, hi = INT_RANGE[t]
        if hi - lo <= 255:
            return np.arange(lo, hi + 1, dtype=np.float64)
        around = [np.arange(lo, lo + 40), np.arange(-40, 41), np.arange(hi - 40, hi + 1),
                  rng.integers(lo, hi + 1, 200)]
        return np.unique(np.concatenate(around).astype(np.float64))
    values = np.arange(2 ** bits_of(t), dtype=np.uint32).astype(np.uint8).view(np_type(t))
    v = values.astype(np.float64)
    return np.unique(v[np.isfinite(v)])


def quotient_edges(t, rng):
    """Every value of t, every midpoint between neighbours, and beyond max."""
    v = representable(t, rng)
    mids = (v[:-1] + v[1:]) / 2
    top = v[-1]
    gap = v[-1] - v[-2]
    beyond = np.array([top + gap / 2, top + gap, 2 * top, -(top + gap / 2), -(top + gap), -2 * top])
    if t in INT_RANGE:
        beyond = np.concatenate([beyond, [v[0] - 0.5, v[0] - 1, v[0] - 1.5]])
    return np.concatenate([v, mids, beyond])


SPECIALS = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 3.4028234663852886e38, 1e30, 65504.0,
                     65520.0, 2.0 ** -24, 2.0 ** -25, 3 * 2.0 ** -26, 2.0 ** -126, 2.0 ** -127,
                     2.0 ** -133, 2.0 ** -134, 2.0 ** -149, 1e-30, 448.0, 464.0, 57344.0, 61440.0])
SPECIALS = np.concatenate([SPECIALS, -SPECIALS])
# Power-of-two scales make x / scale land exactly on midpoints; 3 and 1/3 on
# others; 0.1 nowhere; 2^-24 and 60000 overflow and underflow a float16
# quotient; -0.75 a negative scale.
SCALES = [1.0, 0.5, 3.0, 0.1, 2.0 ** -10, 1 / 3, 2.0 ** -24, 60000.0, -0.75]


def with_neighbours(x, t):
    """x (in type t) and the values 1 and 2 ulps either side (same sign)."""
    width = {TP.FLOAT: np.uint32, TP.FLOAT16: np.uint16, TP.BFLOAT16: np.uint16}[t]
    b = x.view(width).astype(np.int64)
    top = 2 ** (8 * np.dtype(width).itemsize)
    parts = [b]
    for d in (-2, -1, 1, 2):
        n = b + d
        same_sign = (n >= 0) & (n < top) & ((n ^ b) & (top >> 1) == 0)
        parts.append(n[same_sign])
    return np.unique(np.concatenate(parts)).astype(width).view(np_type(t))


def edge_x(x_type, scale, out_type, rng):
    q = quotient_edges(out_type, rng)
    x = (q * scale).astype(np_type(x_type))
    x = with_neighbours(x[np.isfinite(x.astype(np.float64))], x_type)
    return np.concatenate([x, SPECIALS.astype(np_type(x_type))])


# ---- the driver ----------------------------------------------------------------------

class Driver:
    def __init__(self, path):
        self.path = path
        self.lines = []
        self.results = None

    def add(self, line):
        self.lines.append(line)
        return len(self.lines) - 1

    def run(self):
        out = subprocess.run([self.path], input="\n".join(self.lines) + "\n", text=True,
                             capture_output=True, check=True).stdout.splitlines()
        assert len(out) == len(self.lines), "the driver lost lines"
        self.results = out


# ---- the comparison -------------------------------------------------------------------

class Tally:
    def __init__(self):
        self.models = 0
        self.elements = 0
        self.explained = collections.Counter()
        self.rounded_once = 0  # 16-bit DequantizeLinear elements checked without the reference
        self.failures = []
        self.kinds = {}

    def fail(self, what):
        # One line per kind of node (the case without its data), with the
        # first element and the count.
        key = what.split(": element")[0]
        if key not in self.kinds:
            self.kinds[key] = [what, 0]
        self.kinds[key][1] += 1
        self.failures.append(what)

    def report(self):
        for first, count in self.kinds.values():
            print(f"DIFFERENCE ({count}): {first[:300]}")

    def finish(self, suffix=""):
        """Prints the explained classes and the differences; the exit status."""
        for reason, count in sorted(self.explained.items()):
            print(f"  explained ({count}): {reason}")
        self.report()
        print(f"differences not explained: {len(self.failures)}{suffix}")
        return 1 if self.failures else 0


def same_float(a_codes, b_codes, t):
    """Equal codes, or both NaN (the schemas leave the NaN's sign open)."""
    if t not in WIDE:
        return a_codes == b_codes
    a = a_codes.astype(np.uint32).view(np.float32) if t == TP.FLOAT else None
    if t == TP.FLOAT:
        b = b_codes.astype(np.uint32).view(np.float32)
    else:
        dt = np_type(t)
        a = a_codes.astype(np.uint16).view(dt).astype(np.float32)
        b = b_codes.astype(np.uint16).view(dt).astype(np.float32)
    return (a_codes == b_codes) | (np.isnan(a) & np.isnan(b))


def compare(tally, case, ref, ours, out_type, explain, x_codes, reject=None):
    """ref: the reference's output array (or an exception); ours: the driver's
    line; reject: for a node the schema rejects, (the reason, a phrase of the
    library's message that states it, a phrase of onnx's), worked out by the
    case's builder."""
    tally.models += 1
    if reject is not None and not ours.startswith("error:"):
        tally.fail(f"{case}: the schema rejects it ({reject[0]}); mf::onnx runs it")
        return
    if isinstance(ref, Exception) or ours.startswith("error:"):
        if isinstance(ref, Exception) and ours.startswith("error:"):
            # Both reject: only for the reason the schema gives, stated in
            # the library's message; any other rejection is a lost comparison.
            if reject is not None and reject[1] in ours and reject[2] in str(ref):
                tally.explained[f"both reject the node: {reject[0]}"] += 1
            else:
                tally.fail(f"{case}: both reject it, "
                           f"{'not for the expected reason ' + repr(reject[0]) if reject else 'unexpectedly'}"
                           f" (reference: {str(ref)[:120]}; mf::onnx {ours[:160]})")
            return
        tally.fail(f"{case}: reference {'rejects: ' + str(ref)[:120] if isinstance(ref, Exception) else 'runs'}"
                   f"; mf::onnx {ours[:160]}")
        return
    t, _, hexdata = ours.partition(":")
    if int(t) != out_type:
        tally.fail(f"{case}: output type {t}, reference {out_type}")
        return
    ref_codes = codes(ref, out_type)
    our_codes = from_hex(hexdata, out_type, ref_codes.size)
    equal = same_float(ref_codes, our_codes, out_type)
    tally.elements += ref_codes.size
    if equal.all():
        # The raw data too: for the 4-bit types this checks ONNX's packing
        # (element 2i in the low nibble, a zero nibble after an odd count).
        if out_type not in WIDE and raw_hex(ref, out_type) != hexdata:
            tally.fail(f"{case}: same elements, different raw data")
        return
    idx = np.flatnonzero(~equal)
    left = np.ones(idx.size, dtype=bool)
    for reason, mask in explain(idx, ref_codes[idx], our_codes[idx]):
        mask = mask & left
        if mask.any():
            tally.explained[reason] += int(mask.sum())
        left &= ~mask
    for i in idx[left]:
        tally.fail(f"{case}: element {i} (x 0x{int(x_codes[i]):x}): reference 0x{int(ref_codes[i]):x}, "
                   f"mf::onnx 0x{int(our_codes[i]):x}")


def is_midpoint(value32, t):
    """value32 (a float32) lies exactly halfway between two neighbours of t."""
    v = np.float32(value32)
    if not np.isfinite(v):
        return False
    r = np.array([v]).astype(np_type(t))
    down = r.astype(np.float64)[0]
    bits = r.view(np.uint16).astype(np.int64)
    step = 1 if (float(v) > down) == (down >= 0) else -1
    other = np.array([bits[0] + step], dtype=np.int64).astype(np.uint16).view(np_type(t))
    return float(v) * 2 == down + other.astype(np.float64)[0]


# IEEE 754 binary16 (11 significant bits, emin -14) and bfloat16 (8, -126):
# the parameters of a correct single rounding written here.
ROUNDING_PARAMETERS = {TP.FLOAT16: (11, -14, 65504.0),
                       TP.BFLOAT16: (8, -126, float.fromhex("0x1.fep127"))}


def rounded_once(values, t):
    """float64 values rounded once (nearest, ties to even) to float16 or
    bfloat16, as float64 (past the largest finite value: Inf)."""
    precision, emin, largest = ROUNDING_PARAMETERS[t]
    magnitude = np.abs(values)
    _, e = np.frexp(magnitude)  # magnitude in [2^(e-1), 2^e)
    quantum = np.ldexp(1.0, np.maximum(e - 1, emin) - (precision - 1))
    r = np.rint(magnitude / quantum) * quantum  # exact scalings; rint ties to even
    r = np.where(r > largest, np.inf, r)
    return np.copysign(r, values)


def check_dequantize_rounds_once(tally, case, plan, ours):
    """A float16/bfloat16 DequantizeLinear output is the exact product
    (x - zero_point) * scale rounded once to the output type (the schema:
    the output type determines the precision of the multiplication), for
    every finite element, whatever the reference says."""
    out = plan["out"]
    if out not in ROUNDING_PARAMETERS or ours.startswith("error:"):
        return
    x = plan["x"].astype(np.float64).reshape(-1)
    if plan["zero"] is not None:
        x = x - plan["zero"]
    exact = x * scale_of_each(plan)  # exact in double (docs/onnx.md)
    finite = np.isfinite(exact)
    expected = rounded_once(exact[finite], out).astype(np_type(out)).view(np.uint16)
    t, _, hexdata = ours.partition(":")
    got = from_hex(hexdata, out, exact.size)[finite]
    wrong = np.flatnonzero(got != expected)
    tally.rounded_once += int(finite.sum())
    if wrong.size:
        i = wrong[0]
        tally.fail(f"{case}: element {i} of the finite ones: exact product {exact[finite][i]!r}, "
                   f"rounded once 0x{int(expected[i]):x}, mf::onnx 0x{int(got[i]):x} "
                   f"({wrong.size} such)")


def rounded_once_code(value, t):
    """The code of the double `value` rounded once to float16/bfloat16."""
    return int(rounded_once(np.array([value]), t).astype(np_type(t)).view(np.uint16)[0])


# ---- QuantizeLinear / DequantizeLinear models -------------------------------------------

def layouts(values_for_scale, scale_values):
    """(granularity, x (2-D or 1-D float64 array), scales, axis, block_size)."""
    per_scale = [values_for_scale(s) for s in scale_values]
    width = max(v.size for v in per_scale)
    rows = np.stack([np.resize(v, width) for v in per_scale])
    yield "per-tensor", per_scale[0], np.array(scale_values[0]), 1, 0
    yield "per-axis", rows, np.array(scale_values), 0, 0
    # blocked: 7 columns, block 5 (the last block has 2), axis -1. Row r
    # has scales k = r % K and (r + 4) % K; the rows whose first block has
    # scale k take that scale's values, and its second blocks go on where
    # those stopped, so every value appears.
    k_count = len(scale_values)
    n_rows = k_count * (-(-max(v.size for v in per_scale) // 7) + 1)
    rows_of = np.arange(n_rows)
    x = np.empty((n_rows, 7))
    s = np.empty((n_rows, 2))
    for k, v in enumerate(per_scale):
        first = rows_of[rows_of % k_count == k]
        second = rows_of[(rows_of + 4) % k_count == k]
        x[first, :5] = np.resize(v, 5 * first.size).reshape(-1, 5)
        x[second, 5:] = np.resize(np.roll(v, -5 * first.size), 2 * second.size).reshape(-1, 2)
        s[first, 0] = scale_values[k]
        s[second, 1] = scale_values[k]
    yield "blocked", x, s, -1, 5


def quantize_cases(driver, rng, x_types, scale_types, random_only=False):
    plans = []
    for x_type, s_type, precision, saturate, out_type in itertools.product(
            x_types, scale_types, [0] + WIDE, [1, 0], QUANT_OUT):
        if s_type == TP.FLOAT8E8M0 and precision not in (0, TP.FLOAT):
            continue
        if s_type == TP.FLOAT8E8M0:
            scale_values = [1.0, 2.0 ** -10, 2.0 ** 5, 2.0 ** -127, 2.0 ** 127]
        else:
            scale_values = [float(np.array(s).astype(np_type(s_type)).astype(np.float64))
                            for s in SCALES]
        zero = None
        if out_type in INT_RANGE and saturate == 0:  # one zero point per int model
            lo, hi = INT_RANGE[out_type]
            zero = int(rng.integers(lo, hi + 1))
        if random_only:
            def values(s, x_type=x_type, out_type=out_type):
                top = float(representable(out_type, rng)[-1])
                return np.concatenate([rng.normal(0, top / 2, 200) * s,
                                       rng.uniform(-2, 2, 50) * top * s]).astype(np_type(x_type))
            rng.shuffle(scale_values)
        else:
            def values(s, x_type=x_type, out_type=out_type):
                return edge_x(x_type, s, out_type, rng)
        for gran, x, scales, axis, block in layouts(values, scale_values):
            x_arr = np.asarray(x).astype(np_type(x_type))
            s_arr = np.asarray(scales).astype(np_type(s_type))
            attrs = {"saturate": saturate, "output_dtype": out_type}
            if gran != "per-tensor":
                attrs["axis"] = axis
            if block:
                attrs["block_size"] = block
            if precision:
                attrs["precision"] = precision
            inputs = [("x", x_arr, x_type), ("y_scale", s_arr, s_type)]
            z_arr = None
            if zero is not None:
                z_arr = np.full(s_arr.shape, zero).astype(np_type(out_type))
                inputs.append(("y_zero_point", z_arr, out_type))
                del attrs["output_dtype"]
            line = (f"op=quantize axis={axis} block={block} saturate={saturate} "
                    f"out={out_type} precision={precision} opset={OPSET} "
                    f"x={tensor_field(x_arr, x_type)} s={tensor_field(s_arr, s_type)}")
            if z_arr is not None:
                line += f" z={tensor_field(z_arr, out_type)}"
            plans.append(dict(op="QuantizeLinear", inputs=inputs, attrs=attrs, out=out_type,
                              index=driver.add(line), x=x_arr, x_type=x_type, s=s_arr,
                              s_type=s_type, precision=precision, gran=gran, axis=axis,
                              block=block, zero=zero, saturate=saturate, line=line))
    return plans


def scale_of_each(plan):
    """The scale of every element of x, broadcast as the reference does."""
    s = plan["s"].astype(np.float64)
    x = plan["x"]
    if s.size == 1:
        return np.full(x.size, s.reshape(-1)[0])
    if plan["block"]:
        return np.repeat(s, plan["block"], axis=plan["axis"])[:, :x.shape[1]].reshape(-1)
    return np.broadcast_to(s.reshape((-1,) + (1,) * (x.ndim - 1)) if plan["axis"] == 0
                           else s, x.shape).reshape(-1)


def schema_quotient(plan):
    """x / y_scale as the schema defines it: both in the division's precision
    (`precision`, else the scale's type; float for a float8e8m0 scale), the
    quotient rounded to it (numpy's float16 and ml_dtypes' bfloat16 division
    are correctly rounded)."""
    p = plan["precision"] or (TP.FLOAT if plan["s_type"] == TP.FLOAT8E8M0 else plan["s_type"])
    x = plan["x"].reshape(-1).astype(np.float32).astype(np_type(p))
    s = scale_of_each(plan).astype(np.float32).astype(np_type(p))
    with np.errstate(all="ignore"):
        return (x / s).astype(np.float64)


def quantize_explainer(plan, rerun):
    """The classes of docs/onnx.md, each checked; explain(idx, ref, ours)
    yields (reason, mask over idx)."""
    out = plan["out"]
    q_all = schema_quotient(plan)
    zero = plan["zero"] or 0

    def explain(idx, ref, ours):
        q = q_all[idx]
        if out in INT_RANGE:
            lo, hi = INT_RANGE[out]
            m = (1 << bits_of(out)) - 1
            # numpy's astype(int32) of NaN or of |q| >= 2^31 gives INT_MIN,
            # which the reference then offsets and clips; mf::onnx reads NaN
            # as 0 and saturates the rest. Checked: mf::onnx's code is that.
            yield ("NaN into an integer type (reference: numpy's int32 INT_MIN, offset and clipped)",
                   np.isnan(q) & (ours == (min(max(zero, lo), hi) & m)))
            with np.errstate(invalid="ignore"):
                big = np.abs(q) >= 2.0 ** 31
                yield ("|x / y_scale| >= 2^31 into an integer type (reference: numpy's int32 overflow)",
                       big & (ours == np.where(q > 0, hi & m, lo & m)))
        if out == TP.FLOAT4E2M1:
            yield ("NaN into float4e2m1 (reference/ml_dtypes: +-0; the library: +max)",
                   np.isnan(q) & (ours == 0x7))
        # No `precision` and x's type is not the scale's: the reference
        # divides in numpy's promoted type, the schema in the scale's.
        # Proof: the same node with precision = the scale's type agrees.
        if plan["precision"] == 0 and plan["x_type"] != plan["s_type"] and \
                plan["s_type"] != TP.FLOAT8E8M0:
            alt = rerun()
            if not isinstance(alt, Exception):
                yield ("reference divides in numpy's promoted type, not the scale's "
                       "(agrees with precision=scale type)", codes(alt, out)[idx] == ours)
    return explain


def dequantize_cases(driver, rng, scale_types):
    plans = []
    for x_type, s_type, out_dtype in itertools.product(QUANT_OUT, scale_types, [0] + WIDE):
        if s_type == TP.FLOAT8E8M0 and out_dtype == 0:
            # The output type defaults to the scale's, and float8e8m0 is not
            # one of T3 (float, float16, bfloat16): the schema rejects the
            # node, and the library must say why.
            x_arr = np.arange(4).astype(np_type(x_type))
            s_arr = np.asarray(1.0).astype(np_type(s_type))
            line = (f"op=dequantize axis=1 block=0 out=0 "
                    f"x={tensor_field(x_arr, x_type)} s={tensor_field(s_arr, s_type)}")
            plans.append(dict(op="DequantizeLinear", inputs=[("x", x_arr, x_type), ("x_scale", s_arr, s_type)],
                              attrs={}, out=s_type, index=driver.add(line), x=x_arr, x_type=x_type,
                              s=s_arr, s_type=s_type, gran="per-tensor", axis=1, block=0, zero=None,
                              line=line,
                              reject=("float8e8m0 is not an output type (T3); output_dtype is required",
                                      "the output must be float, float16 or bfloat16",
                                      "y has unsupported type tensor(float8e8m0)")))
            continue
        if s_type == TP.FLOAT8E8M0:
            scale_values = [1.0, 2.0 ** -10, 2.0 ** 5, 2.0 ** -127, 2.0 ** 127]
        else:
            scale_values = [float(np.array(v).astype(np_type(s_type)).astype(np.float64))
                            for v in SCALES + [rng.uniform(0.5, 2) for _ in range(3)]]
        if x_type in INT_RANGE:
            lo, hi = INT_RANGE[x_type]
            all_x = np.arange(lo, hi + 1) if hi - lo < 300 else np.concatenate(
                [np.arange(lo, lo + 300), np.arange(-300, 300), np.arange(hi - 300, hi + 1),
                 rng.integers(lo, hi + 1, 1000)])
            all_x = all_x.astype(np_type(x_type))
        else:  # every encoding
            all_x = np.arange(2 ** bits_of(x_type), dtype=np.uint8).view(np_type(x_type))
        zero = None
        if x_type in INT_RANGE and out_dtype == 0:
            lo, hi = INT_RANGE[x_type]
            zero = int(rng.integers(lo, hi + 1))

        def values(s, all_x=all_x):
            return all_x
        for gran, x, scales, axis, block in layouts(values, scale_values):
            x_arr = np.asarray(x).astype(np_type(x_type))
            s_arr = np.asarray(scales).astype(np_type(s_type))
            attrs = {}
            if gran != "per-tensor":
                attrs["axis"] = axis
            if block:
                attrs["block_size"] = block
            if out_dtype:
                attrs["output_dtype"] = out_dtype
            out_type = out_dtype or s_type
            inputs = [("x", x_arr, x_type), ("x_scale", s_arr, s_type)]
            line = (f"op=dequantize axis={axis} block={block} out={out_dtype} "
                    f"x={tensor_field(x_arr, x_type)} s={tensor_field(s_arr, s_type)}")
            if zero is not None:
                z_arr = np.full(s_arr.shape, zero).astype(np_type(x_type))
                inputs.append(("x_zero_point", z_arr, x_type))
                line += f" z={tensor_field(z_arr, x_type)}"
            plans.append(dict(op="DequantizeLinear", inputs=inputs, attrs=attrs, out=out_type,
                              index=driver.add(line), x=x_arr, x_type=x_type, s=s_arr,
                              s_type=s_type, gran=gran, axis=axis, block=block, zero=zero,
                              line=line))
    return plans


def dequantize_explainer(plan):
    out = plan["out"]
    x = plan["x"].astype(np.float64).reshape(-1)
    if plan["zero"] is not None:
        x = x - plan["zero"]
    s = scale_of_each(plan)

    def explain(idx, ref, ours):
        # The reference multiplies in float32 and then casts to a 16-bit
        # output: two roundings. The schema's "the output type determines the
        # precision of the multiplication" is one. Proof: the float32 product
        # is exactly a midpoint of the output type and the exact product is
        # not; and ours is the exact product rounded once to the output type
        # (computed here, not read from the reference or the library).
        if out in (TP.FLOAT16, TP.BFLOAT16):
            mask = np.zeros(idx.size, dtype=bool)
            for k, i in enumerate(idx):
                exact = x[i] * s[i]  # exact in double (docs/onnx.md)
                p32 = np.float32(exact)
                mask[k] = (float(p32) != exact and is_midpoint(p32, out)
                           and int(ours[k]) == rounded_once_code(exact, out))
            yield "reference rounds the product to float32 first (double rounding)", mask
    return explain


# ---- Cast ------------------------------------------------------------------------------

def cast_inputs(t, rng):
    if t in (TP.FLOAT16, TP.BFLOAT16):
        return np.arange(2 ** 16, dtype=np.uint32).astype(np.uint16).view(np_type(t))
    if t == TP.FLOAT:
        parts = [SPECIALS, rng.standard_normal(2000) * 10.0 ** rng.integers(-40, 40, 2000)]
        for target in FLOAT8 + [TP.FLOAT4E2M1]:
            parts.append(quotient_edges(target, rng))
        e = np.arange(-140, 129, dtype=np.float64)
        parts += [2.0 ** e, 1.5 * 2.0 ** e, 0.75 * 2.0 ** e, -(2.0 ** e)]
        x = np.concatenate(parts).astype(np.float32)
        x = with_neighbours(x[np.isfinite(x)], TP.FLOAT)
        bits = rng.integers(0, 2 ** 32, 3000, dtype=np.uint64).astype(np.uint32).view(np.float32)
        return np.concatenate([x, SPECIALS.astype(np.float32), bits])
    n = 2 ** bits_of(t)
    c = np.arange(n, dtype=np.uint32).astype(np.uint8)
    return c.view(np_type(t))


def e8m0_subnormal_code(v, saturate, mode):
    """float8e8m0 codes of positive values v < 2^-126 (OCP MX v1.0 E8M0:
    code c is 2^(c - 127); 0x00 = 2^-127, 0x01 = 2^-126, 0xFF NaN): below
    2^-127 the Cast table's row (E8M0_MIN saturating, NaN otherwise), else
    2^-127 or 2^-126 by round_mode."""
    low = 0x00 if saturate else 0xFF
    below = v < 2.0 ** -127
    if mode == "up":
        above = np.where(v > 2.0 ** -127, 0x01, 0x00)
    elif mode == "down":
        above = np.zeros(v.shape, dtype=np.int64)
    else:  # nearest, ties up: the midpoint 1.5 * 2^-127 goes to 2^-126
        above = np.where(v >= 1.5 * 2.0 ** -127, 0x01, 0x00)
    return np.where(below, low, above)


def cast_explainer(x, src, to, saturate, mode):
    v_all = x.astype(np.float64).reshape(-1)
    x32_all = np.asarray(x).astype(np.float32).reshape(-1)
    x_codes = codes(x, src)
    positive_nan = {TP.FLOAT8E4M3FN: 0x7F, TP.FLOAT8E5M2: 0x7E, TP.FLOAT16: 0x7E00,
                    TP.BFLOAT16: 0x7FC0, TP.FLOAT: 0x7FC00000}

    def explain(idx, ref, ours):
        v, x32 = v_all[idx], x32_all[idx]
        if src == to:
            yield ("a NaN cast to its own type keeps its encoding (the reference, saturating: "
                   "np.clip's canonical NaN)", np.isnan(v) & (ours == x_codes[idx]))
        if src in (TP.FLOAT8E4M3FNUZ, TP.FLOAT8E5M2FNUZ) and to in positive_nan:
            yield ("the FNUZ NaN 0x80 into a type with signed NaNs (the library: +NaN; ml_dtypes: -NaN)",
                   (x_codes[idx] == 0x80) & (ours == positive_nan[to]))
        if to == TP.FLOAT4E2M1:
            yield ("NaN into float4e2m1 (reference/ml_dtypes: +-0; the library: +max)",
                   np.isnan(v) & (ours == 0x7))
        if to == TP.FLOAT8E8M0:
            low = 0x00 if saturate else 0xFF
            with np.errstate(invalid="ignore"):
                yield ("float8e8m0 of +Inf saturating: the table's E8M0_MAX (reference: NaN)",
                       (v == np.inf) & bool(saturate) & (ours == 0xFE))
                yield ("float8e8m0 of -0, 'unspecified': as 0, the table's row (reference: 0x00)",
                       (v == 0) & np.signbit(v) & (ours == low))
                yield ("float8e8m0 of x < 0, 'unspecified' (reference: |x|; mf::onnx: NaN, as mf::round_to)",
                       (v < 0) & (ours == 0xFF))
                yield ("float8e8m0 of 0 <= x < 2^-127: the table's rows (reference: exponent field 0)",
                       (v >= 0) & (v < 2.0 ** -127) & (ours == low))
                # The single rounding of v by round_mode (Cast: "up: round to
                # nearest value away from zero, down: ... towards zero,
                # nearest: ... ties round up"), below E8M0_MIN the table's
                # row, computed here from the value.
                yield ("float8e8m0 of a float32 subnormal (reference reads the exponent field as 2^-127)",
                       (np.abs(x32) < 2.0 ** -126) & (v > 0) &
                       (ours == e8m0_subnormal_code(v, saturate, mode)))
    return explain


def cast_cases(driver, rng):
    plans = []
    inputs = {t: cast_inputs(t, rng) for t in CAST_TYPES}
    for src, to, saturate in itertools.product(CAST_TYPES, CAST_TYPES, [1, 0]):
        modes = ["up", "down", "nearest"] if to == TP.FLOAT8E8M0 else ["up"]
        for mode in modes:
            x = inputs[src]
            attrs = {"to": to, "saturate": saturate}
            if to == TP.FLOAT8E8M0:
                attrs["round_mode"] = mode
            line = (f"op=cast out={to} saturate={saturate} opset={OPSET} round={mode} from={src} "
                    f"x={tensor_field(x, src)} s=1::")
            plans.append(dict(op="Cast", inputs=[("x", x, src)], attrs=attrs, out=to,
                              index=driver.add(line), x=x, line=line))
    return plans


# ---- the CLI ------------------------------------------------------------------------------

def type_name(t):
    return {TP.FLOAT: "float"}.get(t, helper.tensor_dtype_to_string(t).split(".")[-1].lower())


def cli_check(cli, plan, ours_line, tally):
    """The same node through `minifloat quantize-linear` / `dequantize-linear`."""
    x_type, s_type = plan["x_type"], plan["s_type"]
    x_codes = codes(plan["x"], x_type)
    s_codes = codes(plan["s"], s_type)
    wide = {TP.FLOAT: 8}
    args = [cli, "quantize-linear" if plan["op"] == "QuantizeLinear" else "dequantize-linear",
            "--shape", ",".join(str(d) for d in plan["x"].shape),
            "--x-type", type_name(x_type),
            "--scale-type", type_name(s_type),
            "--scale-shape", ",".join(str(d) for d in plan["s"].shape) or "scalar",
            "--scales", ",".join(f"0x{int(c):0{wide.get(s_type, 2 * np.dtype(np_type(s_type)).itemsize)}x}"
                                 for c in s_codes)]
    if plan["gran"] != "per-tensor":
        args += ["--axis", str(plan["axis"])]
    if plan["block"]:
        args += ["--block-size", str(plan["block"])]
    if plan["op"] == "QuantizeLinear":
        args += ["--output-dtype", type_name(plan["out"])]
        if plan["precision"]:
            args += ["--precision", type_name(plan["precision"])]
        if not plan["saturate"]:
            args += ["--no-saturate"]
        digits = 8 if x_type == TP.FLOAT else 4
        stdin = "\n".join(f"0x{int(c):0{digits}x}" for c in x_codes) + "\n"
    else:
        if plan["attrs"].get("output_dtype"):
            args += ["--output-dtype", type_name(plan["out"])]
        stdin = "\n".join(f"0x{int(c):x}" for c in x_codes) + "\n"
    if plan["zero"] is not None:
        args += ["--zero-point", str(plan["zero"])]
    run = subprocess.run(args, input=stdin, text=True, capture_output=True)
    t, _, hexdata = ours_line.partition(":")
    if ours_line.startswith("error:"):
        if run.returncode != 2:
            tally.fail(f"CLI accepted what mf::onnx rejects: {' '.join(args[1:])}")
        return 0
    expected = from_hex(hexdata, int(t), x_codes.size)
    got = [int(line, 16) for line in run.stdout.split()]
    if run.returncode != 0 or got != [int(c) for c in expected]:
        tally.fail(f"CLI differs from mf::onnx: {' '.join(args[1:])[:150]} ({run.stderr.strip()[:200]})")
    return x_codes.size


# ---- main ------------------------------------------------------------------------------------

def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("driver")
    parser.add_argument("--cli")
    parser.add_argument("--seed", type=int, default=20)
    args = parser.parse_args()
    start = time.time()
    rng = np.random.default_rng(args.seed)
    driver = Driver(args.driver)
    scale_types = WIDE + [TP.FLOAT8E8M0]
    plans = quantize_cases(driver, rng, WIDE, scale_types)
    plans += quantize_cases(driver, rng, WIDE, WIDE, random_only=True)
    plans += dequantize_cases(driver, rng, scale_types)
    plans += cast_cases(driver, rng)
    driver.run()

    tally = Tally()
    per_op = collections.Counter()
    for plan in plans:
        ref = reference(plan["op"], plan["inputs"], plan["attrs"], plan["out"],
                        check="reject" in plan)
        if isinstance(ref, Exception) and plan["op"] == "Cast" and \
                plan["inputs"][0][2] == TP.FLOAT8E8M0:
            # ml_dtypes has no float8e8m0 -> float8 conversion; decoding to
            # float is exact, so the reference's Cast from that float is
            # the answer.
            ref = reference("Cast", [("x", plan["x"].astype(np.float32), TP.FLOAT)],
                            plan["attrs"], plan["out"])
            tally.explained["the reference cannot cast float8e8m0 to this type: compared with "
                            "its Cast of the exact float value (models)"] += 1
        ours = driver.results[plan["index"]]
        if plan["op"] == "QuantizeLinear":
            def rerun(plan=plan):
                attrs = dict(plan["attrs"], precision=plan["s_type"])
                cached = plan.get("rerun")
                if cached is None:
                    cached = plan["rerun"] = reference(plan["op"], plan["inputs"], attrs, plan["out"])
                return cached
            explain = quantize_explainer(plan, rerun)
        elif plan["op"] == "DequantizeLinear":
            explain = dequantize_explainer(plan)
        else:
            explain = cast_explainer(plan["x"], plan["inputs"][0][2], plan["out"],
                                     plan["attrs"]["saturate"], plan["attrs"].get("round_mode", "up"))
        before = tally.elements
        x_type = plan.get("x_type", plan["inputs"][0][2])
        compare(tally, f"{plan['op']} {plan['line'].split(' x=')[0]} {plan.get('gran', '')}", ref, ours, plan["out"], explain,
                codes(plan["x"], x_type), plan.get("reject"))
        per_op[plan["op"]] += tally.elements - before
        if plan["op"] == "DequantizeLinear":
            check_dequantize_rounds_once(tally, f"DequantizeLinear {plan['line'].split(' x=')[0]}",
                                         plan, ours)

    cli_elements = 0
    if args.cli:
        sample = [p for p in plans if p["op"] != "Cast"]
        for plan in sample[::max(1, len(sample) // 60)]:
            cli_elements += cli_check(args.cli, plan, driver.results[plan["index"]], tally)

    print(f"onnx {onnx.__version__}, opset {OPSET}: {tally.models} one-node models, "
          f"{tally.elements} elements compared "
          f"({', '.join(f'{k} {v}' for k, v in sorted(per_op.items()))})")
    print(f"DequantizeLinear: {tally.rounded_once} finite float16/bfloat16 elements checked to be "
          "the exact product rounded once")
    if args.cli:
        print(f"CLI: {cli_elements} elements of a sample of models through minifloat quantize-linear / dequantize-linear")
    return tally.finish(f"  ({time.time() - start:.1f} s)")


if __name__ == "__main__":
    sys.exit(main())
