"""The streaming calibration observer (AbsHistogram): batches observed one
by one calibrate as calibrate() of all of them at once (which the tool's
`calibrate` checks, test_calibrate.py), per tensor and per channel along
either axis; the counts equal NumPy's; merge equals one observer of both."""

import math

import numpy as np
import pytest

import minifloat as mf

RNG = np.random.default_rng(5151)
METHODS = [("max", {}), ("percentile", {"percentile": 99.0}), ("mse_histogram", {}),
           ("kl", {})]


def same(a, b):
    return np.array_equal(np.asarray(a), np.asarray(b), equal_nan=True)


def assert_same_result(got, want):
    for field in ("scale", "sse", "mse", "sqnr_db", "saturated_fraction", "flushed_fraction"):
        assert same(getattr(got, field), getattr(want, field)), field


def data(shape):
    x = RNG.standard_t(3, shape).astype(np.float32)
    x.reshape(-1)[:5] = [0.0, -0.0, np.nan, np.inf, -np.inf]
    return x


@pytest.mark.parametrize("fmt", ["e4m3fn", "e2m1fn", "e5m2"])
@pytest.mark.parametrize("method,kwargs", METHODS, ids=[m for m, _ in METHODS])
def test_batches_calibrate_as_the_whole(fmt, method, kwargs):
    x = data(5000)
    h = mf.AbsHistogram()
    for part in np.split(x, [700, 3100]):
        h.observe(part.reshape(-1, 10) if part.size % 10 == 0 else part)
    assert_same_result(h.calibrate(fmt, method=method, **kwargs),
                       mf.calibrate(x, fmt, method=method, **kwargs))
    p2 = h.calibrate(fmt, method=method, power_of_two=True, **kwargs)
    assert_same_result(p2, mf.calibrate(x, fmt, method=method, power_of_two=True, **kwargs))
    assert math.log2(p2.scale).is_integer()


@pytest.mark.parametrize("axis", ["rows", "columns"])
@pytest.mark.parametrize("method,kwargs", METHODS[:2] + METHODS[3:],
                         ids=["max", "percentile", "kl"])
def test_channels_calibrate_as_calibrate_along_the_axis(axis, method, kwargs):
    x = data((12, 300))
    if axis == "rows":  # the same rows in every batch: batches of columns
        h = mf.AbsHistogram(12, axis="rows")
        for part in np.split(x, [40, 170], axis=1):
            h.observe(part)
        want = mf.calibrate(x, "e4m3fn", method=method, axis=0, **kwargs)
    else:
        xt = np.ascontiguousarray(x.T)  # 300 rows of 12 features
        h = mf.AbsHistogram(12, axis="columns")
        for part in np.split(xt, [100, 101]):
            h.observe(part)
        want = mf.calibrate(x, "e4m3fn", method=method, axis=0, **kwargs)
    assert_same_result(h.calibrate("e4m3fn", method=method, **kwargs), want)


def test_counts_and_merge():
    x, y = data((4, 50)), data((4, 70))
    h, g, both = mf.AbsHistogram(4), mf.AbsHistogram(4), mf.AbsHistogram(4)
    h.observe(x)
    g.observe(y)
    both.observe(np.concatenate([x, y], axis=1))
    h.merge(g)
    for field in ("finite_count", "zeros", "nans", "infs", "amax"):
        assert same(getattr(h, field), getattr(both, field)), field
    z = np.concatenate([x, y], axis=1)
    finite = np.isfinite(z)
    assert same(h.finite_count, finite.sum(axis=1))
    assert same(h.zeros, (z == 0).sum(axis=1))
    assert same(h.nans, np.isnan(z).sum(axis=1))
    assert same(h.infs, np.isinf(z).sum(axis=1))
    assert same(h.amax, np.where(finite, np.abs(z), 0).max(axis=1))
    assert_same_result(h.calibrate("e4m3fn", method="kl"), both.calibrate("e4m3fn", method="kl"))


def test_bad_input_names_the_argument():
    h = mf.AbsHistogram(3, axis="columns")
    with pytest.raises(ValueError, match="x: 4 columns, expected 3"):
        h.observe(np.zeros((2, 4), np.float32))
    with pytest.raises(ValueError, match="x: expected a 2-D batch"):
        h.observe(np.zeros(3, np.float32))
    with pytest.raises(TypeError, match="x: dtype float64"):
        h.observe(np.zeros((2, 3)))
    with pytest.raises(ValueError, match="observe: no finite values observed in channel 0"):
        h.calibrate("e4m3fn")
    with pytest.raises(ValueError, match="mse_histogram"):
        mf.AbsHistogram().calibrate("e4m3fn", method="mse")
    with pytest.raises(ValueError, match="fmt: e8m0fnu has no zero"):
        h.calibrate("e8m0fnu")
    with pytest.raises(ValueError, match="other: channels=None"):
        h.merge(mf.AbsHistogram())
    with pytest.raises(ValueError, match="channels: 0"):
        mf.AbsHistogram(0)
    with pytest.raises(ValueError, match="axis"):
        mf.AbsHistogram(2, axis="depth")
    with pytest.raises(ValueError, match="axis"):
        mf.AbsHistogram(axis="depth")  # checked without channels too
    assert mf.AbsHistogram(2, axis="Columns").axis == "columns"  # in any case, as other names
    with pytest.raises(ValueError, match="percentile"):
        mf.AbsHistogram().calibrate("e4m3fn", method="max", percentile=50)
