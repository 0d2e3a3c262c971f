"""Stochastic rounding: reproducible by seed, chunkable by offset, equal to
the scalar definition (docs/semantics.md, section 4)."""

import numpy as np
import pytest

import minifloat as mf

FORMATS = ["e4m3fn", "e5m2", "e2m1fn", "e8m0fnu", "bfloat16"]


def data(n=20000, seed=3):
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(n) * 2.0 ** rng.integers(-12, 12, n)).astype(np.float32)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("random_bits", [32, 16, 8, 3])
def test_equals_the_scalar_path(fmt, random_bits, cli):
    x = data(5000)
    got = mf.encode(x, fmt, rounding="stochastic", seed=12345, random_bits=random_bits,
                    dtype=mf.info(fmt).codes_dtype)
    # The tool rounds line i with stochastic_random_bits(seed, i, B).
    want = cli.encode(fmt, x, ["--round", "stochastic", "--seed", "12345", "--random-bits",
                               str(random_bits)])
    assert np.array_equal(got, want)


@pytest.mark.parametrize("random_bits", [None, 16, 8, 1])
def test_same_seed_same_bits(random_bits):
    x = data()
    a = mf.encode(x, "e4m3fn", rounding="stochastic", seed=2**64 - 1, random_bits=random_bits)
    b = mf.encode(x, "e4m3fn", rounding="stochastic", seed=2**64 - 1, random_bits=random_bits)
    c = mf.encode(x, "e4m3fn", rounding="stochastic", seed=7, random_bits=random_bits)
    assert np.array_equal(a.view(np.uint8), b.view(np.uint8))
    assert not np.array_equal(a.view(np.uint8), c.view(np.uint8))


@pytest.mark.parametrize("random_bits", [32, 16, 8, 5])
@pytest.mark.parametrize("start", [1, 3, 17, 64, 1001, 19999])
def test_a_slice_with_its_offset_is_that_slice_of_the_whole(random_bits, start):
    x = data()
    whole = mf.encode(x, "e5m2", rounding="stochastic", seed=99, random_bits=random_bits,
                      dtype=np.uint8)
    part = mf.encode(x[start:], "e5m2", rounding="stochastic", seed=99, offset=start,
                     random_bits=random_bits, dtype=np.uint8)
    assert np.array_equal(part, whole[start:])
    # And a middle piece, with a scale and saturation.
    kw = dict(rounding="stochastic", seed=5, random_bits=random_bits, scale=0.5, saturate=True,
              dtype=np.uint8)
    whole = mf.encode(x, "e4m3fn", **kw)
    end = min(start + 333, x.size)
    assert np.array_equal(mf.encode(x[start:end], "e4m3fn", offset=start, **kw),
                          whole[start:end])


def test_float64_source_with_offset():
    x = data().astype(np.float64) / 3
    whole = mf.encode(x, "e4m3fn", rounding="stochastic", seed=1, dtype=np.uint8)
    assert np.array_equal(mf.encode(x[100:], "e4m3fn", rounding="stochastic", seed=1,
                                    offset=100, dtype=np.uint8), whole[100:])


def test_unbiased_on_average():
    # 1 + 0.3 * 2^-3 lies 30 % of the way from 1 to 1.125 in e4m3fn.
    x = np.full(200000, 1 + 0.3 / 8, np.float32)
    mean = mf.decode(mf.encode(x, "e4m3fn", rounding="stochastic", seed=11), "e4m3fn").mean()
    assert abs(mean - (1 + 0.3 / 8)) < 0.002


def test_seed_none_draws_a_fresh_stream():
    x = data()
    a = mf.encode(x, "e4m3fn", rounding="stochastic", dtype=np.uint8)
    b = mf.encode(x, "e4m3fn", rounding="stochastic", dtype=np.uint8)
    assert not np.array_equal(a, b)


def test_random_bits_default_to_32():
    # docs: random_bits 1..32, default 32 (mf::stochastic_default_bits).
    x = data(5000)
    for fmt in ("e4m3fn", "e2m1fn"):
        default = mf.encode(x, fmt, rounding="stochastic", seed=77, dtype=np.uint8)
        assert np.array_equal(default, mf.encode(x, fmt, rounding="stochastic", seed=77,
                                                 random_bits=32, dtype=np.uint8))
        assert not np.array_equal(default, mf.encode(x, fmt, rounding="stochastic", seed=77,
                                                     random_bits=16, dtype=np.uint8))
