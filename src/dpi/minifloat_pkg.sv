// minifloat as a reference model in a SystemVerilog testbench, through
// DPI-C (IEEE 1800-2017 chapter 35). Every import below is a function of
// the C ABI, include/minifloat/c_api.h, with the C types of annex H:
//   int <-> int, int unsigned <-> unsigned int,
//   longint unsigned <-> unsigned long long, byte unsigned <-> unsigned char,
//   output x <-> pointer, sized unpacked array x[32] <-> pointer to its
//   first element (no open arrays: not every simulator has them).
// Floating-point values cross as bit patterns (bit [31:0] / [63:0] in the
// wrappers), never as shortreal/real, so NaN payloads and -0 survive; the
// shortreal/real conveniences at the end convert at the SystemVerilog side.
//
// Errors and output arguments: the C functions write their outputs only on
// MF_OK (c_api.h). A DPI output argument the C side does not write has no
// defined value (IEEE 1800-2017 35.5.1.2 and annex H: the C side receives
// a pointer to storage whose initial value is undetermined), and the
// simulator still copies it back, so a raw import called with a bad
// argument overwrites the caller's variable with whatever that storage
// held (Verilator: a stale stack word). Use an output of a raw import only
// after checking its status; the wrappers below do, and return 0 on error.
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
    MF_ERR_OUT_OF_MEMORY = 12,
    MF_ERR_BAD_FLAG = 13
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

  // A format by any of its names, in any case ("HF8", "float8e4m3fn",
  // "half", "bf16", ...): string <-> const char* (annex H).
  import "DPI-C" function int mf_format_from_name(input string name, output int format);

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
  // nan_payload 1: the NaN the instruction writes (the two pair models).
  import "DPI-C" function int mf_hybrid_dot32(
      input int table_id, input int a_type, input int b_type, input int out_type, input int model,
      input int nan_payload, input int unsigned a[32], input int unsigned b[32], input int k,
      input int unsigned scale_a, input int unsigned scale_b, input int unsigned output_scale,
      input int output_divide, input int overflow, output int unsigned c);

  // ---- Wrappers that return the status ----------------------------------
  // The raw import, with the output defined on error: the result on MF_OK,
  // 0 otherwise. Nothing is reported; the caller decides.
  function automatic mf_status_e mf_try_encode(
      input mf_format_e format, input bit [31:0] f32, output int unsigned code,
      input mf_rounding_e rounding = MF_ROUND_NEAREST_EVEN,
      input mf_overflow_e overflow = MF_OVERFLOW_NON_SATURATING, input longint unsigned seed = 0,
      input longint unsigned offset = 0, input int random_bits = 32);
    int unsigned result;
    int status = mf_encode_f32(format, f32, rounding, overflow, seed, offset, random_bits, result);
    code = status == MF_OK ? result : 0;
    return mf_status_e'(status);
  endfunction

  // Rounded once from the binary64 value (never through binary32).
  function automatic mf_status_e mf_try_encode_f64(
      input mf_format_e format, input bit [63:0] f64, output int unsigned code,
      input mf_rounding_e rounding = MF_ROUND_NEAREST_EVEN,
      input mf_overflow_e overflow = MF_OVERFLOW_NON_SATURATING, input longint unsigned seed = 0,
      input longint unsigned offset = 0, input int random_bits = 32);
    int unsigned result;
    int status = mf_encode_f64(format, f64, rounding, overflow, seed, offset, random_bits, result);
    code = status == MF_OK ? result : 0;
    return mf_status_e'(status);
  endfunction

  // Stochastic rounding with the caller's random word (its low random_bits).
  function automatic mf_status_e mf_try_encode_random(
      input mf_format_e format, input bit [31:0] f32, input int unsigned random,
      output int unsigned code, input int random_bits = 32,
      input mf_overflow_e overflow = MF_OVERFLOW_NON_SATURATING);
    int unsigned result;
    int status = mf_encode_f32_random(format, f32, overflow, random, random_bits, result);
    code = status == MF_OK ? result : 0;
    return mf_status_e'(status);
  endfunction

  function automatic mf_status_e mf_try_decode(input mf_format_e format, input int unsigned code,
                                               output bit [31:0] f32);
    int unsigned result;
    int status = mf_decode_f32(format, code, result);
    f32 = status == MF_OK ? result : 0;
    return mf_status_e'(status);
  endfunction

  function automatic mf_status_e mf_try_decode_f64(input mf_format_e format,
                                                   input int unsigned code, output bit [63:0] f64);
    longint unsigned result;
    int status = mf_decode_f64(format, code, result);
    f64 = status == MF_OK ? result : 0;
    return mf_status_e'(status);
  endfunction

  function automatic mf_status_e mf_try_classify(input mf_format_e format, input int unsigned code,
                                                 output mf_class_e value_class, output bit sign);
    int c, s;
    int status = mf_classify(format, code, c, s);
    value_class = status == MF_OK ? mf_class_e'(c) : MF_CLASS_ZERO;
    sign = status == MF_OK && s != 0;
    return mf_status_e'(status);
  endfunction

  // ---- Wrappers that report: a status other than MF_OK is counted in
  // mf_error_count and reported with $error (unless mf_report_errors is 0),
  // and the code / bits returned are 0. ------------------------------------
  int unsigned mf_error_count = 0;
  bit mf_report_errors = 1'b1;

  function automatic void mf_check(mf_status_e status, string what);
    if (status == MF_OK) return;
    // A count, not a signal: wrappers are called from clocked blocks too.
    /* verilator lint_off BLKSEQ */
    mf_error_count++;
    /* verilator lint_on BLKSEQ */
    if (mf_report_errors) $error("minifloat_pkg: %s: %s", what, mf_status_name(status));
  endfunction

  function automatic mf_overflow_e mf_overflow_of(bit saturate);
    return saturate ? MF_OVERFLOW_SATURATING : MF_OVERFLOW_NON_SATURATING;
  endfunction

  // Any format, any mode; stochastic rounding takes element `offset` of the
  // seeded stream (c_api.h). The random bits are a function of (seed,
  // offset) alone: a testbench that rounds many values stochastically
  // passes each its own offset (a running count), or every call draws the
  // same random word and the rounding is the same every time.
  function automatic int unsigned mf_encode(
      mf_format_e format, bit [31:0] f32, mf_rounding_e rounding = MF_ROUND_NEAREST_EVEN,
      mf_overflow_e overflow = MF_OVERFLOW_NON_SATURATING, longint unsigned seed = 0,
      longint unsigned offset = 0, int random_bits = 32);
    int unsigned code;
    mf_check(mf_try_encode(format, f32, code, rounding, overflow, seed, offset, random_bits),
             "mf_encode");
    return code;
  endfunction

  function automatic int unsigned mf_encode_random(
      mf_format_e format, bit [31:0] f32, int unsigned random, int random_bits = 32,
      mf_overflow_e overflow = MF_OVERFLOW_NON_SATURATING);
    int unsigned code;
    mf_check(mf_try_encode_random(format, f32, random, code, random_bits, overflow),
             "mf_encode_random");
    return code;
  endfunction

  function automatic bit [31:0] mf_decode(mf_format_e format, int unsigned code);
    bit [31:0] bits;
    mf_check(mf_try_decode(format, code, bits), "mf_decode");
    return bits;
  endfunction

  // ---- shortreal / real conveniences -------------------------------------
  // The value crosses as binary64 bits ($realtobits): a shortreal widens to
  // real exactly, and every value of every format is a binary32 value, so
  // these round and decode exactly as the bit forms do. What a simulator's
  // conversions do to a NaN's sign and payload is its own (IEEE 1800-2017
  // 6.12 and 20.5 do not fix it); where those matter, use the bit forms.
  function automatic int unsigned mf_encode_real(
      mf_format_e format, real x, mf_rounding_e rounding = MF_ROUND_NEAREST_EVEN,
      mf_overflow_e overflow = MF_OVERFLOW_NON_SATURATING, longint unsigned seed = 0,
      longint unsigned offset = 0, int random_bits = 32);
    int unsigned code;
    mf_check(mf_try_encode_f64(format, $realtobits(x), code, rounding, overflow, seed, offset,
                               random_bits), "mf_encode_real");
    return code;
  endfunction

  function automatic real mf_decode_real(mf_format_e format, int unsigned code);
    bit [63:0] bits;
    mf_check(mf_try_decode_f64(format, code, bits), "mf_decode_real");
    return $bitstoreal(bits);
  endfunction

  // A shortreal is held as a real by some simulators (Verilator, with its
  // SHORTREAL warning); the results are the same, since each value here is
  // a binary32 value.
  /* verilator lint_off SHORTREAL */
  function automatic int unsigned mf_encode_shortreal(
      mf_format_e format, shortreal x, mf_rounding_e rounding = MF_ROUND_NEAREST_EVEN,
      mf_overflow_e overflow = MF_OVERFLOW_NON_SATURATING, longint unsigned seed = 0,
      longint unsigned offset = 0, int random_bits = 32);
    return mf_encode_real(format, real'(x), rounding, overflow, seed, offset, random_bits);
  endfunction

  function automatic shortreal mf_decode_shortreal(mf_format_e format, int unsigned code);
    return shortreal'(mf_decode_real(format, code));
  endfunction
  /* verilator lint_on SHORTREAL */

  // ---- Named wrappers, one set per format --------------------------------
  // For format NAME of WIDTH bits (the names of docs/formats/; fp16 is
  // binary16, bf16 bfloat16):
  //   mf_f32_to_NAME(f32, saturate = 0, rounding = MF_ROUND_NEAREST_EVEN,
  //                  seed = 0, offset = 0, random_bits = 32)  -> bit [WIDTH-1:0]
  //   mf_real_to_NAME(x, saturate = 0, rounding = ..., ...)  -> bit [WIDTH-1:0]
  //   mf_NAME_to_f32(code) -> bit [31:0]     mf_NAME_to_real(code) -> real
  // Each is mf_encode / mf_encode_real / mf_decode / mf_decode_real with the
  // format's id: every rounding mode, stochastic included (advance
  // `offset` from call to call, as for mf_encode), and both overflow
  // modes, reporting errors as those do.
`define MINIFLOAT_PKG_NAMED_FORMAT(NAME, FORMAT, WIDTH) \
  function automatic bit [WIDTH-1:0] mf_f32_to_``NAME( \
      bit [31:0] f32, bit saturate = 1'b0, mf_rounding_e rounding = MF_ROUND_NEAREST_EVEN, \
      longint unsigned seed = 0, longint unsigned offset = 0, int random_bits = 32); \
    return WIDTH'(mf_encode(FORMAT, f32, rounding, mf_overflow_of(saturate), seed, offset, \
                            random_bits)); \
  endfunction \
  function automatic bit [WIDTH-1:0] mf_real_to_``NAME( \
      real x, bit saturate = 1'b0, mf_rounding_e rounding = MF_ROUND_NEAREST_EVEN, \
      longint unsigned seed = 0, longint unsigned offset = 0, int random_bits = 32); \
    return WIDTH'(mf_encode_real(FORMAT, x, rounding, mf_overflow_of(saturate), seed, offset, \
                                 random_bits)); \
  endfunction \
  function automatic bit [31:0] mf_``NAME``_to_f32(bit [WIDTH-1:0] code); \
    return mf_decode(FORMAT, 32'(code)); \
  endfunction \
  function automatic real mf_``NAME``_to_real(bit [WIDTH-1:0] code); \
    return mf_decode_real(FORMAT, 32'(code)); \
  endfunction

  `MINIFLOAT_PKG_NAMED_FORMAT(e4m3fn, MF_FORMAT_E4M3FN, 8)
  `MINIFLOAT_PKG_NAMED_FORMAT(e4m3fnuz, MF_FORMAT_E4M3FNUZ, 8)
  `MINIFLOAT_PKG_NAMED_FORMAT(e5m2, MF_FORMAT_E5M2, 8)
  `MINIFLOAT_PKG_NAMED_FORMAT(e5m2fnuz, MF_FORMAT_E5M2FNUZ, 8)
  `MINIFLOAT_PKG_NAMED_FORMAT(e2m1fn, MF_FORMAT_E2M1FN, 4)
  `MINIFLOAT_PKG_NAMED_FORMAT(e2m3fn, MF_FORMAT_E2M3FN, 6)
  `MINIFLOAT_PKG_NAMED_FORMAT(e3m2fn, MF_FORMAT_E3M2FN, 6)
  `MINIFLOAT_PKG_NAMED_FORMAT(e8m0fnu, MF_FORMAT_E8M0FNU, 8)
  `MINIFLOAT_PKG_NAMED_FORMAT(e4m3, MF_FORMAT_E4M3, 8)
  `MINIFLOAT_PKG_NAMED_FORMAT(e3m4, MF_FORMAT_E3M4, 8)
  `MINIFLOAT_PKG_NAMED_FORMAT(e4m3b11fnuz, MF_FORMAT_E4M3B11FNUZ, 8)
  `MINIFLOAT_PKG_NAMED_FORMAT(fp16, MF_FORMAT_BINARY16, 16)
  `MINIFLOAT_PKG_NAMED_FORMAT(bf16, MF_FORMAT_BFLOAT16, 16)
`undef MINIFLOAT_PKG_NAMED_FORMAT

endpackage
