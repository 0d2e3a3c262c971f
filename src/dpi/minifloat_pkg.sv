// minifloat as a reference model in a SystemVerilog testbench, through
// DPI-C (IEEE 1800-2017 chapter 35). Every import below is a function of
// the C ABI, include/minifloat/c_api.h, with the C types of annex H:
//   int <-> int, int unsigned <-> unsigned int,
//   longint unsigned <-> unsigned long long, byte unsigned <-> unsigned char,
//   output x <-> pointer, sized unpacked array x[32] <-> pointer to its
//   first element (no open arrays: not every simulator has them).
// Floating-point values cross as bit patterns (bit [31:0] / [63:0] in the
// wrappers), never as shortreal/real, so NaN payloads and -0 survive.
//
// Link the C library into the simulation: libminifloat_c.a on Verilator's
// command line, or -sv_lib <prefix>/lib/minifloat_c (the shared library)
// for VCS, Xcelium and Questa; see docs/verification.md.
package minifloat_pkg;

  // ---- Ids: the values of c_api.h's enums ---------------------------------
  typedef enum int {
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
    MF_FORMAT_BFLOAT16 = 12
  } mf_format_e;

  typedef enum int {
    MF_ROUND_NEAREST_EVEN = 0,
    MF_ROUND_TOWARD_ZERO = 1,
    MF_ROUND_TOWARD_POSITIVE = 2,
    MF_ROUND_TOWARD_NEGATIVE = 3,
    MF_ROUND_STOCHASTIC = 4
  } mf_rounding_e;

  typedef enum int {
    MF_OVERFLOW_NON_SATURATING = 0,
    MF_OVERFLOW_SATURATING = 1
  } mf_overflow_e;

  typedef enum int {
    MF_CLASS_ZERO = 0,
    MF_CLASS_SUBNORMAL = 1,
    MF_CLASS_NORMAL = 2,
    MF_CLASS_INFINITE = 3,
    MF_CLASS_NAN = 4
  } mf_class_e;

  typedef enum int {
    MF_MX_FP8_E4M3 = 0,
    MF_MX_FP8_E5M2 = 1,
    MF_MX_FP6_E2M3 = 2,
    MF_MX_FP6_E3M2 = 3,
    MF_MX_FP4_E2M1 = 4,
    MF_MX_INT8 = 5
  } mf_mx_format_e;

  typedef enum int {
    MF_MX_SCALE_FLOOR = 0,
    MF_MX_SCALE_CEIL = 1,
    MF_MX_SCALE_EVEN = 2
  } mf_mx_scale_rounding_e;

  typedef enum int {
    MF_OK = 0,
    MF_ERR_NULL_POINTER = 1,
    MF_ERR_UNKNOWN_FORMAT = 2,
    MF_ERR_BAD_ROUNDING = 3,
    MF_ERR_BAD_OVERFLOW = 4,
    MF_ERR_BAD_RANDOM_BITS = 5,
    MF_ERR_BAD_ENCODING = 6,
    MF_ERR_UNKNOWN_MX_FORMAT = 7,
    MF_ERR_BAD_SCALE_ROUNDING = 8,
    MF_ERR_UNKNOWN_HYBRID_ID = 9,
    MF_ERR_BAD_SIZE = 10,
    MF_ERR_HYBRID_REJECTED = 11,
    MF_ERR_OUT_OF_MEMORY = 12
  } mf_status_e;

  // Hybrid arithmetic (docs/hybrid.md): element types, tables, models.
  typedef enum int {
    MF_HYBRID_I8 = 0,
    MF_HYBRID_U8 = 1,
    MF_HYBRID_HF8 = 2,
    MF_HYBRID_BF8 = 3,
    MF_HYBRID_FP16 = 4,
    MF_HYBRID_BF16 = 5,
    MF_HYBRID_FP32 = 6
  } mf_hybrid_type_e;

  typedef enum int {
    MF_TABLE_VENDOR_HYBRID_FP8 = 0,
    MF_TABLE_CUBLASLT_FP8 = 1,
    MF_TABLE_ANY = 2
  } mf_hybrid_table_e;

  typedef enum int {
    MF_MODEL_SEQUENTIAL_FP32 = 0,
    MF_MODEL_EXACT = 1,
    MF_MODEL_EXACT_TO_OUTPUT = 2,
    MF_MODEL_AVX512_BF16_PAIRS = 3,
    MF_MODEL_AMX_TILE_PAIRS = 4,
    MF_MODEL_CHUNKED_EXACT = 5,
    MF_MODEL_REDUCED_PRECISION = 6
  } mf_accumulation_model_e;

  /* verilator lint_off UNUSEDPARAM */
  localparam int MF_MX_BLOCK_SIZE = 32;
  /* verilator lint_on UNUSEDPARAM */

  // ---- The C ABI (c_api.h documents each function and its errors) ---------
  import "DPI-C" function string mf_status_name(input int status);

  import "DPI-C" function int mf_format_bits(input int format, output int bits);

  import "DPI-C" function int mf_encode_f32(
      input int format, input int unsigned f32_bits, input int rounding, input int overflow,
      input longint unsigned seed, input longint unsigned offset, input int random_bits,
      output int unsigned code);

  import "DPI-C" function int mf_encode_f64(
      input int format, input longint unsigned f64_bits, input int rounding, input int overflow,
      input longint unsigned seed, input longint unsigned offset, input int random_bits,
      output int unsigned code);

  import "DPI-C" function int mf_encode_f32_random(
      input int format, input int unsigned f32_bits, input int overflow,
      input int unsigned random, input int random_bits, output int unsigned code);

  import "DPI-C" function int mf_stochastic_random_bits(
      input longint unsigned seed, input longint unsigned index, input int random_bits,
      output int unsigned random);

  import "DPI-C" function int mf_decode_f32(
      input int format, input int unsigned code, output int unsigned f32_bits);

  import "DPI-C" function int mf_decode_f64(
      input int format, input int unsigned code, output longint unsigned f64_bits);

  import "DPI-C" function int mf_classify(
      input int format, input int unsigned code, output int value_class, output int sign);

  import "DPI-C" function int mf_mx_quantize_block(
      input int mx_format, input int scale_rounding, input int unsigned f32_bits[32],
      output byte unsigned scale, output byte unsigned elements[32]);

  import "DPI-C" function int mf_mx_dequantize_block(
      input int mx_format, input byte unsigned scale, input byte unsigned elements[32],
      output int unsigned f32_bits[32]);

  // One dot product of k <= 32 elements through the hybrid reference (the
  // whole MatMul, mf_hybrid_matmul, takes run-time sizes and stays in C).
  import "DPI-C" function int mf_hybrid_dot32(
      input int table_id, input int a_type, input int b_type, input int out_type, input int model,
      input int unsigned a[32], input int unsigned b[32], input int k,
      input int unsigned scale_a, input int unsigned scale_b, input int unsigned output_scale,
      input int output_divide, input int overflow, output int unsigned c);

  // ---- Wrappers: a status other than MF_OK is reported with $error and the
  // code / bits returned are 0. --------------------------------------------
  function automatic void mf_check(int status, string what);
    if (status != MF_OK) $error("minifloat_pkg: %s: %s", what, mf_status_name(status));
  endfunction

  // Any format, any mode; stochastic rounding takes element `offset` of the
  // seeded stream (c_api.h).
  function automatic int unsigned mf_encode(
      mf_format_e format, bit [31:0] f32, mf_rounding_e rounding = MF_ROUND_NEAREST_EVEN,
      mf_overflow_e overflow = MF_OVERFLOW_NON_SATURATING, longint unsigned seed = 0,
      longint unsigned offset = 0, int random_bits = 32);
    int unsigned code = 0;
    mf_check(mf_encode_f32(format, f32, rounding, overflow, seed, offset, random_bits, code),
             "mf_encode");
    return code;
  endfunction

  function automatic bit [31:0] mf_decode(mf_format_e format, int unsigned code);
    int unsigned bits = 0;
    mf_check(mf_decode_f32(format, code, bits), "mf_decode");
    return bits;
  endfunction

  // The common pairs, round to nearest even.
  function automatic bit [7:0] mf_f32_to_e4m3fn(bit [31:0] f32, bit saturate = 1'b0);
    return 8'(mf_encode(MF_FORMAT_E4M3FN, f32, MF_ROUND_NEAREST_EVEN,
                        saturate ? MF_OVERFLOW_SATURATING : MF_OVERFLOW_NON_SATURATING));
  endfunction

  function automatic bit [7:0] mf_f32_to_e5m2(bit [31:0] f32, bit saturate = 1'b0);
    return 8'(mf_encode(MF_FORMAT_E5M2, f32, MF_ROUND_NEAREST_EVEN,
                        saturate ? MF_OVERFLOW_SATURATING : MF_OVERFLOW_NON_SATURATING));
  endfunction

  function automatic bit [15:0] mf_f32_to_bf16(bit [31:0] f32);
    return 16'(mf_encode(MF_FORMAT_BFLOAT16, f32));
  endfunction

  function automatic bit [15:0] mf_f32_to_fp16(bit [31:0] f32);
    return 16'(mf_encode(MF_FORMAT_BINARY16, f32));
  endfunction

  function automatic bit [31:0] mf_e4m3fn_to_f32(bit [7:0] code);
    return mf_decode(MF_FORMAT_E4M3FN, {24'b0, code});
  endfunction

  function automatic bit [31:0] mf_e5m2_to_f32(bit [7:0] code);
    return mf_decode(MF_FORMAT_E5M2, {24'b0, code});
  endfunction

  function automatic bit [31:0] mf_bf16_to_f32(bit [15:0] code);
    return mf_decode(MF_FORMAT_BFLOAT16, {16'b0, code});
  endfunction

  function automatic bit [31:0] mf_fp16_to_f32(bit [15:0] code);
    return mf_decode(MF_FORMAT_BINARY16, {16'b0, code});
  endfunction

endpackage
