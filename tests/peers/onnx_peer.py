"""The library against ONNX's reference Cast (onnx.reference), float32 ->
FLOAT8E4M3FN, FLOAT8E4M3FNUZ, FLOAT8E5M2, FLOAT8E5M2FNUZ, and FLOAT4E2M1 /
FLOAT8E8M0 where the installed onnx has them, with saturate=1 (library:
overflow::saturating) and saturate=0 (overflow::non_saturating), on the edge
set of peer_common.edge_inputs and 20000 random float32 bit patterns.
Where onnx has no FLOAT4E2M1 / FLOAT8E8M0 (onnx 1.17 has neither), e2m1fn
and e8m0fnu are compared on the same inputs with a table written here from
the OCP MX v1.0 definitions (and docs/semantics.md 3.6-3.7 where OCP leaves
the result open) instead of being skipped:

  python3 onnx_peer.py <minifloat_peer_tables>

onnx 1.17 is pinned on purpose: its Cast rounds with onnx's own
float32_to_float8e4m3 / float32_to_float8e5m2 (onnx.helper), an
implementation independent of ml_dtypes; from onnx 1.18 the reference Cast
calls ml_dtypes, which ml_dtypes_peer.py already compares. Exit 0 when all
agree up to the rules below (rows of docs/semantics.md's comparison table),
1 otherwise, 77 (skip) without onnx.
"""

import sys
import warnings

import peer_common as pc
from peer_common import np

onnx = pc.require("onnx", "onnx==1.17.0")
if not onnx.__version__.startswith("1.17."):
    # Newer onnx rounds its Cast with ml_dtypes (checked by peers_ml_dtypes);
    # the differences listed below are onnx 1.17's own.
    print(f"SKIP: onnx {onnx.__version__} is not 1.17: pip install --target DIR --no-deps "
          "onnx==1.17.0 and configure with MINIFLOAT_PEERS_PYTHONPATH=DIR (as .ci/run does)")
    sys.exit(pc.SKIP)
from onnx import TensorProto, helper  # noqa: E402
from onnx.reference import ReferenceEvaluator  # noqa: E402

TARGETS = {
    "e4m3fn": "FLOAT8E4M3FN", "e4m3fnuz": "FLOAT8E4M3FNUZ",
    "e5m2": "FLOAT8E5M2", "e5m2fnuz": "FLOAT8E5M2FNUZ",
    "e2m1fn": "FLOAT4E2M1", "e8m0fnu": "FLOAT8E8M0",
}
FNUZ = {"e4m3fnuz", "e5m2fnuz"}

# The reasons, as docs/semantics.md's comparison table words them.
E4M3FN_480 = ("|x| in [480, 496) into e4m3fn with saturate=0: onnx 1.17's "
              "float32_to_float8e4m3 gives +-448 (it clears the low bit of the "
              "truncated NaN pattern 0x7F, then rounds on the half bit alone); "
              "minifloat NaN, as ml_dtypes and ONNX's own Cast table (x > 448 -> NaN)")
E5M2_NAN_OVERFLOW = ("|x| in [61440, 65536) into e5m2 with saturate=0: onnx 1.17's "
                     "float32_to_float8e5m2 gives NaN 0x7F (it ors the Inf code into "
                     "max); minifloat +-Inf, as ml_dtypes and ONNX's Cast table")
E5M2_NAN_CODE = ("NaN into e5m2: onnx 1.17 gives 0x7F/0xFF, minifloat its canonical "
                 "NaN 0x7E/0xFE (section 1.4)")
FNUZ_SATURATED_INF = ("+-Inf into e4m3fnuz/e5m2fnuz with saturate=1: onnx's reference "
                      "(already 1.17) gives +-max; minifloat NaN 0x80 (section 3.6)")


# OCP MX v1.0, 5.3.3: E2M1 is S.EE.M with bias 1: the magnitudes 0, 0.5
# (subnormal), 1, 1.5, 2, 3, 4, 6 at codes 0..7, no Inf or NaN. Conversions
# round to nearest even and clamp overflow to max (6.3: "saturate to max
# normal"). A NaN has no encoding (implementation-defined; this library:
# +max, docs/semantics.md 3.6); Inf clamps like any overflow.
E2M1_MAGNITUDES = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0]


def e2m1_spec_code(x, saturate):
    del saturate  # E2M1 has no Inf: every overflow is max (OCP MX v1.0 6.3)
    if np.isnan(x):
        return 0x7
    sign = 0x8 if np.signbit(x) else 0
    m = abs(float(x))
    if m >= 6.0:  # past max, or between 6 and 8 (nearer 6, or the tie: 8, overflow)
        return sign | 0x7
    for code in range(7):
        low, high = E2M1_MAGNITUDES[code], E2M1_MAGNITUDES[code + 1]
        if low <= m < high:
            middle = (low + high) / 2
            up = m > middle or (m == middle and code % 2 == 1)  # the tie to the even code
            return sign | (code + 1 if up else code)
    raise AssertionError(m)


# OCP MX v1.0, 5.4.1: E8M0 is an unsigned exponent with bias 127, code c the
# value 2^(c - 127) for c = 0..254, 0xFF NaN; no sign, zero, Inf or
# subnormals. Rounding to nearest: the midpoint 1.5 * 2^k has no even
# neighbour and goes up (docs/semantics.md 3.7, with the values below 2^-127,
# negative inputs, Inf and overflow there).
def e8m0_spec_code(x, saturate):
    if np.isnan(x) or (np.signbit(x) and x != 0):
        return 0xFF
    if np.isinf(x):
        return 0xFE if saturate else 0xFF
    m = abs(float(x))
    if m < 2.0 ** -127:
        return 0x00
    fraction, exponent = np.frexp(m)  # m = fraction * 2^exponent, fraction in [0.5, 1)
    k = int(exponent) - 1
    if 2 * fraction >= 1.5:
        k += 1
    if k > 127:
        return 0xFE if saturate else 0xFF
    return k + 127


SPEC_TABLES = {"e2m1fn": ("OCP MX v1.0 E2M1", e2m1_spec_code),
               "e8m0fnu": ("OCP MX v1.0 E8M0", e8m0_spec_code)}


def cast(to, saturate, x):
    node = helper.make_node("Cast", ["X"], ["Y"], to=to, saturate=saturate)
    graph = helper.make_graph(
        [node], "cast", [helper.make_tensor_value_info("X", TensorProto.FLOAT, [None])],
        [helper.make_tensor_value_info("Y", to, [None])])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 21)])
    y = ReferenceEvaluator(model).run(None, {"X": x})[0]
    # onnx 1.17 returns the FP8 codes as uint8 with a named field.
    return np.ascontiguousarray(y).view(np.uint8).astype(np.uint16)


def main():
    library = pc.Library(sys.argv[1])
    comparison = pc.Comparison(f"onnx {onnx.__version__} reference Cast")
    spec_comparison = pc.Comparison("the OCP MX v1.0 table")
    warnings.simplefilter("ignore")
    random_inputs = np.random.default_rng(20240521).integers(
        0, 1 << 32, 20000, dtype=np.uint64).astype(np.uint32)
    for name, type_name in TARGETS.items():
        to = getattr(TensorProto, type_name, None)
        decoded = library.decode(name)
        inputs = np.unique(np.concatenate([pc.edge_inputs(decoded), random_inputs]))
        x = inputs.view(np.float32)
        if to is None:
            # Not a skip: without onnx's Cast the library is compared with
            # the specification's table on the same inputs.
            spec, code_of = SPEC_TABLES[name]
            print(f"{name}: onnx {onnx.__version__} has no TensorProto.{type_name}; "
                  f"compared with {spec} as written in this file")
            for saturate in (1, 0):
                expected = np.array([code_of(v, saturate) for v in x], np.uint16)
                lib = library.encode(name, inputs, saturating=bool(saturate))
                spec_comparison.check(f"{name} saturate={saturate}", expected, lib, [],
                                      lambda i, inputs=inputs: f"input {inputs[i]:#010x}")
            continue
        for saturate in (1, 0):
            peer = cast(to, saturate, x)
            lib = library.encode(name, inputs, saturating=bool(saturate))
            magnitude = np.abs(x)
            e5m2_nan = (peer & 0x7F) == 0x7F
            comparison.check(f"{name} saturate={saturate}", peer, lib, [
                (E4M3FN_480, (name == "e4m3fn") & (saturate == 0) & (magnitude >= 480) &
                 (magnitude < 496) & ((peer & 0x7F) == 0x7E) & ((lib & 0x7F) == 0x7F)),
                (E5M2_NAN_OVERFLOW, (name == "e5m2") & (saturate == 0) &
                 (magnitude >= 61440) & (magnitude < 65536) & e5m2_nan &
                 ((lib & 0x7F) == 0x7C)),
                (E5M2_NAN_CODE, (name == "e5m2") & np.isnan(x) & e5m2_nan &
                 ((lib & 0x7F) == 0x7E) & ((peer >> 7) == (lib >> 7))),
                (FNUZ_SATURATED_INF, (name in FNUZ) & (saturate == 1) & np.isinf(x) &
                 (lib == 0x80)),
            ], lambda i, inputs=inputs: f"input {inputs[i]:#010x}")
    return max(comparison.finish(), spec_comparison.finish())


if __name__ == "__main__":
    sys.exit(main())
