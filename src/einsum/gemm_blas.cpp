// The BLAS path of batched_gemm: one cblas_sgemm/cblas_dgemm call per batch element, on the
// operands' own memory whenever their strides allow (a transposed operand is passed as such, not
// copied). A C whose columns, not rows, are contiguous is computed as C^T = B^T · A^T. Operands
// BLAS cannot address (negative, zero or interleaved strides) are packed per batch element into a
// contiguous buffer; so is a C it cannot write. Only the plain CBLAS interface is used (int sizes
// and leading dimensions, checked to fit), so that any BLAS with a cblas.h serves.
#include <climits>
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

#include "gemm.hpp"

#ifdef EINOPS_HAVE_CBLAS
#include <cblas.h>
#endif

namespace einops::detail::einsum {

#ifdef EINOPS_HAVE_CBLAS
namespace {

bool fits_int(std::int64_t value) { return value >= 0 && value <= INT_MAX; }

/// The leading dimension of a rows x cols matrix stored row-major (unit column stride), if it is.
std::optional<std::int64_t> row_major_ld(std::int64_t rows, std::int64_t cols, MatrixLayout layout) {
  const std::int64_t min_ld = cols > 1 ? cols : 1;
  if (cols != 1 && layout.col_stride != 1) return std::nullopt;
  if (rows == 1) return min_ld;
  if (layout.row_stride < min_ld || !fits_int(layout.row_stride)) return std::nullopt;
  return layout.row_stride;
}

MatrixLayout transposed(MatrixLayout layout) { return {layout.col_stride, layout.row_stride}; }

struct BlasOperand {
  CBLAS_TRANSPOSE transpose = CblasNoTrans;
  int ld = 1;
};

/// How BLAS reads a rows x cols operand in place: as stored, or as the transpose of a row-major
/// cols x rows matrix.
std::optional<BlasOperand> blas_operand(std::int64_t rows, std::int64_t cols, MatrixLayout layout) {
  if (auto ld = row_major_ld(rows, cols, layout)) return BlasOperand{CblasNoTrans, static_cast<int>(*ld)};
  if (auto ld = row_major_ld(cols, rows, transposed(layout))) return BlasOperand{CblasTrans, static_cast<int>(*ld)};
  return std::nullopt;
}

template <class T>
void gemm_call(CBLAS_TRANSPOSE ta, CBLAS_TRANSPOSE tb, int m, int n, int k, const T* a, int lda, const T* b, int ldb,
               T* c, int ldc) {
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasRowMajor, ta, tb, m, n, k, 1.0f, a, lda, b, ldb, 0.0f, c, ldc);
  else cblas_dgemm(CblasRowMajor, ta, tb, m, n, k, 1.0, a, lda, b, ldb, 0.0, c, ldc);
}

/// Copies a strided rows x cols matrix into contiguous row-major `out`.
template <class T>
void pack(const T* in, std::int64_t rows, std::int64_t cols, MatrixLayout layout, T* out) {
  for (std::int64_t r = 0; r < rows; ++r)
    for (std::int64_t c = 0; c < cols; ++c) out[r * cols + c] = in[r * layout.row_stride + c * layout.col_stride];
}

template <class T>
bool run(const BatchedGemm& problem) {
  if (!fits_int(problem.m) || !fits_int(problem.n) || !fits_int(problem.k)) return false;
  // BLAS writes C row-major; a column-major C is the transposed product.
  BatchedGemm p = problem;
  if (!row_major_ld(p.m, p.n, p.c_layout) && row_major_ld(p.n, p.m, transposed(p.c_layout)))
    p = transposed_product(problem);
  const auto m = static_cast<int>(p.m), n = static_cast<int>(p.n), k = static_cast<int>(p.k);

  const std::optional<BlasOperand> a_in_place = blas_operand(p.m, p.k, p.a_layout);
  const std::optional<BlasOperand> b_in_place = blas_operand(p.k, p.n, p.b_layout);
  const std::optional<std::int64_t> c_in_place = row_major_ld(p.m, p.n, p.c_layout);
  std::vector<T> a_buffer(a_in_place ? 0 : static_cast<std::size_t>(p.m * p.k));
  std::vector<T> b_buffer(b_in_place ? 0 : static_cast<std::size_t>(p.k * p.n));
  std::vector<T> c_buffer(c_in_place ? 0 : static_cast<std::size_t>(p.m * p.n));
  const BlasOperand a_op = a_in_place.value_or(BlasOperand{CblasNoTrans, k});
  const BlasOperand b_op = b_in_place.value_or(BlasOperand{CblasNoTrans, n});
  const auto ldc = static_cast<int>(c_in_place.value_or(p.n));

  const T* a = static_cast<const T*>(p.a);
  const T* b = static_cast<const T*>(p.b);
  T* c = static_cast<T*>(p.c);
  for_each_batch(p, 0, p.batch_count(), [&](std::int64_t a_offset, std::int64_t b_offset, std::int64_t c_offset) {
    const T* a_item = a + a_offset;
    const T* b_item = b + b_offset;
    if (!a_in_place) {
      pack(a_item, p.m, p.k, p.a_layout, a_buffer.data());
      a_item = a_buffer.data();
    }
    if (!b_in_place) {
      pack(b_item, p.k, p.n, p.b_layout, b_buffer.data());
      b_item = b_buffer.data();
    }
    T* c_item = c_in_place ? c + c_offset : c_buffer.data();
    gemm_call<T>(a_op.transpose, b_op.transpose, m, n, k, a_item, a_op.ld, b_item, b_op.ld, c_item, ldc);
    if (!c_in_place)
      for (std::int64_t r = 0; r < p.m; ++r)
        for (std::int64_t col = 0; col < p.n; ++col)
          c[c_offset + r * p.c_layout.row_stride + col * p.c_layout.col_stride] =
              c_buffer[static_cast<std::size_t>(r * p.n + col)];
  });
  return true;
}

}  // namespace

bool blas_batched_gemm(DType type, const BatchedGemm& problem) {
  if (type == DType::float32) return run<float>(problem);
  if (type == DType::float64) return run<double>(problem);
  return false;
}

bool blas_takes(DType type) { return type == DType::float32 || type == DType::float64; }

#else

bool blas_batched_gemm(DType, const BatchedGemm&) { return false; }

bool blas_takes(DType) { return false; }

#endif

}  // namespace einops::detail::einsum
