// The wrappers of minifloat_pkg against the C++ library, called directly
// through tb_model.cpp (tb_model_ imports, formats and modes by enumerator
// name): every format, every rounding mode (stochastic from the seeded
// stream at a random offset and width), both overflow modes; the generic,
// the named (mf_f32_to_NAME ...), the status-returning (mf_try_*) and the
// shortreal/real forms; every code of the 4..8-bit formats and a sample of
// the 16-bit ones decoded. Then the error path: a wrapper returns 0 (and
// a mf_try_ wrapper MF_ERR_... with its output 0) whatever the caller's
// variable held, and mf_error_count counts each error.
// expect_equal takes every result zero-extended to 64 bits, and the named
// wrappers take the low WIDTH bits of a code: the width changes are meant.
/* verilator lint_off WIDTH */
// call_named gives results for both directions; each check uses some.
/* verilator lint_off UNUSEDSIGNAL */
package tb_wrappers_pkg;
  import minifloat_pkg::*;

  import "DPI-C" function int tb_model_encode(
      input string format, input longint unsigned bits, input int from_f64, input string rounding,
      input int saturate, input longint unsigned seed, input longint unsigned offset,
      input int random_bits, output int unsigned code);
  import "DPI-C" function int tb_model_decode(
      input string format, input int unsigned code, output int unsigned f32_bits,
      output longint unsigned f64_bits);
  import "DPI-C" function longint unsigned tb_model_widen(input int unsigned f32_bits);

  int unsigned checks = 0;
  int unsigned mismatches = 0;

  function automatic void expect_equal(string what, longint unsigned got, longint unsigned want);
    checks++;
    if (got != want) begin
      mismatches++;
      if (mismatches <= 10) $display("WRAPPER MISMATCH %s: 0x%0x, want 0x%0x", what, got, want);
    end
  endfunction

  // Binary64 bits compared, a NaN as a class: c_api.h decodes NaN to the
  // quiet NaN 0x7FC00000 (with its sign), and what crosses a real keeps the
  // class but need not keep the bits (minifloat_pkg's conversions).
  function automatic bit f64_is_nan(bit [62:0] x);
    return x[62:52] == 11'h7FF && x[51:0] != 0;
  endfunction

  function automatic void expect_real(string what, real got, bit [63:0] want);
    bit [63:0] got_bits = $realtobits(got);
    if (f64_is_nan(want) && f64_is_nan(got_bits)) got_bits = want;
    expect_equal(what, got_bits, want);
  endfunction

  // The named wrappers of `format`, called by name.
  /* verilator lint_off SHORTREAL */
`define TB_NAMED(NAME, FORMAT) \
      FORMAT: begin \
        from_f32 = 32'(mf_f32_to_``NAME(f32, saturate, rounding, seed, offset, random_bits)); \
        from_real = 32'(mf_real_to_``NAME(x, saturate, rounding, seed, offset, random_bits)); \
        decoded = mf_``NAME``_to_f32(code[15:0]); \
        decoded_real = mf_``NAME``_to_real(code[15:0]); \
      end
  function automatic void call_named(mf_format_e format, bit [31:0] f32, real x, bit saturate,
                                     mf_rounding_e rounding, longint unsigned seed,
                                     longint unsigned offset, int random_bits,
                                     bit [15:0] code, output int unsigned from_f32,
                                     output int unsigned from_real, output bit [31:0] decoded,
                                     output real decoded_real);
    from_f32 = 0;
    from_real = 0;
    decoded = 0;
    decoded_real = 0.0;
    case (format)
      `TB_NAMED(e4m3fn, MF_FORMAT_E4M3FN)
      `TB_NAMED(e4m3fnuz, MF_FORMAT_E4M3FNUZ)
      `TB_NAMED(e5m2, MF_FORMAT_E5M2)
      `TB_NAMED(e5m2fnuz, MF_FORMAT_E5M2FNUZ)
      `TB_NAMED(e2m1fn, MF_FORMAT_E2M1FN)
      `TB_NAMED(e2m3fn, MF_FORMAT_E2M3FN)
      `TB_NAMED(e3m2fn, MF_FORMAT_E3M2FN)
      `TB_NAMED(e8m0fnu, MF_FORMAT_E8M0FNU)
      `TB_NAMED(e4m3, MF_FORMAT_E4M3)
      `TB_NAMED(e3m4, MF_FORMAT_E3M4)
      `TB_NAMED(e4m3b11fnuz, MF_FORMAT_E4M3B11FNUZ)
      `TB_NAMED(fp16, MF_FORMAT_BINARY16)
      `TB_NAMED(bf16, MF_FORMAT_BFLOAT16)
      default: $error("tb_wrappers: no named wrappers for %s", format.name());
    endcase
  endfunction
`undef TB_NAMED

  // A binary32 input: any bits 1 time in 4 (NaN, Inf, subnormals), else an
  // exponent around the small formats' range.
  function automatic bit [31:0] random_f32();
    bit [31:0] x = $urandom;
    if ($urandom % 4 != 0) x[30:23] = 8'(127 - 30 + ($urandom % 52));
    return x;
  endfunction

  // A finite binary64 input that is not a binary32 value (the wrappers of
  // real round once from it).
  function automatic bit [63:0] random_f64();
    bit [63:0] x = {$urandom, $urandom};
    x[62:52] = 11'(1023 - 30 + ($urandom % 52));
    return x;
  endfunction

  function automatic void check_encodes(mf_format_e format, bit [31:0] f32, bit [63:0] f64);
    for (int r = 0; r <= MF_ROUND_STOCHASTIC; r++) begin
      for (int saturate = 0; saturate <= 1; saturate++) begin
        mf_rounding_e rounding = mf_rounding_e'(r);
        mf_overflow_e overflow = mf_overflow_e'(saturate);
        longint unsigned seed = {$urandom, $urandom};
        longint unsigned offset = {32'($urandom % 4), $urandom};
        int random_bits = 1 + int'($urandom % 32);
        string what = $sformatf("%s %s sat=%0d bits=%0d input 0x%08x / 0x%016x", format.name(),
                                rounding.name(), saturate, random_bits, f32, f64);
        int unsigned want, want64, got, from_f32, from_real, unused_code;
        bit [31:0] unused_decoded;
        real unused_real;
        real x = $bitstoreal(f64);
        mf_status_e status;
        void'(tb_model_encode(format.name(), 64'(f32), 0, rounding.name(), saturate, seed, offset,
                              random_bits, want));
        void'(tb_model_encode(format.name(), f64, 1, rounding.name(), saturate, seed, offset,
                              random_bits, want64));
        expect_equal({"mf_encode ", what},
                     mf_encode(format, f32, rounding, overflow, seed, offset, random_bits), want);
        status = mf_try_encode(format, f32, got, rounding, overflow, seed, offset, random_bits);
        expect_equal({"mf_try_encode status ", what}, status, MF_OK);
        expect_equal({"mf_try_encode ", what}, got, want);
        status = mf_try_encode_f64(format, f64, got, rounding, overflow, seed, offset, random_bits);
        expect_equal({"mf_try_encode_f64 ", what}, got, want64);
        expect_equal({"mf_encode_real ", what},
                     mf_encode_real(format, x, rounding, overflow, seed, offset, random_bits),
                     want64);
        // A shortreal that holds the binary32 input exactly (widened by the
        // model, so no simulator rounding is involved), unless it is a NaN.
        if (!(f32[30:23] == 8'hFF && f32[22:0] != 0)) begin
          shortreal s = shortreal'($bitstoreal(tb_model_widen(f32)));
          expect_equal({"mf_encode_shortreal ", what},
                       mf_encode_shortreal(format, s, rounding, overflow, seed, offset,
                                           random_bits), want);
        end
        call_named(format, f32, x, 1'(saturate), rounding, seed, offset, random_bits, 0, from_f32,
                   from_real, unused_decoded, unused_real);
        expect_equal({"mf_f32_to_NAME ", what}, from_f32, want);
        expect_equal({"mf_real_to_NAME ", what}, from_real, want64);
        if (rounding == MF_ROUND_STOCHASTIC) begin
          int unsigned random;
          void'(mf_stochastic_random_bits(seed, offset, random_bits, random));
          expect_equal({"mf_encode_random ", what},
                       mf_encode_random(format, f32, random, random_bits, overflow), want);
          status = mf_try_encode_random(format, f32, random, unused_code, random_bits, overflow);
          expect_equal({"mf_try_encode_random ", what}, unused_code, want);
        end
      end
    end
  endfunction

  function automatic void check_decode(mf_format_e format, int unsigned code);
    int unsigned want32, from_f32, from_real;
    longint unsigned want64;
    bit [31:0] got32, decoded;
    bit [63:0] got64;
    real decoded_real;
    mf_class_e value_class;
    bit sign;
    string what = $sformatf("%s code 0x%0x", format.name(), code);
    void'(tb_model_decode(format.name(), code, want32, want64));
    expect_equal({"mf_decode ", what}, mf_decode(format, code), want32);
    expect_equal({"mf_try_decode status ", what}, mf_try_decode(format, code, got32), MF_OK);
    expect_equal({"mf_try_decode ", what}, got32, want32);
    void'(mf_try_decode_f64(format, code, got64));
    expect_equal({"mf_try_decode_f64 ", what}, got64, want64);
    expect_real({"mf_decode_real ", what}, mf_decode_real(format, code), want64);
    expect_real({"mf_decode_shortreal ", what}, real'(mf_decode_shortreal(format, code)), want64);
    call_named(format, 0, 0.0, 0, MF_ROUND_NEAREST_EVEN, 0, 0, 32, code, from_f32, from_real,
               decoded, decoded_real);
    expect_equal({"mf_NAME_to_f32 ", what}, decoded, want32);
    expect_real({"mf_NAME_to_real ", what}, decoded_real, want64);
    expect_equal({"mf_try_classify status ", what}, mf_try_classify(format, code, value_class,
                                                                    sign), MF_OK);
    // The class from the model's own decode (binary32 bits).
    expect_equal({"mf_try_classify NaN ", what}, value_class == MF_CLASS_NAN,
                 want32[30:23] == 8'hFF && want32[22:0] != 0);
    expect_equal({"mf_try_classify zero ", what}, value_class == MF_CLASS_ZERO,
                 want32[30:0] == 0);
    // The decoded NaN carries the sign where the format's NaN has one
    // (c_api.h), as mf_classify's sign does.
    expect_equal({"mf_try_classify sign ", what}, sign, want32[31]);
  endfunction
  /* verilator lint_on SHORTREAL */

  // The error path. Each wrapper is called with a bad argument into a
  // variable that holds a marker; the wrappers must give 0 whatever the
  // C side left in the output temporary.
  function automatic void check_errors();
    int unsigned errors_before = mf_error_count;
    int unsigned code = 32'hDEAD_BEEF;
    bit [31:0] bits = 32'hDEAD_BEEF;
    bit [63:0] bits64 = 64'hDEAD_BEEF_DEAD_BEEF;
    mf_class_e value_class = MF_CLASS_NAN;
    bit sign = 1'b1;
    int status;
    mf_report_errors = 1'b0;  // counted, not $error: this run expects them
    for (int i = 0; i < 100; i++) begin
      expect_equal("mf_encode bad format", mf_encode(mf_format_e'(99 + i), 32'h3F80_0000), 0);
      expect_equal("mf_encode bad rounding",
                   mf_encode(MF_FORMAT_E4M3FN, 32'h3F80_0000, mf_rounding_e'(5 + i)), 0);
      expect_equal("mf_encode stochastic with 0 random bits",
                   mf_encode(MF_FORMAT_E5M2, 32'h3F80_0000, MF_ROUND_STOCHASTIC,
                             MF_OVERFLOW_NON_SATURATING, 0, 0, 0), 0);
      expect_equal("mf_f32_to_e4m3fn bad rounding",
                   64'(mf_f32_to_e4m3fn(32'h3F80_0000, 1'b0, mf_rounding_e'(7))), 0);
      expect_equal("mf_decode bad code", mf_decode(MF_FORMAT_E2M1FN, 32'h10 + i), 0);
      expect_equal("mf_decode_real bad code",
                   $realtobits(mf_decode_real(MF_FORMAT_E4M3FN, 32'h100)), 0);
      expect_equal("mf_encode_real bad overflow",
                   mf_encode_real(MF_FORMAT_BFLOAT16, 1.0, MF_ROUND_NEAREST_EVEN,
                                  mf_overflow_e'(2)), 0);
      code = 32'hDEAD_BEEF;
      expect_equal("mf_try_encode bad format status",
                   mf_try_encode(mf_format_e'(13), 32'h3F80_0000, code), MF_ERR_UNKNOWN_FORMAT);
      expect_equal("mf_try_encode bad format output", code, 0);
      bits = 32'hDEAD_BEEF;
      expect_equal("mf_try_decode bad code status", mf_try_decode(MF_FORMAT_E3M2FN, 32'h40, bits),
                   MF_ERR_BAD_ENCODING);
      expect_equal("mf_try_decode bad code output", bits, 0);
      expect_equal("mf_try_decode_f64 bad format status",
                   mf_try_decode_f64(mf_format_e'(-1), 0, bits64), MF_ERR_UNKNOWN_FORMAT);
      expect_equal("mf_try_decode_f64 bad format output", bits64, 0);
      expect_equal("mf_try_classify bad code status",
                   mf_try_classify(MF_FORMAT_BINARY16, 32'h1_0000, value_class, sign),
                   MF_ERR_BAD_ENCODING);
      expect_equal("mf_try_classify bad code output", {value_class, sign}, {MF_CLASS_ZERO, 1'b0});
      // A raw import reports the status; its output is not defined then
      // (minifloat_pkg's header), so only the status is checked.
      status = mf_encode_f32(99, 0, 0, 0, 0, 0, 32, code);
      expect_equal("raw mf_encode_f32 bad format status", status, MF_ERR_UNKNOWN_FORMAT);
    end
    expect_equal("mf_error_count", mf_error_count - errors_before, 100 * 7);
    mf_report_errors = 1'b1;
  endfunction

  // Format names through the C ABI's registry lookup.
  function automatic void check_format_names();
    int format = -1;
    expect_equal("mf_format_from_name HF8 status", mf_format_from_name("HF8", format), MF_OK);
    expect_equal("mf_format_from_name HF8", format, MF_FORMAT_E4M3FN);
    expect_equal("mf_format_from_name float8e5m2 status",
                 mf_format_from_name("FLOAT8E5M2", format), MF_OK);
    expect_equal("mf_format_from_name FLOAT8E5M2", format, MF_FORMAT_E5M2);
    expect_equal("mf_format_from_name half status", mf_format_from_name("half", format), MF_OK);
    expect_equal("mf_format_from_name half", format, MF_FORMAT_BINARY16);
    expect_equal("mf_format_from_name bf16 status", mf_format_from_name("bf16", format), MF_OK);
    expect_equal("mf_format_from_name bf16", format, MF_FORMAT_BFLOAT16);
    expect_equal("mf_format_from_name float32 status", mf_format_from_name("float32", format),
                 MF_ERR_UNKNOWN_FORMAT);
  endfunction

  // All of it; returns the mismatches.
  function automatic int unsigned check_wrappers();
    mf_format_e format = format.first();
    int formats = 0;
    for (int f = 0; f < format.num(); f++) begin
      int bits;
      void'(mf_format_bits(format, bits));
      for (int i = 0; i < 64; i++) check_encodes(format, random_f32(), random_f64());
      if (bits <= 8) begin
        for (int code = 0; code < (1 << bits); code++) check_decode(format, code);
      end else begin
        for (int i = 0; i < 512; i++) check_decode(format, $urandom % (1 << bits));
      end
      formats++;
      format = format.next();
    end
    check_errors();
    check_format_names();
    $display("tb_wrappers: %0d formats, %0d checks, %0d mismatches", formats, checks, mismatches);
    return formats == 13 ? mismatches : mismatches + 1;
  endfunction
endpackage
/* verilator lint_on UNUSEDSIGNAL */
/* verilator lint_on WIDTH */
