"""Every bad input raises TypeError or ValueError naming the argument, what
was given and what is accepted; nothing is written to out= on error."""

import numpy as np
import pytest

import minifloat as mf

X = np.linspace(-4, 4, 64, dtype=np.float32)
CODES = np.arange(64, dtype=np.uint8)


@pytest.mark.parametrize("call, error, pattern", [
    # formats
    (lambda: mf.encode(X, "e9m9"), ValueError, r"fmt: unknown format 'e9m9'; accepted: e4m3fn, "),
    (lambda: mf.encode(X, 8), TypeError, r"fmt: expected a format name"),
    (lambda: mf.convert(CODES, "fp9", "e4m3fn"), ValueError, r"to: unknown format 'fp9'"),
    (lambda: mf.convert(CODES, "e5m2", "nope"), ValueError, r"from_: unknown format 'nope'"),
    (lambda: mf.info("e4m3"), None, None),
    (lambda: mf.info("int8"), ValueError, r"name: unknown format 'int8'"),
    # input dtypes
    (lambda: mf.encode(X.astype(np.int32), "e4m3fn"), TypeError,
     r"x: dtype int32 is not accepted; accepted: float32, float64, .*astype\(np.float64\)"),
    (lambda: mf.encode(CODES, "e4m3fn"), TypeError, r"x: dtype uint8 .*convert\(codes, to"),
    (lambda: mf.encode(X.astype(np.complex64), "e4m3fn"), TypeError, r"x: dtype complex64"),
    (lambda: mf.encode(np.array(["a"]), "e4m3fn"), TypeError, r"x: dtype <U1"),
    (lambda: mf.decode(X), TypeError, r"codes: dtype float32 holds no encodings; .*encode"),
    (lambda: mf.decode(CODES), TypeError, r"fmt: required for uint8 codes"),
    (lambda: mf.decode(CODES, "bfloat16"), TypeError, r"codes: bfloat16 codes are uint16, got uint8"),
    (lambda: mf.convert(CODES.astype(np.int8), "e5m2", "e4m3fn"), TypeError, r"codes: dtype int8"),
    (lambda: mf.convert(CODES, "e5m2"), TypeError, r"from_: required for uint8 codes"),
    # conversion options
    (lambda: mf.encode(X, "e4m3fn", rounding="nearest"), ValueError,
     r"rounding: 'nearest' is not accepted; accepted: nearest_even, rne, toward_zero"),
    (lambda: mf.encode(X, "e4m3fn", rounding=2), TypeError, r"rounding: expected a name \(str\)"),
    (lambda: mf.encode(X, "e4m3fn", saturate="yes"), TypeError, r"saturate: expected True or False"),
    (lambda: mf.encode(X, "e4m3fn", rounding="stochastic", seed=2**64), ValueError,
     r"seed: 18446744073709551616 does not fit 64 bits"),
    (lambda: mf.encode(X, "e4m3fn", rounding="stochastic", seed=-1), ValueError,
     r"seed: -1 does not fit 64 bits"),
    (lambda: mf.encode(X, "e4m3fn", rounding="stochastic", seed=1.5), TypeError,
     r"seed: expected an int in \[0, 2\*\*64\), got float"),
    (lambda: mf.encode(X, "e4m3fn", rounding="stochastic", seed=1, offset=2**64), ValueError,
     r"offset: .* does not fit 64 bits"),
    (lambda: mf.encode(X, "e4m3fn", rounding="stochastic", seed=1, random_bits=0), ValueError,
     r"random_bits: 0 is outside the accepted 1..32"),
    (lambda: mf.encode(X, "e4m3fn", rounding="stochastic", seed=1, random_bits=33), ValueError,
     r"random_bits: 33"),
    (lambda: mf.encode(X, "e4m3fn", seed=1), ValueError,
     r"seed: used only with rounding='stochastic'"),
    (lambda: mf.encode(X, "e4m3fn", offset=5), ValueError, r"offset: used only with"),
    (lambda: mf.encode(X, "e4m3fn", random_bits=8), ValueError, r"random_bits: used only with"),
    (lambda: mf.encode(X, "e4m3fn", return_amax="no"), TypeError, r"return_amax: expected"),
    # scale
    (lambda: mf.encode(X, "e4m3fn", scale=float("nan")), ValueError, r"scale: nan .*finite, non-zero"),
    (lambda: mf.encode(X, "e4m3fn", scale=0.0), ValueError, r"scale: 0.0"),
    (lambda: mf.encode(X, "e4m3fn", scale=float("inf")), ValueError, r"scale: inf"),
    (lambda: mf.encode(X, "e4m3fn", scale=1e39), ValueError, r"scale: 1e\+39 \(as float32: inf\)"),
    (lambda: mf.encode(X, "e4m3fn", scale="2"), TypeError, r"scale: expected a real number, got str"),
    (lambda: mf.decode(CODES, "e4m3fn", scale=0.0), ValueError, r"scale: 0.0"),
    (lambda: mf.decode(CODES, "e4m3fn", scale=2.0, dtype=np.float16), ValueError,
     r"scale: 2.0 is applied only with dtype=float32 or float64"),
    # dtype=
    (lambda: mf.encode(X, "e4m3fn", dtype=np.int8), TypeError,
     r"dtype: int8 is not accepted here; accepted: uint8"),
    (lambda: mf.encode(X, "e4m3fn", dtype="no such dtype"), TypeError, r"dtype: 'no such dtype' is not a dtype"),
    (lambda: mf.decode(CODES, "e4m3fn", dtype=np.int32), TypeError,
     r"dtype: int32 is not accepted here; accepted: float32, float64, float16"),
    (lambda: mf.encode(X, "bfloat16", dtype=np.uint8), TypeError, r"accepted: uint16"),
])
def test_bad_input_raises_naming_the_argument(call, error, pattern):
    if error is None:
        call()
        return
    with pytest.raises(error, match=pattern):
        call()


def out_cases():
    return [
        (np.empty(64, np.float32), TypeError, r"out: dtype float32 is not accepted here"),
        (np.empty(63, np.uint8), ValueError, r"out: shape \(63,\) differs from the result's \(64,\)"),
        (np.empty((8, 8), np.uint8), ValueError, r"out: shape \(8, 8\) differs"),
        (np.empty(128, np.uint8)[::2], ValueError, r"out: not C-contiguous; .*np.empty"),
        ([0] * 64, TypeError, r"out: expected a numpy.ndarray, got list"),
    ]


@pytest.mark.parametrize("out, error, pattern", out_cases())
def test_bad_out(out, error, pattern):
    with pytest.raises(error, match=pattern):
        mf.encode(X, "e4m3fn", out=out)


def test_read_only_out():
    out = np.zeros(64, np.uint8)
    out.flags.writeable = False
    with pytest.raises(ValueError, match="out: read-only"):
        mf.encode(X, "e4m3fn", out=out)


def test_out_overlapping_the_input():
    buffer = np.zeros(128, np.uint8)
    with pytest.raises(ValueError, match="out: overlaps the input"):
        mf.convert(buffer[:64], "e5m2", "e4m3fn", out=buffer[32:96])
    with pytest.raises(ValueError, match="out: overlaps the input"):
        mf.convert(buffer[:64], "e5m2", "e4m3fn", out=buffer[:64])


def test_out_and_dtype_must_agree():
    with pytest.raises(TypeError, match=r"out: dtype float32 differs from dtype=float16"):
        mf.decode(CODES, "e4m3fn", out=np.empty(64, np.float32), dtype=np.float16)


def test_typed_codes_and_a_contradicting_format(ml_dtypes):
    q = mf.encode(X, "e4m3fn")
    with pytest.raises(ValueError, match=r"fmt: 'e5m2' contradicts the dtype of codes, "
                                         r"float8_e4m3fn"):
        mf.decode(q, "e5m2")
    assert mf.decode(q, "float8_e4m3fn").dtype == np.float32  # the same format is fine


@pytest.mark.parametrize("kwargs", [
    dict(scale=float("nan")), dict(rounding="stochastic", seed=2**64),
    dict(rounding="bad"), dict(rounding="stochastic", seed=1, random_bits=99),
    dict(dtype=np.float16),
])
def test_nothing_is_written_to_out_on_error(kwargs):
    out = np.full(64, 0xAB, np.uint8)
    with pytest.raises((TypeError, ValueError)):
        mf.encode(X, "e4m3fn", out=out, **kwargs)
    assert np.all(out == 0xAB)
    f = np.full(64, 7.0, np.float32)
    with pytest.raises((TypeError, ValueError)):
        mf.decode(CODES, "e4m3fn", out=f, scale=float("nan"))
    assert np.all(f == 7.0)


def test_unaligned_out():
    out = np.frombuffer(bytearray(4 * 64 + 1), np.float32, 64, offset=1)
    assert out.flags.writeable and not out.flags.aligned
    with pytest.raises(ValueError, match="out: not aligned"):
        mf.decode(CODES, "e4m3fn", out=out)
