// Recasts a copy walk as tiles (see copy_schedule.hpp) and picks the tile kernel, block sizes,
// block order and store kind. Runs once per call in O(rank^2); no allocation.
#include "copy_schedule.hpp"

#include <algorithm>

namespace einops::detail {
namespace {

/// Bytes of each input row that one block of the transposing kernel reads: long enough for the
/// prefetchers to follow each row, short enough that a block's rows stay in L1 and L2.
constexpr std::int64_t kTransposeRunBytes = 1024;
/// Columns of a transposing block whose output runs stop at the block's edge (`h w -> w h`: the
/// next block writes other output rows). The block writes its columns' runs a line at a time, in
/// turn, so a run's consecutive lines are this many streaming stores apart; with few of them the
/// memory controller still finds them together.
constexpr std::int64_t kBrokenRunColumns = 32;
/// A row chain is cut (see make_copy_schedule) only once it holds this many rows: a register
/// transpose's worth for every element size, and tiles of full output lines for 4-byte ones.
constexpr std::int64_t kMinCutChainRows = 16;
/// Elements a batched kernel call handles at least, so per-call overhead stays small.
constexpr std::int64_t kBatchMinElements = 4096;
/// Outputs at least this large are written with non-temporal stores: they would only evict the
/// caches, and streaming saves the read-for-ownership of every output line.
constexpr std::int64_t kStreamMinBytes = std::int64_t{8} << 20;
/// A fill (broadcast) reads almost nothing, so the last-level cache can hold more of its output,
/// and the next operation usually reads it: cached stores pay off up to this size.
constexpr std::int64_t kFillStreamMinBytes = std::int64_t{64} << 20;

/// Copies up to this size are taken to run in the caches (L2 of current cores): their blocks are
/// sized for few kernel calls, not for streaming memory, and their runs are not prefetched.
constexpr std::int64_t kCachedCopyMaxBytes = std::int64_t{1} << 20;

/// Threading chunks (see the end of make_copy_schedule).
constexpr std::int64_t kChunksPerCopy = 32;
constexpr std::int64_t kMinChunkBytes = std::int64_t{256} << 10;
constexpr std::int64_t kMaxChunkBytes = std::int64_t{4} << 20;

/// Whether the rows of one band of a transposing block (a cache line's worth of output elements,
/// 64 / element size rows) put more than kMaxBandRowsPerL1Set of their lines in one L1 set (64
/// sets of 64-byte lines on x86-64 cores): power-of-two row strides put them all in one.
constexpr std::int64_t kL1Sets = 64;
constexpr std::int64_t kMaxBandRowsPerL1Set = 4;  // half of an 8-way set: room for output lines and prefetches

bool band_rows_share_l1_sets(const CopySchedule& s, std::int64_t element_size) {
  const std::int64_t band = std::min(s.rows, 64 / element_size);
  std::array<std::int64_t, 64> offsets{};  // in elements, from the band's first row
  tabulate_row_offsets(s, 0, band, offsets.data());
  std::array<std::int64_t, kL1Sets> rows_per_set{};
  for (std::int64_t r = 0; r < band; ++r) {
    // Arithmetic shift: negative offsets fall in sets as the addresses would.
    const auto set =
        static_cast<std::size_t>(((offsets[static_cast<std::size_t>(r)] * element_size) >> 6) & (kL1Sets - 1));
    if (++rows_per_set[set] > kMaxBandRowsPerL1Set) return true;
  }
  return false;
}

/// Whether lines `stride` elements apart fall in at most kMaxTileSets L1 sets, however many of
/// them: a stride of a multiple of kL1Sets * 64 / kMaxTileSets bytes.
constexpr std::int64_t kMaxTileSets = 4;

bool lines_share_l1_sets(std::int64_t stride, std::int64_t element_size) {
  constexpr std::int64_t kCrowdingStrideBytes = kL1Sets * 64 / kMaxTileSets;
  return stride != 0 && (stride * element_size) % kCrowdingStrideBytes == 0;
}

/// Whether a transposing copy in the caches goes column block by column block (see
/// CopySchedule::columns_first): a tile's output lines crowd a few L1 sets, so that the tiles of
/// a band, which write lines in the same sets, would evict each other's; the tiles down a column
/// block write the next set each. Not where the rows crowd sets themselves, which a column
/// block reads all of.
bool columns_first_pays(const CopySchedule& s, std::int64_t element_size) {
  const bool rows_crowd =
      s.stage_rows || (s.row_rank == 1 && lines_share_l1_sets(s.row_loops[0].in_stride, element_size));
  return s.kernel == TileKernel::transpose && s.cached && !rows_crowd &&
         lines_share_l1_sets(s.col_out_stride, element_size);
}

/// Pixels of a short-axis block: about kShortAxisBlockBytes of output, whole cache lines of each
/// channel's plane. Blocks only bound the threading chunks: a block is one kernel call that
/// streams its rows, with no per-block tables.
constexpr std::int64_t kShortAxisBlockBytes = std::int64_t{64} << 10;
constexpr std::int64_t kCacheLineBytes = 64;

/// Whether the tiles of `s` (rows and columns found, kernel chosen) move a short axis that the
/// short-axis kernels take: channels innermost and dense on one side, pixels contiguous on the
/// other (see TileKernel::split_short_axis and merge_short_axis). Broadcast rows merge too
/// (`(w 2)` upsampling). A merge of a two-pass length whose channels fill a cache line keeps the
/// line transposes, which move the same lines in one pass.
bool short_axis_copy(const CopySchedule& s, bool has_column, std::int64_t element_size) {
  if (s.unit != 1 || !has_column || s.row_rank == 0) return false;
  const bool split = short_axis_kernel_takes(s.cols) && s.row_loops[0].in_stride == s.cols;
  const bool one_pass = s.rows <= kMaxOnePassShortAxis;
  const bool merge = short_axis_kernel_takes(s.rows) && s.col_out_stride == s.rows &&
                     (one_pass || s.kernel != TileKernel::transpose || s.rows * element_size < kCacheLineBytes);
  return split || merge;
}

/// Recasts `s` (see short_axis_copy) as a short-axis schedule: the pixel loop alone is the long
/// axis, cut into blocks; every other loop is an outer loop.
void to_short_axis_schedule(CopySchedule& s, std::int64_t element_size) {
  const bool split = short_axis_kernel_takes(s.cols) && s.row_loops[0].in_stride == s.cols;
  const std::int64_t channels = split ? s.cols : s.rows;
  if (split) {
    s.kernel = TileKernel::split_short_axis;
    for (int r = 1; r < s.row_rank; ++r) s.outer[s.outer_rank++] = s.row_loops[r];
    s.row_rank = 1;
    s.rows = s.row_loops[0].extent;
  } else {
    s.kernel = TileKernel::merge_short_axis;
  }
  // Outer loops in the order of the contiguous side: the input for a split, the output for a merge.
  std::stable_sort(s.outer.begin(), s.outer.begin() + s.outer_rank, [split](const Loop& a, const Loop& b) {
    return split ? stride_magnitude(a.in_stride) > stride_magnitude(b.in_stride)
                 : stride_magnitude(a.out_stride) > stride_magnitude(b.out_stride);
  });
  const std::int64_t line = 64 / element_size;
  const std::int64_t pixels = split ? s.rows : s.cols;
  const std::int64_t block = std::max(line, kShortAxisBlockBytes / element_size / channels / line * line);
  s.block_rows = split ? std::min(pixels, block) : s.rows;
  s.block_cols = split ? s.cols : std::min(pixels, block);
  s.stream = s.total * element_size >= kStreamMinBytes;

  std::int64_t outer_count = 1;
  for (int i = 0; i < s.outer_rank; ++i) outer_count *= s.outer[i].extent;
  s.row_blocks = (s.rows + s.block_rows - 1) / s.block_rows;
  s.col_blocks = (s.cols + s.block_cols - 1) / s.block_cols;
  s.items = outer_count * s.row_blocks * s.col_blocks;
  const std::int64_t item_bytes = s.block_rows * s.block_cols * element_size;
  const std::int64_t chunk_bytes = std::clamp(s.total * element_size / kChunksPerCopy, kMinChunkBytes, kMaxChunkBytes);
  s.chunk_items = std::max<std::int64_t>(1, chunk_bytes / item_bytes);
}

}  // namespace

CopySchedule make_copy_schedule(const Walk& walk, std::size_t element_size) {
  CopySchedule s;
  s.element_size = element_size;
  std::array<Loop, kMaxRank> dims{};
  std::array<bool, kMaxRank> used{};
  int n = 0;
  s.total = 1;
  for (int i = 0; i < walk.rank; ++i) {
    s.total *= walk.extent[i];
    if (walk.extent[i] != 1) dims[n++] = Loop{walk.extent[i], walk.in_stride[i], walk.out_stride[i]};
  }
  if (s.total == 0) return s;

  // A dimension contiguous on both sides moves as whole runs.
  for (int d = 0; d < n; ++d)
    if (dims[d].in_stride == 1 && dims[d].out_stride == 1) {
      s.unit = dims[d].extent;
      used[d] = true;
      break;
    }
  // The column: contiguous in the input just after the unit.
  int col = -1;
  for (int d = 0; d < n && col < 0; ++d)
    if (!used[d] && dims[d].in_stride == s.unit) col = d;
  // The rows: the chain of dimensions contiguous in the output just after the unit. A chain that
  // reads input is cut where it would pass a block's rows: the dimensions left become outer
  // loops, which are visited in input order (below).
  for (std::int64_t expected = s.unit;;) {
    int next = -1;
    for (int d = 0; d < n && next < 0; ++d)
      if (!used[d] && d != col && dims[d].out_stride == expected) next = d;
    if (next < 0) break;
    if (dims[next].in_stride != 0 && s.rows >= kMinCutChainRows && s.rows * dims[next].extent > kMaxBlockRows) break;
    used[next] = true;
    s.row_loops[s.row_rank++] = dims[next];
    s.rows *= dims[next].extent;
    expected *= dims[next].extent;
  }
  if (col >= 0) {
    used[col] = true;
    s.cols = dims[col].extent;
    s.col_in_stride = dims[col].in_stride;
    s.col_out_stride = dims[col].out_stride;
  }
  for (int d = 0; d < n; ++d)
    if (!used[d]) s.outer[s.outer_rank++] = dims[d];

  const auto es = static_cast<std::int64_t>(element_size);
  const std::int64_t register_rows = 16 / es;  // R of the R x R register transpose
  bool all_rows_broadcast = s.row_rank > 0;
  for (int r = 0; r < s.row_rank; ++r) all_rows_broadcast = all_rows_broadcast && s.row_loops[r].in_stride == 0;

  if (s.unit > 1) {
    s.kernel = TileKernel::units;
  } else if (all_rows_broadcast) {
    s.kernel = TileKernel::fill;
  } else if (s.row_rank > 0 && col >= 0 && s.rows >= register_rows && s.cols >= register_rows) {
    s.kernel = TileKernel::transpose;
  }

  if (short_axis_copy(s, col >= 0, es)) {
    to_short_axis_schedule(s, es);
    return s;
  }

  // Outer loops by decreasing input stride, so that the next block continues the rows this one
  // read (each input row then reads on, where the prefetches of the next block land, instead of
  // jumping). A fill reads one element per column: by decreasing output
  // stride, the innermost advancing the output the least.
  const bool output_order = s.kernel == TileKernel::fill;
  std::stable_sort(s.outer.begin(), s.outer.begin() + s.outer_rank, [output_order](const Loop& a, const Loop& b) {
    return output_order ? stride_magnitude(a.out_stride) > stride_magnitude(b.out_stride)
                        : stride_magnitude(a.in_stride) > stride_magnitude(b.in_stride);
  });

  s.cached = s.total * es <= kCachedCopyMaxBytes;
  // Blocks: a block's rows are tabulated (at most kMaxBlockRows).
  switch (s.kernel) {
    case TileKernel::transpose: {
      // Tall blocks of kTransposeRunBytes per row: the output is written in runs of up to
      // kMaxBlockRows elements, the input read in runs of kTransposeRunBytes; the kernel
      // prefetches the next block, which is the one to the right (bands of whole rows, below).
      // Where the columns' output runs end with the block, fewer columns (kBrokenRunColumns).
      // The runs go on when the block's output is one run (the columns step it by whole rows),
      // or when one block takes every column and the next block continues them: the next row
      // block, or the next step of an innermost outer loop that steps the output by the rows
      // (`b h w c -> b c h w`).
      const std::int64_t line = 64 / es;
      const std::int64_t run_cols = std::max(line, kTransposeRunBytes / es);
      s.block_rows = std::min(s.rows, kMaxBlockRows);
      const bool one_output_run = s.block_rows == s.rows && s.col_out_stride == s.rows;
      const bool next_block_continues =
          s.cols <= run_cols &&
          (s.rows > s.block_rows || (s.outer_rank > 0 && s.outer[s.outer_rank - 1].out_stride == s.rows));
      const bool runs_go_on = one_output_run || next_block_continues;
      s.block_cols = std::min(s.cols, runs_go_on ? run_cols : std::max(line, kBrokenRunColumns));
      break;
    }
    case TileKernel::units: {
      // 256 KiB blocks of few rows and long columns: each input row is read as one long
      // sequential run (the hardware prefetchers follow two such streams well), and each column
      // writes 2+ neighbouring runs, at least 128 bytes, so streaming stores fill whole lines.
      const std::int64_t unit_bytes = s.unit * es;
      const std::int64_t units_per_block = std::max<std::int64_t>(1, (256 * 1024) / unit_bytes);
      const std::int64_t rows_per_line_pair = std::max<std::int64_t>(2, (128 + unit_bytes - 1) / unit_bytes);
      // A copy that the caches hold has no lines to fill by streaming: blocks of whole output
      // runs, so that a call is a few long kernel calls.
      s.block_rows = std::min({s.rows, kMaxBlockRows, s.cached ? kMaxBlockRows : rows_per_line_pair});
      s.block_cols = std::min(s.cols, std::max<std::int64_t>(1, units_per_block / s.block_rows));
      break;
    }
    case TileKernel::fill:  // whole output rows: one long run of stores per column
      s.block_rows = s.rows;
      s.block_cols = std::min(s.cols, std::max<std::int64_t>(1, (64 * 1024) / es / s.block_rows));
      break;
    default:
      s.block_rows = std::min(s.rows, kMaxBlockRows);
      s.block_cols = std::min(s.cols, std::max<std::int64_t>(1, (64 * 1024) / es / s.block_rows));
      break;
  }
  // Groups of blocks spanning about kGroupSide elements each way (in-row and in-column pages).
  // Transposes go in bands of whole rows instead, so that a block's successor reads the same rows.
  constexpr std::int64_t kGroupSide = 512;
  const bool bands = s.kernel == TileKernel::transpose;
  s.group_rows = bands ? 1 : std::max<std::int64_t>(1, kGroupSide / s.block_rows);
  s.group_cols =
      bands ? (s.cols + s.block_cols - 1) / s.block_cols : std::max<std::int64_t>(1, kGroupSide / s.block_cols);

  const std::int64_t tile = s.rows * s.cols * s.unit;
  if (s.outer_rank > 0 && tile < kBatchMinElements) {
    s.batched = true;
    const std::int64_t extent = s.outer[s.outer_rank - 1].extent;
    s.block_batch = std::min(extent, (kBatchMinElements * 4 + tile - 1) / tile);
  }
  s.stream = s.total * es >= (s.kernel == TileKernel::fill ? kFillStreamMinBytes : kStreamMinBytes);
  s.stage_rows = s.kernel == TileKernel::transpose && band_rows_share_l1_sets(s, es);
  s.columns_first = columns_first_pays(s, es);
  // A tile's output lines all in one set: kL1Sets lines' worth of bytes apart.
  s.stage_lines = s.columns_first && (s.col_out_stride * es) % (kL1Sets * 64) == 0;

  const int loops = s.batched ? s.outer_rank - 1 : s.outer_rank;
  std::int64_t outer_count = 1;
  for (int i = 0; i < loops; ++i) outer_count *= s.outer[i].extent;
  const std::int64_t batch_extent = s.batched ? s.outer[s.outer_rank - 1].extent : 1;
  s.batch_blocks = (batch_extent + s.block_batch - 1) / s.block_batch;
  s.row_blocks = (s.rows + s.block_rows - 1) / s.block_rows;
  s.col_blocks = (s.cols + s.block_cols - 1) / s.block_cols;
  s.items = outer_count * s.batch_blocks * s.row_blocks * s.col_blocks;
  // Chunks: about kChunksPerCopy of them, each kMinChunkBytes to kMaxChunkBytes; fixed by the
  // problem, never by the thread count. Larger chunks keep each thread on long stretches of the
  // output, where the memory controller streams best.
  const std::int64_t item_bytes = s.block_rows * s.block_cols * s.unit * s.block_batch * es;
  const std::int64_t chunk_bytes = std::clamp(s.total * es / kChunksPerCopy, kMinChunkBytes, kMaxChunkBytes);
  s.chunk_items = std::max<std::int64_t>(1, chunk_bytes / item_bytes);
  return s;
}

TilePlace locate_tile(const CopySchedule& s, std::int64_t item, std::int64_t* row_in) {
  const int loops = s.batched ? s.outer_rank - 1 : s.outer_rank;
  const Loop batch_loop = s.batched ? s.outer[s.outer_rank - 1] : Loop{};
  const std::int64_t batch_blocks = s.batch_blocks, row_blocks = s.row_blocks, col_blocks = s.col_blocks;
  // (rest, tile) = item / (row_blocks * col_blocks); the tile's blocks go in groups. Each
  // division is skipped when its divisor is 1: a tiny copy is one item, and ten 64-bit
  // divisions would cost more than its kernel.
  const std::int64_t tile_blocks = row_blocks * col_blocks;
  std::int64_t rest = item;
  std::int64_t rb = 0, cb = 0;
  if (tile_blocks > 1) {
    rest = item / tile_blocks;
    std::int64_t k = item % tile_blocks;
    const std::int64_t group_band = s.group_rows * col_blocks;  // blocks in one band of groups
    const std::int64_t band = k / group_band;
    k -= band * group_band;
    const std::int64_t band_rows = std::min(s.group_rows, row_blocks - band * s.group_rows);
    const std::int64_t group = k / (band_rows * s.group_cols);
    k -= group * band_rows * s.group_cols;
    const std::int64_t group_width = std::min(s.group_cols, col_blocks - group * s.group_cols);
    rb = band * s.group_rows + k / group_width;
    cb = group * s.group_cols + k % group_width;
  }
  std::int64_t bb = 0;
  if (batch_blocks > 1) {
    bb = rest % batch_blocks;
    rest /= batch_blocks;
  }
  std::int64_t in_offset = 0, out_offset = 0;
  std::int64_t index[kMaxRank];
  odometer_seek(
      loops, rest, index, [&](int i) { return s.outer[i].extent; },
      [&](int i, std::int64_t steps) {
        in_offset += steps * s.outer[i].in_stride;
        out_offset += steps * s.outer[i].out_stride;
      });
  const std::int64_t b0 = bb * s.block_batch;
  in_offset += b0 * batch_loop.in_stride;
  out_offset += b0 * batch_loop.out_stride;
  const std::int64_t r0 = rb * s.block_rows;
  const std::int64_t c0 = cb * s.block_cols;
  const std::int64_t rows = std::min(s.block_rows, s.rows - r0);

  // Input offsets of this block's rows. A fill reads one value per column: only its first
  // row's offset is needed (and its rows may be more than the table holds).
  tabulate_row_offsets(s, r0, s.kernel == TileKernel::fill ? 1 : rows, row_in);
  std::int64_t row_step = 0;  // the line-transposing kernel reads it
  if (s.kernel == TileKernel::transpose && s.row_rank == 1) {
    row_step = s.row_loops[0].in_stride;
  } else if (s.kernel == TileKernel::transpose && rows > 1) {
    row_step = row_in[1] - row_in[0];
    for (std::int64_t r = 2; r < rows && row_step != 0; ++r)
      if (row_in[r] - row_in[r - 1] != row_step) row_step = 0;
  }

  TilePlace place;
  place.in_offset = in_offset + c0 * s.col_in_stride;
  place.out_offset = out_offset + r0 * s.unit + c0 * s.col_out_stride;
  place.rows = rows;
  place.cols = std::min(s.block_cols, s.cols - c0);
  place.batch = s.batched ? std::min(s.block_batch, batch_loop.extent - b0) : 1;
  place.row_step = row_step;
  return place;
}

std::string describe_copy_schedule(const CopySchedule& s) {
  const auto count = [](std::int64_t n) { return std::to_string(n); };
  const auto es = static_cast<std::int64_t>(s.element_size);
  std::string text;
  switch (s.kernel) {
    case TileKernel::scalar: text = s.total <= 1 ? "single element" : "element by element"; break;
    case TileKernel::units:
      text = s.rows * s.cols == 1 && s.outer_rank == 0 ? "contiguous copy"
                                                       : "contiguous runs of " + count(s.unit) + " elements";
      break;
    case TileKernel::transpose:
      text = "register transposes of " + count(64 / es) + "x" + count(64 / es) + " tiles";
      break;
    case TileKernel::fill: text = "broadcast fill of output rows"; break;
    case TileKernel::split_short_axis:
      text = "deinterleave " + count(s.cols) + " channels of whole rows (full vectors)";
      break;
    case TileKernel::merge_short_axis:
      text = "interleave " + count(s.rows) + " rows into channels (full vectors)";
      break;
  }
  if (s.stream) text += ", non-temporal stores";
  return text;
}

}  // namespace einops::detail
