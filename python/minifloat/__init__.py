"""minifloat: low-precision floats (FP8, FP6, FP4, e8m0fnu, binary16, bfloat16).

The C++ library's bulk conversions on NumPy arrays: every rounding mode of
IEEE 754 (clause 4.3), saturating or not, stochastic rounding reproducible by
seed and offset, a fused scale and amax. Each call is one call of
``mf::bulk::encode`` / ``mf::bulk::decode`` on the array's own buffer, with
the GIL released; the rules are those of docs/semantics.md. The hybrid
MatMul (``matmul``, ``eltwise``), the MX block formats and NVFP4
(``mx_quantize``, ``mx_dequantize``), packed FP4 / FP6 (``pack``,
``unpack``, ``encode_packed``, ``decode_packed``), scaled quantization
(``quantize_per_tensor``, ``quantize_per_channel``, ``quantize_per_block``,
``DelayedScaling``), calibration (``calibrate``) and ONNX's QuantizeLinear,
DequantizeLinear and Cast (``quantize_linear``, ``dequantize_linear``,
``cast``) call their C++ entries the same way.

    >>> import numpy as np, minifloat as mf
    >>> q = mf.encode(np.array([0.3, 300, 1000], np.float32), "e4m3fn", saturate=True)
    >>> mf.decode(q, "e4m3fn")  # the format may be left out where ml_dtypes typed q
    array([3.125e-01, 2.880e+02, 4.480e+02], dtype=float32)

Data conventions (docs/python.md): FP8/FP6/FP4 arrays are ml_dtypes arrays
(``ml_dtypes.float8_e4m3fn``, ...) when ml_dtypes is installed, the dtype
naming the format, and ``uint8`` codes (one encoding per byte, in its low
bits) otherwise or when asked with ``dtype=np.uint8``; binary16 is NumPy's
``float16`` (or ``uint16`` codes), bfloat16 ``ml_dtypes.bfloat16`` (or
``uint16`` codes). PyTorch CPU tensors (``torch.float8_e4m3fn``, ...) go in
and come out the same way, without copies (_torch.py).
"""

from __future__ import annotations

import dataclasses
import operator
import secrets
from typing import Any, Dict, Optional, Tuple

import numpy as np

from . import _core

try:  # optional: typed FP8/FP6/FP4 and bfloat16 arrays
    import ml_dtypes as _ml_dtypes
except ImportError:  # pragma: no cover - exercised where ml_dtypes is missing
    _ml_dtypes = None

__all__ = ["__version__", "formats", "info", "FormatInfo", "encode", "decode", "convert",
           "matmul", "eltwise", "ELTWISE_OPS", "ROUNDING_MODES", "MATMUL_MODELS",
           "MATMUL_TABLES", "MXArray",
           "mx_quantize", "mx_dequantize", "MX_FORMATS", "SCALE_ROUNDINGS", "calibrate",
           "CalibrationResult", "CALIBRATION_METHODS", "quantize_linear", "dequantize_linear",
           "cast", "compute_scale", "quantize_per_tensor", "dequantize_per_tensor",
           "quantize_per_channel", "dequantize_per_channel", "quantize_per_block",
           "dequantize_per_block", "DelayedScaling", "CHANNEL_AXES", "AMAX_REDUCTIONS",
           "pack", "unpack", "encode_packed", "decode_packed", "PACKED_FORMATS", "amax",
           "column_amax", "AMAX_NAN", "AbsHistogram", "table", "ValueTable"]

# The one version, include/minifloat/config.hpp, compiled into the extension.
__version__: str = _core.version

# ---------------------------------------------------------------------------
# Formats: the names come from the library's registry (format_registry.hpp),
# compared ignoring case as every other reader of names compares them.
# ---------------------------------------------------------------------------
_FORMAT_COUNT: int = _core.format_count
_SOURCE_FLOAT32: int = _core.source_float32
_SOURCE_FLOAT64: int = _core.source_float64

_ID_BY_NAME = {}
_CANONICAL = [""] * _FORMAT_COUNT
_ALIASES = [[] for _ in range(_FORMAT_COUNT)]
for _name, _id, _is_canonical in _core.format_names():
    _ID_BY_NAME[_name.lower()] = _id
    if _is_canonical:
        _CANONICAL[_id] = _name
    else:
        _ALIASES[_id].append(_name)


def _typed_dtype(name: str) -> Optional[np.dtype]:
    if name == "float16":
        return np.dtype(np.float16)
    if _ml_dtypes is not None and hasattr(_ml_dtypes, name):
        return np.dtype(getattr(_ml_dtypes, name))
    return None


# The array type holding one encoding of each format (None where it needs
# ml_dtypes and ml_dtypes is missing), and the unsigned codes of its size.
_TYPED = [_typed_dtype(name) for name in _core.typed_dtype_names()]
_INFO = [_core.describe(i) for i in range(_FORMAT_COUNT)]
_CODES = [np.dtype(np.uint8) if d["bits"] <= 8 else np.dtype(np.uint16) for d in _INFO]
_ID_BY_TYPED = {d: i for i, d in enumerate(_TYPED) if d is not None}

# Rounding modes: the names of mf::rounding, "stochastic" for
# mf::conversion::stochastic, and the tool's spellings (minifloat encode
# --round ...). The value is the mf::rounding enumerator, or -1. Read as
# every name the package takes is (_choice): any case, '-' as '_'.
_MODES = {
    "nearest_even": 0, "rne": 0,
    "toward_zero": 1, "rtz": 1,
    "toward_positive": 2, "up": 2, "ceil": 2,
    "toward_negative": 3, "down": 3, "floor": 3,
    "stochastic": -1, "sr": -1,
}
ROUNDING_MODES: Tuple[str, ...] = ("nearest_even", "toward_zero", "toward_positive",
                                   "toward_negative", "stochastic")
_STOCHASTIC_DEFAULT_BITS = 32  # mf::stochastic_default_bits


def _name_key(name: str) -> str:
    """A name as the tool compares names: in any case, '-' and '_' alike."""
    return name.lower().replace("-", "_")


def _choice(value: Any, arg: str, names: Any) -> str:
    """`value`'s name among `names` (lower case, with '_'), read in any case
    and with '-' for '_', as the tool reads its choices; a ValueError (a
    TypeError for a value that is not a str) lists `names`."""
    if isinstance(value, str):
        key = _name_key(value)
        if key in names:
            return key
    shown = ", ".join(names)
    if not isinstance(value, str):
        raise TypeError(f"{arg}: expected a name (str), got {value!r}; accepted: {shown}")
    raise ValueError(f"{arg}: {value!r} is not accepted; accepted: {shown}")


def _mode_among(value: Any, arg: str, allowed: Tuple[str, ...]) -> int:
    """The mf::rounding enumerator of the mode `value` names (any spelling of
    _MODES) if it is one of `allowed`; a ValueError lists those otherwise."""
    mode = _MODES[_choice(value, arg, _MODES)]
    if mode not in [_MODES[name] for name in allowed]:
        spellings = [name + " (" + ", ".join(k for k, m in _MODES.items()
                                             if m == _MODES[name] and k != name) + ")"
                     for name in allowed]
        raise ValueError(f"{arg}: {value!r} is not a mode of this model; accepted: "
                         f"{', '.join(spellings)}")
    return mode


def formats() -> list:
    """The library's format names, in the order of the README's table."""
    return list(_CANONICAL)


@dataclasses.dataclass(frozen=True)
class FormatInfo:
    """The parameters of a format (docs/semantics.md, section 1.1).

    Values are exact (every value of every format is a float32). ``specials``
    is how the format spends its encodings on Inf/NaN/zero: ``ieee``, ``fn``,
    ``fnuz``, ``finite`` or ``fnu``. ``min_subnormal`` is None for e8m0fnu,
    which has no subnormals. ``dtype`` is the NumPy/ml_dtypes type of its
    arrays (None when that needs ml_dtypes and it is missing); ``codes_dtype``
    the unsigned integer type of its codes.
    """

    name: str
    aliases: Tuple[str, ...]
    bits: int
    exponent_bits: int
    mantissa_bits: int
    bias: int
    specials: str
    signed: bool
    has_inf: bool
    has_nan: bool
    has_zero: bool
    has_negative_zero: bool
    has_subnormals: bool
    max: float
    lowest: float
    min_normal: float
    min_subnormal: Optional[float]
    epsilon: float
    max_bits: int
    dtype: Optional[np.dtype]
    codes_dtype: np.dtype


def info(name: Any) -> FormatInfo:
    """The parameters of format ``name`` (any accepted spelling, or its dtype)."""
    i = _format_id(name, "name")
    return FormatInfo(name=_CANONICAL[i], aliases=tuple(_ALIASES[i]), dtype=_TYPED[i],
                      codes_dtype=_CODES[i], **_INFO[i])


@dataclasses.dataclass(frozen=True)
class ValueTable:
    """Every encoding of a format, in order, with its fields and its value:
    the columns of the tool's ``table`` command. ``sign`` is None for a format
    without a sign bit (e8m0fnu) and ``mantissa`` None for one without
    mantissa bits; ``kind`` is ``zero``, ``subnormal``, ``normal``, ``inf``
    or ``nan`` per encoding; ``value`` is exact (float32)."""

    format: str
    bits: np.ndarray
    sign: Optional[np.ndarray]
    exponent: np.ndarray
    mantissa: Optional[np.ndarray]
    kind: np.ndarray
    value: np.ndarray

    def __len__(self) -> int:
        return len(self.bits)


# The names of _core.encoding_classes' indices (mf::fpclassify's classes).
_ENCODING_CLASSES = ("zero", "subnormal", "normal", "inf", "nan")


def table(fmt: Any) -> ValueTable:
    """Every encoding of ``fmt`` and its value (the tool's ``table``):
    ``mf.table("e2m1fn").value`` is the 16 values of FP4 E2M1."""
    i = _format_id(fmt, "fmt")
    name = _CANONICAL[i]
    facts = info(name)
    codes = np.arange(1 << facts.bits, dtype=facts.codes_dtype)
    wide = codes.astype(np.uint32)
    mantissa = wide & ((1 << facts.mantissa_bits) - 1)
    exponent = (wide >> facts.mantissa_bits) & ((1 << facts.exponent_bits) - 1)
    sign = (wide >> (facts.bits - 1)) & 1 if facts.signed else None
    kind = np.array(_ENCODING_CLASSES)[np.array(_core.encoding_classes(i))]
    return ValueTable(format=name, bits=codes,
                      sign=None if sign is None else sign.astype(np.uint8),
                      exponent=exponent.astype(np.uint8),  # at most 8 exponent bits
                      mantissa=mantissa.astype(np.uint16) if facts.mantissa_bits else None,
                      kind=kind, value=decode(codes, name, dtype=np.float32))


# ---------------------------------------------------------------------------
# Argument checks. Every message names the argument, what was given and what
# is accepted.
# ---------------------------------------------------------------------------
def _accepted_names() -> str:
    return (", ".join(_CANONICAL) + " (or another spelling of them: float8_e4m3fn, "
            "FLOAT8E4M3FN, f8E4M3FN, HF8, float16, ...; info(name).aliases lists them)")


def _format_id(fmt: Any, arg: str) -> int:
    if isinstance(fmt, str):
        i = _ID_BY_NAME.get(fmt.lower())
        if i is None:
            raise ValueError(f"{arg}: unknown format {fmt!r}; accepted: {_accepted_names()}")
        return i
    try:
        d = np.dtype(fmt)
    except TypeError:
        d = None
    if d is not None and d in _ID_BY_TYPED:
        return _ID_BY_TYPED[d]
    raise TypeError(f"{arg}: expected a format name (str) or an FP8/FP6/FP4/16-bit dtype, "
                    f"got {fmt!r}; accepted names: {_accepted_names()}")


def _dtype_list(dtypes) -> str:
    return ", ".join(str(d) for d in dtypes)


def _as_array(x: Any, arg: str, numbers: bool = False) -> np.ndarray:
    """x as a C-contiguous, aligned ndarray in native byte order: zero-copy
    when it already is one (or exposes one through the buffer protocol or
    __array__), else a copy. With ``numbers``, Python ints (a list, a tuple
    or a scalar of them, bools excepted) are read as float64 values, as
    Python floats are, not as an integer array."""
    if not isinstance(x, np.ndarray):
        python_numbers = isinstance(x, (list, tuple, int, float)) and not isinstance(x, bool)
        given = x
        try:
            if hasattr(x, "__dlpack__") and not hasattr(x, "__array__"):
                x = np.from_dlpack(x)  # a DLPack-only tensor on the CPU: no copy
            else:
                x = np.asarray(x)
        except Exception as e:  # noqa: BLE001 - reported with the argument's name
            raise TypeError(f"{arg}: cannot be read as an array ({type(x).__name__}): {e}") \
                from None
        if numbers and python_numbers and x.dtype.kind in "iu":
            x = x.astype(np.float64)
        elif numbers and python_numbers and x.dtype == object:
            # Python ints beyond int64 make NumPy build an object array:
            # read them as float64 too, as the smaller ones are.
            try:
                x = np.asarray(given, dtype=np.float64)
            except OverflowError:
                raise ValueError(f"{arg}: holds an int beyond float64's range") from None
            except (TypeError, ValueError) as e:
                raise TypeError(f"{arg}: cannot be read as numbers: {e}") from None
    if not x.dtype.isnative:
        x = x.astype(x.dtype.newbyteorder("="))  # a big-endian file's array: copied
    if not (x.flags.c_contiguous and x.flags.aligned):
        x = np.array(x, order="C")  # documented: such input is copied (and aligned)
    return x


def _float_source(x: np.ndarray, arg: str) -> int:
    d = x.dtype
    if d == np.float32:
        return _SOURCE_FLOAT32
    if d == np.float64:
        return _SOURCE_FLOAT64
    i = _ID_BY_TYPED.get(d)
    if i is not None:
        return i
    accepted = ["float32", "float64"] + [str(t) for t in _TYPED if t is not None]
    hint = ""
    if d.kind in "ui":
        hint = ("; integer codes of a format go through convert(codes, to, from_=...) or "
                "decode(codes, fmt), integer values through x.astype(np.float64)")
    raise TypeError(f"{arg}: dtype {d} is not accepted; accepted: {_dtype_list(accepted)}{hint}")


def _codes_source(x: np.ndarray, fmt: Any, fmt_arg: str, arg: str) -> Tuple[int, bool]:
    """The format of encodings x and whether x is plain codes (uint8/uint16)."""
    i = _ID_BY_TYPED.get(x.dtype)
    if i is not None:
        if fmt is not None and _format_id(fmt, fmt_arg) != i:
            raise ValueError(f"{fmt_arg}: {fmt!r} contradicts the dtype of {arg}, {x.dtype} "
                             f"(which is {_CANONICAL[i]}); omit {fmt_arg} or view {arg} as "
                             f"uint8 codes")
        return i, False
    if x.dtype in (np.uint8, np.uint16):
        if fmt is None:
            raise TypeError(f"{fmt_arg}: required for {x.dtype} codes (the dtype does not say "
                            f"the format); accepted: {_accepted_names()}")
        i = _format_id(fmt, fmt_arg)
        if x.dtype != _CODES[i]:
            raise TypeError(f"{arg}: {_CANONICAL[i]} codes are {_CODES[i]}, got {x.dtype}")
        return i, True
    accepted = ["uint8", "uint16"] + [str(t) for t in _TYPED if t is not None]
    hint = "; to round float values use encode(x, fmt)" if x.dtype.kind == "f" else ""
    raise TypeError(f"{arg}: dtype {x.dtype} holds no encodings; accepted: "
                    f"{_dtype_list(accepted)}{hint}")


def _uint64(value: Any, arg: str) -> int:
    if isinstance(value, bool):
        raise TypeError(f"{arg}: expected an int, got a bool")
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError(f"{arg}: expected an int in [0, 2**64), got {type(value).__name__} "
                        f"{value!r}") from None
    if not 0 <= v < 1 << 64:
        raise ValueError(f"{arg}: {v} does not fit 64 bits; accepted: an int in [0, 2**64)")
    return v


def _as_float32(value: Any, arg: str) -> np.float32:
    # A real number (not a bool, not a string), rounded once to nearest
    # float32, as the C++ entries take it; beyond float32's range: +-Inf.
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{arg}: expected a real number, got {type(value).__name__} {value!r}")
    with np.errstate(over="ignore"):
        return np.float32(value)


def _scale(scale: Any) -> float:
    if scale.__class__ is float and scale == 1.0:  # the common call, kept cheap
        return 1.0
    s = _as_float32(scale, "scale")
    if not np.isfinite(s) or s == 0:
        raise ValueError(f"scale: {scale!r} (as float32: {s}) is not accepted; accepted: a "
                         f"finite, non-zero number within float32's range (every result "
                         f"would be NaN, Inf or zero)")
    return float(s)


def _conversion(rounding: Any, saturate: Any, seed: Any, offset: Any,
                random_bits: Any) -> Tuple[int, bool, bool, int, int, int]:
    if (rounding == "nearest_even" and saturate.__class__ is bool and seed is None
            and offset.__class__ is int and offset == 0 and random_bits is None):
        return 0, saturate, False, 0, 0, _STOCHASTIC_DEFAULT_BITS  # the defaults, kept cheap
    mode = _MODES[_choice(rounding, "rounding", _MODES)]
    if not isinstance(saturate, (bool, np.bool_)):
        raise TypeError(f"saturate: expected True or False, got {saturate!r}")
    stochastic = mode < 0
    if not stochastic:
        given = [arg for arg, unset in (("seed", seed is None), ("offset", offset is None or
                                        (not isinstance(offset, bool) and offset == 0)),
                                        ("random_bits", random_bits is None)) if not unset]
        if given:
            raise ValueError(f"{given[0]}: used only with rounding='stochastic', "
                             f"got rounding={rounding!r}")
        return mode, bool(saturate), False, 0, 0, _STOCHASTIC_DEFAULT_BITS
    seed = secrets.randbits(64) if seed is None else _uint64(seed, "seed")
    offset = _uint64(offset, "offset")
    bits = _STOCHASTIC_DEFAULT_BITS
    if random_bits is not None:
        if isinstance(random_bits, bool):
            raise TypeError("random_bits: expected an int in 1..32, got a bool")
        try:
            bits = operator.index(random_bits)
        except TypeError:
            raise TypeError(f"random_bits: expected an int in 1..32, got "
                            f"{type(random_bits).__name__} {random_bits!r}") from None
        if not 1 <= bits <= 32:
            raise ValueError(f"random_bits: {bits} is outside the accepted 1..32")
    return 0, bool(saturate), True, seed, offset, bits


def _output(out: Any, dtype: Any, allowed: list, default: np.dtype, shape: tuple,
            source: np.ndarray) -> np.ndarray:
    """The array to write: `out` after its checks, or a new one."""
    wanted = None
    if dtype is not None:
        try:
            wanted = np.dtype(dtype)
        except TypeError:
            raise TypeError(f"dtype: {dtype!r} is not a dtype; accepted: "
                            f"{_dtype_list(allowed)}") from None
        if wanted not in allowed:
            raise TypeError(f"dtype: {wanted} is not accepted here; accepted: "
                            f"{_dtype_list(allowed)}")
    if out is None:
        return np.empty(shape, wanted if wanted is not None else default)
    if not isinstance(out, np.ndarray):
        raise TypeError(f"out: expected a numpy.ndarray, got {type(out).__name__}")
    if out.dtype not in allowed:
        raise TypeError(f"out: dtype {out.dtype} is not accepted here; accepted: "
                        f"{_dtype_list(allowed)}")
    if wanted is not None and out.dtype != wanted:
        raise TypeError(f"out: dtype {out.dtype} differs from dtype={wanted}")
    if out.shape != shape:
        raise ValueError(f"out: shape {out.shape} differs from the result's {shape}")
    if not out.flags.c_contiguous:
        raise ValueError("out: not C-contiguous; results are written into out's own buffer, "
                         "so pass a contiguous array (np.empty(shape, dtype)) and copy into "
                         "the strided view afterwards")
    if not out.flags.aligned:
        raise ValueError("out: not aligned to its dtype; pass an array NumPy allocated "
                         "(np.empty(shape, dtype))")
    if not out.flags.writeable:
        raise ValueError("out: read-only array")
    if np.may_share_memory(out, source):
        raise ValueError("out: overlaps the input; the conversions read and write "
                         "different buffers")
    return out


def _flat(a: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Contiguous `a` as `dtype` (same item size; the extension takes any
    shape): no copy."""
    return a if a.dtype == dtype else a.view(dtype)


def _round(x: np.ndarray, source: int, target: int, codes_in: bool, rounding, saturate, seed,
           offset, random_bits, scale, out, dtype, return_amax):
    mode, sat, stochastic, seed, offset, bits = _conversion(rounding, saturate, seed, offset,
                                                            random_bits)
    s = _scale(scale)
    if not isinstance(return_amax, (bool, np.bool_)):
        raise TypeError(f"return_amax: expected True or False, got {return_amax!r}")
    typed = _TYPED[target]
    allowed = [_CODES[target]] + ([typed] if typed is not None else [])
    default = _CODES[target] if codes_in or typed is None else typed
    y = _output(out, dtype, allowed, default, x.shape, x)
    flat_in = x if source >= _FORMAT_COUNT else _flat(x, _CODES[source])
    amax = _core.encode(flat_in, source, _flat(y, _CODES[target]), target, mode, sat,
                        stochastic, seed, offset, bits, s, bool(return_amax))
    return (y, amax) if return_amax else y


# ---------------------------------------------------------------------------
# The entries.
# ---------------------------------------------------------------------------
def encode(x: Any, fmt: Any, *, rounding: str = "nearest_even", saturate: bool = False,
           seed: Optional[int] = None, offset: int = 0, random_bits: Optional[int] = None,
           scale: float = 1.0, out: Optional[np.ndarray] = None, dtype: Any = None,
           return_amax: bool = False):
    """Rounds the values of ``x`` into format ``fmt`` (mf::bulk::encode).

    x: float32, float64, float16, bfloat16 or an FP8/FP6/FP4 ml_dtypes array
      (anything np.asarray reads: buffer protocol, __array__). Contiguous
      input is read in place; other input is copied first.
    fmt: a format name (``formats()``, any case, or the ml_dtypes name such
      as ``float8_e4m3fn``) or its dtype.
    rounding: ``nearest_even`` (default), ``toward_zero``, ``toward_positive``,
      ``toward_negative`` or ``stochastic``.
    saturate: overflow to ±max instead of Inf/NaN (docs/semantics.md, 3.4).
    seed, offset, random_bits: the stochastic stream; element i rounds with
      the random bits of element offset + i of stream ``seed`` (Philox4x32-10),
      so a slice encoded with offset k equals that slice of the whole. With
      seed=None a fresh seed is drawn from the OS (not reproducible).
      random_bits: 1..32 (default 32).
    scale: each input is multiplied by it first (rounded to float32; the
      product rounded once in the input's arithmetic; exactly 1: no multiply).
    out: the array to write (C-contiguous, the input's shape, an accepted dtype).
    dtype: of the result: the format's typed dtype (ml_dtypes / float16;
      the default when available) or its codes (uint8, or uint16 for the
      16-bit formats).
    return_amax: also return max|x| of the unscaled input (NaN if any input
      is NaN), as a float: exact, so a float64 input's amax is not rounded
      to float32.
    """
    target = _format_id(fmt, "fmt")
    a = _as_array(x, "x", numbers=True)
    source = _float_source(a, "x")
    return _round(a, source, target, False, rounding, saturate, seed, offset, random_bits,
                  scale, out, dtype, return_amax)


def convert(codes: Any, to: Any, from_: Any = None, *, rounding: str = "nearest_even",
            saturate: bool = False, seed: Optional[int] = None, offset: int = 0,
            random_bits: Optional[int] = None, scale: float = 1.0,
            out: Optional[np.ndarray] = None, dtype: Any = None, return_amax: bool = False):
    """Rounds encodings of one format into another (mf::bulk::encode from a
    minifloat source: the exact decode to float, then one rounding).

    codes: an ml_dtypes/float16 array (the dtype names the format) or uint8 /
      uint16 codes with ``from_`` naming the format.
    The result is in the input's convention (typed or codes) unless ``dtype``
    says otherwise. The other arguments are those of ``encode``.
    """
    target = _format_id(to, "to")
    a = _as_array(codes, "codes")
    source, codes_in = _codes_source(a, from_, "from_", "codes")
    return _round(a, source, target, codes_in, rounding, saturate, seed, offset, random_bits,
                  scale, out, dtype, return_amax)


def decode(codes: Any, fmt: Any = None, *, scale: float = 1.0,
           out: Optional[np.ndarray] = None, dtype: Any = None) -> np.ndarray:
    """The exact values of encodings (mf::bulk::decode).

    codes: an ml_dtypes/float16 array (the dtype names the format; ``fmt``
      may be omitted) or uint8 / uint16 codes with ``fmt``. Bits above the
      format's width are ignored, as in the C++ from_bits.
    dtype: float32 (default; exact, times ``scale`` rounded once), float64
      (exact, times ``scale`` rounded once in float64), float16 or bfloat16
      (mf::bulk::decode_to_binary16 / decode_to_bfloat16: nearest even, exact
      for every format of at most 8 bits except e8m0fnu into float16; no
      scale).
    """
    a = _as_array(codes, "codes")
    source, _ = _codes_source(a, fmt, "fmt", "codes")
    s = _scale(scale)
    allowed = [np.dtype(np.float32), np.dtype(np.float64), np.dtype(np.float16)]
    if _TYPED[_ID_BY_NAME["bfloat16"]] is not None:
        allowed.append(_TYPED[_ID_BY_NAME["bfloat16"]])
    y = _output(out, dtype, allowed, np.dtype(np.float32), a.shape, a)
    flat_in = _flat(a, _CODES[source])
    if y.dtype == np.float32:
        _core.decode(flat_in, source, y, s)
        return y
    if y.dtype == np.float64:
        # Every value of these formats is a float32 (the bulk decode's exact
        # result); the scale then multiplies in float64, one rounding.
        exact = np.empty(a.shape, np.float32)
        _core.decode(flat_in, source, exact, 1.0)
        np.multiply(exact, s, out=y, dtype=np.float64)
        return y
    if s != 1.0:
        raise ValueError(f"scale: {scale!r} is applied only with dtype=float32 or float64 "
                         f"(the C++ decode_to_binary16 / decode_to_bfloat16 take no scale); "
                         f"decode to float32 with the scale, then round")
    target = _ID_BY_NAME["binary16"] if y.dtype == np.float16 else _ID_BY_NAME["bfloat16"]
    _core.encode(flat_in, source, _flat(y, np.uint16), target, 0, False, False, 0, 0,
                 _STOCHASTIC_DEFAULT_BITS, 1.0, False)
    return y


# ---------------------------------------------------------------------------
# The hybrid MatMul (mf::hybrid::matmul, docs/hybrid.md): A (M x K) times B
# (K x N) in an FP8 accelerator's element types, accumulated by one of the
# accumulation models, post-processed and rounded to the output type.
# ---------------------------------------------------------------------------
MATMUL_TABLES = ("vendor_hybrid_fp8", "cublaslt_fp8", "any")
# name -> mf::hybrid::model_kind (exact_to_output is `exact` carried to C).
MATMUL_MODELS = ("sequential_fp32", "exact", "exact_to_output", "avx512_bf16_pairs",
                 "amx_tile_pairs", "chunked_exact", "reduced_precision")
_MODEL_KIND = {"sequential_fp32": 0, "exact": 1, "exact_to_output": 1, "avx512_bf16_pairs": 2,
               "amx_tile_pairs": 3, "chunked_exact": 4, "reduced_precision": 5}
# The element types' names (the registry's spellings, as the tool takes
# them) by the dtype that holds them; uint8 is U8, integers, not FP8 codes:
# FP8 codes in uint8 arrays need a_type= / b_type=.
_ELEMENT_BY_DTYPE = {np.dtype(np.int8): "I8", np.dtype(np.uint8): "U8",
                     np.dtype(np.float16): "FP16", np.dtype(np.float32): "FP32"}
for _name, _element in (("float8_e4m3fn", "HF8"), ("float8_e5m2", "BF8"), ("bfloat16", "BF16")):
    if _ml_dtypes is not None and hasattr(_ml_dtypes, _name):
        _ELEMENT_BY_DTYPE[np.dtype(getattr(_ml_dtypes, _name))] = _element
_ELEMENT_STORAGE = {"I8": np.dtype(np.int8), "U8": np.dtype(np.uint8), "HF8": np.dtype(np.uint8),
                    "BF8": np.dtype(np.uint8), "FP16": np.dtype(np.uint16),
                    "BF16": np.dtype(np.uint16), "FP32": np.dtype(np.float32)}
_ELEMENT_NAMES = {_name.lower(): _element for _name, _element in _core.element_type_names()}


def _element(name: Any, arg: str) -> str:
    """An element type by name (any spelling of the registry, any case, as
    the tool reads it) or by the NumPy / ml_dtypes dtype or scalar type that
    holds it (np.float32, ml_dtypes.float8_e4m3fn, ...)."""
    if isinstance(name, str) and name.lower() in _ELEMENT_NAMES:
        return _ELEMENT_NAMES[name.lower()]
    if not isinstance(name, str):
        try:
            by_dtype = _ELEMENT_BY_DTYPE.get(np.dtype(name))
        except TypeError:
            by_dtype = None
        if by_dtype is not None:
            return by_dtype
    raise ValueError(f"{arg}: {name!r} is not an element type of the hybrid MatMul; "
                     f"accepted: HF8 (e4m3fn), BF8 (e5m2), FP16, BF16, I8, U8, FP32 "
                     f"(outputs only), or the dtype that holds one")


def _operand(x: Any, given: Any, arg: str, type_arg: str,
             matrix: bool = True) -> Tuple[np.ndarray, str]:
    a = _as_array(x, arg)
    if matrix and a.ndim != 2:
        raise ValueError(f"{arg}: expected a 2-D array, got shape {a.shape}")
    from_dtype = _ELEMENT_BY_DTYPE.get(a.dtype)
    if given is None:
        if from_dtype is None or from_dtype == "FP32":
            raise TypeError(f"{arg}: dtype {a.dtype} does not name an element type; pass "
                            f"{type_arg}= (uint8 codes of HF8/BF8, uint16 of FP16/BF16) or an "
                            f"ml_dtypes float8_e4m3fn/float8_e5m2/bfloat16, float16, int8 or "
                            f"uint8 array")
        t = from_dtype
    else:
        t = _element(given, type_arg)
        if from_dtype is not None and from_dtype != t and not (
                a.dtype == np.uint8 and t in ("HF8", "BF8")):
            raise ValueError(f"{type_arg}: {given!r} contradicts the dtype of {arg}, {a.dtype}")
        if from_dtype is None and a.dtype.itemsize != _ELEMENT_STORAGE[t].itemsize:
            raise TypeError(f"{arg}: {t} codes are {_ELEMENT_STORAGE[t]}, got {a.dtype}")
    if t == "FP32":
        raise ValueError(f"{type_arg}: FP32 is an output type only")
    return a.view(np.uint8 if a.dtype.itemsize == 1 else np.uint16), t


# The parameters of each model (the C++ models:: constructors) and their
# defaults; a parameter given to a model that has none of it is an error,
# as the tool's options are (promote_every=64 with the default model would
# otherwise run sequential_fp32 without a word).
_MODEL_PARAMETERS = {
    "avx512_bf16_pairs": {"nan_payload": "canonical"},
    "amx_tile_pairs": {"chunk": 32, "order": "sdm", "nan_payload": "canonical"},
    "chunked_exact": {"chunk": 64, "chunk_rounding": "nearest_even", "presum_round": False},
    "reduced_precision": {"bits": 14, "promote_every": 128, "variant": "seq", "block": 32,
                          "trunc": "toward_zero"},
}


def _model_fields(model: str, given: Dict[str, Any]):
    model = _choice(model, "model", MATMUL_MODELS)
    defaults = _MODEL_PARAMETERS.get(model, {})
    for name, value in given.items():
        if value is not None and name not in defaults:
            takes = ", ".join(m for m, p in _MODEL_PARAMETERS.items() if name in p)
            raise ValueError(f"{name}: model {model!r} has no such parameter (it is one of "
                             f"{takes})")
    v = {name: (given[name] if given[name] is not None else defaults.get(name))
         for name in given}
    f = _core.ModelFields()
    f.kind = _MODEL_KIND[model]
    f.exact_to_output = model == "exact_to_output"
    if model in ("amx_tile_pairs", "chunked_exact"):
        f.chunk = _c_int(v["chunk"], "chunk")
    if model == "amx_tile_pairs":
        f.order = 0 if _choice(v["order"], "order", ("sdm", "guide")) == "sdm" else 1
    if model in ("avx512_bf16_pairs", "amx_tile_pairs"):
        nans = _choice(v["nan_payload"], "nan_payload", ("canonical", "propagate"))
        f.nans = 0 if nans == "canonical" else 1  # mf::hybrid::nan_payload
    if model == "chunked_exact":
        f.rounding = _mode_among(v["chunk_rounding"], "chunk_rounding", ("nearest_even",
                                                                         "toward_zero"))
        f.presum_round = _bool(v["presum_round"], "presum_round")
    if model == "reduced_precision":
        f.bits = _c_int(v["bits"], "bits")
        f.promote_every = _c_int(v["promote_every"], "promote_every")
        f.variant = 0 if _choice(v["variant"], "variant", ("seq", "block")) == "seq" else 1
        f.block = _c_int(v["block"], "block")
        trunc = _mode_among(v["trunc"], "trunc", ("toward_zero", "toward_negative"))
        f.trunc = 0 if trunc == _MODES["toward_zero"] else 1  # mf::hybrid::truncation
    return f


def _threads(threads: Any) -> int:
    t = _int(threads, "threads")
    if not 1 <= t < 1 << 32:
        raise ValueError(f"threads: {t}; accepted: an int in [1, 2**32) (1 runs on the calling "
                         f"thread)")
    return t


def _result_storage(tc: str) -> np.dtype:
    """The array the C++ entry writes output type tc into (int8 as uint8)."""
    storage = _ELEMENT_STORAGE[tc]
    return storage if storage.kind != "i" else np.dtype(np.uint8)


def _result_array(out: Any, tc: str, shape: tuple, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """The array C is written into: `out` (C-contiguous, `shape`, the output
    type's codes or typed dtype) after its checks, or a new one."""
    if out is None:
        return np.empty(shape, _result_storage(tc))
    allowed = [_result_storage(tc), _ELEMENT_STORAGE[tc]]
    allowed += [d for d, t in _ELEMENT_BY_DTYPE.items() if t == tc]
    allowed = list(dict.fromkeys(allowed))
    c = _output(out, None, allowed, allowed[0], shape, a)
    if np.may_share_memory(c, b):
        raise ValueError("out: overlaps the input; the entries read and write different "
                         "buffers")
    return c


def _raw(c: np.ndarray) -> np.ndarray:
    """`c` as the plain dtype the extension takes (no copy)."""
    return c if c.dtype == np.float32 else c.view(np.uint8 if c.itemsize == 1 else np.uint16)


def _typed_result(c: np.ndarray, tc: str) -> np.ndarray:
    """Codes of output type tc viewed as its dtype (ml_dtypes where it has
    the type, NumPy's float16 and int8, else the codes)."""
    typed = {"HF8": "float8_e4m3fn", "BF8": "float8_e5m2", "BF16": "bfloat16"}.get(tc)
    if tc == "I8":
        return c.view(np.int8)
    if tc == "FP16":
        return c.view(np.float16)
    if typed is not None and _ml_dtypes is not None:
        return c.view(getattr(_ml_dtypes, typed))
    return c


@dataclasses.dataclass
class MatMulResult:
    """matmul(..., full=True): C, max |y2| (float MatMuls; None for
    integers) and the accumulators (float32 or int32, M x N) when asked."""
    c: np.ndarray
    amax: Optional[float]
    accumulator: Optional[np.ndarray]


def _matmul_scale(v: Any, arg: str) -> float:
    # NaN, Inf and zero are accepted: the epilogue carries them as IEEE 754
    # does (docs/hybrid.md), as the hardware's would.
    return float(_as_float32(v, arg))


def _hybrid_output(rounding: Any, saturate: Any, seed: Any, offset: Any,
                   random_bits: Any) -> Tuple[bool, bool, int, int, int]:
    # The hybrid outputs' conversion (mf::hybrid::output_conversion): nearest
    # even or stochastic, saturating or not.
    mode, sat, stochastic, s, o, bits = _conversion(rounding, saturate, seed, offset,
                                                    random_bits)
    if mode != 0:
        raise ValueError(f"rounding: {rounding!r}; the output rounds to nearest even or "
                         f"stochastically; accepted: nearest_even, stochastic")
    return sat, stochastic, s, o, bits


def matmul(a: Any, b: Any, out_type: Any, *, a_type: Any = None, b_type: Any = None,
           table: str = "any", model: str = "sequential_fp32", chunk: Optional[int] = None,
           order: Optional[str] = None, chunk_rounding: Optional[str] = None,
           presum_round: Optional[bool] = None, bits: Optional[int] = None,
           promote_every: Optional[int] = None, variant: Optional[str] = None,
           block: Optional[int] = None, trunc: Optional[str] = None,
           nan_payload: Optional[str] = None, scale_a: Any = 1.0,
           scale_b: Any = 1.0, bias: Any = None,
           scale_out: float = 1.0, scale_rule: str = "multiply", placement: str = "epilogue",
           saturate: bool = False, rounding: str = "nearest_even", seed: Optional[int] = None,
           offset: int = 0, random_bits: Optional[int] = None, integer_scale: float = 1.0,
           requant: str = "exact", threads: int = 1, reference_only: bool = False,
           check_z: bool = True, accumulator: bool = False, full: bool = False,
           out: Optional[np.ndarray] = None):
    """C = A x B in an FP8 accelerator's types, bit-exact to the chosen
    accumulation model (mf::hybrid::matmul; docs/hybrid.md).

    a (M x K), b (K x N): ml_dtypes float8_e4m3fn / float8_e5m2 / bfloat16,
      float16, int8 or uint8 (integers) arrays, or uint8 / uint16 codes with
      a_type= / b_type= (HF8, BF8, FP16, BF16).
    out_type: HF8, BF8, FP16, BF16, FP32 (or I8 / U8 for the integer MatMul).
    table: the type table the request must satisfy (vendor_hybrid_fp8,
      cublaslt_fp8, any); check_z=False lifts the vendor's K % 16 rule.
    model and its parameters: as the C++ models:: constructors, with their
      defaults: amx_tile_pairs chunk (32), order (sdm); chunked_exact chunk
      (64), chunk_rounding (nearest_even), presum_round (False);
      reduced_precision bits (14), promote_every (128), variant (seq),
      block (32), trunc (toward_zero); avx512_bf16_pairs and
      amx_tile_pairs nan_payload: canonical (every NaN 0x7FC00000) or
      propagate (the NaN the instruction writes, payload included). A
      parameter of another model is a ValueError.
    scale_a / scale_b: a number, or one per row of A / column of B;
      bias: one per column; scale_out and scale_rule (multiply, divide);
      placement: epilogue or operands. Scales are real numbers, rounded once
      to float32; NaN, Inf and zero are carried as IEEE 754 does.
    saturate, rounding (nearest_even or stochastic), seed, offset,
      random_bits: the output rounding of a float MatMul to an FP8 or 16-bit
      output; element (i, j) of C draws element offset + i * N + j of the
      stream (mf::hybrid::output_conversion).
    Returns C as codes in the output's dtype (an ml_dtypes array where
    ml_dtypes has it, float32 for FP32), or a MatMulResult with full=True
    (accumulator=True adds the accumulators; it runs the reference loop).
    out: the M x N array to write C into (C-contiguous; the output type's
      codes or its typed dtype); returned as it is.
    """
    A, ta = _operand(a, a_type, "a", "a_type")
    B, tb = _operand(b, b_type, "b", "b_type")
    tc = _element(out_type, "out_type")
    table = _choice(table, "table", MATMUL_TABLES)
    m, k = A.shape
    k2, n = B.shape
    if k2 != k:
        raise ValueError(f"a, b: inner dimensions differ (a is {m} x {k}, b is {k2} x {n})")
    fields = _model_fields(model, {"chunk": chunk, "order": order,
                                   "chunk_rounding": chunk_rounding, "presum_round": presum_round,
                                   "bits": bits, "promote_every": promote_every,
                                   "variant": variant, "block": block, "trunc": trunc,
                                   "nan_payload": nan_payload})

    def scale_arg(v: Any, size: int, arg: str):
        if np.ndim(v) == 0:
            return _matmul_scale(v, arg), None
        vec = np.asarray(v)
        if vec.dtype.kind not in "iuf":
            raise TypeError(f"{arg}: dtype {vec.dtype} is not accepted; accepted: one real "
                            f"number or a vector of them")
        vec = vec.astype(np.float32).ravel()
        if vec.size != size:
            raise ValueError(f"{arg}: {vec.size} scales, expected {size} (or one number)")
        return 1.0, vec.tolist()

    sa, rows = scale_arg(scale_a, m, "scale_a")
    sb, columns = scale_arg(scale_b, n, "scale_b")
    bias_list = None
    if bias is not None:
        bias_vec = np.asarray(bias, np.float32).ravel()
        if bias_vec.size != n:
            raise ValueError(f"bias: {bias_vec.size} values, expected {n}")
        bias_list = bias_vec.tolist()
    scale_rule = _choice(scale_rule, "scale_rule", ("multiply", "divide"))
    placement = _choice(placement, "placement", ("epilogue", "operands"))
    requant = _choice(requant, "requant", ("exact", "fp32"))
    sat, stochastic, stream_seed, stream_offset, rbits = _hybrid_output(
        rounding, saturate, seed, offset, random_bits)
    if stochastic and tc == "FP32":
        raise ValueError("rounding: stochastic needs an FP8 or 16-bit output; an FP32 output "
                         "is the epilogue's own float32 value")
    if stochastic and tc in ("I8", "U8"):
        raise ValueError(f"rounding: not used for the integer MatMul ({tc}); its output is the "
                         f"int32 sum requantized, rounded half to even")
    c = _result_array(out, tc, (m, n), A, B)
    amax, acc = _core.matmul(np.ascontiguousarray(A), np.ascontiguousarray(B), _raw(c),
                             m, n, k, ta, tb, tc, MATMUL_TABLES.index(table), fields,
                             sa, sb, rows, columns, bias_list,
                             _matmul_scale(scale_out, "scale_out"),
                             scale_rule == "divide", placement == "operands", sat,
                             stochastic, stream_seed, stream_offset, rbits, _threads(threads),
                             bool(reference_only), bool(check_z),
                             _matmul_scale(integer_scale, "integer_scale"), requant == "fp32",
                             bool(accumulator))
    c = _typed_result(c, tc) if out is None else c
    if accumulator and acc is not None:
        acc = np.asarray(acc, np.int32 if tc in ("I8", "U8") else np.float32).reshape(m, n)
    if full or accumulator:
        return MatMulResult(c, amax, acc if accumulator else None)
    return c


# ---------------------------------------------------------------------------
# The hybrid element-wise operations (mf::hybrid::eltwise, docs/hybrid.md):
# C = out(A op B) with the scale rules of the vendor's "Hybrid FP8 ONNX"
# notes ("Rules for Eltwise Add/Sub").
# ---------------------------------------------------------------------------
ELTWISE_OPS = ("add", "sub", "mul")  # mf::hybrid::eltwise_op


def eltwise(a: Any, b: Any, out_type: Any, *, op: str = "add", a_type: Any = None,
            b_type: Any = None, table: str = "any", a_scale: Optional[float] = None,
            b_scale: Optional[float] = None, scale_type: Any = "FP16", exact: bool = False,
            placement: str = "epilogue", saturate: bool = False,
            rounding: str = "nearest_even", seed: Optional[int] = None, offset: int = 0,
            random_bits: Optional[int] = None, check_z: bool = True,
            reference_only: bool = False, out: Optional[np.ndarray] = None) -> np.ndarray:
    """C = out(A op B) element by element in an FP8 accelerator's types
    (mf::hybrid::eltwise): the fast path where one exists, the reference
    loop otherwise, the same bits.

    a: an array of any shape with at least one axis (its last axis is the
      innermost dimension, the vendor table's columns; an empty a gives an
      empty C); types and codes as for matmul (a_type= / b_type= name
      uint8 / uint16 codes).
    b: a's shape, one element (a scalar), or one per column (shape
      (columns,), broadcast over the rows).
    out_type: HF8, BF8, FP16, BF16, FP32, or I8 / U8 for integer tensors
      (their result saturated to the type).
    op: add, sub or mul. table: vendor_hybrid_fp8 or any (the default;
      check_z=False lifts the vendor's innermost % 16 rule).
    a_scale, b_scale: an FP8 tensor's scale factor (None: none), a value of
      scale_type (FP16 or BF16, the format of a 16-bit operand when there is
      one); 16-bit and integer tensors take none.
    exact: round once from the exact value instead of through float32.
    placement: epilogue, or operands (FP8 tensors dequantized to scale_type
      first, then computed without scales).
    saturate, rounding (nearest_even or stochastic), seed, offset,
      random_bits: the output rounding; element i of C draws element
      offset + i of the stream.
    Returns C of a's shape in the output's dtype (as matmul), or ``out``
    (a's shape, C-contiguous, the output type's codes or typed dtype)
    written.
    """
    A, ta = _operand(a, a_type, "a", "a_type", matrix=False)
    B, tb = _operand(b, b_type, "b", "b_type", matrix=False)
    tc = _element(out_type, "out_type")
    op = _choice(op, "op", ELTWISE_OPS)
    table = _choice(table, "table", MATMUL_TABLES)
    if A.ndim == 0:
        raise ValueError("a: a 0-d array; eltwise needs at least one axis (the innermost "
                         "dimension): pass a.reshape(1)")
    columns = A.shape[-1]
    rows = A.size // columns if columns else 0  # an empty a: an empty C, as NumPy's ufuncs
    row = B.ndim >= 1 and B.shape[-1] == columns and B.size == columns
    if B.shape != A.shape and B.size != 1 and not row:
        raise ValueError(f"b: shape {B.shape} does not fit a's {A.shape}; accepted: a's shape, "
                         f"one element, or one per column ({columns},)")
    integer = ta in ("I8", "U8") and tb in ("I8", "U8")  # one beside a float: the float rule
    st = _element(scale_type, "scale_type")
    if st not in ("FP16", "BF16"):
        raise ValueError(f"scale_type: {scale_type!r}; accepted: FP16, BF16")
    given_a, sa = a_scale is not None, 1.0
    given_b, sb = b_scale is not None, 1.0
    if given_a:
        sa = _real(a_scale, "a_scale")
    if given_b:
        sb = _real(b_scale, "b_scale")
    for arg, v in (("a_scale", sa), ("b_scale", sb)):
        if v == 0:
            raise ValueError(f"{arg}: 0 is not accepted; accepted: a finite, non-zero value "
                             f"of scale_type ({st})")
    placement = _choice(placement, "placement", ("epilogue", "operands"))
    sat, stochastic, s, o, bits = _hybrid_output(rounding, saturate, seed, offset, random_bits)
    if integer:
        used = [arg for arg, on in (("a_scale", given_a), ("b_scale", given_b),
                                    ("exact", bool(exact)), ("placement", placement != "epilogue"),
                                    ("saturate", sat), ("rounding", stochastic)) if on]
        if used:
            raise ValueError(f"{used[0]}: not used for integer tensors ({ta}); their sum or "
                             f"product is saturated to the type")
    c = _result_array(out, tc, A.shape, A, B)
    _core.eltwise(A, np.ascontiguousarray(B), _raw(c), rows,
                  columns, ta, tb, tc, MATMUL_TABLES.index(table), ELTWISE_OPS.index(op), st,
                  given_a, sa, given_b, sb, _bool(exact, "exact"), placement == "operands", sat,
                  stochastic, s, o, bits, _bool(check_z, "check_z"),
                  _bool(reference_only, "reference_only"))
    return _typed_result(c, tc) if out is None else c


# ---------------------------------------------------------------------------
# MX block formats (mf::mx, docs/mx.md; OCP Microscaling Formats v1.0) and
# NVFP4 (mf::mx::nvfp4): the C++ tensor layout, one call per row, blocks
# along the last axis.
# ---------------------------------------------------------------------------
MX_FORMATS = ("mxfp8_e4m3", "mxfp8_e5m2", "mxfp6_e2m3", "mxfp6_e3m2", "mxfp4", "mxint8",
              "nvfp4")
SCALE_ROUNDINGS = ("floor", "ceil", "even")  # mf::mx::scale_rounding
# name -> (the element's format name, or None for INT8; elements per block;
# the scale's format name). OCP MX v1.0 §5.1 Table 1: k = 32, E8M0 scales;
# NVFP4: 16 e2m1fn elements per e4m3fn scale, and one float32 tensor scale.
_MX = {"mxfp8_e4m3": ("e4m3fn", 32, "e8m0fnu"), "mxfp8_e5m2": ("e5m2", 32, "e8m0fnu"),
       "mxfp6_e2m3": ("e2m3fn", 32, "e8m0fnu"), "mxfp6_e3m2": ("e3m2fn", 32, "e8m0fnu"),
       "mxfp4": ("e2m1fn", 32, "e8m0fnu"), "mxint8": (None, 32, "e8m0fnu"),
       "nvfp4": ("e2m1fn", 16, "e4m3fn")}


@dataclasses.dataclass
class MXArray:
    """An array in an MX format or NVFP4, in the C++ tensor layout
    (docs/mx.md, section 1): the last axis is cut into blocks of 32 (NVFP4:
    16) elements, the last block of a row partial when the row's length is
    not a multiple of it.

    format: a name of MX_FORMATS.
    scales: one per block, shape ``shape[:-1] + (blocks per row,)``: E8M0
      (``ml_dtypes.float8_e8m0fnu``, or uint8 codes) for the MX formats,
      e4m3fn (``ml_dtypes.float8_e4m3fn``, or uint8) for NVFP4.
    elements: MXFP8: the row's encodings, shape ``shape`` (float8_e4m3fn /
      float8_e5m2, or uint8 codes); MXINT8: int8 of shape ``shape``; MXFP6,
      MXFP4, NVFP4: packed bytes (uint8), shape ``shape[:-1] + (bytes per
      row,)``: FP4 two per byte, the first in the low nibble; FP6 a
      little-endian bit stream, element i in bits [6i, 6i+6). With
      packed=False one code per element instead, shape ``shape``
      (float4_e2m1fn / float6_e2m3fn / float6_e3m2fn, or uint8 codes).
    shape: the shape of the values.
    tensor_scale: NVFP4's float32 tensor scale (None for the MX formats).
    packed: whether FP4 / FP6 elements are packed (no meaning for 8-bit
      elements).
    """

    format: str
    scales: np.ndarray
    elements: np.ndarray
    shape: Tuple[int, ...]
    tensor_scale: Optional[float] = None
    packed: bool = True


def _mx_format(fmt: Any, arg: str) -> str:
    if not isinstance(fmt, str):
        raise TypeError(f"{arg}: expected an MX format name (str), got {fmt!r}; accepted: "
                        f"{', '.join(MX_FORMATS)}")
    name = _name_key(fmt)
    if name not in _MX:
        raise ValueError(f"{arg}: unknown MX format {fmt!r}; accepted: {', '.join(MX_FORMATS)}")
    return name


def _mx_rows(shape: Tuple[int, ...]) -> Tuple[int, int]:
    """(rows, length): the blocks run along the last axis; a 0-d array is
    one row of one element."""
    if len(shape) == 0:
        return 1, 1
    return int(np.prod(shape[:-1], dtype=np.int64)), int(shape[-1])


def _mx_dtypes(name: str, packed: bool) -> Tuple[np.dtype, np.dtype]:
    """The dtypes mx_quantize returns: (scales, elements)."""
    element, _, scale = _MX[name]
    scale_dtype = _TYPED[_ID_BY_NAME[scale]] or np.dtype(np.uint8)
    if element is None:
        return scale_dtype, np.dtype(np.int8)
    if _INFO[_ID_BY_NAME[element]]["bits"] == 8 or not packed:
        return scale_dtype, _TYPED[_ID_BY_NAME[element]] or np.dtype(np.uint8)
    return scale_dtype, np.dtype(np.uint8)


def _mx_shapes(name: str, shape: Tuple[int, ...], packed: bool) -> Tuple[tuple, tuple]:
    rows, length = _mx_rows(shape)
    scales, elements = _core.mx_row_sizes(MX_FORMATS.index(name), length, packed)
    lead = tuple(shape[:-1]) if shape else ()
    return lead + (scales,), lead + (elements,)


def _positive_float32(value: Any, arg: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"{arg}: expected a real number, got {type(value).__name__} {value!r}")
    with np.errstate(over="ignore"):
        v = np.float32(value)
    if not (np.isfinite(v) and v > 0):
        raise ValueError(f"{arg}: {value!r} (as float32: {v}) is not accepted; accepted: a "
                         f"finite, positive number within float32's range")
    return float(v)


def mx_quantize(x: Any, fmt: str, *, scale_rounding: Optional[str] = None,
                tensor_scale: Optional[float] = None, packed: bool = True) -> MXArray:
    """Quantizes float32 values to an MX format or NVFP4
    (mf::mx::quantize<Fmt>, mf::mx::nvfp4::quantize), blocks along the last
    axis.

    x: float32 (float16 and bfloat16 are widened first, exactly; float64
      is rejected: the C++ entries read float32, and the rounding to it is
      the caller's choice).
    fmt: mxfp8_e4m3, mxfp8_e5m2, mxfp6_e2m3, mxfp6_e3m2, mxfp4, mxint8
      (OCP MX v1.0 §5.1) or nvfp4.
    scale_rounding: the MX shared scale's rule (mf::mx::scale_rounding):
      ``floor`` (OCP MX v1.0 §6.3, the default), ``ceil`` (nothing clips;
      TransformerEngine, cuBLAS) or ``even`` (amax rounded to the element's
      precision first; torchao's EVEN). Not for NVFP4, whose block scales
      round to nearest.
    tensor_scale: NVFP4's float32 tensor scale (finite, positive); default
      amax / (448 * 6) of the whole of x (mf::mx::nvfp4::tensor_scale).
    packed: FP4 / FP6 elements packed as the C++ tensor layout stores them
      (the default), or one code per element (mf::mx::unpack_fp4 /
      unpack_fp6 of it): ml_dtypes float4_e2m1fn / float6_e2m3fn /
      float6_e3m2fn arrays of x's shape.
    Returns an MXArray. Elements are V_i / X rounded to nearest even,
    saturating; a block holding NaN or Inf gets the NaN scale and zero
    elements (docs/mx.md, section 2).
    """
    name = _mx_format(fmt, "fmt")
    a = _as_array(x, "x")
    if a.dtype != np.float32:
        if a.dtype == np.float16 or (_TYPED[_ID_BY_NAME["bfloat16"]] is not None
                                     and a.dtype == _TYPED[_ID_BY_NAME["bfloat16"]]):
            a = a.astype(np.float32)  # exact: every 16-bit value is a float32
        else:
            hint = " (x.astype(np.float32) rounds it first)" if a.dtype.kind in "fiu" else ""
            raise TypeError(f"x: dtype {a.dtype} is not accepted; accepted: float32, float16, "
                            f"bfloat16{hint}")
    nvfp4 = name == "nvfp4"
    if scale_rounding is None:
        mode = 0
    elif nvfp4:
        raise ValueError(f"scale_rounding: {scale_rounding!r} is for the MX formats; NVFP4's "
                         f"e4m3fn block scales are rounded to nearest even")
    else:
        mode = SCALE_ROUNDINGS.index(_choice(scale_rounding, "scale_rounding", SCALE_ROUNDINGS))
    s_t = 0.0
    if tensor_scale is not None:
        if not nvfp4:
            raise ValueError(f"tensor_scale: NVFP4's tensor scale, got fmt={fmt!r}")
        s_t = _positive_float32(tensor_scale, "tensor_scale")
    if not isinstance(packed, (bool, np.bool_)):
        raise TypeError(f"packed: expected True or False, got {packed!r}")
    packed = bool(packed)
    rows, length = _mx_rows(a.shape)
    scales_shape, elements_shape = _mx_shapes(name, a.shape, packed)
    scale_dtype, element_dtype = _mx_dtypes(name, packed)
    scales = np.empty(scales_shape, scale_dtype)
    elements = np.empty(elements_shape, element_dtype)
    got = _core.mx_quantize(a, rows, length, MX_FORMATS.index(name), mode, packed,
                            scales.view(np.uint8), elements.view(np.uint8),
                            tensor_scale is not None, s_t)
    return MXArray(name, scales, elements, tuple(a.shape), got if nvfp4 else None, packed)


def _mx_part(v: Any, arg: str, accepted: list, shape: tuple) -> np.ndarray:
    a = _as_array(v, arg)
    if a.dtype not in accepted:
        raise TypeError(f"{arg}: dtype {a.dtype} is not accepted; accepted: "
                        f"{_dtype_list(accepted)}")
    if a.shape != shape:
        raise ValueError(f"{arg}: shape {a.shape} differs from the {shape} of its format and "
                         f"shape")
    return a.view(np.uint8)


def mx_dequantize(q: MXArray, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """The float32 values of an MXArray (mf::mx::dequantize<Fmt>,
    mf::mx::nvfp4::dequantize): X * P_i, exact unless it exceeds float32's
    range (docs/mx.md, section 3); NVFP4: (P_i * s_b) * tensor_scale, one
    rounding. Every element of a NaN-scale block is NaN.

    q: an MXArray, from mx_quantize or built from stored arrays
      (``MXArray("mxfp4", scales, elements, shape)``, ``packed=False`` for
      FP4 / FP6 elements one per byte); scales and elements may be typed
      (ml_dtypes) or uint8 codes (MXINT8 elements int8 or uint8).
    out: a float32 array of q.shape to write (C-contiguous).
    """
    if not isinstance(q, MXArray):
        raise TypeError(f"q: expected a minifloat.MXArray, got {type(q).__name__}")
    name = _mx_format(q.format, "q.format")
    try:
        shape = tuple(operator.index(d) for d in q.shape)
    except TypeError:
        raise TypeError(f"q.shape: expected a tuple of ints, got {q.shape!r}") from None
    if any(d < 0 for d in shape):
        raise ValueError(f"q.shape: {shape} has a negative dimension")
    if not isinstance(q.packed, (bool, np.bool_)):
        raise TypeError(f"q.packed: expected True or False, got {q.packed!r}")
    packed = bool(q.packed)
    scales_shape, elements_shape = _mx_shapes(name, shape, packed)
    scale_dtype, element_dtype = _mx_dtypes(name, packed)
    # The typed dtype first, then the codes (the same dtype when there is no
    # typed one).
    scale_dtypes = list(dict.fromkeys([scale_dtype, np.dtype(np.uint8)]))
    scales = _mx_part(q.scales, "q.scales", scale_dtypes, scales_shape)
    element_dtypes = list(dict.fromkeys([element_dtype, np.dtype(np.uint8)]))
    elements = _mx_part(q.elements, "q.elements", element_dtypes, elements_shape)
    s_t = 1.0
    if name == "nvfp4":
        if q.tensor_scale is None:
            raise ValueError("q.tensor_scale: NVFP4 needs its tensor scale (a float32)")
        if isinstance(q.tensor_scale, bool) or not isinstance(
                q.tensor_scale, (int, float, np.integer, np.floating)):
            raise TypeError(f"q.tensor_scale: expected a real number, got "
                            f"{type(q.tensor_scale).__name__} {q.tensor_scale!r}")
        with np.errstate(over="ignore"):
            s_t = float(np.float32(q.tensor_scale))
    elif q.tensor_scale is not None:
        raise ValueError(f"q.tensor_scale: only NVFP4 has one; got {q.tensor_scale!r} with "
                         f"format {name!r}")
    y = _output(out, None, [np.dtype(np.float32)], np.dtype(np.float32), shape, elements)
    if out is not None and np.may_share_memory(out, scales):
        raise ValueError("out: overlaps q.scales")
    rows, length = _mx_rows(shape)
    _core.mx_dequantize(scales, elements, rows, length, MX_FORMATS.index(name), packed, s_t, y)
    return y


# ---------------------------------------------------------------------------
# Calibration (mf::calibration, docs/scaling.md "Static calibration"): a
# static scale for q = round(x * scale) and what it costs on the data.
# ---------------------------------------------------------------------------
# name -> (mf::calibration::method, whether the search and the cost use the
# values themselves rather than the histogram's model); the tool's names.
_CALIBRATION_METHODS = {"max": (0, False), "percentile": (1, False), "mse": (2, True),
                        "mse_histogram": (2, False), "kl": (3, False)}
CALIBRATION_METHODS = ("max", "percentile", "mse", "mse_histogram", "kl")


@dataclasses.dataclass(frozen=True)
class CalibrationResult:
    """calibrate(): the scale (q = round(x * scale), float32) and its cost
    on the data (mf::calibration::calibration_result): the squared error of
    nearest-even, saturating quantization (sse, mse), the SQNR in dB (+inf
    without error) and the fractions of the finite values saturated and
    flushed to zero. Per tensor: Python floats; per channel: float32
    (scale) and float64 arrays, one element per channel."""

    scale: Any
    sse: Any
    mse: Any
    sqnr_db: Any
    saturated_fraction: Any
    flushed_fraction: Any


def _format_with_zero(fmt: Any, why: str) -> int:
    """The format id of ``fmt``, which must have a zero (e8m0fnu, MX's
    scale type, has none and no sign: negative values would become NaN)."""
    target = _format_id(fmt, "fmt")
    if not _INFO[target]["has_zero"]:
        raise ValueError(f"fmt: {_CANONICAL[target]} has no zero; {why}, so it needs a "
                         f"format with a zero")
    return target


def _calibration_format(fmt: Any) -> int:
    return _format_with_zero(fmt, "calibration rounds to nearest with zeros flushed")


def _calibration_options(method: Any, percentile: Any, power_of_two: Any):
    """(mf::calibration::method id, on the data, percentile, power_of_two)."""
    how, on_data = _CALIBRATION_METHODS[_choice(method, "method", CALIBRATION_METHODS)]
    p = 99.99
    if percentile is not None:
        if how != 1:
            raise ValueError(f"percentile: used only with method='percentile', got "
                             f"method={method!r}")
        if isinstance(percentile, bool) or not isinstance(
                percentile, (int, float, np.integer, np.floating)):
            raise TypeError(f"percentile: expected a real number, got "
                            f"{type(percentile).__name__} {percentile!r}")
        p = float(percentile)
        if not 0 < p <= 100:
            raise ValueError(f"percentile: {percentile!r} is outside the accepted (0, 100]")
    if not isinstance(power_of_two, (bool, np.bool_)):
        raise TypeError(f"power_of_two: expected True or False, got {power_of_two!r}")
    return how, on_data, p, bool(power_of_two)


def calibrate(x: Any, fmt: Any, *, method: str = "max", percentile: Optional[float] = None,
              power_of_two: bool = False, axis: Optional[int] = None) -> CalibrationResult:
    """A static scale for format ``fmt`` from the values of ``x``
    (mf::calibration::calibrate<Fmt> on an abs_histogram of 256 bins per
    binade, as the tool's ``calibrate``).

    x: float32 (float16 and bfloat16 are widened first, exactly). NaN and
      Inf are counted out and do not move the scale.
    fmt: a format with a zero (not e8m0fnu), by any accepted name or dtype.
    method: ``max`` (amax maps to the format's max), ``percentile`` (the
      ``percentile``-th percentile of |x| maps to it), ``mse`` (the scale of
      least squared error on the values, an exact search), ``mse_histogram``
      (the same search on the histogram's model) or ``kl`` (least KL
      divergence, TensorRT's entropy method).
    percentile: for method="percentile": 0 < p <= 100 (default 99.99).
    power_of_two: a power-of-two scale (max and percentile round down; mse
      and kl search the powers of two).
    axis: None for one scale for the tensor; an axis for one scale per
      index along it (per channel: axis=0 for a weight's output channels).
    """
    target = _calibration_format(fmt)
    how, on_data, p, p2 = _calibration_options(method, percentile, power_of_two)
    a = _as_array(x, "x")
    if a.dtype != np.float32:
        if a.dtype == np.float16 or (_TYPED[_ID_BY_NAME["bfloat16"]] is not None
                                     and a.dtype == _TYPED[_ID_BY_NAME["bfloat16"]]):
            a = a.astype(np.float32)  # exact
        else:
            hint = " (x.astype(np.float32) rounds it first)" if a.dtype.kind in "fiu" else ""
            raise TypeError(f"x: dtype {a.dtype} is not accepted; accepted: float32, float16, "
                            f"bfloat16{hint}")
    if a.size == 0:
        raise ValueError(f"x: empty (shape {a.shape}): nothing to calibrate")
    if axis is None:
        rows, length = 1, a.size
    else:
        if isinstance(axis, bool):
            raise TypeError("axis: expected an int or None, got a bool")
        try:
            k = operator.index(axis)
        except TypeError:
            raise TypeError(f"axis: expected an int or None, got {type(axis).__name__} "
                            f"{axis!r}") from None
        if not -a.ndim <= k < a.ndim:
            raise ValueError(f"axis: {k} is out of range for x of {a.ndim} dimensions "
                             f"(shape {a.shape})")
        # Channel c's values as row c: a copy unless the axis is the first.
        a = np.ascontiguousarray(np.moveaxis(a, k, 0)).reshape(a.shape[k], -1)
        rows, length = a.shape
    results = _core.calibrate(a, rows, length, target, how, p, p2, on_data)
    if axis is None:
        return CalibrationResult(*results[0])
    columns = list(zip(*results))
    return CalibrationResult(np.array(columns[0], np.float32),
                             *(np.array(c, np.float64) for c in columns[1:]))


class AbsHistogram:
    """A streaming calibration observer (mf::calibration::abs_histogram):
    the magnitudes of every value seen, batch by batch, in 256 bins per
    binade (zeros, NaN and Inf counted apart), then ``calibrate`` on the
    histogram. One observer for all values, or with ``channels`` one per
    channel of 2-D batches (mf::calibration::observe_channels): ``axis``
    'rows' (each row a channel, the same rows in every batch, e.g. a
    weight's output channels) or 'columns' (each column, e.g. an
    activation's features over batches of tokens).

        h = mf.AbsHistogram()
        for batch in batches:
            h.observe(batch)
        r = h.calibrate("e4m3fn", method="percentile", percentile=99.9)

    The result equals ``calibrate`` of all the batches at once with the same
    method; the histogram alone holds no data, so ``mse`` (the search on the
    values) is ``mse_histogram`` here.
    """

    def __init__(self, channels: Optional[int] = None, *, axis: Any = "rows"):
        self._axis = _channel_axis(axis)  # checked with or without channels
        if channels is None:
            self.channels = None
            self._core = _core.Observers(False, 1, 0)
            return
        if isinstance(channels, bool):
            raise TypeError("channels: expected an int >= 1 or None, got a bool")
        try:
            n = operator.index(channels)
        except TypeError:
            raise TypeError(f"channels: expected an int >= 1 or None, got "
                            f"{type(channels).__name__} {channels!r}") from None
        if n < 1:
            raise ValueError(f"channels: {n}; accepted: an int >= 1, or None for one observer")
        self.channels = n
        self._core = _core.Observers(True, n, self._axis)

    @property
    def axis(self) -> Optional[str]:
        return CHANNEL_AXES[self._axis] if self.channels is not None else None

    def observe(self, x: Any) -> None:
        """Adds a batch: float32 (float16 and bfloat16 widened, exactly), any
        shape for one observer, rows x columns with ``channels`` rows (axis
        'rows') or columns (axis 'columns') per channel."""
        a = _float32_tensor(x, "x")
        if self.channels is None:
            self._core.observe(a, 1, a.size)
            return
        if a.ndim != 2:
            raise ValueError(f"x: expected a 2-D batch (rows x columns), got shape {a.shape}")
        rows, cols = a.shape
        have = rows if self._axis == 0 else cols
        if have != self.channels:
            raise ValueError(f"x: {have} {self.axis}, expected {self.channels} (one per "
                             f"channel; shape {a.shape})")
        self._core.observe(a, rows, cols)

    def merge(self, other: "AbsHistogram") -> None:
        """Adds another observer's data: the result equals one observer that
        saw both inputs."""
        if not isinstance(other, AbsHistogram):
            raise TypeError(f"other: expected an AbsHistogram, got {type(other).__name__}")
        if (other.channels, other.axis) != (self.channels, self.axis):
            raise ValueError(f"other: channels={other.channels}, axis={other.axis!r}; "
                             f"expected channels={self.channels}, axis={self.axis!r}")
        self._core.merge(other._core)

    def _counts(self, field: int, dtype):
        values = [row[field] for row in self._core.counts()]
        return values[0] if self.channels is None else np.array(values, dtype)

    @property
    def finite_count(self):
        """Finite values seen, zeros included (per channel: an array)."""
        return self._counts(0, np.uint64)

    @property
    def zeros(self):
        return self._counts(1, np.uint64)

    @property
    def nans(self):
        return self._counts(2, np.uint64)

    @property
    def infs(self):
        return self._counts(3, np.uint64)

    @property
    def amax(self):
        """The largest finite |x| seen, exactly (0 when none)."""
        return self._counts(4, np.float32)

    def calibrate(self, fmt: Any, *, method: str = "max", percentile: Optional[float] = None,
                  power_of_two: bool = False) -> CalibrationResult:
        """The scale and cost of ``calibrate`` from the histogram
        (mf::calibration::calibrate<Fmt>(h, options)): method max,
        percentile, mse_histogram or kl; per channel, arrays."""
        target = _calibration_format(fmt)
        how, on_data, p, p2 = _calibration_options(method, percentile, power_of_two)
        if on_data:
            raise ValueError(f"method: {method!r} searches the values themselves, which an "
                             f"observer does not keep; use 'mse_histogram' (the same search "
                             f"on the histogram), or calibrate(x, ...) on the data")
        try:
            results = self._core.calibrate(target, how, p, p2)
        except ValueError as e:
            raise ValueError(f"observe: {e}") from None
        if self.channels is None:
            return CalibrationResult(*results[0])
        columns = list(zip(*results))
        return CalibrationResult(np.array(columns[0], np.float32),
                                 *(np.array(c, np.float64) for c in columns[1:]))


# ---------------------------------------------------------------------------
# ONNX QuantizeLinear, DequantizeLinear and Cast (mf::onnx, docs/onnx.md),
# bit-exact to the operator schemas of opsets 19 to 28. Each input's ONNX
# type is its dtype's (or named with x_type= / scale_type= / from_= for
# uint8 / uint16 codes); each goes to the operator as one code per element.
# ---------------------------------------------------------------------------
_ONNX_TYPES = {number: (name, bits, integer)
               for number, name, bits, integer in _core.onnx_types()}
_ONNX_NEWEST_OPSET: int = _core.onnx_newest_opset()
# ONNX type number -> the dtype that holds it (None where that needs
# ml_dtypes and it is missing) and the dtype of its codes.
_ONNX_DTYPE = {1: np.dtype(np.float32), 2: np.dtype(np.uint8), 3: np.dtype(np.int8),
               4: np.dtype(np.uint16), 5: np.dtype(np.int16), 10: np.dtype(np.float16)}
for _number, _ml_name in ((16, "bfloat16"), (17, "float8_e4m3fn"), (18, "float8_e4m3fnuz"),
                          (19, "float8_e5m2"), (20, "float8_e5m2fnuz"), (21, "uint4"),
                          (22, "int4"), (23, "float4_e2m1fn"), (24, "float8_e8m0fnu")):
    _ONNX_DTYPE[_number] = (np.dtype(getattr(_ml_dtypes, _ml_name))
                            if _ml_dtypes is not None and hasattr(_ml_dtypes, _ml_name) else None)
_ONNX_BY_DTYPE = {d: n for n, d in _ONNX_DTYPE.items() if d is not None}
_ONNX_CODES = {n: (np.dtype(np.uint16) if bits == 16 else np.dtype(np.uint32) if bits == 32
                   else np.dtype(np.uint8)) for n, (_, bits, _) in _ONNX_TYPES.items()}
_ONNX_CODES.update({3: np.dtype(np.int8), 5: np.dtype(np.int16), 22: np.dtype(np.int8)})
_ROUND_MODES = ("up", "down", "nearest")  # mf::onnx::e8m0_round_mode


def _onnx_type_names() -> str:
    return ", ".join(name for name, _, _ in _ONNX_TYPES.values())


def _onnx_type(t: Any, arg: str) -> int:
    """An ONNX type given by name (any spelling of the registry: 'float8e4m3fn',
    'e4m3fn', 'FLOAT8E4M3FN', 'float', ...), TensorProto number or dtype."""
    if isinstance(t, str):
        number = _core.onnx_type_from_name(t)
        if number == 0:
            raise ValueError(f"{arg}: {t!r} is not a type of the ONNX operators; accepted: "
                             f"{_onnx_type_names()} (or another spelling of them)")
        return number
    if isinstance(t, (int, np.integer)) and not isinstance(t, bool):
        if int(t) not in _ONNX_TYPES:
            raise ValueError(f"{arg}: {t} is not the TensorProto number of a type of the ONNX "
                             f"operators; accepted: {sorted(_ONNX_TYPES)}")
        return int(t)
    try:
        d = np.dtype(t)
    except TypeError:
        d = None
    if d is not None and d in _ONNX_BY_DTYPE:
        return _ONNX_BY_DTYPE[d]
    raise TypeError(f"{arg}: expected an ONNX type name, TensorProto number or dtype, got {t!r}; "
                    f"accepted: {_onnx_type_names()}")


def _onnx_input(v: Any, arg: str, given_type: Any, type_arg: Optional[str]):
    """(codes as uint32, ONNX type number, shape) of an operator input."""
    a = _as_array(v, arg)
    if given_type is None:
        number = _ONNX_BY_DTYPE.get(a.dtype)
        if number is None:
            accepted = _dtype_list(sorted({str(d) for d in _ONNX_BY_DTYPE}))
            hint = (f"; codes of a narrow type need {type_arg}=" if type_arg is not None
                    and a.dtype in (np.uint8, np.uint16) else "")
            raise TypeError(f"{arg}: dtype {a.dtype} is not an ONNX type; accepted: "
                            f"{accepted}{hint}")
    else:
        number = _onnx_type(given_type, type_arg)
        typed = _ONNX_DTYPE[number]
        if a.dtype != typed and a.dtype != _ONNX_CODES[number]:
            raise TypeError(f"{arg}: {_ONNX_TYPES[number][0]} elements are "
                            f"{_ONNX_CODES[number]} codes"
                            + (f" or {typed}" if typed is not None else "")
                            + f", got {a.dtype}")
    bits = _ONNX_TYPES[number][1]
    if bits == 4 and a.dtype.kind in "iu" and a.dtype == _ONNX_CODES[number]:
        # 4-bit values held in int8 / uint8: the code is the low nibble of
        # the value, which must fit the type.
        low, high = (-8, 7) if number == 22 else (0, 15)
        if a.size and (a.min() < low or a.max() > high):
            raise ValueError(f"{arg}: {_ONNX_TYPES[number][0]} values lie in {low}..{high}")
    width = {1: np.uint8, 2: np.uint16, 4: np.uint32}[a.dtype.itemsize]
    codes = a.view(width)  # float32 input: its own buffer, no copy
    if width != np.uint32:
        codes = codes.astype(np.uint32)
    if bits == 4:
        codes &= 0xF  # a copy (4-bit types are held in bytes)
    return codes, number, [int(d) for d in a.shape]


def _onnx_output(codes: np.ndarray, number: int, shape: tuple) -> np.ndarray:
    """The output in its type's dtype (ml_dtypes where it has the type; else
    uint8 / uint16 codes, and int8 / uint8 values for int4 / uint4)."""
    typed = _ONNX_DTYPE[number]
    name, bits, integer = _ONNX_TYPES[number]
    if bits == 4 and integer:
        values = codes.astype(np.int16)
        if number == 22:
            values = np.where(values >= 8, values - 16, values)
        held = values.astype(_ONNX_CODES[number])
        return (held.astype(typed) if typed is not None else held).reshape(shape)
    held = codes.astype({8: np.uint8, 4: np.uint8, 16: np.uint16, 32: np.uint32}[bits])
    if typed is not None:
        held = held.view(typed)
    elif integer:
        held = held.view(_ONNX_CODES[number])
    return held.reshape(shape)


def _int(v: Any, arg: str, low: int = -(1 << 63), high: int = 1 << 63) -> int:
    """An int (not a bool) in [low, high): by default what the C++ entries'
    64-bit parameters hold."""
    if isinstance(v, bool):
        raise TypeError(f"{arg}: expected an int, got a bool")
    try:
        i = operator.index(v)
    except TypeError:
        raise TypeError(f"{arg}: expected an int, got {type(v).__name__} {v!r}") from None
    if not low <= i < high:
        raise ValueError(f"{arg}: {i} is outside the accepted range [{low}, {high})")
    return i


def _c_int(v: Any, arg: str) -> int:
    """A model parameter: a C int (the C++ checks its own range next)."""
    return _int(v, arg, -(1 << 31), 1 << 31)


def _onnx_bool(v: Any, arg: str) -> bool:
    if not isinstance(v, (bool, np.bool_)):
        raise TypeError(f"{arg}: expected True or False, got {v!r}")
    return bool(v)


def _onnx_opset(opset: Any) -> int:
    v = _int(opset, "opset")
    if not 19 <= v <= _ONNX_NEWEST_OPSET:
        raise ValueError(f"opset: {v} is not an opset the library implements; accepted: "
                         f"19..{_ONNX_NEWEST_OPSET}")
    return v


def quantize_linear(x: Any, y_scale: Any, y_zero_point: Any = None, *, axis: int = 1,
                    block_size: int = 0, saturate: bool = True, output_dtype: Any = None,
                    precision: Any = None, scale_type: Any = None,
                    opset: int = _ONNX_NEWEST_OPSET) -> np.ndarray:
    """ONNX QuantizeLinear (mf::onnx::quantize_linear): y = saturate(round(x
    / y_scale) + y_zero_point), the division rounded to nearest even in the
    scale's type (or ``precision``), then converted to the output type.

    x: float32, float16 or bfloat16. y_scale: a scalar (per tensor), 1-D
      (per axis) or x's rank (blocked, with block_size) array of float32,
      float16, bfloat16 or float8_e8m0fnu (or uint8 / uint16 codes with
      scale_type=). y_zero_point: y_scale's shape, the output's type.
    axis, block_size, saturate, output_dtype, precision: the operator's
      attributes (output_dtype and precision by ONNX name, e.g.
      "float8e4m3fn", "int4", any spelling the library knows, or dtype).
    opset: 19..28, the operator version whose types and rules apply.
    Returns y, x's shape, in the output type's dtype (ml_dtypes for the
    float8, 4-bit and e8m0 types; uint8 codes, or int8 / uint8 values for
    int4 / uint4, where ml_dtypes is missing).
    """
    xc, xt, xs = _onnx_input(x, "x", None, None)
    sc, st, ss = _onnx_input(y_scale, "y_scale", scale_type, "scale_type")
    zc, zt = None, 0
    if y_zero_point is not None:
        zc, zt, zs = _onnx_input(y_zero_point, "y_zero_point", None, None)
        if zs != ss:
            raise ValueError(f"y_zero_point: shape {tuple(zs)} differs from y_scale's "
                             f"{tuple(ss)}")
    out_type = 0 if output_dtype is None else _onnx_type(output_dtype, "output_dtype")
    prec = 0 if precision is None else _onnx_type(precision, "precision")
    out = np.empty(xc.size, np.uint32)
    number = _core.onnx_quantize_linear(xc, xt, xs, sc, st, ss, zc, zt,
                                        _int(axis, "axis"),
                                        _int(block_size, "block_size"),
                                        _onnx_bool(saturate, "saturate"), out_type, prec,
                                        _onnx_opset(opset), out)
    return _onnx_output(out, number, tuple(xs))


def dequantize_linear(x: Any, x_scale: Any, x_zero_point: Any = None, *, axis: int = 1,
                      block_size: int = 0, output_dtype: Any = None, x_type: Any = None,
                      scale_type: Any = None, opset: int = _ONNX_NEWEST_OPSET) -> np.ndarray:
    """ONNX DequantizeLinear (mf::onnx::dequantize_linear): y = (x -
    x_zero_point) * x_scale, the exact product rounded once to the output
    type.

    x: int8, uint8, int16, uint16, ml_dtypes int4 / uint4 / float8 /
      float4_e2m1fn arrays, or the codes of a narrow type with x_type=
      (uint8 codes; int8 / uint8 values for int4 / uint4).
    x_scale: as QuantizeLinear's y_scale (scale_type= for codes);
      x_zero_point: x_scale's shape, x's type.
    axis, block_size, output_dtype (float, float16, bfloat16; default the
      scale's type), opset: the operator's attributes.
    Returns y, x's shape, as float32, float16 or bfloat16.
    """
    xc, xt, xs = _onnx_input(x, "x", x_type, "x_type")
    sc, st, ss = _onnx_input(x_scale, "x_scale", scale_type, "scale_type")
    zc = None
    if x_zero_point is not None:
        zc, zt, zs = _onnx_input(x_zero_point, "x_zero_point", x_type, "x_type")
        if zt != xt:
            raise ValueError(f"x_zero_point: its type {_ONNX_TYPES[zt][0]} differs from x's "
                             f"{_ONNX_TYPES[xt][0]} (DequantizeLinear: both are T1)")
        if zs != ss:
            raise ValueError(f"x_zero_point: shape {tuple(zs)} differs from x_scale's "
                             f"{tuple(ss)}")
    out_type = 0 if output_dtype is None else _onnx_type(output_dtype, "output_dtype")
    out = np.empty(xc.size, np.uint32)
    number = _core.onnx_dequantize_linear(xc, xt, xs, sc, st, ss, zc,
                                          _int(axis, "axis"),
                                          _int(block_size, "block_size"), out_type,
                                          _onnx_opset(opset), out)
    return _onnx_output(out, number, tuple(xs))


def cast(x: Any, to: Any, *, saturate: bool = True, round_mode: Optional[str] = None,
         from_: Any = None, opset: int = _ONNX_NEWEST_OPSET) -> np.ndarray:
    """ONNX Cast (mf::onnx::cast) between the float types: float32,
    float16, bfloat16, the float8 types, float4e2m1 and float8e8m0.

    x: an array of one of them (uint8 / uint16 codes with from_=).
    to: the output type (ONNX name, any spelling the library knows, or dtype).
    saturate: ONNX's attribute (default 1, as in a node without it): the
      float8 types and float8e8m0 saturate out-of-range values and ±Inf.
    round_mode: float8e8m0's: "up" (default), "down", "nearest".
    opset: 19..28.
    Returns x's shape in the ``to`` type's dtype (uint8 / uint16 codes where
    ml_dtypes is missing).
    """
    to_type = _onnx_type(to, "to")
    xc, xt, xs = _onnx_input(x, "x", from_, "from_")
    mode = 0
    if round_mode is not None:
        if _ONNX_TYPES[to_type][0] != "float8e8m0":
            raise ValueError(f"round_mode: float8e8m0's attribute, got to={to!r}")
        mode = _ROUND_MODES.index(_choice(round_mode, "round_mode", _ROUND_MODES))
    out = np.empty(xc.size, np.uint32)
    number = _core.onnx_cast(xc, xt, xs, to_type, _onnx_bool(saturate, "saturate"), mode,
                             _onnx_opset(opset), out)
    return _onnx_output(out, number, tuple(xs))


# ---------------------------------------------------------------------------
# Scaled quantization (mf::scaling, docs/scaling.md): a float32 tensor into
# a format's encodings plus float32 scales, per tensor, per channel (each
# row or each column of a matrix) or per block (2-D tiles), and delayed
# scaling. q = round(x * scale) with the product rounded to float32 first;
# what comes back beside q is scale_inv = 1 / scale, the dequantization
# factor (TransformerEngine's scale_inv, what torch._scaled_mm takes).
# ---------------------------------------------------------------------------
CHANNEL_AXES = ("rows", "columns")  # mf::scaling::channel_axis
AMAX_REDUCTIONS = ("max", "most_recent")  # mf::scaling::amax_reduction


def _real(value: Any, arg: str) -> float:
    v = _as_float32(value, arg)
    if not np.isfinite(v):
        raise ValueError(f"{arg}: {value!r} (as float32: {v}) is not accepted; accepted: a "
                         f"finite number within float32's range")
    return float(v)


def _bool(value: Any, arg: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{arg}: expected True or False, got {value!r}")
    return bool(value)


AMAX_NAN = ("propagate", "finite_only")  # mf::bulk::amax_nan


def _amax_nan(nan: Any) -> bool:
    # propagate: NaN if any element is NaN, Inf counts; finite_only: NaN and
    # Inf skipped.
    return _choice(nan, "nan", AMAX_NAN) == "finite_only"


def amax(x: Any, *, nan: str = "propagate") -> float:
    """max |x| over a float32 array (mf::scaling::amax, the vectorised
    mf::bulk::amax): +0 for an empty array (or, with nan='finite_only', one
    without a finite element); NaN if any element is NaN with
    nan='propagate' (as torch.amax)."""
    finite_only = _amax_nan(nan)
    return _core.amax(_float32_tensor(x, "x"), finite_only)


def column_amax(x: Any, *, nan: str = "propagate",
                out: Optional[np.ndarray] = None) -> np.ndarray:
    """max |x[:, j]| of each column of a rows x columns float32 matrix
    (mf::scaling::column_amax): a float32 vector, with amax's NaN rule."""
    finite_only = _amax_nan(nan)
    a = _matrix(x, "x")
    rows, cols = a.shape
    y = _output(out, None, [np.dtype(np.float32)], np.dtype(np.float32), (cols,), a)
    _core.column_amax(a, y, rows, cols, finite_only)
    return y


def compute_scale(amax: float, fmt: Any, *, margin: float = 0.0, power_of_two: bool = False,
                  fallback: float = 1.0) -> float:
    """The quantization scale that maps ``amax`` onto ``fmt``'s largest
    finite value: max_finite / (|amax| * 2**margin), rounded toward zero to
    float32 (so amax * scale never exceeds max finite) and kept within the
    normal floats, or its power of two below with ``power_of_two``
    (mf::scaling::compute_scale<Fmt>). An amax of 0, Inf or NaN gives
    ``fallback``.
    """
    target = _format_id(fmt, "fmt")
    if isinstance(amax, bool) or not isinstance(amax, (int, float, np.integer, np.floating)):
        raise TypeError(f"amax: expected a real number, got {type(amax).__name__} {amax!r}")
    with np.errstate(over="ignore"):
        a = float(np.float32(amax))  # the C++ entry takes a float
    return _core.compute_scale(target, a, _real(margin, "margin"),
                               _bool(power_of_two, "power_of_two"),
                               _positive_float32(fallback, "fallback"))


def _quantize_fields(margin, power_of_two, fallback, rounding, saturate, seed, offset,
                     random_bits):
    f = _core.QuantizeFields()
    f.margin = _real(margin, "margin")
    f.power_of_two = _bool(power_of_two, "power_of_two")
    f.fallback = _positive_float32(fallback, "fallback")
    mode, sat, stochastic, s, o, bits = _conversion(rounding, saturate, seed, offset,
                                                    random_bits)
    f.mode, f.saturate, f.stochastic, f.seed, f.offset, f.random_bits = (mode, sat, stochastic,
                                                                         s, o, bits)
    return f


def _float32_tensor(x: Any, arg: str) -> np.ndarray:
    a = _as_array(x, arg)
    if a.dtype == np.float32:
        return a
    if a.dtype == np.float16 or (_TYPED[_ID_BY_NAME["bfloat16"]] is not None
                                 and a.dtype == _TYPED[_ID_BY_NAME["bfloat16"]]):
        return a.astype(np.float32)  # exact
    hint = f" ({arg}.astype(np.float32) rounds it first)" if a.dtype.kind in "fiu" else ""
    raise TypeError(f"{arg}: dtype {a.dtype} is not accepted; accepted: float32, float16, "
                    f"bfloat16{hint}")


def _matrix(x: Any, arg: str) -> np.ndarray:
    a = _float32_tensor(x, arg)
    if a.ndim != 2:
        raise ValueError(f"{arg}: expected a 2-D array (rows x columns, row-major), got shape "
                         f"{a.shape}; reshape it (x.reshape(-1, x.shape[-1]))")
    return a


def _codes_output(target: int, out: Any, dtype: Any, shape: tuple, source: np.ndarray):
    typed = _TYPED[target]
    allowed = [_CODES[target]] + ([typed] if typed is not None else [])
    return _output(out, dtype, allowed, typed if typed is not None else _CODES[target], shape,
                   source)


def _channel_axis(axis: Any) -> int:
    """The axis by name (as _choice reads names) or by number."""
    accepted = "'rows' (or 0: one scale per row) or 'columns' (or 1: one scale per column)"
    if isinstance(axis, str):
        key = _name_key(axis)
        if key in CHANNEL_AXES:
            return CHANNEL_AXES.index(key)
    elif not isinstance(axis, bool) and isinstance(axis, (int, np.integer)):
        if axis in (0, 1):
            return int(axis)
    else:
        raise TypeError(f"axis: expected a name (str) or 0 or 1, got {axis!r}; "
                        f"accepted: {accepted}")
    raise ValueError(f"axis: {axis!r}; accepted: {accepted}")


def _block(block: Any) -> Tuple[int, int]:
    try:
        r, c = (operator.index(v) for v in block)
    except (TypeError, ValueError):
        raise TypeError(f"block: expected (rows, columns), two ints, got {block!r}") from None
    if r < 1 or c < 1:
        raise ValueError(f"block: {block!r}; each side must be at least 1")
    return r, c


def _scale_vector(v: Any, size: int, arg: str) -> np.ndarray:
    s = np.ascontiguousarray(np.asarray(v, np.float32).ravel())
    if s.size != size:
        raise ValueError(f"{arg}: {s.size} values, expected {size}")
    if not np.all(np.isfinite(s) & (s > 0)):
        bad = s[~(np.isfinite(s) & (s > 0))][0]
        raise ValueError(f"{arg}: {bad} is not accepted; accepted: finite, positive numbers "
                         f"within float32's range")
    return s


def _given_scales(scales: np.ndarray, arg: str) -> None:
    """A given scale's scale_inv = 1 / scale must be finite too, or
    dequantize would refuse what quantize returned: float32 subnormal scales
    below 1 / FLT_MAX are not accepted."""
    with np.errstate(divide="ignore", over="ignore"):
        bad = ~np.isfinite(np.float32(1) / scales)
    if np.any(bad):
        first = str(np.atleast_1d(scales)[np.atleast_1d(bad)][0])  # float32's shortest repr
        smallest = str(np.float32(1) / np.finfo(np.float32).max)
        raise ValueError(f"{arg}: {first} is not accepted: its scale_inv, 1 / scale, overflows "
                         f"float32; accepted: finite scales of at least {smallest}")


def _no_scale_options(arg: str, margin: Any, power_of_two: Any, fallback: Any) -> None:
    # margin, power_of_two and fallback shape a computed scale; a given one is
    # used as it is, so asking for them with it would be silently ignored.
    if margin != 0 or power_of_two or fallback != 1:
        raise ValueError(f"margin, power_of_two, fallback: they shape a computed scale and "
                         f"{arg} is given (used as it is); leave them at their defaults, or "
                         f"apply them with compute_scale first")


def quantize_per_tensor(x: Any, fmt: Any, *, scale: Optional[float] = None,
                        margin: float = 0.0, power_of_two: bool = False,
                        fallback: float = 1.0, rounding: str = "nearest_even",
                        saturate: bool = True, seed: Optional[int] = None, offset: int = 0,
                        random_bits: Optional[int] = None, out: Optional[np.ndarray] = None,
                        dtype: Any = None):
    """Quantizes ``x`` with one scale (mf::scaling::quantize_per_tensor, or
    quantize_per_tensor_with_scale when ``scale`` is given): returns
    ``(q, scale_inv)``, x ~ decode(q) * scale_inv.

    x: float32 (float16 and bfloat16 are widened first, exactly), any shape.
    scale: None: compute_scale of max |x| over the finite elements (NaN and
      Inf do not move the scale), with margin / power_of_two / fallback;
      else this scale (a calibrated one), finite and positive, used as it is
      (margin, power_of_two and fallback must then keep their defaults).
    rounding, saturate, seed, offset, random_bits: how x * scale is rounded,
      as in encode; saturating by default, as the C++ quantize_options.
    out, dtype: as in encode (the format's typed dtype by default).
    """
    target = _format_with_zero(fmt, "quantization maps small values to zero")
    a = _float32_tensor(x, "x")
    f = _quantize_fields(margin, power_of_two, fallback, rounding, saturate, seed, offset,
                         random_bits)
    given = scale is not None
    if given:
        _no_scale_options("scale", margin, power_of_two, fallback)
    s = _positive_float32(scale, "scale") if given else 1.0
    if given:
        _given_scales(np.float32(s), "scale")
    q = _codes_output(target, out, dtype, a.shape, a)
    scale_inv = _core.quantize_per_tensor(a, _flat(q, _CODES[target]), target, f, given, s)
    return q, scale_inv


def dequantize_per_tensor(q: Any, scale_inv: float, fmt: Any = None, *,
                          out: Optional[np.ndarray] = None) -> np.ndarray:
    """float32 decode(q) * scale_inv, the product rounded once
    (mf::scaling::dequantize_per_tensor). q: typed or codes with ``fmt``."""
    a = _as_array(q, "q")
    source, _ = _codes_source(a, fmt, "fmt", "q")
    s = _positive_float32(scale_inv, "scale_inv")
    y = _output(out, None, [np.dtype(np.float32)], np.dtype(np.float32), a.shape, a)
    _core.dequantize_per_tensor(_flat(a, _CODES[source]), source, s, y)
    return y


def quantize_per_channel(x: Any, fmt: Any, *, axis: Any = "rows", scales: Any = None,
                         margin: float = 0.0, power_of_two: bool = False,
                         fallback: float = 1.0, rounding: str = "nearest_even",
                         saturate: bool = True, seed: Optional[int] = None, offset: int = 0,
                         random_bits: Optional[int] = None, out: Optional[np.ndarray] = None,
                         dtype: Any = None):
    """Quantizes a rows x columns matrix with one scale per row
    (``axis='rows'``, per output channel of an [out, in] weight) or per
    column (``axis='columns'``) (mf::scaling::quantize_per_channel, or
    quantize_per_channel_with_scales when ``scales`` is given). Returns
    ``(q, scale_inv)``, scale_inv a float32 vector of one factor per channel.

    Stochastic rounding draws element r * columns + c (+ offset) of the
    stream, as encode of the whole matrix does. The other arguments are
    those of quantize_per_tensor.
    """
    target = _format_with_zero(fmt, "quantization maps small values to zero")
    a = _matrix(x, "x")
    k = _channel_axis(axis)
    rows, cols = a.shape
    channels = rows if k == 0 else cols
    if scales is not None:
        _no_scale_options("scales", margin, power_of_two, fallback)
    given = None if scales is None else _scale_vector(scales, channels, "scales")
    if given is not None:
        _given_scales(given, "scales")
    f = _quantize_fields(margin, power_of_two, fallback, rounding, saturate, seed, offset,
                         random_bits)
    q = _codes_output(target, out, dtype, a.shape, a)
    scale_inv = np.empty(channels, np.float32)
    _core.quantize_per_channel(a, given, _flat(q, _CODES[target]), scale_inv, rows, cols, k,
                               target, f)
    return q, scale_inv


def dequantize_per_channel(q: Any, scale_inv: Any, fmt: Any = None, *, axis: Any = "rows",
                           out: Optional[np.ndarray] = None) -> np.ndarray:
    """float32 decode(q) times each channel's scale_inv
    (mf::scaling::dequantize_per_channel): rows, the product rounded once;
    columns, the decoded value times the factor in float32, also once."""
    a = _as_array(q, "q")
    source, _ = _codes_source(a, fmt, "fmt", "q")
    if a.ndim != 2:
        raise ValueError(f"q: expected a 2-D array (rows x columns), got shape {a.shape}")
    k = _channel_axis(axis)
    rows, cols = a.shape
    inv = _scale_vector(scale_inv, rows if k == 0 else cols, "scale_inv")
    y = _output(out, None, [np.dtype(np.float32)], np.dtype(np.float32), a.shape, a)
    _core.dequantize_per_channel(_flat(a, _CODES[source]), inv, y, rows, cols, k, source)
    return y


def quantize_per_block(x: Any, fmt: Any, *, block: Tuple[int, int] = (128, 128),
                       margin: float = 0.0, power_of_two: bool = False, fallback: float = 1.0,
                       rounding: str = "nearest_even", saturate: bool = True,
                       seed: Optional[int] = None, offset: int = 0,
                       random_bits: Optional[int] = None, out: Optional[np.ndarray] = None,
                       dtype: Any = None):
    """Quantizes a rows x columns matrix with one scale per tile of
    ``block`` = (rows, columns): (1, 128) for activations and (128, 128) for
    weights in DeepSeek-V3's recipe; edge tiles may be smaller
    (mf::scaling::quantize_per_block). Returns ``(q, scale_inv)``, scale_inv
    float32 of shape (ceil(rows / block[0]), ceil(columns / block[1])).
    The other arguments are those of quantize_per_tensor.
    """
    target = _format_with_zero(fmt, "quantization maps small values to zero")
    a = _matrix(x, "x")
    br, bc = _block(block)
    f = _quantize_fields(margin, power_of_two, fallback, rounding, saturate, seed, offset,
                         random_bits)
    rows, cols = a.shape
    q = _codes_output(target, out, dtype, a.shape, a)
    scale_inv = np.empty((-(-rows // br), -(-cols // bc)), np.float32)
    _core.quantize_per_block(a, _flat(q, _CODES[target]), scale_inv, rows, cols, br, bc, target,
                             f)
    return q, scale_inv


def dequantize_per_block(q: Any, scale_inv: Any, fmt: Any = None, *,
                         block: Tuple[int, int] = (128, 128),
                         out: Optional[np.ndarray] = None) -> np.ndarray:
    """float32 decode(q) times its tile's scale_inv, rounded once
    (mf::scaling::dequantize_per_block); scale_inv as quantize_per_block
    returns it."""
    a = _as_array(q, "q")
    source, _ = _codes_source(a, fmt, "fmt", "q")
    if a.ndim != 2:
        raise ValueError(f"q: expected a 2-D array (rows x columns), got shape {a.shape}")
    br, bc = _block(block)
    rows, cols = a.shape
    tiles = (-(-rows // br), -(-cols // bc))
    if np.shape(scale_inv) != tiles:
        raise ValueError(f"scale_inv: shape {np.shape(scale_inv)}, expected {tiles} (one per "
                         f"{br} x {bc} tile of a {rows} x {cols} q)")
    inv = _scale_vector(scale_inv, tiles[0] * tiles[1], "scale_inv")
    y = _output(out, None, [np.dtype(np.float32)], np.dtype(np.float32), a.shape, a)
    _core.dequantize_per_block(_flat(a, _CODES[source]), inv, y, rows, cols, br, bc, source)
    return y


class DelayedScaling:
    """Delayed scaling (mf::scaling::delayed_scaling<Fmt>,
    TransformerEngine's DelayedScaling recipe): the scale used at a step
    comes from the amaxes recorded at earlier steps, so quantizing needs no
    extra pass over the tensor.

        s = mf.DelayedScaling("e4m3fn", history_length=16)
        for x in batches:
            q, amax = mf.encode(x, "e4m3fn", scale=s.scale, saturate=True,
                                return_amax=True)
            ... use q with s.scale_inv ...
            s.record(amax)

    history_length: the window of recorded amaxes (>= 1; TransformerEngine's
      amax_history_len). reduction: 'max' (the window's largest) or
      'most_recent'. margin, power_of_two: as compute_scale. The scale
      starts at 1; a window amax of 0, Inf or NaN keeps the current scale (a
      NaN stays in the window, and freezes the scale, until it ages out).
    """

    def __init__(self, fmt: Any, history_length: int = 1024, reduction: str = "max", *,
                 margin: float = 0.0, power_of_two: bool = False):
        target = _format_with_zero(fmt, "quantization maps small values to zero")
        if isinstance(history_length, bool):
            raise TypeError("history_length: expected an int >= 1, got a bool")
        try:
            n = operator.index(history_length)
        except TypeError:
            raise TypeError(f"history_length: expected an int >= 1, got "
                            f"{type(history_length).__name__} {history_length!r}") from None
        if not 1 <= n <= 1 << 32:
            raise ValueError(f"history_length: {n}; accepted: an int in 1..2**32 (the window "
                             f"keeps a float32 per step and each update reads all of them)")
        reduction = _choice(reduction, "reduction", AMAX_REDUCTIONS)
        self.format = _CANONICAL[target]
        margin, power_of_two = _real(margin, "margin"), _bool(power_of_two, "power_of_two")
        try:
            self._core = _core.make_delayed_scaling(target, n, AMAX_REDUCTIONS.index(reduction),
                                                    margin, power_of_two)
        except MemoryError:
            raise MemoryError(f"history_length: {n} amax values (4 bytes each) do not fit in "
                              f"memory") from None

    @property
    def scale(self) -> float:
        """The scale to quantize with now."""
        return self._core.scale()

    @property
    def scale_inv(self) -> float:
        """1 / scale, rounded to float32: the factor stored with the data."""
        return self._core.scale_inv()

    @property
    def history_length(self) -> int:
        return self._core.history_length()

    def reduced_amax(self) -> float:
        """The window's amax under the reduction (NaN if the window holds a
        NaN and the reduction is max); slots not yet recorded hold 0."""
        return self._core.reduced_amax()

    def record(self, amax: float) -> None:
        """Records this step's amax (encode's return_amax) and computes the
        next step's scale from the window."""
        if isinstance(amax, bool) or not isinstance(amax, (int, float, np.integer, np.floating)):
            raise TypeError(f"amax: expected a real number, got {type(amax).__name__} "
                            f"{amax!r}")
        with np.errstate(over="ignore"):
            self._core.record(float(np.float32(amax)))


# ---------------------------------------------------------------------------
# Packed FP4 / FP6 storage (mf::mx::pack, unpack, encode_packed,
# decode_packed; docs/mx.md section 1), outside the MX blocks: FP4 two
# codes per byte, the first in the low nibble (CUDA's __nv_fp4x2, PyTorch's
# float4_e2m1fn_x2); FP6 a little-endian bit stream, code i in bits
# [6i, 6i + 6), four codes in three bytes. The whole array is one stream, in
# C order.
# ---------------------------------------------------------------------------
PACKED_FORMATS = ("e2m1fn", "e2m3fn", "e3m2fn")


def _packed_format(i: int, arg: str) -> int:
    bits = _INFO[i]["bits"]
    if bits not in (4, 6):
        raise ValueError(f"{arg}: {_CANONICAL[i]} has {bits}-bit codes; packing is for the 4- "
                         f"and 6-bit formats: {', '.join(PACKED_FORMATS)}")
    return bits


def _count(shape: Any) -> Tuple[int, ...]:
    try:
        dims = (operator.index(shape),) if not isinstance(shape, (tuple, list)) else \
            tuple(operator.index(d) for d in shape)
    except TypeError:
        raise TypeError(f"shape: expected an int or a tuple of ints, got {shape!r}") from None
    if any(d < 0 for d in dims):
        raise ValueError(f"shape: {shape!r} has a negative dimension")
    count = 1
    for d in dims:
        count *= d
    if count >= 1 << 63 or any(d >= 1 << 63 for d in dims):
        raise ValueError(f"shape: {shape!r} holds 2**63 elements or more")
    return dims


def _packed_input(packed: Any, n: int, bits: int) -> np.ndarray:
    p = _as_array(packed, "packed")
    if p.dtype != np.uint8:
        raise TypeError(f"packed: dtype {p.dtype}; packed codes are uint8 bytes")
    want = (n * bits + 7) // 8
    if p.size != want:
        raise ValueError(f"packed: {p.size} bytes; {n} codes of {bits} bits take {want}")
    return p


def pack(codes: Any, fmt: Any = None, *, out: Optional[np.ndarray] = None) -> np.ndarray:
    """Packs FP4 / FP6 codes (mf::mx::pack<Fmt>): a 1-D uint8 array of
    ceil(n * bits / 8) bytes holding the n codes of ``codes`` in C order.

    codes: a float4_e2m1fn / float6_e2m3fn / float6_e3m2fn array, or uint8
      codes with ``fmt`` (bits above the format's width are ignored).
    """
    a = _as_array(codes, "codes")
    source, _ = _codes_source(a, fmt, "fmt", "codes")
    bits = _packed_format(source, "fmt")
    y = _output(out, None, [np.dtype(np.uint8)], np.dtype(np.uint8),
                ((a.size * bits + 7) // 8,), a)
    _core.pack(_flat(a, np.dtype(np.uint8)), y, source)
    return y


def unpack(packed: Any, fmt: Any, shape: Any, *, out: Optional[np.ndarray] = None,
           dtype: Any = None) -> np.ndarray:
    """The codes of packed FP4 / FP6 bytes (mf::mx::unpack<Fmt>), one per
    byte, as an array of ``shape``: the format's ml_dtypes dtype by default,
    or uint8 codes (``dtype=np.uint8``)."""
    target = _format_id(fmt, "fmt")
    bits = _packed_format(target, "fmt")
    dims = _count(shape)
    p = _packed_input(packed, int(np.prod(dims, dtype=np.int64)), bits)
    y = _codes_output(target, out, dtype, dims, p)
    _core.unpack(p, _flat(y, np.dtype(np.uint8)), target)
    return y


def encode_packed(x: Any, fmt: Any, *, rounding: str = "nearest_even", saturate: bool = False,
                  seed: Optional[int] = None, offset: int = 0,
                  random_bits: Optional[int] = None,
                  out: Optional[np.ndarray] = None) -> np.ndarray:
    """Rounds float32 values into FP4 / FP6 and packs them in one pass
    (mf::mx::encode_packed<Fmt>): the bits of pack(encode(x, fmt, ...)).

    x: float32 (float16 and bfloat16 are widened first, exactly), any shape,
      read in C order. The rounding arguments are those of encode; element i
      draws element offset + i of the stochastic stream.
    """
    target = _format_id(fmt, "fmt")
    bits = _packed_format(target, "fmt")
    a = _float32_tensor(x, "x")
    mode, sat, stochastic, s, o, rb = _conversion(rounding, saturate, seed, offset, random_bits)
    y = _output(out, None, [np.dtype(np.uint8)], np.dtype(np.uint8),
                ((a.size * bits + 7) // 8,), a)
    _core.encode_packed(a, y, target, mode, sat, stochastic, s, o, rb)
    return y


def decode_packed(packed: Any, fmt: Any, shape: Any, *,
                  out: Optional[np.ndarray] = None) -> np.ndarray:
    """The exact float32 values of packed FP4 / FP6 bytes
    (mf::mx::decode_packed<Fmt>), as an array of ``shape``."""
    target = _format_id(fmt, "fmt")
    bits = _packed_format(target, "fmt")
    dims = _count(shape)
    p = _packed_input(packed, int(np.prod(dims, dtype=np.int64)), bits)
    y = _output(out, None, [np.dtype(np.float32)], np.dtype(np.float32), dims, p)
    _core.decode_packed(p, y, target)
    return y


# ---------------------------------------------------------------------------
# PyTorch CPU tensors (_torch.py): every function that takes arrays takes
# tensors too, read in place, and answers a tensor call with tensors.
# ---------------------------------------------------------------------------
from . import _torch  # noqa: E402 - after the functions it wraps

for _name in ("encode", "decode", "convert", "matmul", "eltwise", "mx_quantize",
              "mx_dequantize", "calibrate", "quantize_linear", "dequantize_linear", "cast",
              "amax", "column_amax", "quantize_per_tensor", "dequantize_per_tensor",
              "quantize_per_channel", "dequantize_per_channel", "quantize_per_block",
              "dequantize_per_block", "pack", "unpack", "encode_packed", "decode_packed"):
    globals()[_name] = _torch.tensors_in_tensors_out(globals()[_name])
AbsHistogram.observe = _torch.tensors_in_tensors_out(AbsHistogram.observe)
del _name
