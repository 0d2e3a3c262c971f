#!/usr/bin/env python3
"""Checks that the x86 kernels clear the upper halves of the vector
registers (VZEROUPPER) before they call library code compiled without
their target: legacy-SSE instructions run while those halves hold 256- or
512-bit state pay for it (Intel's optimization manual, "Mixing AVX code
with SSE code"), and g++ 12 leaves the instruction out before some such
calls (target/region.hpp, MF_SIMD_CLEAR_UPPER_STATE). It did so before the
scalar kernel that a stochastic encode calls for its head, which cost the
AVX-512 stochastic encodes 5-11 % on an Intel Xeon (family 6 model 207).

    python3 bench/check_upper_state.py build/release/bench/minifloat_bench_stochastic \\
        build/release/bench/minifloat_bench_mx

Reads the program's machine code (objdump, binutils): in each function of
an x86 kernel namespace (`::avx2::`, `::avx512::` and their variants), an
instruction that writes a ymm or zmm register numbered 0-15 marks the upper
state dirty and VZEROUPPER (or VZEROALL) clears it, in address order; a
call from dirty state into a function of namespace mf outside those
namespaces is reported. Registers 16-31 are left out: legacy SSE cannot
name them, so they carry no transition penalty, and VZEROUPPER does not
touch them (Intel SDM, VZEROUPPER). Neither do stores of a ymm or zmm
register to memory, which write no register. The order is the layout's,
not the control flow's, so a report names a call to read, not a proven
fault. Calls into the C and C++ runtimes (memcpy, libm, the guard of a
function-local static) are not checked: the runtimes' vector code is
compiled for AVX themselves, and libm's calls here are on cold paths. Nor
are calls between a static's guard acquire and release: they initialize
it, once per program (the CPU's cache sizes, for instance). Exit status 1
when a call is reported, 0 otherwise; it prints why and exits 0 (a skip
for CTest) when objdump is missing."""
import re
import shutil
import subprocess
import sys

KERNEL_NAMESPACE = re.compile(r"::avx(2|512)[a-z0-9_]*::")
FUNCTION = re.compile(r"^[0-9a-f]+ <(.*)>:$")
CALL = re.compile(r"\bcall\s+[0-9a-f]+ <(.*)>$")
# The destination is AT&T syntax's last operand; a mask ({%k1}{z}) may follow.
WRITES_LOW_VECTOR = re.compile(r",%[yz]mm([0-9]|1[0-5])(\{[^}]*\})*$")
SKIP = 77  # CTest's SKIP_RETURN_CODE for this test


def unchecked_calls(dump):
    """(caller, callee) for every call from dirty upper state."""
    found = []
    function, dirty, initializing = None, False, False
    for line in dump.splitlines():
        header = FUNCTION.match(line)
        if header:
            function, dirty, initializing = header.group(1), False, False
            continue
        if function is None or not KERNEL_NAMESPACE.search(function):
            continue
        # objdump may follow the operands with "# address <symbol>".
        instruction = line.split("\t")[-1].split("#")[0].strip()
        if "vzeroupper" in instruction or "vzeroall" in instruction:
            dirty = False
        elif WRITES_LOW_VECTOR.search(instruction):
            dirty = True
        call = CALL.search(instruction)
        if not call:
            continue
        callee = re.sub(r"\+0x[0-9a-f]+$", "", call.group(1))
        if "__cxa_guard_acquire" in callee:
            initializing = True
        elif "__cxa_guard_release" in callee or "__cxa_guard_abort" in callee:
            initializing = False
        elif dirty and not initializing and re.search(r"\bmf::", callee) \
                and not KERNEL_NAMESPACE.search(callee):
            found.append((function, callee))
    return found


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    if shutil.which("objdump") is None:
        print("skipped: objdump (binutils) is not installed")
        return SKIP
    found = []
    for program in sys.argv[1:]:
        dump = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", program],
                              check=True, capture_output=True, text=True).stdout
        found += unchecked_calls(dump)
    for caller, callee in found:
        print(f"dirty upper state at a call\n  from {caller}\n  to   {callee}")
    print(f"{len(found)} calls from dirty upper state into code without the target")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
