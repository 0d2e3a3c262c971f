"""Buffers: out= is the result, conventions of the dtypes, inputs through the
buffer protocol and __array__, non-contiguous input."""

import array

import numpy as np
import pytest

import minifloat as mf


def floats(n=1000):
    return np.linspace(-500, 500, n, dtype=np.float32)


def test_out_is_the_returned_buffer():
    x = floats()
    out = np.empty(x.shape, np.uint8)
    y = mf.encode(x, "e4m3fn", out=out)
    assert y is out and np.shares_memory(y, out)
    assert np.array_equal(out, mf.encode(x, "e4m3fn", dtype=np.uint8))
    f = np.empty(x.shape, np.float32)
    assert mf.decode(out, "e4m3fn", out=f) is f
    c = np.empty(x.shape, np.uint8)
    assert mf.convert(out, "e5m2", "e4m3fn", out=c) is c


def test_out_typed(ml_dtypes):
    x = floats()
    out = np.empty(x.shape, ml_dtypes.float8_e5m2)
    y, amax = mf.encode(x, "e5m2", out=out, return_amax=True)
    assert y is out and amax == 500.0
    h = np.empty(x.shape, np.float16)
    assert mf.decode(out, out=h) is h


def test_codes_in_codes_out_and_typed_in_typed_out(ml_dtypes):
    x = floats()
    q = mf.encode(x, "e4m3fn")
    assert q.dtype == ml_dtypes.float8_e4m3fn  # the typed default where ml_dtypes is
    assert mf.convert(q, "e2m1fn").dtype == ml_dtypes.float4_e2m1fn
    codes = q.view(np.uint8)
    assert mf.convert(codes, "e2m1fn", "e4m3fn").dtype == np.uint8
    assert mf.convert(codes, "bfloat16", "e4m3fn").dtype == np.uint16
    assert mf.convert(codes, "e2m1fn", "e4m3fn", dtype=ml_dtypes.float4_e2m1fn).dtype == \
        ml_dtypes.float4_e2m1fn
    assert mf.encode(x, "binary16").dtype == np.float16
    assert mf.encode(x, "binary16", dtype=np.uint16).dtype == np.uint16
    assert mf.decode(q).dtype == np.float32
    assert mf.decode(q, dtype=ml_dtypes.bfloat16).dtype == ml_dtypes.bfloat16


def test_ml_dtypes_input_to_encode_is_a_conversion(ml_dtypes):
    q = mf.encode(floats(), "e5m2")
    assert np.array_equal(mf.encode(q, "e2m3fn", dtype=np.uint8),
                          mf.convert(q.view(np.uint8), "e2m3fn", "e5m2"))


def test_buffer_protocol_and_array_interface():
    values = [0.3, 300.0, -1000.0, 1e-3]
    want = mf.encode(np.array(values, np.float32), "e4m3fn", dtype=np.uint8)
    assert np.array_equal(mf.encode(array.array("f", values), "e4m3fn", dtype=np.uint8), want)
    assert np.array_equal(mf.encode(memoryview(array.array("f", values)), "e4m3fn",
                                    dtype=np.uint8), want)

    class Tensor:  # anything with __array__, as torch.Tensor on the CPU
        def __array__(self, dtype=None, copy=None):
            return np.array(values, np.float32)

    assert np.array_equal(mf.encode(Tensor(), "e4m3fn", dtype=np.uint8), want)
    # Python lists are float64 arrays: rounded once from the double.
    assert np.array_equal(mf.encode(values, "e4m3fn", dtype=np.uint8),
                          mf.encode(np.array(values), "e4m3fn", dtype=np.uint8))


def test_non_contiguous_input_is_copied_and_gives_the_same_bits():
    x = np.linspace(-3, 3, 4000, dtype=np.float32).reshape(40, 100)
    strided = x[::3, 1::2]
    transposed = x.T
    assert np.array_equal(mf.encode(strided, "e3m2fn", dtype=np.uint8),
                          mf.encode(np.ascontiguousarray(strided), "e3m2fn", dtype=np.uint8))
    q = mf.encode(transposed, "e3m2fn", dtype=np.uint8)
    assert q.shape == (100, 40)
    assert np.array_equal(q, mf.encode(x, "e3m2fn", dtype=np.uint8).T)
    codes = mf.encode(x, "e5m2", dtype=np.uint8)
    assert np.array_equal(mf.decode(codes[:, ::2], "e5m2"), mf.decode(codes, "e5m2")[:, ::2])


def test_read_only_input():
    x = floats()
    x.flags.writeable = False
    assert mf.encode(x, "e4m3fn", dtype=np.uint8).shape == x.shape


def test_torch_cpu_tensor():
    torch = pytest.importorskip("torch", reason="torch is not installed")
    t = torch.linspace(-10, 10, 100)
    q = mf.encode(t, "e4m3fn", dtype=np.uint8)  # through __array__, no copy
    assert np.array_equal(q, mf.encode(t.numpy(), "e4m3fn", dtype=np.uint8))


def test_unaligned_input_is_copied():
    raw = np.zeros(4 * 1000 + 1, np.uint8)
    x = np.frombuffer(raw.data, np.float32, 1000, offset=1)
    assert not x.flags.aligned
    assert np.array_equal(mf.encode(x, "e4m3fn", dtype=np.uint8), np.zeros(1000, np.uint8))


def test_dlpack_only_object():
    values = np.linspace(-3, 3, 50, dtype=np.float32)

    class Capsule:  # a tensor that speaks DLPack only
        def __dlpack__(self, **kwargs):
            return values.__dlpack__(**kwargs)

        def __dlpack_device__(self):
            return values.__dlpack_device__()

    assert np.array_equal(mf.encode(Capsule(), "e5m2", dtype=np.uint8),
                          mf.encode(values, "e5m2", dtype=np.uint8))
