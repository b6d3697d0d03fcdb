// The small-product kernel (small_product.hpp), compiled once per instruction set (Highway) and
// chosen at run time.
// Assumptions: vectors are capped at 256 bits (a tile of one 512-bit vector would waste half its
// lanes on the common n = 8); the tiles' register budget is 16 vector registers, 32 on AVX-512
// targets; B's packed rows hold whole vectors, zero beyond n, so every load of B is a full vector
// inside the buffer; a tile whose columns reach past n, or whose C is not contiguous
// float32/float64 along n, is written through a small aligned buffer, narrowed to the element
// type there (half_convert-inl.h).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "../kernels/parallel.hpp"
#include "../kernels/prefetch.hpp"
#include "../kernels/reduce_ops.hpp"
#include "../kernels/simd_dispatch.hpp"
#include "small_product.hpp"

#include "../kernels/hwy_config.hpp"
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "einsum/small_product_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/highway.h>

#include "../kernels/half_convert-inl.h"
#include "../kernels/widen_load-inl.h"

HWY_BEFORE_NAMESPACE();
namespace einops::detail::einsum::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;
using detail::HWY_NAMESPACE::FloatToHalfLanes;
using detail::HWY_NAMESPACE::LoadWide;

template <class C>
using SmallTag = hn::CappedTag<C, 32 / sizeof(C)>;

/// Bytes of a cache line: the step of the prefetches.
constexpr std::int64_t kLineBytes = 64;

/// This target's tile budget: AVX-512 targets have 32 vector registers (also at 256 bits), twice
/// the accumulators of the others' 16 (small_product.hpp).
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
constexpr int kTargetAccumulators = 2 * kTileAccumulators;
constexpr int kTargetVectors = kMaxTileVectors;
constexpr int kTargetRows = kMaxTileRows;
#else
constexpr int kTargetAccumulators = kTileAccumulators;
constexpr int kTargetVectors = 3;
constexpr int kTargetRows = 8;
#endif

/// Rows of a tile `vectors` wide: kTargetAccumulators accumulators, at most kTargetRows rows.
constexpr int TileRows(int vectors) { return std::min(kTargetRows, kTargetAccumulators / vectors); }

/// One entry's operands as the tiles read them (C: float or double).
template <class C>
struct Operands {
  const C* a = nullptr;  // A[i, kk] at a[i * a_row + kk * a_col]
  std::int64_t a_row = 0, a_col = 0;
  const C* b = nullptr;  // B[kk, j] at b[kk * b_row + j]; whole vectors, zero beyond n
  std::int64_t b_row = 0;
  std::int64_t k = 0;
};

/// Rows [i0, i0 + kRows) by columns [j0, j0 + kVecs·N) of C = A·B, stored as full vectors at
/// out[r * out_row + v * N]: the accumulators stay in registers across all of k.
template <int kRows, int kVecs, class C>
void Tile(const Operands<C>& p, std::int64_t i0, std::int64_t j0, C* HWY_RESTRICT out, std::int64_t out_row) {
  const SmallTag<C> d;
  using V = hn::Vec<decltype(d)>;
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  V acc[kRows][kVecs];
  for (auto& row : acc)
    for (auto& v : row) v = hn::Zero(d);
  const C* HWY_RESTRICT rows[kRows];
  for (int r = 0; r < kRows; ++r) rows[r] = p.a + (i0 + r) * p.a_row;
  const C* HWY_RESTRICT b = p.b + j0;
  const std::int64_t a_col = p.a_col, b_row = p.b_row;
  for (std::int64_t kk = 0; kk < p.k; ++kk, b += b_row) {
    V vb[kVecs];
    for (int v = 0; v < kVecs; ++v) vb[v] = hn::LoadU(d, b + v * N);
    const std::int64_t at = kk * a_col;
    for (int r = 0; r < kRows; ++r) {
      const V va = hn::Set(d, rows[r][at]);
      for (int v = 0; v < kVecs; ++v) acc[r][v] = hn::MulAdd(va, vb[v], acc[r][v]);
    }
  }
  for (int r = 0; r < kRows; ++r)
    for (int v = 0; v < kVecs; ++v) hn::StoreU(acc[r][v], d, out + r * out_row + v * N);
}

template <class C>
using TileFn = void (*)(const Operands<C>&, std::int64_t, std::int64_t, C* HWY_RESTRICT, std::int64_t);

/// The tiles kVecs vectors wide, by their number of rows (index rows - 1; null beyond TileRows).
template <int kVecs, class C, std::size_t... kIndex>
constexpr std::array<TileFn<C>, kMaxTileRows> TilesOfWidth(std::index_sequence<kIndex...>) {
  return {(static_cast<int>(kIndex) < TileRows(kVecs) ? &Tile<static_cast<int>(kIndex) + 1, kVecs, C> : nullptr)...};
}

template <class C, std::size_t... kWidth>
constexpr std::array<std::array<TileFn<C>, kMaxTileRows>, sizeof...(kWidth)> TileTable(std::index_sequence<kWidth...>) {
  return {TilesOfWidth<static_cast<int>(kWidth) + 1, C>(std::make_index_sequence<kMaxTileRows>())...};
}

template <class C>
TileFn<C> TileFor(int rows, int vectors) {
  static constexpr auto kTiles = TileTable<C>(std::make_index_sequence<kTargetVectors>());
  return kTiles[static_cast<std::size_t>(vectors - 1)][static_cast<std::size_t>(rows - 1)];
}

/// One element of T as C (16-bit floats widened exactly).
template <class C, class T>
HWY_INLINE C Widen(T x) {
  return static_cast<C>(x);
}

/// `count` elements `stride` apart from `in`, widened into contiguous `out`.
template <class C, class T>
void WidenRow(const T* in, std::int64_t count, std::int64_t stride, C* HWY_RESTRICT out) {
  std::int64_t j = 0;
  if (stride == 1) {
    const SmallTag<C> d;
    const auto N = static_cast<std::int64_t>(hn::Lanes(d));
    for (; j + N <= count; j += N) hn::StoreU(LoadWide(d, in + j), d, out + j);
  }
  for (; j < count; ++j) out[j] = Widen<C>(in[j * stride]);
}

/// Writes rows x columns of a tile buffer (rows `tile_row` apart) into C, rounded to T.
template <class C, class T>
void WriteTile(const C* HWY_RESTRICT tile, std::int64_t tile_row, std::int64_t rows, std::int64_t columns, T* c,
               std::int64_t c_row, std::int64_t c_col) {
  const SmallTag<C> d;
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  for (std::int64_t r = 0; r < rows; ++r) {
    const C* from = tile + r * tile_row;
    T* to = c + r * c_row;
    std::int64_t j = 0;
    if (c_col == 1) {
      if constexpr (std::is_same_v<T, C>) {
        std::memcpy(to, from, static_cast<std::size_t>(columns) * sizeof(C));
        continue;
      } else {
        const hn::Rebind<std::uint16_t, decltype(d)> d16;
        for (; j + N <= columns; j += N)
          hn::StoreU(FloatToHalfLanes<T>(d, hn::LoadU(d, from + j)), d16, reinterpret_cast<std::uint16_t*>(to + j));
      }
    }
    for (; j < columns; ++j) to[j * c_col] = static_cast<T>(from[j]);
  }
}

/// Packs the columns [0, returned) of B (k x n, its columns contiguous, `ld` apart) into rows of
/// `packed` (`padded` apart) in square blocks transposed in 128-bit registers, as many columns as
/// whole blocks cover; the caller copies the rest. The SCALAR target has no such registers and
/// returns 0.
template <class C>
std::int64_t TransposeBlocks(const C* b, std::int64_t ld, std::int64_t k, std::int64_t n, C* HWY_RESTRICT packed,
                             std::int64_t padded) {
#if HWY_TARGET == HWY_SCALAR
  (void)b, (void)ld, (void)k, (void)n, (void)packed, (void)padded;
  return 0;
#else
  const hn::Full128<C> d;
  constexpr auto kBlock = static_cast<std::int64_t>(16 / sizeof(C));  // 4 float or 2 double lanes
  const std::int64_t columns = n / kBlock * kBlock, depth = k / kBlock * kBlock;
  for (std::int64_t j = 0; j < columns; j += kBlock) {
    const C* column = b + j * ld;
    for (std::int64_t kk = 0; kk < depth; kk += kBlock) {
      C* to = packed + kk * padded + j;
      if constexpr (kBlock == 4) {
        const auto r0 = hn::LoadU(d, column + kk), r1 = hn::LoadU(d, column + ld + kk);
        const auto r2 = hn::LoadU(d, column + 2 * ld + kk), r3 = hn::LoadU(d, column + 3 * ld + kk);
        const hn::Repartition<double, decltype(d)> d64;
        const auto low01 = hn::BitCast(d64, hn::InterleaveLower(d, r0, r1));  // r0[0] r1[0] r0[1] r1[1]
        const auto low23 = hn::BitCast(d64, hn::InterleaveLower(d, r2, r3));
        const auto high01 = hn::BitCast(d64, hn::InterleaveUpper(d, r0, r1));  // r0[2] r1[2] r0[3] r1[3]
        const auto high23 = hn::BitCast(d64, hn::InterleaveUpper(d, r2, r3));
        hn::StoreU(hn::BitCast(d, hn::InterleaveLower(d64, low01, low23)), d, to);
        hn::StoreU(hn::BitCast(d, hn::InterleaveUpper(d64, low01, low23)), d, to + padded);
        hn::StoreU(hn::BitCast(d, hn::InterleaveLower(d64, high01, high23)), d, to + 2 * padded);
        hn::StoreU(hn::BitCast(d, hn::InterleaveUpper(d64, high01, high23)), d, to + 3 * padded);
      } else {
        const auto r0 = hn::LoadU(d, column + kk), r1 = hn::LoadU(d, column + ld + kk);
        hn::StoreU(hn::InterleaveLower(d, r0, r1), d, to);
        hn::StoreU(hn::InterleaveUpper(d, r0, r1), d, to + padded);
      }
    }
    for (std::int64_t kk = depth; kk < k; ++kk)
      for (std::int64_t c = 0; c < kBlock; ++c) packed[kk * padded + j + c] = column[c * ld + kk];
  }
  return columns;
#endif
}

/// Columns of a 16-bit B widened together before TransposeBlocks packs them: one block of float
/// lanes in a 128-bit register.
constexpr std::int64_t kHalfBlock = 4;

/// A thread's buffers: B packed (k rows of whole vectors); for 16-bit floats also A widened and
/// kHalfBlock columns of B widened.
template <class C>
struct Scratch {
  std::vector<C> b, a, column;
};

/// Prefetches A's rows [first, first + count) into L1 (rows contiguous along k only): the next
/// tile's rows, fetched while this tile computes, on the first pass over A.
template <class C>
HWY_INLINE void PrefetchRowsToL1(const Operands<C>& ops, std::int64_t first, std::int64_t count) {
  if (ops.a_col != 1) return;
  constexpr auto kStep = kLineBytes / static_cast<std::int64_t>(sizeof(C));
  for (std::int64_t r = first; r < first + count; ++r) {
    const C* row = ops.a + r * ops.a_row;
    for (std::int64_t i = 0; i < ops.k; i += kStep) __builtin_prefetch(row + i, 0, 3);
    __builtin_prefetch(row + ops.k - 1, 0, 3);
  }
}

/// C = A·B for one batch entry.
template <class T>
void Entry(const BatchedGemm& p, const T* a, const T* b, T* c, Scratch<FloatCompute<T>>& scratch) {
  using C = FloatCompute<T>;
  const SmallTag<C> d;
  const auto N = static_cast<std::int64_t>(hn::Lanes(d));
  const std::int64_t m = p.m, n = p.n, k = p.k;
  const std::int64_t vectors = (n + N - 1) / N, padded = vectors * N;

  Operands<C> ops;
  ops.k = k;
  const MatrixLayout bl = p.b_layout;
  if constexpr (std::is_same_v<T, C>) {
    if ((bl.col_stride == 1 || n == 1) && n == padded) {  // B's rows are whole vectors already
      ops.b = b;
      ops.b_row = bl.row_stride;
    }
  }
  if (ops.b == nullptr) {
    C* packed = scratch.b.data();
    if (bl.col_stride == 1 || bl.row_stride != 1 || n == 1) {  // row by row
      for (std::int64_t kk = 0; kk < k; ++kk) {
        WidenRow(b + kk * bl.row_stride, n, bl.col_stride, packed + kk * padded);
        std::fill(packed + kk * padded + n, packed + (kk + 1) * padded, C{0});
      }
    } else {  // B's columns are contiguous: read along them, write across the rows
      std::int64_t j = 0;
      if constexpr (std::is_same_v<T, C>) {
        j = TransposeBlocks(b, bl.col_stride, k, n, packed, padded);
      } else {  // kHalfBlock columns at a time widened, in vectors, then transposed the same way
        for (; j + kHalfBlock <= n; j += kHalfBlock) {
          for (std::int64_t column = 0; column < kHalfBlock; ++column)
            WidenRow(b + (j + column) * bl.col_stride, k, 1, scratch.column.data() + column * k);
          if (TransposeBlocks(scratch.column.data(), k, k, kHalfBlock, packed + j, padded) == 0) break;
        }
      }
      for (; j < n; ++j) {
        const C* column = nullptr;
        if constexpr (std::is_same_v<T, C>) {
          column = b + j * bl.col_stride;
        } else {  // widened along the column first, in vectors
          WidenRow(b + j * bl.col_stride, k, 1, scratch.column.data());
          column = scratch.column.data();
        }
        for (std::int64_t kk = 0; kk < k; ++kk) packed[kk * padded + j] = column[kk];
      }
      for (std::int64_t kk = 0; kk < k; ++kk) std::fill(packed + kk * padded + n, packed + (kk + 1) * padded, C{0});
    }
    ops.b = packed;
    ops.b_row = padded;
  }
  if constexpr (std::is_same_v<T, C>) {
    ops.a = a;
    ops.a_row = p.a_layout.row_stride;
    ops.a_col = p.a_layout.col_stride;
  } else {
    C* widened = scratch.a.data();
    for (std::int64_t i = 0; i < m; ++i)
      WidenRow(a + i * p.a_layout.row_stride, k, p.a_layout.col_stride, widened + i * k);
    ops.a = widened;
    ops.a_row = k;
    ops.a_col = 1;
  }

  // Column blocks of as equal widths as kTargetVectors allows; rows in tiles of TileRows(width).
  const std::int64_t blocks = (vectors + kTargetVectors - 1) / kTargetVectors;
  HWY_ALIGN C tile[kMaxTileRows * kMaxTileVectors * hn::MaxLanes(SmallTag<C>())];
  const MatrixLayout cl = p.c_layout;
  std::int64_t first_vector = 0;
  for (std::int64_t block = 0; block < blocks; ++block) {
    const auto width = static_cast<int>(vectors / blocks + (block < vectors % blocks ? 1 : 0));
    const std::int64_t j0 = first_vector * N;
    first_vector += width;
    const std::int64_t columns = std::min(n, j0 + width * N) - j0;
    const bool direct = std::is_same_v<T, C> && cl.col_stride == 1 && columns == width * N;
    const int full_rows = TileRows(width);
    for (std::int64_t i0 = 0; i0 < m; i0 += full_rows) {
      const auto rows = static_cast<int>(std::min<std::int64_t>(full_rows, m - i0));
      if (block == 0 && i0 + full_rows < m)
        PrefetchRowsToL1(ops, i0 + full_rows, std::min<std::int64_t>(full_rows, m - i0 - full_rows));
      T* target = c + i0 * cl.row_stride + j0 * cl.col_stride;
      if (direct) {
        TileFor<C>(rows, width)(ops, i0, j0, reinterpret_cast<C*>(target), cl.row_stride);
      } else {
        TileFor<C>(rows, width)(ops, i0, j0, tile, width * N);
        WriteTile(tile, width * N, rows, columns, target, cl.row_stride, cl.col_stride);
      }
    }
  }
}

/// Prefetches a rows x cols matrix of T into L2, line by line along its contiguous axis (a
/// matrix with neither axis contiguous is left to the hardware).
template <class T>
void PrefetchMatrix(const T* p, std::int64_t rows, std::int64_t cols, MatrixLayout layout) {
  constexpr auto kStep = kLineBytes / static_cast<std::int64_t>(sizeof(T));
  const auto lines = [&](const T* run, std::int64_t count) {
    for (std::int64_t i = 0; i < count; i += kStep) prefetch_to_l2(run + i);
    prefetch_to_l2(run + count - 1);
  };
  if (layout.col_stride == 1)
    for (std::int64_t r = 0; r < rows; ++r) lines(p + r * layout.row_stride, cols);
  else if (layout.row_stride == 1)
    for (std::int64_t c = 0; c < cols; ++c) lines(p + c * layout.col_stride, rows);
}

template <class T>
void RangeTyped(const BatchedGemm& p, std::int64_t begin, std::int64_t end) {
  using C = FloatCompute<T>;
  const auto N = static_cast<std::int64_t>(hn::Lanes(SmallTag<C>()));
  Scratch<C> scratch;
  scratch.b.resize(static_cast<std::size_t>(p.k * ((p.n + N - 1) / N * N)));
  if constexpr (!std::is_same_v<T, C>) {
    scratch.a.resize(static_cast<std::size_t>(p.m * p.k));
    scratch.column.resize(static_cast<std::size_t>(kHalfBlock * p.k));
  }
  const T* a = static_cast<const T*>(p.a);
  const T* b = static_cast<const T*>(p.b);
  T* c = static_cast<T*>(p.c);
  // Each entry's operands are prefetched while the entry before it computes: an entry's rows are
  // too few for the hardware prefetcher to start on before they are needed.
  bool pending = false;  // offsets (any sign) of the entry that computes next
  std::int64_t previous[3] = {0, 0, 0};
  for_each_batch(p, begin, end, [&](std::int64_t a_offset, std::int64_t b_offset, std::int64_t c_offset) {
    PrefetchMatrix(a + a_offset, p.m, p.k, p.a_layout);
    PrefetchMatrix(b + b_offset, p.k, p.n, p.b_layout);
    if (pending) Entry<T>(p, a + previous[0], b + previous[1], c + previous[2], scratch);
    pending = true;
    previous[0] = a_offset;
    previous[1] = b_offset;
    previous[2] = c_offset;
  });
  if (pending) Entry<T>(p, a + previous[0], b + previous[1], c + previous[2], scratch);
}

/// The batch entries [begin, end) of `p`, its elements of `type`.
void SmallProductRange(const BatchedGemm& p, DType type, std::int64_t begin, std::int64_t end) {
  visit_floating_dtype(type, [&](auto tag) { RangeTyped<decltype(tag)>(p, begin, end); });
}

}  // namespace einops::detail::einsum::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace einops::detail::einsum {

HWY_EXPORT(SmallProductRange);

bool small_product_takes(DType type) {
  return type == DType::float32 || type == DType::float64 || type == DType::float16 || type == DType::bfloat16;
}

void small_batched_product(DType type, const BatchedGemm& problem) {
  // The tiles run along C's rows: a C whose columns, not rows, are contiguous is computed as
  // C^T = B^T · A^T.
  const bool column_major = problem.c_layout.col_stride != 1 && problem.c_layout.row_stride == 1 && problem.m > 1;
  const BatchedGemm p = column_major ? transposed_product(problem) : problem;
  choose_simd_target();
  const auto kernel = &HWY_DYNAMIC_DISPATCH(SmallProductRange);

  // Multiply-adds per entry and in all, as doubles: no overflow for any shape.
  const double work = static_cast<double>(p.m) * static_cast<double>(p.n) * static_cast<double>(p.k);
  const std::int64_t batch = p.batch_count();
  const auto chunk = static_cast<std::int64_t>(std::max(1.0, std::floor(static_cast<double>(kSmallChunkWork) / work)));
  const bool threads = batch > chunk && work * static_cast<double>(batch) >= static_cast<double>(kSmallParallelMinWork);
  parallel_for(batch, chunk, threads, [&](std::int64_t begin, std::int64_t end) { (*kernel)(p, type, begin, end); });
}

}  // namespace einops::detail::einsum
#endif
