// The layout transform of the packing (kernels/driver.hpp decodes a row
// of an operand with the library's bulk decoders, then hands it here),
// written once over a target's vector operations (no include guard: see
// generic/fma_tile.hpp) so that it runs with the target's instructions
// instead of the baseline's. The packed layouts are generic/fma_tile.hpp's.
// Copying and BF16 pairing change no bit: FP8 and BF16 values are
// BF16-exact, float -> double is exact.

// Ops::lanes values of `from` at column j, +0 past `columns` (and all +0
// for a null `from`).
template <class Ops>
MF_FORCE_INLINE typename Ops::vec load_columns(const float* from, std::size_t j,
                                               std::size_t columns) noexcept {
  constexpr std::size_t lanes = static_cast<std::size_t>(Ops::lanes);
  if (from == nullptr || j >= columns) return Ops::zero();
  if (j + lanes <= columns) return Ops::load_widened(from + j);
  float part[lanes] = {};
  for (std::size_t l = 0; j + l < columns; ++l) part[l] = from[j + l];
  return Ops::load_widened(part);
}

// One step of B into every micro-panel of a panel: `row` holds the step's
// `columns` decoded values (with Pairs, `odd` the next k's, or null past
// K's end: +0). Each micro-panel is `steps` steps of nr values; the step
// goes to panel + jr * steps + step * nr. Columns past the end are +0.
// Ops: a float_ops (float32 or pair words) or a double_ops (float64);
// nr is a multiple of Ops::lanes, so no vector crosses a micro-panel.
template <class Ops, bool Pairs>
void pack_b_step(const float* row, const float* odd, std::size_t columns,
                 std::size_t padded_columns, std::size_t nr, std::size_t steps, std::size_t step,
                 void* panel_bytes) noexcept {
  using vec = typename Ops::vec;
  using value = typename Ops::value;
  constexpr std::size_t lanes = static_cast<std::size_t>(Ops::lanes);
  auto* panel = static_cast<value*>(panel_bytes);
  for (std::size_t j = 0; j < padded_columns; j += lanes) {
    vec v = load_columns<Ops>(row, j, columns);
    if constexpr (Pairs) v = Ops::bf16_pairs(v, load_columns<Ops>(odd, j, columns));
    Ops::storeu(panel + b_panel_offset(j, nr, steps, step), v);
  }
}

// One row of an A block into its micro-panel: `row` holds `depth` decoded
// values (null: a padding row, +0), written as block_steps steps with a
// stride of mr (the row's place in the micro-panel is `tile`). With Pairs
// a step is the pair (2q, 2q + 1), the odd k past `depth` +0.
template <class Value, bool Pairs>
void pack_a_row(const float* row, std::size_t depth, std::size_t block_steps, std::size_t mr,
                void* tile_bytes) noexcept {
  auto* tile = static_cast<Value*>(tile_bytes);
  if (row == nullptr) {
    for (std::size_t q = 0; q < block_steps; ++q) tile[q * mr] = Value(0);
  } else if constexpr (Pairs) {
    for (std::size_t q = 0; q < block_steps; ++q) {
      const float odd = 2 * q + 1 < depth ? row[2 * q + 1] : 0.0f;
      tile[q * mr] = simd::scalar::float_ops::bf16_pairs(row[2 * q], odd);
    }
  } else {
    for (std::size_t q = 0; q < depth; ++q) tile[q * mr] = static_cast<Value>(row[q]);  // float -> double is exact
  }
}

// The packing functions of this target for a packed layout; Pairs: whether
// FloatOps has bf16_pairs (else the pair layout gets none here).
template <class FloatOps, class DoubleOps, bool Pairs>
packers packers_of(packing how) noexcept {
  switch (how) {
    case packing::float64: return {&pack_b_step<DoubleOps, false>, &pack_a_row<double, false>};
    case packing::bf16_pairs:
      if constexpr (Pairs) {
        return {&pack_b_step<FloatOps, true>, &pack_a_row<float, true>};
      } else {
        return {};
      }
    default: return {&pack_b_step<FloatOps, false>, &pack_a_row<float, false>};
  }
}
