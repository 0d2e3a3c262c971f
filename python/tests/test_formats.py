"""formats(), info() and the names: the table of docs/semantics.md, 1.1."""

import re

import numpy as np
import pytest

import minifloat as mf
from conftest import REPO, SMALL_FORMATS

# name: bits, E, M, bias, specials, max, min normal, min subnormal
TABLE = {
    "e4m3fn": (8, 4, 3, 7, "fn", 448.0, 2.0**-6, 2.0**-9),
    "e4m3fnuz": (8, 4, 3, 8, "fnuz", 240.0, 2.0**-7, 2.0**-10),
    "e5m2": (8, 5, 2, 15, "ieee", 57344.0, 2.0**-14, 2.0**-16),
    "e5m2fnuz": (8, 5, 2, 16, "fnuz", 57344.0, 2.0**-15, 2.0**-17),
    "e2m1fn": (4, 2, 1, 1, "finite", 6.0, 1.0, 0.5),
    "e2m3fn": (6, 2, 3, 1, "finite", 7.5, 1.0, 0.125),
    "e3m2fn": (6, 3, 2, 3, "finite", 28.0, 0.25, 0.0625),
    "e8m0fnu": (8, 8, 0, 127, "fnu", 2.0**127, 2.0**-127, None),
    "e4m3": (8, 4, 3, 7, "ieee", 240.0, 2.0**-6, 2.0**-9),
    "e3m4": (8, 3, 4, 3, "ieee", 15.5, 2.0**-2, 2.0**-6),
    "e4m3b11fnuz": (8, 4, 3, 11, "fnuz", 30.0, 2.0**-10, 2.0**-13),
    "binary16": (16, 5, 10, 15, "ieee", 65504.0, 2.0**-14, 2.0**-24),
    "bfloat16": (16, 8, 7, 127, "ieee", (2 - 2.0**-7) * 2.0**127, 2.0**-126, 2.0**-133),
}


def test_formats_lists_the_library_names_in_order():
    assert mf.formats() == list(TABLE)


@pytest.mark.parametrize("name", list(TABLE))
def test_info_matches_the_table(name):
    bits, e, m, bias, specials, top, min_normal, min_subnormal = TABLE[name]
    i = mf.info(name)
    assert (i.name, i.bits, i.exponent_bits, i.mantissa_bits, i.bias, i.specials) == (
        name, bits, e, m, bias, specials)
    assert i.max == top and i.min_normal == min_normal and i.min_subnormal == min_subnormal
    assert i.codes_dtype == (np.uint8 if bits <= 8 else np.uint16)


def test_names_ignore_case_and_take_ml_dtypes_spellings():
    assert mf.info("E4M3FN").name == "e4m3fn"
    assert mf.info("float8_e4m3fn").name == "e4m3fn"
    assert mf.info("Float4_E2M1FN").name == "e2m1fn"
    assert mf.info("float6_e3m2fn").name == "e3m2fn"
    assert mf.info("float8_e8m0fnu").name == "e8m0fnu"
    assert mf.info("half").name == "binary16"
    assert mf.info("float16").name == "binary16"
    assert mf.info(np.float16).name == "binary16"


def test_names_are_the_registry_spellings():
    # format_registry.hpp: ONNX, MLIR and the Hybrid FP8 tables' names too.
    assert mf.info("FLOAT8E4M3FN").name == "e4m3fn"
    assert mf.info("f8E5M2FNUZ").name == "e5m2fnuz"
    assert mf.info("HF8").name == "e4m3fn"
    assert mf.info("bf8").name == "e5m2"
    assert mf.info("fp16").name == "binary16"
    assert "float8_e4m3fn" in mf.info("e4m3fn").aliases
    with pytest.raises(ValueError, match="name: unknown format 'float32'"):
        mf.info("float32")  # in the registry, but not a minifloat


def test_typed_dtypes_name_their_format(ml_dtypes):
    for name in TABLE:
        d = mf.info(name).dtype
        assert d is not None, name
        assert mf.info(d).name == name
    assert mf.info(ml_dtypes.float8_e4m3b11fnuz).name == "e4m3b11fnuz"


def test_version_is_the_one_in_config_hpp():
    text = (REPO / "include" / "minifloat" / "config.hpp").read_text()
    parts = [re.search(rf"#define MINIFLOAT_VERSION_{p} (\d+)", text).group(1)
             for p in ("MAJOR", "MINOR", "PATCH")]
    assert mf.__version__ == ".".join(parts)


def _parse_tool_table(text):
    """The tool's `table` rows: bits, sign, exponent, mantissa, class, value."""
    return [line.split() for line in text.splitlines()[1:] if line.strip()]


@pytest.mark.parametrize("name", SMALL_FORMATS + ["binary16"])
def test_table_has_the_tools_rows(cli, name):
    t = mf.table(name)
    rows = _parse_tool_table(cli.run(["table", name], []))
    assert len(t) == len(rows) == 1 << mf.info(name).bits
    assert t.format == name
    for i, (bits, sign, exponent, mantissa, kind, value) in enumerate(rows):
        assert int(bits, 16) == t.bits[i] == i
        assert sign == ("-" if t.sign is None else str(t.sign[i]))
        assert int(exponent, 2) == t.exponent[i]
        assert mantissa == ("-" if t.mantissa is None else format(int(t.mantissa[i]), "b")
                            .zfill(mf.info(name).mantissa_bits))
        assert kind == t.kind[i], (name, hex(i))
        got = float(t.value[i])
        if value == "nan":
            assert np.isnan(got)
        else:
            assert got == float(value), (name, hex(i), value)
            assert np.signbit(got) == value.startswith("-")


def test_table_of_fp4_is_its_sixteen_values():
    assert mf.table("float4_e2m1fn").value.tolist() == [
        0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0]
