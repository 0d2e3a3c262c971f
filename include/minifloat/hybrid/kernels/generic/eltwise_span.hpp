// The float32 arithmetic of the element-wise operations, written once over
// a target's float operations (no include guard: see generic/fma_tile.hpp).
// Per element, as the reference computes it (hybrid/eltwise.hpp):
//   add, sub   out = RN32(a * sa + b * sb), one rounding (sub: sb negated
//              by the caller); kernels/eltwise_path.hpp sends here only
//              scales for which b * sb is exact in float32, so the FMA's
//              one rounding is the reference's. Any NaN is the reference's
//              NaN, model_nan.
//   mul        out = RN32(RN32(a * b) * k), k = RN32(sa * sb) (passed as sa)
// b advances by b_step elements per element (0: one value for all).
// The vector body and the one-lane tail are this same source.

template <class Ops>
void eltwise_span(eltwise_op op, const float* a, const float* b, std::size_t b_step, float sa,
                  float sb, std::size_t count, float* out) noexcept {
  using vec = typename Ops::vec;
  constexpr std::size_t lanes = static_cast<std::size_t>(Ops::lanes);
  const vec scale_a = Ops::broadcast(sa);
  const vec scale_b = Ops::broadcast(sb);
  const vec nan = Ops::broadcast(model_nan);
  std::size_t i = 0;
  for (; i + lanes <= count; i += lanes) {
    const vec x = Ops::loadu(a + i);
    const vec y = b_step == 0 ? Ops::broadcast(b[0]) : Ops::loadu(b + i);
    if (op == eltwise_op::mul) {
      Ops::storeu(out + i, Ops::mul(Ops::mul(x, y), scale_a));
    } else {
      Ops::storeu(out + i, Ops::nan_to(Ops::fma(x, scale_a, Ops::mul(y, scale_b)), nan));
    }
  }
  if constexpr (lanes > 1) {
    if (i < count) {
      eltwise_span<simd::scalar::float_ops>(op, a + i, b_step == 0 ? b : b + i, b_step, sa, sb,
                                            count - i, out + i);
    }
  }
}
