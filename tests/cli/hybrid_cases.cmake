# The hybrid arithmetic commands (matmul, eltwise, vectors-matmul) through the
# real binary; included by minifloat_cli_add_tests, which defines cli_case.

# The example of the StableHLO FNUZ RFC (rfcs/20230321-fp8_fnuz.md), in
# E5M2: arange(16) (9 -> 8, 11 and 13 -> 12, 15 -> 16) dotted with itself is
# 1252, 1280 in E5M2 (0x65).
set(arange "0x00 0x3c 0x40 0x42 0x44 0x45 0x46 0x47 0x48 0x48 0x49 0x4a 0x4a 0x4a 0x4b 0x4c")
string(REPLACE " " "\\n" arange_column "${arange}")
cli_case(hybrid_matmul_rfc_arange ARGS matmul --a BF8 --b BF8 --out BF8
         INPUT "1 16 1\\n${arange}\\n${arange_column}\\n" STDOUT "0x65\\n")
# 1 + 2^-24 + 2^-24: sequential_fp32 gives 1, exact 1 + 2^-23, one ulp away.
set(small_k "1 3 1\\n3f80 3980 3980\\n3f80\\n3980\\n3980\\n")
cli_case(hybrid_matmul_exact_error ARGS matmul --a BF16 --b BF16 --out FP32 --table any --exact-error
         INPUT "${small_k}" STDOUT "0x3f800000\\n# error_ulps\\n# -1\\n")
cli_case(hybrid_matmul_model_exact ARGS matmul --a BF16 --b BF16 --out FP32 --table any --model exact
         INPUT "${small_k}" STDOUT "0x3f800001\\n")
# VDPBF16PS's NaN: the first NaN operand in the order src1 low, src2 low,
# src1 high, src2 high: B's 0xffc2 (src2 low) before A's signalling 0x7f81
# (src1 high); the default model gives its one NaN.
set(two_nans "1 2 1\\n3f80 7f81\\nffc2\\n3f80\\n")
cli_case(hybrid_matmul_nan_propagate ARGS matmul --a BF16 --b BF16 --out FP32 --table any
         --model avx512_bf16_pairs --nan-payload propagate INPUT "${two_nans}" STDOUT "0xffc20000\\n")
cli_case(hybrid_matmul_nan_canonical ARGS matmul --a BF16 --b BF16 --out FP32 --table any
         --model avx512_bf16_pairs INPUT "${two_nans}" STDOUT "0x7fc00000\\n")
# 3 * 1 - 0.5 * 2 = 2 with BF16 scales, B a scalar.
cli_case(hybrid_eltwise_sub_scalar ARGS eltwise --op sub --a BF8 --b HF8 --out FP16 --b-shape scalar
         --scale-type BF16 --scale-a 3 --scale-b 0.5
         INPUT "1 16\\n3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c\\n40\\n"
         STDOUT "0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000\\n")
# HF8 1 + BF16 1, no scales: no --scale-type needed (no scale to format).
cli_case(hybrid_eltwise_unscaled_hf8_bf16 ARGS eltwise --op add --a HF8 --b BF16 --out BF16 --b-shape scalar
         INPUT "1 16\\n38 38 38 38 38 38 38 38 38 38 38 38 38 38 38 38\\n3f80\\n"
         STDOUT "0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000 0x4000\\n")
# Errors: exit 2, one line, nothing on stdout.
cli_case(hybrid_matmul_rejected_pair ARGS matmul --a BF8 --b BF8 --out HF8 INPUT "1 16 1\\n"
         STATUS 2 NO_STDOUT STDERR "vendor_hybrid_fp8 does not accept MatMul BF8 x BF8 -> HF8")
cli_case(hybrid_matmul_output_scale_needs_rule ARGS matmul --a BF8 --b BF8 --out BF8 --output-scale 2
         STATUS 2 NO_STDOUT STDERR "--output-scale needs --output-scale-rule")
cli_case(hybrid_matmul_bad_encoding ARGS matmul --a BF8 --b BF8 --out BF8
         INPUT "1 16 1\\n3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c 3c zz\\n"
         STATUS 2 NO_STDOUT STDERR "line 2: not a BF8 encoding in A: 'zz'")
cli_case(hybrid_matmul_z_multiple ARGS matmul --a HF8 --b HF8 --out HF8 INPUT "1 2 1\\n38 38\\n38\\n38\\n"
         STATUS 2 NO_STDOUT STDERR "multiple of 16")
cli_case(hybrid_matmul_short_input ARGS matmul --a HF8 --b HF8 --out HF8 INPUT "1 16 1\\n38 38\\n"
         STATUS 2 NO_STDOUT STDERR "input ended inside A")
# A given size is 1 or more; the range says so.
cli_case(hybrid_vectors_matmul_zero_size ARGS vectors-matmul --a HF8 --b HF8 --out HF8 --m 0 --k 16 --n 1
         STATUS 2 NO_STDOUT STDERR "--m must be 1..4096, not 0")
# The size line alone does not allocate: 2^20 x 2^20 before one encoding is a
# truncated input.
cli_case(hybrid_matmul_large_sizes_short_input ARGS matmul --a HF8 --b HF8 --out FP32 --table any
         INPUT "1048576 1048576 1048576\\n38\\n" STATUS 2 NO_STDOUT STDERR "input ended inside A")
cli_case(hybrid_eltwise_scale_needs_type ARGS eltwise --op add --a HF8 --b HF8 --out FP16 --scale-a 2
         STATUS 2 NO_STDOUT STDERR "--scale-type")
cli_case(hybrid_seed_without_stochastic ARGS matmul --a HF8 --b HF8 --out HF8 --seed 3
         STATUS 2 NO_STDOUT STDERR "need --round stochastic")

# vectors-matmul's A and B, fed back to matmul with the same options, give
# its C (stochastic output rounding, scales and bias included).
add_test(NAME cli_hybrid_vectors_roundtrip
         COMMAND "${CMAKE_COMMAND}" "-DTOOL=${tool}" "-DWORK_DIR=${binary_dir}"
                 "-DOPTIONS=--a;HF8;--b;BF8;--out;BF16;--table;any;--model;chunked_exact;--chunk;8;--scale-a;0.5;--bias;1,2,3;--output-scale;3;--output-scale-rule;divide;--round;stochastic;--seed;9;--random-bits;8"
                 -P "${source_dir}/hybrid_roundtrip.cmake")
set_tests_properties(cli_hybrid_vectors_roundtrip PROPERTIES LABELS "cli;hybrid")

# --print-acc: each element's accumulator after C. 1252 is float32 0x449c8000.
cli_case(hybrid_matmul_print_acc ARGS matmul --a BF8 --b BF8 --out BF8 --print-acc --amax
         INPUT "1 16 1\\n${arange}\\n${arange_column}\\n"
         STDOUT "0x65\\n# amax: 0x449c8000\\n# acc_fp32\\n# 0x449c8000\\n")
# The exact sum 1 + 2^-23 is acc 0x3f800001; sequential_fp32's acc is 1.
cli_case(hybrid_matmul_print_acc_exact ARGS matmul --a BF16 --b BF16 --out FP32 --table any
         --model exact_to_output --print-acc
         INPUT "${small_k}" STDOUT "0x3f800001\\n# acc_fp32\\n# 0x3f800001\\n")
cli_case(hybrid_matmul_print_acc_sequential ARGS matmul --a BF16 --b BF16 --out FP32 --table any
         --print-acc INPUT "${small_k}" STDOUT "0x3f800000\\n# acc_fp32\\n# 0x3f800000\\n")
# The int32 accumulator, two's complement: -128 * 5 = -640 (C saturates to
# -128), -1 * 5 = -5.
cli_case(hybrid_matmul_print_acc_integer ARGS matmul --a I8 --b I8 --out I8 --no-z-check
         --print-acc INPUT "2 1 1\\n80\\nff\\n05\\n"
         STDOUT "0x80\\n0xfb\\n# acc_int32\\n# 0xfffffd80\\n# 0xfffffffb\\n")

# Batch mode: any number of problems; their outputs separated by an empty line.
set(rfc_problem "1 16 1\\n${arange}\\n${arange_column}\\n")
cli_case(hybrid_matmul_batch ARGS matmul --a BF8 --b BF8 --out BF8
         INPUT "${rfc_problem}${rfc_problem}# a comment\\n${rfc_problem}"
         STDOUT "0x65\\n\\n0x65\\n\\n0x65\\n")
# vectors-matmul's shape: '# C' and the expected C after B, '#' blocks after
# it. Ignored without --check; with it a difference is status 1, the first
# one named.
cli_case(hybrid_matmul_batch_expected_ignored ARGS matmul --a BF8 --b BF8 --out BF8
         INPUT "${rfc_problem}# C\\n0x64\\n# amax: 0x449c8000\\n${rfc_problem}# C\\n0x65\\n"
         STDOUT "0x65\\n\\n0x65\\n")
cli_case(hybrid_matmul_check_equal ARGS matmul --a BF8 --b BF8 --out BF8 --check
         INPUT "${rfc_problem}# C\\n0x65\\n${rfc_problem}# C\\n0x65\\n"
         STDOUT "0x65\\n\\n0x65\\n")
cli_case(hybrid_matmul_check_mismatch ARGS matmul --a BF8 --b BF8 --out BF8 --check
         INPUT "${rfc_problem}# C\\n0x65\\n${rfc_problem}# C\\n0x64\\n" STATUS 1
         STDOUT "0x65\\n\\n0x65\\n"
         STDERR "--check: problem 2 \\(expected C ending on line 40\\): C\\[0\\]\\[0\\] is 0x65, expected 0x64 \\(1 of 2 problems differ\\)")
cli_case(hybrid_matmul_check_needs_expected ARGS matmul --a BF8 --b BF8 --out BF8 --check
         INPUT "${rfc_problem}" STATUS 2 NO_STDOUT
         STDERR "--check: problem 1 has no expected C")
cli_case(hybrid_matmul_two_expected ARGS matmul --a BF8 --b BF8 --out BF8
         INPUT "${rfc_problem}# C\\n0x65\\n# C\\n0x65\\n" STATUS 2 STDOUT "0x65\\n"
         STDERR "a second '# C' after problem 1")

# Float options: "0x" + hex is float32 bits, anything else a number (one rule
# in every command); a finite number beyond float32 is an error, infinity is
# written inf or as its bits.
foreach(scale IN ITEMS 2 0x40000000 0X40000000 0x1p1)
  cli_case(hybrid_scale_a_${scale} ARGS matmul --a BF8 --b BF8 --out BF8 --scale-a ${scale}
           INPUT "${rfc_problem}" STDOUT "0x69\\n")
endforeach()
foreach(scale IN ITEMS inf 0x7f800000)
  cli_case(hybrid_scale_a_${scale} ARGS matmul --a BF8 --b BF8 --out BF8 --scale-a ${scale}
           INPUT "${rfc_problem}" STDOUT "0x7c\\n")
endforeach()
# A negative NaN with a payload, through its bits: C is a negative NaN.
cli_case(hybrid_scale_a_nan_payload ARGS matmul --a BF8 --b BF8 --out BF8 --scale-a 0xffc00001
         INPUT "${rfc_problem}" STDOUT "0xfe\\n")
cli_case(hybrid_scale_a_out_of_range ARGS matmul --a BF8 --b BF8 --out BF8 --scale-a 1e50
         INPUT "${rfc_problem}" STATUS 2 NO_STDOUT
         STDERR "^minifloat: matmul: --scale-a: '1e50' is out of float32's range \\(write inf or the bits for an infinity\\)\n$")
cli_case(hybrid_scale_signed_bits ARGS matmul --a BF8 --b BF8 --out BF8 --scale-b -0x3f800000
         INPUT "${rfc_problem}" STATUS 2 NO_STDOUT
         STDERR "--scale-b: not a float32 value: '-0x3f800000'")
cli_case(hybrid_bias_list_out_of_range ARGS matmul --a BF8 --b BF8 --out BF8 --bias 1e39
         INPUT "${rfc_problem}" STATUS 2 NO_STDOUT
         STDERR "--bias: '1e39' is out of float32's range")
cli_case(hybrid_int_scale_bits ARGS matmul --a I8 --b I8 --out I8 --no-z-check --int-scale 0x3f000000
         INPUT "1 1 1\\n04\\n05\\n" STDOUT "0x0a\\n")

# vectors-matmul's output, two cases as they are, through matmul --check.
add_test(NAME cli_hybrid_batch_check
         COMMAND "${CMAKE_COMMAND}" "-DTOOL=${tool}" "-DWORK_DIR=${binary_dir}"
                 "-DOPTIONS=--a;HF8;--b;BF8;--out;BF16;--table;any;--model;chunked_exact;--chunk;8;--scale-a;0x3f000000;--bias;1,0x40000000;--amax;--print-acc;--exact-error"
                 -P "${source_dir}/hybrid_batch.cmake")
set_tests_properties(cli_hybrid_batch_check PROPERTIES LABELS "cli;hybrid")
