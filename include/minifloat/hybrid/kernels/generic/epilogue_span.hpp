// The float32 post-processing of a run of one row's accumulators, written
// once over a target's float operations (no include guard: see
// generic/fma_tile.hpp). Per element (docs/hybrid.md, "Post-processing"):
//   acc   the model's accumulator, any NaN made the one model NaN
//   y1 = RN32(acc * RN32(sa * sb))   (placement::operands: y1 = acc)
//   y2 = RN32(y1 + bias)             (amax reads y2)
//   y3 = RN32(y2 * output) or RN32(y2 / output)
// The vector body and the one-lane tail are this same source.

template <class Ops>
void epilogue_span(const scale_options& s, const float* acc, std::size_t i,
                   std::size_t first_column, std::size_t count, float* y3,
                   hybrid::detail::amax_tracker& amax) noexcept {
  using vec = typename Ops::vec;
  constexpr std::size_t lanes = static_cast<std::size_t>(Ops::lanes);
  const bool operands = s.where == placement::operands;
  const bool multiply = s.output_rule == output_scale_rule::multiply;
  const vec sa = Ops::broadcast(s.a_rows ? s.a_rows[i] : s.a);
  const vec output = Ops::broadcast(s.output);
  const vec nan = Ops::broadcast(model_nan);
  vec largest = Ops::zero();  // max |y2| over the non-NaN y2, per lane
  bool any_nan = false;
  std::size_t c = 0;
  for (; c + lanes <= count; c += lanes) {
    const std::size_t j = first_column + c;
    const vec sum = Ops::nan_to(Ops::loadu(acc + c), nan);
    vec y2 = sum;
    if (!operands) {
      const vec sb = s.b_columns ? Ops::loadu(s.b_columns + j) : Ops::broadcast(s.b);
      y2 = Ops::mul(sum, Ops::mul(sa, sb));
    }
    if (s.bias) y2 = Ops::add(y2, Ops::loadu(s.bias + j));
    any_nan = any_nan || Ops::any_nan(y2);
    largest = Ops::max(Ops::abs(y2), largest);  // largest when |y2| is NaN
    Ops::storeu(y3 + c, multiply ? Ops::mul(y2, output) : Ops::div(y2, output));
  }
  hybrid::detail::amax_tracker run;
  run.largest = Ops::reduce_max(largest);
  run.any_nan = any_nan;
  amax.merge(run);
  if constexpr (lanes > 1) {
    if (c < count) {
      epilogue_span<simd::scalar::float_ops>(s, acc + c, i, first_column + c, count - c, y3 + c,
                                             amax);
    }
  }
}
