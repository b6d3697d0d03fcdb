// The one odometer: a row-major position over the first `rank` dimensions of a loop nest
// (dimension rank - 1 fastest) that moves its callers' offsets as it counts, so that no element
// pays a division. Loop nests store their extents and strides in different shapes (Walk's arrays,
// kernel Loop records, a transposed schedule's innermost-first rows); each caller says how to read
// an extent and how to move its offsets along one dimension, and the counting is written here once.
//
//   extent(d) -> std::int64_t     the length of dimension d
//   move(d, steps)                add `steps` times dimension d's stride to every offset
//
// The step and the seek are always inlined: a kernel compiled for an instruction set (Highway's
// target attributes) does not inline a plain function otherwise, and the reduction kernels step
// once per reduced run.
#pragma once

#include <array>
#include <cstdint>

#include "einops/detail/walk.hpp"

namespace einops::detail {

/// Advances `index` by one position, carrying into slower dimensions, and the offsets with it.
/// Returns false after the last position, with `index` and the offsets back at the first.
template <class Extent, class Move>
[[gnu::always_inline]] inline bool odometer_step(int rank, std::int64_t* index, Extent&& extent, Move&& move) {
  for (int d = rank - 1; d >= 0; --d) {
    move(d, std::int64_t{1});
    if (++index[d] < extent(d)) return true;
    move(d, -extent(d));
    index[d] = 0;
  }
  return false;
}

/// Sets `index[0..rank)` to the digits of row-major `position` (one division per dimension until
/// the rest is 0; `index` need not be initialised) and moves the offsets there from the first
/// position.
template <class Extent, class Move>
[[gnu::always_inline]] inline void odometer_seek(int rank, std::int64_t position, std::int64_t* index, Extent&& extent,
                                                 Move&& move) {
  for (int d = rank - 1; d >= 0; --d) {
    if (position == 0) {
      index[d] = 0;
      continue;
    }
    const std::int64_t length = extent(d);
    index[d] = position % length;
    position /= length;
    move(d, index[d]);
  }
}

/// Calls `run(offset_a, offset_b)` once per innermost run of a walk: every position of its
/// dimensions but the innermost, with the two operands' offsets there.
template <class Run>
void for_each_run(int rank, const std::array<std::int64_t, kMaxRank>& extent,
                  const std::array<std::int64_t, kMaxRank>& stride_a,
                  const std::array<std::int64_t, kMaxRank>& stride_b, Run&& run) {
  std::array<std::int64_t, kMaxRank> index;
  std::int64_t offset_a = 0, offset_b = 0;
  const auto extent_of = [&](int d) { return extent[static_cast<std::size_t>(d)]; };
  const auto move = [&](int d, std::int64_t steps) {
    offset_a += steps * stride_a[static_cast<std::size_t>(d)];
    offset_b += steps * stride_b[static_cast<std::size_t>(d)];
  };
  odometer_seek(rank - 1, 0, index.data(), extent_of, move);
  do run(offset_a, offset_b);
  while (odometer_step(rank - 1, index.data(), extent_of, move));
}

}  // namespace einops::detail
