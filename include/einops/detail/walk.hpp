// The memory walk every kernel executes: output extents with input and output strides, plus the
// reduced extents with their input strides. Fixed capacity, so building one never allocates.
#pragma once

#include <array>
#include <cstdint>
#include <utility>

#include "einops/detail/max_rank.hpp"
#include "einops/detail/platform.hpp"

namespace einops::detail {

/// |stride| without overflow: unsigned, so INT64_MIN (a stride the caller may pass) has one too.
constexpr std::uint64_t stride_magnitude(std::int64_t stride) noexcept {
  return stride < 0 ? 0 - static_cast<std::uint64_t>(stride) : static_cast<std::uint64_t>(stride);
}

struct Walk {
  int rank = 0;  // output dimensions, outermost first
  std::array<std::int64_t, kMaxRank> extent{};
  std::array<std::int64_t, kMaxRank> in_stride{};  // 0 for broadcast (added) axes
  std::array<std::int64_t, kMaxRank> out_stride{};
  int reduced_rank = 0;  // reduced dimensions, outermost first
  std::array<std::int64_t, kMaxRank> reduced_extent{};
  std::array<std::int64_t, kMaxRank> reduced_stride{};

  std::int64_t output_count() const {
    std::int64_t n = 1;
    for (int i = 0; i < rank; ++i) n *= extent[i];
    return n;
  }
  std::int64_t reduced_count() const {
    std::int64_t n = 1;
    for (int i = 0; i < reduced_rank; ++i) n *= reduced_extent[i];
    return n;
  }

  void push_output(std::int64_t length, std::int64_t input_stride, std::int64_t output_stride) {
    extent[rank] = length;
    in_stride[rank] = input_stride;
    out_stride[rank] = output_stride;
    ++rank;
  }
  void push_reduced(std::int64_t length, std::int64_t input_stride) {
    reduced_extent[reduced_rank] = length;
    reduced_stride[reduced_rank] = input_stride;
    ++reduced_rank;
  }

  /// Drops length-1 dimensions and merges each adjacent pair (i, i+1) whose strides show that
  /// they walk memory as one dimension. Reduced dimensions are first ordered by decreasing
  /// stride (a fixed order, so the summation order is a function of the plan and strides alone).
  /// An empty output or reduction keeps its zero extent so kernels see it.
  void merge() {
    int kept = 0;
    for (int i = 0; i < rank; ++i) {
      if (extent[i] == 1) continue;
      if (kept > 0 && continues(in_stride[kept - 1], in_stride[i], extent[i]) &&
          continues(out_stride[kept - 1], out_stride[i], extent[i])) {
        extent[kept - 1] *= extent[i];
        in_stride[kept - 1] = in_stride[i];
        out_stride[kept - 1] = out_stride[i];
        continue;
      }
      extent[kept] = extent[i];
      in_stride[kept] = in_stride[i];
      out_stride[kept] = out_stride[i];
      ++kept;
    }
    rank = kept;

    // Insertion sort by |stride| descending: ranks are small, and it is stable.
    for (int i = 1; i < reduced_rank; ++i) {
      for (int j = i; j > 0 && stride_magnitude(reduced_stride[j - 1]) < stride_magnitude(reduced_stride[j]); --j) {
        std::swap(reduced_stride[j - 1], reduced_stride[j]);
        std::swap(reduced_extent[j - 1], reduced_extent[j]);
      }
    }
    kept = 0;
    for (int i = 0; i < reduced_rank; ++i) {
      if (reduced_extent[i] == 1) continue;
      if (kept > 0 && continues(reduced_stride[kept - 1], reduced_stride[i], reduced_extent[i])) {
        reduced_extent[kept - 1] *= reduced_extent[i];
        reduced_stride[kept - 1] = reduced_stride[i];
        continue;
      }
      reduced_extent[kept] = reduced_extent[i];
      reduced_stride[kept] = reduced_stride[i];
      ++kept;
    }
    reduced_rank = kept;
  }

 private:
  /// outer == inner * extent, false when the product overflows (no real walk has such strides).
  static bool continues(std::int64_t outer, std::int64_t inner, std::int64_t extent) {
    std::int64_t product = 0;
    return !checked_mul(inner, extent, product) && outer == product;
  }
};

}  // namespace einops::detail
