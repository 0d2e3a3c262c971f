"""The library against ml_dtypes (and numpy's float16 for binary16):

  python3 ml_dtypes_peer.py <minifloat_peer_tables>

- decode: every encoding of every format, float32 bits compared;
- float32 -> format, nearest-even, non-saturating (ml_dtypes' astype): the
  edge set of peer_common.edge_inputs and every 251st float32 bit pattern;
- + - * / on all pairs of every format of at most 8 bits.
Differences are allowed only where a rule below names them; each rule is a
row of the comparison table in docs/semantics.md. Exit 0 when all agree up
to those, 1 otherwise, 77 (skip) without ml_dtypes.
"""

import sys
import warnings

import peer_common as pc
from peer_common import np

ml_dtypes = pc.require("ml_dtypes", "ml_dtypes==0.6.0")

PEER_TYPES = {
    "e4m3fn": ml_dtypes.float8_e4m3fn, "e4m3fnuz": ml_dtypes.float8_e4m3fnuz,
    "e5m2": ml_dtypes.float8_e5m2, "e5m2fnuz": ml_dtypes.float8_e5m2fnuz,
    "e4m3": getattr(ml_dtypes, "float8_e4m3", None),
    "e3m4": getattr(ml_dtypes, "float8_e3m4", None),
    "e4m3b11fnuz": ml_dtypes.float8_e4m3b11fnuz,
    "e2m3fn": getattr(ml_dtypes, "float6_e2m3fn", None),
    "e3m2fn": getattr(ml_dtypes, "float6_e3m2fn", None),
    "e2m1fn": getattr(ml_dtypes, "float4_e2m1fn", None),
    "e8m0fnu": getattr(ml_dtypes, "float8_e8m0fnu", None),
    "bfloat16": ml_dtypes.bfloat16,
    "binary16": np.float16,  # numpy's own half: the peer of binary16
}
NO_NAN = {"e2m1fn", "e2m3fn", "e3m2fn"}
FNUZ = {"e4m3fnuz", "e5m2fnuz", "e4m3b11fnuz"}

# The reasons, as docs/semantics.md's comparison table words them.
FNUZ_NAN_SIGN = ("decode: FNUZ NaN 0x80 is +NaN in minifloat (section 2), "
                 "-NaN (0xFFC00000) in ml_dtypes")
NAN_PAYLOAD = ("NaN payload: minifloat gives the canonical quiet NaN of the "
               "sign (sections 1.4, 2); numpy/ml_dtypes keep payload bits")
NAN_INTO_NO_NAN = ("NaN into e2m1fn/e2m3fn/e3m2fn: minifloat +max (section 3.6); "
                   "ml_dtypes 0 with the sign bit flipped (+NaN -> -0, -NaN -> +0)")
E8M0_ZERO = "0 into e8m0fnu: minifloat 0x00 = 2^-127 (section 3.7); ml_dtypes NaN"
E8M0_SUBNORMAL = ("float32 subnormals in (2^-127, 1.5*2^-127) into e8m0fnu: "
                  "minifloat 2^-127, the nearest (section 3.7); ml_dtypes 2^-126")
ARITH_NAN_SIGN = ("sign of the NaN result of x + NaN, x - NaN: IEEE 754 leaves "
                  "open which NaN operand propagates (clause 6.2.3); minifloat's "
                  "float operation and ml_dtypes' give different signs (section 5.1)")


def codes_of(array, bits):
    raw = np.ascontiguousarray(array).view(np.uint16 if bits == 16 else np.uint8)
    return raw.astype(np.uint16)


def main():
    library = pc.Library(sys.argv[1])
    comparison = pc.Comparison(f"ml_dtypes {ml_dtypes.__version__}")
    warnings.simplefilter("ignore")  # numpy's overflow / invalid-cast warnings
    stride = pc.stride_inputs()
    for name, peer_type in PEER_TYPES.items():
        if peer_type is None:
            print(f"SKIP {name}: this ml_dtypes has no such type")
            continue
        bits = pc.BITS[name]
        n = 1 << bits
        codes = np.arange(n, dtype=np.uint16 if bits == 16 else np.uint8)

        # Decode every encoding.
        decoded = library.decode(name)
        peer = codes.view(peer_type).astype(np.float32).view(np.uint32)
        peer_nan = np.isnan(peer.view(np.float32))
        lib_nan = np.isnan(decoded.view(np.float32))
        same_sign = (peer >> 31) == (decoded >> 31)
        comparison.check(f"{name} decode", peer, decoded, [
            (FNUZ_NAN_SIGN, (name in FNUZ) & (codes == 0x80) & peer_nan & lib_nan),
            (NAN_PAYLOAD, peer_nan & lib_nan & same_sign),
        ], lambda i: f"code {i:#x}")

        lib_is_nan_code = np.isnan(decoded.view(np.float32))

        def is_nan_code(c):
            return lib_is_nan_code[c]

        # float32 -> format, nearest-even, non-saturating.
        for set_name, inputs in (("edges", pc.edge_inputs(decoded)), ("every 251st", stride)):
            x = inputs.view(np.float32)
            lib = library.encode(name, inputs)
            peer = codes_of(x.astype(peer_type), bits)
            x_nan = np.isnan(x)
            comparison.check(f"{name} encode {set_name}", peer, lib, [
                (NAN_INTO_NO_NAN, (name in NO_NAN) & x_nan),
                (E8M0_ZERO, (name == "e8m0fnu") & (x == 0)),
                (E8M0_SUBNORMAL, (name == "e8m0fnu") & (inputs > 0x00400000) &
                 (inputs < 0x00600000) & (peer == 1) & (lib == 0)),
                (NAN_PAYLOAD, x_nan & is_nan_code(peer) & is_nan_code(lib) &
                 ((peer >> (bits - 1)) == (lib >> (bits - 1)))),
            ], lambda i, inputs=inputs: f"input {inputs[i]:#010x}")

        # + - * / on every pair.
        if bits > 8:
            continue
        lib_ops = library.ops(name)
        values = codes.view(peer_type)
        a, b = np.repeat(values, n), np.tile(values, n)
        fa, fb = a.astype(np.float32), b.astype(np.float32)
        for k, (symbol, op) in enumerate((("+", np.add), ("-", np.subtract),
                                          ("*", np.multiply), ("/", np.divide))):
            peer = codes_of(op(a, b), bits)
            lib = lib_ops[k].ravel()
            exact = op(fa, fb)  # the float32 result both round
            comparison.check(f"{name} a {symbol} b", peer, lib, [
                (ARITH_NAN_SIGN, is_nan_code(peer) & is_nan_code(lib) &
                 (np.isnan(fa) | np.isnan(fb))),
                (NAN_INTO_NO_NAN, (name in NO_NAN) & np.isnan(exact)),
                (E8M0_ZERO, (name == "e8m0fnu") & (exact == 0)),
                (E8M0_SUBNORMAL, (name == "e8m0fnu") & (exact > 2.0**-127) &
                 (exact < 1.5 * 2.0**-127) & (peer == 1) & (lib == 0)),
            ], lambda i, symbol=symbol, n=n: f"{i // n:#x} {symbol} {i % n:#x}")
    return comparison.finish()


if __name__ == "__main__":
    sys.exit(main())
