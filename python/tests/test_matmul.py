"""minifloat.matmul against the command-line tool's `matmul` (the same C++
models, read through hex text): random codes over every finite value of each
type (wide-range data, so the models' summation orders show), every model,
scales, bias, saturation, the integer MatMul, and the errors."""

import math

import numpy as np
import pytest

import minifloat as mf

RNG = np.random.default_rng(2026)
FLOAT_TYPES = {"HF8": (np.uint8, 8), "BF8": (np.uint8, 8), "FP16": (np.uint16, 16),
               "BF16": (np.uint16, 16)}


def finite_codes(t, shape):
    dtype, bits = FLOAT_TYPES[t]
    codes = RNG.integers(0, 1 << bits, size=shape, dtype=np.uint32).astype(dtype)
    fmt = {"HF8": "e4m3fn", "BF8": "e5m2", "FP16": "binary16", "BF16": "bfloat16"}[t]
    values = mf.decode(codes, fmt)
    bad = ~np.isfinite(values)
    codes[bad] = 0  # zeros instead of Inf/NaN: finite data
    return codes


def tool_matmul(cli, a, b, a_type, b_type, out_type, args):
    m, k = a.shape
    n = b.shape[1]
    lines = [f"{m} {k} {n}", " ".join(f"{x:x}" for x in a.ravel().tolist()),
             " ".join(f"{x:x}" for x in b.ravel().tolist())]
    out = cli.run(["matmul", "--a", a_type, "--b", b_type, "--out", out_type, *args], lines)
    words = [w for line in out.splitlines() if line and not line.startswith("#")
             for w in line.split()]
    return np.array([int(w, 16) for w in words], dtype=np.uint64).reshape(m, n)


def as_codes(c):
    c = np.asarray(c)
    if c.dtype == np.float32:
        return c.view(np.uint32).astype(np.uint64)
    return c.view(np.uint8 if c.dtype.itemsize == 1 else np.uint16).astype(np.uint64)


MODELS = [
    ("sequential_fp32", {}, []),
    ("exact", {}, []),
    ("exact_to_output", {}, []),
    ("amx_tile_pairs", {}, []),
    ("amx_tile_pairs", {"chunk": 6, "order": "guide"}, ["--chunk", "6", "--order", "guide"]),
    ("chunked_exact", {"chunk": 5}, ["--chunk", "5"]),
    ("chunked_exact", {"chunk_rounding": "toward_zero", "presum_round": True},
     ["--chunk-rounding", "rtz", "--presum-round"]),
    ("reduced_precision", {"bits": 13, "promote_every": 32, "variant": "block", "block": 16},
     ["--bits", "13", "--promote-every", "32", "--variant", "block", "--block", "16"]),
]


@pytest.mark.parametrize("model,kwargs,args", MODELS, ids=[m[0] + str(i) for i, m in enumerate(MODELS)])
@pytest.mark.parametrize("types", [("HF8", "HF8", "FP32"), ("BF8", "HF8", "HF8"),
                                   ("BF16", "HF8", "BF16"), ("FP16", "BF8", "FP16")])
def test_models_equal_the_tool(cli, model, kwargs, args, types):
    ta, tb, tc = types
    if model == "amx_tile_pairs" and {ta, tb} == {"BF16", "FP16"}:
        pytest.skip("no AMX instruction multiplies BF16 by FP16")
    for trial in range(6):
        m, k, n = RNG.integers(1, 9), int(RNG.integers(1, 81)), RNG.integers(1, 40)
        a, b = finite_codes(ta, (m, k)), finite_codes(tb, (k, n))
        c = mf.matmul(a, b, tc, a_type=ta, b_type=tb, model=model, threads=1 + trial % 2,
                      **kwargs)
        want = tool_matmul(cli, a, b, ta, tb, tc, ["--table", "any", "--model", model, *args])
        assert np.array_equal(as_codes(c), want), (model, types, trial)


def test_scales_bias_and_saturation_equal_the_tool(cli):
    m, k, n = 5, 32, 7
    a, b = finite_codes("HF8", (m, k)), finite_codes("HF8", (k, n))
    rows = RNG.uniform(0.5, 2, m).astype(np.float32)
    bias = RNG.normal(size=n).astype(np.float32)
    c = mf.matmul(a, b, "HF8", a_type="HF8", b_type="HF8", scale_a=rows, scale_b=0.75,
                  bias=bias, scale_out=3.0, scale_rule="divide", saturate=True)
    fmt = lambda v: ",".join(f"0x{x:08x}" for x in np.asarray(v, np.float32).view(np.uint32))
    want = tool_matmul(cli, a, b, "HF8", "HF8", "HF8",
                       ["--table", "any", "--scale-a-rows", fmt(rows), "--scale-b", "0.75",
                        "--bias", fmt(bias), "--output-scale", "3", "--output-scale-rule",
                        "divide", "--saturate"])
    assert np.array_equal(as_codes(c), want)


@pytest.mark.parametrize("out_type", ["HF8", "BF16"])
def test_stochastic_output_equals_the_tool(cli, out_type):
    # Element (i, j) of C draws element offset + i * N + j of the seeded
    # stream (mf::hybrid::output_conversion), as the tool's --round stochastic.
    m, k, n = 5, 32, 7
    # Sums within the output's range (wide-range codes would saturate most
    # of C), so that the rounding has something to decide.
    a = mf.encode(RNG.normal(size=(m, k)).astype(np.float32), "e5m2", dtype=np.uint8)
    b = mf.encode(RNG.normal(size=(k, n)).astype(np.float32), "e4m3fn", dtype=np.uint8)
    for seed, offset, bits in ((3, 0, None), (2**64 - 1, 1000, 7)):
        c = mf.matmul(a, b, out_type, a_type="BF8", b_type="HF8", saturate=True,
                      rounding="stochastic", seed=seed, offset=offset, random_bits=bits)
        args = ["--table", "any", "--saturate", "--round", "stochastic", "--seed", str(seed),
                "--offset", str(offset)] + ([] if bits is None else ["--random-bits", str(bits)])
        assert np.array_equal(as_codes(c), tool_matmul(cli, a, b, "BF8", "HF8", out_type, args))
    nearest = mf.matmul(a, b, out_type, a_type="BF8", b_type="HF8", saturate=True)
    assert not np.array_equal(as_codes(c), as_codes(nearest))  # the seed moved some elements
    with pytest.raises(ValueError, match="rounding: stochastic needs an FP8 or 16-bit output"):
        mf.matmul(a, b, "FP32", a_type="BF8", b_type="HF8", rounding="stochastic", seed=1)
    with pytest.raises(ValueError, match="rounding: 'toward_zero'"):
        mf.matmul(a, b, out_type, a_type="BF8", b_type="HF8", rounding="toward_zero")
    with pytest.raises(ValueError, match="seed: used only with rounding='stochastic'"):
        mf.matmul(a, b, out_type, a_type="BF8", b_type="HF8", seed=1)
    i8 = np.zeros((2, 16), np.int8)
    with pytest.raises(ValueError, match="rounding: not used for the integer MatMul"):
        mf.matmul(i8, i8.T.copy(), "I8", rounding="stochastic", seed=1)
    # The float MatMul's scales would be ignored: rejected (integer_scale is its one).
    with pytest.raises(ValueError, match="integer MatMul: its one scale is integer_scale"):
        mf.matmul(i8, i8.T.copy(), "I8", scale_a=2.0)


@pytest.mark.parametrize("requant", ["exact", "fp32"])
@pytest.mark.parametrize("dtype", [np.int8, np.uint8])
def test_integer_matmul(dtype, requant, cli):
    m, k, n = 6, 48, 21
    info = np.iinfo(dtype)
    a = RNG.integers(info.min, info.max + 1, size=(m, k)).astype(dtype)
    b = RNG.integers(info.min, info.max + 1, size=(k, n)).astype(dtype)
    r = mf.matmul(a, b, "I8" if dtype == np.int8 else "U8", integer_scale=2.0 ** -12,
                  requant=requant, accumulator=True, threads=2)
    sums = (a.astype(np.int64) @ b.astype(np.int64))
    assert np.array_equal(r.accumulator, ((sums + 2**31) % 2**32 - 2**31).astype(np.int32))
    assert r.amax is None and r.c.dtype == dtype
    t = "I8" if dtype == np.int8 else "U8"
    want = tool_matmul(cli, a.view(np.uint8), b.view(np.uint8), t, t, t,
                       ["--int-scale", "0x39800000", "--requant", requant])
    assert np.array_equal(as_codes(r.c), want)


def test_typed_arrays_name_their_types(ml_dtypes):
    a = np.array([[1.0, 2.0]], dtype=ml_dtypes.float8_e4m3fn)
    b = np.array([[0.5], [0.25]], dtype=ml_dtypes.float8_e4m3fn)
    c = mf.matmul(a, b, "FP32", table="any")
    assert c.dtype == np.float32 and c[0, 0] == 1.0
    r = mf.matmul(a, b, "BF16", table="cublaslt_fp8", check_z=False, full=True)
    assert r.c.dtype == ml_dtypes.bfloat16 and float(r.c[0, 0]) == 1.0 and r.amax == 1.0
    # The types may be named by the dtypes that hold them.
    assert mf.matmul(a, b, np.float32, table="any").dtype == np.float32
    c = mf.matmul(a.view(np.uint8), b.view(np.uint8), ml_dtypes.bfloat16, table="any",
                  a_type=ml_dtypes.float8_e4m3fn, b_type=np.dtype(ml_dtypes.float8_e4m3fn))
    assert c.dtype == ml_dtypes.bfloat16 and float(c[0, 0]) == 1.0


def test_names_are_read_as_the_tool_reads_them(cli):
    # Every word matmul takes is read in any case with '-' for '_', and
    # chunk_rounding and trunc take the rounding modes' spellings (the tool's
    # --chunk-rounding rtz, --trunc down), so one vocabulary serves both.
    # 1 + 2^-8 + 2^-30 (BF16): exact_to_output rounds it once to BF16 (up,
    # 0x3f81), exact to FP32 first (1 + 2^-8, a tie: even, 0x3f80).
    a = np.array([[0x3F80, 0x3B80, 0x3800]], np.uint16)
    b = np.array([[0x3F80], [0x3F80], [0x3800]], np.uint16)

    def run(**kwargs):
        return as_codes(mf.matmul(a, b, "BF16", a_type="BF16", b_type="BF16", **kwargs))
    assert run(model="Exact-To-Output", table="ANY", placement="Epilogue")[0, 0] == 0x3F81
    assert run(model="EXACT")[0, 0] == 0x3F80
    x, y = finite_codes("HF8", (4, 48)), finite_codes("HF8", (48, 6))
    for model, arg, spellings in (
            ("chunked_exact", "chunk_rounding", ("toward_zero", "rtz", "Toward-Zero")),
            ("reduced_precision", "trunc", ("floor", "down", "TOWARD-NEGATIVE"))):
        got = [as_codes(mf.matmul(x, y, "FP32", a_type="HF8", b_type="HF8", model=model,
                                  **{arg: name})) for name in spellings]
        tool_arg = "--chunk-rounding" if arg == "chunk_rounding" else "--trunc"
        want = tool_matmul(cli, x, y, "HF8", "HF8", "FP32",
                           ["--table", "any", "--model", model, tool_arg, spellings[1]])
        for g in got:
            assert np.array_equal(g, want), (model, arg)
        plain = as_codes(mf.matmul(x, y, "FP32", a_type="HF8", b_type="HF8", model=model))
        assert not np.array_equal(plain, want), (model, arg)  # the data tells the modes apart
    with pytest.raises(ValueError, match=r"trunc: 'up' is not a mode of this model; accepted: "
                                         r"toward_zero \(rtz\), toward_negative \(down, floor\)"):
        mf.matmul(x, y, "FP32", a_type="HF8", b_type="HF8", model="reduced_precision",
                  trunc="up")


@pytest.mark.parametrize("model,kwargs,args", [
    ("avx512_bf16_pairs", {}, []),
    ("amx_tile_pairs", {"chunk": 6, "order": "guide"}, ["--chunk", "6", "--order", "guide"])])
def test_nan_payload_propagate_equals_the_tool(cli, model, kwargs, args):
    # BF16 codes, one in eight a NaN of random payload, sign and kind: with
    # nan_payload="propagate" C (FP32) holds the instructions' NaN bits, the
    # tool's too; the default gives every NaN as 0x7fc00000.
    m, k, n = 6, 40, 9
    a, b = finite_codes("BF16", (m, k)), finite_codes("BF16", (k, n))
    for x in (a, b):
        nan = RNG.random(x.shape) < 0.125
        payload = RNG.integers(1, 128, x.shape) | (RNG.integers(0, 2, x.shape) << 15)
        x[nan] = (0x7F80 | payload[nan]).astype(np.uint16)
    c = mf.matmul(a, b, "FP32", a_type="BF16", b_type="BF16", model=model,
                  nan_payload="propagate", **kwargs)
    want = tool_matmul(cli, a, b, "BF16", "BF16", "FP32",
                       ["--table", "any", "--model", model, "--nan-payload", "propagate", *args])
    got = as_codes(c)
    assert np.array_equal(got, want)
    nans = np.isnan(c)
    assert nans.any() and len(set(got[nans].tolist())) > 3  # payloads, not one NaN
    plain = as_codes(mf.matmul(a, b, "FP32", a_type="BF16", b_type="BF16", model=model,
                               **kwargs))
    assert set(plain[nans].tolist()) == {0x7FC00000}
    with pytest.raises(ValueError, match="nan_payload: model 'exact' has no such parameter"):
        mf.matmul(a, b, "FP32", a_type="BF16", b_type="BF16", model="exact",
                  nan_payload="propagate")
    with pytest.raises(ValueError, match="nan_payload"):
        mf.matmul(a, b, "FP32", a_type="BF16", b_type="BF16", model=model, nan_payload="keep",
                  **kwargs)


def test_element_types_take_every_spelling_of_the_registry(cli):
    # The element types are read through the format registry, as the tool
    # reads --a/--b/--out: every alias of a format, in any case.
    x, y = finite_codes("HF8", (2, 16)), finite_codes("BF8", (16, 3))
    want = tool_matmul(cli, x, y, "f8E4M3FN", "float8e5m2", "binary32", ["--table", "any"])
    assert np.array_equal(as_codes(mf.matmul(x, y, "FP32", a_type="HF8", b_type="BF8")), want)
    for a_name in ("e4m3fn", *mf.info("e4m3fn").aliases):
        for b_name in ("e5m2", *mf.info("e5m2").aliases):
            for out_name in ("float", "binary32", "F32"):
                got = mf.matmul(x, y, out_name, a_type=a_name.upper(), b_type=b_name.lower())
                assert np.array_equal(as_codes(got), want), (a_name, b_name, out_name)
    with pytest.raises(ValueError, match="a_type"):
        mf.matmul(x, y, "FP32", a_type="e4m3fnuz", b_type="BF8")  # a format the unit does not take


def test_errors_name_the_argument():
    a = np.zeros((2, 16), np.uint8)
    with pytest.raises(ValueError, match="inner dimensions"):
        mf.matmul(a, np.zeros((8, 3), np.uint8), "FP32", a_type="HF8", b_type="HF8")
    with pytest.raises(ValueError, match="model"):
        mf.matmul(a, np.zeros((16, 3), np.uint8), "FP32", a_type="HF8", b_type="HF8",
                  model="fastest")
    with pytest.raises(ValueError, match="out_type"):
        mf.matmul(a, np.zeros((16, 3), np.uint8), "FP64", a_type="HF8", b_type="HF8")
    with pytest.raises(ValueError, match="out_type: <class 'numpy.float64'>"):
        mf.matmul(a, np.zeros((16, 3), np.uint8), np.float64, a_type="HF8", b_type="HF8")
    with pytest.raises(ValueError, match="scale_a"):
        mf.matmul(a, np.zeros((16, 3), np.uint8), "FP32", a_type="HF8", b_type="HF8",
                  scale_a=[1.0, 2.0, 3.0])
    with pytest.raises(ValueError, match="vendor_hybrid_fp8"):  # the table rejects the types
        mf.matmul(a, np.zeros((16, 3), np.uint8), "BF16", a_type="HF8", b_type="HF8",
                  table="vendor_hybrid_fp8")
    with pytest.raises(TypeError, match="a_type"):
        mf.matmul(np.zeros((2, 16), np.uint16), np.zeros((16, 3), np.uint8), "FP32")
    b = np.zeros((16, 3), np.uint8)
    # A parameter of another model would be ignored without a word.
    with pytest.raises(ValueError, match="promote_every: model 'sequential_fp32' has no such"):
        mf.matmul(a, b, "FP32", a_type="HF8", b_type="HF8", promote_every=64)
    with pytest.raises(ValueError, match="order: model 'chunked_exact' has no such"):
        mf.matmul(a, b, "FP32", a_type="HF8", b_type="HF8", model="chunked_exact",
                  order="guide")
    for threads in (0, -1, 2**40):
        with pytest.raises(ValueError, match="threads"):
            mf.matmul(a, b, "FP32", a_type="HF8", b_type="HF8", threads=threads)
    # Model parameters are C ints: past that range, or a bool, is named.
    for arg, model in (("chunk", "chunked_exact"), ("chunk", "amx_tile_pairs"),
                       ("bits", "reduced_precision"), ("promote_every", "reduced_precision"),
                       ("block", "reduced_precision")):
        with pytest.raises(ValueError, match=rf"{arg}: 2147483648 is outside the accepted range"):
            mf.matmul(a, b, "FP32", a_type="HF8", b_type="HF8", model=model, **{arg: 2**31})
        with pytest.raises(TypeError, match=rf"{arg}: expected an int, got a bool"):
            mf.matmul(a, b, "FP32", a_type="HF8", b_type="HF8", model=model, **{arg: True})
        with pytest.raises(TypeError, match=rf"{arg}: expected an int, got float"):
            mf.matmul(a, b, "FP32", a_type="HF8", b_type="HF8", model=model, **{arg: 1.5})
    # Scales are numbers; a string or a bool is a mistake, not a 2 or a 1.
    for arg, bad in (("scale_a", "2"), ("scale_b", True), ("scale_out", None),
                     ("integer_scale", "1"), ("scale_a", ["1", "2"])):
        with pytest.raises(TypeError, match=arg):
            mf.matmul(a, b, "FP32", a_type="HF8", b_type="HF8", **{arg: bad})


def test_special_scales_are_carried_as_ieee_does():
    # docs/hybrid.md: the epilogue carries a NaN or Inf scale as IEEE 754
    # does; with a zero scale C is a signed zero (the scale's sign times S's).
    a = np.full((1, 16), 0x38, np.uint8)  # HF8 1.0: S = 16
    b = np.full((16, 1), 0x38, np.uint8)
    c = lambda **kw: float(mf.matmul(a, b, "FP32", a_type="HF8", b_type="HF8", **kw)[0, 0])  # noqa: E731
    assert math.isnan(c(scale_b=float("nan")))
    assert c(scale_a=float("inf")) == math.inf
    assert c(scale_a=1e39) == math.inf  # beyond float32's range: Inf once rounded
    z = c(scale_out=-0.0)
    assert z == 0 and math.copysign(1, z) == -1


def test_the_asked_table_decides_on_every_path(cli):
    # FP8 x FP8 runs on the typed entry, the other types on the codes; the
    # table's rules must hold on both.
    a, b = finite_codes("HF8", (3, 8)), finite_codes("HF8", (8, 5))
    with pytest.raises(ValueError, match="multiple of 16"):
        mf.matmul(a, b, "HF8", a_type="HF8", b_type="HF8", table="vendor_hybrid_fp8")
    c = mf.matmul(a, b, "HF8", a_type="HF8", b_type="HF8", table="vendor_hybrid_fp8",
                  check_z=False)
    want = tool_matmul(cli, a, b, "HF8", "HF8", "HF8", ["--no-z-check"])
    assert np.array_equal(as_codes(c), want)
    with pytest.raises(ValueError, match="cublaslt_fp8 does not accept"):
        mf.matmul(a, b, "BF16", a_type="BF8", b_type="BF8", table="cublaslt_fp8",
                  check_z=False)



@pytest.mark.parametrize("types", [("HF8", "BF8", "BF8"), ("BF16", "HF8", "BF16")])
def test_amax_and_accumulators_equal_the_tool(cli, types):
    ta, tb, tc = types  # the typed entry (FP8 x FP8) and the codes
    a, b = finite_codes(ta, (4, 32)), finite_codes(tb, (32, 5))
    r = mf.matmul(a, b, tc, a_type=ta, b_type=tb, scale_out=0.25, accumulator=True)
    m, k, n = 4, 32, 5
    lines = [f"{m} {k} {n}", " ".join(f"{x:x}" for x in a.ravel().tolist()),
             " ".join(f"{x:x}" for x in b.ravel().tolist())]
    out = cli.run(["matmul", "--a", ta, "--b", tb, "--out", tc, "--table", "any",
                   "--output-scale", "0.25", "--output-scale-rule", "multiply", "--amax",
                   "--print-acc"], lines).splitlines()
    c = [w for line in out if not line.startswith("#") for w in line.split()]
    assert np.array_equal(as_codes(r.c).ravel(), [int(w, 16) for w in c])
    amax = [line.split()[-1] for line in out if line.startswith("# amax:")]
    assert np.float32(r.amax).view(np.uint32) == int(amax[0], 16)
    acc = out[out.index("# acc_fp32") + 1:]
    want = np.array([int(w, 16) for line in acc for w in line[1:].split()], np.uint32)
    assert np.array_equal(r.accumulator.view(np.uint32).ravel(), want)


def test_out_is_written_in_place_and_untouched_on_error(ml_dtypes):
    a, b = finite_codes("HF8", (4, 32)), finite_codes("HF8", (32, 6))
    for tc, dtypes in (("FP32", [np.float32]), ("BF16", [np.uint16, ml_dtypes.bfloat16]),
                       ("HF8", [np.uint8, ml_dtypes.float8_e4m3fn])):
        want = as_codes(mf.matmul(a, b, tc, a_type="HF8", b_type="HF8"))
        for dtype in dtypes:
            out = np.empty((4, 6), dtype)
            c = mf.matmul(a, b, tc, a_type="HF8", b_type="HF8", out=out)
            assert c is out and np.array_equal(as_codes(out), want), (tc, dtype)
    out = np.full((4, 6), 7, np.uint8)
    with pytest.raises(ValueError, match="vendor_hybrid_fp8 does not accept"):
        mf.matmul(a, b, "BF8", a_type="HF8", b_type="HF8", table="vendor_hybrid_fp8", out=out)
    with pytest.raises(TypeError, match="out: dtype float32"):
        mf.matmul(a, b, "HF8", a_type="HF8", b_type="HF8", out=np.zeros((4, 6), np.float32))
    with pytest.raises(ValueError, match="out: shape"):
        mf.matmul(a, b, "HF8", a_type="HF8", b_type="HF8", out=np.zeros((6, 4), np.uint8))
    assert (out == 7).all()


def nonzero_finite_codes(t, shape):
    codes = finite_codes(t, shape)
    fmt = {"HF8": "e4m3fn", "BF8": "e5m2", "FP16": "binary16", "BF16": "bfloat16"}[t]
    one = {"HF8": 0x38, "BF8": 0x3C, "FP16": 0x3C00, "BF16": 0x3F80}[t]
    magnitude = np.abs(mf.decode(codes, fmt))
    codes[(magnitude < 2.0**-20) | (magnitude > 2.0**20)] = one  # no zero, no float32 edge
    return codes


def test_operands_placement_scales_each_operand_first():
    # K = 1, so C is one product: with the scales on the operands (docs/hybrid.md)
    # C = RN32(RN32(a * sa_i) * RN32(b * sb_j)); in the epilogue
    # C = RN32(RN32(a * b) * RN32(sa_i * sb_j)). float64 holds every product exactly.
    a, b = nonzero_finite_codes("HF8", (4, 1)), nonzero_finite_codes("HF8", (1, 5))
    sa = RNG.uniform(0.1, 10, 4).astype(np.float32)
    sb = RNG.uniform(0.1, 10, 5).astype(np.float32)
    av = mf.decode(a, "e4m3fn").astype(np.float64)
    bv = mf.decode(b, "e4m3fn").astype(np.float64)
    f32 = lambda v: v.astype(np.float32).astype(np.float64)  # noqa: E731
    operands = (f32(av * sa[:, None]) * f32(bv * sb[None, :])).astype(np.float32)
    epilogue = (f32(av * bv) * f32(sa[:, None].astype(np.float64) * sb)).astype(np.float32)
    assert not np.array_equal(operands, epilogue)  # the data tell the placements apart
    for placement, want in (("operands", operands), ("epilogue", epilogue)):
        c = mf.matmul(a, b, "FP32", a_type="HF8", b_type="HF8", scale_a=sa, scale_b=sb,
                      placement=placement)
        assert np.array_equal(c, want), placement


@pytest.mark.parametrize("canonical, spellings", [
    ("HF8", ["HF8", "hf8", "e4m3fn", "float8_e4m3fn", "E4M3FN"]),
    ("BF8", ["BF8", "bf8", "e5m2", "float8_e5m2", "Float8_E5M2"]),
    ("FP16", ["FP16", "fp16", "f16", "float16", "binary16", "half"]),
    ("BF16", ["BF16", "bf16", "bfloat16"]),
])
def test_element_type_spellings(ml_dtypes, canonical, spellings):
    # K = 1 and FP32 out: C is the exact product of the values the codes
    # stand for in that type (ml_dtypes' / NumPy's reading of them).
    dtype = {"HF8": ml_dtypes.float8_e4m3fn, "BF8": ml_dtypes.float8_e5m2,
             "FP16": np.float16, "BF16": ml_dtypes.bfloat16}[canonical]
    a = nonzero_finite_codes(canonical, (3, 1))
    b = nonzero_finite_codes("HF8", (1, 4))
    want = (a.view(dtype).astype(np.float64) *
            b.view(ml_dtypes.float8_e4m3fn).astype(np.float64)).astype(np.float32)
    for spelling in spellings + [dtype]:
        c = mf.matmul(a, b, "FP32", a_type=spelling, b_type="HF8")
        assert np.array_equal(c, want), spelling
        c = mf.matmul(b.T.copy(), a.T.copy(), "fp32", a_type="hf8", b_type=spelling)
        assert np.array_equal(c, want.T), spelling
