"""Scaled quantization (mf::scaling) against its definition: the scale of
docs/scaling.md written in Python on doubles (compute_scale's rule), and the
elements against the command-line tool's `encode` of the float32 products
x * scale (the scalar path, mf::round_to, one value at a time); dequantize
against the tool's `decode` times scale_inv in float32. The tool has no
scaling command, so the grouping (which elements share which scale) is
what these tests add to the encode tests."""

import math

import numpy as np
import pytest

import minifloat as mf

RNG = np.random.default_rng(36)
FLT_MAX = float(np.finfo(np.float32).max)
FORMATS = ["e4m3fn", "e5m2", "e4m3fnuz", "e2m1fn", "e3m2fn", "e2m3fn", "binary16"]


def rule_scale(amax, fmt, margin=0.0, power_of_two=False, fallback=1.0):
    """compute_scale as docs/scaling.md states it: max_finite / (|amax| *
    2^margin), toward zero to float32, within [2^-126, FLT_MAX]; the power
    of two at or below it with power_of_two; fallback for 0, Inf, NaN."""
    a = abs(float(np.float32(amax)))
    if not a > 0 or math.isinf(a):
        return float(np.float32(fallback))
    exact = mf.info(fmt).max / a / 2.0 ** margin
    if power_of_two:
        e = math.frexp(exact)[1] - 1
        return math.ldexp(1.0, min(127, max(-126, e)))
    if not exact < FLT_MAX:
        return FLT_MAX
    if exact < 2.0 ** -126:
        return 2.0 ** -126
    s = np.float32(exact)
    if float(s) > exact:
        s = np.nextafter(s, np.float32(0))
    return float(s)


def finite_amax(x):
    x = np.abs(np.asarray(x, np.float32))
    x = x[np.isfinite(x)]
    return float(x.max()) if x.size else 0.0


def data(shape, specials=True):
    """Wide-range values (magnitudes over 2^-20..2^20), with NaN and ±Inf."""
    x = (RNG.standard_normal(shape) * 2.0 ** RNG.integers(-20, 20, size=shape)).astype(np.float32)
    if specials and x.size > 4:
        flat = x.reshape(-1)
        flat[RNG.integers(0, flat.size, 3)] = [np.nan, np.inf, -np.inf]
    return x


def as_codes(q):
    return np.asarray(q).view(np.uint8 if np.asarray(q).dtype.itemsize == 1 else np.uint16)


def tool_quantize(cli, fmt, products, args=("--saturate",)):
    p = np.asarray(products, np.float32)
    return cli.encode(fmt, p.reshape(-1), list(args)).reshape(p.shape)


def tool_dequantize(cli, fmt, q, factors):
    return cli.decode(fmt, as_codes(q).reshape(-1)).reshape(np.shape(q)) * factors


# ---- compute_scale ---------------------------------------------------------
def test_compute_scale_examples_of_the_header():
    assert mf.compute_scale(2.0, "e4m3fn") == 224.0
    assert mf.compute_scale(2.0, "e4m3fn", power_of_two=True) == 128.0
    assert mf.compute_scale(0.0, "e4m3fn", fallback=3.0) == 3.0


@pytest.mark.parametrize("fmt", FORMATS)
def test_compute_scale_follows_the_rule(fmt):
    amaxes = np.concatenate([
        (RNG.standard_normal(300) * 2.0 ** RNG.integers(-140, 128, 300)).astype(np.float32),
        np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, FLT_MAX, -3.0], np.float32)])
    for margin in (0, 1, 3):
        for p2 in (False, True):
            for a in amaxes.tolist():
                got = mf.compute_scale(a, fmt, margin=margin, power_of_two=p2, fallback=0.5)
                want = rule_scale(a, fmt, margin, p2, 0.5)
                assert got == want, (fmt, a, margin, p2, got, want)
                if math.isfinite(a) and a != 0 and not p2 and got < FLT_MAX:
                    # amax * scale never exceeds max finite (docs/scaling.md)
                    assert abs(np.float32(a) * np.float32(got)) <= mf.info(fmt).max


# ---- per tensor --------------------------------------------------------------
@pytest.mark.parametrize("fmt", FORMATS)
def test_per_tensor_equals_the_tool_on_the_scaled_products(cli, fmt):
    x = data((37, 11))
    q, scale_inv = mf.quantize_per_tensor(x, fmt, dtype=mf.info(fmt).codes_dtype)
    scale = np.float32(rule_scale(finite_amax(x), fmt))
    assert scale_inv == float(np.float32(1) / scale)
    assert np.array_equal(q, tool_quantize(cli, fmt, x * scale))
    y = mf.dequantize_per_tensor(q, scale_inv, fmt)
    want = tool_dequantize(cli, fmt, q, np.float32(scale_inv))
    assert y.dtype == np.float32 and np.array_equal(y, want, equal_nan=True)


def test_per_tensor_options_equal_the_tool(cli):
    x = data(500)
    fmt = "e5m2"
    q, scale_inv = mf.quantize_per_tensor(x, fmt, margin=2, power_of_two=True,
                                          rounding="toward_zero", saturate=False)
    scale = np.float32(rule_scale(finite_amax(x), fmt, 2, True))
    assert scale_inv == float(np.float32(1) / scale)
    assert np.array_equal(as_codes(q), tool_quantize(cli, fmt, x * scale,
                                                     ["--round", "toward-zero"]))
    q, scale_inv = mf.quantize_per_tensor(x, fmt, scale=1000.0)  # a calibrated scale
    assert scale_inv == float(np.float32(1) / np.float32(1000))
    assert np.array_equal(as_codes(q), tool_quantize(cli, fmt, x * np.float32(1000)))


def test_per_tensor_stochastic_equals_the_tool_and_encode():
    x = data(4000, specials=False)
    q, _ = mf.quantize_per_tensor(x, "e4m3fn", rounding="stochastic", seed=7, random_bits=16)
    scale = rule_scale(finite_amax(x), "e4m3fn")
    want = mf.encode(x, "e4m3fn", scale=scale, saturate=True, rounding="stochastic", seed=7,
                     random_bits=16)
    assert np.array_equal(as_codes(q), as_codes(want))


def test_per_tensor_of_no_finite_value_uses_the_fallback():
    q, scale_inv = mf.quantize_per_tensor(np.zeros(4, np.float32), "e4m3fn", fallback=4.0)
    assert scale_inv == 0.25 and not as_codes(q).any()
    _, scale_inv = mf.quantize_per_tensor(np.array([np.nan, np.inf], np.float32), "e4m3fn")
    assert scale_inv == 1.0


# ---- per channel -------------------------------------------------------------
@pytest.mark.parametrize("axis", ["rows", "columns"])
@pytest.mark.parametrize("fmt", ["e4m3fn", "e2m1fn", "e5m2fnuz"])
def test_per_channel_equals_the_tool(cli, fmt, axis):
    x = data((9, 23))
    if axis == "rows":
        x[4] = 0.0  # a channel with no information: the fallback scale
    q, scale_inv = mf.quantize_per_channel(x, fmt, axis=axis)
    channels = x if axis == "rows" else x.T
    amaxes = [finite_amax(channel) for channel in channels]
    scales = np.array([rule_scale(a, fmt) for a in amaxes], np.float32)
    assert np.array_equal(scale_inv, np.float32(1) / scales)
    factors = scales[:, None] if axis == "rows" else scales[None, :]
    assert np.array_equal(as_codes(q), tool_quantize(cli, fmt, x * factors))
    y = mf.dequantize_per_channel(q, scale_inv, fmt, axis=axis)
    inv = scale_inv[:, None] if axis == "rows" else scale_inv[None, :]
    assert np.array_equal(y, tool_dequantize(cli, fmt, q, inv), equal_nan=True)


def test_per_channel_with_given_scales_and_stochastic_rounding(cli):
    x = data((6, 40), specials=False)
    scales = RNG.uniform(1, 100, 40).astype(np.float32)
    q, scale_inv = mf.quantize_per_channel(x, "e4m3fn", axis=1, scales=scales,
                                           rounding="stochastic", seed=11, offset=5)
    assert np.array_equal(scale_inv, np.float32(1) / scales)
    # Element r * columns + c (+ offset) of the stream, as encode of the whole.
    want = mf.encode(x * scales, "e4m3fn", saturate=True, rounding="stochastic", seed=11,
                     offset=5)
    assert np.array_equal(as_codes(q), as_codes(want))
    q, _ = mf.quantize_per_channel(x, "e4m3fn", axis="rows", scales=scales[:6])
    assert np.array_equal(as_codes(q), tool_quantize(cli, "e4m3fn", x * scales[:6, None]))


# ---- per block ---------------------------------------------------------------
@pytest.mark.parametrize("block", [(1, 8), (3, 5), (4, 4), (128, 128)])
def test_per_block_equals_the_tool(cli, block):
    fmt = "e4m3fn"
    x = data((10, 19))
    q, scale_inv = mf.quantize_per_block(x, fmt, block=block, power_of_two=True)
    br, bc = block
    tiles = (-(-10 // br), -(-19 // bc))
    assert scale_inv.shape == tiles
    scales = np.empty((10, 19), np.float32)
    for i in range(tiles[0]):
        for j in range(tiles[1]):
            tile = (slice(i * br, (i + 1) * br), slice(j * bc, (j + 1) * bc))
            s = np.float32(rule_scale(finite_amax(x[tile]), fmt, power_of_two=True))
            assert scale_inv[i, j] == np.float32(1) / s, (i, j)
            scales[tile] = s
    assert np.array_equal(as_codes(q), tool_quantize(cli, fmt, x * scales))
    y = mf.dequantize_per_block(q, scale_inv, fmt, block=block)
    assert np.array_equal(y, tool_dequantize(cli, fmt, q, np.float32(1) / scales),
                          equal_nan=True)


def test_per_block_stochastic_bits_do_not_depend_on_the_grouping():
    x = data((8, 32), specials=False)
    q, scale_inv = mf.quantize_per_block(x, "e5m2", block=(2, 16), rounding="stochastic",
                                         seed=3, random_bits=8)
    scales = np.repeat(np.repeat(np.float32(1) / scale_inv, 2, axis=0), 16, axis=1)
    want = mf.encode(x * scales, "e5m2", saturate=True, rounding="stochastic", seed=3,
                     random_bits=8)
    assert np.array_equal(as_codes(q), as_codes(want))


# ---- delayed scaling -----------------------------------------------------------
@pytest.mark.parametrize("reduction", ["max", "most_recent"])
def test_delayed_scaling_follows_the_window(reduction):
    s = mf.DelayedScaling("e4m3fn", history_length=3, reduction=reduction, margin=1)
    assert s.scale == 1.0 and s.history_length == 3
    window = [0.0, 0.0, 0.0]
    scale = 1.0
    steps = [2.0, 0.5, 0.0, 8.0, np.nan, 1.0, 1.0, 1.0, np.inf, 3.0]
    for t, amax in enumerate(steps):
        s.record(amax)
        window[t % 3] = amax
        if reduction == "most_recent":
            reduced = amax
        elif any(math.isnan(a) for a in window):
            reduced = math.nan
        else:
            reduced = max(abs(a) for a in window)
        scale = rule_scale(reduced, "e4m3fn", margin=1, fallback=scale)
        assert math.isnan(s.reduced_amax()) if math.isnan(reduced) else \
            s.reduced_amax() == reduced
        assert s.scale == scale, (t, amax, s.scale, scale)
        assert s.scale_inv == float(np.float32(1) / np.float32(scale))


def test_delayed_scaling_with_encode():
    s = mf.DelayedScaling("e4m3fn", history_length=4)
    for step in range(5):
        x = data(256, specials=False) * (step + 1)
        q, amax = mf.encode(x, "e4m3fn", scale=s.scale, saturate=True, return_amax=True)
        s.record(amax)
    assert s.scale == rule_scale(s.reduced_amax(), "e4m3fn")


# ---- bad input -----------------------------------------------------------------
def test_the_axis_is_read_as_other_names():
    # 'rows' / 'columns' in any case, as every name that is not a format.
    x = data((4, 8), specials=False)
    for spelling, axis in (("Rows", "rows"), ("COLUMNS", "columns")):
        q, scale_inv = mf.quantize_per_channel(x, "e4m3fn", axis=spelling)
        q0, scale_inv0 = mf.quantize_per_channel(x, "e4m3fn", axis=axis)
        assert np.array_equal(q.view(np.uint8), q0.view(np.uint8))
        assert np.array_equal(scale_inv, scale_inv0)
        assert scale_inv.shape == (4 if axis == "rows" else 8,)


def test_bad_input_names_the_argument_and_writes_nothing():
    x = data((4, 8), specials=False)
    out = np.full((4, 8), 0x55, np.uint8)
    with pytest.raises(TypeError, match="x: dtype float64"):
        mf.quantize_per_tensor(x.astype(np.float64), "e4m3fn", out=out)
    with pytest.raises(ValueError, match="fmt: unknown format"):
        mf.quantize_per_tensor(x, "e4m3x", out=out)
    for bad in (0.0, np.nan, -2.0, np.inf):
        with pytest.raises(ValueError, match="scale"):
            mf.quantize_per_tensor(x, "e4m3fn", scale=bad, out=out)
    with pytest.raises(ValueError, match="seed: .* does not fit 64 bits"):
        mf.quantize_per_tensor(x, "e4m3fn", rounding="stochastic", seed=2**64, out=out)
    with pytest.raises(ValueError, match="x: expected a 2-D array"):
        mf.quantize_per_channel(x.ravel(), "e4m3fn")
    with pytest.raises(ValueError, match="axis"):
        mf.quantize_per_channel(x, "e4m3fn", axis="diagonal", out=out)
    with pytest.raises(ValueError, match="axis"):
        mf.quantize_per_channel(x, "e4m3fn", axis=2, out=out)
    with pytest.raises(TypeError, match="axis: expected a name"):
        mf.quantize_per_channel(x, "e4m3fn", axis=1.0, out=out)
    with pytest.raises(ValueError, match="scales: 3 values, expected 4"):
        mf.quantize_per_channel(x, "e4m3fn", scales=[1, 2, 3], out=out)
    with pytest.raises(ValueError, match="scales: nan"):
        mf.quantize_per_channel(x, "e4m3fn", scales=[1, 2, np.nan, 1], out=out)
    # A scale whose scale_inv would be Inf: dequantize would refuse it.
    with pytest.raises(ValueError, match="scale: 2e-39 is not accepted: its scale_inv"):
        mf.quantize_per_tensor(x, "e4m3fn", scale=2e-39, out=out)
    with pytest.raises(ValueError, match="scales: 1e-39 is not accepted: its scale_inv"):
        mf.quantize_per_channel(x, "e4m3fn", scales=[1, 1e-39, 1, 1], out=out)
    # margin, power_of_two and fallback shape a computed scale: with a given
    # one they would be ignored without a word.
    for option in ({"margin": 1}, {"power_of_two": True}, {"fallback": 2.0}):
        with pytest.raises(ValueError, match="margin, power_of_two, fallback: .* scale is given"):
            mf.quantize_per_tensor(x, "e4m3fn", scale=2.0, out=out, **option)
        with pytest.raises(ValueError, match="margin, power_of_two, fallback: .* scales is given"):
            mf.quantize_per_channel(x, "e4m3fn", scales=[1, 2, 4, 8], out=out, **option)
    with pytest.raises(ValueError, match="block"):
        mf.quantize_per_block(x, "e4m3fn", block=(0, 4), out=out)
    with pytest.raises(TypeError, match="block"):
        mf.quantize_per_block(x, "e4m3fn", block=4, out=out)
    with pytest.raises(ValueError, match="out: shape"):
        mf.quantize_per_block(x, "e4m3fn", out=np.empty((8, 4), np.uint8))
    # e8m0fnu, MX's scale type, has no zero and no sign.
    for quantize in (mf.quantize_per_tensor, mf.quantize_per_channel, mf.quantize_per_block):
        with pytest.raises(ValueError, match="fmt: e8m0fnu has no zero"):
            quantize(x, "e8m0fnu", out=out)
    with pytest.raises(ValueError, match="fmt: e8m0fnu has no zero"):
        mf.DelayedScaling("e8m0fnu")
    assert (out == 0x55).all()
    q, inv = mf.quantize_per_block(x, "e4m3fn", block=(2, 4))
    with pytest.raises(ValueError, match="scale_inv: shape"):
        mf.dequantize_per_block(q, inv.ravel(), "e4m3fn", block=(2, 4))
    with pytest.raises(ValueError, match="scale_inv: 2 values, expected 8"):
        mf.dequantize_per_channel(q, [1.0, 2.0], "e4m3fn", axis="columns")
    with pytest.raises(TypeError, match="fmt: required"):
        mf.dequantize_per_tensor(as_codes(q), 1.0)
    with pytest.raises(ValueError, match="history_length"):
        mf.DelayedScaling("e4m3fn", history_length=0)
    with pytest.raises(ValueError, match=r"history_length: 1099511627776; accepted: .*2\*\*32"):
        mf.DelayedScaling("e4m3fn", history_length=2**40)
    with pytest.raises(ValueError, match="reduction"):
        mf.DelayedScaling("e4m3fn", reduction="mean")
    with pytest.raises(ValueError, match="margin"):
        mf.compute_scale(1.0, "e4m3fn", margin=np.inf)
    with pytest.raises(TypeError, match="amax"):
        mf.DelayedScaling("e4m3fn").record("1.0")


def test_empty_and_out():
    q, inv = mf.quantize_per_tensor(np.zeros((0, 3), np.float32), "e4m3fn")
    assert q.shape == (0, 3) and inv == 1.0
    x = data((3, 5), specials=False)
    out = np.empty((3, 5), np.uint8)
    q, _ = mf.quantize_per_channel(x, "e4m3fn", out=out)
    assert q is out
    y = np.empty((3, 5), np.float32)
    assert mf.dequantize_per_channel(q, np.ones(3, np.float32), "e4m3fn", out=y) is y


# ---- amax ------------------------------------------------------------------------
def rule_amax(v, nan):
    v = np.abs(np.asarray(v, np.float64).ravel())
    if nan == "propagate":
        return math.nan if np.isnan(v).any() else (float(v.max()) if v.size else 0.0)
    v = v[np.isfinite(v)]
    return float(v.max()) if v.size else 0.0


@pytest.mark.parametrize("nan", ["propagate", "finite_only"])
def test_amax_and_column_amax_follow_the_nan_rule(nan):
    x = data((33, 17))
    x[:, 3] = np.inf  # a column of Inf only
    x[:, 5] = np.nan
    x[:, 6] = -0.0
    x[7, 8] = -np.inf
    for v in (x, x[:, 0], x[:, 3], x[:, 5], np.zeros(0, np.float32), x[:, 9]):
        got = mf.amax(np.ascontiguousarray(v), nan=nan)
        want = rule_amax(v, nan)
        assert (math.isnan(got) and math.isnan(want)) or got == want, (nan, got, want)
    columns = mf.column_amax(x, nan=nan)
    want = np.array([rule_amax(x[:, j], nan) for j in range(17)], np.float32)
    assert columns.dtype == np.float32
    assert np.array_equal(columns, want, equal_nan=True)
    assert not np.signbit(columns[6])  # max |-0| is +0
    with pytest.raises(ValueError, match="nan: 'ignore'"):
        mf.amax(x, nan="ignore")
    with pytest.raises(ValueError, match="x: expected a 2-D array"):
        mf.column_amax(x.ravel(), nan=nan)


def test_delayed_scaling_power_of_two():
    s = mf.DelayedScaling("e4m3fn", history_length=2, power_of_two=True, margin=1)
    scale = 1.0
    window = [0.0, 0.0]
    for t, amax in enumerate([3.0, 0.7, 100.0, 0.0, 5e-3]):
        s.record(amax)
        window[t % 2] = amax
        scale = rule_scale(max(window), "e4m3fn", margin=1, power_of_two=True, fallback=scale)
        assert s.scale == scale and math.log2(s.scale).is_integer(), (t, s.scale, scale)
        assert s.scale_inv == 1 / scale


def test_column_amax_writes_out():
    x = data((9, 13), specials=False)
    out = np.full(13, -1.0, np.float32)
    assert mf.column_amax(x, out=out) is out
    assert np.array_equal(out, np.abs(x).max(axis=0))
    with pytest.raises(ValueError, match=r"out: shape \(9,\) differs"):
        mf.column_amax(x, out=np.empty(9, np.float32))
