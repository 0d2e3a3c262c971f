# One vocabulary across the tool: every command takes every spelling of a
# type (include/minifloat/format_registry.hpp) in any case; an unknown value
# is exit 2 with the valid ones listed; an option that the request would not
# use is exit 2 with the reason. Included by minifloat_cli_add_tests, which
# defines cli_case.

# ---- aliases, in odd cases, accepted by every command ------------------------
cli_case(alias_info ARGS info HF8 STDOUT_REGEX "^format: e4m3fn\nbits: 8\n")
cli_case(alias_info_half ARGS info HALF STDOUT_REGEX "^format: binary16\n")
cli_case(alias_table ARGS table Float8_E4M3FN --csv
         STDOUT_REGEX "^bits,sign,exponent,mantissa,class,value\n0x00,")
cli_case(alias_encode ARGS encode hf8 INPUT "1\\n448\\n" STDOUT "0x38\\n0x7e\\n")
cli_case(alias_encode_onnx ARGS encode FLOAT8E5M2 INPUT "1\\n" STDOUT "0x3c\\n")
# OCP's spelling E4M3 finds ml_dtypes' e4m3 (300 rounds to its Inf, 0x78),
# not OCP's e4m3fn: the tool says so on stderr and still answers.
cli_case(alias_ocp_e4m3_note ARGS encode E4M3 INPUT "300\\n" STDOUT "0x78\\n"
         STDERR "^minifloat: encode: note: 'E4M3' is e4m3 .*OCP's FP8 E4M3 is e4m3fn")
cli_case(alias_lower_e4m3_no_note ARGS encode e4m3 INPUT "300\\n" STDOUT "0x78\\n")
cli_case(alias_encode_fp16 ARGS encode fp16 INPUT "1\\n" STDOUT "0x3c00\\n")
cli_case(alias_encode_bf16 ARGS encode bf16 INPUT "1\\n" STDOUT "0x3f80\\n")
cli_case(alias_encode_mlir ARGS encode f8E8M0FNU INPUT "1\\n" STDOUT "0x7f\\n")
cli_case(alias_encode_from_float64 ARGS encode e4m3fn --from float64
         INPUT "0x3ff0000000000000\\n" STDOUT "0x38\\n")
cli_case(alias_decode ARGS decode F8E4M3FN --to double INPUT "0x38\\n"
         STDOUT "0x3ff0000000000000\\n")
cli_case(alias_vectors ARGS vectors float4_e2m1fn STDOUT_REGEX "^# minifloat vectors: float32 -> e2m1fn\n")
cli_case(alias_calibrate ARGS calibrate BFLOAT16 INPUT "1\\n" STDOUT_REGEX "^format: bfloat16\n")
cli_case(alias_matmul ARGS matmul --a bf8 --b float8_e5m2 --out F8E5M2
         INPUT "1 16 1\\n${arange}\\n${arange_column}\\n" STDOUT "0x65\\n")
cli_case(alias_matmul_lowercase_16_32 ARGS matmul --a bf16 --b bfloat16 --out fp32 --table any
         --model exact INPUT "${small_k}" STDOUT "0x3f800001\\n")
cli_case(alias_eltwise ARGS eltwise --op sub --a e5m2 --b e4m3fn --out half --b-shape scalar
         --scale-type bf16 --scale-a 3 --scale-b 0.5
         INPUT "1 16\\n3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c\\n40\\n"
         STDOUT "0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000\\n")
cli_case(alias_vectors_matmul ARGS vectors-matmul --a hf8 --b Float8E4M3FN --out F8E4M3FN --m 1 --k 16
         --n 1 STDOUT_REGEX "\n1 16 1\n.*\n# C\n0x[0-9a-f]+\n$")
cli_case(alias_quantize_linear ARGS quantize-linear --shape 1 --scale-type BF16 --scales 0.9921875
         --output-dtype E4M3FN INPUT "1.0546875\\n" STDOUT "0x38\\n")
cli_case(alias_dequantize_linear ARGS dequantize-linear --shape 3 --x-type HF8 --scales 2
         --output-dtype fp32 INPUT "0x7e 0x80 0x38\\n" STDOUT "0x44600000\\n0x80000000\\n0x40000000\\n")
# A shape whose element count passes 2^64 (it would wrap to 0 and match an
# empty input), and a dimension past 64 bits: status 2.
cli_case(quantize_linear_shape_past_size_t ARGS quantize-linear --shape 4294967296,4294967296
         --scales 0.5 INPUT "" STATUS 2 NO_STDOUT STDERR "more elements than size_t holds")
cli_case(quantize_linear_dimension_past_64_bits ARGS quantize-linear --shape 99999999999999999999999
         --scales 0.5 INPUT "1\\n" STATUS 2 NO_STDOUT STDERR "outside the 64-bit range")

# ---- one rounding vocabulary ---------------------------------------------------
# 'sr' is 'stochastic' for matmul as for encode: the same bits.
set(stochastic_case "1 16 1\\n${arange}\\n${arange_column}\\n")
cli_case(matmul_round_sr ARGS matmul --a BF8 --b BF8 --out BF8 --round sr --seed 7
         INPUT "${stochastic_case}" STDOUT_REGEX "^0x6[0-9a-f]\n$")
cli_case(matmul_round_rtz_not_offered ARGS matmul --a BF8 --b BF8 --out BF8 --round rtz
         STATUS 2 NO_STDOUT
         STDERR "--round: 'rtz' is not a mode of this command \\(one of: nearest-even \\(rne\\), stochastic \\(sr\\)\\)")
cli_case(eltwise_stochastic_fp32_rejected ARGS eltwise --op add --a FP16 --b FP16 --out FP32 --table any
         --b-shape scalar --round sr --seed 1 INPUT "1 16\\n${arange}\\n3c00\\n" STATUS 2 NO_STDOUT
         STDERR "stochastic output rounding needs an FP8 or 16-bit output; FP32 is not rounded")
cli_case(chunk_rounding_rtz ARGS matmul --a BF16 --b BF16 --out FP32 --table any --model chunked_exact
         --chunk-rounding rtz INPUT "${small_k}" STDOUT "0x3f800001\\n")

# ---- every other word in any case, '-' and '_' alike ----------------------------
# So the library's and the Python package's names (toward_zero,
# exact_to_output, mse_histogram) work here as the tool's own spellings do.
cli_case(round_any_case_underscore ARGS encode e4m3fn --round Toward_Zero INPUT "1.99\\n"
         STDOUT "0x3f\\n")
cli_case(chunk_rounding_library_name ARGS matmul --a BF16 --b BF16 --out FP32 --table ANY
         --model CHUNKED-EXACT --chunk-rounding TOWARD_ZERO INPUT "${small_k}" STDOUT "0x3f800001\\n")
cli_case(calibrate_method_underscore ARGS calibrate e4m3fn --method MSE_Histogram INPUT "1\\n2\\n0.5\\n"
         STDOUT_REGEX "\nmethod: mse-histogram\n")
# 1 + 2^-8 + 2^-30 to BF16: exact_to_output rounds the exact sum once (up,
# 0x3f81); exact rounds it to FP32 first (1 + 2^-8, a tie: even, 0x3f80).
set(double_rounding "1 3 1\\n3f80 3b80 3800\\n3f80\\n3f80\\n3800\\n")
cli_case(model_hyphens_any_case ARGS matmul --a BF16 --b BF16 --out BF16 --table any
         --model Exact-To-Output INPUT "${double_rounding}" STDOUT "0x3f81\\n")
cli_case(model_exact_rounds_twice ARGS matmul --a BF16 --b BF16 --out BF16 --table any
         --model exact INPUT "${double_rounding}" STDOUT "0x3f80\\n")

# ---- unknown values list the valid ones ---------------------------------------
cli_case(unknown_model ARGS matmul --a HF8 --b HF8 --out HF8 --model fast STATUS 2 NO_STDOUT
         STDERR "--model: unknown model 'fast' \\(one of: sequential_fp32, exact, exact_to_output, avx512_bf16_pairs, amx_tile_pairs, chunked_exact, reduced_precision\\)")
cli_case(unknown_op ARGS eltwise --op div --a HF8 --b HF8 --out FP16 STATUS 2 NO_STDOUT
         STDERR "--op: unknown operation 'div' \\(one of: add, sub, mul\\)")
cli_case(unknown_matmul_type ARGS matmul --a foo --b HF8 --out HF8 STATUS 2 NO_STDOUT
         STDERR "--a: unknown type 'foo' \\(one of: I8 \\(int8\\), U8 \\(uint8\\), HF8 \\(e4m3fn\\), BF8 \\(e5m2\\), FP16 \\(binary16\\), BF16 \\(bfloat16\\), FP32 \\(float32\\)")
cli_case(format_not_a_matmul_type ARGS matmul --a e4m3fnuz --b HF8 --out HF8 STATUS 2 NO_STDOUT
         STDERR "--a: 'e4m3fnuz' is not a type of the hybrid unit \\(one of: I8")
cli_case(unknown_table ARGS matmul --a HF8 --b HF8 --out HF8 --table nvidia STATUS 2 NO_STDOUT
         STDERR "--table: unknown table 'nvidia' \\(one of: vendor_hybrid_fp8, cublaslt_fp8, any\\)")
cli_case(unknown_placement ARGS matmul --a HF8 --b HF8 --out HF8 --placement inside STATUS 2
         NO_STDOUT STDERR "--placement: unknown placement 'inside' \\(one of: epilogue, operands\\)")
cli_case(unknown_requant ARGS matmul --a I8 --b I8 --out I8 --requant fp16 STATUS 2 NO_STDOUT
         STDERR "--requant: unknown requantization 'fp16' \\(one of: exact, fp32\\)")
cli_case(unknown_round ARGS encode e4m3fn --round sideways STATUS 2 NO_STDOUT
         STDERR "--round: unknown mode 'sideways' \\(one of: nearest-even \\(rne\\), toward-zero \\(rtz\\), toward-positive \\(up, ceil\\), toward-negative \\(down, floor\\), stochastic \\(sr\\)\\)")
cli_case(unknown_format_lists ARGS encode e9m9 STATUS 2 NO_STDOUT
         STDERR "unknown format 'e9m9' \\(one of: e4m3fn e4m3fnuz .* bfloat16; or an alias")
cli_case(not_a_minifloat ARGS info int8 STATUS 2 NO_STDOUT
         STDERR "info: 'int8' is not a minifloat format \\(one of: e4m3fn ")
cli_case(unknown_onnx_type_lists ARGS quantize-linear --shape 1 --scales 1 --output-dtype float9
         STATUS 2 NO_STDOUT
         STDERR "--output-dtype: unknown type 'float9' \\(one of: float, uint8, int8, .*float8e8m0; or an alias")
cli_case(format_not_an_onnx_type ARGS dequantize-linear --shape 1 --x-type e2m3fn --scales 1
         STATUS 2 NO_STDOUT
         STDERR "--x-type: 'e2m3fn' is not a type of the ONNX operators \\(one of: float, uint8")
cli_case(rejected_pair_suggests_any ARGS matmul --a BF8 --b BF8 --out HF8 STATUS 2 NO_STDOUT
         STDERR "vendor_hybrid_fp8 does not accept MatMul BF8 x BF8 -> HF8 \\(--table any accepts it\\)")
cli_case(rejected_eltwise_pair_suggests_any ARGS eltwise --op add --a HF8 --b HF8 --out HF8
         STATUS 2 NO_STDOUT
         STDERR "vendor_hybrid_fp8 does not accept element-wise HF8 x HF8 -> HF8 \\(--table any accepts it\\)")

# ---- options without effect: exit 2 with the reason ---------------------------
foreach(option_and_value IN ITEMS "--chunk|8" "--bits|10" "--trunc|floor" "--order|guide"
                                  "--promote-every|4" "--variant|block" "--presum-round"
                                  "--chunk-rounding|rtz" "--nan-payload|propagate")
  string(REPLACE "|" ";" words "${option_and_value}")
  list(GET words 0 option)
  string(REPLACE "--" "" label "${option}")
  cli_case(no_effect_${label}_sequential ARGS matmul --a HF8 --b HF8 --out HF8 ${words}
           STATUS 2 NO_STDOUT
           STDERR "matmul: ${option} has no effect with --model sequential_fp32 \\(it is ")
endforeach()
cli_case(no_effect_chunk_exact ARGS matmul --a HF8 --b HF8 --out HF8 --chunk 5 --model exact
         STATUS 2 NO_STDOUT
         STDERR "matmul: --chunk has no effect with --model exact \\(it is amx_tile_pairs' and chunked_exact's option\\)")
cli_case(no_effect_block_seq ARGS matmul --a HF8 --b HF8 --out HF8 --model reduced_precision
         --block 8 STATUS 2 NO_STDOUT STDERR "matmul: --block has no effect with --variant seq")
foreach(option_and_value IN ITEMS "--scale-a|2" "--scale-b|2" "--output-scale|2"
                                  "--output-scale-rule|divide" "--model|exact" "--amax"
                                  "--saturate" "--round|sr" "--bias|1" "--placement|operands")
  string(REPLACE "|" ";" words "${option_and_value}")
  list(GET words 0 option)
  string(REPLACE "--" "" label "${option}")
  cli_case(no_effect_${label}_integer ARGS matmul --a I8 --b I8 --out I8 ${words}
           STATUS 2 NO_STDOUT STDERR "matmul: ${option} has no effect for an integer MatMul")
endforeach()
cli_case(no_effect_int_scale_float ARGS matmul --a HF8 --b HF8 --out HF8 --int-scale 2
         STATUS 2 NO_STDOUT STDERR "matmul: --int-scale has no effect for a float MatMul")
cli_case(no_effect_requant_float ARGS vectors-matmul --a HF8 --b HF8 --out HF8 --m 1 --k 16 --n 1
         --requant fp32 STATUS 2 NO_STDOUT
         STDERR "vectors-matmul: --requant has no effect for a float MatMul")
cli_case(no_effect_rule_without_scale ARGS matmul --a HF8 --b HF8 --out HF8
         --output-scale-rule divide STATUS 2 NO_STDOUT
         STDERR "matmul: --output-scale-rule has no effect without --output-scale")
cli_case(no_effect_z_check_any ARGS matmul --a HF8 --b HF8 --out HF8 --table any --no-z-check
         STATUS 2 NO_STDOUT STDERR "matmul: --no-z-check has no effect with --table any")
cli_case(no_effect_scale_type_alone ARGS eltwise --op add --a HF8 --b HF8 --out FP16
         --scale-type BF16 STATUS 2 NO_STDOUT
         STDERR "eltwise: --scale-type has no effect without --scale-a or --scale-b")
cli_case(no_effect_eltwise_integer_exact ARGS eltwise --op add --a I8 --b I8 --out I8 --exact
         STATUS 2 NO_STDOUT STDERR "eltwise: --exact has no effect for integer tensors")
# The integer MatMul itself, with its own options, still runs: 16 * (2 * 3) * 0.5 = 48.
set(twos "2 2 2 2 2 2 2 2 2 2 2 2 2 2 2 2")
string(REPLACE " " "\\n" threes_column "3 3 3 3 3 3 3 3 3 3 3 3 3 3 3 3")
cli_case(integer_matmul_own_options ARGS matmul --a int8 --b i8 --out I8 --int-scale 0.5
         --requant fp32 INPUT "1 16 1\\n${twos}\\n${threes_column}\\n" STDOUT "0x30\\n")

# ---- one parser: the same rules for every command ------------------------------
cli_case(matmul_option_equals_value ARGS matmul --a=BF8 --b=BF8 --out=BF8
         INPUT "1 16 1\\n${arange}\\n${arange_column}\\n" STDOUT "0x65\\n")
cli_case(matmul_unknown_option ARGS matmul --a HF8 --bogus STATUS 2 NO_STDOUT
         STDERR "matmul: unknown option '--bogus' \\(try 'minifloat matmul --help'\\)")
cli_case(matmul_option_twice ARGS matmul --a HF8 --a BF8 STATUS 2 NO_STDOUT
         STDERR "matmul: option --a given twice")
cli_case(encode_flag_twice ARGS encode e4m3fn --saturate --saturate INPUT "1\n" STATUS 2
         NO_STDOUT STDERR "encode: option --saturate given twice")
cli_case(table_flag_twice ARGS table e4m3fn --csv --csv STATUS 2 NO_STDOUT
         STDERR "table: option --csv given twice")
cli_case(matmul_operand ARGS matmul HF8 STATUS 2 NO_STDOUT STDERR "matmul: unexpected argument 'HF8'")
cli_case(encode_matmul_option ARGS encode e4m3fn --model exact STATUS 2 NO_STDOUT
         STDERR "encode: unknown option '--model'")
