"""Shared fixtures: the optional peers (ml_dtypes) and the command-line tool.

The tool (`minifloat`, examples/minifloat_cli) rounds one value at a time
with mf::round_to / mf::round_to_stochastic, so comparing it with the bulk
entries checks the SIMD kernels the binding calls against the scalar
definition. CTest passes its path in MINIFLOAT_CLI; elsewhere it is looked
for in the repository's build folders, and the tests that need it skip with
a message saying how to build it.
"""

import glob
import os
import pathlib
import subprocess

import numpy as np
import pytest

import minifloat as mf

REPO = pathlib.Path(__file__).resolve().parents[2]
SMALL_FORMATS = [f for f in mf.formats() if mf.info(f).bits <= 8]


@pytest.fixture(scope="session")
def ml_dtypes():
    return pytest.importorskip("ml_dtypes", reason="ml_dtypes is not installed: "
                               "pip install ml_dtypes for the comparisons with it")


def _find_cli():
    path = os.environ.get("MINIFLOAT_CLI")
    if path:
        if not os.access(path, os.X_OK):
            pytest.fail(f"MINIFLOAT_CLI={path} is not an executable (is the tool built?)")
        return path
    for candidate in sorted(glob.glob(str(REPO / "build" / "*" / "examples" / "minifloat"))):
        if os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture(scope="session")
def cli():
    path = _find_cli()
    if path is None:
        pytest.skip("the minifloat tool was not found: set MINIFLOAT_CLI, or build it with "
                    "`cmake --preset tool && cmake --build --preset tool`")
    return Tool(path)


class Tool:
    """Runs the command-line tool on many values at once (one per line)."""

    def __init__(self, path):
        self.path = path

    def run(self, args, lines):
        text = "".join(line + "\n" for line in lines)
        done = subprocess.run([self.path, *args], input=text, capture_output=True, text=True,
                              check=False)
        if done.returncode != 0:
            raise AssertionError(f"{self.path} {' '.join(args)}: exit {done.returncode}: "
                                 f"{done.stderr.strip()}")
        return done.stdout

    def encode(self, fmt, values, args=()):
        """The tool's encodings of float32 or float64 `values` (given by their bits)."""
        values = np.asarray(values)
        if values.dtype == np.float32:
            lines = [f"0x{b:08x}" for b in values.view(np.uint32).tolist()]
            source = "f32"
        else:
            lines = [f"0x{b:016x}" for b in values.astype(np.float64).view(np.uint64).tolist()]
            source = "f64"
        out = self.run(["encode", fmt, "--from", source, *args], lines).split()
        return np.array([int(word, 16) for word in out], dtype=np.uint32)

    def decode(self, fmt, codes):
        out = self.run(["decode", fmt], [f"0x{c:x}" for c in np.asarray(codes).tolist()]).split()
        return np.array([int(word, 16) for word in out], dtype=np.uint32).view(np.float32)

    def vectors(self, fmt, args=()):
        """The tool's golden vectors (its boundary set plus seeded random inputs)."""
        rows = self.run(["vectors", fmt, "--csv", *args], []).splitlines()
        inputs, outputs = [], []
        for row in rows:
            if not row.startswith("0x"):
                continue  # comments and the header
            a, b = row.split(",")[:2]
            inputs.append(int(a, 16))
            outputs.append(int(b, 16))
        return (np.array(inputs, dtype=np.uint32).view(np.float32),
                np.array(outputs, dtype=np.uint32))


def codes_of(fmt):
    """Every encoding of a format of at most 8 bits, as its codes dtype."""
    i = mf.info(fmt)
    return np.arange(1 << i.bits, dtype=i.codes_dtype)


def same_floats(a, b):
    """Equal bit for bit, except that any NaN equals any NaN."""
    a = np.asarray(a)
    b = np.asarray(b)
    both_nan = np.isnan(a) & np.isnan(b)
    width = {2: np.uint16, 4: np.uint32, 8: np.uint64}[a.dtype.itemsize]
    return np.all(both_nan | (a.view(width) == b.view(width)))
