// A term of an einsum: one operand or intermediate seen as distinct labels with a stride each.
// A diagonal (a label repeated in an operand) is one label whose stride is the sum of the
// dimensions' strides; dimensions of length 1 carry no index and are dropped.
#pragma once

#include <cstdint>
#include <vector>

#include "einops/dtype.hpp"
#include "einops/storage.hpp"

namespace einops::detail::einsum {

using Labels = std::vector<int>;
using Extents = std::vector<std::int64_t>;  // per label

struct Term {
  DType dtype = DType::float32;
  void* data = nullptr;               // inputs are only read; intermediates and the output are written
  Labels labels;                      // distinct, each of length > 1
  std::vector<std::int64_t> strides;  // in elements, one per label
  Storage storage;                    // keeps an intermediate alive

  bool has(int label) const {
    for (int mine : labels)
      if (mine == label) return true;
    return false;
  }
  std::int64_t stride_of(int label) const {
    for (std::size_t i = 0; i < labels.size(); ++i)
      if (labels[i] == label) return strides[i];
    return 0;
  }
};

inline bool contains(const Labels& labels, int label) {
  for (int mine : labels)
    if (mine == label) return true;
  return false;
}

}  // namespace einops::detail::einsum
