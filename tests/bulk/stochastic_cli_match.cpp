// The bulk stochastic encode on every ISA gives the bits of the command-line
// tool's `minifloat encode FORMAT --round stochastic --seed N [--saturate]
// [--random-bits B]` (which rounds line i with
// mf::stochastic_random_bits(seed, i, B)).
//   minifloat_stochastic_cli_match <path to the minifloat tool> <work directory>
// The tool's input and output files go into the work directory (ctest passes
// the build tree, so a test run leaves the source tree untouched).
// Exit status 0 when all agree; the first difference is printed otherwise.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <minifloat/bulk.hpp>

namespace {

std::vector<float> inputs() {
  std::vector<float> v;
  std::mt19937 gen(31337);
  std::normal_distribution<float> normal(0.0f, 100.0f);
  for (int i = 0; i < 1500; ++i) v.push_back(normal(gen));
  for (int i = 0; i < 500; ++i) {
    const std::uint32_t bits = static_cast<std::uint32_t>(gen());
    float f;
    std::memcpy(&f, &bits, sizeof f);
    v.push_back(f);
  }
  return v;
}

template <class Fmt>
bool check(const std::string& tool, const std::string& directory, const char* format, std::uint64_t seed, bool saturate,
           int random_bits = 32) {
  const std::vector<float> in = inputs();
  const std::string input_path = directory + "/stochastic_cli_in_" + format + ".txt";
  const std::string output_path = directory + "/stochastic_cli_out_" + format + ".txt";
  {
    FILE* f = std::fopen(input_path.c_str(), "w");
    if (f == nullptr) return false;
    for (float x : in) {
      std::uint32_t bits;
      std::memcpy(&bits, &x, sizeof bits);
      std::fprintf(f, "0x%08" PRIx32 "\n", bits);
    }
    std::fclose(f);
  }
  const std::string command = "\"" + tool + "\" encode " + format +
                              " --round stochastic --seed " + std::to_string(seed) +
                              (saturate ? " --saturate" : "") + " --random-bits " +
                              std::to_string(random_bits) + " < \"" + input_path +
                              "\" > \"" + output_path + "\"";
  if (std::system(command.c_str()) != 0) {
    std::fprintf(stderr, "failed: %s\n", command.c_str());
    return false;
  }
  std::vector<unsigned> tool_codes;
  {
    FILE* f = std::fopen(output_path.c_str(), "r");
    if (f == nullptr) return false;
    unsigned code = 0;
    while (std::fscanf(f, "%x", &code) == 1) tool_codes.push_back(code);
    std::fclose(f);
  }
  if (tool_codes.size() != in.size()) {
    std::fprintf(stderr, "%s: the tool wrote %zu codes for %zu inputs\n", format,
                 tool_codes.size(), in.size());
    return false;
  }
  bool ok = true;
  for (mf::target::isa isa : {mf::target::isa::scalar, mf::target::isa::avx2, mf::target::isa::avx512,
                            mf::target::isa::neon}) {
    if (!mf::target::isa_supported(isa)) continue;
    mf::target::set_isa(isa);
    std::vector<typename Fmt::storage_type> out(in.size());
    mf::bulk::encode<Fmt>(
        in.data(), out.data(), in.size(),
        mf::conversion::stochastic({seed, 0, random_bits})
            .with_overflow(saturate ? mf::overflow::saturating : mf::overflow::non_saturating));
    for (std::size_t i = 0; i < in.size(); ++i) {
      if (out[i] != tool_codes[i]) {
        std::fprintf(stderr, "%s seed %" PRIu64 " bits %d %s: element %zu: bulk 0x%x, tool 0x%x\n",
                     format, seed, random_bits, mf::target::isa_name(isa), i,
                     static_cast<unsigned>(out[i]), tool_codes[i]);
        ok = false;
        break;
      }
    }
  }
  std::printf("%s seed %" PRIu64 "%s, %d random bits: %s\n", format, seed,
              saturate ? " saturating" : "", random_bits, ok ? "same bits" : "DIFFERENT");
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s <minifloat tool> <work directory>\n", argv[0]);
    return 2;
  }
  const std::string tool = argv[1];
  const std::string directory = argv[2];
  bool ok = true;
  ok &= check<mf::e4m3fn>(tool, directory, "e4m3fn", 1, false);
  ok &= check<mf::e4m3fn>(tool, directory, "e4m3fn", 0xDEADBEEFCAFEull, true);
  ok &= check<mf::e5m2>(tool, directory, "e5m2", 7, false);
  ok &= check<mf::e5m2>(tool, directory, "e5m2", 7, true);
  ok &= check<mf::e4m3fn>(tool, directory, "e4m3fn", 9, false, 16);
  ok &= check<mf::e5m2>(tool, directory, "e5m2", 9, true, 8);
  ok &= check<mf::e2m1fn>(tool, directory, "e2m1fn", 3, false);
  ok &= check<mf::bfloat16>(tool, directory, "bfloat16", 5, false);
  return ok ? 0 : 1;
}
