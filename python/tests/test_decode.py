"""decode: every encoding of every format, against ml_dtypes and the tool."""

import numpy as np
import pytest

import minifloat as mf
from conftest import SMALL_FORMATS, codes_of, same_floats

ALL_FORMATS = mf.formats()


def all_codes(fmt):
    i = mf.info(fmt)
    return np.arange(1 << i.bits, dtype=np.uint32).astype(i.codes_dtype)


@pytest.mark.parametrize("fmt", SMALL_FORMATS + ["bfloat16"])
def test_every_code_equals_ml_dtypes(fmt, ml_dtypes):
    codes = all_codes(fmt)
    typed = codes.view(mf.info(fmt).dtype)
    ours = mf.decode(typed)
    theirs = typed.astype(np.float32)
    # NaN against NaN only: ml_dtypes decodes the FNUZ NaN 0x80 as -NaN and
    # keeps bfloat16 payloads (docs/semantics.md, comparison table).
    assert ours.dtype == np.float32
    assert same_floats(ours, theirs)
    assert np.array_equal(np.isnan(ours), np.isnan(theirs))


def test_binary16_equals_numpy():
    codes = all_codes("binary16")
    assert same_floats(mf.decode(codes, "binary16"), codes.view(np.float16).astype(np.float32))


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_every_code_equals_the_tool(fmt, cli):
    codes = all_codes(fmt)
    assert np.array_equal(mf.decode(codes, fmt).view(np.uint32), cli.decode(fmt, codes).view(
        np.uint32))


@pytest.mark.parametrize("fmt", SMALL_FORMATS)
def test_codes_and_typed_input_agree(fmt, ml_dtypes):
    codes = codes_of(fmt)
    assert same_floats(mf.decode(codes, fmt), mf.decode(codes.view(mf.info(fmt).dtype)))


@pytest.mark.parametrize("fmt", [f for f in SMALL_FORMATS if mf.info(f).bits < 8])
def test_bits_above_the_width_are_ignored(fmt):
    bits = mf.info(fmt).bits
    codes = codes_of(fmt)
    assert same_floats(mf.decode(codes | np.uint8(0xFF << bits & 0xFF), fmt),
                       mf.decode(codes, fmt))


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_to_float16_is_the_rounded_float32(fmt):
    # decode_to_binary16 rounds the exact value to nearest even, which is
    # NumPy's float32 -> float16 cast (IEEE 754); exact except e8m0fnu and
    # bfloat16.
    codes = all_codes(fmt)
    half = mf.decode(codes, fmt, dtype=np.float16)
    assert half.dtype == np.float16
    with np.errstate(over="ignore"):  # e8m0fnu, bfloat16: beyond 65504 is Inf
        assert same_floats(half, mf.decode(codes, fmt).astype(np.float16))


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_to_float64_is_exact(fmt):
    codes = all_codes(fmt)
    wide = mf.decode(codes, fmt, dtype=np.float64)
    assert wide.dtype == np.float64
    assert same_floats(wide, mf.decode(codes, fmt).astype(np.float64))
    # The scale multiplies in float64: one rounding of the exact product.
    third = np.float32(1 / 3)
    assert same_floats(mf.decode(codes, fmt, scale=1 / 3, dtype=np.float64),
                       mf.decode(codes, fmt).astype(np.float64) * np.float64(third))


@pytest.mark.parametrize("fmt", SMALL_FORMATS + ["bfloat16"])
def test_to_bfloat16_is_exact(fmt, ml_dtypes):
    codes = all_codes(fmt)
    b = mf.decode(codes, fmt, dtype=ml_dtypes.bfloat16)
    assert b.dtype == ml_dtypes.bfloat16
    assert same_floats(b.astype(np.float32), mf.decode(codes, fmt))


@pytest.mark.parametrize("scale", [0.5, 3.0, 1e-30, 2.0**100])
def test_scale_is_one_multiply(scale):
    codes = codes_of("e4m3fn")
    exact = mf.decode(codes, "e4m3fn")
    assert same_floats(mf.decode(codes, "e4m3fn", scale=scale), exact * np.float32(scale))


def test_binary16_to_bfloat16_rounds_to_nearest_even(ml_dtypes):
    codes = all_codes("binary16")
    got = mf.decode(codes, "binary16", dtype=ml_dtypes.bfloat16)
    with np.errstate(invalid="ignore"):  # the NaNs
        want = codes.view(np.float16).astype(np.float32).astype(ml_dtypes.bfloat16)
    assert same_floats(got.astype(np.float32), want.astype(np.float32))
