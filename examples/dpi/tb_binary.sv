// The `verilator --binary` flow (docs/verification.md): a testbench with
// its own time (#1 between inputs) and no C++ main, the unit checked
// against minifloat_pkg's wrappers. Exit status 0 when every input
// matched; $fatal otherwise.
//   +inputs+N   random FP32 inputs (default 100000), +saturate for the
//   saturating unit
module tb_binary;
  import minifloat_pkg::*;

  logic [31:0] f32;
  logic saturate;
  logic [7:0] e4m3fn, e5m2;
  fp32_to_fp8 dut (.f32(f32), .saturate(saturate), .e4m3fn(e4m3fn), .e5m2(e5m2));

  initial begin
    int unsigned inputs = 100000, mismatches = 0;
    void'($value$plusargs("inputs+%d", inputs));
    saturate = $test$plusargs("saturate");
    for (int unsigned i = 0; i < inputs; i++) begin
      f32 = $urandom;
      if (i % 2 == 1) f32[30:23] = 8'(127 - 24 + ($urandom % 44));  // near the FP8 range
      #1;
      if (e4m3fn != mf_f32_to_e4m3fn(f32, saturate) || e5m2 != mf_f32_to_e5m2(f32, saturate)) begin
        mismatches++;
        if (mismatches <= 10)
          $display("MISMATCH 0x%08h: unit 0x%02h 0x%02h, model 0x%02h 0x%02h", f32, e4m3fn, e5m2,
                   mf_f32_to_e4m3fn(f32, saturate), mf_f32_to_e5m2(f32, saturate));
      end
    end
    $display("tb_binary: %0d inputs, saturate %0d, %0d mismatches, %0d model errors", inputs,
             saturate, mismatches, mf_error_count);
    if (mismatches != 0 || mf_error_count != 0)
      $fatal(1, "tb_binary: the unit differs from the model");
    $finish;
  end
endmodule
