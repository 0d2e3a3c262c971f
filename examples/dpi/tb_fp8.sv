// Testbench: the FP8 converter units against the minifloat model, called
// through DPI-C (minifloat_pkg). One input per clock:
//   1. decode: every E4M3FN and E5M2 code through fp8_to_fp32;
//   2. encode, the edge set: each FP8 value, the midpoint to the next one
//      (an exact tie), both +-1 FP32 ulp, the overflow thresholds past max
//      finite, zeros, FP32 subnormals, Inf, quiet and signalling NaNs;
//   3. encode, RANDOM_INPUTS random FP32 patterns (half any bits, half with
//      an exponent near the FP8 range).
// Each encode input is checked for both formats with saturate 0 and 1.
// +planted_bug checks fp32_to_fp8_planted_bug instead of fp32_to_fp8.
// Before the first clock, tb_wrappers_pkg checks minifloat_pkg's own
// wrappers against the C++ library (tb_wrappers.sv); its mismatches and
// checks start the counts.
// Bookkeeping in the clocked block uses blocking assignments on purpose.
/* verilator lint_off BLKSEQ */
module tb_fp8 #(
    parameter int RANDOM_INPUTS = 1000000
) (
    input  logic        clk,
    output logic        done,
    output int unsigned mismatches,
    output int unsigned checks
);
  import minifloat_pkg::*;

  // ---- The units --------------------------------------------------------
  logic [31:0] f32;
  logic [7:0] good[4], buggy[4], got[4];
  fp32_to_fp8 good_wrap (.f32(f32), .saturate(1'b0), .e4m3fn(good[0]), .e5m2(good[1]));
  fp32_to_fp8 good_sat (.f32(f32), .saturate(1'b1), .e4m3fn(good[2]), .e5m2(good[3]));
  fp32_to_fp8_planted_bug buggy_wrap (.f32(f32), .saturate(1'b0), .e4m3fn(buggy[0]),
                                      .e5m2(buggy[1]));
  fp32_to_fp8_planted_bug buggy_sat (.f32(f32), .saturate(1'b1), .e4m3fn(buggy[2]),
                                     .e5m2(buggy[3]));
  bit planted_bug;
  string unit_name;
  always_comb for (int i = 0; i < 4; i++) got[i] = planted_bug ? buggy[i] : good[i];

  logic [7:0] code;
  logic [31:0] decoded[2];
  fp8_to_fp32 decoder (.e4m3fn(code), .e5m2(code), .e4m3fn_f32(decoded[0]),
                       .e5m2_f32(decoded[1]));

  // ---- The edge set, from the model's own decode ---------------------------
  logic [31:0] edges[$];

  function automatic void add_both_signs(logic [31:0] x);
    edges.push_back(x & 32'h7FFFFFFF);
    edges.push_back(x | 32'h80000000);
  endfunction

  function automatic void add_format_edges(mf_format_e format);
    for (int c = 0; c < 128; c++) begin
      int value_class;
      int sign;
      bit [31:0] value, next, previous, mid;
      void'(mf_classify(format, c, value_class, sign));
      if (sign != 0) $error("code 0x%0x of %s is negative", c, format.name());
      if (value_class == MF_CLASS_INFINITE || value_class == MF_CLASS_NAN) continue;
      value = mf_decode(format, c);
      add_both_signs(value);
      add_both_signs(value + 1);
      if (value != 0) add_both_signs(value - 1);
      void'(mf_classify(format, c + 1, value_class, sign));
      if (c + 1 < 128 && value_class != MF_CLASS_INFINITE && value_class != MF_CLASS_NAN) begin
        // FP32 bits are linear in the value within a binade, up to the next
        // power of two; from zero the tie is half the smallest subnormal.
        next = mf_decode(format, c + 1);
        mid = value == 0 ? next - 32'h00800000 : value + (next - value) / 2;
      end else begin
        // Past max finite: the tie with the next value of an unbounded
        // exponent range (the overflow threshold), and that value.
        previous = mf_decode(format, c - 1);
        mid = value + (value - previous) / 2;
        add_both_signs(value + (value - previous));
      end
      add_both_signs(mid);
      add_both_signs(mid - 1);
      add_both_signs(mid + 1);
    end
  endfunction

  initial begin
    planted_bug = $test$plusargs("planted_bug");
    unit_name = planted_bug ? "fp32_to_fp8_planted_bug" : "fp32_to_fp8";
    add_format_edges(MF_FORMAT_E4M3FN);
    add_format_edges(MF_FORMAT_E5M2);
    add_both_signs(32'h00000001);  // FP32 subnormals
    add_both_signs(32'h007FFFFF);
    add_both_signs(32'h00800000);  // smallest FP32 normal
    add_both_signs(32'h7F7FFFFF);  // largest FP32 normal
    add_both_signs(32'h7F800000);  // Inf
    add_both_signs(32'h7FC00000);  // quiet NaN
    add_both_signs(32'h7F800001);  // signalling NaN
    add_both_signs(32'h7FFFFFFF);
  end

  // ---- Stimulus and checks, one input per clock ----------------------------
  localparam int DECODE_STEPS = 256;
  int unsigned step = 0;
  int unsigned edge_count;
  int unsigned last_step;

  function automatic logic [31:0] random_f32(int unsigned n);
    logic [31:0] x = $urandom;
    if (n % 2 == 1) x[30:23] = 8'(127 - 24 + ($urandom % 44));  // 2^-24 .. 2^19
    return x;
  endfunction

  function automatic void report(string what, logic [31:0] input_bits, int unsigned got_bits,
                                 int unsigned want_bits);
    mismatches++;
    if (mismatches <= 10)
      $display("MISMATCH %s input 0x%08x: unit 0x%0x, model 0x%0x", what, input_bits, got_bits,
               want_bits);
  endfunction

  initial begin
    mismatches = tb_wrappers_pkg::check_wrappers();
    checks = tb_wrappers_pkg::checks;
    done = 1'b0;
    f32 = '0;
    code = '0;
  end

  always_ff @(posedge clk) begin
    edge_count = edges.size();
    last_step = DECODE_STEPS + edge_count + RANDOM_INPUTS;
    if (step > 0 && step <= DECODE_STEPS) begin
      // The code applied at the previous clock.
      if (decoded[0] != mf_e4m3fn_to_f32(code)) report("decode e4m3fn", {24'b0, code},
                                                      decoded[0], mf_e4m3fn_to_f32(code));
      if (decoded[1] != mf_e5m2_to_f32(code)) report("decode e5m2", {24'b0, code},
                                                    decoded[1], mf_e5m2_to_f32(code));
      checks += 2;
    end else if (step > DECODE_STEPS) begin
      bit [7:0] want[4];
      want[0] = mf_f32_to_e4m3fn(f32, 1'b0);
      want[1] = mf_f32_to_e5m2(f32, 1'b0);
      want[2] = mf_f32_to_e4m3fn(f32, 1'b1);
      want[3] = mf_f32_to_e5m2(f32, 1'b1);
      for (int i = 0; i < 4; i++) begin
        if (got[i] != want[i])
          report(i % 2 == 0 ? (i < 2 ? "e4m3fn" : "e4m3fn saturate")
                            : (i < 2 ? "e5m2" : "e5m2 saturate"), f32, {24'b0, got[i]},
                 {24'b0, want[i]});
      end
      checks += 4;
    end
    // The next input.
    if (step < DECODE_STEPS) code <= 8'(step);
    else if (step < DECODE_STEPS + edge_count) f32 <= edges[step - DECODE_STEPS];
    else f32 <= random_f32(step);
    if (step == last_step) begin
      $display("tb_fp8 (%s): %0d decode codes, %0d edge inputs, %0d random inputs, %0d checks, %0d mismatches",
               unit_name, DECODE_STEPS, edge_count, RANDOM_INPUTS, checks, mismatches);
      done <= 1'b1;
      $finish;
    end
    step <= step + 1;
  end
endmodule
/* verilator lint_on BLKSEQ */
