// Which scale (and zero point) each element of x uses: QuantizeLinear's
// three granularities, which DequantizeLinear shares.
//   per-tensor: the scale has one element;
//   per-axis:   block_size 0, a 1-D scale of length D_axis;
//   blocked:    block_size B > 0, the scale has x's shape except
//               S_axis = ceil(D_axis / B) there (any S_axis with
//               ceil(D/S) <= B <= ceil(D/(S-1)) - 1; the last block is
//               partial when B does not divide D).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "data_type.hpp"

namespace mf {
namespace onnx {

class scale_index_map {
 public:
  scale_index_map(const std::vector<std::int64_t>& x_shape,
                  const std::vector<std::int64_t>& scale_shape, std::int64_t axis,
                  std::int64_t block_size) {
    std::size_t scale_count = 1;
    for (const std::int64_t d : scale_shape) {
      if (d < 0) throw invalid_model("negative dimension in the scale's shape");
      scale_count *= static_cast<std::size_t>(d);
    }
    for (const std::int64_t d : x_shape) {
      if (d < 0) throw invalid_model("negative dimension in x's shape");
    }
    if (block_size < 0) throw invalid_model("block_size must not be negative");
    if (scale_count == 1 && block_size == 0) return;  // per-tensor (a scalar or [1])

    const std::int64_t rank = static_cast<std::int64_t>(x_shape.size());
    if (axis < -rank || axis >= rank) {
      throw invalid_model("axis " + std::to_string(axis) + " is outside [-r, r-1] for rank " +
                          std::to_string(rank));
    }
    const std::size_t a = static_cast<std::size_t>(axis < 0 ? axis + rank : axis);
    length_ = static_cast<std::size_t>(x_shape[a]);
    inner_ = 1;
    for (std::size_t k = a + 1; k < x_shape.size(); ++k) inner_ *= static_cast<std::size_t>(x_shape[k]);

    if (block_size == 0) {
      if (scale_shape.size() != 1 || static_cast<std::size_t>(scale_shape[0]) != length_) {
        throw invalid_model("per-axis quantization needs a 1-D scale of length " +
                            std::to_string(length_) + " (x's dimension on the axis)");
      }
      kind_ = per_axis;
      return;
    }
    if (scale_shape.size() != x_shape.size()) {
      throw invalid_model("blocked quantization needs a scale of x's rank");
    }
    for (std::size_t k = 0; k < x_shape.size(); ++k) {
      if (k != a && scale_shape[k] != x_shape[k]) {
        throw invalid_model("blocked quantization: the scale's shape must equal x's except on the axis");
      }
    }
    const std::int64_t d = x_shape[a], s = scale_shape[a], b = block_size;
    // The schema's accepted range [ceil(D/S), ceil(D/(S-1)) - 1].
    const bool ok = s > 0 && b >= (d + s - 1) / s && (s == 1 || b <= (d + s - 2) / (s - 1) - 1);
    if (!ok && !(d == 0 && s == 0)) {
      throw invalid_model("block_size " + std::to_string(b) + " does not fit dimension " +
                          std::to_string(d) + " with " + std::to_string(s) + " blocks");
    }
    kind_ = blocked;
    blocks_ = static_cast<std::size_t>(s);
    block_ = static_cast<std::size_t>(b);
  }

  // The index into the scale's (and zero point's) elements for x's element i
  // (row-major).
  std::size_t operator()(std::size_t i) const {
    switch (kind_) {
      case per_axis: return (i / inner_) % length_;
      case blocked: {
        const std::size_t c = (i / inner_) % length_;
        const std::size_t outer = i / (inner_ * length_);
        return (outer * blocks_ + c / block_) * inner_ + i % inner_;
      }
      default: return 0;
    }
  }

 private:
  enum kind_type { per_tensor, per_axis, blocked };
  kind_type kind_ = per_tensor;
  std::size_t length_ = 1, inner_ = 1, blocks_ = 1, block_ = 1;
};

}  // namespace onnx
}  // namespace mf
