"""Shared parts of the peer comparisons: the library's answers (through the
minifloat_peer_tables helper), the input sets, and the bookkeeping of known,
documented differences.

A comparison passes when every difference between the library and the peer
is explained by one of the listed rules (each names its reason and the
section of docs/semantics.md that writes it down); any other difference
fails the test and prints the first cases.
"""

import importlib
import subprocess
import sys

# ctest's SKIP_RETURN_CODE for these tests: a missing peer is a visible skip.
SKIP = 77

# The formats of the library, their widths (examples/minifloat_cli names).
BITS = {
    "e4m3fn": 8, "e4m3fnuz": 8, "e5m2": 8, "e5m2fnuz": 8, "e2m1fn": 4,
    "e2m3fn": 6, "e3m2fn": 6, "e8m0fnu": 8, "e4m3": 8, "e3m4": 8,
    "e4m3b11fnuz": 8, "binary16": 16, "bfloat16": 16,
}


def require(module, pin):
    """Imports a peer, or exits with SKIP and a line saying why."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        print(f"SKIP: python module '{module}' is not installed ({error}); "
              f"pip install '{pin}' to run this comparison")
        sys.exit(SKIP)


np = require("numpy", "numpy")


class Library:
    """The library's answers, from the minifloat_peer_tables helper."""

    def __init__(self, helper):
        self.helper = helper

    def _run(self, args, data=None):
        return subprocess.run([self.helper, *args], input=data, check=True,
                              capture_output=True).stdout

    def decode(self, name):
        """float32 bits of every encoding."""
        return np.frombuffer(self._run(["decode", name]), np.uint32)

    def encode(self, name, inputs, saturating=False):
        """Codes of round_to<T>(x, nearest_even, overflow) for float32 bits."""
        overflow = "saturating" if saturating else "non_saturating"
        data = np.ascontiguousarray(inputs, np.uint32).tobytes()
        return np.frombuffer(self._run(["encode", name, overflow], data), np.uint16)

    def ops(self, name):
        """Codes of a+b, a-b, a*b, a/b: shape (4, n, n), [op, a, b]."""
        n = 1 << BITS[name]
        return np.frombuffer(self._run(["ops", name]), np.uint16).reshape(4, n, n)


def float_bits(values):
    return np.asarray(values, np.float32).view(np.uint32)


def edge_inputs(decoded_bits):
    """float32 bit patterns at the edges of a format, from its decoded values:
    every finite value, every midpoint between neighbours, the overflow
    threshold (max + half an ulp of max) and max + one ulp, each with 1 and 2
    float32 ulps either side, both signs; the powers of two 2^-149 .. 2^127;
    +-0, +-Inf, quiet, signalling and payload NaNs of both signs."""
    values = decoded_bits.view(np.float32).astype(np.float64)
    finite = np.unique(np.abs(values[np.isfinite(values)]))
    points = [finite, (finite[:-1] + finite[1:]) / 2]
    top = finite[-1]
    ulp = top - finite[-2]
    points.append(np.array([top + ulp / 2, top + ulp]))
    points = np.concatenate(points)
    points = points[points < 2.0**128]  # bfloat16's max + ulp is beyond float32
    exact = points.astype(np.float32).astype(np.float64) == points
    assert exact.all(), "an edge point is not a float32"
    bits = float_bits(points).astype(np.int64)
    near = np.concatenate([bits + d for d in (-2, -1, 0, 1, 2)])
    near = near[(near >= 0) & (near < 0x7F800000)].astype(np.uint32)
    powers = float_bits(np.ldexp(1.0, np.arange(-149, 128)))
    specials = np.array([0x00000000, 0x7F800000, 0x7FC00000, 0x7F800001,
                         0x7FA00000, 0x7FFFFFFF, 0x7FC00001], np.uint32)
    positive = np.concatenate([near, powers, specials])
    return np.unique(np.concatenate([positive, positive | np.uint32(0x80000000)]))


def stride_inputs(stride=251):
    """Every stride-th float32 bit pattern from 0 (all classes, both signs)."""
    return np.arange(0, 1 << 32, stride, dtype=np.uint64).astype(np.uint32)


class Comparison:
    """Counts the differences of one test, explained or not."""

    def __init__(self, peer):
        self.peer = peer
        self.failures = 0
        self.explained = {}

    def check(self, label, peer, library, rules, describe):
        """peer, library: arrays of the same shape (codes or bits).
        rules: [(reason, mask)], mask marking the cases the reason explains.
        describe(i): text of the flat case i for a failure message."""
        peer = np.asarray(peer).ravel()
        library = np.asarray(library).ravel()
        differ = peer != library
        total = int(differ.sum())
        for reason, mask in rules:
            mask = np.asarray(mask).ravel() & differ
            count = int(mask.sum())
            if count:
                self.explained[reason] = self.explained.get(reason, 0) + count
            differ &= ~mask
        left = np.flatnonzero(differ)
        checked = peer.size
        if len(left):
            self.failures += 1
            print(f"FAIL {label}: {len(left)} of {checked} differ from {self.peer} "
                  f"with no documented reason; first cases:")
            for i in left[:8]:
                print(f"    {describe(i)}: {self.peer} {peer[i]:#x}, minifloat {library[i]:#x}")
        else:
            print(f"ok   {label}: {checked} cases, {total} documented differences")

    def finish(self):
        if self.explained:
            print(f"documented differences from {self.peer} (docs/semantics.md):")
            for reason, count in self.explained.items():
                print(f"  {count:9d}  {reason}")
        if self.failures:
            print(f"{self.failures} comparison(s) with undocumented differences")
            return 1
        print(f"all comparisons with {self.peer} agree up to the documented differences")
        return 0
