// Which kernel runs one pairwise contraction, decided when the plan is made (from labels and
// lengths alone, so that a cached plan keeps its choice):
//   matrix_product: a batched matrix product (gemm.hpp: BLAS for float32/float64), for products
//                   with a free axis on each side, where every element read is used many times;
//   small_product:  small_product.hpp, batched products whose every entry is small (attention
//                   over short sequences): register tiles per entry, no call per entry; element
//                   types it does not take (integers, bool) run in the matrix product's loops;
//   streaming:      stream.hpp, which reads both operands once, multiplies and reduces in
//                   registers: dot products along a shared axis, elementwise products, products
//                   summed over batch axes, matrix-vector products.
#pragma once

#include <cstdint>

#include "einops/dtype.hpp"

#include "term.hpp"

namespace einops::detail::einsum {

enum class Route : std::uint8_t { matrix_product, streaming, small_product };

/// The four groups of a contraction of terms with labels `a` and `b` into `result`, each as the
/// product of its labels' lengths: batch (a, b and result), m (a and result), n (b and result),
/// k (a and b, summed). Labels that only one side has and the result lacks are not counted (they
/// are summed away before the product).
struct ContractionSizes {
  double batch = 1, m = 1, n = 1, k = 1;
  bool m_free = false, n_free = false;  // whether a has an m label, b an n label
  /// Whether b's last label is a k label: a dense B is read along k (the keys of attention
  /// scores, `b h k d` in `b h q d, b h k d -> b h q k`), i.e. transposed for a product A·B.
  bool b_along_k = false;
};

ContractionSizes contraction_sizes(const Labels& a, const Labels& b, const Labels& result, const Extents& extent);

/// A product with free axes on both sides streams when each output element's dot product is long
/// (k at least this many elements) ...
inline constexpr double kStreamMinDepth = 64;
/// ... and the free axes are so short that a matrix product would reuse each element it reads
/// less than this many times more than streaming does: streaming computes m·n dot products of
/// length k from (m + n)·k elements read, and stays at memory bandwidth while the multiply-adds
/// per element, m·n / (m + n), stay within what the SIMD units do per element loaded (at most
/// kStreamMaxReuse; m = n = 4 gives 2).
inline constexpr double kStreamMaxReuse = 2;

/// A product with free axes on both sides that does not stream is a small product when each batch
/// entry has at most kSmallMaxWork multiply-adds (m·n·k) ...
inline constexpr double kSmallMaxWork = 64.0 * 64.0 * 64.0;
/// ... and B's panel (k·n elements, packed per entry) stays within this many elements: 16 KB of
/// float32, half of a 32 KB L1 data cache, so that it stays there while A's rows go by.
inline constexpr double kSmallMaxPanel = 64.0 * 64.0;
/// float32 and float64 products that BLAS takes (gemm.hpp's blas_takes) are small products only
/// below gemm.hpp's kBlasMinWork multiply-adds per entry, where the portable loops ran before:
/// from there on a BLAS call per entry, whose small-matrix kernels need no packing, measured at
/// least as fast as the register tiles (bench_einsum's small/ rows).
/// ... and, for float32 and float64 (whose other kernels are the portable loops or BLAS), when a
/// row of C spans at least this many bytes, one 256-bit vector: a shorter row leaves lanes of
/// every multiply-add idle, and the portable loops measured faster.
inline constexpr double kSmallMinRowBytes = 32;
/// float32 and float64 products whose B is read along k (ContractionSizes::b_along_k) are small
/// products up to kSmallAlongKMaxWork multiply-adds per entry when k is at most
/// kSmallAlongKMaxDepth: there BLAS runs its transposed-B kernel, and the tiles, which transpose B
/// into their panel once per entry, measured faster (bench_einsum's small/ rows, `tiles` against
/// `matrix_route`); with a longer k, or more work, BLAS's.
inline constexpr double kSmallAlongKMaxDepth = 16;
inline constexpr double kSmallAlongKMaxWork = 32.0 * 32.0 * 16.0;

/// The rule: no free axis on one side (or on either) -> streaming; free axes on both sides ->
/// streaming when k >= kStreamMinDepth and m·n <= kStreamMaxReuse·(m + n); otherwise, for the
/// element types small_product.hpp takes, small_product when m·n·k <= kSmallMaxWork (float32 and
/// float64 with BLAS: m·n·k < kBlasMinWork, or B read along k with k <= kSmallAlongKMaxDepth and
/// m·n·k <= kSmallAlongKMaxWork; and n·element size >= kSmallMinRowBytes) and k·n <=
/// kSmallMaxPanel; otherwise matrix_product.
Route choose_route(const ContractionSizes& sizes, DType type);

/// "matrix product", "streaming" or "small products", for messages and `einops explain`.
const char* route_name(Route route);

}  // namespace einops::detail::einsum
