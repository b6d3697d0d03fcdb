// How a fused permute+reduce is executed. Assumptions: strides in elements (any sign, zero
// included); each output element is reduced in one fixed order that depends on the walk alone.
//
// Modes: `window` for non-overlapping pooling windows (a short innermost reduced loop interleaved
// with a contiguous output loop, see window_reduce_simd.cpp), `inner` when the innermost reduced
// loop is contiguous (vectors along the reduction, blocked pairwise sums), `outer` when an output
// loop is contiguous in the input (vectors across neighbouring outputs), `scalar` otherwise and
// for integer and bool elements.
// Outer mode reads its input in long runs: a tile holds all the contiguous outputs when they fit
// in L1 (else tiles of up to 64 KB, in L2), and each pass over it adds eight reduced steps, so
// the tile's own loads and stores are an eighth of the input's (fewer steps per pass cost more
// tile traffic; more, more streams than the prefetchers follow).
// Rows in sequence are the exception (`sequential_steps`: each reduced step's row starts where the
// last ended and one tile takes the whole row, as in `b c h w -> b h w`): the input is then one
// stream, so a pass adds one step (two for 16-bit elements) and prefetches the next pass's rows
// into L2, which keeps the reads near a plain read pass.
// Threads take fixed chunks of outputs; when there are few outputs and much to reduce, the
// outermost reduced loop is also cut into fixed pieces whose partial results are combined in
// order, so results never depend on the thread count.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "copy_schedule.hpp"
#include "../odometer.hpp"
#include "einops/detail/walk.hpp"
#include "einops/dtype.hpp"
#include "einops/reduction.hpp"

namespace einops::detail {

enum class ReduceMode : std::uint8_t { scalar, inner, outer, window };

/// Reduced steps added per pass over an outer-mode tile whose steps lie apart (see above).
inline constexpr std::int64_t kOuterPassSteps = 8;

struct ReduceSchedule {
  DType type = DType::float32;
  Reduction reduction = Reduction::sum;
  ReduceMode mode = ReduceMode::scalar;
  int out_rank = 0;  // outermost first; in `outer` mode the last loop is the contiguous one
  std::array<Loop, kMaxRank> out_loops{};
  std::int64_t outputs = 1;
  int red_rank = 0;  // outermost first (decreasing stride); only in_stride is used
  std::array<Loop, kMaxRank> red_loops{};
  std::int64_t reduced = 1;
  std::int64_t pieces = 1;        // parts of red_loops[0] reduced separately, then combined
  std::int64_t piece_extent = 0;  // red_loops[0] extent per piece
  std::int64_t output_chunk = 1;  // outputs per threading chunk (inner and scalar modes)
  std::int64_t lane_chunk = 1;    // outer mode: lanes per kernel call and threading task (the tile)
  bool sequential_steps = false;  // outer mode: each reduced step's row starts where the last ended
  // window mode: the last reduced loop is the window along a row (`window` pixels of
  // `window_group` contiguous elements each); the output loops end with the pixels (input stride
  // window * window_group, output stride window_group) and, for a group above one, the channels.
  std::int64_t window = 0;
  std::int64_t window_group = 1;
};

ReduceSchedule make_reduce_schedule(DType type, Reduction reduction, const Walk& walk);

/// Lets make_reduce_schedule choose window mode (the default) or not, to compare it with the
/// modes it replaces. For tests and benchmarks; not while kernels run on other threads.
void enable_window_reduce(bool enabled);

/// Arguments of one SIMD kernel call (float element types only).
struct FloatReduceCall {
  DType type;
  Reduction reduction;
  const void* base;       // input of the first output (and the first reduced element)
  std::int64_t lanes;     // outputs: outer mode, contiguous in the input; inner, lane_stride apart
  const Loop* red_loops;  // outermost first; inner mode: the last has stride 1
  int red_rank;
  void* accumulators;        // float (double for float64): `lanes` values
  bool sequential_steps;     // outer mode: the input is one stream, row after row (ReduceSchedule)
  std::int64_t lane_stride;  // inner mode: input elements from one output's first to the next's
};

/// An odometer over reduced loops (outermost first): `offset` is the current step's input offset;
/// next() moves to the following step and returns false after the last. Only the loops in use
/// are zeroed (kernels make one per output or per tile).
struct ReducedSteps {
  ReducedSteps(const Loop* loops_, int rank_) : loops(loops_), rank(rank_) { std::fill_n(index, rank, 0); }
  bool next() {
    return odometer_step(
        rank, index, [this](int d) { return loops[d].extent; },
        [this](int d, std::int64_t steps) { offset += steps * loops[d].in_stride; });
  }
  const Loop* loops;
  int rank;
  std::int64_t offset = 0;
  std::int64_t index[kMaxRank];
};

/// Arguments of the vectorised finish (float element types only): `count` accumulators become
/// contiguous outputs, divided by `divisor` first when `divide` (means).
struct FloatFinishCall {
  DType type;
  const void* accumulators;  // float (double for float64)
  void* out;
  std::int64_t count;
  bool divide;
  std::int64_t divisor;
};

/// Writes the outputs of a FloatFinishCall, bit-identical to ReduceOp::finish per output.
void finish_float(const FloatFinishCall& call);

/// Arguments of one window-mode kernel call: `lines` output rows of `pixels * group` contiguous
/// outputs each. Output o = x * group + c of a line combines, for every row step of `row_loops`
/// (outermost first) and then every j < window, the input element (x * window + j) * group + c of
/// that row, in that order, as the scalar path does.
struct WindowReduceCall {
  DType type;
  Reduction reduction;
  const void* base;       // input of the first line's first output (first row, j = 0)
  std::int64_t pixels;    // outputs per line: pixels * group
  std::int64_t window;    // elements of a window along a row (2 to kMaxWindow)
  std::int64_t group;     // contiguous channels per pixel (1: NCHW)
  const Loop* row_loops;  // the window's rows: the reduced loops outside the window loop
  int row_rank;
  std::int64_t lines;            // output rows of this call
  std::int64_t line_in_stride;   // input elements from one line to the next
  std::int64_t line_out_stride;  // accumulators from one line to the next
  void* accumulators;            // ReduceOp<R, T>::Acc values (bool for any/all)
  std::int64_t divisor;          // > 0: floating accumulators are divided by it (a mean's finish)
};

/// Longest window along a row, and most elements of one window, that window mode takes: a
/// window of fewer than the scalar path's pairwise block (kScalarBlock in reduce.cpp) is summed
/// one element after another there, and here.
inline constexpr std::int64_t kMaxWindow = 16;
inline constexpr std::int64_t kMaxWindowElements = 63;

using WindowReduceKernel = void (*)(const WindowReduceCall&);
/// The window kernels for the best instruction set of this CPU, looked up once per call.
WindowReduceKernel window_reduce_kernel();

using FloatReduceKernel = void (*)(const FloatReduceCall&);
/// The SIMD kernels for the best instruction set of this CPU, looked up once per call.
FloatReduceKernel float_reduce_kernel(ReduceMode mode);

}  // namespace einops::detail
