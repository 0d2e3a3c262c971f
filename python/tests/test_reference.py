"""Every rounding mode, saturating or not, against reference.py (exact
rationals, written from docs/semantics.md): the check of the directed modes
that runs wherever the package does, with or without the tool."""

import numpy as np
import pytest

import minifloat as mf
from reference import Format, round_to
from test_encode import boundaries, stride_patterns

MODES = ["nearest_even", "toward_zero", "toward_positive", "toward_negative"]


def sample(fmt, count=1500):
    rng = np.random.default_rng(sum(map(ord, fmt)))
    b = boundaries(fmt)
    x = np.concatenate([rng.choice(b, min(count, b.size), replace=False),
                        rng.choice(stride_patterns(4099), 300, replace=False)])
    return x


@pytest.mark.parametrize("fmt", mf.formats())
@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("saturate", [False, True])
def test_every_mode_equals_the_exact_reference(fmt, mode, saturate):
    x = sample(fmt)
    got = mf.encode(x, fmt, rounding=mode, saturate=saturate, dtype=mf.info(fmt).codes_dtype)
    f = Format(fmt)
    want = np.array([round_to(f, float(v), mode, saturate) for v in x.tolist()])
    bad = np.flatnonzero(got != want)
    assert bad.size == 0, [(float(x[i]), hex(int(got[i])), hex(int(want[i]))) for i in bad[:5]]


# The tool's spellings (minifloat encode --round ...) and both separators
# name the same modes as the names of mf::rounding, in any case.
SPELLINGS = {"nearest_even": ["nearest-even", "rne", "RNE"],
             "toward_zero": ["toward-zero", "rtz"],
             "toward_positive": ["toward-positive", "up", "Up"],
             "toward_negative": ["toward-negative", "down", "DOWN"]}


@pytest.mark.parametrize("mode", MODES)
def test_the_tools_spellings_are_the_same_modes(mode):
    x = sample("e5m2", 200)
    f = Format("e5m2")
    want = np.array([round_to(f, float(v), mode, False) for v in x.tolist()])
    for spelling in SPELLINGS[mode]:
        got = mf.encode(x, "e5m2", rounding=spelling, dtype=np.uint8)
        assert np.array_equal(got, want), spelling


def test_sr_is_stochastic():
    x = sample("e4m3fn", 200)
    want = mf.encode(x, "e4m3fn", rounding="stochastic", seed=5, offset=3, dtype=np.uint8)
    got = mf.encode(x, "e4m3fn", rounding="SR", seed=5, offset=3, dtype=np.uint8)
    assert np.array_equal(got, want)
