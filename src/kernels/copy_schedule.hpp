// How a permuted or broadcast copy is executed: the walk recast as a batch of 2-D tiles.
//
// Assumptions: strides are in elements; the output does not overlap the input.
// A tile has `rows` (a chain of dimensions that are contiguous in the output, so row r of a
// column is written at column_base + r * unit) and `cols` (one dimension contiguous in the
// input: column c of a row is read at row_base + c * unit). Everything else is an outer loop.
// With `unit` > 1 the innermost dimension was contiguous on both sides and whole runs of
// `unit` elements move as one. The kernel per tile is chosen here, once, from extents and strides.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "einops/detail/walk.hpp"
#include "../odometer.hpp"

namespace einops::detail {

struct Loop {
  std::int64_t extent = 1;
  std::int64_t in_stride = 0;
  std::int64_t out_stride = 0;
};

enum class TileKernel : std::uint8_t {
  scalar,     // any tile, element by element (edges, odd strides)
  units,      // contiguous runs of `unit` elements
  transpose,  // R x R register transposes, R = 16 bytes / element size
  fill,       // every row reads the same element: a broadcast along the output
  // Short axes (lengths short_axis_kernel_takes), streamed as whole rows of the long pixel axis
  // (short_axis_simd.cpp); their schedules run no tiles, see execute_short_axis_copy.
  split_short_axis,  // cols = the channels, innermost in the input; rows = one loop of pixels
                     // with input stride cols and output stride 1 (channels-last -> planes)
  merge_short_axis,  // rows = the channels, innermost in the output (col_out_stride == rows);
                     // cols = the pixels, contiguous in the input (planes -> channels-last)
};

/// Longest short axis the short-axis kernels take, and the capacity of their channel tables.
inline constexpr std::int64_t kMaxShortAxis = 16;
/// Longest short axis they move in one pass of interleaved loads or stores.
inline constexpr std::int64_t kMaxOnePassShortAxis = 4;

/// The lengths of the short-axis kernels: 2, 3 and 4 in one pass of interleaved loads or stores,
/// and their products up to kMaxShortAxis in two passes through an L1 buffer. Other lengths keep
/// the tile kernels (register transposes where the axis holds a register's width).
constexpr bool short_axis_kernel_takes(std::int64_t length) {
  return length == 2 || length == 3 || length == 4 || length == 6 || length == 8 || length == 9 || length == 12 ||
         length == 16;
}

/// Rows handed to a tile kernel at a time (their input offsets are tabulated per block).
inline constexpr std::int64_t kMaxBlockRows = 256;

struct CopySchedule {
  std::size_t element_size = 4;
  std::int64_t total = 0;  // elements written
  TileKernel kernel = TileKernel::scalar;
  std::int64_t unit = 1;

  int row_rank = 0;  // the output-contiguous chain, innermost first
  std::array<Loop, kMaxRank> row_loops{};
  std::int64_t rows = 1;

  std::int64_t cols = 1;
  std::int64_t col_in_stride = 0;  // `unit` for a real column dimension
  std::int64_t col_out_stride = 0;

  int outer_rank = 0;  // outermost first; the last one is the batch loop when `batched`
  std::array<Loop, kMaxRank> outer{};
  bool batched = false;  // the innermost outer loop runs inside the kernel call

  std::int64_t block_rows = 1;
  std::int64_t block_cols = 1;
  std::int64_t block_batch = 1;
  // Block order: blocks are visited in groups of group_rows x group_cols blocks (columns fastest
  // inside a group, then groups left to right, top to bottom), so that the pages a group touches
  // fit in the TLB and each is used for several blocks before it is evicted.
  std::int64_t group_rows = 1;
  std::int64_t group_cols = 1;
  bool stream = false;      // non-temporal stores (output larger than the caches)
  bool cached = false;      // small enough to run in the caches: no software prefetches
  bool stage_rows = false;  // transposes: a band's rows crowd a few L1 sets; copy their lines first
  // Transposes in the caches whose tiles' output lines crowd a few L1 sets: tiles down each
  // column block's rows, then the next columns (instead of band by band); where a tile's lines
  // share one set, each column block goes through an L1 buffer (stage_lines).
  bool columns_first = false;
  bool stage_lines = false;

  // Work items (outer index, batch block, row block, column block) and the items per chunk of
  // threading: derived from the above once, so that a call divides nothing.
  std::int64_t batch_blocks = 1;
  std::int64_t row_blocks = 1;
  std::int64_t col_blocks = 1;
  std::int64_t items = 0;
  std::int64_t chunk_items = 1;
};

/// Input offsets of rows [first, first + count) of the schedule's row chain, into `offsets`: one
/// division per chain loop, then an odometer.
inline void tabulate_row_offsets(const CopySchedule& s, std::int64_t first, std::int64_t count, std::int64_t* offsets) {
  if (s.row_rank == 1) {  // one loop: a multiply per row, which the compiler vectorises
    const std::int64_t stride = s.row_loops[0].in_stride;
    for (std::int64_t r = 0; r < count; ++r) offsets[r] = (first + r) * stride;
    return;
  }
  // row_loops is innermost first: odometer dimension d is row loop row_rank - 1 - d.
  const auto loop = [&](int d) -> const Loop& { return s.row_loops[s.row_rank - 1 - d]; };
  std::int64_t index[kMaxRank];
  std::int64_t offset = 0;
  const auto extent = [&](int d) { return loop(d).extent; };
  const auto move = [&](int d, std::int64_t steps) { offset += steps * loop(d).in_stride; };
  odometer_seek(s.row_rank, first, index, extent, move);
  for (std::int64_t r = 0; r < count; ++r) {
    offsets[r] = offset;
    odometer_step(s.row_rank, index, extent, move);
  }
}

/// Builds the schedule of a copy over `walk` (merged or not) for elements of `element_size` bytes.
CopySchedule make_copy_schedule(const Walk& walk, std::size_t element_size);

/// Where one work item of a schedule lies, in elements from the start of the input and output.
struct TilePlace {
  std::int64_t in_offset = 0;   // its first batch entry: + row_in[r] + c * col_in_stride
  std::int64_t out_offset = 0;  //                       + r * unit + c * col_out_stride
  std::int64_t rows = 0;
  std::int64_t cols = 0;
  std::int64_t batch = 1;     // batch entries, along the batch loop when `batched`
  std::int64_t row_step = 0;  // transposes: row_in[r] == row_in[0] + r * row_step for every r, or 0
};

/// Locates work item `item` of `s` (0 <= item < s.items) and writes its rows' input offsets to
/// `row_in` (room for kMaxBlockRows). Independent of the instruction set: compiled once.
TilePlace locate_tile(const CopySchedule& s, std::int64_t item, std::int64_t* row_in);

/// Runs a schedule of tiles (copy_simd.cpp; SIMD kernels chosen at run time for this CPU, threads
/// above a size threshold). copy.cpp routes each schedule to this or the next.
void execute_tile_copy(const CopySchedule& schedule, const void* in, void* out);
/// Runs a short-axis schedule (split_short_axis, merge_short_axis; short_axis_simd.cpp).
void execute_short_axis_copy(const CopySchedule& schedule, const void* in, void* out);

/// The kernel a schedule runs, in a few words (for `einops explain`).
std::string describe_copy_schedule(const CopySchedule& schedule);

}  // namespace einops::detail
