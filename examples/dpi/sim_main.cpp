// Verilator driver of tb_fp8: toggles the clock until the testbench
// finishes. Exit status 0 when the unit matched the model on every check;
// with +expect_mismatches (the planted-bug run) 0 only when the testbench
// finished AND reported mismatches, so that run fails if the check cannot.
#include <cstdio>
#include <memory>

#include "Vtb_fp8.h"
#include "Vtb_fp8__Dpi.h"  // the DPI prototypes Verilator derived from minifloat_pkg.sv
#include "verilated.h"

// Included after Verilator's prototypes: a type in the package that did
// not match c_api.h would be a conflicting declaration here.
#include <minifloat/c_api.h>

int main(int argc, char** argv) {
  const auto context = std::make_unique<VerilatedContext>();
  context->commandArgs(argc, argv);
  const auto tb = std::make_unique<Vtb_fp8>(context.get());
  tb->clk = 0;
  while (!context->gotFinish()) {
    tb->clk = !tb->clk;
    tb->eval();
  }
  tb->final();
  const bool expect_mismatches = context->commandArgsPlusMatch("expect_mismatches")[0] != '\0';
  if (!tb->done || tb->checks == 0) {
    std::fprintf(stderr, "tb_fp8: did not finish\n");
    return 2;
  }
  if (expect_mismatches) {
    std::printf("tb_fp8: planted bug %s\n", tb->mismatches ? "reported" : "NOT reported");
    return tb->mismatches ? 0 : 1;
  }
  return tb->mismatches ? 1 : 0;
}
