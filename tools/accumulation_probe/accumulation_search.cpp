// Reads a record of the accumulation probe (cublaslt_accumulation.cpp, run
// where a GPU is) and scores every candidate model on it: the search needs
// no GPU, so a record made once can be studied anywhere.
//
//   minifloat_accumulation_search RECORD [--shown N] [--threads T]
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <string>
#include <thread>

#include "accumulation_probe.hpp"

namespace probe = mf_accumulation_probe;

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s RECORD [--shown N] [--threads T]\n", argv[0]);
    return 2;
  }
  std::size_t shown = 8;
  unsigned threads = std::thread::hardware_concurrency();
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string option = argv[i];
    if (option == "--shown") {
      shown = std::strtoul(argv[i + 1], nullptr, 10);
    } else if (option == "--threads") {
      threads = static_cast<unsigned>(std::strtoul(argv[i + 1], nullptr, 10));
    } else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  try {
    std::ifstream in(argv[1]);
    if (!in) {
      std::fprintf(stderr, "cannot read %s\n", argv[1]);
      return 2;
    }
    std::string device;
    const auto cases = probe::read_record(in, device);
    std::cout << "device: " << device << '\n';
    probe::report(std::cout, cases, probe::candidate_models(), threads, shown);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  return 0;
}
