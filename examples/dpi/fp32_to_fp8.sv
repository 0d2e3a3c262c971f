// FP32 -> FP8 converter, written for the DPI-C example: E4M3FN and E5M2
// (OCP 8-bit Floating Point Specification v1.0), round to nearest even,
// combinational and synthesizable. `saturate` clamps a finite overflow and
// an infinite input to +-max finite; without it an overflow becomes Inf
// (E5M2) or NaN (E4M3FN, which has no Inf). A NaN input gives the format's
// quiet NaN with the input's sign: S.1111.111 (E4M3FN's only NaN) and
// S.11111.10 (E5M2: the top mantissa bit set, as IEEE 754's quiet NaNs).
// FP32 subnormals are below half the smallest FP8 subnormal: +-0.
module fp32_to_fp8 (
    input  logic [31:0] f32,
    input  logic        saturate,
    output logic [7:0]  e4m3fn,
    output logic [7:0]  e5m2
);
  fp32_to_fp8_format #(.MAN(3), .BIAS(7), .HAS_INF(0), .MAX_MAGNITUDE(7'h7E),
                       .NAN_MAGNITUDE(7'h7F))
      to_e4m3fn (.f32(f32), .saturate(saturate), .code(e4m3fn));
  fp32_to_fp8_format #(.MAN(2), .BIAS(15), .HAS_INF(1), .MAX_MAGNITUDE(7'h7B),
                       .NAN_MAGNITUDE(7'h7E))
      to_e5m2 (.f32(f32), .saturate(saturate), .code(e5m2));
endmodule

// One format: sign, 7 - MAN exponent bits, MAN mantissa bits. The
// magnitude is ((te + BIAS - 1) << MAN) + kept, where te is the exponent
// the result is scaled to (the input's, or the smallest normal one for subnormals) and
// kept the significand cut to MAN fraction bits: the rounding increment
// then carries into the exponent field by itself.
module fp32_to_fp8_format #(
    parameter int MAN = 3,
    parameter int BIAS = 7,
    parameter bit HAS_INF = 0,
    parameter logic [6:0] MAX_MAGNITUDE = 7'h7E,
    parameter logic [6:0] NAN_MAGNITUDE = 7'h7F
) (
    input  logic [31:0] f32,
    input  logic        saturate,
    output logic [7:0]  code
);
  localparam int MIN_EXPONENT = 1 - BIAS;  // of the smallest normal

  logic        sign;
  logic [7:0]  field;
  logic [23:0] significand;
  int          exponent, target_exponent, shift;
  logic [49:0] shifted;
  logic [23:0] kept;
  logic        guard, sticky, round_up;
  int          magnitude;
  logic [6:0]  overflow_magnitude;

  always_comb begin
    sign = f32[31];
    field = f32[30:23];
    significand = {1'b1, f32[22:0]};
    exponent = int'(field) - 127;
    target_exponent = exponent < MIN_EXPONENT ? MIN_EXPONENT : exponent;
    shift = target_exponent - exponent + 23 - MAN;
    shifted = '0;
    if (shift > 26) begin
      kept = '0;
      guard = 1'b0;
      sticky = 1'b1;
    end else begin
      shifted = {significand, 26'b0} >> shift;
      kept = shifted[49:26];
      guard = shifted[25];
      sticky = |shifted[24:0];
    end
    round_up = guard & (sticky | kept[0]);  // nearest, ties to even
    magnitude = ((target_exponent + BIAS - 1) << MAN) + int'(kept) + int'(round_up);
    overflow_magnitude = saturate ? MAX_MAGNITUDE : (HAS_INF ? 7'h7C : NAN_MAGNITUDE);

    if (field == 8'hFF) begin
      if (f32[22:0] != 0) code = {sign, NAN_MAGNITUDE};  // NaN
      else code = {sign, overflow_magnitude};             // Inf
    end else if (field == 8'h00) begin
      code = {sign, 7'h00};
    end else if (magnitude > int'(MAX_MAGNITUDE)) begin
      code = {sign, overflow_magnitude};
    end else begin
      code = {sign, magnitude[6:0]};
    end
  end
endmodule
