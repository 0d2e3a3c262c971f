"""minifloat.calibrate against the command-line tool's `calibrate` (the same
mf::calibration searches, read through text): every method, per tensor and
per channel, power-of-two scales, formats of every kind, and the errors."""

import math

import numpy as np
import pytest

import minifloat as mf

RNG = np.random.default_rng(1956)
METHODS = [("max", {}, ["--method", "max"]),
           ("percentile", {}, ["--method", "percentile"]),
           ("percentile", {"percentile": 99.0}, ["--method", "percentile", "--percentile", "99"]),
           ("mse", {}, ["--method", "mse"]),
           ("mse_histogram", {}, ["--method", "mse-histogram"]),
           ("kl", {}, ["--method", "kl"])]
FORMATS = ["e4m3fn", "e5m2", "e2m1fn", "e3m2fn", "e4m3fnuz", "binary16"]


def bits_lines(x):
    return [f"0x{b:08x}" for b in np.asarray(x, np.float32).ravel().view(np.uint32).tolist()]


def tool_calibrate(cli, fmt, x, args):
    """The tool's answer per tensor: {key: text}."""
    out = cli.run(["calibrate", fmt, *args], bits_lines(x))
    return dict(line.split(": ", 1) for line in out.splitlines())


def tool_calibrate_rows(cli, fmt, rows, args):
    """The tool's answer with --per-row: one dict per row."""
    out = cli.run(["calibrate", fmt, *args, "--per-row", str(rows.shape[1])], bits_lines(rows))
    header, *lines = out.splitlines()
    keys = header.split(",")
    return [dict(zip(keys, line.split(","))) for line in lines]


def close(value, text):
    """The tool prints costs with 6 significant digits (%.6g)."""
    want = float(text)
    if math.isinf(want):
        return math.isinf(value) and value > 0
    return math.isclose(value, want, rel_tol=6e-6, abs_tol=1e-300)


def sample(shape):
    """Heavy-tailed data with exact zeros, so every method gives its own scale."""
    x = RNG.standard_t(3, size=shape) * np.exp2(RNG.integers(-3, 3, size=shape[:-1] + (1,)))
    x[..., ::17] = 0
    return x.astype(np.float32)


@pytest.mark.parametrize("power_of_two", [False, True])
@pytest.mark.parametrize("method,kwargs,args", METHODS,
                         ids=[m[0] + str(i) for i, m in enumerate(METHODS)])
@pytest.mark.parametrize("fmt", FORMATS)
def test_per_tensor_equals_the_tool(cli, fmt, method, kwargs, args, power_of_two):
    x = sample((3000,))
    x[5] = np.nan  # counted out, as in the tool
    x[6] = -np.inf
    r = mf.calibrate(x, fmt, method=method, power_of_two=power_of_two, **kwargs)
    want = tool_calibrate(cli, fmt, x, args + (["--power-of-two"] if power_of_two else []))
    scale_bits = int(want["scale"].split("bits ")[1].rstrip(")"), 16)
    assert isinstance(r.scale, float)
    assert np.float32(r.scale).view(np.uint32) == scale_bits
    assert close(r.mse, want["mse"]) and close(r.sqnr_db, want["sqnr_db"])
    assert close(r.saturated_fraction, want["saturated"])
    assert close(r.flushed_fraction, want["flushed"])
    assert math.isclose(r.sse, r.mse * (3000 - 2), rel_tol=1e-12)


@pytest.mark.parametrize("method,kwargs,args", METHODS,
                         ids=[m[0] + str(i) for i, m in enumerate(METHODS)])
@pytest.mark.parametrize("fmt", ["e4m3fn", "e2m1fn"])
def test_per_channel_equals_the_tool(cli, fmt, method, kwargs, args):
    w = sample((7, 200))
    r = mf.calibrate(w, fmt, method=method, axis=0, **kwargs)
    assert r.scale.dtype == np.float32 and r.scale.shape == (7,) and r.mse.shape == (7,)
    want = tool_calibrate_rows(cli, fmt, w, args)
    assert len(want) == 7
    for c, row in enumerate(want):
        assert r.scale[c].view(np.uint32) == int(row["scale_bits"], 16)
        assert close(r.mse[c], row["mse"]) and close(r.sqnr_db[c], row["sqnr_db"])
        assert close(r.saturated_fraction[c], row["saturated"])
        assert close(r.flushed_fraction[c], row["flushed"])


def test_a_channel_is_an_index_along_the_axis(cli):
    x = sample((5, 6, 40))
    r = mf.calibrate(x, "e4m3fn", method="mse", axis=1)
    assert r.scale.shape == (6,)
    channels = np.moveaxis(x, 1, 0).reshape(6, -1)
    want = tool_calibrate_rows(cli, "e4m3fn", channels, ["--method", "mse"])
    assert [int(row["scale_bits"], 16) for row in want] == r.scale.view(np.uint32).tolist()
    assert np.array_equal(mf.calibrate(x, "e4m3fn", method="mse", axis=-2).scale, r.scale)


def test_16_bit_inputs_are_widened_exactly(ml_dtypes):
    x = sample((500,))
    for dtype in (np.float16, ml_dtypes.bfloat16):
        narrow = x.astype(dtype)
        assert mf.calibrate(narrow, "e4m3fn", method="mse") == \
            mf.calibrate(narrow.astype(np.float32), "e4m3fn", method="mse")


def test_the_max_method_maps_amax_to_the_max():
    x = np.array([0.5, -3.0, 1.0], np.float32)
    r = mf.calibrate(x, "e4m3fn")
    assert r.scale == np.float32(448) / np.float32(3) and r.saturated_fraction == 0


X = sample((64,))


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: mf.calibrate(X, "e9m9"), ValueError, r"fmt: unknown format 'e9m9'"),
    (lambda: mf.calibrate(X, "e8m0fnu"), ValueError, r"fmt: e8m0fnu has no zero"),
    (lambda: mf.calibrate(X, "e4m3fn", method="entropy"), ValueError,
     r"method: 'entropy' is not accepted; accepted: max, percentile, mse, "
     r"mse_histogram, kl"),
    (lambda: mf.calibrate(X, "e4m3fn", method=None), TypeError,
     r"method: expected a name \(str\), got None"),
    (lambda: mf.calibrate(X, "e4m3fn", percentile=99.0), ValueError,
     r"percentile: used only with method='percentile', got method='max'"),
    (lambda: mf.calibrate(X, "e4m3fn", method="percentile", percentile=0), ValueError,
     r"percentile: 0 is outside the accepted \(0, 100\]"),
    (lambda: mf.calibrate(X, "e4m3fn", method="percentile", percentile=100.5), ValueError,
     r"percentile: 100.5"),
    (lambda: mf.calibrate(X, "e4m3fn", method="percentile", percentile=float("nan")),
     ValueError, r"percentile: nan"),
    (lambda: mf.calibrate(X, "e4m3fn", method="percentile", percentile="99"), TypeError,
     r"percentile: expected a real number, got str"),
    (lambda: mf.calibrate(X, "e4m3fn", power_of_two="yes"), TypeError,
     r"power_of_two: expected True or False"),
    (lambda: mf.calibrate(X.astype(np.float64), "e4m3fn"), TypeError,
     r"x: dtype float64 is not accepted; accepted: float32, float16, bfloat16"),
    (lambda: mf.calibrate(X.astype(np.int16), "e4m3fn"), TypeError, r"x: dtype int16"),
    (lambda: mf.calibrate(np.zeros(0, np.float32), "e4m3fn"), ValueError,
     r"x: empty \(shape \(0,\)\)"),
    (lambda: mf.calibrate(np.full(8, np.nan, np.float32), "e4m3fn"), ValueError,
     r"x: no finite values: nothing to calibrate"),
    (lambda: mf.calibrate(np.array([[1, 2], [np.inf, np.nan]], np.float32), "e4m3fn", axis=0),
     ValueError, r"x: no finite values in channel 1"),
    (lambda: mf.calibrate(X.reshape(8, 8), "e4m3fn", axis=2), ValueError,
     r"axis: 2 is out of range for x of 2 dimensions"),
    (lambda: mf.calibrate(X.reshape(8, 8), "e4m3fn", axis=1.0), TypeError,
     r"axis: expected an int or None, got float"),
])
def test_bad_input_raises_naming_the_argument(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


def test_percentile_100_is_the_max():
    # percentile: 0 < p <= 100; the 100th percentile of |x| is its amax.
    x = np.array([0.5, -3.0, 1.0], np.float32)
    r = mf.calibrate(x, "e4m3fn", method="percentile", percentile=100)
    assert r.scale == np.float32(448) / np.float32(3) and r.saturated_fraction == 0
    w = sample((4, 300))
    r = mf.calibrate(w, "e4m3fn", method="percentile", percentile=100.0, axis=0)
    assert np.array_equal(r.scale, mf.calibrate(w, "e4m3fn", method="max", axis=0).scale)
    assert np.all(r.saturated_fraction == 0)
    h = mf.AbsHistogram()
    h.observe(x)
    assert h.calibrate("e4m3fn", method="percentile", percentile=100).scale == \
        np.float32(448) / np.float32(3)
