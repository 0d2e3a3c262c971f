"""PyTorch CPU tensors in, tensors out, without copies.

A public function wrapped here (``tensors_in_tensors_out``) reads each
``torch.Tensor`` argument as the NumPy array over the same memory:
``float8_e4m3fn`` / ``float8_e5m2`` / ``float8_e4m3fnuz`` / ``float8_e5m2fnuz``
/ ``float8_e8m0fnu`` through their byte view, as the ml_dtypes dtype of the
same name (uint8 codes without ml_dtypes), ``bfloat16`` as
``ml_dtypes.bfloat16`` (uint16 codes without it), every other dtype as
``Tensor.numpy()`` gives it. When any argument was a tensor, the arrays of
the result (an array, a tuple of them, or a result object's array fields)
come back as tensors over the same memory, typed with the torch dtype of
their format where torch has one (the 8-bit float formats above,
bfloat16), as uint8 / uint16 codes where it has none (FP6, FP4, e4m3,
e3m4, e4m3b11fnuz); an ``out=`` tensor is returned as itself.

torch is never imported here: a tensor can only reach these functions from
a program that imported torch, so ``sys.modules`` holds it then.
"""

from __future__ import annotations

import dataclasses
import functools
import sys
from typing import Any, Callable, Dict, Optional

import numpy as np

# Imported by the package's __init__ after the functions it wraps, so the
# package's dtype lookup exists by then.
from . import _typed_dtype

# The torch dtypes with a format of the library, by their torch name; the
# format's ml_dtypes name is the same.
_FLOAT8_NAMES = ("float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz",
                 "float8_e8m0fnu")
# PyTorch's packed FP4 (two E2M1 codes a byte, the first in the low
# nibble), read as its bytes.
_PACKED_FP4_NAME = "float4_e2m1fn_x2"


def _torch() -> Optional[Any]:
    return sys.modules.get("torch")


def _is_tensor(x: Any) -> bool:
    torch = _torch()
    return torch is not None and isinstance(x, torch.Tensor)


def _typed_or_codes(name: str, codes: Any) -> np.dtype:
    """The ml_dtypes dtype `name`, or the codes' dtype without ml_dtypes."""
    typed = _typed_dtype(name)
    return np.dtype(codes) if typed is None else typed


def to_numpy(t: Any, arg: str) -> np.ndarray:
    """The tensor's memory as a NumPy array (no copy)."""
    torch = _torch()
    if t.device.type != "cpu":
        raise TypeError(f"{arg}: a tensor on {t.device} (the library runs on the CPU: "
                        "pass tensor.cpu())")
    t = t.detach()
    # A lazily negated (or conjugated) view has no memory holding its values:
    # they are made here, the one case where a tensor is copied.
    if getattr(t, "is_neg", lambda: False)() or getattr(t, "is_conj", lambda: False)():
        t = t.resolve_neg().resolve_conj()
    name = str(t.dtype).replace("torch.", "")
    if name in _FLOAT8_NAMES:
        return t.view(torch.uint8).numpy().view(_typed_or_codes(name, np.uint8))
    if name == _PACKED_FP4_NAME:
        return t.view(torch.uint8).numpy()  # two FP4 codes a byte: unpack, decode_packed
    if t.dtype == torch.bfloat16:
        return t.view(torch.int16).numpy().view(_typed_or_codes("bfloat16", np.uint16))
    try:
        return t.numpy()
    except (TypeError, RuntimeError) as e:
        raise TypeError(f"{arg}: a tensor of {t.dtype} cannot be read: {e}") from None


def to_numpy_dtype(d: Any) -> Any:
    """A torch dtype given as a format or dtype= argument, as the package
    reads dtypes: the float8 formats and bfloat16 as their ml_dtypes dtype
    (their name without ml_dtypes), the others as NumPy's dtype of the same
    name; one NumPy has no name for is left as it is (and refused there)."""
    name = str(d).replace("torch.", "")
    if name in _FLOAT8_NAMES or name == "bfloat16":
        typed = _typed_dtype(name)
        return name if typed is None else typed
    try:
        return np.dtype(name)
    except TypeError:
        return d


def to_tensor(a: np.ndarray) -> Any:
    """The array's memory as a tensor (no copy), typed as described above."""
    torch = _torch()
    name = a.dtype.name
    if name in _FLOAT8_NAMES and hasattr(torch, name):
        return torch.from_numpy(a.view(np.uint8)).view(getattr(torch, name))
    if name == "bfloat16":
        return torch.from_numpy(a.view(np.int16)).view(torch.bfloat16)
    if a.dtype.kind == "V" or a.dtype.type.__module__.startswith("ml_dtypes"):
        return torch.from_numpy(a.view(np.uint8 if a.dtype.itemsize == 1 else np.uint16))
    return torch.from_numpy(a)


def _arguments_to_numpy(value: Any, arg: str, seen: Dict[int, Any]) -> Any:
    torch = _torch()
    if isinstance(value, torch.dtype):
        return to_numpy_dtype(value)
    if _is_tensor(value):
        array = to_numpy(value, arg)
        seen[id(array)] = value
        return array
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _arguments_to_numpy(getattr(value, f.name), f"{arg}.{f.name}", seen)
                   for f in dataclasses.fields(value) if _is_tensor(getattr(value, f.name))}
        return dataclasses.replace(value, **changes) if changes else value
    return value


def _result_to_tensors(value: Any, seen: Dict[int, Any]) -> Any:
    if isinstance(value, np.ndarray):
        original = seen.get(id(value))
        return original if original is not None else to_tensor(value)
    if isinstance(value, tuple):
        return type(value)(_result_to_tensors(v, seen) for v in value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {f.name: _result_to_tensors(getattr(value, f.name), seen)
                   for f in dataclasses.fields(value)
                   if isinstance(getattr(value, f.name), np.ndarray)}
        return dataclasses.replace(value, **changes) if changes else value
    return value


def tensors_in_tensors_out(function: Callable) -> Callable:
    """``function`` taking torch tensors where it takes arrays, as above."""

    code = function.__code__
    names = code.co_varnames[:code.co_argcount]

    @functools.wraps(function)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        if _torch() is None:
            return function(*args, **kwargs)
        seen: Dict[int, Any] = {}
        args = tuple(_arguments_to_numpy(a, names[i] if i < len(names) else f"argument {i + 1}",
                                         seen)
                     for i, a in enumerate(args))
        kwargs = {k: _arguments_to_numpy(v, k, seen) for k, v in kwargs.items()}
        result = function(*args, **kwargs)
        return _result_to_tensors(result, seen) if seen else result

    return wrapper
