// FP8 -> FP32, the decode direction of the example: exact (every E4M3FN
// and E5M2 value is an FP32 normal or zero). NaN decodes to the quiet NaN
// 0x7FC00000 with the code's sign. Combinational, synthesizable.
module fp8_to_fp32 (
    input  logic [7:0]  e4m3fn,
    input  logic [7:0]  e5m2,
    output logic [31:0] e4m3fn_f32,
    output logic [31:0] e5m2_f32
);
  fp8_format_to_fp32 #(.EXP(4), .MAN(3), .BIAS(7), .HAS_INF(0))
      from_e4m3fn (.code(e4m3fn), .f32(e4m3fn_f32));
  fp8_format_to_fp32 #(.EXP(5), .MAN(2), .BIAS(15), .HAS_INF(1))
      from_e5m2 (.code(e5m2), .f32(e5m2_f32));
endmodule

module fp8_format_to_fp32 #(
    parameter int EXP = 4,
    parameter int MAN = 3,
    parameter int BIAS = 7,
    parameter bit HAS_INF = 0
) (
    input  logic [7:0]  code,
    output logic [31:0] f32
);
  logic          sign;
  logic [EXP-1:0] field;
  logic [MAN-1:0] mantissa;
  int            top;  // position of the leading one of a subnormal
  logic [22:0]   fraction;

  always_comb begin
    sign = code[7];
    field = code[6:MAN];
    mantissa = code[MAN-1:0];
    top = 0;
    for (int i = 0; i < MAN; i++) if (mantissa[i]) top = i;
    fraction = 23'(mantissa) << (23 - MAN);
    if (HAS_INF && field == '1) begin
      f32 = mantissa == 0 ? {sign, 8'hFF, 23'h0} : {sign, 31'h7FC00000};
    end else if (!HAS_INF && code[6:0] == 7'h7F) begin
      f32 = {sign, 31'h7FC00000};
    end else if (field == 0 && mantissa == 0) begin
      f32 = {sign, 31'h0};
    end else if (field == 0) begin
      // m * 2^(1 - BIAS - MAN) = 1.f * 2^(top + 1 - BIAS - MAN)
      f32 = {sign, 8'(top + 1 - BIAS - MAN + 127), 23'(23'(mantissa) << (23 - top)) };
    end else begin
      f32 = {sign, 8'(int'(field) - BIAS + 127), fraction};
    end
  end
endmodule
