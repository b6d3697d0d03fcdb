// Iterates every dimension of a walk but the innermost with running offsets (no division or
// modulo per element), calling `run(offset_a, offset_b)` once per innermost run.
#pragma once

#include <array>
#include <cstdint>

#include "einops/detail/walk.hpp"

namespace einops::detail {

template <class Run>
void for_each_run(int rank, const std::array<std::int64_t, kMaxRank>& extent,
                  const std::array<std::int64_t, kMaxRank>& stride_a,
                  const std::array<std::int64_t, kMaxRank>& stride_b, Run&& run) {
  const int outer = rank - 1;  // dimensions walked by the odometer
  if (outer <= 0) {
    run(std::int64_t{0}, std::int64_t{0});
    return;
  }
  std::array<std::int64_t, kMaxRank> index{};
  std::int64_t offset_a = 0, offset_b = 0;
  for (;;) {
    run(offset_a, offset_b);
    int d = outer - 1;
    for (; d >= 0; --d) {
      offset_a += stride_a[d];
      offset_b += stride_b[d];
      if (++index[d] < extent[d]) break;
      offset_a -= stride_a[d] * extent[d];
      offset_b -= stride_b[d] * extent[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace einops::detail
