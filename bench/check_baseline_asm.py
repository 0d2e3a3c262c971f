#!/usr/bin/env python3
"""Checks, in the machine code, that minifloat_bench_bulk's hardware
baselines use the instruction forms their names say, and that they are the
same code in the -O3 and the -O2 build (so their rates are comparable).

    python3 bench/check_baseline_asm.py build/release/bench/minifloat_bench_bulk \\
        build/release/bench/minifloat_bench_bulk_o2

Needs objdump (binutils). For each hw_f16* function:
  hw_f16_encode_*      every vector vcvtps2ph writes a register, and no
                       vcvtps2ph writes memory (the register form)
  hw_f16_mem_encode_*  every vector vcvtps2ph writes memory
  hw_f16_decode_*      every vector vcvtph2ps reads a register
  hw_f16_mem_decode_*  every vector vcvtph2ps reads memory
and each loop has 4 of them. With two programs, it also compares the main
loop of each baseline function (stream* and hw_f16*: the first loop with
vector instructions) instruction by instruction, with addresses, offsets
and register names left out. Exits 1 on a failed check, 77 (CTest's skip)
with a line saying why when there is nothing to check: no objdump, or a
program without the x86 baselines."""
import re
import shutil
import subprocess
import sys

SKIP = 77  # the test's SKIP_RETURN_CODE

FUNCTION = re.compile(r"^[0-9a-f]+ <(_ZN12_GLOBAL__N_1(\d+)((?:stream|hw_f16)\w*?)E\w*)>:$")
VECTOR = r"%[xyz]mm\d+"


def baseline_functions(binary):
    """{function name: [(address, instruction text)]} for the stream* and
    hw_f16* functions."""
    dump = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary],
                          check=True, capture_output=True, text=True).stdout
    functions, current = {}, None
    for line in dump.splitlines():
        m = FUNCTION.match(line)
        if m:
            current = m.group(3)
            functions[current] = []
        elif not line.strip():
            current = None
        elif current is not None and "\t" in line:
            address, text = line.split("\t", 1)
            functions[current].append((int(address.strip().rstrip(":"), 16), text.strip()))
    return functions


def main_loop(body):
    """The instructions of the first loop (a jump back to an earlier address
    of the function) that contains a ymm/zmm instruction."""
    addresses = [a for a, _ in body]
    for k, (address, text) in enumerate(body):
        m = re.match(r"j\w+\s+([0-9a-f]+) <", text)
        if m and int(m.group(1), 16) < address and int(m.group(1), 16) in addresses:
            loop = [t for _, t in body[addresses.index(int(m.group(1), 16)):k + 1]]
            if any(re.search(r"%[yz]mm", t) for t in loop):
                return loop
    return []


def check_forms(functions):
    failures = []
    for name, body in sorted(functions.items()):
        if not name.startswith("hw_f16"):
            continue
        body = main_loop(body)
        mnemonic = "vcvtps2ph" if "encode" in name else "vcvtph2ps"
        # The vector conversions (not the scalar tail's): a ymm/zmm source
        # (encode) or a ymm/zmm destination (decode).
        wide = [i for i in body if i.startswith(mnemonic) and
                re.search(r"%[yz]mm\d+" + ("," if "encode" in name else "$"), i)]
        if "encode" in name:
            in_memory = [i for i in wide if not re.search(VECTOR + "$", i)]
        else:
            in_memory = [i for i in wide if not re.match(mnemonic + r"\s+" + VECTOR + ",", i)]
        want_memory = name.startswith("hw_f16_mem")
        ok = len(wide) == 4 and len(in_memory) == (4 if want_memory else 0)
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {len(wide)} vector {mnemonic}, "
              f"{len(in_memory)} with a memory operand")
        if not ok:
            failures.append(name)
    return failures


def normalised(loop):
    # Addresses, offsets and register allocation may differ between two
    # builds of the same code; the instruction sequence must not.
    out = []
    for i in loop:
        if i.startswith("nop"):
            continue
        i = re.sub(r"<[^>]*>|-?0x[0-9a-f]+|\b[0-9a-f]{4,}\b", "#", i)
        i = re.sub(r"%([xyz]mm)\d+", r"\1", i)
        out.append(re.sub(r"%[re]?[a-z0-9]+", "r", i))
    return out


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    if shutil.which("objdump") is None:
        print("skipped: objdump (binutils) not found")
        sys.exit(SKIP)
    first = baseline_functions(sys.argv[1])
    if not any(n.startswith("hw_f16") for n in first):
        print(f"skipped: no hw_f16 baselines in {sys.argv[1]} (they are x86 only)")
        sys.exit(SKIP)
    failures = check_forms(first)
    if len(sys.argv) == 3:
        second = baseline_functions(sys.argv[2])
        failures += [f"{n} (in {sys.argv[2]})" for n in check_forms(second)]
        for name in sorted(first):
            loop = normalised(main_loop(first[name]))
            same = bool(loop) and name in second and loop == normalised(main_loop(second[name]))
            print(f"{'ok  ' if same else 'FAIL'} {name}: "
                  f"{'same' if same else 'different'} main loop in both programs "
                  f"({len(loop)} instructions)")
            if not same:
                failures.append(name)
    if failures:
        print("failed:", ", ".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
