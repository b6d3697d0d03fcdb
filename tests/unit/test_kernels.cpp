// The kernels against naive references: permuted, broadcast and plain copies and every reduction,
// on random walks (ranks 0-8; strides negative, zero, padded, permuted) and every element type,
// for every SIMD target this CPU runs; the kernel each tile shape selects; threads (bit-identical
// results for 1, 2, 3 and 8 threads, concurrent callers); sum accuracy.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include <einops/detail/kernels.hpp>
#include <einops/einops.hpp>
#include <einops/threads.hpp>

#include "kernels/copy_schedule.hpp"
#include "kernels/parallel.hpp"
#include "kernels/reduce_ops.hpp"
#include "kernels/reduce_schedule.hpp"
#include "odometer.hpp"

namespace {

using einops::DType;
using einops::Reduction;
using einops::detail::Walk;

TEST(Odometer, StepsAndSeeksInRowMajorOrder) {
  // Extents [2, 3, 4]; one offset with strides [1, 8, 100] (any layout): every position is
  // reached in row-major order, a seek lands where the steps do, and the last step wraps to 0.
  const std::int64_t extent[] = {2, 3, 4};
  const std::int64_t stride[] = {1, 8, 100};
  std::int64_t offset = 0;
  const auto extent_of = [&](int d) { return extent[d]; };
  const auto move = [&](int d, std::int64_t steps) { offset += steps * stride[d]; };
  std::int64_t index[3];
  einops::detail::odometer_seek(3, 0, index, extent_of, move);
  for (std::int64_t position = 0; position < 24; ++position) {
    const std::int64_t i = position / 12, j = position / 4 % 3, k = position % 4;
    EXPECT_EQ(offset, i * 1 + j * 8 + k * 100) << position;
    std::int64_t seek_index[3];
    std::int64_t seek_offset = 0;
    einops::detail::odometer_seek(3, position, seek_index, extent_of,
                                  [&](int d, std::int64_t steps) { seek_offset += steps * stride[d]; });
    EXPECT_EQ(seek_offset, offset) << position;
    EXPECT_EQ((std::vector<std::int64_t>(seek_index, seek_index + 3)), (std::vector<std::int64_t>(index, index + 3)));
    EXPECT_EQ(einops::detail::odometer_step(3, index, extent_of, move), position != 23) << position;
  }
  EXPECT_EQ(offset, 0);
  EXPECT_FALSE(einops::detail::odometer_step(0, index, extent_of, move));  // rank 0: one position
}

/// Runs the test body once per SIMD target (restoring automatic dispatch afterwards).
class EveryTarget : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { einops::detail::force_simd_target(GetParam()); }
  void TearDown() override { einops::detail::force_simd_target(""); }
};

std::vector<std::string> targets() { return einops::detail::simd_targets(); }

std::string target_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

// ---- random walks ---------------------------------------------------------------------------------

struct Dim {
  std::int64_t extent;
  std::int64_t in_stride;
  std::int64_t out_stride;
};

/// A random problem: output dims (with input and output strides) and reduced dims (input strides).
struct Problem {
  std::vector<Dim> dims;
  std::vector<Dim> reduced;  // out_stride unused
  std::int64_t in_base = 0;  // element offset of index 0 in the input buffer (negative strides)
  std::int64_t in_size = 1;  // input buffer length in elements
  std::int64_t out_base = 0;
  std::int64_t out_size = 1;

  Walk walk(bool merged) const {
    Walk w;
    for (const Dim& d : dims) w.push_output(d.extent, d.in_stride, d.out_stride);
    for (const Dim& d : reduced) w.push_reduced(d.extent, d.in_stride);
    if (merged) w.merge();
    return w;
  }
  std::int64_t outputs() const {
    std::int64_t n = 1;
    for (const Dim& d : dims) n *= d.extent;
    return n;
  }
  std::int64_t reduced_count() const {
    std::int64_t n = 1;
    for (const Dim& d : reduced) n *= d.extent;
    return n;
  }
};

std::int64_t pick_extent(std::mt19937_64& rng, std::int64_t budget) {
  static const std::int64_t choices[] = {1, 2, 3, 4, 5, 7, 8, 9, 16, 17, 31, 32, 33, 64, 65, 100};
  for (;;) {
    const std::int64_t e = choices[rng() % std::size(choices)];
    if (e <= budget) return e;
  }
}

/// Strides of a layout of `extents` in a buffer: a random axis order, random padding, some axes
/// reversed; `broadcast` axes get stride 0. Returns the base offset and buffer size.
void layout(std::mt19937_64& rng, std::vector<std::int64_t*>& strides, const std::vector<std::int64_t>& extents,
            bool allow_broadcast, bool allow_negative, std::int64_t& base, std::int64_t& size) {
  std::vector<std::size_t> order(extents.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), rng);
  if (rng() % 3 == 0) std::sort(order.begin(), order.end());  // often row-major, as in real use
  std::int64_t step = 1;
  base = 0;
  for (std::size_t k = order.size(); k-- > 0;) {
    const std::size_t i = order[k];
    if (allow_broadcast && rng() % 6 == 0) {
      *strides[i] = 0;
      continue;
    }
    const bool negative = allow_negative && rng() % 5 == 0;
    *strides[i] = negative ? -step : step;
    if (negative) base += step * (extents[i] - 1);
    step *= extents[i] + (rng() % 7 == 0 ? 1 : 0);  // occasional padding
  }
  size = std::max<std::int64_t>(step, 1) + 1;
}

Problem random_problem(std::mt19937_64& rng, int rank, int reduced_rank, bool output_negative) {
  Problem p;
  std::int64_t budget = 20000;
  std::vector<std::int64_t> extents;
  for (int i = 0; i < rank + reduced_rank; ++i) {
    const std::int64_t e = pick_extent(rng, std::max<std::int64_t>(1, budget));
    extents.push_back(e);
    budget /= e;
  }
  std::shuffle(extents.begin(), extents.end(), rng);
  for (int i = 0; i < rank; ++i) p.dims.push_back(Dim{extents[static_cast<std::size_t>(i)], 0, 0});
  for (int i = 0; i < reduced_rank; ++i) p.reduced.push_back(Dim{extents[static_cast<std::size_t>(rank + i)], 0, 0});
  // Input: all dims (output and reduced) share one buffer.
  std::vector<std::int64_t*> in_strides;
  std::vector<std::int64_t> in_extents;
  for (Dim& d : p.dims) in_strides.push_back(&d.in_stride), in_extents.push_back(d.extent);
  for (Dim& d : p.reduced) in_strides.push_back(&d.in_stride), in_extents.push_back(d.extent);
  layout(rng, in_strides, in_extents, true, true, p.in_base, p.in_size);
  // Output: non-overlapping (no broadcast), possibly permuted, padded, reversed.
  std::vector<std::int64_t*> out_strides;
  std::vector<std::int64_t> out_extents;
  for (Dim& d : p.dims) out_strides.push_back(&d.out_stride), out_extents.push_back(d.extent);
  if (rng() % 2 == 0) {  // the common case: row-major output
    std::int64_t step = 1;
    for (std::size_t i = p.dims.size(); i-- > 0;) {
      p.dims[i].out_stride = step;
      step *= p.dims[i].extent;
    }
    p.out_base = 0;
    p.out_size = step + 1;
  } else {
    layout(rng, out_strides, out_extents, false, output_negative, p.out_base, p.out_size);
  }
  return p;
}

/// Calls visit(in_offset, out_offset, reduced_offsets...) in row-major output order.
template <class Visit>
void for_each_index(const std::vector<Dim>& dims, Visit visit) {
  std::vector<std::int64_t> index(dims.size(), 0);
  std::int64_t total = 1;
  for (const Dim& d : dims) total *= d.extent;
  for (std::int64_t n = 0; n < total; ++n) {
    std::int64_t in = 0, out = 0;
    for (std::size_t i = 0; i < dims.size(); ++i) {
      in += index[i] * dims[i].in_stride;
      out += index[i] * dims[i].out_stride;
    }
    visit(in, out);
    for (std::size_t i = dims.size(); i-- > 0;) {
      if (++index[i] < dims[i].extent) break;
      index[i] = 0;
    }
  }
}

/// With `line_aligned_output`, the output's first element (out_base) starts a cache line. With
/// `input_line_offset` >= 0, the input's first element (in_base) lies that many words past a line.
template <class Word>
void check_copy(const Problem& p, bool merged, const std::string& context, bool line_aligned_output = false,
                std::int64_t input_line_offset = -1) {
  constexpr std::size_t kLineWords = 64 / sizeof(Word);
  std::vector<Word> in_buffer(static_cast<std::size_t>(p.in_size) + 2 * kLineWords);
  std::size_t in_shift = 0;
  if (input_line_offset >= 0)
    while ((reinterpret_cast<std::uintptr_t>(in_buffer.data() + in_shift + static_cast<std::size_t>(p.in_base)) -
            static_cast<std::uintptr_t>(input_line_offset) * sizeof(Word)) %
               64 !=
           0)
      ++in_shift;
  const std::span<Word> in(in_buffer.data() + in_shift, static_cast<std::size_t>(p.in_size));
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<Word>(i * 2654435761u + 7);
  std::vector<Word> buffer(static_cast<std::size_t>(p.out_size) + kLineWords, Word{0});
  std::size_t shift = 0;
  if (line_aligned_output)
    while (reinterpret_cast<std::uintptr_t>(buffer.data() + shift + static_cast<std::size_t>(p.out_base)) % 64 != 0)
      ++shift;
  Word* out = buffer.data() + shift;
  std::vector<Word> expected(static_cast<std::size_t>(p.out_size), Word{0});
  for_each_index(p.dims, [&](std::int64_t i, std::int64_t o) {
    expected[static_cast<std::size_t>(p.out_base + o)] = in[static_cast<std::size_t>(p.in_base + i)];
  });
  einops::detail::copy_strided(sizeof(Word), in.data() + p.in_base, out + p.out_base, p.walk(merged));
  ASSERT_EQ(std::vector<Word>(out, out + p.out_size), expected) << context;
}

TEST_P(EveryTarget, CopyMatchesReferenceOnRandomWalks) {
  std::mt19937_64 rng(20240611);
  for (int trial = 0; trial < 400; ++trial) {
    const int rank = static_cast<int>(rng() % 9);  // 0..8
    const Problem p = random_problem(rng, rank, 0, true);
    const bool merged = rng() % 2 == 0;
    const std::string context = "trial " + std::to_string(trial) + " rank " + std::to_string(rank);
    switch (rng() % 4) {
      case 0: check_copy<std::uint8_t>(p, merged, context); break;
      case 1: check_copy<std::uint16_t>(p, merged, context); break;
      case 2: check_copy<std::uint32_t>(p, merged, context); break;
      default: check_copy<std::uint64_t>(p, merged, context); break;
    }
    if (HasFatalFailure()) return;
  }
}

// ---- each tile kernel, with edges --------------------------------------------------------------

Problem permutation_problem(const std::vector<std::int64_t>& shape, const std::vector<int>& perm) {
  // Output dim k is input axis perm[k]; both row-major.
  Problem p;
  std::vector<std::int64_t> in_strides(shape.size());
  std::int64_t step = 1;
  for (std::size_t i = shape.size(); i-- > 0;) in_strides[i] = step, step *= shape[i];
  p.in_size = step;
  for (int axis : perm)
    p.dims.push_back(Dim{shape[static_cast<std::size_t>(axis)], in_strides[static_cast<std::size_t>(axis)], 0});
  step = 1;
  for (std::size_t i = p.dims.size(); i-- > 0;) p.dims[i].out_stride = step, step *= p.dims[i].extent;
  p.out_size = step;
  return p;
}

einops::detail::TileKernel kernel_of(const Problem& p, std::size_t element_size) {
  return einops::detail::make_copy_schedule(p.walk(true), element_size).kernel;
}

TEST_P(EveryTarget, EachTileKernelOnEdges) {
  using einops::detail::TileKernel;
  // Transposes whose sides are and are not multiples of a cache line, per element size.
  for (const std::int64_t rows : {16, 37, 64, 129})
    for (const std::int64_t cols : {16, 35, 96}) {
      const Problem p = permutation_problem({rows, cols}, {1, 0});
      // 16 input columns are a short axis: split into planes (test_kernels_short_axes.cpp).
      EXPECT_EQ(kernel_of(p, 4), cols == 16 ? TileKernel::split_short_axis : TileKernel::transpose);
      check_copy<std::uint8_t>(p, true, "transpose u8");
      check_copy<std::uint16_t>(p, true, "transpose u16");
      check_copy<std::uint32_t>(p, true, "transpose u32");
      check_copy<std::uint64_t>(p, true, "transpose u64");
    }
  // Whole runs: a b c -> b a c.
  const Problem units = permutation_problem({5, 7, 33}, {1, 0, 2});
  EXPECT_EQ(kernel_of(units, 4), TileKernel::units);
  check_copy<std::uint32_t>(units, true, "units");
  const Problem unit_blocks = permutation_problem({600, 40, 24}, {1, 0, 2});  // 3 x 4 blocks, each prefetching the next
  const auto unit_schedule = einops::detail::make_copy_schedule(unit_blocks.walk(true), 4);
  EXPECT_EQ(unit_schedule.kernel, TileKernel::units);
  EXPECT_GT(unit_schedule.row_blocks * unit_schedule.col_blocks, 4);
  check_copy<std::uint32_t>(unit_blocks, true, "units over blocks");
  check_copy<std::uint8_t>(unit_blocks, true, "units over blocks");
  // 2-4 rows interleaved (c h w -> h w c with c = 3) and deinterleaved (h w c -> c h w): the
  // short-axis kernels (test_kernels_short_axes.cpp).
  for (const std::int64_t channels : {2, 3, 4}) {
    const Problem interleave = permutation_problem({channels, 9, 37}, {1, 2, 0});
    EXPECT_EQ(kernel_of(interleave, 2), TileKernel::merge_short_axis);
    check_copy<std::uint16_t>(interleave, true, "interleave");
    check_copy<std::uint64_t>(interleave, true, "interleave");
    const Problem deinterleave = permutation_problem({9, 37, channels}, {2, 0, 1});
    EXPECT_EQ(kernel_of(deinterleave, 4), TileKernel::split_short_axis);
    check_copy<std::uint32_t>(deinterleave, true, "deinterleave");
    check_copy<std::uint8_t>(deinterleave, true, "deinterleave");
  }
  // Broadcast along the output (b c -> b c h w) and upsampling (h w -> (h 2) (w 2)).
  Problem fill;  // rows longer than a block's row table: a fill block spans whole output rows
  fill.dims = {Dim{6, 1, 300}, Dim{300, 0, 1}};
  fill.in_size = 6;
  fill.out_size = 1800;
  EXPECT_EQ(kernel_of(fill, 4), TileKernel::fill);
  check_copy<std::uint32_t>(fill, true, "fill");
  Problem upsample;
  upsample.dims = {Dim{5, 37, 4 * 37}, Dim{2, 0, 2 * 37}, Dim{37, 1, 2}, Dim{2, 0, 1}};
  upsample.in_size = 5 * 37;
  upsample.out_size = 20 * 37;
  EXPECT_EQ(kernel_of(upsample, 4), TileKernel::merge_short_axis);
  check_copy<std::uint32_t>(upsample, true, "upsample");
  check_copy<std::uint8_t>(upsample, true, "upsample");
}

/// Whole runs of a copy the caches hold (at most 1 MiB: their vector path, whose last vector
/// overlaps the one before) and just beyond it (the streaming-sized blocks): runs of 1 to 130
/// bytes, around every vector width a target has, for each word size; padded and reversed input
/// rows; batched tiles (small tiles under an outer loop).
TEST_P(EveryTarget, WholeRunsAroundTheVectorWidth) {
  const auto runs = [&](auto word, std::int64_t unit_bytes) {
    using Word = decltype(word);
    const std::int64_t unit = std::max<std::int64_t>(1, unit_bytes / static_cast<std::int64_t>(sizeof(Word)));
    const std::string context = std::to_string(sizeof(Word)) + "-byte words, runs of " + std::to_string(unit);
    Problem p = permutation_problem({5, 7, unit}, {1, 0, 2});  // a b c -> b a c
    const einops::detail::CopySchedule schedule = einops::detail::make_copy_schedule(p.walk(true), sizeof(Word));
    if (unit > 1) {
      EXPECT_EQ(schedule.kernel, einops::detail::TileKernel::units) << context;
    }
    EXPECT_TRUE(schedule.cached) << context;
    check_copy<Word>(p, true, context);
    // Input rows padded by 3 words, the a axis reversed, the output one word into its buffer.
    Problem strided;
    strided.dims = {Dim{7, unit + 3, 5 * unit}, Dim{5, -7 * (unit + 3), unit}, Dim{unit, 1, 1}};
    strided.in_base = 4 * 7 * (unit + 3);
    strided.in_size = 5 * 7 * (unit + 3);
    strided.out_base = 1;
    strided.out_size = 35 * unit + 1;
    check_copy<Word>(strided, true, context + ", strided");
    // Batched: tiles of 3 x 2 runs under an outer loop of 9.
    check_copy<Word>(permutation_problem({9, 3, 2, unit}, {0, 2, 1, 3}), true, context + ", batched");
  };
  for (const std::int64_t unit_bytes :
       {1, 8, 15, 16, 17, 31, 32, 33, 48, 63, 64, 65, 96, 127, 128, 129, 130, 255, 256, 257, 520}) {
    runs(std::uint8_t{}, unit_bytes);
    runs(std::uint16_t{}, unit_bytes);
    runs(std::uint32_t{}, unit_bytes);
    runs(std::uint64_t{}, unit_bytes);
  }
  // The largest cached copy (1 MiB: 2 x 2016 runs of 65 4-byte words fit, 2 x 2017 do not) and
  // the smallest beyond it.
  for (const std::int64_t rows : {2016, 2017}) {
    const Problem p = permutation_problem({2, rows, 65}, {1, 0, 2});
    const einops::detail::CopySchedule schedule = einops::detail::make_copy_schedule(p.walk(true), 4);
    EXPECT_EQ(schedule.kernel, einops::detail::TileKernel::units);
    EXPECT_EQ(schedule.cached, rows == 2016);
    check_copy<std::uint32_t>(p, true, "runs of 65 words, " + std::to_string(rows) + " rows");
  }
}

TEST_P(EveryTarget, TransposesAtEveryOutputAlignment) {
  // Several row and column blocks (the kernel prefetches the next one), with the output starting
  // at every element offset within a cache line (full tiles then begin after the first boundary).
  const Problem blocks = permutation_problem({320, 200}, {1, 0});  // columns of 320: equal line offsets
  EXPECT_EQ(kernel_of(blocks, 4), einops::detail::TileKernel::transpose);
  for (std::int64_t offset = 0; offset < 64; ++offset) {
    Problem p = blocks;
    p.out_base = offset;
    p.out_size += offset;
    const std::string context = "output offset " + std::to_string(offset);
    check_copy<std::uint8_t>(p, true, context + " u8");
    if (offset < 32) check_copy<std::uint16_t>(p, true, context + " u16");
    if (offset < 16) check_copy<std::uint32_t>(p, true, context + " u32");
    if (offset < 8) check_copy<std::uint64_t>(p, true, context + " u64");
    if (HasFatalFailure()) return;
  }
  // Small tiles run batched: each batch entry prefetches the next.
  const Problem batched = permutation_problem({50, 20, 36}, {0, 2, 1});
  EXPECT_TRUE(einops::detail::make_copy_schedule(batched.walk(true), 4).batched);
  EXPECT_EQ(kernel_of(batched, 4), einops::detail::TileKernel::transpose);
  check_copy<std::uint32_t>(batched, true, "batched transpose");
  check_copy<std::uint16_t>(batched, true, "batched transpose");
}

TEST_P(EveryTarget, TransposesAtEveryInputAlignment) {
  // Caller memory need not start a cache line (malloc's blocks are aligned to 16 bytes): with input
  // rows whole lines apart, tiles that load rows' lines whole start at the first line boundary and
  // the columns before and after go with the edges. Every element offset of the input within a
  // line; tokens <-> maps shapes (both banded, columns first and through an L1 buffer), at output
  // offsets on and off a line; rows not whole lines apart; several batch entries.
  const Problem shapes[] = {
      permutation_problem({256, 64}, {1, 0}),         // tokens -> maps, columns first
      permutation_problem({2, 1024, 64}, {0, 2, 1}),  // through an L1 buffer (stage_lines)
      permutation_problem({64, 1024}, {1, 0}),        // maps -> tokens
      permutation_problem({320, 192}, {1, 0}),        // bands
      permutation_problem({3, 40, 48}, {0, 2, 1}),    // batched small tiles
      permutation_problem({200, 70}, {1, 0}),         // rows not whole lines apart
  };
  for (const Problem& base : shapes)
    for (const std::int64_t out_offset : {0, 3}) {
      Problem p = base;
      p.out_base = out_offset;
      p.out_size += out_offset;
      for (std::int64_t offset = 0; offset < 16; ++offset) {
        const std::string context = std::to_string(base.dims.back().extent) + " x " +
                                    std::to_string(base.dims[base.dims.size() - 2].extent) + ", input offset " +
                                    std::to_string(offset) + ", output offset " + std::to_string(out_offset);
        check_copy<std::uint32_t>(p, true, context + " u32", true, offset);
        if (offset < 8) check_copy<std::uint64_t>(p, true, context + " u64", true, offset);
        if (offset % 4 == 1) {  // the line kernels of 1- and 2-byte words read rows in 16-byte blocks
          check_copy<std::uint16_t>(p, true, context + " u16", true, offset);
          check_copy<std::uint8_t>(p, true, context + " u8", true, offset);
        }
        if (HasFatalFailure()) return;
      }
    }
}

TEST_P(EveryTarget, TransposesCopyRowsThatCrowdL1SetsFirst) {
  // Input rows a multiple of 1 KB apart put a band's lines in a few L1 sets: the transposing
  // kernel copies them to an L1 buffer before reading them (stage_rows). Rows 3136 bytes apart
  // spread over every set and are read in place. Both, at output offsets inside and on a line.
  const Problem crowded = permutation_problem({200, 1024}, {1, 0});
  const Problem spread = permutation_problem({200, 3136}, {1, 0});
  for (const std::size_t element_size : {1, 2, 4, 8}) {
    EXPECT_TRUE(einops::detail::make_copy_schedule(crowded.walk(true), element_size).stage_rows) << element_size;
    EXPECT_FALSE(einops::detail::make_copy_schedule(spread.walk(true), element_size).stage_rows) << element_size;
  }
  for (const std::int64_t offset : {0, 1, 16, 40}) {
    for (const Problem& base : {crowded, spread}) {
      Problem p = base;
      p.out_base = offset;
      p.out_size += offset;
      const std::string context =
          std::string(&base == &crowded ? "crowded" : "spread") + " rows, output offset " + std::to_string(offset);
      check_copy<std::uint8_t>(p, true, context + " u8", true);
      check_copy<std::uint16_t>(p, true, context + " u16", true);
      if (HasFatalFailure()) return;
    }
  }
  // Rows of a chain of dimensions (no single stride) are placed one by one, crowded or not (the
  // line kernel reads rows in place only when they share one stride).
  const Problem chain = permutation_problem({4, 16, 8, 512}, {3, 2, 1, 0});
  EXPECT_TRUE(einops::detail::make_copy_schedule(chain.walk(true), 1).stage_rows);
  check_copy<std::uint8_t>(chain, true, "crowded row chain u8", true);
  const Problem spread_chain = permutation_problem({4, 16, 8, 520}, {3, 2, 1, 0});
  EXPECT_FALSE(einops::detail::make_copy_schedule(spread_chain.walk(true), 1).stage_rows);
  check_copy<std::uint8_t>(spread_chain, true, "spread row chain u8", true);
  check_copy<std::uint16_t>(spread_chain, true, "spread row chain u16", true);
}

TEST_P(EveryTarget, CachedTransposesGoDownColumnsWhereOutputLinesCrowdL1Sets) {
  // b (h w) c -> b c h w with 69 or 60 channels: output lines 1 KB apart (256 tokens) share four L1
  // sets, so the tiles go column block by column block (columns_first); 4 KB apart (1024 tokens)
  // they share one, and each column block goes through an L1 buffer (stage_lines). 1000 tokens
  // spread over every set and keep bands; so do copies beyond the caches. Full tiles, edge
  // columns and rows before and after a line boundary (output offsets), several row blocks.
  const Problem quarter = permutation_problem({256, 69}, {1, 0});
  const Problem one_set = permutation_problem({2, 1024, 60}, {0, 2, 1});  // at most 1 MiB of 8-byte words
  const Problem spread = permutation_problem({1000, 69}, {1, 0});
  const Problem large = permutation_problem({8, 1024, 69}, {0, 2, 1});
  const auto schedule = [](const Problem& p, std::size_t element_size) {
    return einops::detail::make_copy_schedule(p.walk(true), element_size);
  };
  EXPECT_TRUE(schedule(quarter, 4).columns_first);
  EXPECT_FALSE(schedule(quarter, 4).stage_lines);
  EXPECT_TRUE(schedule(one_set, 4).columns_first);
  EXPECT_TRUE(schedule(one_set, 4).stage_lines);
  EXPECT_TRUE(schedule(one_set, 8).stage_lines);
  EXPECT_FALSE(schedule(spread, 4).columns_first);
  EXPECT_FALSE(schedule(large, 4).cached);
  EXPECT_FALSE(schedule(large, 4).columns_first);
  for (const std::int64_t offset : {0, 1, 7, 15}) {
    for (const Problem& base : {quarter, one_set, spread}) {
      Problem p = base;
      p.out_base = offset;
      p.out_size += offset;
      const std::string context =
          std::to_string(base.dims.back().extent) + " tokens, output offset " + std::to_string(offset);
      check_copy<std::uint32_t>(p, true, context + " u32", true);
      check_copy<std::uint64_t>(p, true, context + " u64", true);
      check_copy<std::uint16_t>(p, true, context + " u16", true);
      check_copy<std::uint8_t>(p, true, context + " u8", true);
      if (HasFatalFailure()) return;
    }
  }
}

TEST_P(EveryTarget, TransposeBlocksAreNarrowWhereOutputRunsEndWithTheBlock) {
  // h w -> w h with more rows than a block holds and more columns than 1 KB of a row: the next
  // block writes other output rows, so a block takes 32 columns (a whole line for 1-byte words).
  const Problem tall = permutation_problem({320, 2000}, {1, 0});
  for (const std::size_t element_size : {1, 2, 4, 8}) {
    const auto schedule = einops::detail::make_copy_schedule(tall.walk(true), element_size);
    EXPECT_EQ(schedule.kernel, einops::detail::TileKernel::transpose);
    EXPECT_EQ(schedule.block_rows, 256);
    EXPECT_EQ(schedule.block_cols, element_size == 1 ? 64 : 32) << element_size;
  }
  check_copy<std::uint32_t>(tall, true, "narrow blocks u32");
  check_copy<std::uint8_t>(tall, true, "narrow blocks u8");
  // b h w c -> b c h w ((h w) merged: 392 rows): the next row block goes on with every column's
  // run, so the block keeps them all.
  const Problem planes = permutation_problem({2, 7, 56, 64}, {0, 3, 1, 2});
  EXPECT_EQ(einops::detail::make_copy_schedule(planes.walk(true), 4).block_cols, 64);
  check_copy<std::uint32_t>(planes, true, "runs going on");
  // b c h w -> b h w c: the block's output is one run; 1 KB of each input row.
  const Problem channels_last = permutation_problem({2, 64, 7, 56}, {0, 2, 3, 1});
  EXPECT_EQ(einops::detail::make_copy_schedule(channels_last.walk(true), 4).block_cols, 256);
  check_copy<std::uint32_t>(channels_last, true, "one output run");
}

TEST_P(EveryTarget, LongRowChainsAreCutAndOuterLoopsFollowTheInput) {
  // a b c d e -> e d c b a: a, b, c and d are each contiguous in the output after the previous
  // one. The row chain stops before it would pass a block's rows (a: 24 rows; a b: 384 > 256),
  // and the rest are outer loops by decreasing input stride.
  const Problem reversal = permutation_problem({24, 16, 5, 3, 40}, {4, 3, 2, 1, 0});
  const auto schedule = einops::detail::make_copy_schedule(reversal.walk(true), 4);
  EXPECT_EQ(schedule.kernel, einops::detail::TileKernel::transpose);
  EXPECT_EQ(schedule.rows, 24);  // a alone: a b would be 384 rows
  ASSERT_EQ(schedule.outer_rank, 3);
  for (int i = 1; i < schedule.outer_rank; ++i)
    EXPECT_GT(schedule.outer[static_cast<std::size_t>(i - 1)].in_stride,
              schedule.outer[static_cast<std::size_t>(i)].in_stride);
  check_copy<std::uint32_t>(reversal, true, "reversal");
  check_copy<std::uint8_t>(reversal, true, "reversal");
  // A broadcast chain is never cut: a fill writes whole output rows.
  Problem fill;
  fill.dims = {Dim{3, 1, 600}, Dim{20, 0, 30}, Dim{30, 0, 1}};
  fill.in_size = 3;
  fill.out_size = 1800;
  const auto fill_schedule = einops::detail::make_copy_schedule(fill.walk(false), 4);
  EXPECT_EQ(fill_schedule.kernel, einops::detail::TileKernel::fill);
  EXPECT_EQ(fill_schedule.rows, 600);
  check_copy<std::uint32_t>(fill, false, "fill over two broadcast dimensions");
}

TEST_P(EveryTarget, StreamingStoresOnLargeOutputs) {
  // Over the streaming threshold (8 MiB), with ragged edges and a misaligned output start.
  Problem p = permutation_problem({1031, 1027}, {1, 0});
  EXPECT_TRUE(einops::detail::make_copy_schedule(p.walk(true), 8).stream);
  check_copy<std::uint64_t>(p, true, "stream transpose");
  p.out_base = 1;
  p.out_size += 1;
  check_copy<std::uint64_t>(p, true, "stream transpose, output off by one element");
  // Columns of whole cache lines take the wide streaming stores: every word size, the output
  // starting 3 elements into a line (the rows before the first line boundary go separately).
  const auto stream_lines = [&](auto word, std::int64_t rows, std::int64_t cols) {
    using Word = decltype(word);
    Problem q = permutation_problem({rows, cols}, {1, 0});
    EXPECT_TRUE(einops::detail::make_copy_schedule(q.walk(true), sizeof(Word)).stream);
    q.out_base = 3;
    q.out_size += 3;
    check_copy<Word>(q, true, "stream line transpose of " + std::to_string(sizeof(Word)) + "-byte words");
  };
  stream_lines(std::uint8_t{}, 4096, 2051);
  stream_lines(std::uint16_t{}, 2048, 2053);
  stream_lines(std::uint32_t{}, 2048, 1027);
  stream_lines(std::uint64_t{}, 1024, 1029);
  // Output lines straight from 512-bit registers (1- and 2-byte words): line-aligned columns, with
  // input rows in place and copied to L1 first; columns 16 bytes past a line take 128-bit streams.
  const auto stream_aligned = [&](auto word, std::int64_t rows, std::int64_t cols, bool crowded) {
    using Word = decltype(word);
    const Problem q = permutation_problem({rows, cols}, {1, 0});
    const einops::detail::CopySchedule schedule = einops::detail::make_copy_schedule(q.walk(true), sizeof(Word));
    EXPECT_TRUE(schedule.stream);
    EXPECT_EQ(schedule.stage_rows, crowded);
    check_copy<Word>(q, true,
                     "aligned stream transpose of " + std::to_string(rows) + " x " + std::to_string(cols) + " " +
                         std::to_string(sizeof(Word)) + "-byte words",
                     true);
  };
  stream_aligned(std::uint8_t{}, 4096, 2048, true);
  stream_aligned(std::uint8_t{}, 4096, 2100, false);
  stream_aligned(std::uint8_t{}, 4112, 2100, false);
  stream_aligned(std::uint8_t{}, 4096, 2051, true);  // 2051 bytes: 32 lines and a little, four sets for 64 rows
  stream_aligned(std::uint16_t{}, 2048, 2048, true);
  stream_aligned(std::uint16_t{}, 2056, 2100, false);
  // Interleaving 2-4 rows streams through its L1 buffer when the output is aligned, and stores
  // in place when it is not.
  for (const std::int64_t k : {2, 3, 4}) {
    Problem q = permutation_problem({k, 1100003}, {1, 0});
    const einops::detail::CopySchedule schedule = einops::detail::make_copy_schedule(q.walk(true), 4);
    EXPECT_EQ(schedule.kernel, einops::detail::TileKernel::merge_short_axis);
    EXPECT_TRUE(schedule.stream);
    check_copy<std::uint32_t>(q, true, "stream interleave of " + std::to_string(k) + " rows", true);
    q.out_base = 1;
    q.out_size += 1;
    check_copy<std::uint32_t>(q, true, "interleave of " + std::to_string(k) + " rows, output off by one element");
  }
  // A fill streams only from 64 MiB on (the cache holds what it writes below that).
  Problem cached_fill;
  cached_fill.dims = {Dim{3, 1, 1100001}, Dim{1100001, 0, 1}};
  cached_fill.in_size = 3;
  cached_fill.out_size = 3 * 1100001;
  EXPECT_FALSE(einops::detail::make_copy_schedule(cached_fill.walk(true), 4).stream);
  check_copy<std::uint32_t>(cached_fill, true, "cached fill");
  Problem fill;
  fill.dims = {Dim{2, 1, 4194305}, Dim{4194305, 0, 1}};
  fill.in_size = 2;
  fill.out_size = 2 * 4194305;
  EXPECT_TRUE(einops::detail::make_copy_schedule(fill.walk(true), 8).stream);
  check_copy<std::uint64_t>(fill, true, "stream fill");
}

// ---- reductions ---------------------------------------------------------------------------------

template <class T>
T sample(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<T, bool>) {
    return rng() % 3 == 0;
  } else if constexpr (einops::is_floating_element_v<T>) {
    return static_cast<T>(std::uniform_real_distribution<double>(-2.0, 2.0)(rng));
  } else {
    return static_cast<T>(static_cast<std::int64_t>(rng() % 19) - (std::is_signed_v<T> ? 9 : 0));
  }
}

template <class T>
double as_double(T x) {
  return static_cast<double>(static_cast<std::conditional_t<einops::is_floating_element_v<T>, double, T>>(x));
}

/// The reference result of one output, in double (or exactly for integers, as numpy would).
template <class T>
void reference_reduce(const std::vector<T>& values, Reduction r, double& value, bool& exact) {
  exact = true;
  const auto n = static_cast<double>(values.size());
  switch (r) {
    case Reduction::sum:
    case Reduction::mean: {
      double s = 0;
      for (T x : values) s += as_double(x);
      value = r == Reduction::mean ? (values.empty() ? std::nan("") : s / n) : s;
      exact = !einops::is_floating_element_v<T>;
      break;
    }
    case Reduction::prod: {
      double s = 1;
      for (T x : values) s *= as_double(x);
      value = s;
      exact = !einops::is_floating_element_v<T>;
      break;
    }
    case Reduction::min:
    case Reduction::max: {
      if (values.empty()) {
        value = 0;
        break;
      }
      value = as_double(values[0]);
      for (T x : values) {
        const double v = as_double(x);
        if (std::isnan(v) || std::isnan(value)) {
          value = std::nan("");
          continue;
        }
        value = r == Reduction::max ? std::max(value, v) : std::min(value, v);
      }
      break;
    }
    case Reduction::any:
    case Reduction::all: {
      bool acc = r == Reduction::all;
      for (T x : values) {
        const bool truth = as_double(x) != 0.0 || std::isnan(as_double(x));
        acc = r == Reduction::any ? (acc || truth) : (acc && truth);
      }
      value = acc ? 1.0 : 0.0;
      break;
    }
  }
}

template <class T>
void check_reduce(const Problem& p, Reduction r, std::mt19937_64& rng, const std::string& context) {
  if (r == Reduction::mean && !einops::is_floating_element_v<T>) return;
  // Long float products over- or underflow midway in float32, in an order-dependent way.
  if (r == Reduction::prod && einops::is_floating_element_v<T> && p.reduced_count() > 16) return;
  const std::unique_ptr<T[]> in(new T[static_cast<std::size_t>(p.in_size)]);  // not vector<bool>
  for (std::int64_t i = 0; i < p.in_size; ++i) in[static_cast<std::size_t>(i)] = sample<T>(rng);
  const DType out_type = einops::reduction_result_dtype(r, einops::dtype_v<T>);
  const std::size_t out_bytes = einops::dtype_size(out_type);
  std::vector<unsigned char> out(static_cast<std::size_t>(p.out_size) * out_bytes, 0);
  einops::detail::reduce_strided(einops::dtype_v<T>, r, in.get() + p.in_base, out.data() + p.out_base * out_bytes,
                                 p.walk(true));
  std::vector<T> group;
  for_each_index(p.dims, [&](std::int64_t i, std::int64_t o) {
    group.clear();
    for_each_index(p.reduced, [&](std::int64_t ri, std::int64_t) {
      group.push_back(in[static_cast<std::size_t>(p.in_base + i + ri)]);
    });
    const unsigned char* slot = out.data() + static_cast<std::size_t>(p.out_base + o) * out_bytes;
    if constexpr (!einops::is_floating_element_v<T>) {
      if (r == Reduction::sum || r == Reduction::prod) {  // integers wrap around, as in numpy
        std::uint64_t acc = r == Reduction::sum ? 0 : 1;
        for (T x : group) {
          const auto v = static_cast<std::uint64_t>(static_cast<std::int64_t>(x));
          acc = r == Reduction::sum ? acc + v : acc * v;
        }
        std::uint64_t got = 0;
        std::memcpy(&got, slot, sizeof(got));
        ASSERT_EQ(got, acc) << context;
        return;
      }
    }
    double want = 0;
    bool exact = true;
    reference_reduce(group, r, want, exact);
    const double got = einops::visit_dtype(out_type, [&](auto tag) {
      using O = decltype(tag);
      O v;
      std::memcpy(&v, slot, sizeof(O));
      return as_double(v);
    });
    if (std::isnan(want)) {
      ASSERT_TRUE(std::isnan(got)) << context;
      return;
    }
    if (exact || r == Reduction::min || r == Reduction::max) {
      ASSERT_EQ(got, want) << context;
      return;
    }
    // Floats: accumulation error plus one rounding to T, within T's range.
    double rounding = std::is_same_v<T, double> ? 1e-15 : 1e-6;
    double largest = std::is_same_v<T, double> ? std::numeric_limits<double>::max() : std::numeric_limits<float>::max();
    double smallest =
        std::is_same_v<T, double> ? std::numeric_limits<double>::min() : std::numeric_limits<float>::min();
    if constexpr (std::is_same_v<T, einops::float16>) rounding = 1e-3, largest = 65504.0, smallest = 6.2e-5;
    if constexpr (std::is_same_v<T, einops::bfloat16>) rounding = 8e-3;
    if (std::fabs(want) > largest * (1 + rounding)) {
      ASSERT_TRUE(std::isinf(got)) << context;
      return;
    }
    if (r == Reduction::prod) {
      const double tolerance = std::fabs(want) * (rounding + 1e-6 * static_cast<double>(group.size())) + 2 * smallest;
      ASSERT_NEAR(got, want, tolerance) << context;
      return;
    }
    double magnitude = 0;
    for (T x : group) magnitude += std::fabs(as_double(x));
    if (r == Reduction::mean && !group.empty()) magnitude /= static_cast<double>(group.size());
    ASSERT_NEAR(got, want, magnitude * rounding + std::fabs(want) * rounding + 1e-300) << context;
  });
}

template <class T>
void check_reduce_all(const Problem& p, std::mt19937_64& rng, const std::string& context) {
  for (Reduction r : {Reduction::sum, Reduction::mean, Reduction::prod, Reduction::min, Reduction::max, Reduction::any,
                      Reduction::all}) {
    check_reduce<T>(p, r, rng, context + " " + std::string(einops::reduction_name(r)));
    if (::testing::Test::HasFatalFailure()) return;
  }
}

TEST_P(EveryTarget, ReduceMatchesReferenceOnRandomWalks) {
  std::mt19937_64 rng(77);
  for (int trial = 0; trial < 150; ++trial) {
    const int rank = static_cast<int>(rng() % 5);
    const int reduced_rank = static_cast<int>(rng() % 4);
    const Problem p = random_problem(rng, rank, reduced_rank, true);
    const std::string context = "trial " + std::to_string(trial);
    switch (rng() % 13) {
      case 0: check_reduce_all<bool>(p, rng, context); break;
      case 1: check_reduce_all<std::int8_t>(p, rng, context); break;
      case 2: check_reduce_all<std::int16_t>(p, rng, context); break;
      case 3: check_reduce_all<std::int32_t>(p, rng, context); break;
      case 4: check_reduce_all<std::int64_t>(p, rng, context); break;
      case 5: check_reduce_all<std::uint8_t>(p, rng, context); break;
      case 6: check_reduce_all<std::uint16_t>(p, rng, context); break;
      case 7: check_reduce_all<std::uint32_t>(p, rng, context); break;
      case 8: check_reduce_all<std::uint64_t>(p, rng, context); break;
      case 9: check_reduce_all<double>(p, rng, context); break;
      case 10: check_reduce_all<einops::float16>(p, rng, context); break;
      case 11: check_reduce_all<einops::bfloat16>(p, rng, context); break;
      default: check_reduce_all<float>(p, rng, context); break;
    }
    if (HasFatalFailure()) return;
  }
}

TEST_P(EveryTarget, ReduceModesAndNaN) {
  std::mt19937_64 rng(5);
  // inner (contiguous reduced run), outer (contiguous outputs), each with ragged lengths.
  for (const std::int64_t n : {1, 7, 8, 33, 100, 1000}) {
    Problem inner = permutation_problem({3, n}, {0, 1});
    inner.reduced = {inner.dims[1]};
    inner.dims.resize(1);
    inner.dims[0].out_stride = 1;
    inner.out_size = 3;
    check_reduce_all<float>(inner, rng, "inner " + std::to_string(n));
    check_reduce_all<einops::float16>(inner, rng, "inner f16 " + std::to_string(n));
    Problem outer = permutation_problem({5, n}, {0, 1});
    outer.reduced = {outer.dims[0]};
    outer.dims.erase(outer.dims.begin());
    outer.dims[0].out_stride = 1;
    outer.out_size = n;
    check_reduce_all<double>(outer, rng, "outer " + std::to_string(n));
    check_reduce_all<einops::bfloat16>(outer, rng, "outer bf16 " + std::to_string(n));
  }
  // Outer mode over rows apart (37 of every 40 elements): passes add eight steps at a time, so
  // every shorter last pass (1 to 7 steps, one pass of 2 or 4, or single steps), after zero to two
  // full passes. Over rows in sequence (37 of 37): one step per pass, two for 16-bit elements.
  for (const std::int64_t row : {40, 37})
    for (const std::int64_t steps : {1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 15, 20}) {
      Problem outer = permutation_problem({steps, row}, {0, 1});
      outer.reduced = {outer.dims[0]};
      outer.dims.erase(outer.dims.begin());
      outer.dims[0] = Dim{37, 1, 1};
      outer.out_size = 37;
      if (steps > 1) {  // one step is no reduction: the scalar path
        const auto schedule = einops::detail::make_reduce_schedule(DType::float32, Reduction::sum, outer.walk(false));
        ASSERT_EQ(schedule.mode, einops::detail::ReduceMode::outer);
        EXPECT_EQ(schedule.sequential_steps, row == 37) << row;
      }
      const std::string context = " row " + std::to_string(row) + " steps " + std::to_string(steps);
      check_reduce_all<float>(outer, rng, "outer" + context);
      check_reduce_all<einops::float16>(outer, rng, "outer f16" + context);
    }
  // Outer mode beyond an L1 tile: two ragged tiles (rows in sequence, but no longer read so),
  // and more steps than a pairwise block (the cascade) with a last pass of two.
  {
    Problem outer = permutation_problem({130, 5003}, {0, 1});
    outer.reduced = {outer.dims[0]};
    outer.dims.erase(outer.dims.begin());
    outer.dims[0].out_stride = 1;
    outer.out_size = 5003;
    EXPECT_FALSE(
        einops::detail::make_reduce_schedule(DType::float32, Reduction::sum, outer.walk(false)).sequential_steps);
    check_reduce_all<float>(outer, rng, "outer tiles");
    check_reduce_all<einops::float16>(outer, rng, "outer tiles f16");
  }
  // No outputs: an empty contiguous output loop, and an empty outer one.
  for (const auto& empty : {std::vector<std::int64_t>{0, 7}, std::vector<std::int64_t>{3, 0}}) {
    Walk walk;
    walk.push_output(empty[0], 0, 0);
    walk.push_output(empty[1], 1, 1);
    walk.push_reduced(5, 64);
    float in[1] = {0.0f}, out[1] = {-1.0f};
    einops::detail::reduce_strided(DType::float32, Reduction::sum, in, out, walk);
    EXPECT_EQ(out[0], -1.0f);  // nothing written
  }
  // NaN anywhere wins min and max, in both vector modes.
  std::vector<float> data(64 * 40, 1.0f);
  data[37 * 40 + 3] = std::numeric_limits<float>::quiet_NaN();
  Walk inner;
  inner.push_output(64, 40, 1);
  inner.push_reduced(40, 1);
  Walk outer;
  outer.push_output(40, 1, 1);
  outer.push_reduced(64, 40);
  for (const Walk& walk : {inner, outer})
    for (Reduction r : {Reduction::max, Reduction::min}) {
      std::vector<float> out(64, 0.0f);
      einops::detail::reduce_strided(DType::float32, r, data.data(), out.data(), walk);
      const std::int64_t nan_at = walk.rank > 0 && walk.in_stride[0] == 40 ? 37 : 3;
      for (std::int64_t o = 0; o < walk.extent[0]; ++o)
        EXPECT_EQ(std::isnan(out[static_cast<std::size_t>(o)]), o == nan_at) << o;
    }
  // Outer mode notes NaN through a sum of what it loads: infinities of both signs make that sum
  // NaN without any NaN input, and the exact pass must then give the exact answer.
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> signed_inf(64 * 40, 1.0f);
  signed_inf[5 * 40 + 2] = inf;
  signed_inf[9 * 40 + 7] = -inf;
  for (const bool with_nan : {false, true}) {
    if (with_nan) signed_inf[20 * 40 + 2] = std::numeric_limits<float>::quiet_NaN();
    std::vector<float> high(40), low(40);
    einops::detail::reduce_strided(DType::float32, Reduction::max, signed_inf.data(), high.data(), outer);
    einops::detail::reduce_strided(DType::float32, Reduction::min, signed_inf.data(), low.data(), outer);
    for (std::size_t o = 0; o < 40; ++o) {
      const bool nan_lane = with_nan && o == 2;
      EXPECT_EQ(std::isnan(high[o]), nan_lane) << o;
      EXPECT_EQ(std::isnan(low[o]), nan_lane) << o;
      if (nan_lane) continue;
      EXPECT_EQ(high[o], o == 2 ? inf : 1.0f) << o;
      EXPECT_EQ(low[o], o == 7 ? -inf : 1.0f) << o;
    }
  }
}

TEST_P(EveryTarget, ProductsDoNotDependOnWhereTheyOverflow) {
  // Split into partial products (vector lanes, accumulators), a product can overflow in one part
  // and meet its zero factor, or underflow, in another: 0 x inf would make it NaN.
  Walk walk;
  walk.push_output(1, 64, 1);
  walk.push_reduced(64, 1);
  const auto product = [&](const std::vector<float>& data) {
    float out = -1.0f;
    einops::detail::reduce_strided(DType::float32, Reduction::prod, data.data(), &out, walk);
    return out;
  };
  std::vector<float> huge_and_zero(64, 1e30f);
  huge_and_zero[5] = -0.0f;
  const float zero = product(huge_and_zero);
  EXPECT_EQ(zero, 0.0f);
  EXPECT_TRUE(std::signbit(zero));  // one negative factor
  std::vector<float> alternating(64);
  for (std::size_t i = 0; i < alternating.size(); ++i) alternating[i] = i % 2 == 0 ? 1e30f : 1e-30f;
  EXPECT_NEAR(product(alternating), 1.0f, 1e-4f);
  std::vector<float> infinite_and_zero(64, 2.0f);
  infinite_and_zero[3] = std::numeric_limits<float>::infinity();
  infinite_and_zero[40] = 0.0f;
  EXPECT_TRUE(std::isnan(product(infinite_and_zero)));  // a real 0 x inf stays NaN
  std::vector<float> with_nan(64, 1.0f);
  with_nan[63] = std::numeric_limits<float>::quiet_NaN();
  EXPECT_TRUE(std::isnan(product(with_nan)));
}

/// finish_float against the scalar finish (ReduceOp::finish, then the element type's conversion),
/// bit for bit, on `values` and on them divided by each divisor; counts leave ragged tails.
template <class T, class Acc>
void check_vector_finish(const std::vector<Acc>& values) {
  using Mean = einops::detail::ReduceOp<Reduction::mean, T>;
  const auto bits = [](T x) {
    if constexpr (sizeof(T) == 2) return x.bits;
    else if constexpr (sizeof(T) == 4) return std::bit_cast<std::uint32_t>(x);
    else return std::bit_cast<std::uint64_t>(x);
  };
  for (const std::int64_t divisor : {1, 3, 7, 1 << 20}) {
    for (const bool divide : {false, true}) {
      const auto count = static_cast<std::int64_t>(values.size()) - divisor % 5;  // ragged tails
      std::vector<T> out(values.size() + 1, T(0.0f));
      einops::detail::finish_float({einops::dtype_v<T>, values.data(), out.data(), count, divide, divisor});
      for (std::int64_t i = 0; i < count; ++i) {
        const auto at = static_cast<std::size_t>(i);
        const T expected = divide ? Mean::finish(values[at], divisor) : static_cast<T>(values[at]);
        ASSERT_EQ(bits(out[at]), bits(expected))
            << "value " << values[at] << " divisor " << divisor << " divide " << divide;
      }
      EXPECT_EQ(bits(out[static_cast<std::size_t>(count)]), bits(T(0.0f))) << "wrote past the count";
    }
  }
}

/// Inner-mode reductions of many outputs (one kernel call takes a batch of them along the
/// innermost output loop) against each output reduced alone: bit-identical, for batches cut by
/// the loop's end, outputs apart in the output (`-> b a`) and every reduction.
template <class T>
void check_batched_inner_reduce(std::int64_t a, std::int64_t b, std::int64_t l, const char* pattern,
                                std::mt19937_64& rng) {
  std::vector<T> x(static_cast<std::size_t>(a * b * l));
  for (T& v : x) v = static_cast<T>(std::uniform_real_distribution<float>(0.5f, 1.5f)(rng));
  const einops::TensorView<const T> view(x.data(), {a, b, l});
  const bool transposed = std::string(pattern).find("b a") != std::string::npos;
  for (const char* reduction : {"sum", "mean", "prod", "min", "max"}) {
    const std::vector<T> batched =
        einops::reduce(view, einops::runtime(pattern), reduction).template as<T>().to_vector();
    ASSERT_EQ(batched.size(), static_cast<std::size_t>(a * b));
    for (std::int64_t i = 0; i < a; ++i)
      for (std::int64_t j = 0; j < b; ++j) {
        const einops::TensorView<const T> row(x.data() + (i * b + j) * l, {l});
        const T alone = einops::reduce(row, "l -> ", reduction).template as<T>().to_vector()[0];
        const T got = batched[static_cast<std::size_t>(transposed ? j * a + i : i * b + j)];
        ASSERT_EQ(0, std::memcmp(&got, &alone, sizeof(T)))
            << pattern << " " << reduction << " [" << a << "," << b << "," << l << "] output " << i << "," << j;
      }
  }
}

TEST_P(EveryTarget, InnerReductionsOfManyOutputsMatchEachAlone) {
  std::mt19937_64 rng(21);
  for (const std::int64_t b : {1, 63, 64, 65, 130})
    for (const std::int64_t l : {8, 9, 64, 100}) {
      check_batched_inner_reduce<float>(3, b, l, "a b l -> a b", rng);
      check_batched_inner_reduce<float>(3, b, l, "a b l -> b a", rng);
      check_batched_inner_reduce<double>(2, b, l, "a b l -> a b", rng);
      check_batched_inner_reduce<einops::float16>(2, b, l, "a b l -> a b", rng);
      if (HasFatalFailure()) return;
    }
  // 2100 outputs of 256 bytes: threading chunks of 1024 outputs start inside the b loop.
  check_batched_inner_reduce<float>(3, 700, 64, "a b l -> a b", rng);
  check_batched_inner_reduce<float>(3, 700, 64, "a b l -> b a", rng);
}

TEST_P(EveryTarget, VectorFinishMatchesScalarFinish) {
  // Every 4099th float bit pattern (NaN payloads, subnormals, overflow included), and floats next
  // to every float16 value and midpoint (the ties, and the carries into the next binade).
  std::vector<float> floats;
  for (std::uint64_t raw = 0; raw <= 0xffffffffu; raw += 4099)
    floats.push_back(std::bit_cast<float>(static_cast<std::uint32_t>(raw)));
  for (std::uint32_t raw = 0; raw < 0xffff; ++raw) {
    const float value = einops::float16::from_bits(static_cast<std::uint16_t>(raw));
    const float next = einops::float16::from_bits(static_cast<std::uint16_t>(raw + 1));
    if (!std::isfinite(value) || !std::isfinite(next) || std::signbit(next) != std::signbit(value)) continue;
    const float mid = static_cast<float>((static_cast<double>(value) + next) / 2);
    for (const float f : {value, mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)}) floats.push_back(f);
  }
  check_vector_finish<einops::float16>(floats);
  check_vector_finish<einops::bfloat16>(floats);
  check_vector_finish<float>(floats);
  std::vector<double> doubles;
  for (std::uint64_t raw = 0; raw < (std::uint64_t{1} << 63); raw += (std::uint64_t{1} << 43) + 12345)
    doubles.push_back(std::bit_cast<double>(raw | (raw % 3 == 0 ? std::uint64_t{1} << 63 : 0)));
  check_vector_finish<double>(doubles);
}

INSTANTIATE_TEST_SUITE_P(Kernels, EveryTarget, ::testing::ValuesIn(targets()), target_name);

TEST(KernelTargets, ScalarAndBestAreAvailable) {
  const auto names = einops::detail::simd_targets();
  ASSERT_FALSE(names.empty());
  // The portable path is always built and runnable: Highway's SCALAR under GCC 12 (which cannot
  // build EMU128), EMU128 under Clang.
  const std::string portable = names.back();
  EXPECT_TRUE(portable == "SCALAR" || portable == "EMU128") << portable;
  EXPECT_EQ(einops::detail::simd_target(), names.front());
  einops::detail::force_simd_target(portable);
  EXPECT_EQ(einops::detail::simd_target(), portable);
  einops::detail::force_simd_target("");
  EXPECT_EQ(einops::detail::simd_target(), names.front());
}

// ---- threads ------------------------------------------------------------------------------------

class Threads : public ::testing::Test {
 protected:
  void TearDown() override { einops::set_num_threads(0); }
};

TEST_F(Threads, Setting) {
  einops::set_num_threads(3);
  EXPECT_EQ(einops::get_num_threads(), 3);
  einops::set_num_threads(1);
  EXPECT_EQ(einops::get_num_threads(), 1);
  einops::set_num_threads(0);
  EXPECT_GE(einops::get_num_threads(), 1);
}

/// Results of large reductions and copies at 1, 2, 3 and 8 threads: bit for bit the same.
TEST_F(Threads, ResultsAreBitIdenticalForAnyThreadCount) {
  std::mt19937_64 rng(11);
  std::vector<float> x(std::size_t{1} << 21);
  for (float& v : x) v = std::uniform_real_distribution<float>(-1.0f, 1.0f)(rng);
  const std::int64_t n = static_cast<std::int64_t>(x.size());
  struct Case {
    std::vector<std::int64_t> shape;
    const char* pattern;
    const char* reduction;
  };
  const std::vector<Case> cases = {
      {{n}, "a -> ", "sum"},                          // one output: the reduction is cut in pieces
      {{2, n / 2}, "a b -> a", "sum"},                // few outputs, inner mode
      {{n / 64, 64}, "a b -> b", "mean"},             // few outputs, outer mode
      {{64, 64, n / 4096}, "a b c -> b", "sum"},      // strided reduced loops
      {{32, 64, n / 2048}, "b c hw -> b hw", "sum"},  // outer mode, many outputs
      {{100, 20000}, "a b -> b", "sum"},              // outer mode, two tiles, pairwise cascade
      {{64, n / 64}, "a b -> b", "max"},              // outer mode, two tiles
      {{2000, 1000}, "a b -> b", "sum"},              // one row, cut into tiles for the threads
      {{32, 64, n / 2048}, "b c hw -> b c", "max"},
      {{5, 4000, 16}, "a b c -> a b", "sum"},  // inner mode, chunks cut the b loop
      {{5, 4000, 16}, "a b c -> b a", "mean"},
      {{16, 16, n / 256}, "a b c -> c b a", ""},  // a copy
      {{197, 12, 64}, "n h d -> h n d", ""},      // a copy the caches hold, in whole runs (threads from 512 KiB)
      {{4, 1024, 64}, "b t c -> b c t", ""},      // a cached transpose through an L1 buffer (stage_lines)
  };
  for (const Case& c : cases) {
    const einops::TensorView<const float> view(x.data(), c.shape);
    std::vector<std::vector<float>> results;
    for (int threads : {1, 2, 3, 8}) {
      einops::set_num_threads(threads);
      const einops::Tensor<float> result =
          std::string(c.reduction).empty() ? einops::rearrange(view, einops::runtime(c.pattern))
                                           : einops::reduce(view, einops::runtime(c.pattern), c.reduction).as<float>();
      results.push_back(result.to_vector());
    }
    for (std::size_t i = 1; i < results.size(); ++i)
      EXPECT_EQ(0, std::memcmp(results[0].data(), results[i].data(), results[0].size() * sizeof(float)))
          << c.pattern << " differs between 1 and "
          << (i == 1   ? 2
              : i == 2 ? 3
                       : 8)
          << " threads";
  }
}

TEST_F(Threads, ConcurrentCallersGetCorrectResults) {
  einops::set_num_threads(2);
  const auto x = einops::Tensor<float>::arange({256, 1024});
  const einops::Tensor<float> expected = einops::rearrange(x, "a b -> (b a)");
  std::vector<std::thread> callers;
  std::vector<int> ok(4, 0);
  for (int t = 0; t < 4; ++t)
    callers.emplace_back([&, t] {
      bool same = true;
      for (int i = 0; i < 5; ++i)
        same = same && einops::rearrange(x, "a b -> (b a)").to_vector() == expected.to_vector();
      ok[static_cast<std::size_t>(t)] = same ? 1 : 0;
    });
  for (std::thread& caller : callers) caller.join();
  EXPECT_EQ(ok, std::vector<int>(4, 1));
}

// ---- result buffers -----------------------------------------------------------------------------

class BufferCache : public ::testing::Test {
 protected:
  void TearDown() override {
    einops::set_buffer_cache_enabled(true);
    einops::set_buffer_cache_limit(einops::kDefaultBufferCacheLimit);
    einops::clear_buffer_cache();
  }
};

TEST_F(BufferCache, LargeResultsReuseFreedBuffersWithinTheLimit) {
  einops::clear_buffer_cache();
  const auto x = einops::Tensor<float>::arange({512, 1024});  // 2 MiB
  const void* first = nullptr;
  {
    const einops::Tensor<float> y = einops::rearrange(x, "a b -> (b a)");
    first = y.data();
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % (std::uintptr_t{2} << 20), 0u);  // huge-page aligned
    EXPECT_EQ(einops::buffer_cache_bytes(), 0u);
  }
  EXPECT_GE(einops::buffer_cache_bytes(), std::size_t{2} << 20);  // kept for reuse
  const einops::Tensor<float> again = einops::rearrange(x, "a b -> (b a)");
  EXPECT_EQ(again.data(), first);
  EXPECT_EQ(einops::buffer_cache_bytes(), 0u);
  EXPECT_EQ(again.at({1023 * 512 + 511}), x.at({511, 1023}));  // the reused buffer holds the new result
}

TEST_F(BufferCache, DisabledLimitedAndCleared) {
  const auto x = einops::Tensor<float>::arange({512, 1024});
  einops::set_buffer_cache_limit(std::size_t{1} << 20);  // below one buffer: nothing is kept
  { const auto y = einops::rearrange(x, "a b -> (b a)"); }
  EXPECT_EQ(einops::buffer_cache_bytes(), 0u);
  einops::set_buffer_cache_limit(std::size_t{64} << 20);
  { const auto y = einops::rearrange(x, "a b -> (b a)"); }
  EXPECT_GT(einops::buffer_cache_bytes(), 0u);
  einops::clear_buffer_cache();
  EXPECT_EQ(einops::buffer_cache_bytes(), 0u);
  einops::set_buffer_cache_enabled(false);
  EXPECT_FALSE(einops::buffer_cache_enabled());
  { const auto y = einops::rearrange(x, "a b -> (b a)"); }
  EXPECT_EQ(einops::buffer_cache_bytes(), 0u);
  // Small results never go through the cache.
  einops::set_buffer_cache_enabled(true);
  { const auto y = einops::rearrange(einops::Tensor<float>::arange({3, 4}), "a b -> (b a)"); }
  EXPECT_EQ(einops::buffer_cache_bytes(), 0u);
}

// ---- accuracy -----------------------------------------------------------------------------------

TEST(SumAccuracy, TenMillionFloat32WithinOneMillionthOfFloat64) {
  std::mt19937_64 rng(3);
  std::vector<float> x(10'000'000);
  double exact = 0;
  for (float& v : x) {
    v = std::uniform_real_distribution<float>(0.0f, 1.0f)(rng);
    exact += v;
  }
  for (const std::string& target : einops::detail::simd_targets()) {
    einops::detail::force_simd_target(target);
    const einops::TensorView<const float> view(x.data(), {static_cast<std::int64_t>(x.size())});
    const float total = einops::reduce(view, "n -> ", "sum").as<float>().to_vector()[0];
    EXPECT_NEAR(total, exact, 1e-6 * exact) << target;
    const einops::TensorView<const float> grid(x.data(), {1000, 10000});
    const auto columns = einops::reduce(grid, "a b -> b", "sum").as<float>().to_vector();  // outer mode
    double column_error = 0;
    for (std::int64_t b = 0; b < 10000; b += 997) {
      double want = 0;
      for (std::int64_t a = 0; a < 1000; ++a) want += x[static_cast<std::size_t>(a * 10000 + b)];
      column_error = std::max(column_error, std::fabs(columns[static_cast<std::size_t>(b)] - want) / want);
    }
    EXPECT_LT(column_error, 1e-6) << target;
  }
  einops::detail::force_simd_target("");
}

TEST(SumAccuracy, HalfPrecisionAccumulatesInFloat32AndRoundsOnce) {
  // 4096 ones: a float16 accumulator would stop at 2048.
  const std::vector<einops::float16> ones(4096, einops::float16(1.0f));
  const einops::TensorView<const einops::float16> view(ones.data(), {4096});
  EXPECT_EQ(static_cast<float>(einops::reduce(view, "n -> ", "sum").as<einops::float16>().to_vector()[0]), 4096.0f);
  // Mean of values whose float16 sum would round badly: one rounding of the float32 mean.
  std::mt19937_64 rng(9);
  std::vector<einops::float16> x(50000);
  double exact = 0;
  for (auto& v : x) {
    v = einops::float16(std::uniform_real_distribution<float>(0.0f, 1.0f)(rng));
    exact += static_cast<float>(v);
  }
  exact /= static_cast<double>(x.size());
  const einops::TensorView<const einops::float16> values(x.data(), {50000});
  const float mean = einops::reduce(values, "n -> ", "mean").as<einops::float16>().to_vector()[0];
  EXPECT_EQ(einops::float16(mean).bits, einops::float16(exact).bits);
  std::vector<einops::bfloat16> b(50000);
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = einops::bfloat16(static_cast<float>(x[i]));
  const einops::TensorView<const einops::bfloat16> bview(b.data(), {50000});
  const float bmean = einops::reduce(bview, "n -> ", "mean").as<einops::bfloat16>().to_vector()[0];
  EXPECT_NEAR(bmean, exact, 4e-3);
}

TEST_F(Threads, ParallelForRunsEveryChunkOnce) {
  // Chunks are dealt out in contiguous blocks per thread, then taken from the others' blocks:
  // every chunk must still run exactly once, with the caller's boundaries, for any thread count.
  for (int threads : {1, 2, 3, 8}) {
    einops::set_num_threads(threads);
    for (const std::int64_t count : {1, 2, 7, 64, 1000, 100003})
      for (const std::int64_t chunk : {1, 3, 64, 4096}) {
        std::vector<std::atomic<int>> visits(static_cast<std::size_t>(count));
        std::atomic<bool> bad_boundary{false};
        einops::detail::parallel_for(count, chunk, true, [&](std::int64_t begin, std::int64_t end) {
          if (begin % chunk != 0 || end != std::min(count, begin + chunk)) bad_boundary = true;
          for (std::int64_t i = begin; i < end; ++i) visits[static_cast<std::size_t>(i)].fetch_add(1);
        });
        EXPECT_FALSE(bad_boundary) << threads << " threads, " << count << " / " << chunk;
        for (std::int64_t i = 0; i < count; ++i)
          ASSERT_EQ(visits[static_cast<std::size_t>(i)].load(), 1)
              << "index " << i << ", " << threads << " threads, " << count << " / " << chunk;
      }
  }
}

}  // namespace
