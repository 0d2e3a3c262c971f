#!/bin/sh
# The tool's output failures and the limit of `vectors --count`, through the
# real binary and real file descriptors (what run_case.cmake cannot set up):
#
#   sh write_errors.sh <minifloat tool>      (run in a scratch directory)
#
# - every command, small output and large (past the 1 MiB output block),
#   into /dev/full and into a closed stdout: status 3, one stderr line;
# - a reader that stops early: the tool dies of SIGPIPE (status 128 + 13 in
#   the shell), or, with SIGPIPE ignored, exits 3 naming EPIPE;
# - vectors --count: 2^64 - 1 and the exact wrap point (structured + count =
#   2^64) are status 2 naming the limit; the largest accepted count starts.
# Exit status 0 when all hold, 1 otherwise (each failure printed), 77 (ctest's
# SKIP_RETURN_CODE) without /dev/full.
set -u
tool=$1
failures=0
scratch=write_errors.tmp
mkdir -p "$scratch"
err="$scratch/stderr"
input="$scratch/input"
printf '1\n-0.5\n448\n' >"$input"
printf '0x38\n0xc0\n' >"$scratch/codes"

if [ ! -c /dev/full ]; then
  echo "SKIP: no /dev/full on this system"
  exit 77
fi

fail() {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

# expect_one_line STATUS EXPECTED_STATUS REGEX WHAT: the status and exactly
# one stderr line matching REGEX.
expect_one_line() {
  if [ "$1" != "$2" ]; then
    fail "$4: status $1, expected $2; stderr: $(cat "$err")"
  elif [ "$(wc -l <"$err")" -ne 1 ] || ! grep -Eq "$3" "$err"; then
    fail "$4: stderr is not one line matching '$3': $(cat "$err")"
  else
    echo "ok: $4 -> status $1: $(cat "$err")"
  fi
}

# Each invocation once with a small output and, where the command can write
# much, once past the 1 MiB block (bfloat16's table, 200000 vectors, 400000
# encoded lines), so both the final flush and a mid-run block write fail.
awk 'BEGIN { for (i = 0; i < 400000; ++i) print i * 0.001 }' >"$scratch/large_input"
while read -r label args; do
  stdin=$input
  case $label in
    large_encode) stdin=$scratch/large_input ;;
    decode) stdin=$scratch/codes ;;
  esac
  # A command's messages name it; --help and --version are no command.
  command=${args%% *}
  case $command in
    -*) prefix= ;;
    *) prefix="$command: " ;;
  esac
  # shellcheck disable=SC2086  # args are words on purpose
  "$tool" $args <"$stdin" >/dev/full 2>"$err"
  expect_one_line $? 3 "^minifloat: ${prefix}error writing standard output: .+\$" "$label >/dev/full"
  # shellcheck disable=SC2086
  "$tool" $args <"$stdin" >&- 2>"$err"
  expect_one_line $? 3 "^minifloat: ${prefix}error writing standard output: .+\$" "$label >&-"
done <<'EOF'
version --version
help --help
command_help encode --help
formats formats
info info e4m3fn
table table e4m3fn
large_table table bfloat16 --csv
encode encode e4m3fn
large_encode encode e5m2
decode decode e4m3fn
vectors vectors e2m1fn
large_vectors vectors e4m3fn --count 200000 --seed 1
EOF

# Nothing to write and nothing lost: a closed stdout is no error.
"$tool" encode e4m3fn </dev/null >&- 2>"$err"
status=$?
if [ "$status" -ne 0 ] || [ -s "$err" ]; then
  fail "empty encode into a closed stdout: status $status, stderr: $(cat "$err")"
else
  echo "ok: empty encode >&- -> status 0"
fi

# A reader that stops after one byte, with SIGPIPE as inherited (default):
# the tool dies of it, like cat. The status file records the tool's status.
{ "$tool" vectors e4m3fn --count 2000000 --seed 1 2>"$err"; echo $? >"$scratch/status"; } |
  head -c 1 >/dev/null
status=$(cat "$scratch/status")
if [ "$status" -ne $((128 + 13)) ]; then
  fail "early reader: status $status, expected death by SIGPIPE (141); stderr: $(cat "$err")"
else
  echo "ok: early reader -> killed by SIGPIPE (status $status)"
fi
# With SIGPIPE ignored (inherited through exec), the write fails with EPIPE.
{ trap '' PIPE; "$tool" vectors e4m3fn --count 2000000 --seed 1 2>"$err"; echo $? >"$scratch/status"; } |
  head -c 1 >/dev/null
expect_one_line "$(cat "$scratch/status")" 3 \
  '^minifloat: vectors: error writing standard output: Broken pipe$' "early reader, SIGPIPE ignored"

# vectors --count at the top of the 64-bit range. K, the structured count,
# comes from the header; 2^64 - K and 2^64 - 1 - K are written out in decimal
# from 2^64 = 18446744073709551616 (shell arithmetic has 63 bits), which
# holds while K < 51616.
structured=$("$tool" vectors e4m3fn | sed -n 's/^# inputs: \([0-9]*\) structured.*/\1/p')
if [ -z "$structured" ] || [ "$structured" -ge 51616 ]; then
  fail "vectors: no structured count < 51616 in the header: '$structured'"
else
  wrap=$(printf '184467440737095%05d' $((51616 - structured)))     # K + wrap = 2^64
  largest=$(printf '184467440737095%05d' $((51615 - structured)))  # K + largest = 2^64 - 1
  limit="at most 2\\^64 - 1 - $structured = $largest\$"
  for count in 18446744073709551615 "$wrap"; do
    "$tool" vectors e4m3fn --count "$count" >"$scratch/stdout" 2>"$err"
    expect_one_line $? 2 "^minifloat: vectors: --count $count is too large: .*$limit" \
      "vectors --count $count"
    if [ -s "$scratch/stdout" ]; then fail "vectors --count $count wrote to stdout"; fi
  done
  # The largest count is accepted: the header says so, then the first reader
  # lines; the tool then dies of SIGPIPE.
  header=$("$tool" vectors e4m3fn --count "$largest" --seed 1 2>"$err" | head -n 7)
  if ! printf '%s\n' "$header" | grep -qx "# count: $largest"; then
    fail "vectors --count $largest (the largest) was not accepted: $header $(cat "$err")"
  else
    echo "ok: vectors --count $largest starts"
  fi
fi

rm -rf "$scratch"
if [ "$failures" -ne 0 ]; then
  echo "$failures failure(s)"
  exit 1
fi
echo "all write-error and count-limit checks hold"
