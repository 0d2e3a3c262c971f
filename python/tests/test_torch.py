"""PyTorch CPU tensors: read in place, answered with tensors of the same
convention (docs/python.md, "PyTorch"). Skipped, saying so, without torch."""

import numpy as np
import pytest

import minifloat as mf

torch = pytest.importorskip("torch", reason="torch is not installed (pip install torch)")
pytest.importorskip("ml_dtypes", reason="the typed tensors need ml_dtypes")

FLOAT8 = [("e4m3fn", torch.float8_e4m3fn), ("e5m2", torch.float8_e5m2),
          ("e4m3fnuz", torch.float8_e4m3fnuz), ("e5m2fnuz", torch.float8_e5m2fnuz),
          ("e8m0fnu", torch.float8_e8m0fnu)]


def every_code(dtype):
    return torch.arange(256, dtype=torch.int32).to(torch.uint8).view(dtype)


def same_bits(x, y):
    a, b = x.view(torch.uint8 if x.element_size() == 1 else torch.int16), \
        y.view(torch.uint8 if y.element_size() == 1 else torch.int16)
    return torch.equal(a, b)


def test_a_tensor_is_read_in_place():
    t = torch.linspace(-3, 3, 100)
    assert mf._torch.to_numpy(t, "x").ctypes.data == t.data_ptr()
    q = every_code(torch.float8_e4m3fn)
    assert mf._torch.to_numpy(q, "x").ctypes.data == q.data_ptr()


@pytest.mark.parametrize("name,dtype", FLOAT8)
def test_decode_of_every_float8_code_is_torchs_value(name, dtype):
    codes = every_code(dtype)
    got = mf.decode(codes)  # the format named by the tensor's dtype
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float32
    want = codes.float()
    nan = torch.isnan(want)
    assert torch.equal(torch.isnan(got), nan)
    assert torch.equal(got[~nan], want[~nan])
    assert torch.equal(torch.signbit(got[~nan]), torch.signbit(want[~nan]))


@pytest.mark.parametrize("name,dtype", FLOAT8[:4])
def test_encode_returns_the_torch_dtype_with_the_bits_of_arrays(name, dtype):
    top = mf.info(name).max
    x = torch.linspace(-top, top, 4099) * torch.tensor(1.01).pow(torch.arange(4099) % 7)
    got = mf.encode(x, name, saturate=True)
    assert isinstance(got, torch.Tensor) and got.dtype == dtype and got.shape == x.shape
    want = mf.encode(x.numpy(), name, saturate=True, dtype=np.uint8)
    assert np.array_equal(got.view(torch.uint8).numpy(), want)
    # Within range, torch's own conversion (nearest even) agrees.
    inside = x.abs() <= top
    assert same_bits(got[inside], x[inside].to(dtype))


def test_bfloat16_tensors_both_ways():
    x = torch.randn(1000, dtype=torch.float32) * 100
    b = mf.encode(x, "bfloat16")
    assert b.dtype == torch.bfloat16
    assert same_bits(b, x.to(torch.bfloat16))
    back = mf.decode(b)
    assert back.dtype == torch.float32 and torch.equal(back, b.float())


def test_out_tensor_is_written_and_returned_as_itself():
    x = torch.linspace(-10, 10, 64)
    out = torch.empty(64, dtype=torch.float8_e4m3fn)
    got = mf.encode(x, "e4m3fn", out=out)
    assert got is out
    assert same_bits(out, x.to(torch.float8_e4m3fn))
    values = torch.empty(64)
    assert mf.decode(out, out=values) is values
    assert torch.equal(values, out.float())


def test_convert_between_float8_tensors():
    codes = every_code(torch.float8_e5m2)
    got = mf.convert(codes, "e4m3fn", saturate=True)
    assert got.dtype == torch.float8_e4m3fn
    want = mf.convert(codes.view(torch.uint8).numpy(), "e4m3fn", "e5m2", saturate=True,
                      dtype=np.uint8)
    assert np.array_equal(got.view(torch.uint8).numpy(), want)


def test_formats_without_a_torch_dtype_come_back_as_codes():
    got = mf.encode(torch.tensor([0.5, 1.5, 6.0, -7.0]), "e2m1fn", saturate=True)
    assert got.dtype == torch.uint8
    assert got.tolist() == [0x1, 0x3, 0x7, 0xF]


def test_matmul_of_float8_tensors():
    rng = np.random.default_rng(5)
    a_codes = rng.integers(0, 256, (8, 64), dtype=np.uint8)
    a_codes[a_codes & 0x7F == 0x7F] = 0  # no NaN operands
    a = torch.from_numpy(a_codes).view(torch.float8_e4m3fn)
    b = torch.from_numpy(rng.integers(0, 256, (64, 4), dtype=np.uint8)).view(torch.float8_e5m2)
    got = mf.matmul(a, b, "FP32", model="exact")
    assert isinstance(got, torch.Tensor) and got.dtype == torch.float32
    want = mf.matmul(a.view(torch.uint8).numpy(), b.view(torch.uint8).numpy(), "FP32",
                     a_type="e4m3fn", b_type="e5m2", model="exact")
    assert np.array_equal(got.numpy(), want, equal_nan=True)


def test_mx_round_trip_of_tensors():
    x = torch.randn(4, 64)
    q = mf.mx_quantize(x, "mxfp8_e4m3")
    assert isinstance(q.scales, torch.Tensor) and q.scales.dtype == torch.float8_e8m0fnu
    assert q.elements.dtype == torch.float8_e4m3fn
    got = mf.mx_dequantize(q)
    assert isinstance(got, torch.Tensor)
    want = mf.mx_dequantize(mf.mx_quantize(x.numpy(), "mxfp8_e4m3"))
    assert np.array_equal(got.numpy(), want)


def test_a_tensor_that_needs_grad_is_read_without_its_graph():
    x = torch.linspace(-1, 1, 16, requires_grad=True)
    assert mf.encode(x, "e5m2").dtype == torch.float8_e5m2


def test_torch_dtypes_name_formats_and_result_dtypes():
    x = torch.tensor([0.3, -2.5, 1000.0])
    assert same_bits(mf.encode(x, torch.float8_e5m2), mf.encode(x, "e5m2"))
    codes = mf.encode(x, "e4m3fn", dtype=torch.uint8)
    assert codes.dtype == torch.uint8
    assert codes.tolist() == mf.encode(x.numpy(), "e4m3fn", dtype=np.uint8).tolist()
    got = mf.decode(every_code(torch.float8_e4m3fn), dtype=torch.bfloat16)
    assert got.dtype == torch.bfloat16
    want = every_code(torch.float8_e4m3fn).float().to(torch.bfloat16)
    assert torch.equal(torch.isnan(got), torch.isnan(want))
    assert torch.equal(got[~torch.isnan(got)], want[~torch.isnan(want)])


def test_a_negated_view_is_read_by_its_values():
    x = torch.tensor([0.5, -1.5, 3.0])
    neg = x._neg_view()
    assert neg.is_neg()
    assert mf.encode(neg, "e4m3fn", dtype=torch.uint8).tolist() == \
        mf.encode(-x, "e4m3fn", dtype=torch.uint8).tolist()


@pytest.mark.skipif(not hasattr(torch, "float4_e2m1fn_x2"), reason="torch has no packed FP4")
def test_packed_fp4_tensors_are_their_bytes():
    x = np.array([[0.5, -1.0, 6.0, 1.5]], np.float32)
    packed = mf.encode_packed(x, "e2m1fn")
    t = torch.from_numpy(np.asarray(packed)).view(torch.float4_e2m1fn_x2)
    assert np.array_equal(np.asarray(mf.decode_packed(t, "e2m1fn", x.shape)), x)
