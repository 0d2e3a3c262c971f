"""Packed FP4 / FP6 storage (pack, unpack, encode_packed, decode_packed)
against the layout of docs/mx.md section 1 written in Python (FP4: two codes
a byte, the first in the low nibble; FP6: a little-endian bit stream, code
i in bits [6i, 6i + 6)), and the values against the command-line tool's
`encode` and `decode` of the same elements."""

import numpy as np
import pytest

import minifloat as mf

RNG = np.random.default_rng(4646)
BITS = {"e2m1fn": 4, "e2m3fn": 6, "e3m2fn": 6}
COUNTS = [0, 1, 2, 3, 4, 5, 7, 64, 65, 1001, 3001]  # 3001: past one 1024-element pass


def layout(codes, bits):
    """The packed bytes of `codes` as the layout states them."""
    stream = 0
    for i, c in enumerate(np.asarray(codes, np.uint8).ravel().tolist()):
        stream |= (c & ((1 << bits) - 1)) << (bits * i)
    size = (np.asarray(codes).size * bits + 7) // 8
    return np.frombuffer(stream.to_bytes(size, "little"), np.uint8)


def data(n):
    x = (RNG.standard_normal(n) * 2.0 ** RNG.integers(-8, 4, n)).astype(np.float32)
    if n > 8:
        x[:4] = [np.nan, np.inf, -np.inf, -0.0]
    return x


@pytest.mark.parametrize("fmt", list(BITS))
def test_pack_follows_the_layout(fmt):
    bits = BITS[fmt]
    for n in COUNTS:
        codes = RNG.integers(0, 256, n).astype(np.uint8)  # the bits above are ignored
        packed = mf.pack(codes, fmt)
        assert packed.dtype == np.uint8 and np.array_equal(packed, layout(codes, bits)), n
        back = mf.unpack(packed, fmt, n, dtype=np.uint8)
        assert np.array_equal(back, codes & ((1 << bits) - 1)), n


@pytest.mark.parametrize("fmt", list(BITS))
@pytest.mark.parametrize("options,args", [
    ({}, []),
    ({"saturate": True}, ["--saturate"]),
    ({"rounding": "toward_zero"}, ["--round", "toward-zero"]),
    ({"rounding": "stochastic", "seed": 5, "random_bits": 8},
     ["--round", "stochastic", "--seed", "5", "--random-bits", "8"]),
])
def test_encode_packed_equals_the_tool(cli, fmt, options, args):
    x = data(3001)
    want = layout(cli.encode(fmt, x, args).astype(np.uint8), BITS[fmt])
    assert np.array_equal(mf.encode_packed(x, fmt, **options), want)


@pytest.mark.parametrize("fmt", list(BITS))
def test_decode_packed_equals_the_tool(cli, fmt):
    codes = np.arange(1 << BITS[fmt], dtype=np.uint8)
    codes = np.concatenate([codes, RNG.integers(0, 1 << BITS[fmt], 1500).astype(np.uint8)])
    y = mf.decode_packed(layout(codes, BITS[fmt]), fmt, (codes.size,))
    assert np.array_equal(y, cli.decode(fmt, codes), equal_nan=True)


def test_shapes_offsets_and_typed_arrays(ml_dtypes):
    x = data(6 * 7).reshape(6, 7)
    whole = mf.encode_packed(x, "e2m1fn", rounding="stochastic", seed=9, offset=3)
    codes = mf.encode(x, "e2m1fn", rounding="stochastic", seed=9, offset=3)
    assert codes.dtype == ml_dtypes.float4_e2m1fn
    assert np.array_equal(whole, mf.pack(codes))  # the dtype names the format
    back = mf.unpack(whole, "e2m1fn", (6, 7))
    assert back.dtype == ml_dtypes.float4_e2m1fn and back.shape == (6, 7)
    assert np.array_equal(back.view(np.uint8), codes.view(np.uint8))
    y = np.empty((6, 7), np.float32)
    assert mf.decode_packed(whole, "e2m1fn", (6, 7), out=y) is y
    assert np.array_equal(y, mf.decode(codes), equal_nan=True)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="fmt: e4m3fn has 8-bit codes"):
        mf.pack(np.zeros(4, np.uint8), "e4m3fn")
    with pytest.raises(ValueError, match="fmt: unknown format"):
        mf.encode_packed(np.zeros(4, np.float32), "e2m2")
    with pytest.raises(ValueError, match="packed: 2 bytes; 5 codes of 6 bits take 4"):
        mf.decode_packed(np.zeros(2, np.uint8), "e2m3fn", 5)
    with pytest.raises(TypeError, match="packed: dtype int8"):
        mf.unpack(np.zeros(2, np.int8), "e2m1fn", 4)
    with pytest.raises(TypeError, match="x: dtype float64"):
        mf.encode_packed(np.zeros(4), "e2m1fn")
    with pytest.raises(TypeError, match="fmt: required"):
        mf.pack(np.zeros(4, np.uint8))
    with pytest.raises(ValueError, match="shape"):
        mf.unpack(np.zeros(2, np.uint8), "e2m1fn", (-1, 4))
    with pytest.raises(ValueError, match="shape: .* holds 2\\*\\*63 elements or more"):
        mf.unpack(np.zeros(2, np.uint8), "e2m1fn", (0, 2**70))
    out = np.full(3, 7, np.uint8)
    with pytest.raises(ValueError, match="out: shape"):
        mf.encode_packed(np.zeros(8, np.float32), "e2m1fn", out=out)
    with pytest.raises(ValueError, match="seed: .* does not fit 64 bits"):
        mf.encode_packed(np.zeros(6, np.float32), "e2m1fn", rounding="stochastic",
                         seed=-1, out=out)
    assert (out == 7).all()
