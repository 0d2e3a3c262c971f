"""minifloat.eltwise against the command-line tool's `eltwise` (the same C++
entry, read through hex text): random codes over every encoding of each
type (NaN and Inf included), each operation, B of A's shape, one element or
one per column, scales in FP16 and BF16, both placements, the exact path,
saturation, stochastic output rounding, the integer types, and the errors."""

import numpy as np
import pytest

import minifloat as mf

RNG = np.random.default_rng(3636)
STORAGE = {"HF8": np.uint8, "BF8": np.uint8, "I8": np.uint8, "U8": np.uint8,
           "FP16": np.uint16, "BF16": np.uint16}


def codes(t, shape):
    dtype = STORAGE[t]
    c = RNG.integers(0, np.iinfo(dtype).max + 1, size=shape, dtype=np.uint32).astype(dtype)
    return c.view(np.int8) if t == "I8" else c  # int8 arrays are I8, uint8 ones U8


def as_codes(c):
    c = np.asarray(c)
    if c.dtype == np.float32:
        return c.view(np.uint32).astype(np.uint64)
    return c.view(np.uint8 if c.itemsize == 1 else np.uint16).astype(np.uint64)


def tool_eltwise(cli, a, b, ta, tb, tc, args):
    rows, columns = a.reshape(-1, a.shape[-1]).shape
    shape = "full" if b.shape == a.shape else ("scalar" if b.size == 1 else "row")
    hex_codes = lambda x: " ".join(f"{v:x}" for v in as_codes(x).ravel().tolist())  # noqa: E731
    lines = [f"{rows} {columns}", hex_codes(a), hex_codes(b)]
    out = cli.run(["eltwise", "--a", ta, "--b", tb, "--out", tc, "--b-shape", shape, *args],
                  lines)
    words = [w for line in out.splitlines() if line and not line.startswith("#")
             for w in line.split()]
    return np.array([int(w, 16) for w in words], dtype=np.uint64).reshape(a.shape)


FP16_SCALES = [0.5, 1.25, 3.0, 0.0078125, 96.5, 1.0]

# (a, b, out, python keywords, tool arguments)
CASES = [
    ("HF8", "HF8", "FP16", {}, []),
    ("HF8", "BF8", "HF8", {"saturate": True}, ["--saturate"]),
    ("BF8", "BF8", "FP32", {"exact": True}, ["--exact"]),
    ("HF8", "HF8", "BF16", {"scale_type": "BF16", "a_scale": 1.25, "b_scale": 96.5},
     ["--scale-type", "BF16", "--scale-a", "1.25", "--scale-b", "96.5"]),
    ("BF16", "HF8", "BF16", {"scale_type": "BF16", "b_scale": 0.0078125},
     ["--scale-type", "BF16", "--scale-b", "0.0078125"]),
    ("HF8", "FP16", "HF8", {"a_scale": 3.0, "placement": "operands", "saturate": True},
     ["--scale-type", "FP16", "--scale-a", "3", "--placement", "operands", "--saturate"]),
    ("FP16", "FP16", "FP16", {}, []),
    ("HF8", "HF8", "HF8", {"rounding": "stochastic", "seed": 99, "offset": 7,
                           "random_bits": 8},
     ["--round", "stochastic", "--seed", "99", "--offset", "7", "--random-bits", "8"]),
    ("I8", "I8", "I8", {}, []),
    ("U8", "U8", "U8", {}, []),
]


@pytest.mark.parametrize("op", ["add", "sub", "mul"])
@pytest.mark.parametrize("case", CASES, ids=[f"{c[0]}-{c[1]}-{c[2]}-{i}"
                                             for i, c in enumerate(CASES)])
def test_equals_the_tool(cli, case, op):
    ta, tb, tc, kwargs, args = case
    for trial, b_shape in enumerate(["full", "scalar", "row"]):
        rows, columns = int(RNG.integers(1, 7)), 16 * int(RNG.integers(1, 4))
        a = codes(ta, (rows, columns))
        b = codes(tb, {"full": (rows, columns), "scalar": (1,), "row": (columns,)}[b_shape])
        c = mf.eltwise(a, b, tc, op=op, a_type=ta, b_type=tb, **kwargs)
        want = tool_eltwise(cli, a, b, ta, tb, tc, ["--op", op, "--table", "any", *args])
        assert np.array_equal(as_codes(c), want), (op, case, b_shape)
        ref = mf.eltwise(a, b, tc, op=op, a_type=ta, b_type=tb, reference_only=True, **kwargs)
        assert np.array_equal(as_codes(ref), want), (op, case, b_shape, "reference_only")


def test_vendor_table_and_shapes_of_more_axes(cli, ml_dtypes):
    a = codes("HF8", (2, 3, 32)).view(ml_dtypes.float8_e4m3fn)
    b = codes("HF8", (32,)).view(ml_dtypes.float8_e4m3fn)
    c = mf.eltwise(a, b, "FP16", op="mul", table="vendor_hybrid_fp8")
    assert c.dtype == np.float16 and c.shape == (2, 3, 32)
    want = tool_eltwise(cli, a.view(np.uint8).reshape(6, 32), b.view(np.uint8), "HF8", "HF8",
                        "FP16", ["--op", "mul"])
    assert np.array_equal(as_codes(c).reshape(6, 32), want)
    r = mf.eltwise(np.array([100, -100], np.int8), np.array([100], np.int8), "I8")
    assert r.dtype == np.int8 and r.tolist() == [127, 0]  # saturated to the type
    # HF8 op BF16 unscaled: no scale, so no scale_type to match BF16.
    h = np.full(16, 0x3C, np.uint8)  # HF8 1.5
    f = np.full(16, 0x3E80, np.uint16)  # BF16 0.25
    s = mf.eltwise(h, f, "BF16", a_type="HF8", b_type="BF16")
    assert as_codes(s).tolist() == [0x3FE0] * 16  # BF16 1.75


def test_errors_name_the_argument():
    a = np.zeros((2, 16), np.uint8)
    with pytest.raises(ValueError, match="op"):
        mf.eltwise(a, a, "FP16", op="div", a_type="HF8", b_type="HF8")
    with pytest.raises(ValueError, match="b: shape"):
        mf.eltwise(a, np.zeros((2, 8), np.uint8), "FP16", a_type="HF8", b_type="HF8")
    with pytest.raises(ValueError, match="vendor_hybrid_fp8 does not accept"):
        mf.eltwise(a, a, "HF8", a_type="HF8", b_type="HF8", table="vendor_hybrid_fp8")
    with pytest.raises(ValueError, match="multiple of 16"):
        mf.eltwise(np.zeros((2, 8), np.uint8), np.zeros(8, np.uint8), "FP16", a_type="HF8",
                   b_type="HF8", table="vendor_hybrid_fp8")
    with pytest.raises(ValueError, match="scale is not a FP16 value"):
        mf.eltwise(a, a, "FP16", a_type="HF8", b_type="HF8", a_scale=0.1)
    with pytest.raises(ValueError, match="a_scale: 0"):
        mf.eltwise(a, a, "FP16", a_type="HF8", b_type="HF8", a_scale=0.0)
    with pytest.raises(ValueError, match="takes no scale"):
        mf.eltwise(np.zeros((2, 16), np.uint16), a, "FP16", a_type="FP16", b_type="HF8",
                   a_scale=2.0)
    with pytest.raises(ValueError, match="scale_type"):
        mf.eltwise(a, a, "FP16", a_type="HF8", b_type="HF8", scale_type="FP32")
    with pytest.raises(ValueError, match="saturate: not used for integer"):
        mf.eltwise(a.view(np.int8), a.view(np.int8), "I8", saturate=True)
    with pytest.raises(ValueError, match="rounding"):
        mf.eltwise(a, a, "FP16", a_type="HF8", b_type="HF8", rounding="toward_zero")
    with pytest.raises(ValueError, match="seed: .* does not fit 64 bits"):
        mf.eltwise(a, a, "FP16", a_type="HF8", b_type="HF8", rounding="stochastic",
                   seed=2**64)
    with pytest.raises(ValueError, match="stochastic output rounding needs an FP8 or 16-bit"):
        mf.eltwise(a.view(np.uint16), a.view(np.uint16), "FP32", a_type="FP16",
                   b_type="FP16", table="any", rounding="stochastic", seed=1)
    with pytest.raises(ValueError, match="b: shape"):
        mf.eltwise(np.zeros((0, 16), np.uint8), a, "FP16", a_type="HF8", b_type="HF8")
    with pytest.raises(TypeError, match="a_type"):
        mf.eltwise(np.zeros((2, 16), np.uint16), a, "FP16", b_type="HF8")


def test_empty_arrays_give_empty_results(ml_dtypes):
    # As NumPy's ufuncs: an empty a is no error; b and the options are still checked.
    for shape, b in (((0, 16), np.zeros(16, np.uint8)), ((3, 0), np.zeros((3, 0), np.uint8)),
                     ((2, 0, 4), np.zeros(1, np.uint8))):
        c = mf.eltwise(np.zeros(shape, np.uint8), b, "BF16", a_type="HF8", b_type="HF8")
        assert c.shape == shape and c.dtype == ml_dtypes.bfloat16
    out = np.empty((0, 16), np.uint8)
    assert mf.eltwise(np.zeros((0, 16), np.uint8), np.zeros(16, np.uint8), "HF8", a_type="HF8",
                      b_type="HF8", out=out) is out
    with pytest.raises(ValueError, match="multiple of 16"):
        mf.eltwise(np.zeros((0, 8), np.uint8), np.zeros(8, np.uint8), "FP16", a_type="HF8",
                   b_type="HF8", table="vendor_hybrid_fp8")


def test_an_integer_beside_a_float_takes_the_float_rule(ml_dtypes):
    # The any table: I8 or U8 beside an FP8 or 16-bit tensor, a float output; the float
    # tensor keeps its scale and the output its rounding options.
    a = np.array([[3, -3, 100, -128]], np.int8)
    b = np.array([1.0, 0.75, 448.0, 1.0], ml_dtypes.float8_e4m3fn)
    c = mf.eltwise(a, b, "FP16", check_z=False)
    assert c.astype(np.float64).tolist() == [[4.0, -2.25, 548.0, -127.0]]
    assert mf.eltwise(b, a[0], "FP16", check_z=False).tolist() == c[0].tolist()
    c = mf.eltwise(a, b, "FP16", b_scale=2.0, saturate=True, check_z=False)
    assert c.astype(np.float64).tolist() == [[5.0, -1.5, 996.0, -126.0]]
    with pytest.raises(ValueError, match="takes no scale"):
        mf.eltwise(a, b, "FP16", a_scale=2.0, check_z=False)


def test_out_is_written_in_place_and_untouched_on_error(ml_dtypes):
    a, b = codes("HF8", (3, 16)), codes("HF8", (16,))
    want = as_codes(mf.eltwise(a, b, "FP16", a_type="HF8", b_type="HF8"))
    for dtype in (np.uint16, np.float16):
        out = np.empty((3, 16), dtype)
        assert mf.eltwise(a, b, "FP16", a_type="HF8", b_type="HF8", out=out) is out
        assert np.array_equal(as_codes(out), want)
    i8 = codes("I8", (2, 16))
    out = np.empty((2, 16), np.int8)
    assert mf.eltwise(i8, i8, "I8", op="mul", out=out) is out
    assert np.array_equal(out, mf.eltwise(i8, i8, "I8", op="mul"))
    out = np.full((3, 16), 9, np.uint8)
    with pytest.raises(ValueError, match="vendor_hybrid_fp8 does not accept"):
        mf.eltwise(a, b, "HF8", a_type="HF8", b_type="HF8", table="vendor_hybrid_fp8", out=out)
    with pytest.raises(ValueError, match="out: overlaps the input"):
        mf.eltwise(a, b, "HF8", a_type="HF8", b_type="HF8", out=a)
    assert (out == 9).all()


def test_exact_rounds_once_from_the_exact_sum(ml_dtypes):
    # 272 lies halfway between the HF8 values 256 and 288; 272 + 2^-16 needs
    # 25 bits. Through float32 the sum is 272 (ties to even), then 256 (ties
    # to even again); rounded once from the exact sum it is 288.
    a = np.full((2, 16), 272.0, np.float16)
    b = np.array([2.0**-16], ml_dtypes.float8_e5m2)
    exact = mf.eltwise(a, b, "HF8", exact=True)
    assert exact.dtype == ml_dtypes.float8_e4m3fn
    assert np.all(exact.astype(np.float32) == 288.0)
    assert np.all(mf.eltwise(a, b, "HF8").astype(np.float32) == 256.0)
    assert np.all(mf.eltwise(a, -b, "HF8", op="sub", exact=True).astype(np.float32) == 288.0)
