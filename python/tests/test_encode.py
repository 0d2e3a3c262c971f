"""encode and convert: float32 patterns at a stride and every boundary, in
every rounding and overflow mode, against ml_dtypes (nearest-even) and the
tool's scalar path (every mode)."""

import numpy as np
import pytest

import minifloat as mf
from conftest import SMALL_FORMATS, codes_of, same_floats

ALL_FORMATS = mf.formats()
MODES = ["nearest_even", "toward_zero", "toward_positive", "toward_negative"]
TOOL_MODE = {"nearest_even": "nearest-even", "toward_zero": "toward-zero",
             "toward_positive": "toward-positive", "toward_negative": "toward-negative"}


def stride_patterns(stride):
    """Every stride-th float32 bit pattern (NaNs, Infs, subnormals included)."""
    return np.arange(0, 1 << 32, stride, dtype=np.uint64).astype(np.uint32).view(np.float32)


def boundaries(fmt):
    """Every value of the format, the midpoints between neighbours (the
    overflow threshold included), each +-1 float32 ulp, both signs, and the
    specials (docs/semantics.md, 3.5)."""
    i = mf.info(fmt)
    values = mf.decode(np.arange(1 << i.bits, dtype=np.uint32).astype(i.codes_dtype), fmt)
    v = np.unique(np.abs(values[np.isfinite(values)]).astype(np.float64))
    above_max = 2 * i.max if i.mantissa_bits == 0 else i.max + (v[-1] - v[-2])
    v = np.append(v, above_max)
    mids = (v[:-1] + v[1:]) / 2
    with np.errstate(over="ignore"):
        points = np.concatenate([v, mids]).astype(np.float32)
        near = np.concatenate([points, np.nextafter(points, np.float32(np.inf)),
                               np.nextafter(points, np.float32(0))])
    specials = np.array([0.0, np.inf, np.nan, 1e-45, 2.0**-126, 3.4e38], np.float32)
    near = np.concatenate([near, specials])
    return np.concatenate([near, -near])


def ml_dtypes_agrees(fmt, x):
    """Where ml_dtypes' nearest-even cast is expected to equal this library's:
    every input but the documented differences (docs/semantics.md,
    "Comparison with other libraries")."""
    keep = np.ones(x.shape, bool)
    if mf.info(fmt).specials == "finite":
        keep &= ~np.isnan(x)  # NaN -> +max here, -0 in ml_dtypes
    if fmt == "e8m0fnu":
        # Zero -> 0x00 (2^-127) here, NaN in ml_dtypes; the float32
        # subnormals near 2^-127 round to the nearer power of two here.
        keep &= ~((np.abs(x) < 2.0**-126) & ~np.signbit(x))
        keep &= x != 0
    return keep


@pytest.mark.parametrize("fmt", SMALL_FORMATS + ["bfloat16"])
def test_nearest_even_equals_ml_dtypes(fmt, ml_dtypes):
    x = np.concatenate([stride_patterns(4099), boundaries(fmt)])
    keep = ml_dtypes_agrees(fmt, x)
    typed = mf.info(fmt).dtype
    ours = mf.encode(x, fmt)
    assert ours.dtype == typed
    with np.errstate(over="ignore", invalid="ignore"):
        theirs = x.astype(typed)
    o = ours.view(mf.info(fmt).codes_dtype)[keep]
    t = theirs.view(mf.info(fmt).codes_dtype)[keep]
    differ = np.flatnonzero(o != t)
    # A NaN result may be either NaN encoding where the format has two.
    nan_both = np.isnan(mf.decode(o[differ], fmt)) & np.isnan(mf.decode(t[differ], fmt))
    bad = differ[~nan_both]
    assert bad.size == 0, (f"{bad.size} inputs differ, first: "
                           f"{x[keep][bad[:5]]!r} -> {o[bad[:5]]} vs ml_dtypes {t[bad[:5]]}")


def test_binary16_equals_numpy():
    x = np.concatenate([stride_patterns(4099), boundaries("binary16")])
    with np.errstate(over="ignore", invalid="ignore"):
        theirs = x.astype(np.float16)
    assert same_floats(mf.encode(x, "binary16"), theirs)


@pytest.mark.parametrize("fmt", ALL_FORMATS)
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("saturate", [False, True])
def test_every_mode_equals_the_scalar_path(fmt, mode, saturate, cli):
    args = ["--round", TOOL_MODE[mode]] + (["--saturate"] if saturate else [])
    # The tool's boundary set (midpoints, overflow thresholds +-1 ulp,
    # subnormal edges, specials) and seeded random inputs ...
    x, expected = cli.vectors(fmt, args + ["--count", "2000"])
    got = mf.encode(x, fmt, rounding=mode, saturate=saturate, dtype=mf.info(fmt).codes_dtype)
    assert np.array_equal(got, expected)
    # ... and float32 patterns at a stride, through the tool's encode.
    x = np.concatenate([stride_patterns(65537), boundaries(fmt)])
    got = mf.encode(x, fmt, rounding=mode, saturate=saturate, dtype=mf.info(fmt).codes_dtype)
    assert np.array_equal(got, cli.encode(fmt, x, args))


@pytest.mark.parametrize("fmt", ["e4m3fn", "e5m2", "e2m1fn", "e8m0fnu", "bfloat16"])
@pytest.mark.parametrize("mode", MODES)
def test_float64_is_rounded_once(fmt, mode, cli):
    rng = np.random.default_rng(7)
    b = boundaries(fmt).astype(np.float64)
    with np.errstate(over="ignore"):
        x = np.concatenate([b, np.nextafter(b, np.inf), np.nextafter(b, -np.inf),
                            rng.standard_normal(4000) * 2.0 ** rng.integers(-140, 130, 4000)])
    got = mf.encode(x, fmt, rounding=mode, dtype=mf.info(fmt).codes_dtype)
    assert np.array_equal(got, cli.encode(fmt, x, ["--round", TOOL_MODE[mode]]))


@pytest.mark.parametrize("source", ["binary16", "bfloat16"])
def test_16_bit_sources_widen_exactly(source, ml_dtypes):
    codes = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16)
    typed = codes.view(mf.info(source).dtype)
    wide = mf.decode(typed)
    for fmt in ["e4m3fn", "e5m2fnuz", "e2m1fn", "e8m0fnu"]:
        for mode in ["nearest_even", "toward_negative"]:
            assert np.array_equal(mf.encode(typed, fmt, rounding=mode, dtype=np.uint8),
                                  mf.encode(wide, fmt, rounding=mode, dtype=np.uint8))


@pytest.mark.parametrize("source", ALL_FORMATS)
def test_convert_is_the_exact_decode_then_one_rounding(source):
    i = mf.info(source)
    codes = np.arange(1 << i.bits, dtype=np.uint32).astype(i.codes_dtype)
    exact = mf.decode(codes, source)
    for to in ALL_FORMATS:
        for mode, saturate in [("nearest_even", False), ("toward_positive", True)]:
            got = mf.convert(codes, to, source, rounding=mode, saturate=saturate)
            assert got.dtype == mf.info(to).codes_dtype  # codes in, codes out
            want = mf.encode(exact, to, rounding=mode, saturate=saturate,
                             dtype=mf.info(to).codes_dtype)
            assert np.array_equal(got, want), (source, to, mode)


@pytest.mark.parametrize("scale", [0.25, 3.0, 1.0 / 3.0, 2.0**-140])
def test_scale_is_one_float32_multiply_and_amax_is_unscaled(scale):
    rng = np.random.default_rng(1)
    x = (rng.standard_normal(10001) * 100).astype(np.float32)
    x[17] = -1e4
    q, amax = mf.encode(x, "e4m3fn", scale=scale, saturate=True, dtype=np.uint8,
                        return_amax=True)
    product = x * np.float32(scale)
    assert np.array_equal(q, mf.encode(product, "e4m3fn", saturate=True, dtype=np.uint8))
    assert amax == 1e4
    x[5] = np.nan
    _, amax = mf.encode(x, "e4m3fn", return_amax=True)
    assert np.isnan(amax)


def test_amax_of_a_double_input_is_exact():
    _, amax = mf.encode(np.array([0.1, -1.0 / 3.0]), "e5m2", return_amax=True)
    assert amax == 1.0 / 3.0
    # Past float32's range both ways: a float amax would be inf and 0.
    for x in (1e300, -1e-50):
        _, amax = mf.encode(np.array([0.5 * x, x]), "e4m3fn", return_amax=True)
        assert amax == abs(x)
    _, amax = mf.encode(np.array([1.0, np.nan, 2.0]), "e4m3fn", return_amax=True)
    assert np.isnan(amax)
    _, amax = mf.encode(np.zeros(0), "e4m3fn", return_amax=True)
    assert amax == 0.0


def test_python_numbers_and_other_byte_orders_are_values():
    want = mf.encode(np.array([1.0, -2.0, 300.0]), "e4m3fn", dtype=np.uint8)
    assert np.array_equal(mf.encode([1, -2, 300], "e4m3fn", dtype=np.uint8), want)
    assert np.array_equal(mf.encode((1, -2.0, 300), "e4m3fn", dtype=np.uint8), want)
    assert int(mf.encode(300, "e4m3fn", dtype=np.uint8)) == want[2]
    # Python ints beyond int64 (NumPy makes them an object array) are values
    # too, rounded to float64 first as the smaller ones are.
    big = mf.encode(np.array([0.5, float(2**64)]), "bfloat16", dtype=np.uint16)
    assert np.array_equal(mf.encode([0.5, 2**64], "bfloat16", dtype=np.uint16), big)
    assert int(mf.encode(-2**64, "bfloat16", dtype=np.uint16)) == int(big[1]) | 0x8000
    with pytest.raises(ValueError, match="x: holds an int beyond float64's range"):
        mf.encode([1, 10**400], "e5m2")
    for order in (">f4", ">f8", "<f4"):
        x = np.array([1.0, -2.0, 300.0], dtype=order)
        assert np.array_equal(mf.encode(x, "e4m3fn", dtype=np.uint8), want)
    assert np.array_equal(mf.decode(np.array([0x3c00, 0xc000], ">u2"), "binary16"), [1.0, -2.0])
    # An integer array is a choice left to the caller (codes or values).
    with pytest.raises(TypeError, match="integer codes of a format"):
        mf.encode(np.array([1, 2]), "e4m3fn")


def test_empty_and_zero_dimensional():
    q, amax = mf.encode(np.zeros((0, 3), np.float32), "e4m3fn", return_amax=True,
                        dtype=np.uint8)
    assert q.shape == (0, 3) and amax == 0.0
    q = mf.encode(np.float32(300.0), "e4m3fn", dtype=np.uint8)
    assert q.shape == () and int(q) == 0x79  # 288
    assert mf.decode(np.zeros((2, 0), np.uint8), "e5m2").shape == (2, 0)


def test_shape_is_kept():
    x = np.linspace(-10, 10, 60, dtype=np.float32).reshape(3, 4, 5)
    q = mf.encode(x, "e3m2fn", dtype=np.uint8)
    assert q.shape == (3, 4, 5)
    assert np.array_equal(q.reshape(-1), mf.encode(x.reshape(-1), "e3m2fn", dtype=np.uint8))
