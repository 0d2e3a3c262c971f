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

/* The hybrid MatMul through the typed C++ entry, types and models by name
 * ("HF8", "BF8", "FP16", "BF16", "FP32"; "sequential_fp32", "exact",
 * "chunked_exact64", ...), table `any`, per-tensor scales, 1 x k x 1.
 * 0 when a name is unknown. */
int ref_hybrid_dot(const char* a_type, const char* b_type, const char* out_type,
                   const char* model, const unsigned int* a, const unsigned int* b, int k,
                   float scale_a, float scale_b, unsigned int* c);

#ifdef __cplusplus
}
#endif

#endif
