// Batched matrix products on strided memory: C[b] = A[b] · B[b] for every batch index b, with C
// overwritten. The einsum contraction maps every pair of operands onto one of these.
//
// float32 and float64 go to BLAS (cblas_sgemm/dgemm) when the product is large enough to pay for
// the call; operands whose strides BLAS cannot take are packed per batch element first. Smaller
// products, other element types and builds without BLAS use the loops in gemm.cpp.
#pragma once

#include <array>
#include <cstdint>

#include "einops/detail/walk.hpp"
#include "../odometer.hpp"
#include "einops/dtype.hpp"

namespace einops::detail::einsum {

/// Row and column strides of an m x n matrix, in elements.
struct MatrixLayout {
  std::int64_t row_stride = 0;
  std::int64_t col_stride = 0;
};

struct BatchedGemm {
  std::int64_t m = 1, n = 1, k = 1;
  const void* a = nullptr;  // m x k
  MatrixLayout a_layout;
  const void* b = nullptr;  // k x n
  MatrixLayout b_layout;
  void* c = nullptr;  // m x n
  MatrixLayout c_layout;
  int batch_rank = 0;
  std::array<std::int64_t, kMaxRank> batch_extent{};
  std::array<std::int64_t, kMaxRank> a_batch_stride{}, b_batch_stride{}, c_batch_stride{};

  void push_batch(std::int64_t extent, std::int64_t a_stride, std::int64_t b_stride, std::int64_t c_stride) {
    batch_extent[static_cast<std::size_t>(batch_rank)] = extent;
    a_batch_stride[static_cast<std::size_t>(batch_rank)] = a_stride;
    b_batch_stride[static_cast<std::size_t>(batch_rank)] = b_stride;
    c_batch_stride[static_cast<std::size_t>(batch_rank)] = c_stride;
    ++batch_rank;
  }
  std::int64_t batch_count() const {
    std::int64_t count = 1;
    for (int i = 0; i < batch_rank; ++i) count *= batch_extent[static_cast<std::size_t>(i)];
    return count;
  }
};

/// C^T = B^T · A^T: the same product with the roles of rows and columns exchanged (for kernels
/// that write C along its rows, when C's columns are the contiguous ones).
inline BatchedGemm transposed_product(const BatchedGemm& p) {
  const auto swapped = [](MatrixLayout layout) { return MatrixLayout{layout.col_stride, layout.row_stride}; };
  BatchedGemm t = p;
  t.m = p.n;
  t.n = p.m;
  t.a = p.b;
  t.a_layout = swapped(p.b_layout);
  t.b = p.a;
  t.b_layout = swapped(p.a_layout);
  t.c_layout = swapped(p.c_layout);
  t.a_batch_stride = p.b_batch_stride;
  t.b_batch_stride = p.a_batch_stride;
  return t;
}

/// Calls `run(a_offset, b_offset, c_offset)` (in elements) for the batch elements [begin, end) in
/// row-major order of the batch dimensions.
template <class Run>
void for_each_batch(const BatchedGemm& problem, std::int64_t begin, std::int64_t end, Run&& run) {
  if (begin >= end) return;
  std::array<std::int64_t, kMaxRank> index;  // set by the seek
  std::int64_t a = 0, b = 0, c = 0;
  const auto extent = [&](int d) { return problem.batch_extent[static_cast<std::size_t>(d)]; };
  const auto move = [&](int d, std::int64_t steps) {
    const auto i = static_cast<std::size_t>(d);
    a += steps * problem.a_batch_stride[i];
    b += steps * problem.b_batch_stride[i];
    c += steps * problem.c_batch_stride[i];
  };
  odometer_seek(problem.batch_rank, begin, index.data(), extent, move);
  for (std::int64_t n = begin; n < end; ++n) {
    run(a, b, c);
    odometer_step(problem.batch_rank, index.data(), extent, move);
  }
}

/// Runs the products for any element type of the library but the 16-bit floats (einsum computes
/// those in float32). All extents are positive; A and B do not overlap C.
void batched_gemm(DType type, const BatchedGemm& problem);

/// Products of at least this many multiply-adds (m·n·k) go to BLAS; smaller ones cost less in
/// the loops than a BLAS call costs in setup (the crossover bench_einsum measures).
inline constexpr std::int64_t kBlasMinWork = 8 * 8 * 8;

/// The BLAS path (gemm_blas.cpp): false when this build has no BLAS or `type` is not float32/64.
bool blas_batched_gemm(DType type, const BatchedGemm& problem);

/// Whether blas_batched_gemm takes products of `type` in this build.
bool blas_takes(DType type);

}  // namespace einops::detail::einsum
