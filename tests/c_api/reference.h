/* The C++ API called from the C test (reference.cpp), so that each C entry
 * of c_api.h is compared with the C++ function it must equal. Formats,
 * rounding modes and MX formats are named by string, not by the c_api.h
 * ids: a wrong id -> type mapping in the library cannot cancel out here. */
#ifndef MINIFLOAT_TESTS_C_API_REFERENCE_H
#define MINIFLOAT_TESTS_C_API_REFERENCE_H

#ifdef __cplusplus
extern "C" {
#endif

/* 0 when `name` is not a format / rounding / MX format known here. */
int ref_encode_f32(const char* format, unsigned int f32_bits, const char* rounding,
                   int saturate, unsigned int* code);
int ref_encode_f64(const char* format, unsigned long long f64_bits, const char* rounding,
                   int saturate, unsigned int* code);
int ref_encode_f32_stochastic(const char* format, unsigned int f32_bits, int saturate,
                              unsigned int random, int random_bits, unsigned int* code);
int ref_decode(const char* format, unsigned int code, unsigned int* f32_bits,
               unsigned long long* f64_bits);
/* cls: 0 zero, 1 subnormal, 2 normal, 3 inf, 4 nan (the order of C's
 * fpclassify classes as c_api.h documents them). */
int ref_classify(const char* format, unsigned int code, int* cls, int* sign);
unsigned int ref_random_bits(unsigned long long seed, unsigned long long index, int bits);
/* 32 floats (bits) -> scale + 32 element codes, one per byte. */
int ref_mx_quantize_block(const char* mx_format, const char* scale_rounding,
                          const unsigned int* f32_bits, unsigned char* scale,
                          unsigned char* codes);
int ref_mx_dequantize_block(const char* mx_format, unsigned char scale,
                            const unsigned char* codes, unsigned int* f32_bits);

/* Row i of the C++ format registry (mf::format_names) that names a
 * minifloat: its spelling and the library's name of its format; 0 past the
 * last such row. */
int ref_format_alias(int i, const char** alias, const char** canonical);

/* One hybrid MatMul request, every field of mf::hybrid::matmul_options
 * spelled out by meaning (names, 0/1 choices, explicit model parameters),
 * not in the layout or the ids of struct mf_hybrid_options: the test fills
 * this and the C options from the same random draw, so a field the C ABI
 * drops or maps wrongly cannot cancel out. Floats are binary32 bits.
 * Names: tables "vendor_hybrid_fp8", "cublaslt_fp8", "any"; types "I8",
 * "U8", "HF8", "BF8", "FP16", "BF16", "FP32"; models "sequential_fp32",
 * "exact", "exact_to_output", "avx512_bf16_pairs", "amx_tile_pairs",
 * "chunked_exact", "reduced_precision". */
struct ref_hybrid_problem {
  const char* table;
  const char* a_type;
  const char* b_type;
  const char* out_type;
  const char* model;
  int chunk; /* amx_tile_pairs and chunked_exact: the chunk itself, never 0 */
  int amx_guide;
  int nan_propagate; /* the pair models' nan_payload::propagate (others reject it) */
  int chunk_toward_zero;
  int presum_round;
  int reduced_bits;
  int promote_every;
  int reduced_block_variant;
  int block;
  int truncation_floor;
  unsigned int scale_a;
  unsigned int scale_b;
  const unsigned int* scale_a_rows;    /* [m] or NULL */
  const unsigned int* scale_b_columns; /* [n] or NULL */
  const unsigned int* bias;            /* [n] or NULL */
  unsigned int output_scale;
  int output_divide;
  int operands_placement;
  int stochastic;
  int saturate;
  unsigned long long seed;
  unsigned long long offset;
  int random_bits;
  unsigned int integer_scale;
  int requant_fp32;
  int check_z_multiple;
  int m, n, k;
  const unsigned int* a; /* codes, m x k, row stride lda */
  int lda;
  const unsigned int* b; /* codes, k x n, row stride ldb */
  int ldb;
  unsigned int* c;       /* codes, m x n, row stride ldc (I8 / U8: the byte) */
  int ldc;
};

/* The request through the C++ entry over run-time types,
 * mf::hybrid::matmul(table_id, element_type, ...), with matmul_options
 * built here from the fields above. 1: computed into c (the elements of
 * each row up to n, nothing else); 2: the library rejects it
 * (mf::hybrid::unsupported); 0: a name is unknown. */
int ref_hybrid_matmul(const struct ref_hybrid_problem* p);

#ifdef __cplusplus
}
#endif

#endif
