/* minifloat's C ABI: the conversions of the C++ library behind plain C
 * functions over bit patterns, for C programs and for SystemVerilog
 * testbenches through DPI-C (share/minifloat/dpi/minifloat_pkg.sv declares
 * every function below as an import).
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
 * nothing is written through the output pointers. No function aborts,
 * allocates, or keeps state between calls; all are thread-safe. */
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
  MF_ERR_BAD_SCALE_ROUNDING = 8   /* id not in enum mf_mx_scale_rounding */
};

/* The status's enumerator name ("MF_OK", "MF_ERR_NULL_POINTER", ...); a
 * static string, never NULL ("unknown status" for any other number). */
MF_C_API const char* mf_status_name(int status);

/* Width of the format's encodings in bits (4..16).
 * Errors: UNKNOWN_FORMAT, NULL_POINTER. */
MF_C_API int mf_format_bits(int format, int* bits);

/* Rounds the binary32 value with bit pattern f32_bits into `format`:
 * *code = mf::round_to<T>(value, rounding, overflow).bits().
 * With MF_ROUND_STOCHASTIC the random word is word `offset` of the seeded
 * stream, mf::stochastic_random_bits(seed, offset, random_bits)
 * (Philox4x32-10: the word mf::bulk::encode_stochastic with this seed uses
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

/* Reserved: the hybrid MatMul entry (mf::hybrid, the reference for mixed
 * FP8 / 16-bit / int8 matrix products with a model of the accumulator).
 * Planned shape, to be added beside the C++ API when it is settled:
 *
 *   enum mf_matmul_type  { ids of the operand types: the FP8 formats by
 *                          their enum mf_format id, plus int8 / bf16 / fp16 };
 *   enum mf_accum_model  { exact (one rounding at the end), fp32 (IEEE
 *                          binary32 after every add), truncated alignment
 *                          with a given accumulator width, ... };
 *   struct-free parameters so the DPI import stays flat:
 *
 *   int mf_matmul(int a_type, int b_type,            type pair; a rejected
 *                                                     pair is an error code
 *                 int accum_model, int accum_bits,   model id + parameters
 *                 int block_k,                       (bits, block length)
 *                 int out_format, int rounding, int overflow,
 *                                                     post-processing: the
 *                                                     output cast and its modes
 *                 unsigned int scale_a, unsigned int scale_b,
 *                                                     per-tensor scales (f32 bits)
 *                 const unsigned int* a, const unsigned int* b,
 *                 int m, int n, int k,
 *                 unsigned int* c);                   codes / float bits
 *
 * with new status codes appended (9, 10, ...) (rejected type pair, unknown
 * accumulation model, bad parameter). minifloat_pkg.sv would import a
 * fixed-length dot product (a[32], b[32]) rather than mf_matmul itself,
 * whose run-time sizes would need open arrays. */

#ifdef __cplusplus
}
#endif

#endif /* MINIFLOAT_C_API_H */
