"""minifloat.quantize_linear / dequantize_linear / cast against the
command-line tool's `quantize-linear`, `dequantize-linear` and `cast` (the
same mf::onnx operators, read through hex text): every output type,
per-tensor, per-axis and blocked scales, zero points, every scale type and
precision, saturate, opsets, and the errors."""

import numpy as np
import pytest

import minifloat as mf

ml_dtypes = pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed: the ONNX "
                                "tests use its float8 / int4 dtypes")
RNG = np.random.default_rng(2019)
BITS = {"float": 32, "float16": 16, "bfloat16": 16, "float8e8m0": 8, "float8e4m3fn": 8,
        "float8e4m3fnuz": 8, "float8e5m2": 8, "float8e5m2fnuz": 8, "float4e2m1": 4,
        "uint8": 8, "int8": 8, "uint16": 16, "int16": 16, "uint4": 4, "int4": 4}
DTYPE = {"float": np.float32, "float16": np.float16, "bfloat16": ml_dtypes.bfloat16,
         "float8e8m0": ml_dtypes.float8_e8m0fnu, "float8e4m3fn": ml_dtypes.float8_e4m3fn,
         "float8e4m3fnuz": ml_dtypes.float8_e4m3fnuz, "float8e5m2": ml_dtypes.float8_e5m2,
         "float8e5m2fnuz": ml_dtypes.float8_e5m2fnuz, "float4e2m1": ml_dtypes.float4_e2m1fn,
         "uint8": np.uint8, "int8": np.int8, "uint16": np.uint16, "int16": np.int16,
         "uint4": ml_dtypes.uint4, "int4": ml_dtypes.int4}


def codes(a, type_name):
    """One code per element, as the tool prints them."""
    a = np.asarray(a)
    bits = BITS[type_name]
    width = {1: np.uint8, 2: np.uint16, 4: np.uint32}[a.dtype.itemsize]
    c = a.view(width).astype(np.uint64).ravel()
    return c & 0xF if bits == 4 else c


def hex_list(a, type_name):
    digits = max(BITS[type_name] // 4, 1)
    return ",".join(f"0x{c:0{digits}x}" for c in codes(a, type_name).tolist())


def tool_codes(text):
    return np.array([int(w, 16) for w in text.split()], dtype=np.uint64)


def shape_text(shape):
    return ",".join(str(d) for d in shape) if len(shape) else "scalar"


def tool_quantize(cli, x, x_type, scale, scale_type, zero=None, axis=1, block_size=0,
                  output_dtype=None, precision=None, saturate=True, opset=None):
    args = ["quantize-linear", "--shape", ",".join(str(d) for d in x.shape), "--x-type", x_type,
            "--scales", hex_list(scale, scale_type), "--scale-type", scale_type,
            "--scale-shape", shape_text(scale.shape), "--axis", str(axis), "--block-size",
            str(block_size)]
    if output_dtype is not None:
        args += ["--output-dtype", output_dtype]
    if precision is not None:
        args += ["--precision", precision]
    if not saturate:
        args += ["--no-saturate"]
    if zero is not None:
        args += ["--zero-point", ",".join(str(int(v)) for v in np.asarray(zero).ravel())]
    if opset is not None:
        args += ["--opset", str(opset)]
    return tool_codes(cli.run(args, [hex_list(x, x_type).replace(",", " ")]))


def wide_values(shape):
    x = RNG.normal(size=shape) * np.exp2(RNG.integers(-6, 10, size=shape))
    x.ravel()[:4] = [np.inf, -np.inf, np.nan, 0.0][:x.size]
    return x.astype(np.float32)


OUTPUTS = ["uint8", "int8", "uint16", "int16", "uint4", "int4", "float8e4m3fn",
           "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "float4e2m1"]


@pytest.mark.parametrize("saturate", [True, False])
@pytest.mark.parametrize("output_dtype", OUTPUTS)
def test_quantize_per_tensor_equals_the_tool(cli, output_dtype, saturate):
    x = wide_values((4, 9))
    x[1] /= 64  # values that round, not only saturate
    scale = np.float32(0.37)
    y = mf.quantize_linear(x, scale, output_dtype=output_dtype, saturate=saturate)
    assert y.dtype == DTYPE[output_dtype] and y.shape == x.shape
    want = tool_quantize(cli, x, "float", np.asarray(scale), "float",
                         output_dtype=output_dtype, saturate=saturate)
    assert np.array_equal(codes(y, output_dtype), want)


@pytest.mark.parametrize("axis", [0, 1, -1])
@pytest.mark.parametrize("output_dtype", ["int8", "uint4", "float8e5m2"])
def test_quantize_per_axis_with_zero_points(cli, axis, output_dtype):
    x = wide_values((3, 4, 5))
    n = x.shape[axis]
    scale = RNG.uniform(0.1, 4, size=n).astype(np.float32)
    zero = None
    if output_dtype == "int8":
        zero = RNG.integers(-20, 20, size=n).astype(np.int8)
    elif output_dtype == "uint4":
        zero = RNG.integers(0, 16, size=n).astype(ml_dtypes.uint4)
    y = mf.quantize_linear(x, scale, zero, axis=axis,
                           output_dtype=None if zero is not None else output_dtype)
    want = tool_quantize(cli, x, "float", scale, "float", zero=zero, axis=axis,
                         output_dtype=output_dtype)
    assert np.array_equal(codes(y, output_dtype), want)


@pytest.mark.parametrize("block_size", [1, 2, 3, 7])
@pytest.mark.parametrize("scale_type", ["float", "float16", "bfloat16", "float8e8m0"])
def test_quantize_blocked_equals_the_tool(cli, block_size, scale_type):
    x = wide_values((4, 7))
    blocks = -(-7 // block_size)
    scale = RNG.uniform(0.05, 8, size=(4, blocks)).astype(DTYPE[scale_type])
    y = mf.quantize_linear(x, scale, axis=1, block_size=block_size,
                           output_dtype="float8e4m3fn")
    want = tool_quantize(cli, x, "float", scale, scale_type, axis=1, block_size=block_size,
                         output_dtype="float8e4m3fn")
    assert np.array_equal(codes(y, "float8e4m3fn"), want)


@pytest.mark.parametrize("precision", ["float", "float16", "bfloat16"])
@pytest.mark.parametrize("x_type", ["float", "float16", "bfloat16"])
def test_quantize_x_types_and_precision(cli, x_type, precision):
    x = wide_values((2, 16)).astype(DTYPE[x_type])
    scale = np.asarray(0.0123, DTYPE[x_type])
    y = mf.quantize_linear(x, scale, precision=precision, output_dtype="int16")
    want = tool_quantize(cli, x, x_type, scale, x_type, precision=precision,
                         output_dtype="int16")
    assert np.array_equal(codes(y, "int16"), want)


@pytest.mark.parametrize("opset", [19, 21, 23, 28])
def test_quantize_opsets(cli, opset):
    """Below opset 24 saturating +-Inf into the FNUZ types is NaN."""
    x = wide_values((2, 8))
    scale = np.float32(0.5)
    zero = np.zeros((), ml_dtypes.float8_e4m3fnuz)  # the output type before output_dtype
    y = mf.quantize_linear(x, scale, zero, opset=opset)
    want = tool_quantize(cli, x, "float", np.asarray(scale), "float", zero=[0],
                         output_dtype="float8e4m3fnuz", opset=opset)
    assert np.array_equal(codes(y, "float8e4m3fnuz"), want)


def tool_dequantize(cli, x, x_type, scale, scale_type, zero=None, axis=1, block_size=0,
                    output_dtype=None):
    args = ["dequantize-linear", "--shape", ",".join(str(d) for d in x.shape), "--x-type",
            x_type, "--scales", hex_list(scale, scale_type), "--scale-type", scale_type,
            "--scale-shape", shape_text(scale.shape), "--axis", str(axis), "--block-size",
            str(block_size)]
    if output_dtype is not None:
        args += ["--output-dtype", output_dtype]
    if zero is not None:
        args += ["--zero-point", ",".join(str(int(v)) for v in np.asarray(zero).ravel())]
    return tool_codes(cli.run(args, [hex_list(x, x_type).replace(",", " ")]))


def random_codes(type_name, shape):
    bits = BITS[type_name]
    c = RNG.integers(0, 1 << bits, size=shape).astype(np.uint16 if bits == 16 else np.uint8)
    if type_name in ("int4", "uint4"):
        values = c.astype(np.int16)
        if type_name == "int4":
            values = np.where(values >= 8, values - 16, values)
        return values.astype(DTYPE[type_name])
    return c.view(DTYPE[type_name])


INPUTS = ["uint8", "int8", "uint16", "int16", "uint4", "int4", "float8e4m3fn",
          "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz", "float4e2m1"]


@pytest.mark.parametrize("output_dtype", [None, "float16", "bfloat16"])
@pytest.mark.parametrize("x_type", INPUTS)
def test_dequantize_equals_the_tool(cli, x_type, output_dtype):
    x = random_codes(x_type, (3, 10))
    scale = RNG.uniform(0.01, 3, size=3).astype(np.float32)
    zero = None
    if x_type in ("int8", "uint8", "int16", "uint16", "int4", "uint4"):
        zero = random_codes(x_type, (3,))
    y = mf.dequantize_linear(x, scale, zero, axis=0, output_dtype=output_dtype)
    out_type = output_dtype or "float"
    assert y.dtype == DTYPE[out_type] and y.shape == x.shape
    want = tool_dequantize(cli, x, x_type, scale, "float", zero=zero, axis=0,
                           output_dtype=output_dtype)
    assert np.array_equal(codes(y, out_type), want)


def test_dequantize_blocked_e8m0_scales_as_codes(cli):
    """MX-style: blocks of 32 float4e2m1 codes with E8M0 scales, both given as
    uint8 codes with x_type= / scale_type=."""
    x = RNG.integers(0, 16, size=(2, 70)).astype(np.uint8)
    scale = RNG.integers(100, 150, size=(2, 3)).astype(np.uint8)
    scale[1, 2] = 0xFF  # the NaN scale
    y = mf.dequantize_linear(x, scale, axis=1, block_size=32, x_type="float4e2m1",
                             scale_type="float8e8m0", output_dtype="float")
    want = tool_dequantize(cli, x.view(ml_dtypes.float4_e2m1fn), "float4e2m1",
                           scale.view(ml_dtypes.float8_e8m0fnu), "float8e8m0", axis=1,
                           block_size=32, output_dtype="float")
    assert np.array_equal(codes(y, "float"), want)


CAST_TYPES = ["float", "float16", "bfloat16", "float8e4m3fn", "float8e4m3fnuz", "float8e5m2",
              "float8e5m2fnuz", "float4e2m1", "float8e8m0"]


def tool_cast(cli, x, from_type, to, saturate, round_mode=None, opset=None):
    args = ["cast", "--to", to, "--from", from_type]
    if saturate and to in ("float8e4m3fn", "float8e4m3fnuz", "float8e5m2", "float8e5m2fnuz",
                           "float8e8m0"):
        args.append("--saturate")
    if round_mode is not None:
        args += ["--round-mode", round_mode]
    if opset is not None:
        args += ["--opset", str(opset)]
    return tool_codes(cli.run(args, [hex_list(x, from_type).replace(",", " ")]))


@pytest.mark.parametrize("saturate", [True, False])
@pytest.mark.parametrize("to", CAST_TYPES)
def test_cast_from_float_equals_the_tool(cli, to, saturate):
    x = wide_values((5, 13))
    x[2] *= 1e4  # beyond every float8's range
    x[3] = -np.abs(x[3])
    if to == "float8e8m0" and not saturate:
        x[0, :4] = 1.0  # e8m0 without saturate: keep the row finite for a clean check
    y = mf.cast(x, to, saturate=saturate)
    assert y.dtype == DTYPE[to] and y.shape == x.shape
    assert np.array_equal(codes(y, to), tool_cast(cli, x, "float", to, saturate))


@pytest.mark.parametrize("from_type", CAST_TYPES[1:])
def test_cast_every_code_to_float_and_back_equals_the_tool(cli, from_type):
    bits = BITS[from_type]
    c = np.arange(1 << bits, dtype=np.uint16 if bits == 16 else np.uint8)
    if bits == 16:
        c = c[::37]
    x = c.view(DTYPE[from_type])
    for to in ("float", "bfloat16", "float8e5m2"):
        y = mf.cast(x, to)
        assert np.array_equal(codes(y, to), tool_cast(cli, x, from_type, to, True)), to
        z = mf.cast(c, to, from_=from_type)  # the same codes, named by from_
        assert np.array_equal(codes(z, to), codes(y, to))


@pytest.mark.parametrize("round_mode", ["up", "down", "nearest"])
def test_cast_to_e8m0_round_modes(cli, round_mode):
    x = np.abs(wide_values((64,)))
    y = mf.cast(x, "float8e8m0", round_mode=round_mode)
    assert np.array_equal(codes(y, "float8e8m0"),
                          tool_cast(cli, x, "float", "float8e8m0", True, round_mode))


@pytest.mark.parametrize("opset", [19, 23, 24])
def test_cast_opsets(cli, opset):
    x = np.array([np.inf, -np.inf, 1e6, 3.0], np.float32)
    for to in ("float8e4m3fnuz", "float8e5m2fnuz"):
        y = mf.cast(x, to, opset=opset)
        assert np.array_equal(codes(y, to), tool_cast(cli, x, "float", to, True, opset=opset))


def test_outputs_follow_dtype_names_and_numbers():
    x = np.array([1.0, -2.0], np.float32)
    a = mf.cast(x, "float8e4m3fn")
    assert np.array_equal(mf.cast(x, "E4M3FN").view(np.uint8), a.view(np.uint8))
    assert np.array_equal(mf.cast(x, 17).view(np.uint8), a.view(np.uint8))  # TensorProto
    assert np.array_equal(mf.cast(x, ml_dtypes.float8_e4m3fn).view(np.uint8), a.view(np.uint8))
    assert mf.cast(np.float32(3.0), "float16").shape == ()


def test_empty_zero_dimensional_and_strided_inputs():
    empty = np.zeros((0, 3), np.float32)
    assert mf.quantize_linear(empty, np.float32(1)).shape == (0, 3)
    assert mf.dequantize_linear(np.zeros((2, 0), np.int8), np.float32(1)).shape == (2, 0)
    assert mf.cast(empty, "float8e5m2").shape == (0, 3)
    assert mf.quantize_linear(np.float32(3.0), np.float32(0.5)) == 6
    x = np.linspace(-8, 8, 40, dtype=np.float32).reshape(5, 8)
    assert np.array_equal(mf.quantize_linear(x[:, ::2], np.float32(0.5), output_dtype="int8"),
                          mf.quantize_linear(x[:, ::2].copy(), np.float32(0.5),
                                             output_dtype="int8"))


X = np.linspace(-4, 4, 12, dtype=np.float32).reshape(3, 4)
S = np.float32(0.5)


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: mf.quantize_linear(X.astype(np.float64), S), TypeError,
     r"x: dtype float64 is not an ONNX type"),
    (lambda: mf.quantize_linear(X.astype(np.int8), S), ValueError,
     r"quantize_linear: QuantizeLinear: x must be float, float16 or bfloat16, not int8"),
    (lambda: mf.quantize_linear(X, S, output_dtype="float9"), ValueError,
     r"output_dtype: 'float9' is not a type of the ONNX operators; accepted: float, uint8"),
    (lambda: mf.quantize_linear(X, S, output_dtype=99), ValueError,
     r"output_dtype: 99 is not the TensorProto number"),
    (lambda: mf.quantize_linear(X, S, output_dtype=[1]), TypeError, r"output_dtype: expected"),
    (lambda: mf.quantize_linear(X, S, output_dtype="float16"), ValueError,
     r"QuantizeLinear: no output of type float16"),
    (lambda: mf.quantize_linear(X, S, precision="int8"), ValueError,
     r"precision must be float, float16 or bfloat16"),
    (lambda: mf.quantize_linear(X, np.ones(3, np.float32)), ValueError,
     r"per-axis quantization needs a 1-D scale of length 4"),
    (lambda: mf.quantize_linear(X, np.ones((3, 2), np.float32), block_size=1), ValueError,
     r"quantize_linear: .*block"),
    (lambda: mf.quantize_linear(X, np.ones(4, np.float32), axis=2), ValueError,
     r"axis 2 is outside"),
    (lambda: mf.quantize_linear(X, S, axis=1.0), TypeError, r"axis: expected an int, got float"),
    (lambda: mf.quantize_linear(X, S, block_size=-1, axis=1), ValueError,
     r"block_size must not be negative"),
    (lambda: mf.quantize_linear(X, S, saturate=1), TypeError, r"saturate: expected True or False"),
    (lambda: mf.quantize_linear(X, S, opset=18), ValueError,
     r"opset: 18 is not an opset the library implements; accepted: 19..28"),
    (lambda: mf.quantize_linear(X, S, output_dtype="int4", opset=19), ValueError,
     r"output_dtype|int4"),
    (lambda: mf.quantize_linear(X, S, np.zeros(2, np.uint8)), ValueError,
     r"y_zero_point: shape \(2,\) differs from y_scale's \(\)"),
    (lambda: mf.quantize_linear(X, S, np.uint8(1), output_dtype="int8"), ValueError,
     r"output_dtype int8 differs from the zero point's type uint8"),
    (lambda: mf.quantize_linear(X, np.uint8(1)), ValueError,
     r"QuantizeLinear: y_scale must be float, float16, bfloat16 or float8e8m0"),
    (lambda: mf.quantize_linear(X, np.uint8(127), scale_type="float16"), TypeError,
     r"y_scale: float16 elements are uint16 codes or float16, got uint8"),
    (lambda: mf.dequantize_linear(np.zeros(4, np.float32), S), ValueError,
     r"DequantizeLinear: no input of type float"),
    (lambda: mf.dequantize_linear(np.zeros(4, np.uint8), S, np.int8(0)), ValueError,
     r"x_zero_point: its type int8 differs from x's uint8"),
    (lambda: mf.dequantize_linear(np.zeros(4, np.uint8), S, output_dtype="int8"), ValueError,
     r"the output must be float, float16 or bfloat16"),
    (lambda: mf.dequantize_linear(np.full(4, 20, np.int8), S, x_type="int4"), ValueError,
     r"x: int4 values lie in -8..7"),
    (lambda: mf.dequantize_linear(np.zeros(4, np.uint16), S, x_type="float8e4m3fn"), TypeError,
     r"x: float8e4m3fn elements are uint8 codes"),
    (lambda: mf.cast(X, "int8"), ValueError, r"cast: Cast to int8 is not implemented"),
    (lambda: mf.cast(X, "float8e4m3fn", round_mode="up"), ValueError,
     r"round_mode: float8e8m0's attribute"),
    (lambda: mf.cast(X, "float8e8m0", round_mode="even"), ValueError,
     r"round_mode: 'even' is not accepted; accepted: up, down, nearest"),
    (lambda: mf.cast(np.zeros(3, np.uint8), "float"), ValueError, r"Cast from uint8"),
    (lambda: mf.cast(X, "float8e8m0", opset=23), ValueError, r"float8e8m0"),
    (lambda: mf.cast(["a"], "float"), TypeError, r"x: dtype <U1 is not an ONNX type"),
    (lambda: mf.quantize_linear(X, S, block_size=2**70), ValueError,
     r"block_size: 1180591620717411303424 is outside the accepted range"),
])
def test_bad_input_raises_naming_the_argument(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


def test_default_axis_is_1():
    # The operators' attribute default (axis=1): a 1-D scale runs along the
    # second axis. y = (x - zero) * scale, exact in float64, rounded once.
    x = np.array([[-128, -3, 0, 127], [5, 6, 7, 8], [1, -1, 2, -2]], np.int8)
    scale = np.array([0.5, 1 / 3, 3.0, 1e-3], np.float32)
    zero = np.array([0, 1, -2, 3], np.int8)
    y = mf.dequantize_linear(x, scale, zero)
    want = ((x.astype(np.float64) - zero) * scale.astype(np.float64)).astype(np.float32)
    assert y.dtype == np.float32 and np.array_equal(y, want)
    q = mf.quantize_linear(want, scale, zero)
    assert q.dtype == np.int8 and np.array_equal(q, x)


def test_int4_values_without_ml_dtypes_are_int8(monkeypatch):
    # Where ml_dtypes lacks int4 / uint4 the outputs are int8 / uint8 values
    # (docs: "int8 / uint8 values for int4 / uint4"): code 8 is -8.
    x = np.array([-9.0, -8.0, -7.5, -1.0, 0.0, 7.0, 9.0], np.float32)
    monkeypatch.setitem(mf._ONNX_DTYPE, 22, None)
    monkeypatch.setitem(mf._ONNX_DTYPE, 21, None)
    y = mf.quantize_linear(x, np.float32(1), output_dtype="int4")
    assert y.dtype == np.int8 and y.tolist() == [-8, -8, -8, -1, 0, 7, 7]
    u = mf.quantize_linear(np.abs(x) * 2, np.float32(1), output_dtype="uint4")
    assert u.dtype == np.uint8 and u.tolist() == [15, 15, 15, 2, 0, 14, 15]
