#!/usr/bin/env python3
"""Writes the named seeds of tests/fuzz/corpus/hybrid and tests/fuzz/corpus/mx.

Each hybrid seed is laid out as fuzz_hybrid.cpp reads its input (table,
types, shape, options, the model's own bytes, scales, bias, output options,
then the operands' codes) and picks one accumulation model, so that every
model is computed from the seed corpus on, and the invariants of the target
are reached: chunked_exact{1} == sequential_fp32 (model_chunked1_*, and every
sequential_fp32 seed from the other side), exact == an int64 sum
(model_exact_hf8, model_reduced_seq: E4M3 x E4M3 -> FP32, table any). The
mxint8_* seeds give fuzz_mx MXINT8 in each scale rounding: ties of x * 2^6,
the clamp to +-127, float32 subnormals (the scale's lower clamp) and a
partial block at the scale's upper end. Deterministic (a fixed seed).

Usage: tests/fuzz/make_seeds.py   (from the repository root; overwrites)
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
rnd = random.Random(39)
# fuzz_hybrid's enumerations: element_type and table_id in declaration order.
I8, U8, HF8, BF8, F16, BF16, F32 = range(7)
VENDOR, CUBLAS, ANY = range(3)


def f32(x):
    return struct.pack('<f', x)


def bf16_code(x):
    # The top half of the float32: any BF16 code is a valid input.
    return struct.unpack('<I', struct.pack('<f', x))[0] >> 16


def f16_code(x):
    return struct.unpack('<H', struct.pack('<e', x))[0]


def fp8_code(fmt):
    # A finite code: HF8 (E4M3FN) has NaN at S.1111.111, BF8 (E5M2) Inf and
    # NaN at exponent 11111.
    while True:
        c = rnd.randrange(256)
        if fmt == HF8 and (c & 0x7F) == 0x7F:
            continue
        if fmt == BF8 and (c & 0x7C) == 0x7C:
            continue
        return c


def value_code(t):
    if t in (HF8, BF8):
        return fp8_code(t), 1
    if t == F16:
        # mostly normal, some subnormal (exponent field 0)
        x = rnd.choice([rnd.uniform(-4, 4), rnd.uniform(-1, 1) * 2.0**-15])
        return f16_code(x), 2
    if t == BF16:
        x = rnd.choice([rnd.uniform(-4, 4), rnd.uniform(-1, 1) * 2.0**-127])
        return bf16_code(x), 2
    if t in (I8, U8):
        return rnd.randrange(256), 1


def seed(name, table, ta, tb, tc, m, n, k, checkz, pick, model_bytes=b'',
         sa=1.0, sb=1.0, so=1.0, bias=None, overflow=1, stochastic=0, sseed=7, rbits=8,
         iscale=1.0):
    b = bytes([table, ta, tb, tc, m - 1, n - 1, k - 1, checkz, pick]) + model_bytes
    b += f32(sa) + f32(sb) + f32(so)
    bias = bias or [0.0] * n
    for v in bias:
        b += f32(v)
    b += bytes([overflow, stochastic, sseed, rbits - 1]) + f32(iscale)
    for t, cnt in ((ta, m * k), (tb, k * n)):
        for _ in range(cnt):
            c, w = value_code(t)
            b += c.to_bytes(w, 'little')
    with open(os.path.join(HERE, 'corpus', 'hybrid', name), 'wb') as f:
        f.write(b)


def pick_for(model, set_bits=0, clear_bits=0):
    # The first `pick` byte that selects `model` (pick % 7) with the given
    # option bits set and cleared.
    for p in range(256):
        if p % 7 == model and (p & set_bits) == set_bits and (p & clear_bits) == 0:
            return p
    raise SystemExit('no pick')


# sequential_fp32 (also reaches chunked_exact{1} == sequential_fp32 from its side)
seed('model_sequential_bf16', ANY, BF16, BF16, BF16, 2, 2, 9, 0, pick_for(0, 0, 8|16|32|64|128))
# chunked_exact{1}, nearest even, no presum: the invariant's own side
seed('model_chunked1_hf8_bf8', ANY, HF8, BF8, F32, 2, 3, 12, 0, pick_for(4, 0, 8|16|32|64|128), bytes([0]))
seed('model_chunked1_f16_operands_bias', ANY, F16, F16, F16, 3, 2, 7, 0,
     pick_for(4, 64|128, 8|16), bytes([70]), sa=0.5, sb=2.0, so=0.25, bias=[1.5, -0.75])
# chunked_exact{3}, toward zero, presum rounding
seed('model_chunked3_rz_presum', ANY, BF8, HF8, BF16, 2, 2, 10, 0, pick_for(4, 8|16, 0), bytes([2]))
# exact to float32 (reaches the int64 check: hf8 x hf8 -> f32, table any)
seed('model_exact_hf8', ANY, HF8, HF8, F32, 3, 3, 40, 0, pick_for(1, 0, 8|64|128), b'')
# exact carried to the output
seed('model_exact_to_output_hf8out', ANY, BF8, HF8, HF8, 2, 2, 16, 0, pick_for(1, 8|32, 64), b'', so=4.0)
# avx512_bf16_pairs, odd K
seed('model_bf16_pairs', ANY, BF16, HF8, F32, 2, 2, 9, 0, pick_for(2, 0, 64), b'')
# amx_tile_pairs: FP16 (no DAZ), guide order; BF16 (DAZ), sdm order
seed('model_amx_f16_guide', ANY, F16, F16, F32, 2, 2, 11, 0, pick_for(3, 8, 64), bytes([1]))
seed('model_amx_bf16_sdm', ANY, BF16, BF16, BF16, 2, 2, 13, 0, pick_for(3, 0, 8|64), bytes([3]))
# reduced_precision: seq variant toward zero; block variant floor
seed('model_reduced_seq', ANY, HF8, HF8, F32, 2, 2, 20, 0, pick_for(5, 0, 8|16|64), bytes([13, 6, 0]))
seed('model_reduced_block_floor', ANY, BF8, BF8, F16, 2, 2, 24, 0, pick_for(6, 8|16, 64), bytes([9, 11, 3]))
# the vendor table (K a multiple of 16 checked), stochastic FP8 output
seed('table_vendor_stochastic', VENDOR, HF8, HF8, HF8, 2, 2, 16, 1, pick_for(0, 0, 64), stochastic=1, rbits=12, so=0.125)
# integer MatMul with requantization
seed('integer_i8', ANY, I8, I8, I8, 2, 2, 9, 0, 0, iscale=0.01)
# nan_payload::propagate (pick bit 16 with a pair model), FP32 output
seed('model_amx_bf16_propagate', ANY, BF16, BF16, F32, 2, 2, 6, 0, pick_for(3, 16, 8|64), bytes([2]))


# fuzz_mx: the first byte's low three bits pick the format (7: MXINT8), bits
# 4..5 the scale rounding (floor, ceil, even); then float32 values.
mx_values = [(2 * j + 1) / 128.0 * (-1 if j % 3 == 0 else 1) for j in range(28)]  # ties of x * 64
mx_values += [127 / 64, -127 / 64, -1.99999, 1.5]  # the clamp to +-127 and the amax
mx_values += [1e-40 * (j - 16) for j in range(32)]  # float32 subnormals: the scale's lower clamp
mx_values += [3.0e38, -2.5e38, 1.0, 0.0, -0.0]  # a partial block at the scale's upper end
for control, name in ((0x07, 'mxint8_floor'), (0x17, 'mxint8_ceil'), (0x27, 'mxint8_even')):
    with open(os.path.join(HERE, 'corpus', 'mx', name), 'wb') as f:
        f.write(bytes([control]) + b''.join(struct.pack('<f', v) for v in mx_values))
