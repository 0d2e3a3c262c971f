// vectors: golden float32 -> FORMAT conversion vectors, reproducible from
// (format, mode, overflow, seed, count) and the library version.
#include <cstdint>
#include <string>

#include <minifloat/random.hpp>

#include "boundary_set.hpp"
#include "commands.hpp"
#include "encoding_facts.hpp"
#include "line_io.hpp"

namespace minifloat_cli {
namespace {

// The random inputs come from the Philox stream of the --seed value xored
// with this constant (2^64 / golden ratio), so they are independent of the
// stochastic-rounding words, which use the --seed value itself.
constexpr std::uint64_t random_input_stream = 0x9E3779B97F4A7C15u;

template <class T>
void write_vectors(const options& o, std::string_view name) {
  const std::vector<std::uint32_t> structured = boundary_inputs<T>();
  // Line i is numbered in 64 bits (it indexes the Philox stream): a total
  // that does not fit would wrap and print fewer vectors than asked for.
  const std::uint64_t most_lines = ~std::uint64_t{0};
  const std::uint64_t largest_count = most_lines - structured.size();
  if (o.count > largest_count) {
    throw usage_error("--count " + std::to_string(o.count) + " is too large: " +
                      std::string(name) + " has " + std::to_string(structured.size()) +
                      " structured inputs and the total must fit in 64 bits, so --count is "
                      "at most 2^64 - 1 - " + std::to_string(structured.size()) + " = " +
                      std::to_string(largest_count));
  }
  output_buffer out(stdout);
  const bool stochastic = o.mode == rounding_mode::stochastic;
  const mf::rounding rounding = library_rounding(o.mode);
  const mf::overflow overflow = library_overflow(o);

  const auto comment = [&](const std::string& text) {
    out.write("# ");
    out.write(text);
    out.put('\n');
  };
  comment("minifloat vectors: float32 -> " + std::string(name));
  comment("format: " + std::string(name));
  comment("rounding: " + std::string(mode_name(o.mode)));
  comment(std::string("overflow: ") + (o.saturate ? "saturating" : "non-saturating"));
  comment("seed: " + std::to_string(o.seed));
  comment("count: " + std::to_string(o.count));
  comment("library: minifloat " MINIFLOAT_VERSION_STRING);
  comment("inputs: " + std::to_string(structured.size()) +
          " structured (see 'minifloat vectors --help'), then count random: input i "
          "has bits stochastic_random_word(seed ^ 0x9e3779b97f4a7c15, i)");
  if (stochastic) {
    comment("stochastic rounding: line i (0-based, all lines) uses "
            "stochastic_random_bits(seed, i, random_bits)");
    comment("random_bits: " + std::to_string(o.random_bits));
  }
  if (o.csv) {
    out.write("input_bits,output_bits,class\n");
  } else {
    comment("columns: input_bits,output_bits");
  }

  const std::uint64_t total = structured.size() + o.count;
  for (std::uint64_t i = 0; i < total; ++i) {
    const std::uint32_t input =
        i < structured.size()
            ? structured[i]
            : mf::stochastic_random_word(o.seed ^ random_input_stream, i - structured.size());
    const float value = mf::detail::bit_cast<float>(input);
    const T result = stochastic
                         ? mf::round_to_stochastic<T>(
                               value, mf::stochastic_random_bits(o.seed, i, o.random_bits),
                               overflow, o.random_bits)
                         : mf::round_to<T>(value, rounding, overflow);
    out.write_hex(input, 8);
    out.put(',');
    out.write_hex(result.bits(), hex_digits<T>());
    if (o.csv) {
      out.put(',');
      out.write(class_name(classify<T>(result.bits())));
    }
    out.put('\n');
  }
}

}  // namespace

int run_vectors(const options& o) {
  mf::visit_minifloat(o.format, [&](auto tag) {
    write_vectors<typename decltype(tag)::type>(o, mf::canonical_name(tag.id));
  });
  return 0;
}

}  // namespace minifloat_cli
