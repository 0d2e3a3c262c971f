// Dumps what the library computes, as raw little-endian arrays on stdout, for
// the peer comparisons in this directory (Python scripts that put the same
// inputs through ml_dtypes and ONNX):
//
//   minifloat_peer_tables decode FORMAT
//       float32 of every encoding 0 .. 2^bits - 1 (static_cast<float>)
//   minifloat_peer_tables encode FORMAT saturating|non_saturating < float32 bits
//       uint16 code of mf::round_to<T>(x, nearest_even, overflow) per input
//   minifloat_peer_tables ops FORMAT
//       uint16 codes of a + b, a - b, a * b, a / b (the library's operators),
//       for every a (outer) and b (inner) of the format, one block per operator
//
// FORMAT is any name of a minifloat in include/minifloat/format_registry.hpp.
// Exit status 2 for a bad command line.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include <minifloat/minifloat.hpp>

#include <minifloat/format_registry.hpp>

#include "encoding_facts.hpp"

namespace {

template <class Value>
void write_all(const std::vector<Value>& values) {
  // The values are written as the machine holds them; every machine these
  // tests run on (x86-64, AArch64) is little-endian.
  std::fwrite(values.data(), sizeof(Value), values.size(), stdout);
}

template <class T>
void dump_decode() {
  using namespace minifloat_cli;
  std::vector<float> values(encoding_count<T>());
  for (std::uint32_t e = 0; e < encoding_count<T>(); ++e) values[e] = decode<T>(e);
  write_all(values);
}

template <class T>
void dump_encode(mf::overflow overflow) {
  std::vector<std::uint16_t> codes;
  std::uint32_t bits = 0;
  while (std::fread(&bits, sizeof bits, 1, stdin) == 1) {
    float x;
    std::memcpy(&x, &bits, sizeof x);
    codes.push_back(mf::round_to<T>(x, mf::rounding::nearest_even, overflow).bits());
  }
  write_all(codes);
}

template <class T>
void dump_ops() {
  using namespace minifloat_cli;
  using storage = typename T::storage_type;
  const std::uint32_t n = encoding_count<T>();
  std::vector<std::uint16_t> codes;
  codes.reserve(4u * n * n);
  for (int op = 0; op < 4; ++op) {
    for (std::uint32_t i = 0; i < n; ++i) {
      for (std::uint32_t j = 0; j < n; ++j) {
        const T a = T::from_bits(static_cast<storage>(i));
        const T b = T::from_bits(static_cast<storage>(j));
        const T r = op == 0 ? a + b : op == 1 ? a - b : op == 2 ? a * b : a / b;
        codes.push_back(r.bits());
      }
    }
  }
  write_all(codes);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string_view> args(argv + 1, argv + argc);
  if (args.size() < 2) {
    std::fprintf(stderr, "usage: minifloat_peer_tables decode|encode|ops FORMAT [OVERFLOW]\n");
    return 2;
  }
  bool ok = true;
  const std::optional<mf::format_id> format = mf::find_minifloat(args[1]);
  if (!format) {
    std::fprintf(stderr, "minifloat_peer_tables: unknown format\n");
    return 2;
  }
  mf::visit_minifloat(*format, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if (args[0] == "decode") {
      dump_decode<T>();
    } else if (args[0] == "encode" && args.size() == 3) {
      if (args[2] == "saturating") {
        dump_encode<T>(mf::overflow::saturating);
      } else if (args[2] == "non_saturating") {
        dump_encode<T>(mf::overflow::non_saturating);
      } else {
        ok = false;
      }
    } else if (args[0] == "ops") {
      dump_ops<T>();
    } else {
      ok = false;
    }
  });
  if (!ok) {
    std::fprintf(stderr, "minifloat_peer_tables: bad arguments\n");
    return 2;
  }
  return std::fflush(stdout) == 0 && !std::ferror(stdout) ? 0 : 3;
}
