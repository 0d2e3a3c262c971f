#!/usr/bin/env python3
"""Lists the library functions (namespace mf) that the -O2 build of a
benchmark calls from more places than the -O3 build: what g++ left out of
line at -O2, the candidates for forced inlining (docs/performance.md, "-O2
beside -O3").

    python3 bench/outlined_calls.py build/release/bench/minifloat_bench_stochastic \\
        build/release/bench/minifloat_bench_stochastic_o2

Needs objdump and c++filt (binutils). Counts are call sites in the program,
not calls at run time; a helper called once per vector inside a kernel's
loop is what costs speed (a function still called at -O3 may be called
there from a cold path only: read the loop to tell)."""
import collections
import re
import subprocess
import sys


def call_sites(binary):
    dump = subprocess.run(["objdump", "-d", "--no-show-raw-insn", binary],
                          check=True, capture_output=True, text=True).stdout
    return collections.Counter(re.findall(r"\scall\s+[0-9a-f]+ <(_ZN2mf[^>+]*)>", dump))


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    o3, o2 = call_sites(sys.argv[1]), call_sites(sys.argv[2])
    more = sorted(name for name in o2 if o2[name] > o3[name])
    names = subprocess.run(["c++filt", "-p"], input="\n".join(more), check=True,
                           capture_output=True, text=True).stdout.splitlines()
    print(f"called from more places at -O2 than at -O3 ({len(more)} functions; "
          "call sites at -O2 / -O3):")
    for mangled, name in sorted(zip(more, names), key=lambda p: p[1]):
        print(f"  {o2[mangled]:3d} / {o3[mangled]:<3d} {name}")


if __name__ == "__main__":
    main()
