// Executes the short-axis schedules (TileKernel::split_short_axis and merge_short_axis): copies
// whose innermost input or output axis holds a few channels, streamed as whole rows.
//   split: a row of P pixels x C channels (pixel stride C, channel stride 1) -> C planes of P;
//   merge: C rows of P pixels (each contiguous) -> P pixels x C channels, contiguous.
// Each step moves whole vectors per channel through Highway's LoadInterleaved / StoreInterleaved
// (byte shuffles and 128-bit block permutes in registers) for 2, 3 and 4 channels; 6, 8, 9, 12 and
// 16 channels take two such passes through an L1 buffer. No per-row offset tables: a block is a
// long stretch of one row (copy_schedule.cpp), so a call's overhead is paid once per many vectors.
// Assumptions: strides in elements; the pixel axis is contiguous on the side that holds the
// channels innermost and contiguous (stride 1) on the other side; non-temporal stores only where
// every vector store of the run is vector-aligned.
#include <algorithm>
#include <cstdint>

#include "copy_schedule.hpp"
#include "element_words.hpp"
#include "parallel.hpp"
#include "../odometer.hpp"

#include "hwy_config.hpp"
#undef HWY_TARGET_INCLUDE
#define HWY_TARGET_INCLUDE "kernels/short_axis_simd.cpp"
#include <hwy/foreach_target.h>  // IWYU pragma: keep

#include <hwy/cache_control.h>
#include <hwy/highway.h>

HWY_BEFORE_NAMESPACE();
namespace einops::detail::HWY_NAMESPACE {
namespace hn = hwy::HWY_NAMESPACE;

template <class D>
bool vector_aligned(D d, const hn::TFromD<D>* p) {
  return reinterpret_cast<std::uintptr_t>(p) % (hn::Lanes(d) * sizeof(hn::TFromD<D>)) == 0;
}

template <int C, class D, class V = hn::Vec<D>>
HWY_INLINE void LoadChannels(D d, const hn::TFromD<D>* HWY_RESTRICT in, V (&v)[C]) {
  if constexpr (C == 2) hn::LoadInterleaved2(d, in, v[0], v[1]);
  else if constexpr (C == 3) hn::LoadInterleaved3(d, in, v[0], v[1], v[2]);
  else hn::LoadInterleaved4(d, in, v[0], v[1], v[2], v[3]);
}

template <int C, class D, class V = hn::Vec<D>>
HWY_INLINE void StoreChannels(D d, const V (&v)[C], hn::TFromD<D>* HWY_RESTRICT out) {
  if constexpr (C == 2) hn::StoreInterleaved2(v[0], v[1], d, out);
  else if constexpr (C == 3) hn::StoreInterleaved3(v[0], v[1], v[2], d, out);
  else hn::StoreInterleaved4(v[0], v[1], v[2], v[3], d, out);
}

template <bool kStream, class D>
HWY_INLINE void StoreVector(D d, hn::Vec<D> v, hn::TFromD<D>* HWY_RESTRICT out) {
  if constexpr (kStream) hn::Stream(v, d, out);
  else hn::StoreU(v, d, out);
}

/// Split pixels [p, end) in steps of whole vectors of `d`; returns where it stopped.
template <int C, bool kStream, class Word, class D>
HWY_INLINE std::int64_t SplitVectors(D d, const Word* HWY_RESTRICT in, Word* HWY_RESTRICT out, std::int64_t plane,
                                     std::int64_t p, std::int64_t end) {
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
  for (; p + lanes <= end; p += lanes) {
    hn::Vec<D> v[C];
    LoadChannels<C>(d, in + p * C, v);
    for (int k = 0; k < C; ++k) StoreVector<kStream>(d, v[k], out + k * plane + p);
  }
  return p;
}

/// out[k * plane + p] = in[p * C + k] for p < n, k < C.
template <class Word, int C>
void SplitRun(const Word* HWY_RESTRICT in, Word* HWY_RESTRICT out, std::int64_t n, std::int64_t plane, bool stream) {
  const hn::ScalableTag<Word> d;
  const hn::CappedTag<Word, 16 / sizeof(Word)> narrow;  // the tail of a short row
  std::int64_t p = 0;
  // Streaming stores need every plane's vectors aligned: the plane stride whole vectors, and the
  // first pixels (scalar) up to the first aligned one.
  const auto vector_words = static_cast<std::int64_t>(hn::Lanes(d));
  if (stream && (plane % vector_words) == 0 && n >= 4 * vector_words) {
    for (; p < n && !vector_aligned(d, out + p); ++p)
      for (int k = 0; k < C; ++k) out[k * plane + p] = in[p * C + k];
    if (vector_aligned(d, out + p)) p = SplitVectors<C, true>(d, in, out, plane, p, n);
  }
  p = SplitVectors<C, false>(d, in, out, plane, p, n);
  p = SplitVectors<C, false>(narrow, in, out, plane, p, n);
  for (; p < n; ++p)
    for (int k = 0; k < C; ++k) out[k * plane + p] = in[p * C + k];
}

/// Merge pixels [p, end) in steps of whole vectors of `d`; with kStream through an L1 buffer
/// (interleaved stores have no streaming form), `out + p * C` vector-aligned.
template <int C, bool kStream, class Word, class D>
HWY_INLINE std::int64_t MergeVectors(D d, const Word* const* rows, Word* HWY_RESTRICT out, std::int64_t p,
                                     std::int64_t end) {
  const auto lanes = static_cast<std::int64_t>(hn::Lanes(d));
  HWY_ALIGN Word buffer[kStream ? C * hn::MaxLanes(d) : 1];
  const Word* row[C];  // locals: byte stores may alias the caller's array, locals they cannot
  for (int k = 0; k < C; ++k) row[k] = rows[k];
  for (; p + lanes <= end; p += lanes) {
    hn::Vec<D> v[C];
    for (int k = 0; k < C; ++k) v[k] = hn::LoadU(d, row[k] + p);
    if constexpr (kStream) {
      StoreChannels<C>(d, v, buffer);
      for (int k = 0; k < C; ++k) hn::Stream(hn::Load(d, buffer + k * lanes), d, out + p * C + k * lanes);
    } else {
      StoreChannels<C>(d, v, out + p * C);
    }
  }
  return p;
}

/// out[p * C + k] = rows[k][p] for p < n, k < C.
template <class Word, int C>
void MergeRun(const Word* const* rows, Word* HWY_RESTRICT out, std::int64_t n, bool stream) {
  const hn::ScalableTag<Word> d;
  const hn::CappedTag<Word, 16 / sizeof(Word)> narrow;
  std::int64_t p = 0;
  const auto vector_words = static_cast<std::int64_t>(hn::Lanes(d));
  if (stream && n >= 4 * vector_words) {
    // Whole pixels up to the first one whose output starts a vector (within one vector's pixels).
    for (; p < vector_words && !vector_aligned(d, out + p * C); ++p)
      for (int k = 0; k < C; ++k) out[p * C + k] = rows[k][p];
    if (vector_aligned(d, out + p * C)) p = MergeVectors<C, true>(d, rows, out, p, n);
  }
  p = MergeVectors<C, false>(d, rows, out, p, n);
  p = MergeVectors<C, false>(narrow, rows, out, p, n);
  for (; p < n; ++p)
    for (int k = 0; k < C; ++k) out[p * C + k] = rows[k][p];
}

/// Pixels that a composite length (C = A * B) moves through its L1 buffer at a time.
constexpr std::int64_t kCompositePixels = 128;

/// C = A * B channels as two splits through an L1 buffer: by A (buffer plane i holds the B
/// channels i + A * j of each pixel, interleaved), then each buffer plane by B.
template <class Word, int A, int B>
void SplitComposite(const Word* HWY_RESTRICT in, Word* HWY_RESTRICT out, std::int64_t n, std::int64_t plane,
                    bool stream) {
  constexpr std::int64_t kPitch = kCompositePixels * B;
  HWY_ALIGN Word buffer[A * kPitch];
  for (std::int64_t p = 0; p < n; p += kCompositePixels) {
    const std::int64_t count = std::min(kCompositePixels, n - p);
    SplitRun<Word, A>(in + p * A * B, buffer, count * B, kPitch, false);
    for (int i = 0; i < A; ++i) SplitRun<Word, B>(buffer + i * kPitch, out + i * plane + p, count, A * plane, stream);
  }
}

/// The inverse: each group of B rows i + A * j merged into buffer plane i, then the A planes.
template <class Word, int A, int B>
void MergeComposite(const Word* const* rows, Word* HWY_RESTRICT out, std::int64_t n, bool stream) {
  constexpr std::int64_t kPitch = kCompositePixels * B;
  HWY_ALIGN Word buffer[A * kPitch];
  for (std::int64_t p = 0; p < n; p += kCompositePixels) {
    const std::int64_t count = std::min(kCompositePixels, n - p);
    const Word* planes[A];
    for (int i = 0; i < A; ++i) {
      const Word* group[B];
      for (int j = 0; j < B; ++j) group[j] = rows[i + A * j] + p;
      MergeRun<Word, B>(group, buffer + i * kPitch, count, false);
      planes[i] = buffer + i * kPitch;
    }
    MergeRun<Word, A>(planes, out + p * A * B, count * B, stream);
  }
}

template <class Word>
using SplitFn = void (*)(const Word*, Word*, std::int64_t, std::int64_t, bool);
template <class Word>
using MergeFn = void (*)(const Word* const*, Word*, std::int64_t, bool);

/// The kernels for each length that short_axis_kernel_takes accepts (null for the others).
template <class Word>
SplitFn<Word> split_for(std::int64_t channels) {
  switch (channels) {
    case 2: return &SplitRun<Word, 2>;
    case 3: return &SplitRun<Word, 3>;
    case 4: return &SplitRun<Word, 4>;
    case 6: return &SplitComposite<Word, 2, 3>;
    case 8: return &SplitComposite<Word, 2, 4>;
    case 9: return &SplitComposite<Word, 3, 3>;
    case 12: return &SplitComposite<Word, 3, 4>;
    case 16: return &SplitComposite<Word, 4, 4>;
    default: return nullptr;
  }
}
template <class Word>
MergeFn<Word> merge_for(std::int64_t channels) {
  switch (channels) {
    case 2: return &MergeRun<Word, 2>;
    case 3: return &MergeRun<Word, 3>;
    case 4: return &MergeRun<Word, 4>;
    case 6: return &MergeComposite<Word, 2, 3>;
    case 8: return &MergeComposite<Word, 2, 4>;
    case 9: return &MergeComposite<Word, 3, 3>;
    case 12: return &MergeComposite<Word, 3, 4>;
    case 16: return &MergeComposite<Word, 4, 4>;
    default: return nullptr;
  }
}

/// Below this much memory traffic a short-axis copy stays on one thread: these kernels move data
/// that fits the caches faster than a second thread is woken (a 224 x 224 RGB float image is
/// 1.2 MB of traffic), so the general kParallelMinBytes would make two threads slower than one.
constexpr std::int64_t kShortAxisParallelMinBytes = std::int64_t{4} << 20;

/// Work items are (outer index, block of the pixel axis), pixel blocks fastest; a chunk of items
/// walks the outer loops with an odometer, so an item costs no division.
template <class Word>
void ExecuteShortAxis(const CopySchedule& s, const Word* in, Word* out) {
  const bool split = s.kernel == TileKernel::split_short_axis;
  const std::int64_t channels = split ? s.cols : s.rows;
  const std::int64_t pixels = split ? s.rows : s.cols;
  const std::int64_t block = split ? s.block_rows : s.block_cols;
  const std::int64_t blocks = split ? s.row_blocks : s.col_blocks;
  const std::int64_t pixel_in = split ? s.row_loops[0].in_stride : s.col_in_stride;
  const std::int64_t pixel_out = split ? s.row_loops[0].out_stride : s.col_out_stride;
  std::int64_t row_offsets[kMaxShortAxis] = {};  // merge: each channel's input row
  if (!split) tabulate_row_offsets(s, 0, channels, row_offsets);
  const SplitFn<Word> split_run = split_for<Word>(channels);
  const MergeFn<Word> merge_run = merge_for<Word>(channels);
  const auto bytes = static_cast<std::int64_t>(sizeof(Word)) * s.total;

  parallel_for(s.items, s.chunk_items, 2 * bytes >= kShortAxisParallelMinBytes,
               [&](std::int64_t begin, std::int64_t end) {
                 std::int64_t index[kMaxRank];  // set by the seek
                 std::int64_t in_offset = 0, out_offset = 0;
                 const auto extent = [&](int i) { return s.outer[i].extent; };
                 const auto move = [&](int i, std::int64_t steps) {
                   in_offset += steps * s.outer[i].in_stride;
                   out_offset += steps * s.outer[i].out_stride;
                 };
                 odometer_seek(s.outer_rank, begin / blocks, index, extent, move);
                 std::int64_t b = begin % blocks;
                 for (std::int64_t item = begin; item < end; ++item) {
                   const std::int64_t p0 = b * block;
                   const std::int64_t n = std::min(block, pixels - p0);
                   const Word* block_in = in + in_offset + p0 * pixel_in;
                   Word* block_out = out + out_offset + p0 * pixel_out;
                   if (split) {
                     split_run(block_in, block_out, n, s.col_out_stride, s.stream);
                   } else {
                     const Word* rows[kMaxShortAxis];
                     for (std::int64_t k = 0; k < channels; ++k) rows[k] = block_in + row_offsets[k];
                     merge_run(rows, block_out, n, s.stream);
                   }
                   if (++b < blocks) continue;
                   b = 0;
                   odometer_step(s.outer_rank, index, extent, move);
                 }
                 if (s.stream) hwy::FlushStream();
               });
}

void ExecuteShortAxisCopy(const CopySchedule& s, const void* in, void* out) {
  with_element_word(s.element_size, [&](auto word) {
    using Word = decltype(word);
    ExecuteShortAxis(s, static_cast<const Word*>(in), static_cast<Word*>(out));
  });
}

}  // namespace einops::detail::HWY_NAMESPACE
HWY_AFTER_NAMESPACE();

#if HWY_ONCE
namespace einops::detail {

HWY_EXPORT(ExecuteShortAxisCopy);

void execute_short_axis_copy(const CopySchedule& schedule, const void* in, void* out) {
  HWY_DYNAMIC_DISPATCH(ExecuteShortAxisCopy)(schedule, in, out);
}

}  // namespace einops::detail
#endif
