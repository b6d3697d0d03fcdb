// The portable batched product: loops the compiler vectorises, used for integers and bool, for
// products too small for a BLAS call, and for float32/float64 when the build has no BLAS.
//
// Assumptions: extents are positive; strides are any (negative and zero included) for A and B;
// C does not overlap A or B. Each output element is accumulated over k in one fixed order.
// Accumulators (accumulator.hpp): floats in their own type (as BLAS does); integers in 32- or
// 64-bit unsigned arithmetic, whose wrap-around gives numpy's results without signed-overflow UB;
// bool as a count of true products (numpy's logical or of ands).
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "einops/detail/platform.hpp"
#include "einops/error.hpp"
#include "../kernels/parallel.hpp"
#include "accumulator.hpp"
#include "gemm.hpp"

namespace einops::detail::einsum {
namespace {

/// Rows of C computed together: each row of B is loaded once per block.
constexpr std::int64_t kRowBlock = 4;

/// One product C = A·B. `rows` has room for kRowBlock·n accumulators.
template <class T>
void gemm_one(const BatchedGemm& p, const T* a, const T* b, T* c, Accumulator<T>* __restrict rows) {
  using Acc = Accumulator<T>;
  const std::int64_t m = p.m, n = p.n, k = p.k;
  const std::int64_t ars = p.a_layout.row_stride, acs = p.a_layout.col_stride;
  const std::int64_t brs = p.b_layout.row_stride, bcs = p.b_layout.col_stride;
  const std::int64_t crs = p.c_layout.row_stride, ccs = p.c_layout.col_stride;
  const auto store = [&](std::int64_t i, const Acc* row) {
    T* ci = c + i * crs;
    if (ccs == 1)
      for (std::int64_t j = 0; j < n; ++j) ci[j] = finish<T>(row[j]);
    else
      for (std::int64_t j = 0; j < n; ++j) ci[j * ccs] = finish<T>(row[j]);
  };
  if (bcs == 1 || n == 1) {  // rows of B contiguous: C's rows accumulate a[i,kk] times B's row kk
    for (std::int64_t i0 = 0; i0 < m; i0 += kRowBlock) {
      const std::int64_t count = std::min(kRowBlock, m - i0);
      std::fill(rows, rows + count * n, Acc{0});
      const T* a0 = a + i0 * ars;
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const T* __restrict bk = b + kk * brs;
        if (count == kRowBlock) {
          const Acc s0 = static_cast<Acc>(a0[kk * acs]), s1 = static_cast<Acc>(a0[ars + kk * acs]);
          const Acc s2 = static_cast<Acc>(a0[2 * ars + kk * acs]), s3 = static_cast<Acc>(a0[3 * ars + kk * acs]);
          Acc* __restrict r0 = rows;
          Acc* __restrict r1 = rows + n;
          Acc* __restrict r2 = rows + 2 * n;
          Acc* __restrict r3 = rows + 3 * n;
          for (std::int64_t j = 0; j < n; ++j) {
            const Acc bj = static_cast<Acc>(bk[j]);
            r0[j] += s0 * bj;
            r1[j] += s1 * bj;
            r2[j] += s2 * bj;
            r3[j] += s3 * bj;
          }
        } else {
          for (std::int64_t r = 0; r < count; ++r) {
            const Acc scale = static_cast<Acc>(a0[r * ars + kk * acs]);
            Acc* __restrict row = rows + r * n;
            for (std::int64_t j = 0; j < n; ++j) row[j] += scale * static_cast<Acc>(bk[j]);
          }
        }
      }
      for (std::int64_t r = 0; r < count; ++r) store(i0 + r, rows + r * n);
    }
  } else if (brs == 1 && (acs == 1 || k == 1)) {  // columns of B and rows of A contiguous: dot products
    for (std::int64_t i = 0; i < m; ++i) {
      const T* ai = a + i * ars;
      for (std::int64_t j = 0; j < n; ++j) {
        const T* bj = b + j * bcs;
        Acc sum{0};
        for (std::int64_t kk = 0; kk < k; ++kk) sum += static_cast<Acc>(ai[kk]) * static_cast<Acc>(bj[kk]);
        rows[j] = sum;
      }
      store(i, rows);
    }
  } else {
    for (std::int64_t i = 0; i < m; ++i) {
      std::fill(rows, rows + n, Acc{0});
      for (std::int64_t kk = 0; kk < k; ++kk) {
        const Acc scale = static_cast<Acc>(a[i * ars + kk * acs]);
        const T* bk = b + kk * brs;
        for (std::int64_t j = 0; j < n; ++j) rows[j] += scale * static_cast<Acc>(bk[j * bcs]);
      }
      store(i, rows);
    }
  }
}

/// Batch elements are split into chunks of about this many multiply-adds for the thread pool;
/// the split depends on the problem alone, and each output element is still summed by one thread
/// in one order, so results do not depend on the thread count.
constexpr std::int64_t kChunkWork = std::int64_t{1} << 16;
constexpr std::int64_t kParallelMinWork = std::int64_t{1} << 18;

template <class T>
void loops(const BatchedGemm& problem, std::int64_t work) {
  const T* a = static_cast<const T*>(problem.a);
  const T* b = static_cast<const T*>(problem.b);
  T* c = static_cast<T*>(problem.c);
  const std::int64_t batch = problem.batch_count();
  const std::int64_t chunk = std::max<std::int64_t>(1, kChunkWork / std::max<std::int64_t>(work, 1));
  std::int64_t total = 0;
  const bool threads = batch > chunk && (checked_mul(work, batch, total) || total >= kParallelMinWork);
  parallel_for(batch, chunk, threads, [&](std::int64_t begin, std::int64_t end) {
    std::vector<Accumulator<T>> rows(static_cast<std::size_t>(kRowBlock * problem.n));
    for_each_batch(problem, begin, end, [&](std::int64_t a_offset, std::int64_t b_offset, std::int64_t c_offset) {
      gemm_one<T>(problem, a + a_offset, b + b_offset, c + c_offset, rows.data());
    });
  });
}

}  // namespace

void batched_gemm(DType type, const BatchedGemm& problem) {
  std::int64_t work = 0;  // multiply-adds per product, saturated
  if (checked_mul(problem.m, problem.n, work) || checked_mul(work, problem.k, work))
    work = std::numeric_limits<std::int64_t>::max() / 2;
  if (work >= kBlasMinWork && blas_batched_gemm(type, problem)) return;
  switch (type) {
    case DType::boolean: return loops<bool>(problem, work);
    case DType::int8: return loops<std::int8_t>(problem, work);
    case DType::int16: return loops<std::int16_t>(problem, work);
    case DType::int32: return loops<std::int32_t>(problem, work);
    case DType::int64: return loops<std::int64_t>(problem, work);
    case DType::uint8: return loops<std::uint8_t>(problem, work);
    case DType::uint16: return loops<std::uint16_t>(problem, work);
    case DType::uint32: return loops<std::uint32_t>(problem, work);
    case DType::uint64: return loops<std::uint64_t>(problem, work);
    case DType::float32: return loops<float>(problem, work);
    case DType::float64: return loops<double>(problem, work);
    default: throw EinopsError("einsum: no matrix product for dtype " + std::string(dtype_name(type)));
  }
}

}  // namespace einops::detail::einsum
