/* minifloat's C ABI: the conversions of the C++ library behind plain C
 * functions over bit patterns, for C programs and for SystemVerilog
 * testbenches through DPI-C (share/minifloat/dpi/minifloat_pkg.sv imports
 * every function below but five, which are for C callers: mf_format_name,
 * the array entries mf_mx_quantize and mf_mx_dequantize,
 * mf_hybrid_options_init and mf_hybrid_matmul).
 *
 * Built as the library minifloat::c (static; minifloat::c_shared is the
 * shared one that a simulator loads with -sv_lib). The C++ headers stay
 * header-only and never need it.
 *
 * Types: the C types of IEEE 1800-2017 annex H, so that the DPI import of
 * each function has exactly this prototype:
 *   SV int             <-> int                 (ids, counts, status)
 *   SV int unsigned    <-> unsigned int        (32-bit: encodings, float bits)
 *   SV longint unsigned<-> unsigned long long  (64-bit: double bits, seeds)
 *   SV byte unsigned   <-> unsigned char       (MX scales and element codes)
 *   output argument    <-> pointer to the type
 * Floating-point values cross as bit patterns (IEEE 754 binary32/binary64),
 * never as float/double, so a NaN's payload and a -0 survive the boundary.
 *
 * Every function returns a status (enum mf_status): MF_OK, or the first
 * error found, checked in the order the arguments are listed. On error
 * nothing is written through the output pointers. No function aborts or
 * keeps state between calls, and none allocates but mf_hybrid_matmul and
 * mf_hybrid_dot32 (MF_ERR_OUT_OF_MEMORY); all are thread-safe. */
#ifndef MINIFLOAT_C_API_H
#define MINIFLOAT_C_API_H

#include <stddef.h>

#if defined(_WIN32) && defined(MINIFLOAT_C_SHARED_BUILD)
#define MF_C_API __declspec(dllexport)
#elif defined(__GNUC__)
#define MF_C_API __attribute__((visibility("default")))
#else
#define MF_C_API
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Formats (mf::<name> in C++; docs/formats/ has a page for each). The ids
 * are part of the ABI: new formats get new numbers, none is reused. */
enum mf_format {
  MF_FORMAT_E4M3FN = 0,
  MF_FORMAT_E4M3FNUZ = 1,
  MF_FORMAT_E5M2 = 2,
  MF_FORMAT_E5M2FNUZ = 3,
  MF_FORMAT_E2M1FN = 4,
  MF_FORMAT_E2M3FN = 5,
  MF_FORMAT_E3M2FN = 6,
  MF_FORMAT_E8M0FNU = 7,
  MF_FORMAT_E4M3 = 8,
  MF_FORMAT_E3M4 = 9,
  MF_FORMAT_E4M3B11FNUZ = 10,
  MF_FORMAT_BINARY16 = 11,
  MF_FORMAT_BFLOAT16 = 12,
  MF_FORMAT_COUNT = 13 /* one past the last id */
};

/* Rounding modes: the four of mf::rounding in its order, then stochastic
 * rounding (mf::round_to_stochastic). */
enum mf_rounding {
  MF_ROUND_NEAREST_EVEN = 0,
  MF_ROUND_TOWARD_ZERO = 1,
  MF_ROUND_TOWARD_POSITIVE = 2,
  MF_ROUND_TOWARD_NEGATIVE = 3,
  MF_ROUND_STOCHASTIC = 4
};

/* What a finite value beyond max finite becomes (mf::overflow). */
enum mf_overflow {
  MF_OVERFLOW_NON_SATURATING = 0, /* Inf, or NaN where there is no Inf */
  MF_OVERFLOW_SATURATING = 1      /* +-max finite */
};

/* Classes of an encoding (the classes of C's fpclassify). */
enum mf_class {
  MF_CLASS_ZERO = 0,
  MF_CLASS_SUBNORMAL = 1,
  MF_CLASS_NORMAL = 2,
  MF_CLASS_INFINITE = 3,
  MF_CLASS_NAN = 4
};

/* MX block formats (OCP Microscaling Formats v1.0): 32 elements sharing one
 * E8M0 scale (mf::mx::mxfp8_e4m3 ...). */
enum mf_mx_format {
  MF_MX_FP8_E4M3 = 0,
  MF_MX_FP8_E5M2 = 1,
  MF_MX_FP6_E2M3 = 2,
  MF_MX_FP6_E3M2 = 3,
  MF_MX_FP4_E2M1 = 4,
  MF_MX_INT8 = 5,
  MF_MX_FORMAT_COUNT = 6
};

/* How the shared scale is chosen from the block's amax (mf::mx::scale_rounding):
 * floor is the OCP rule; ceil and even avoid clipping the largest element. */
enum mf_mx_scale_rounding {
  MF_MX_SCALE_FLOOR = 0,
  MF_MX_SCALE_CEIL = 1,
  MF_MX_SCALE_EVEN = 2
};

/* Elements in one MX block. */
#define MF_MX_BLOCK_SIZE 32

/* Status codes. Each function's comment says which it can return. */
enum mf_status {
  MF_OK = 0,
  MF_ERR_NULL_POINTER = 1,        /* an output or input pointer is NULL */
  MF_ERR_UNKNOWN_FORMAT = 2,      /* format id not in enum mf_format */
  MF_ERR_BAD_ROUNDING = 3,        /* rounding id not in enum mf_rounding */
  MF_ERR_BAD_OVERFLOW = 4,        /* overflow id not in enum mf_overflow */
  MF_ERR_BAD_RANDOM_BITS = 5,     /* stochastic random_bits outside 1..32 */
  MF_ERR_BAD_ENCODING = 6,        /* code has bits above the format's width */
  MF_ERR_UNKNOWN_MX_FORMAT = 7,   /* id not in enum mf_mx_format */
  MF_ERR_BAD_SCALE_ROUNDING = 8,  /* id not in enum mf_mx_scale_rounding */
  MF_ERR_UNKNOWN_HYBRID_ID = 9,   /* id not in enum mf_hybrid_type / _table / mf_accumulation_model */
  MF_ERR_BAD_SIZE = 10,           /* a matrix size < 1 or a leading dimension too small */
  MF_ERR_HYBRID_REJECTED = 11,    /* the table or the model rejects the request */
  MF_ERR_OUT_OF_MEMORY = 12,      /* the MatMul could not allocate its copies (of the operands, of C) */
  MF_ERR_BAD_FLAG = 13            /* an argument or option that takes 0 or 1 has another value */
};

/* The status's enumerator name ("MF_OK", "MF_ERR_NULL_POINTER", ...); a
 * static string, never NULL ("unknown status" for any other number). */
MF_C_API const char* mf_status_name(int status);

/* Width of the format's encodings in bits (4..16).
 * Errors: UNKNOWN_FORMAT, NULL_POINTER. */
MF_C_API int mf_format_bits(int format, int* bits);

/* The format called `name` (NUL-terminated) in any spelling the library
 * accepts, in any ASCII case: the names of ml_dtypes and PyTorch
 * ("float8_e4m3fn"), ONNX ("FLOAT8E4M3FN"), MLIR ("f8E4M3FN"), the Hybrid
 * FP8 tables ("HF8", "BF8", "FP16", "BF16") and the library's own
 * ("e4m3fn", "binary16", "half", "bf16", ...): the README's format table,
 * one registry shared with the C++ library (mf::find_minifloat). The
 * element types that are not formats here (float32, int8, ...) are
 * UNKNOWN_FORMAT. Beware "E4M3": case-insensitively it is "e4m3",
 * ml_dtypes' float8_e4m3 (with Inf, max 240), not OCP's FP8 E4M3, which is
 * "e4m3fn" (MF_FORMAT_E4M3FN).
 * Errors, in argument order: NULL_POINTER (name), UNKNOWN_FORMAT,
 * NULL_POINTER (format). */
MF_C_API int mf_format_from_name(const char* name, int* format);

/* The library's name of the format ("e4m3fn", ..., "binary16",
 * "bfloat16"): a static string; NULL for an id not in enum mf_format. */
MF_C_API const char* mf_format_name(int format);

/* Rounds the binary32 value with bit pattern f32_bits into `format`:
 * *code = mf::round_to<T>(value, rounding, overflow).bits().
 * With MF_ROUND_STOCHASTIC the random word is word `offset` of the seeded
 * stream, mf::stochastic_random_bits(seed, offset, random_bits)
 * (Philox4x32-10: the word mf::bulk::encode with mf::conversion::stochastic and this seed uses
 * at stream position `offset`), and random_bits must be 1..32; the other
 * modes ignore seed, offset and random_bits.
 * Errors: UNKNOWN_FORMAT, BAD_ROUNDING, BAD_OVERFLOW, BAD_RANDOM_BITS
 * (stochastic only), NULL_POINTER. */
MF_C_API int mf_encode_f32(int format, unsigned int f32_bits, int rounding, int overflow,
                           unsigned long long seed, unsigned long long offset,
                           int random_bits, unsigned int* code);

/* As mf_encode_f32 from a binary64 bit pattern: rounded once, directly from
 * the double (never through float). */
MF_C_API int mf_encode_f64(int format, unsigned long long f64_bits, int rounding, int overflow,
                           unsigned long long seed, unsigned long long offset,
                           int random_bits, unsigned int* code);

/* Stochastic rounding with the caller's random word (e.g. the testbench's
 * LFSR): *code = mf::round_to_stochastic<T>(value, random, overflow,
 * random_bits).bits(); the low random_bits bits of `random` are used.
 * Errors: UNKNOWN_FORMAT, BAD_OVERFLOW, BAD_RANDOM_BITS, NULL_POINTER. */
MF_C_API int mf_encode_f32_random(int format, unsigned int f32_bits, int overflow,
                                  unsigned int random, int random_bits, unsigned int* code);

/* Word `index` of the seeded stochastic stream, as mf_encode_f32 with
 * MF_ROUND_STOCHASTIC and offset = index uses it
 * (mf::stochastic_random_bits). Errors: BAD_RANDOM_BITS, NULL_POINTER. */
MF_C_API int mf_stochastic_random_bits(unsigned long long seed, unsigned long long index,
                                       int random_bits, unsigned int* random);

/* The exact value of an encoding as binary32 / binary64 bits (every value
 * of every format is a float). NaN decodes to the quiet NaN 0x7FC00000,
 * with the sign where the format's NaN has one.
 * Errors: UNKNOWN_FORMAT, BAD_ENCODING, NULL_POINTER. */
MF_C_API int mf_decode_f32(int format, unsigned int code, unsigned int* f32_bits);
MF_C_API int mf_decode_f64(int format, unsigned int code, unsigned long long* f64_bits);

/* The class of an encoding (enum mf_class) and its sign bit (0 or 1; 0 for
 * the unsigned NaN of FNUZ formats and for every E8M0 value, as
 * mf::signbit). Errors: UNKNOWN_FORMAT, BAD_ENCODING, NULL_POINTER. */
MF_C_API int mf_classify(int format, unsigned int code, int* value_class, int* sign);

/* One MX block: quantizes 32 binary32 values (bit patterns) to the shared
 * E8M0 scale and 32 element codes, one code per byte in the low bits (4
 * for FP4, 6 for FP6, two's complement for INT8; unpacked, unlike the array
 * form), as mf::mx::quantize<Fmt>.
 * Errors: UNKNOWN_MX_FORMAT, BAD_SCALE_ROUNDING, NULL_POINTER. */
MF_C_API int mf_mx_quantize_block(int mx_format, int scale_rounding,
                                  const unsigned int* f32_bits /* [32] */,
                                  unsigned char* scale,
                                  unsigned char* elements /* [32] */);

/* One MX block back to 32 binary32 bit patterns (mf::mx::dequantize);
 * element codes unpacked as above, bits above the element width ignored.
 * Errors: UNKNOWN_MX_FORMAT, NULL_POINTER. */
MF_C_API int mf_mx_dequantize_block(int mx_format, unsigned char scale,
                                    const unsigned char* elements /* [32] */,
                                    unsigned int* f32_bits /* [32] */);

/* Array form, the layout of mf::mx::quantize: n floats, ceil(n/32) scales,
 * the elements packed (8-bit formats one byte each; FP6 four per 3 bytes,
 * FP4 two per byte, low bits first; ceil(n*bits/8) bytes). The last block
 * may be partial. n == 0 does nothing (pointers may then be NULL). Not in
 * the SystemVerilog package (it would need open arrays).
 * Errors: UNKNOWN_MX_FORMAT, BAD_SCALE_ROUNDING, NULL_POINTER. */
MF_C_API int mf_mx_quantize(int mx_format, int scale_rounding, const float* in, size_t n,
                            unsigned char* scales, unsigned char* elements);
MF_C_API int mf_mx_dequantize(int mx_format, const unsigned char* scales,
                              const unsigned char* elements, size_t n, float* out);

/* ---- Hybrid FP8 arithmetic (mf::hybrid, docs/hybrid.md) ----------------
 * The reference MatMul over mixed FP8 / 16-bit / int8 types with a model of
 * the FP32 accumulator and the post-processing scale rules. Encodings cross
 * as unsigned int: the low 8 bits (I8 two's complement, U8, HF8, BF8), 16
 * bits (FP16, BF16) or all 32 (FP32 output bits). */

/* Element types (mf::hybrid::element_type). */
enum mf_hybrid_type {
  MF_HYBRID_I8 = 0,
  MF_HYBRID_U8 = 1,
  MF_HYBRID_HF8 = 2,  /* E4M3FN */
  MF_HYBRID_BF8 = 3,  /* E5M2 */
  MF_HYBRID_FP16 = 4,
  MF_HYBRID_BF16 = 5,
  MF_HYBRID_FP32 = 6, /* output only */
  MF_HYBRID_TYPE_COUNT = 7
};

/* Type tables (mf::hybrid::table_id). */
enum mf_hybrid_table {
  MF_TABLE_VENDOR_HYBRID_FP8 = 0, /* the "Hybrid FP8 ONNX" unit: K % 16 == 0 */
  MF_TABLE_CUBLASLT_FP8 = 1,
  MF_TABLE_ANY = 2
};

/* Accumulation models (mf::hybrid::models). */
enum mf_accumulation_model {
  MF_MODEL_SEQUENTIAL_FP32 = 0,
  MF_MODEL_EXACT = 1,           /* exact sum, rounded once to FP32 */
  MF_MODEL_EXACT_TO_OUTPUT = 2, /* exact through the post-processing */
  MF_MODEL_AVX512_BF16_PAIRS = 3,
  MF_MODEL_AMX_TILE_PAIRS = 4,
  MF_MODEL_CHUNKED_EXACT = 5,
  MF_MODEL_REDUCED_PRECISION = 6,
  MF_MODEL_COUNT = 7
};

/* Every option of mf::hybrid::matmul_options, flat. mf_hybrid_options_init
 * sets the library's defaults; scales are binary32 bit patterns; the
 * pointers (M, N and N values, binary32 bits) may be NULL. The fields
 * described as "0 ... 1 ..." take exactly 0 or 1; any other value is
 * MF_ERR_BAD_FLAG, never read as 1. */
struct mf_hybrid_options {
  int table;                /* enum mf_hybrid_table; default VENDOR_HYBRID_FP8 */
  int model;                /* enum mf_accumulation_model; default SEQUENTIAL_FP32 */
  int chunk;                /* 0 (default): the model's own, which is 32 elements per
                               instruction for AMX_TILE_PAIRS (TDPBF16PS / TDPFP16PS)
                               and 64 products for CHUNKED_EXACT (AMX-FP8 TDP*F8PS,
                               docs/hybrid.md); any other value is used as given */
  int amx_order;            /* 0 sdm (default), 1 guide */
  int nan_payload;          /* AVX512_BF16_PAIRS, AMX_TILE_PAIRS: 0 a NaN is the canonical
                               0x7FC00000 (default), 1 the NaN the instruction writes
                               (nan_payload::propagate, docs/hybrid.md); 1 with another
                               model is HYBRID_REJECTED */
  int chunk_rounding;       /* CHUNKED_EXACT: 0 nearest even (default), 1 toward zero */
  int presum_round;         /* CHUNKED_EXACT: 0 (default) or 1 */
  int reduced_bits;         /* REDUCED_PRECISION: 14 */
  int promote_every;        /* REDUCED_PRECISION: 128 */
  int reduced_variant;      /* 0 seq (default), 1 block */
  int block;                /* REDUCED_PRECISION block variant: 32 */
  int truncation;           /* 0 toward zero (default), 1 floor */
  unsigned int scale_a;     /* per-tensor scales, binary32 bits; default 1.0f */
  unsigned int scale_b;
  const unsigned int* scale_a_rows;    /* [M] or NULL */
  const unsigned int* scale_b_columns; /* [N] or NULL */
  const unsigned int* bias;            /* [N] or NULL */
  unsigned int output_scale; /* binary32 bits; default 1.0f */
  int output_divide;         /* 0: y * output_scale (default), 1: y / output_scale */
  int operands_placement;    /* 0: scales in the epilogue (default), 1: on the operands */
  int rounding;              /* MF_ROUND_NEAREST_EVEN (default) or MF_ROUND_STOCHASTIC */
  int overflow;              /* enum mf_overflow; default NON_SATURATING */
  unsigned long long seed;   /* stochastic output rounding: element (i, j) uses */
  unsigned long long offset; /*   stream position offset + i * N + j */
  int random_bits;           /* 1..32; default 32 */
  unsigned int integer_scale; /* I8/U8 requantization scale, binary32 bits; default 1.0f
                                 (the integer MatMul's only scale: the float scales, bias
                                 and output scale above must keep their defaults there;
                                 a float MatMul's must be 1.0f) */
  int requant_fp32;          /* 0: exact (default), 1: RN32(RN32(float(acc)) * scale);
                                the integer MatMul's: 0 for a float MatMul */
  int check_z_multiple;      /* 1 (default): the vendor table's K % 16 == 0; 0: off */
};

/* Fills *options with the defaults above. Errors: NULL_POINTER. */
MF_C_API int mf_hybrid_options_init(struct mf_hybrid_options* options);

/* C (m x n, row stride ldc) = the hybrid MatMul of A (m x k, lda) and B
 * (k x n, ldb), row-major, as mf::hybrid::matmul. m, n, k >= 1. Every
 * output is defined to the bit except a NaN: it is a NaN of the output
 * type whose sign and payload are not specified (the epilogue's float
 * operations carry a NaN as IEEE 754-2019 6.2.3 and 6.3 allow, which does
 * not fix them, and they may differ between builds of the library;
 * docs/hybrid.md), unless nan_payload is 1 and the accumulator is NaN: then
 * an FP32 output is the instruction's NaN, bit for bit, and a narrower one
 * that type's NaN with its sign. Elements of C between n and ldc are not
 * written.
 * Errors, in argument order (the options' fields in their struct order
 * where `options` stands): UNKNOWN_HYBRID_ID (a_type, b_type, out_type),
 * NULL_POINTER (options), UNKNOWN_HYBRID_ID (table, model), BAD_FLAG (the
 * 0/1 fields amx_order .. operands_placement), BAD_ROUNDING, BAD_OVERFLOW,
 * BAD_RANDOM_BITS (stochastic only), BAD_FLAG (requant_fp32,
 * check_z_multiple); then NULL_POINTER (a, b, c) and BAD_SIZE (lda < k,
 * ldb < n, ldc < n, or m, n, k < 1) in the order a, lda, b, ldb, c, ldc,
 * m, n, k; once every
 * argument is valid, HYBRID_REJECTED (the table rejects the types, the
 * model rejects them or a parameter such as an odd AMX chunk, K is not a
 * multiple of 16 under the vendor table with check_z_multiple, stochastic
 * rounding asked for an FP32 or integer output, an integer MatMul given
 * the float scales, bias or output scale, or a non-finite integer_scale, or
 * a float MatMul given an integer_scale other than 1.0f or requant_fp32)
 * and OUT_OF_MEMORY. */
MF_C_API int mf_hybrid_matmul(int a_type, int b_type, int out_type,
                              const struct mf_hybrid_options* options,
                              const unsigned int* a, int lda, const unsigned int* b, int ldb,
                              unsigned int* c, int ldc, int m, int n, int k);

/* One dot product of 1 <= k <= 32 elements with per-tensor scales, flat for
 * a DPI import (minifloat_pkg.sv's mf_hybrid_dot32): the model's default
 * parameters and the other defaults of mf_hybrid_options_init, with the
 * vendor table's multiple-of-16 check off. nan_payload and output_divide
 * are 0 or 1, as the options' fields (nan_payload 1: the NaN the
 * instruction writes, for AVX512_BF16_PAIRS and AMX_TILE_PAIRS).
 * Errors, in argument order: UNKNOWN_HYBRID_ID (table, a_type, b_type,
 * out_type, model), BAD_FLAG (nan_payload), NULL_POINTER (a, b), BAD_SIZE
 * (k outside 1..32), BAD_FLAG (output_divide), BAD_OVERFLOW, NULL_POINTER
 * (c); then HYBRID_REJECTED and OUT_OF_MEMORY as mf_hybrid_matmul. */
MF_C_API int mf_hybrid_dot32(int table, int a_type, int b_type, int out_type, int model,
                             int nan_payload,
                             const unsigned int* a /* [32] */, const unsigned int* b /* [32] */,
                             int k, unsigned int scale_a, unsigned int scale_b,
                             unsigned int output_scale, int output_divide, int overflow,
                             unsigned int* c);

#ifdef __cplusplus
}
#endif

#endif /* MINIFLOAT_C_API_H */
