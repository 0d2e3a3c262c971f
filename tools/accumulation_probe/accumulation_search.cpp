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

namespace {

// A whole positive number, or 0 where `text` is not one.
unsigned long count_from(const char* text) {
  char* end = nullptr;
  const unsigned long v = std::strtoul(text, &end, 10);
  return end != text && *end == '\0' ? v : 0;
}

}  // namespace

int main(int argc, char** argv) {
  const auto usage = [&]() {
    std::fprintf(stderr, "usage: %s RECORD [--shown N] [--threads T]\n", argv[0]);
    return 2;
  };
  if (argc < 2 || argc % 2 != 0) return usage();
  std::size_t shown = 8;
  unsigned threads = std::thread::hardware_concurrency();
  for (int i = 2; i < argc; i += 2) {
    const std::string option = argv[i];
    const unsigned long value = count_from(argv[i + 1]);
    if (value == 0 || (option != "--shown" && option != "--threads")) return usage();
    if (option == "--shown") {
      shown = value;
    } else {
      threads = static_cast<unsigned>(value);
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
