// minifloat's SystemVerilog package, for a simulator's -F (the path is
// relative to this file). Next to it, minifloat_verilator.f lists the
// package and the C library with absolute paths (docs/verification.md).
minifloat_pkg.sv
