// Executes a CopySchedule of tiles: tile kernels compiled once per instruction set (Highway), chosen
// at run time for this CPU, once per call. Short-axis schedules run in short_axis_simd.cpp.
// Assumptions: strides in elements; elements move as opaque unsigned words of 1, 2, 4 or 8 bytes;
// register transposes work on 128-bit blocks (R x R, R = 16 / element size) on every target;
// where vectors are 512 bits, four blocks to a vector make whole output lines (see
// LineTransposeImpl); non-temporal stores need
// aligned addresses and are used only where every address of the tile is aligned.
// One file on purpose, though long: the tile kernels share their block transposes, loads and
// stores, and Highway compiles the file once per instruction set; split, every part would repeat
// the per-target inclusion and the shared helpers would move to an -inl header of their own.
#include <algorithm>
#include <cstdint>
#include <cstring>

#include "copy_schedule.hpp"
#include "einops/detail/platform.hpp"
#include "element_words.hpp"
#include "parallel.hpp"
#include "prefetch.hpp"

#include "hwy_config.hpp"
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/copy_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace einops::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

/// One kernel call: a block of `rows` x `cols`, repeated `batch` times.
template <class Word>
struct Tile {
  const Word* in;  // + row_in[r] + c * col_in + b * batch_in
  Word* out;       // + r * unit + c * col_out + b * batch_out
  const std::int64_t* row_in;
  std::int64_t row_step;  // row_in[r] == row_in[0] + r * row_step for every r, or 0 when not
  std::int64_t rows, cols, unit;
  std::int64_t col_in, col_out;
  std::int64_t batch, batch_in, batch_out;
  bool stream;
  bool prefetch;       // units: prefetch the next entry's runs (copies beyond the caches)
  bool stage_rows;     // transposes: copy each band's input lines to L1 first (see the schedule)
  bool columns_first;  // line transposes: tiles down the rows of each column block, then the next
  bool stage_lines;    // line transposes: columns first, each column block through an L1 buffer
  // The block this thread copies next (for prefetching): its first batch entry's input and row
  // offsets, rows and columns; next_rows == 0 when there is none.
  const Word* next_in;
  const std::int64_t* next_row_in;
  std::int64_t next_rows, next_cols;
};

/// What a kernel prefetches while it copies batch entry `b` of `t`: the next entry, or after the
/// last one the next block.
template <class Word>
struct NextRead {
  const Word* in;
  const std::int64_t* row_in;
  std::int64_t rows, cols;

  NextRead(const Tile<Word>& t, std::int64_t b) {
    const bool last = b + 1 == t.batch;
    in = last ? t.next_in : t.in + (b + 1) * t.batch_in;
    row_in = last ? t.next_row_in : t.row_in;
    rows = last ? t.next_rows : t.rows;
    cols = last ? t.next_cols : t.cols;
  }

  /// Prefetches into L2 the line at column c of rows [r, r + count) where they exist: what the
  /// next read takes at the place of the tile being copied. Always inlined (HWY_INLINE): as a
  /// plain member GCC 12 dropped its prefetches, as with prefetch_to_l2 (kernels_keep_l2_prefetches).
  HWY_INLINE void prefetch_tile(std::int64_t r, std::int64_t count, std::int64_t c) const {
    if (c >= cols) return;
    const std::int64_t end = std::min(r + count, rows);
    for (std::int64_t i = r; i < end; ++i) prefetch_to_l2(in + row_in[i] + c);
  }
};

template <class Word>
bool aligned16(const Word* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

template <class Word>
void ScalarTile(const Tile<Word>& t) {
  for (std::int64_t b = 0; b < t.batch; ++b) {
    const Word* in = t.in + b * t.batch_in;
    Word* out = t.out + b * t.batch_out;
    for (std::int64_t c = 0; c < t.cols; ++c) {
      const Word* column_in = in + c * t.col_in;
      Word* column_out = out + c * t.col_out;
      for (std::int64_t r = 0; r < t.rows; ++r) column_out[r] = column_in[t.row_in[r]];
    }
  }
}

/// Copies `count` contiguous words; streaming stores where the destination allows.
template <class Word>
HWY_INLINE void CopyRun(const Word* HWY_RESTRICT in, Word* HWY_RESTRICT out, std::int64_t count, bool stream) {
  const hn::ScalableTag<Word> d;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
  if (!stream || count < 4 * lanes) {
    std::memcpy(out, in, static_cast<std::size_t>(count) * sizeof(Word));
    return;
  }
  std::int64_t i = 0;
  const std::size_t vector_bytes = hn::Lanes(d) * sizeof(Word);
  for (; i < count && reinterpret_cast<std::uintptr_t>(out + i) % vector_bytes != 0; ++i) out[i] = in[i];
  if (reinterpret_cast<std::uintptr_t>(out + i) % vector_bytes != 0) {  // words not aligned to a vector
    std::memcpy(out + i, in + i, static_cast<std::size_t>(count - i) * sizeof(Word));
    return;
  }
  for (; i + 2 * lanes <= count; i += 2 * lanes) {
    const auto a = hn::LoadU(d, in + i);
    const auto b = hn::LoadU(d, in + i + lanes);
    hn::Stream(a, d, out + i);
    hn::Stream(b, d, out + i + lanes);
  }
  for (; i + lanes <= count; i += lanes) hn::Stream(hn::LoadU(d, in + i), d, out + i);
  for (; i < count; ++i) out[i] = in[i];
}

/// Copies `count` contiguous words, at least one vector, in full vectors: the last one overlaps the
/// one before where `count` is not a multiple of the lanes. For data in the caches (no streaming).
template <class Word>
HWY_INLINE void CopyCachedRun(const Word* HWY_RESTRICT in, Word* HWY_RESTRICT out, std::int64_t count) {
  const hn::ScalableTag<Word> d;
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
  std::int64_t i = 0;
  for (; i + 4 * lanes <= count; i += 4 * lanes) {
    const auto v0 = hn::LoadU(d, in + i);
    const auto v1 = hn::LoadU(d, in + i + lanes);
    const auto v2 = hn::LoadU(d, in + i + 2 * lanes);
    const auto v3 = hn::LoadU(d, in + i + 3 * lanes);
    hn::StoreU(v0, d, out + i);
    hn::StoreU(v1, d, out + i + lanes);
    hn::StoreU(v2, d, out + i + 2 * lanes);
    hn::StoreU(v3, d, out + i + 3 * lanes);
  }
  for (; i + lanes <= count; i += lanes) hn::StoreU(hn::LoadU(d, in + i), d, out + i);
  if (i < count) hn::StoreU(hn::LoadU(d, in + count - lanes), d, out + count - lanes);
}

template <class Word>
HWY_INLINE void FillRun(Word value, Word* HWY_RESTRICT out, std::int64_t count, bool stream) {
  const hn::CappedTag<Word, 32 / sizeof(Word)> d;  // 256-bit stores: faster here than 512-bit
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
  const auto v = hn::Set(d, value);
  std::int64_t i = 0;
  if (stream && count >= 4 * lanes) {
    const std::size_t vector_bytes = hn::Lanes(d) * sizeof(Word);
    for (; i < count && reinterpret_cast<std::uintptr_t>(out + i) % vector_bytes != 0; ++i) out[i] = value;
    if (reinterpret_cast<std::uintptr_t>(out + i) % vector_bytes == 0) {
      for (; i + lanes <= count; i += lanes) hn::Stream(v, d, out + i);
    }
  }
  for (; i + lanes <= count; i += lanes) hn::StoreU(v, d, out + i);
  for (; i < count; ++i) out[i] = value;
}

/// Copies `bytes` (1 to kSmallRunBytes) as two fixed-size moves that overlap where needed: a
/// short run costs a few instructions instead of a call to memcpy with a variable size.
constexpr std::int64_t kSmallRunBytes = 64;

template <std::size_t kHalf>
HWY_INLINE void CopyOverlapping(const unsigned char* HWY_RESTRICT in, unsigned char* HWY_RESTRICT out,
                                std::size_t bytes) {
  unsigned char head[kHalf], tail[kHalf];
  std::memcpy(head, in, kHalf);
  std::memcpy(tail, in + bytes - kHalf, kHalf);
  std::memcpy(out, head, kHalf);
  std::memcpy(out + bytes - kHalf, tail, kHalf);
}

HWY_INLINE void CopySmallRun(const void* HWY_RESTRICT from, void* HWY_RESTRICT to, std::size_t bytes) {
  const auto* in = static_cast<const unsigned char*>(from);
  auto* out = static_cast<unsigned char*>(to);
  if (bytes >= 32) return CopyOverlapping<32>(in, out, bytes);
  if (bytes >= 16) return CopyOverlapping<16>(in, out, bytes);
  if (bytes >= 8) return CopyOverlapping<8>(in, out, bytes);
  if (bytes >= 4) return CopyOverlapping<4>(in, out, bytes);
  if (bytes >= 2) return CopyOverlapping<2>(in, out, bytes);
  out[0] = in[0];
}

/// Runs of `unit` words, columns outermost; each run prefetches the run at the same place in the
/// next batch entry or block, which the hardware prefetchers do not foresee.
template <class Word>
void UnitsTile(const Tile<Word>& t) {
  constexpr std::int64_t kLine = 64 / sizeof(Word);
  const std::int64_t unit_lines = (t.unit + kLine - 1) / kLine;
  const auto unit_bytes = static_cast<std::size_t>(t.unit) * sizeof(Word);
  const bool small = unit_bytes <= static_cast<std::size_t>(kSmallRunBytes);
  for (std::int64_t b = 0; b < t.batch; ++b) {
    const Word* in = t.in + b * t.batch_in;
    Word* out = t.out + b * t.batch_out;
    const NextRead<Word> next(t, b);
    for (std::int64_t c = 0; c < t.cols; ++c)
      for (std::int64_t r = 0; r < t.rows; ++r) {
        if (t.prefetch && c < next.cols && r < next.rows)
          for (std::int64_t line = 0; line < unit_lines; ++line)
            hwy::Prefetch(next.in + next.row_in[r] + c * t.col_in + line * kLine);
        if (small) CopySmallRun(in + t.row_in[r] + c * t.col_in, out + c * t.col_out + r * t.unit, unit_bytes);
        else CopyRun(in + t.row_in[r] + c * t.col_in, out + c * t.col_out + r * t.unit, t.unit, t.stream);
      }
  }
}

/// Runs of `unit` words (at least one vector) of a copy that the caches hold, each moved inline by
/// CopyCachedRun: a call to memcpy per run costs more than its moves. The tile's fields are read
/// once into locals: stores through Word may alias them, which would reload them per run.
template <class Word>
void WarmUnitsTile(const Tile<Word>& t) {
  const std::int64_t unit = t.unit, rows = t.rows, cols = t.cols, col_in = t.col_in, col_out = t.col_out;
  const std::int64_t batch = t.batch, batch_in = t.batch_in, batch_out = t.batch_out;
  const std::int64_t* HWY_RESTRICT row_in = t.row_in;
  const Word* const in = t.in;
  Word* const out = t.out;
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t c = 0; c < cols; ++c) {
      const Word* const column_in = in + b * batch_in + c * col_in;
      Word* run_out = out + b * batch_out + c * col_out;
      for (std::int64_t r = 0; r < rows; ++r, run_out += unit) CopyCachedRun(column_in + row_in[r], run_out, unit);
    }
}

template <class Word>
void FillTile(const Tile<Word>& t) {
  for (std::int64_t b = 0; b < t.batch; ++b)
    for (std::int64_t c = 0; c < t.cols; ++c)
      FillRun(t.in[b * t.batch_in + c * t.col_in + t.row_in[0]], t.out + b * t.batch_out + c * t.col_out, t.rows,
              t.stream);
}

// ---- R x R transposes in 128-bit registers ------------------------------------------------------
#if HWY_TARGET == HWY_SCALAR
template <class Word>
void TransposeTile(const Tile<Word>& t) {
  ScalarTile(t);
}
#else

/// One interleave stage on lanes of type Lane: pairs (2m, 2m+1) -> lower halves, then upper halves.
template <class Lane, class V, std::size_t R>
HWY_INLINE void InterleaveStage(V (&v)[R]) {
  const hn::DFromV<V> d;
  const hn::Repartition<Lane, decltype(d)> dl;  // per 128-bit block, on vectors of any width
  V t[R];
  for (std::size_t m = 0; m < R / 2; ++m) {
    const auto a = hn::BitCast(dl, v[2 * m]);
    const auto b = hn::BitCast(dl, v[2 * m + 1]);
    t[m] = hn::BitCast(d, hn::InterleaveLower(dl, a, b));
    t[R / 2 + m] = hn::BitCast(d, hn::InterleaveUpper(dl, a, b));
  }
  for (std::size_t i = 0; i < R; ++i) v[i] = t[i];
}

/// log2(R) stages, lane width doubling up to 64 bits. Afterwards v[f] holds column bitrev(f).
template <class Lane, class V, std::size_t R>
HWY_INLINE void TransposeStages(V (&v)[R]) {
  InterleaveStage<Lane>(v);
  if constexpr (sizeof(Lane) < 8) TransposeStages<hwy::MakeWide<Lane>>(v);
}

template <std::size_t R>
constexpr std::size_t bit_reverse(std::size_t i) {
  std::size_t r = 0;
  for (std::size_t bit = 1; bit < R; bit <<= 1) r = (r << 1) | ((i & bit) != 0 ? 1 : 0);
  return r;
}

/// Stores each 128-bit block k of `v` at target + k * block_stride.
template <class D>
HWY_INLINE void StoreBlocks(D d, hn::Vec<D> v, hn::TFromD<D>* HWY_RESTRICT target, std::int64_t block_stride) {
  if constexpr (hn::MaxLanes(d) * sizeof(hn::TFromD<D>) <= 16) {
    hn::Store(v, d, target);
  } else {
    const hn::Half<D> dh;
    StoreBlocks(dh, hn::LowerHalf(dh, v), target, block_stride);
    StoreBlocks(dh, hn::UpperHalf(dh, v),
                target + static_cast<std::int64_t>(hn::MaxLanes(dh)) /
                             (16 / static_cast<std::int64_t>(sizeof(hn::TFromD<D>))) * block_stride,
                block_stride);
  }
}

template <class Word, bool kStream, class V>
HWY_INLINE void StoreVector(V v, Word* HWY_RESTRICT target) {
  const hn::DFromV<V> d;
  if constexpr (kStream) hn::Stream(v, d, target);
  else hn::StoreU(v, d, target);
}

/// R x R register transposes straight from input rows to output columns, over rows
/// [r_begin, r_end) and columns [c_begin, c_end) of one batch entry; scalar at the edges.
template <class Word, bool kStream>
void DirectTranspose(const Tile<Word>& t, const Word* in, Word* out, std::int64_t r_begin, std::int64_t r_end,
                     std::int64_t c_begin, std::int64_t c_end) {
  constexpr std::size_t R = 16 / sizeof(Word);
  constexpr auto kR = static_cast<std::int64_t>(R);
  const hn::Full128<Word> d;
  using V = hn::Vec<decltype(d)>;
  const std::int64_t r_full = r_begin + (r_end - r_begin) / kR * kR;
  const std::int64_t c_full = c_begin + (c_end - c_begin) / kR * kR;
  for (std::int64_t c = c_begin; c < c_full; c += kR) {
    for (std::int64_t r = r_begin; r < r_full; r += kR) {
      V v[R];
      for (std::size_t i = 0; i < R; ++i) v[i] = hn::LoadU(d, in + t.row_in[r + static_cast<std::int64_t>(i)] + c);
      TransposeStages<Word>(v);
      for (std::size_t f = 0; f < R; ++f)
        StoreVector<Word, kStream>(v[f], out + (c + static_cast<std::int64_t>(bit_reverse<R>(f))) * t.col_out + r);
    }
    for (std::int64_t cc = c; cc < c + kR; ++cc)
      for (std::int64_t r = r_full; r < r_end; ++r) out[cc * t.col_out + r] = in[t.row_in[r] + cc];
  }
  for (std::int64_t c = c_full; c < c_end; ++c)
    for (std::int64_t r = r_begin; r < r_end; ++r) out[c * t.col_out + r] = in[t.row_in[r] + c];
}

// The next block's lines are prefetched into L2 only (prefetch_to_l2): in L1 they would evict the
// lines of this one, where rows far apart (power-of-two strides) share a few sets.

/// The first of `count` positions `stride` elements apart from `first` that starts a cache line,
/// when the stride is whole lines, so that every position from there on starts one (else 0).
template <class Word>
std::int64_t FirstLineAlignedIndex(const Word* first, std::int64_t stride, std::int64_t count) {
  constexpr auto kWordBytes = static_cast<std::int64_t>(sizeof(Word));
  if ((stride * kWordBytes) % 64 != 0) return 0;
  const auto to_line = static_cast<std::int64_t>((64 - reinterpret_cast<std::uintptr_t>(first) % 64) % 64);
  return std::min(count, to_line / kWordBytes);
}

/// The first row at which every column's output starts a cache line, when the column stride is
/// whole lines (else 0): full bands start there, the rows before it go with the edges.
template <class Word>
std::int64_t LineAlignedFirstRow(const Word* out, std::int64_t col_out, std::int64_t rows) {
  return FirstLineAlignedIndex(out, col_out, rows);
}

/// The first column at which every row of batch entry `in` starts a cache line, when the rows are
/// a common multiple of whole lines apart (else 0). Tiles that load each row's line whole start
/// there, so that none of their loads crosses a line where the caller's buffer is not line-aligned
/// (malloc's blocks are aligned to 16 bytes); the columns before go with the edges.
template <class Word>
std::int64_t LineAlignedFirstColumn(const Tile<Word>& t, const Word* in) {
  if (t.row_step == 0 && t.rows > 1) return 0;  // rows without one common stride
  return FirstLineAlignedIndex(in + t.row_in[0], t.row_step, t.cols);
}

/// What full tiles of rows [r_begin, r_full) x columns [c_begin, c_full) leave, by register
/// transposes: the columns before and after, then the rows before and after.
template <class Word, bool kStream>
void TransposeEdges(const Tile<Word>& t, const Word* in, Word* out, std::int64_t r_begin, std::int64_t r_full,
                    std::int64_t c_full, std::int64_t c_begin = 0) {
  DirectTranspose<Word, kStream>(t, in, out, r_begin, r_full, 0, c_begin);
  DirectTranspose<Word, kStream>(t, in, out, r_begin, r_full, c_full, t.cols);
  DirectTranspose<Word, kStream>(t, in, out, 0, r_begin, 0, t.cols);
  DirectTranspose<Word, kStream>(t, in, out, r_full, t.rows, 0, t.cols);
}

/// Cache-line tiles: L x L elements (L = 64 bytes / element size) are transposed through an L1
/// buffer with R x R register transposes, so every input line is read whole at once and every
/// output line written whole at once. Power-of-two strides then cost no conflict misses, and
/// streaming stores always fill complete lines. Bands of L rows run outermost, so each input
/// row's lines are read one after another along the block (the hardware prefetchers follow them,
/// and a line fetched with its neighbour is used before rows far apart evict it). Each tile also
/// prefetches into L2 the lines that the next batch entry or block reads at the same place.
/// Since the line tiles (LineTransposeImpl) took AVX2 too, this kernel serves SSE4, and streaming
/// outputs whose column stride is not whole lines.
template <class Word, bool kStream>
void TransposeTileImpl(const Tile<Word>& t) {
  constexpr std::size_t R = 16 / sizeof(Word);
  constexpr auto kR = static_cast<std::int64_t>(R);
  constexpr std::int64_t L = 64 / static_cast<std::int64_t>(sizeof(Word));
  const hn::Full128<Word> d;
  // 1- and 2-byte words take two 128-bit tiles per 256-bit vector (half the instructions per
  // line); 4- and 8-byte words gain nothing from it.
  const hn::CappedTag<Word, (sizeof(Word) <= 2 ? 32 : 16) / sizeof(Word)> dw;
  using WideV = hn::Vec<decltype(dw)>;
  constexpr auto W = static_cast<std::int64_t>(hn::MaxLanes(dw));
  HWY_ALIGN Word buffer[L * L];
  // Output lines leave the buffer in 256-bit vectors: streaming stores then take 2 store-buffer
  // entries per line instead of 4, and the transposes would otherwise wait on those entries.
  // Wide streams need aligned targets: every full tile's target is line-aligned when the column
  // stride is whole lines (r_begin, below).
  const hn::CappedTag<Word, 32 / sizeof(Word)> dl;
  constexpr auto kLineLanes = static_cast<std::int64_t>(hn::MaxLanes(dl));
  const bool line_stores = !kStream || (t.col_out * static_cast<std::int64_t>(sizeof(Word))) % 64 == 0;
  const std::int64_t c_full = t.cols / L * L;
  for (std::int64_t b = 0; b < t.batch; ++b) {
    const Word* in = t.in + b * t.batch_in;
    Word* out = t.out + b * t.batch_out;
    const NextRead<Word> next(t, b);
    const std::int64_t r_begin = LineAlignedFirstRow(out, t.col_out, t.rows);
    const std::int64_t r_full = r_begin + (t.rows - r_begin) / L * L;
    for (std::int64_t r = r_begin; r < r_full; r += L) {
      for (std::int64_t c = 0; c < c_full; c += L) {
        next.prefetch_tile(r, L, c);
        for (std::int64_t rg = 0; rg < L; rg += kR) {
          const Word* rows[R];
          for (std::size_t i = 0; i < R; ++i) rows[i] = in + t.row_in[r + rg + static_cast<std::int64_t>(i)] + c;
          // Each 128-bit block of a wide load is its own R x R tile: the interleave stages work
          // per block, so one pass transposes neighbouring tiles side by side.
          for (std::int64_t cg = 0; cg < L; cg += W) {
            WideV v[R];
            for (std::size_t i = 0; i < R; ++i) v[i] = hn::LoadU(dw, rows[i] + cg);
            TransposeStages<Word>(v);
            for (std::size_t f = 0; f < R; ++f)
              StoreBlocks(dw, v[f], buffer + (cg + static_cast<std::int64_t>(bit_reverse<R>(f))) * L + rg, kR * L);
          }
        }
        for (std::int64_t cc = 0; cc < L; ++cc) {
          Word* target = out + (c + cc) * t.col_out + r;
          if (line_stores) {
            for (std::int64_t q = 0; q < L; q += kLineLanes)
              StoreVector<Word, kStream>(hn::Load(dl, buffer + cc * L + q), target + q);
          } else {
            for (std::int64_t q = 0; q < L; q += kR)
              StoreVector<Word, kStream>(hn::Load(d, buffer + cc * L + q), target + q);
          }
        }
      }
    }
    TransposeEdges<Word, kStream>(t, in, out, r_begin, r_full, c_full);
  }
}

/// Loads the 16-byte block at column c of rows[0..N) into one vector of N blocks, block k from
/// rows[k].
template <class D>
HWY_INLINE hn::Vec<D> LoadStackedBlocks(D d, const hn::TFromD<D>* const* rows, std::int64_t c) {
#if HWY_ARCH_X86 && HWY_TARGET <= HWY_AVX3
  if constexpr (hn::MaxLanes(d) * sizeof(hn::TFromD<D>) == 64) {
    // Three inserts straight from memory into one 512-bit register: Highway's Combine of two
    // 256-bit halves costs a 256-bit insert each, a zero extension, then a 512-bit insert.
    const auto block = [&](std::size_t k) { return _mm_loadu_si128(reinterpret_cast<const __m128i*>(rows[k] + c)); };
    __m512i stacked = _mm512_castsi128_si512(block(0));
    stacked = _mm512_inserti32x4(stacked, block(1), 1);
    stacked = _mm512_inserti32x4(stacked, block(2), 2);
    stacked = _mm512_inserti32x4(stacked, block(3), 3);
    return hn::Vec<D>{stacked};
  }
#endif
  if constexpr (hn::MaxLanes(d) * sizeof(hn::TFromD<D>) <= 16) {
    return hn::LoadU(d, rows[0] + c);
  } else {
    const hn::Half<D> dh;
    constexpr std::size_t kHalfBlocks = hn::MaxLanes(dh) * sizeof(hn::TFromD<D>) / 16;
    return hn::Combine(d, LoadStackedBlocks(dh, rows + kHalfBlocks, c), LoadStackedBlocks(dh, rows, c));
  }
}

/// One band's L x L tile for LineTransposeImpl: row i of the band at rows + i * step, its column
/// j written at out + j * col_out. A vector stacks 16-byte blocks of kGroups groups of R rows
/// (LoadStackedBlocks), so after the interleave stages, which work per block, vector f holds
/// column bitrev(f) of kGroups * R rows: a whole output line with 512-bit vectors, half of one
/// with 256-bit vectors (kParts = 2, whose halves are stored one after the other). Running
/// pointers (one per group) address the rows: from a table of row pointers the compiler spills
/// them and reloads four per vector.
template <class Word, bool kStream, std::int64_t kStep>
HWY_INLINE void TransposeLineTile(const Word* rows, std::int64_t runtime_step, Word* out, std::int64_t col_out) {
  constexpr std::size_t R = 16 / sizeof(Word);
  constexpr auto kR = static_cast<std::int64_t>(R);
  constexpr std::int64_t L = 64 / static_cast<std::int64_t>(sizeof(Word));
  const hn::CappedTag<Word, static_cast<std::size_t>(L)> d;
  using V = hn::Vec<decltype(d)>;
  constexpr std::size_t kGroups = hn::MaxLanes(d) * sizeof(Word) / 16;         // blocks per vector
  constexpr std::size_t kParts = static_cast<std::size_t>(L) / (kGroups * R);  // vectors per output line
  const std::int64_t step = kStep != 0 ? kStep : runtime_step;
  for (std::int64_t cg = 0; cg < L; cg += kR) {
    V v[kParts][R];
    HWY_UNROLL(2)
    for (std::size_t part = 0; part < kParts; ++part) {
      const Word* group_rows[kGroups];
      for (std::size_t k = 0; k < kGroups; ++k)
        group_rows[k] = rows + static_cast<std::int64_t>(part * kGroups + k) * kR * step + cg;
      HWY_UNROLL(16)
      for (std::size_t i = 0; i < R; ++i) {
        v[part][i] = LoadStackedBlocks(d, group_rows, 0);
        // Opaque running pointers stay in registers: derived from `rows`, GCC 12 precomputed every
        // row's address outside the loops, spilled them and reloaded each before its load.
        for (std::size_t k = 0; k < kGroups; ++k)
          group_rows[k] = kStep != 0 ? group_rows[k] + kStep : einops::detail::opaque_pointer(group_rows[k] + step);
      }
      TransposeStages<Word>(v[part]);
    }
    Word* target = out + cg * col_out;
    HWY_UNROLL(16)
    for (std::size_t f = 0; f < R; ++f)
      for (std::size_t part = 0; part < kParts; ++part)
        StoreVector<Word, kStream>(v[part][f], target + static_cast<std::int64_t>(bit_reverse<R>(f)) * col_out +
                                                   static_cast<std::int64_t>(part * kGroups * R));
  }
}

/// 4 x 4 transpose of the 128-bit blocks of four vectors: afterwards v[k] holds block k of each
/// of the four, in their order. Two block swaps and two blends for each pair, then half concats.
template <class V>
HWY_INLINE void TransposeBlocks(V (&v)[4]) {
  const hn::DFromV<V> d;
  const V even01 = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(v[1]), v[0]);  // v0.0 v1.0 v0.2 v1.2
  const V odd01 = hn::OddEvenBlocks(v[1], hn::SwapAdjacentBlocks(v[0]));   // v0.1 v1.1 v0.3 v1.3
  const V even23 = hn::OddEvenBlocks(hn::SwapAdjacentBlocks(v[3]), v[2]);
  const V odd23 = hn::OddEvenBlocks(v[3], hn::SwapAdjacentBlocks(v[2]));
  v[0] = hn::ConcatLowerLower(d, even23, even01);
  v[1] = hn::ConcatLowerLower(d, odd23, odd01);
  v[2] = hn::ConcatUpperUpper(d, even23, even01);
  v[3] = hn::ConcatUpperUpper(d, odd23, odd01);
}

/// One band's L x L tile for LineTransposeImpl, for 4- and 8-byte words (L = 16 or 8 rows): each
/// row's line is one load; four groups of R rows go through the interleave stages (per 128-bit
/// block), then a block transpose across the groups leaves whole output lines. Each input line is
/// read once, so rows crowding a few L1 sets need no staging, and there is no L1 buffer.
template <class Word, bool kStream>
HWY_INLINE void TransposeWholeLinesTile(const Word* in, const std::int64_t* row_in, Word* out, std::int64_t col_out) {
  constexpr std::size_t R = 16 / sizeof(Word);
  constexpr std::size_t kGroups = 4;  // 128-bit blocks per vector
  const hn::FixedTag<Word, kGroups * R> d;
  using V = hn::Vec<decltype(d)>;
  V v[kGroups][R];
  HWY_UNROLL(4)
  for (std::size_t g = 0; g < kGroups; ++g) {
    HWY_UNROLL(4)
    for (std::size_t i = 0; i < R; ++i) v[g][i] = hn::LoadU(d, in + row_in[g * R + i]);
    TransposeStages<Word>(v[g]);
  }
  // Group g's v[g][f] holds, in block k, column k * R + bitrev(f) of the group's R rows.
  HWY_UNROLL(4)
  for (std::size_t f = 0; f < R; ++f) {
    V lines[kGroups];
    for (std::size_t g = 0; g < kGroups; ++g) lines[g] = v[g][f];
    TransposeBlocks(lines);
    for (std::size_t k = 0; k < kGroups; ++k)
      StoreVector<Word, kStream>(lines[k], out + static_cast<std::int64_t>(k * R + bit_reverse<R>(f)) * col_out);
  }
}

/// One L x L tile of LineTransposeImpl: rows [r, r + L) x columns [c, c + L) of one batch entry
/// (`in`), column j written at target + j * target_stride.
template <class Word, bool kStream>
HWY_INLINE void LineTile(const Tile<Word>& t, const Word* in, std::int64_t r, std::int64_t c, Word* target,
                         std::int64_t target_stride, bool stage, Word* staged) {
  constexpr std::int64_t L = 64 / static_cast<std::int64_t>(sizeof(Word));
  const hn::CappedTag<Word, static_cast<std::size_t>(L)> d;
  if constexpr (sizeof(Word) >= 4 && hn::MaxLanes(d) * sizeof(Word) == 64) {
    (void)stage, (void)staged;
    TransposeWholeLinesTile<Word, kStream>(in + c, t.row_in + r, target, target_stride);
  } else if (stage) {
    for (std::int64_t k = 0; k < L; ++k)
      for (std::int64_t q = 0; q < L; q += static_cast<std::int64_t>(hn::MaxLanes(d)))
        hn::Store(hn::LoadU(d, in + t.row_in[r + k] + c + q), d, staged + k * L + q);
    TransposeLineTile<Word, kStream, L>(staged, L, target, target_stride);
  } else {
    TransposeLineTile<Word, kStream, 0>(in + t.row_in[r] + c, t.row_step, target, target_stride);
  }
}

/// Lines staged in L1 per column (kMaxBlockRows elements each) and output lines written together
/// when LineTransposeImpl stages a column block (Tile::stage_lines): each pass writes
/// kStagedLinesPerPass output lines along the whole block, so that few lines of one L1 set are
/// written at a time.
constexpr std::int64_t kStagedLinesPerPass = 2;

/// Transposes for vectors of a whole cache line (512 bits): a vector holds four 16-byte blocks
/// from four groups of R rows, so after the interleave stages (which work per block) vector f
/// holds column f of all L rows of a band, one whole output line, stored straight from the
/// register: no L1 buffer, and one streaming store per line.
/// With 256-bit vectors (AVX2) a vector holds half an output line, and the two halves are stored
/// one after the other (for int8 the halves are 32 vectors, more than the 16 registers, yet
/// storing each half as soon as it is made streams half lines apart, which is slower).
/// With 512-bit vectors, 4- and 8-byte words load each row's line whole instead
/// (TransposeWholeLinesTile): 16 or 8 vectors hold a band, where 1- and 2-byte words would need
/// 64 or 32. Smaller words read each input line in four 16-byte pieces, one per column group: when
/// a band's rows crowd a few L1 sets (t.stage_rows, power-of-two strides) they evict each other
/// between pieces, so their lines are first copied whole into an L1 buffer (rows that do not
/// conflict skip the copy, which would cost more than it saves). Rows without one common stride
/// (a chain of several axes) are staged too, so the tile always sees strided rows.
/// Tiles go band by band (each input row read along), or, for copies in the caches whose tiles
/// write lines that share a few L1 sets, column block by column block (t.columns_first: the next
/// tile writes the next set instead of the same ones). Where a tile's output lines all share one
/// set (t.stage_lines), a column block's tiles go to an L1 buffer first, whose lines then leave
/// kStagedLinesPerPass output lines at a time.
template <class Word, bool kStream>
void LineTransposeImpl(const Tile<Word>& t) {
  constexpr std::int64_t L = 64 / static_cast<std::int64_t>(sizeof(Word));
  const hn::CappedTag<Word, static_cast<std::size_t>(L)> d;
  const std::int64_t col_out = t.col_out;  // a local: the compiler cannot keep t's fields across stores
  const bool stage = t.stage_rows || t.row_step == 0;
  constexpr bool kWholeLines = sizeof(Word) >= 4 && hn::MaxLanes(d) * sizeof(Word) == 64;
  HWY_ALIGN Word staged[kWholeLines ? 1 : L * L];  // whole-line tiles never stage
  for (std::int64_t b = 0; b < t.batch; ++b) {
    const Word* in = t.in + b * t.batch_in;
    Word* out = t.out + b * t.batch_out;
    const NextRead<Word> next(t, b);
    const std::int64_t r_begin = LineAlignedFirstRow(out, col_out, t.rows);
    const std::int64_t r_full = r_begin + (t.rows - r_begin) / L * L;
    const std::int64_t c_begin = kWholeLines ? LineAlignedFirstColumn(t, in) : 0;
    const std::int64_t c_full = c_begin + (t.cols - c_begin) / L * L;
    if (t.stage_lines) {
      HWY_ALIGN Word lines[L * kMaxBlockRows];
      const auto lanes = static_cast<std::int64_t>(hn::MaxLanes(d));
      for (std::int64_t c = c_begin; c < c_full; c += L) {
        for (std::int64_t r = r_begin; r < r_full; r += L)
          LineTile<Word, kStream>(t, in, r, c, lines + (r - r_begin), kMaxBlockRows, stage, staged);
        for (std::int64_t k0 = 0; k0 < L; k0 += kStagedLinesPerPass)
          for (std::int64_t q = 0; q < r_full - r_begin; q += lanes)
            for (std::int64_t k = k0; k < k0 + kStagedLinesPerPass; ++k)
              StoreVector<Word, kStream>(hn::Load(d, lines + k * kMaxBlockRows + q),
                                         out + (c + k) * col_out + r_begin + q);
      }
    } else {
      // Band by band (rows outer), or column block by column block (t.columns_first).
      const bool columns_first = t.columns_first;
      const std::int64_t outer_begin = columns_first ? c_begin : r_begin, outer_end = columns_first ? c_full : r_full;
      const std::int64_t inner_begin = columns_first ? r_begin : c_begin, inner_end = columns_first ? r_full : c_full;
      for (std::int64_t i = outer_begin; i < outer_end; i += L) {
        for (std::int64_t j = inner_begin; j < inner_end; j += L) {
          const std::int64_t r = columns_first ? j : i, c = columns_first ? i : j;
          next.prefetch_tile(r, L, c);
          LineTile<Word, kStream>(t, in, r, c, out + c * col_out + r, col_out, stage, staged);
        }
      }
    }
    TransposeEdges<Word, kStream>(t, in, out, r_begin, r_full, c_full, c_begin);
  }
}

/// Whether transposes take LineTransposeImpl: with 256- and 512-bit vectors. 128-bit vectors
/// would need four parts of R vectors per output line, more than their 16 registers hold.
template <class Word>
constexpr bool kLineTransposes = hn::MaxLanes(hn::ScalableTag<Word>()) * sizeof(Word) >= 32;

template <class Word>
void TransposeTile(const Tile<Word>& t) {
  const auto es = static_cast<std::int64_t>(sizeof(Word));
  const bool stream = t.stream && aligned16(t.out) && (t.col_out * es) % 16 == 0 && (t.batch_out * es) % 16 == 0;
  if constexpr (kLineTransposes<Word>) {
    // Streaming whole-line stores need every band's target line-aligned (LineAlignedFirstRow).
    if (!stream) return LineTransposeImpl<Word, false>(t);
    if ((t.col_out * es) % 64 == 0) return LineTransposeImpl<Word, true>(t);
  }
  if (stream) TransposeTileImpl<Word, true>(t);
  else TransposeTileImpl<Word, false>(t);
}
#endif  // HWY_TARGET == HWY_SCALAR

// ---- the executor -------------------------------------------------------------------------------

/// Work items: (outer index, batch block, row block, column block), enumerated in that nesting
/// (or with row and column blocks swapped). Chunks of items are the unit of threading.
template <class Word>
void Execute(const CopySchedule& s, const Word* in, Word* out) {
  void (*kernel)(const Tile<Word>&) = &ScalarTile<Word>;
  switch (s.kernel) {
    case TileKernel::scalar: kernel = &ScalarTile<Word>; break;
    case TileKernel::units:
      kernel = s.cached && !s.stream && s.unit >= static_cast<std::int64_t>(hn::Lanes(hn::ScalableTag<Word>()))
                   ? &WarmUnitsTile<Word>
                   : &UnitsTile<Word>;
      break;
    case TileKernel::transpose: kernel = &TransposeTile<Word>; break;
    case TileKernel::fill: kernel = &FillTile<Word>; break;
    case TileKernel::split_short_axis:
    case TileKernel::merge_short_axis: return;  // not tiles: copy.cpp runs them in short_axis_simd.cpp
  }
  const Loop batch_loop = s.batched ? s.outer[s.outer_rank - 1] : Loop{};
  const auto bytes = static_cast<std::int64_t>(sizeof(Word)) * s.total;

  // Where item `item` lies: fills `tile` (all but the kernel's prefetch fields) and `row_in`.
  auto locate = [&](std::int64_t item, Tile<Word>& tile, std::int64_t* row_in) {
    const TilePlace place = locate_tile(s, item, row_in);
    tile.in = in + place.in_offset;
    tile.out = out + place.out_offset;
    tile.row_in = row_in;
    tile.row_step = place.row_step;
    tile.rows = place.rows;
    tile.cols = place.cols;
    tile.unit = s.unit;
    tile.col_in = s.col_in_stride;
    tile.col_out = s.col_out_stride;
    tile.batch = place.batch;
    tile.batch_in = batch_loop.in_stride;
    tile.batch_out = batch_loop.out_stride;
    tile.stream = s.stream;
    tile.prefetch = !s.cached;
    tile.stage_rows = s.stage_rows;
    tile.columns_first = s.columns_first;
    tile.stage_lines = s.stage_lines;
  };

  parallel_for(s.items, s.chunk_items, 2 * bytes >= kParallelMinBytes, [&](std::int64_t begin, std::int64_t end) {
    std::int64_t row_tables[2][kMaxBlockRows];
    Tile<Word> tiles[2]{};
    int current = 0;
    locate(begin, tiles[current], row_tables[current]);
    for (std::int64_t item = begin; item < end; ++item) {  // each item located once, one ahead
      Tile<Word>& tile = tiles[current];
      Tile<Word>& next = tiles[1 - current];
      const bool has_next = item + 1 < end;
      if (has_next) locate(item + 1, next, row_tables[1 - current]);
      tile.next_in = next.in;
      tile.next_row_in = next.row_in;
      tile.next_rows = has_next ? next.rows : 0;
      tile.next_cols = has_next ? next.cols : 0;
      kernel(tile);
      current = 1 - current;
    }
    if (s.stream) hwy::FlushStream();
  });
}

void ExecuteCopy(const CopySchedule& s, const void* in, void* out) {
  with_element_word(s.element_size, [&](auto word) {
    using Word = decltype(word);
    Execute(s, static_cast<const Word*>(in), static_cast<Word*>(out));
  });
}

}  // namespace einops::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace einops::detail {

HWY_EXPORT(ExecuteCopy);

void execute_tile_copy(const CopySchedule& schedule, const void* in, void* out) {
  HWY_DYNAMIC_DISPATCH(ExecuteCopy)(schedule, in, out);
}

}  // namespace einops::detail
#endif
