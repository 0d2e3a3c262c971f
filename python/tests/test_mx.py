"""minifloat.mx_quantize / mx_dequantize against the command-line tool.

The tool has no MX command, so each part of a block is checked against the
tool where it has that part: the elements P_i = V_i / X are the tool's
`encode ELEMENT --saturate` of the exact quotient (OCP MX v1.0 §6.3: round
to nearest even, saturating), MXINT8's its ONNX `quantize-linear` into int8
with X / 64 as the scale, and the values X * P_i its ONNX
`dequantize-linear` with E8M0 (`float8e8m0`) scales, a blocked
DequantizeLinear being exactly an MX dequantize. The shared scale X is
checked against the three rules as OCP MX v1.0 §6.3 and docs/mx.md state
them, written here on Python's exact floats. NVFP4 likewise: the tool rounds
the block scale and the elements from their exact quotients.
"""

import math

import numpy as np
import pytest

import minifloat as mf
from conftest import same_floats

RNG = np.random.default_rng(20231001)

# element format, its emax and max, fraction bits (OCP MX v1.0 §5.3).
ELEMENTS = {
    "mxfp8_e4m3": ("e4m3fn", 8, 448.0, 3),
    "mxfp8_e5m2": ("e5m2", 15, 57344.0, 2),
    "mxfp6_e2m3": ("e2m3fn", 2, 7.5, 3),
    "mxfp6_e3m2": ("e3m2fn", 4, 28.0, 2),
    "mxfp4": ("e2m1fn", 2, 6.0, 1),
    "mxint8": (None, 0, 127 / 64, 6),
}
ONNX_TYPE = {"e4m3fn": "float8e4m3fn", "e5m2": "float8e5m2", "e2m1fn": "float4e2m1"}
K = 32


def shared_scale(amax, name, rule):
    """The E8M0 code of X for a block of largest magnitude amax (§6.3)."""
    _, emax, max_elem, fraction_bits = ELEMENTS[name]
    if math.isnan(amax) or math.isinf(amax):
        return 0xFF
    if amax == 0:
        return 0
    if rule == "even":  # amax rounded to the element's precision, ties to even
        m, e = math.frexp(amax)
        amax = math.ldexp(round(math.ldexp(m, fraction_bits + 1)), e - fraction_bits - 1)
    exponent = math.frexp(amax)[1] - 1 - emax  # floor(log2(amax)) - emax
    if rule == "ceil" and amax > math.ldexp(max_elem, exponent):
        exponent += 1  # the smallest power of two with amax / X <= max
    if exponent > 127:
        return 0xFF
    return max(exponent, -127) + 127


def blocks_of(x):
    """x (rows x length) as a list of (row, start, stop) blocks."""
    rows, length = x.shape
    return [(r, j, min(j + K, length)) for r in range(rows) for j in range(0, length, K)]


def unpack(packed, bits, length):
    """One code per element from the packed rows: FP4 the low nibble first,
    FP6 a little-endian bit stream (docs/mx.md, section 1)."""
    stream = np.unpackbits(packed, axis=-1, bitorder="little")
    stream = stream[..., :length * bits].reshape(packed.shape[:-1] + (length, bits))
    return (stream.astype(np.uint8) << np.arange(bits, dtype=np.uint8)).sum(-1).astype(np.uint8)


def codes(a):
    return np.asarray(a).view(np.uint8)


def tool_hex(text):
    return np.array([int(w, 16) for w in text.split()], dtype=np.uint64)


def sample_rows(length=100):
    """Rows of values over many binades, and rows that test the rules: a
    block of zeros, one with NaN, one with Inf, float32 subnormals, values
    near float32's max, a block whose amax is just under and just over a
    power of two."""
    rows = [RNG.normal(size=length) * np.exp2(RNG.integers(-30, 30, size=length)),
            RNG.normal(size=length),
            RNG.uniform(-1, 1, size=length) * 3e38,
            RNG.normal(size=length) * 1e-40]
    special = RNG.normal(size=length)
    special[:K] = 0
    special[K:2 * K] = -0.0
    special[2 * K + 3] = np.nan
    rows.append(special)
    infinite = RNG.normal(size=length)
    infinite[5] = -np.inf
    infinite[2 * K:] = 1.0
    infinite[2 * K] = np.nextafter(np.float32(2), np.float32(0))
    if length > 3 * K:
        infinite[3 * K] = np.float32(1.9375)  # rounds up to 2 at 3 fraction bits and fewer
    rows.append(infinite)
    ties = RNG.integers(-64, 64, size=length) / 16.0  # many ties of every element type
    rows.append(ties)
    # Blocks whose amax lies between the rules: a fraction above the
    # element max's (ceil goes up) but below the rounding threshold (even
    # stays), for the FP6/FP4 maxima (.875, .75, .5) and INT8's (63/64).
    between = RNG.uniform(-1, 1, size=length)
    for j, amax in enumerate([1.9, 1.99, 1.8, 1.6]):
        if j * K < length:
            between[j * K] = -amax
    rows.append(between)
    return np.array(rows, dtype=np.float32)


@pytest.mark.parametrize("rule", ["floor", "ceil", "even"])
@pytest.mark.parametrize("name", list(ELEMENTS))
def test_quantize_equals_the_tool(cli, name, rule):
    x = sample_rows()
    q = mf.mx_quantize(x, name, scale_rounding=rule)
    assert q.format == name and q.shape == x.shape and q.tensor_scale is None
    element, *_ = ELEMENTS[name]
    want_scales = np.array([[shared_scale(float(np.max(np.abs(x[r, a:b].astype(np.float64)))),
                                          name, rule)
                             for (_, a, b) in blocks_of(x[r:r + 1])] for r in range(len(x))],
                           dtype=np.uint8)
    assert np.array_equal(codes(q.scales), want_scales)
    # The exact quotients V_i / X (float64 holds them), zero in NaN-scale blocks.
    quotient = np.zeros(x.shape, np.float64)
    for r, a, b in blocks_of(x):
        code = int(want_scales[r, a // K])
        if code != 0xFF:
            quotient[r, a:b] = np.ldexp(x[r, a:b].astype(np.float64), 127 - code)
    if element is None:
        # ONNX QuantizeLinear into int8 with the scale X / 2^6 (rounds half
        # to even, saturates to -128..127; MXINT8 is symmetric, +-127).
        scale = np.ldexp(np.float32(1), want_scales.astype(np.int32) - 133).astype(np.float32)
        scale[want_scales == 0xFF] = np.inf  # x / inf = 0: the zero elements of a NaN block
        rows, length = x.shape
        text = cli.run(["quantize-linear", "--shape", f"{rows},{length}", "--scales",
                        ",".join(f"0x{b:08x}" for b in scale.view(np.uint32).ravel()),
                        "--scale-shape", f"{rows},{scale.shape[1]}", "--axis", "1",
                        "--block-size", str(K), "--output-dtype", "int8"],
                       [" ".join(f"0x{b:08x}" for b in np.where(np.isnan(x), 0, x)
                                 .astype(np.float32).view(np.uint32).ravel())])
        want = np.maximum(tool_hex(text).astype(np.uint8).view(np.int8), -127)
        got = np.asarray(q.elements)
        assert got.dtype == np.int8
    else:
        want = cli.encode(element, quotient.ravel(), ["--saturate"]).astype(np.uint8)
        bits = mf.info(element).bits
        got = codes(q.elements) if bits == 8 else unpack(codes(q.elements), bits, x.shape[1])
    assert np.array_equal(got.ravel(), want.ravel().view(got.dtype))


def tool_dequantize(cli, name, scales, element_codes):
    """The tool's blocked DequantizeLinear of (scales, one code per element)."""
    element, *_ = ELEMENTS[name]
    rows, length = element_codes.shape
    if element is None:  # int8 with the scale X / 2^6, as float32 bits
        scale = np.ldexp(np.float32(1), scales.astype(np.int32) - 133).astype(np.float32)
        scale[scales == 0xFF] = np.nan
        args = ["--x-type", "int8", "--scales",
                ",".join(f"0x{b:08x}" for b in scale.view(np.uint32).ravel())]
    else:
        args = ["--x-type", ONNX_TYPE[element], "--scale-type", "float8e8m0", "--scales",
                ",".join(f"0x{b:x}" for b in scales.ravel())]
    text = cli.run(["dequantize-linear", "--shape", f"{rows},{length}", *args, "--scale-shape",
                    f"{rows},{scales.shape[1]}", "--axis", "1", "--block-size", str(K),
                    "--output-dtype", "float"],
                   [" ".join(f"0x{c:x}" for c in element_codes.ravel())])
    return tool_hex(text).astype(np.uint32).view(np.float32).reshape(rows, length)


def decode_with_tool(cli, name, scales, element_codes):
    """X * P_i from the tool's decode of each element (FP6 has no ONNX type):
    the product of a power of two, exact in float64, then rounded once."""
    element, *_ = ELEMENTS[name]
    p = cli.decode(element, element_codes.ravel()).astype(np.float64).reshape(element_codes.shape)
    x = np.repeat(scales.astype(np.int32), K, axis=1)[:, :element_codes.shape[1]]
    with np.errstate(over="ignore", invalid="ignore"):
        y = np.ldexp(p, x - 127).astype(np.float32)
    y[x == 0xFF] = np.nan
    return y


@pytest.mark.parametrize("name", list(ELEMENTS))
def test_dequantize_equals_the_tool(cli, name):
    """Every scale code (the NaN scale, 2^-127, the largest ones, whose
    products overflow float32) and random element codes, with a partial
    last block."""
    element, *_ = ELEMENTS[name]
    bits = 8 if element is None else mf.info(element).bits
    rows, length = 256, 40
    scales = np.arange(256, dtype=np.uint8).reshape(rows, 1).repeat(2, axis=1)
    scales[:, 1] = RNG.permutation(256)
    element_codes = RNG.integers(0, 1 << bits, size=(rows, length)).astype(np.uint8)
    if bits == 8:
        elements = element_codes.view(np.int8) if element is None else element_codes
    else:  # pack with the package's own inverse check: unpack(pack) is identity
        stream = ((element_codes[..., None] >> np.arange(bits, dtype=np.uint8)) & 1)
        elements = np.packbits(stream.reshape(rows, -1), axis=-1, bitorder="little")
        assert np.array_equal(unpack(elements, bits, length), element_codes)
    y = mf.mx_dequantize(mf.MXArray(name, scales, elements, (rows, length)))
    if element in ONNX_TYPE or element is None:
        want = tool_dequantize(cli, name, scales, element_codes)
    else:
        want = decode_with_tool(cli, name, scales, element_codes)
    assert y.dtype == np.float32 and y.shape == (rows, length)
    assert same_floats(y, want)


@pytest.mark.parametrize("name", list(ELEMENTS))
def test_round_trip_of_the_quantized_data(cli, name):
    x = sample_rows(70)
    q = mf.mx_quantize(x, name)
    element, *_ = ELEMENTS[name]
    if element is None or element in ONNX_TYPE:
        bits = 8 if element is None else mf.info(element).bits
        element_codes = codes(q.elements) if bits == 8 else unpack(codes(q.elements), bits, 70)
        assert same_floats(mf.mx_dequantize(q), tool_dequantize(cli, name, codes(q.scales),
                                                                 element_codes))


def test_scales_and_elements_are_typed_arrays(ml_dtypes):
    q = mf.mx_quantize(np.ones((2, 64), np.float32), "mxfp8_e4m3")
    assert q.scales.dtype == ml_dtypes.float8_e8m0fnu and q.scales.shape == (2, 2)
    assert q.elements.dtype == ml_dtypes.float8_e4m3fn and q.elements.shape == (2, 64)
    assert np.all(q.elements.astype(np.float32) * q.scales.astype(np.float32)[:, :1] == 1)
    q = mf.mx_quantize(np.ones(33, np.float32), "mxfp4")
    assert q.elements.dtype == np.uint8 and q.elements.shape == (17,)  # 33 codes, packed
    q = mf.mx_quantize(np.ones(5, ml_dtypes.bfloat16), "mxfp6_e3m2")  # widened exactly
    assert q.elements.shape == (4,) and np.all(mf.mx_dequantize(q) == 1)


def test_codes_are_accepted_for_typed_parts():
    x = RNG.normal(size=(3, 64)).astype(np.float32)
    q = mf.mx_quantize(x, "mxfp8_e5m2")
    plain = mf.MXArray("MXFP8_E5M2", codes(q.scales), codes(q.elements), x.shape)
    assert np.array_equal(mf.mx_dequantize(plain), mf.mx_dequantize(q))
    dashed = mf.mx_quantize(x, "MXFP8-E5M2")  # '-' for '_', as other names
    assert np.array_equal(codes(dashed.elements), codes(q.elements))


def test_blocks_run_along_the_last_axis():
    x = RNG.normal(size=(4, 3, 50)).astype(np.float32)
    q = mf.mx_quantize(x, "mxfp4", scale_rounding="ceil")
    assert q.scales.shape == (4, 3, 2) and q.elements.shape == (4, 3, 25)
    for i in range(4):
        row = mf.mx_quantize(x[i, 1], "mxfp4", scale_rounding="ceil")
        assert np.array_equal(codes(row.scales), codes(q.scales[i, 1]))
        assert np.array_equal(row.elements, q.elements[i, 1])
    y = mf.mx_dequantize(q)
    assert y.shape == x.shape
    # ceil: nothing clips, so the error is at most half e2m1fn's largest
    # spacing (2) times X.
    x_scale = np.exp2(np.repeat(codes(q.scales), K, -1)[..., :50].astype(np.float64) - 127)
    assert np.all(np.abs(y - x) <= x_scale)


@pytest.mark.parametrize("name", ["mxfp6_e2m3", "mxfp6_e3m2", "mxfp4", "nvfp4"])
def test_unpacked_elements_are_the_packed_ones_one_per_byte(ml_dtypes, name):
    x = sample_rows(70)
    if name == "nvfp4":  # one NaN makes every NVFP4 block NaN
        x = np.where(np.isfinite(x), x, np.float32(0))
    p = mf.mx_quantize(x, name)
    u = mf.mx_quantize(x, name, packed=False)
    element = "e2m1fn" if name == "nvfp4" else ELEMENTS[name][0]
    bits = mf.info(element).bits
    assert u.packed is False and p.packed is True
    assert u.elements.dtype == mf.info(element).dtype and u.elements.shape == x.shape
    assert np.array_equal(codes(u.scales), codes(p.scales))
    assert np.array_equal(codes(u.elements), unpack(codes(p.elements), bits, 70))
    assert u.tensor_scale == p.tensor_scale or name != "nvfp4"
    assert not np.all(np.isnan(mf.mx_dequantize(p)))
    y = mf.mx_dequantize(u)
    assert same_floats(y, mf.mx_dequantize(p))
    plain = mf.MXArray(name, codes(u.scales), codes(u.elements), x.shape, u.tensor_scale, False)
    assert same_floats(mf.mx_dequantize(plain), y)
    if name != "nvfp4":  # ml_dtypes reads the same values: X * P_i
        scale = np.repeat(u.scales.astype(np.float64), K, axis=1)[:, :70]
        with np.errstate(invalid="ignore"):
            assert same_floats(y, (u.elements.astype(np.float64) * scale).astype(np.float32))


def test_zero_dimensional_and_empty_inputs():
    q = mf.mx_quantize(np.float32(3.0), "mxfp8_e4m3")
    assert q.shape == () and mf.mx_dequantize(q).shape == () and mf.mx_dequantize(q) == 3.0
    q = mf.mx_quantize(np.zeros((2, 0), np.float32), "mxfp6_e2m3")
    assert q.scales.shape == (2, 0) and mf.mx_dequantize(q).shape == (2, 0)


def test_out_is_written_in_place():
    x = RNG.normal(size=(2, 96)).astype(np.float32)
    q = mf.mx_quantize(x, "mxint8")
    out = np.empty_like(x)
    assert mf.mx_dequantize(q, out=out) is out
    assert np.array_equal(out, mf.mx_dequantize(q))


# ---------------------------------------------------------------------------
# NVFP4: e2m1fn elements, blocks of 16, e4m3fn block scales, a float32
# tensor scale (docs/mx.md, section 5).
# ---------------------------------------------------------------------------
def nvfp4_want(cli, x, s_t):
    """Scales and element codes as the tool rounds them from the exact
    quotients: s_b = e4m3fn(amax_b / (6 s_t)), P_i = e2m1fn(x_i / (s_b s_t)),
    both nearest even, saturating."""
    rows, length = x.shape
    amax, where = [], []
    for r in range(rows):
        for a in range(0, length, 16):
            amax.append(np.max(np.abs(x[r, a:a + 16].astype(np.float64))))
            where.append((r, a))
    with np.errstate(invalid="ignore"):
        s_b_codes = cli.encode("e4m3fn", np.array(amax) / (6.0 * s_t), ["--saturate"])
    s_b = cli.decode("e4m3fn", s_b_codes).astype(np.float64)
    quotient = np.zeros(x.shape, np.float64)
    zero_block = np.zeros(x.shape, bool)
    for (r, a), scale in zip(where, s_b):
        if scale == 0:
            zero_block[r, a:a + 16] = True
        else:
            quotient[r, a:a + 16] = x[r, a:a + 16].astype(np.float64) / (scale * s_t)
    element_codes = cli.encode("e2m1fn", quotient.ravel(), ["--saturate"]).astype(np.uint8)
    element_codes = element_codes.reshape(x.shape)
    element_codes[zero_block] = np.signbit(x[zero_block]).astype(np.uint8) << 3
    return s_b_codes.astype(np.uint8).reshape(rows, -1), element_codes


def test_nvfp4_quantize_equals_the_tool(cli):
    x = RNG.normal(size=(6, 72)) * np.exp2(RNG.integers(-12, 12, size=(6, 72)))
    x[1, :16] = 0
    x[2, 16:32] *= 1e-9  # a block whose scale rounds to zero next to large ones
    x = x.astype(np.float32)
    q = mf.mx_quantize(x, "nvfp4")
    s_t = np.float32(np.max(np.abs(x))) / np.float32(448 * 6)
    assert q.tensor_scale == float(s_t)
    scales, element_codes = nvfp4_want(cli, x, float(s_t))
    assert np.array_equal(codes(q.scales), scales)
    assert np.array_equal(unpack(codes(q.elements), 4, 72), element_codes)
    # Dequantize: (P_i * s_b) * s_t in float32, from the tool's decodes.
    p = cli.decode("e2m1fn", element_codes.ravel()).reshape(x.shape)
    s_b = np.repeat(cli.decode("e4m3fn", scales.ravel()).reshape(6, -1), 16, axis=1)[:, :72]
    assert np.array_equal(mf.mx_dequantize(q), (p * s_b) * s_t)


def test_nvfp4_with_a_given_tensor_scale(cli):
    x = RNG.normal(size=(2, 40)).astype(np.float32)
    q = mf.mx_quantize(x, "nvfp4", tensor_scale=0.01)
    assert q.tensor_scale == float(np.float32(0.01))
    scales, element_codes = nvfp4_want(cli, x, float(np.float32(0.01)))
    assert np.array_equal(codes(q.scales), scales)
    assert np.array_equal(unpack(codes(q.elements), 4, 40), element_codes)


def test_nvfp4_nan_makes_every_block_nan():
    x = np.ones(40, np.float32)
    x[3] = np.nan
    q = mf.mx_quantize(x, "nvfp4")
    assert math.isnan(q.tensor_scale) and np.all(codes(q.scales) == 0x7F)
    assert np.all(np.isnan(mf.mx_dequantize(q)))


# ---------------------------------------------------------------------------
# Bad input: the argument named, nothing written to out=.
# ---------------------------------------------------------------------------
X = np.ones((2, 64), np.float32)


@pytest.mark.parametrize("call, error, pattern", [
    (lambda: mf.mx_quantize(X, "mxfp9"), ValueError, r"fmt: unknown MX format 'mxfp9'; "
                                                     r"accepted: mxfp8_e4m3, .*nvfp4"),
    (lambda: mf.mx_quantize(X, "e4m3fn"), ValueError, r"fmt: unknown MX format 'e4m3fn'"),
    (lambda: mf.mx_quantize(X, 4), TypeError, r"fmt: expected an MX format name"),
    (lambda: mf.mx_quantize(X.astype(np.float64), "mxfp4"), TypeError,
     r"x: dtype float64 is not accepted; accepted: float32, float16, bfloat16 "
     r"\(x.astype\(np.float32\)"),
    (lambda: mf.mx_quantize(X.astype(np.int32), "mxfp4"), TypeError, r"x: dtype int32"),
    (lambda: mf.mx_quantize(X, "mxfp4", scale_rounding="round"), ValueError,
     r"scale_rounding: 'round' is not accepted; accepted: floor, ceil, even"),
    (lambda: mf.mx_quantize(X, "mxfp4", scale_rounding=1), TypeError,
     r"scale_rounding: expected a name \(str\), got 1"),
    (lambda: mf.mx_quantize(X, "nvfp4", scale_rounding="ceil"), ValueError,
     r"scale_rounding: 'ceil' is for the MX formats"),
    (lambda: mf.mx_quantize(X, "mxfp4", tensor_scale=1.0), ValueError,
     r"tensor_scale: NVFP4's tensor scale, got fmt='mxfp4'"),
    (lambda: mf.mx_quantize(X, "nvfp4", tensor_scale=0.0), ValueError,
     r"tensor_scale: 0.0 .*finite, positive"),
    (lambda: mf.mx_quantize(X, "nvfp4", tensor_scale=float("nan")), ValueError,
     r"tensor_scale: nan"),
    (lambda: mf.mx_quantize(X, "nvfp4", tensor_scale=-2.0), ValueError, r"tensor_scale: -2.0"),
    (lambda: mf.mx_quantize(X, "nvfp4", tensor_scale=1e39), ValueError,
     r"tensor_scale: 1e\+39 \(as float32: inf\)"),
    (lambda: mf.mx_quantize(X, "nvfp4", tensor_scale="1"), TypeError,
     r"tensor_scale: expected a real number, got str"),
    (lambda: mf.mx_dequantize((np.zeros((2, 2), np.uint8), np.zeros((2, 64), np.uint8))),
     TypeError, r"q: expected a minifloat.MXArray, got tuple"),
    (lambda: mf.mx_dequantize(mf.MXArray("mxfp5", np.zeros((2, 2), np.uint8),
                                         np.zeros((2, 64), np.uint8), (2, 64))),
     ValueError, r"q.format: unknown MX format 'mxfp5'"),
    (lambda: mf.mx_dequantize(mf.MXArray("mxfp8_e4m3", np.zeros((2, 3), np.uint8),
                                         np.zeros((2, 64), np.uint8), (2, 64))),
     ValueError, r"q.scales: shape \(2, 3\) differs from the \(2, 2\)"),
    (lambda: mf.mx_dequantize(mf.MXArray("mxfp4", np.zeros((2, 2), np.uint8),
                                         np.zeros((2, 64), np.uint8), (2, 64))),
     ValueError, r"q.elements: shape \(2, 64\) differs from the \(2, 32\)"),
    (lambda: mf.mx_dequantize(mf.MXArray("mxfp4", np.zeros((2, 2), np.uint8),
                                         np.zeros((2, 32), np.uint8), (2, 64), None, False)),
     ValueError, r"q.elements: shape \(2, 32\) differs from the \(2, 64\)"),
    (lambda: mf.mx_dequantize(mf.MXArray("mxfp4", np.zeros((2, 2), np.uint8),
                                         np.zeros((2, 32), np.uint8), (2, 64), None, "no")),
     TypeError, r"q.packed: expected True or False"),
    (lambda: mf.mx_quantize(X, "mxfp4", packed=0), TypeError, r"packed: expected True or False"),
    (lambda: mf.mx_dequantize(mf.MXArray("mxfp4", np.zeros((2, 2), np.float32),
                                         np.zeros((2, 32), np.uint8), (2, 64))),
     TypeError, r"q.scales: dtype float32 is not accepted; accepted: "
                r"(float8_e8m0fnu, )?uint8$"),
    (lambda: mf.mx_dequantize(mf.MXArray("mxfp8_e4m3", np.zeros((2, 2), np.uint8),
                                         np.zeros((2, 64), np.int8), (2, 64))),
     TypeError, r"q.elements: dtype int8 is not accepted; accepted: (float8_e4m3fn, )?uint8$"),
    (lambda: mf.mx_dequantize(mf.MXArray("mxfp4", np.zeros((2, 2), np.uint8),
                                         np.zeros((2, 32), np.uint8), (2, 64), 1.0)),
     ValueError, r"q.tensor_scale: only NVFP4 has one"),
    (lambda: mf.mx_dequantize(mf.MXArray("nvfp4", np.zeros((2, 4), np.uint8),
                                         np.zeros((2, 32), np.uint8), (2, 64))),
     ValueError, r"q.tensor_scale: NVFP4 needs its tensor scale"),
    (lambda: mf.mx_dequantize(mf.MXArray("mxfp4", np.zeros((2, 2), np.uint8),
                                         np.zeros((2, 32), np.uint8), "2x64")),
     TypeError, r"q.shape: expected a tuple of ints"),
])
def test_bad_input_raises_naming_the_argument(call, error, pattern):
    with pytest.raises(error, match=pattern):
        call()


@pytest.mark.parametrize("out, error, pattern", [
    (np.empty((2, 64), np.float64), TypeError, r"out: dtype float64 is not accepted"),
    (np.empty((2, 63), np.float32), ValueError, r"out: shape \(2, 63\) differs"),
    (np.empty((2, 128), np.float32)[:, ::2], ValueError, r"out: not C-contiguous"),
])
def test_bad_out_is_not_written(out, error, pattern):
    q = mf.mx_quantize(X, "mxfp8_e4m3")
    out[...] = 7
    with pytest.raises(error, match=pattern):
        mf.mx_dequantize(q, out=out)
    assert np.all(out == 7)


def test_nothing_is_written_to_out_when_a_part_is_wrong():
    out = np.full((2, 64), 7, np.float32)
    bad = mf.MXArray("mxfp8_e4m3", np.zeros((2, 3), np.uint8), np.zeros((2, 64), np.uint8),
                     (2, 64))
    with pytest.raises(ValueError):
        mf.mx_dequantize(bad, out=out)
    assert np.all(out == 7)


@pytest.mark.parametrize("name", list(ELEMENTS))
def test_default_scale_rounding_is_floor(name):
    # OCP MX v1.0 §6.3: the shared scale is floor(log2(amax)) - emax unless
    # scale_rounding says otherwise; the sample has blocks where ceil and
    # even differ from it.
    x = sample_rows()
    q = mf.mx_quantize(x, name)
    want = np.array([[shared_scale(float(np.max(np.abs(x[r, a:b].astype(np.float64)))),
                                   name, "floor")
                      for (_, a, b) in blocks_of(x[r:r + 1])] for r in range(len(x))],
                    dtype=np.uint8)
    assert np.array_equal(codes(q.scales), want)
    floor = mf.mx_quantize(x, name, scale_rounding="floor")
    assert np.array_equal(codes(q.elements), codes(floor.elements))


def test_out_overlapping_the_scales_is_refused():
    q = mf.mx_quantize(RNG.normal(size=(2, 64)).astype(np.float32), "mxfp8_e4m3")
    out = np.zeros((2, 64), np.float32)
    scales = out.view(np.uint8)[:1, :4].reshape(2, 2)  # the scales live in out's first bytes
    scales[...] = codes(q.scales)
    before = out.copy()
    with pytest.raises(ValueError, match="out: overlaps q.scales"):
        mf.mx_dequantize(mf.MXArray("mxfp8_e4m3", scales, q.elements, (2, 64)), out=out)
    assert np.array_equal(out.view(np.uint32), before.view(np.uint32))
