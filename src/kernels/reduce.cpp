// Fused permute+reduce: each output element is accumulated straight from the strided input (no
// transposed intermediate), in one fixed order (see reduce_schedule.hpp for the modes and
// reduce_ops.hpp for what each reduction computes). This file chooses the mode, splits the work
// into thread-independent chunks, runs the SIMD kernels or the scalar path, and finishes
// (mean's division, rounding to 16-bit floats) once per output.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <string>

#include "einops/detail/kernels.hpp"
#include "einops/threads.hpp"
#include "parallel.hpp"
#include "../odometer.hpp"
#include "reduce_ops.hpp"
#include "reduce_schedule.hpp"

namespace einops::detail {
namespace {

/// Shortest contiguous reduced run worth the vector kernel along the reduction.
constexpr std::int64_t kMinInnerRun = 8;
/// Input bytes per threading chunk, and per piece of a reduction split for few outputs.
constexpr std::int64_t kChunkBytes = std::int64_t{256} << 10;
constexpr std::int64_t kPieceBytes = std::int64_t{1} << 20;
/// Outer mode: the narrowest tile cut to give threads work (1 KB runs of float32).
constexpr std::int64_t kMinSplitLanes = 256;
/// Inner and scalar modes: the most outputs one kernel call computes (their accumulators sit on
/// the stack).
constexpr std::int64_t kOutputBatch = 64;
/// Elements summed one after another in the scalar path before joining the pairwise cascade.
constexpr std::int64_t kScalarBlock = 64;
static_assert(kMaxWindowElements < kScalarBlock, "a window is summed in the scalar path's order");
/// Window mode: windows along a row that LoadInterleaved2/3/4 split where the group is one
/// element (NCHW); longer ones take the other modes.
constexpr std::int64_t kMaxInterleavedWindow = 4;
/// Window mode: accumulators per kernel call when they are finished apart from the output.
constexpr std::int64_t kWindowBatch = 2048;

/// Calls `run(p, extent, stride)` for every innermost run of the reduced loops (outermost first).
template <class T, class Run>
void for_each_reduced_run(const T* base, const Loop* loops, int rank, Run&& run) {
  if (rank == 0) return run(base, std::int64_t{1}, std::int64_t{0});
  const Loop& innermost = loops[rank - 1];
  ReducedSteps runs(loops, rank - 1);
  do {
    run(base + runs.offset, innermost.extent, innermost.in_stride);
  } while (runs.next());
}

/// Sets `index` and the offsets to output position `position` of `loops[0..rank)` (outermost
/// first; a division per loop: once per task).
void seek_outputs(const Loop* loops, int rank, std::int64_t position, std::int64_t* index, std::int64_t& in_offset,
                  std::int64_t& out_offset) {
  in_offset = out_offset = 0;
  odometer_seek(
      rank, position, index, [loops](int d) { return loops[d].extent; },
      [&](int d, std::int64_t steps) {
        in_offset += steps * loops[d].in_stride;
        out_offset += steps * loops[d].out_stride;
      });
}

/// Moves the odometer over output loops `loops[0..rank)` on by `count` steps of its innermost
/// loop, which `count` never carries past; at that loop's end the outer loops carry.
void advance_outputs(const Loop* loops, int rank, std::int64_t count, std::int64_t* index, std::int64_t& in_offset,
                     std::int64_t& out_offset) {
  const auto extent = [loops](int d) { return loops[d].extent; };
  const auto move = [&](int d, std::int64_t steps) {
    in_offset += steps * loops[d].in_stride;
    out_offset += steps * loops[d].out_stride;
  };
  const int innermost = rank - 1;
  move(innermost, count);
  if ((index[innermost] += count) < extent(innermost)) return;
  move(innermost, -extent(innermost));
  index[innermost] = 0;
  odometer_step(innermost, index, extent, move);
}

/// The scalar path: one output over all reduced loops (outermost first), in order.
template <Reduction R, class T>
typename ReduceOp<R, T>::Acc scalar_reduce(const T* base, const Loop* loops, int rank) {
  using Op = ReduceOp<R, T>;
  using Acc = typename Op::Acc;
  if (rank == 0) return Op::convert(*base);
  Acc acc = Op::identity();
  Cascade<Acc, Op> cascade;
  std::int64_t in_block = 0;
  for_each_reduced_run(base, loops, rank, [&](const T* p, std::int64_t run, std::int64_t step) {
    for (std::int64_t i = 0; i < run; ++i) {
      acc = Op::combine(acc, Op::convert(p[i * step]));
      if constexpr (Op::pairwise) {
        if (++in_block == kScalarBlock) {
          cascade.push(acc);
          acc = Op::identity();
          in_block = 0;
        }
      }
    }
  });
  if constexpr (Op::pairwise) {
    cascade.push(acc);
    return cascade.total(Op::identity());
  }
  return acc;
}

/// A floating product that came out NaN, evaluated again with mantissas and exponents apart. The
/// fast order splits a product into partial products, and one may overflow to infinity while
/// another holds a zero factor: 0 x inf gives NaN where the exact product is a signed zero. Here
/// a zero factor gives a signed zero, an infinite one a signed infinity, and only a NaN factor or
/// a real 0 x inf gives NaN: the same answer for any order, layout or vector width.
template <class Acc, class T>
Acc exact_product(const T* base, const Loop* loops, int rank) {
  bool nan = false, zero = false, infinite = false, negative = false;
  double mantissa = 1.0;  // in [0.5, 1) after each factor
  std::int64_t exponent = 0;
  for_each_reduced_run(base, loops, rank, [&](const T* p, std::int64_t run, std::int64_t step) {
    for (std::int64_t i = 0; i < run; ++i) {
      const double x = static_cast<double>(static_cast<Acc>(p[i * step]));
      negative ^= std::signbit(x);
      if (std::isnan(x)) {
        nan = true;
      } else if (x == 0.0) {
        zero = true;
      } else if (std::isinf(x)) {
        infinite = true;
      } else {
        int e = 0, m = 0;
        mantissa = std::frexp(mantissa * std::frexp(std::fabs(x), &e), &m);
        exponent += e + m;
      }
    }
  });
  if (nan || (zero && infinite)) return std::numeric_limits<Acc>::quiet_NaN();
  constexpr std::int64_t kBeyondRange = 4096;  // past any double's exponent: ldexp gives 0 or inf
  const double magnitude =
      zero       ? 0.0
      : infinite ? std::numeric_limits<double>::infinity()
                 : std::ldexp(mantissa, static_cast<int>(std::clamp(exponent, -kBeyondRange, kBeyondRange)));
  return static_cast<Acc>(negative ? -magnitude : magnitude);
}

template <Reduction R, class T>
void run_windows(const ReduceSchedule& s, const T* in, typename ReduceOp<R, T>::Out* out);

template <Reduction R, class T>
void run_reduce(const ReduceSchedule& s, const T* in, void* out_raw) {
  using Op = ReduceOp<R, T>;
  using Acc = typename Op::Acc;
  using Out = typename Op::Out;
  Out* out = static_cast<Out*>(out_raw);
  if (s.outputs == 0) return;
  if (s.mode == ReduceMode::window) return run_windows<R>(s, in, out);

  const bool lanes_loop = s.mode == ReduceMode::outer;
  const int row_loops = lanes_loop ? s.out_rank - 1 : s.out_rank;
  const Loop lanes = lanes_loop ? s.out_loops[static_cast<std::size_t>(s.out_rank - 1)] : Loop{1, 0, 0};
  const std::int64_t rows = s.outputs / lanes.extent;
  const FloatReduceKernel kernel = s.mode == ReduceMode::scalar ? nullptr : float_reduce_kernel(s.mode);

  // Input and output offsets of a row (division per loop: once per chunk or task).
  const auto row_offsets = [&](std::int64_t row, std::int64_t* index, std::int64_t& in_offset,
                               std::int64_t& out_offset) {
    seek_outputs(s.out_loops.data(), row_loops, row, index, in_offset, out_offset);
  };
  // Accumulates `count` outputs, `stride` elements apart from `base`, over `loops` into `target`.
  const auto reduce_outputs = [&](const T* base, std::int64_t stride, const Loop* loops, std::int64_t count,
                                  Acc* target) {
    if (s.reduced == 0) {
      std::fill(target, target + count, Op::identity());
    } else if (kernel != nullptr) {
      kernel(FloatReduceCall{s.type, s.reduction, base, count, loops, s.red_rank, target, s.sequential_steps, stride});
    } else {
      for (std::int64_t l = 0; l < count; ++l) target[l] = scalar_reduce<R>(base + l * stride, loops, s.red_rank);
    }
  };
  // Accumulates one piece of lanes [first, first + count) of one row into `target`. The loops are
  // copied only for a split row (a piece has its own first loop): kMaxRank loops are 1.5 KB.
  const auto reduce_piece = [&](std::int64_t in_offset, std::int64_t piece, std::int64_t first, std::int64_t count,
                                Acc* target) {
    const T* base = in + in_offset + first * lanes.in_stride;
    if (s.pieces == 1) return reduce_outputs(base, lanes.in_stride, s.red_loops.data(), count, target);
    std::array<Loop, kMaxRank> piece_loops;
    const std::int64_t start = piece * s.piece_extent;
    std::copy_n(s.red_loops.begin(), s.red_rank, piece_loops.begin());
    piece_loops[0].extent = std::min(s.piece_extent, s.red_loops[0].extent - start);
    reduce_outputs(base + start * s.red_loops[0].in_stride, lanes.in_stride, piece_loops.data(), count, target);
  };
  // Combines the pieces of outputs [first, first + count) in order (pairwise for sums), finishes,
  // writes. Piece p of output l is partial[p * piece_stride + l]; output l lies first + l steps
  // along `along` (the lanes, or the innermost output loop) from the offsets.
  const auto finish = [&](const Acc* partial, std::int64_t piece_stride, std::int64_t in_offset,
                          std::int64_t out_offset, std::int64_t first, std::int64_t count, const Loop& along) {
    if constexpr (is_floating_element_v<T> && std::is_same_v<Acc, FloatCompute<T>> && !Op::exact_when_nan) {
      // Contiguous outputs in vectors; a product may need its exact path, an empty reduction its
      // own answer and any/all give bool, one output at a time below.
      if (count > 1 && s.pieces == 1 && s.reduced > 0 && along.out_stride == 1)
        return finish_float(
            FloatFinishCall{s.type, partial, out + out_offset + first, count, Op::traits.divides_by_count, s.reduced});
    }
    for (std::int64_t l = 0; l < count; ++l) {
      Acc value = partial[l];
      if (s.pieces > 1) {
        if constexpr (Op::pairwise) {
          Cascade<Acc, Op> cascade;
          for (std::int64_t piece = 0; piece < s.pieces; ++piece) cascade.push(partial[piece * piece_stride + l]);
          value = cascade.total(Op::identity());
        } else {
          for (std::int64_t piece = 1; piece < s.pieces; ++piece)
            value = Op::combine(value, partial[piece * piece_stride + l]);
        }
      }
      if constexpr (Op::exact_when_nan) {
        if (std::isnan(value))
          value = exact_product<Acc>(in + in_offset + (first + l) * along.in_stride, s.red_loops.data(), s.red_rank);
      }
      Out result = Op::finish(value, s.reduced);
      if constexpr (!Op::traits.has_identity) {
        if (s.reduced == 0) result = Out{};  // nothing to combine (the plan refuses it): zero
      }
      out[out_offset + (first + l) * along.out_stride] = result;
    }
  };

  const std::int64_t bytes = s.outputs * std::max<std::int64_t>(s.reduced, 1) * static_cast<std::int64_t>(sizeof(T));
  const bool use_threads = bytes >= kParallelMinBytes;
  if (s.mode == ReduceMode::outer) {
    // Tasks: (row, chunk of lanes); each chunk of lanes is one kernel call.
    const std::int64_t lane_chunks = (lanes.extent + s.lane_chunk - 1) / s.lane_chunk;
    parallel_for(rows * lane_chunks, 1, use_threads, [&](std::int64_t begin, std::int64_t end) {
      const std::unique_ptr<Acc[]> partial(new Acc[static_cast<std::size_t>(s.lane_chunk)]);
      for (std::int64_t task = begin; task < end; ++task) {
        std::int64_t index[kMaxRank];  // set by the seek
        std::int64_t in_offset = 0, out_offset = 0;
        row_offsets(task / lane_chunks, index, in_offset, out_offset);
        const std::int64_t first = task % lane_chunks * s.lane_chunk;
        const std::int64_t count = std::min(s.lane_chunk, lanes.extent - first);
        reduce_piece(in_offset, 0, first, count, partial.get());
        finish(partial.get(), 0, in_offset, out_offset, first, count, lanes);
      }
    });
    return;
  }
  if (s.pieces == 1) {
    // Outputs along the innermost output loop go to the kernel together, up to kOutputBatch a call.
    const Loop innermost = row_loops > 0 ? s.out_loops[static_cast<std::size_t>(row_loops - 1)] : Loop{1, 0, 0};
    parallel_for(rows, s.output_chunk, use_threads, [&](std::int64_t begin, std::int64_t end) {
      Acc partial[kOutputBatch];
      std::int64_t index[kMaxRank];  // set by the seek
      std::int64_t in_offset = 0, out_offset = 0;
      row_offsets(begin, index, in_offset, out_offset);
      for (std::int64_t row = begin; row < end;) {
        const std::int64_t along = row_loops > 0 ? innermost.extent - index[row_loops - 1] : 1;
        const std::int64_t count = std::min({kOutputBatch, end - row, along});
        reduce_outputs(in + in_offset, innermost.in_stride, s.red_loops.data(), count, partial);
        finish(partial, 0, in_offset, out_offset, 0, count, innermost);
        row += count;
        if (row_loops > 0) advance_outputs(s.out_loops.data(), row_loops, count, index, in_offset, out_offset);
      }
    });
    return;
  }
  // Few rows, much to reduce: every (row, piece) is a task; partial results are combined
  // afterwards, in order.
  const std::unique_ptr<Acc[]> partial(new Acc[static_cast<std::size_t>(rows * s.pieces)]);
  parallel_for(rows * s.pieces, 1, use_threads, [&](std::int64_t begin, std::int64_t end) {
    for (std::int64_t task = begin; task < end; ++task) {
      std::int64_t index[kMaxRank];  // set by the seek
      std::int64_t in_offset = 0, out_offset = 0;
      row_offsets(task / s.pieces, index, in_offset, out_offset);
      reduce_piece(in_offset, task % s.pieces, 0, 1, partial.get() + task);
    }
  });
  for (std::int64_t row = 0; row < rows; ++row) {
    std::int64_t index[kMaxRank];  // set by the seek
    std::int64_t in_offset = 0, out_offset = 0;
    row_offsets(row, index, in_offset, out_offset);
    finish(partial.get() + row * s.pieces, 1, in_offset, out_offset, 0, 1, lanes);
  }
}

/// Window mode (reduce_schedule.hpp): a line is `pixels` pixels of `group` contiguous outputs.
/// Tasks are fixed runs of lines, or fixed pieces of a line when one line is long; the kernel
/// writes accumulators straight into the output when the finish would leave them as they are,
/// else into a buffer that is finished line by line. Every output is computed on its own, so
/// the split never changes a result.
template <Reduction R, class T>
void run_windows(const ReduceSchedule& s, const T* in, typename ReduceOp<R, T>::Out* out) {
  using Op = ReduceOp<R, T>;
  using Acc = typename Op::Acc;
  using Out = typename Op::Out;
  // The kernel writes the accumulators as the outputs (a mean divided by call.divisor) where the
  // finish leaves their bits as they are: not where 16-bit floats round, nor where a floating
  // product may need its exact path.
  constexpr bool kStraight = sizeof(Acc) == sizeof(Out) && !Op::exact_when_nan;
  const std::int64_t group = s.window_group;
  const int line_rank = s.out_rank - (group > 1 ? 2 : 1);
  const Loop pixels_loop = s.out_loops[static_cast<std::size_t>(line_rank)];
  const std::int64_t pixels = pixels_loop.extent;
  const std::int64_t lines = s.outputs / (pixels * group);
  const Loop innermost = line_rank > 0 ? s.out_loops[static_cast<std::size_t>(line_rank - 1)] : Loop{1, 0, 0};

  const std::int64_t pixel_bytes = s.reduced * group * static_cast<std::int64_t>(sizeof(T));
  std::int64_t piece = std::min(pixels, std::max<std::int64_t>(1, kChunkBytes / pixel_bytes));
  if (!kStraight) piece = std::min(piece, std::max<std::int64_t>(1, kWindowBatch / group));
  const std::int64_t pieces = (pixels + piece - 1) / piece;
  const std::int64_t lines_per_task = pieces > 1 ? 1 : std::max<std::int64_t>(1, kChunkBytes / (pixels * pixel_bytes));
  const std::int64_t lines_per_call = kStraight ? lines : std::max<std::int64_t>(1, kWindowBatch / (piece * group));

  const WindowReduceKernel kernel = window_reduce_kernel();
  const std::int64_t divisor = Op::traits.divides_by_count && kStraight ? s.reduced : 0;
  // Lines [first, first + count) along the innermost line loop, pixels [x0, x0 + width).
  const auto reduce_lines = [&](std::int64_t in_offset, std::int64_t out_offset, std::int64_t count, std::int64_t x0,
                                std::int64_t width, Acc* buffer) {
    const T* base = in + in_offset + x0 * pixels_loop.in_stride;
    auto* target = out + out_offset + x0 * group;
    WindowReduceCall call{s.type,
                          s.reduction,
                          base,
                          width,
                          s.window,
                          group,
                          s.red_loops.data(),
                          s.red_rank - 1,
                          count,
                          innermost.in_stride,
                          kStraight ? innermost.out_stride : width * group,
                          kStraight ? static_cast<void*>(target) : static_cast<void*>(buffer),
                          divisor};
    kernel(call);
    if constexpr (!kStraight) {
      for (std::int64_t line = 0; line < count; ++line) {
        const Acc* acc = buffer + line * width * group;
        auto* line_out = target + line * innermost.out_stride;
        if constexpr (Op::exact_when_nan) {
          for (std::int64_t o = 0; o < width * group; ++o) {
            Acc value = acc[o];
            if (std::isnan(value))
              value =
                  exact_product<Acc>(base + line * innermost.in_stride + o / group * pixels_loop.in_stride + o % group,
                                     s.red_loops.data(), s.red_rank);
            line_out[o] = Op::finish(value, s.reduced);
          }
        } else if (innermost.out_stride == width * group) {
          // The lines lie end to end in the output as in the buffer: one finish for them all
          // (a finish call costs as much as a short line's elements).
          finish_float(
              FloatFinishCall{s.type, acc, line_out, count * width * group, Op::traits.divides_by_count, s.reduced});
          break;
        } else {
          finish_float(FloatFinishCall{s.type, acc, line_out, width * group, Op::traits.divides_by_count, s.reduced});
        }
      }
    }
  };

  const std::int64_t bytes = s.outputs * s.reduced * static_cast<std::int64_t>(sizeof(T));
  const std::int64_t tasks = pieces > 1 ? lines * pieces : (lines + lines_per_task - 1) / lines_per_task;
  parallel_for(tasks, 1, bytes >= kParallelMinBytes, [&](std::int64_t begin, std::int64_t end) {
    std::unique_ptr<Acc[]> buffer;
    if constexpr (!kStraight) buffer.reset(new Acc[static_cast<std::size_t>(lines_per_call * piece * group)]);
    for (std::int64_t task = begin; task < end; ++task) {
      const std::int64_t first_line = pieces > 1 ? task / pieces : task * lines_per_task;
      const std::int64_t last_line = pieces > 1 ? first_line + 1 : std::min(lines, first_line + lines_per_task);
      const std::int64_t x0 = pieces > 1 ? task % pieces * piece : 0;
      const std::int64_t width = std::min(piece, pixels - x0);
      // The offsets of the first line (a division per loop), then an odometer.
      std::int64_t index[kMaxRank];  // set by the seek
      std::int64_t in_offset = 0, out_offset = 0;
      seek_outputs(s.out_loops.data(), line_rank, first_line, index, in_offset, out_offset);
      for (std::int64_t line = first_line; line < last_line;) {
        const std::int64_t along = line_rank > 0 ? innermost.extent - index[line_rank - 1] : 1;
        const std::int64_t count = std::min({lines_per_call, last_line - line, along});
        reduce_lines(in_offset, out_offset, count, x0, width, buffer.get());
        line += count;
        if (line_rank > 0) advance_outputs(s.out_loops.data(), line_rank, count, index, in_offset, out_offset);
      }
    }
  });
}

template <class T>
void reduce_dispatch(const ReduceSchedule& s, const T* in, void* out) {
  visit_reduction(s.reduction, [&](auto reduction) {
    constexpr Reduction R = decltype(reduction)::value;
    // A floating-only reduction of other elements is refused before reaching the kernel.
    if constexpr (is_floating_element_v<T> || !reduction_traits(R).floating_only) run_reduce<R>(s, in, out);
  });
}

/// Whether the float kernels, or the window kernels, run `reduction` on `type` (reduce_ops.hpp).
bool float_kernel_runs(DType type, Reduction reduction) {
  return visit_dtype(type, [&](auto tag) {
    return visit_reduction(reduction, [](auto r) { return float_kernel_runs_v<decltype(r)::value, decltype(tag)>; });
  });
}
bool window_kernel_runs(DType type, Reduction reduction) {
  return visit_dtype(type, [&](auto tag) {
    return visit_reduction(reduction, [](auto r) { return window_kernel_runs_v<decltype(r)::value, decltype(tag)>; });
  });
}

/// Window mode (reduce_schedule.hpp) when the last reduced loop is a short window of pixels along
/// a line of contiguous outputs: pixels `window * group` input elements apart (one element for
/// NCHW, a pixel's channels for NHWC), `group` outputs apart. Records the window and returns true.
bool window_mode_enabled = true;

bool takes_windows(ReduceSchedule& s) {
  if (!window_mode_enabled || s.outputs == 0 || s.red_rank == 0 || s.reduced < 1 || s.reduced > kMaxWindowElements)
    return false;  // an empty window (another reduced axis of length 0) takes the general path
  if (!window_kernel_runs(s.type, s.reduction)) return false;
  const Loop& window = s.red_loops[static_cast<std::size_t>(s.red_rank - 1)];
  const std::int64_t group = window.in_stride;
  if (window.extent < 2 || window.extent > kMaxWindow || group < 1) return false;
  if (group == 1 && window.extent > kMaxInterleavedWindow) return false;
  const int pixels_at = s.out_rank - (group > 1 ? 2 : 1);
  if (pixels_at < 0) return false;
  const Loop& pixels = s.out_loops[static_cast<std::size_t>(pixels_at)];
  if (pixels.in_stride != window.extent * group || pixels.out_stride != group) return false;
  if (group > 1) {
    const Loop& channels = s.out_loops[static_cast<std::size_t>(s.out_rank - 1)];
    if (channels.extent != group || channels.in_stride != 1 || channels.out_stride != 1) return false;
  }
  s.mode = ReduceMode::window;
  s.window = window.extent;
  s.window_group = group;
  return true;
}

}  // namespace

ReduceSchedule make_reduce_schedule(DType type, Reduction reduction, const Walk& walk) {
  ReduceSchedule s;
  s.type = type;
  s.reduction = reduction;
  for (int i = 0; i < walk.rank; ++i) {
    s.outputs *= walk.extent[i];
    if (walk.extent[i] != 1)
      s.out_loops[static_cast<std::size_t>(s.out_rank++)] = Loop{walk.extent[i], walk.in_stride[i], walk.out_stride[i]};
  }
  for (int i = 0; i < walk.reduced_rank; ++i) {
    s.reduced *= walk.reduced_extent[i];
    if (walk.reduced_extent[i] != 1)
      s.red_loops[static_cast<std::size_t>(s.red_rank++)] = Loop{walk.reduced_extent[i], walk.reduced_stride[i], 0};
  }
  // The fixed summation order: reduced loops by decreasing stride (memory order).
  std::stable_sort(s.red_loops.begin(), s.red_loops.begin() + s.red_rank, [](const Loop& a, const Loop& b) {
    return stride_magnitude(a.in_stride) > stride_magnitude(b.in_stride);
  });

  if (takes_windows(s)) return s;
  const bool vector_reduction = float_kernel_runs(type, reduction) && s.reduced > 0;
  if (vector_reduction && s.red_rank > 0 && s.red_loops[static_cast<std::size_t>(s.red_rank - 1)].in_stride == 1 &&
      s.red_loops[static_cast<std::size_t>(s.red_rank - 1)].extent >= kMinInnerRun) {
    s.mode = ReduceMode::inner;
  } else if (vector_reduction && s.red_rank > 0) {
    for (int d = 0; d < s.out_rank; ++d)
      if (s.out_loops[static_cast<std::size_t>(d)].in_stride == 1) {
        std::rotate(s.out_loops.begin() + d, s.out_loops.begin() + d + 1, s.out_loops.begin() + s.out_rank);
        s.mode = ReduceMode::outer;
        break;
      }
  }

  // Threading: chunks of outputs (inner, scalar) or of lanes (outer), of about kChunkBytes input.
  const auto element = static_cast<std::int64_t>(dtype_size(type));
  const std::int64_t output_bytes = std::max<std::int64_t>(s.reduced, 1) * element;
  if (s.mode == ReduceMode::outer) {
    if (s.outputs == 0) return s;  // nothing to write (run_reduce returns at once); no lanes to divide by
    // The tile (see reduce_schedule.hpp): every contiguous output if they fit in L1, else equal
    // tiles of up to kL2TileBytes. The steps per pass follow sequential_steps (below), so each
    // lane's order of operations never depends on the tile's width.
    constexpr std::int64_t kL1TileBytes = 16 << 10, kL2TileBytes = 64 << 10;
    const std::int64_t acc_size = type == DType::float64 ? 8 : 4;
    const std::int64_t lanes = s.out_loops[static_cast<std::size_t>(s.out_rank - 1)].extent;
    // Steps read in sequence: each step's row starts where the last one ended, and one tile takes
    // the whole row. Decided by the walk alone, never by the tile, which the thread count may
    // narrow (below): it sets the steps per pass, hence the order of operations.
    s.sequential_steps =
        s.red_loops[static_cast<std::size_t>(s.red_rank - 1)].in_stride == lanes && lanes * acc_size <= kL1TileBytes;
    if (lanes * acc_size <= kL1TileBytes) {
      s.lane_chunk = lanes;
    } else {
      const std::int64_t tiles = (lanes * acc_size + kL2TileBytes - 1) / kL2TileBytes;
      s.lane_chunk = ((lanes + tiles - 1) / tiles + 63) / 64 * 64;
    }
    // Few rows of few tiles (`(n) c -> c`): narrower tiles, so that every thread has one; the
    // tile's width never changes a result, so the thread count may choose it.
    const std::int64_t rows = s.outputs / lanes;
    const std::int64_t threads = get_num_threads();
    if (rows * ((lanes + s.lane_chunk - 1) / s.lane_chunk) < threads && lanes >= 2 * kMinSplitLanes) {
      const std::int64_t tiles = std::min((threads + rows - 1) / rows, lanes / kMinSplitLanes);
      s.lane_chunk = ((lanes + tiles - 1) / tiles + kMinSplitLanes - 1) / kMinSplitLanes * kMinSplitLanes;
    }
    return s;
  }
  s.output_chunk = std::max<std::int64_t>(1, kChunkBytes / output_bytes);
  // Few outputs, much to reduce: cut the outermost reduced loop into fixed pieces as well.
  if (s.red_rank > 0 && s.outputs < 8 && output_bytes >= 4 * kPieceBytes) {
    const Loop& first = s.red_loops[0];
    const std::int64_t inner_bytes = output_bytes / first.extent;
    s.piece_extent = std::max<std::int64_t>(1, kPieceBytes / std::max<std::int64_t>(inner_bytes, 1));
    s.pieces = (first.extent + s.piece_extent - 1) / s.piece_extent;
  }
  return s;
}

void enable_window_reduce(bool enabled) { window_mode_enabled = enabled; }

std::string describe_reduce(DType in_type, Reduction reduction, const Walk& walk) {
  const ReduceSchedule s = make_reduce_schedule(in_type, reduction, walk);
  switch (s.mode) {
    case ReduceMode::window: {
      const std::int64_t rows = s.reduced / s.window;
      const std::string layout = s.window_group == 1 ? "NCHW" : "NHWC, " + std::to_string(s.window_group) + " channels";
      return std::to_string(rows) + "x" + std::to_string(s.window) + " windows reduced in registers (" + layout + ")";
    }
    case ReduceMode::outer:
      return "outer: vectors across " + std::to_string(s.out_loops[static_cast<std::size_t>(s.out_rank - 1)].extent) +
             " contiguous outputs";
    case ReduceMode::inner: return "inner: vectors along the reduced run";
    case ReduceMode::scalar: break;
  }
  return "scalar";
}

void reduce_strided(DType in_type, Reduction reduction, const void* in, void* out, const Walk& walk) {
  const ReduceSchedule schedule = make_reduce_schedule(in_type, reduction, walk);
  visit_dtype(in_type, [&](auto tag) {
    using T = decltype(tag);
    reduce_dispatch(schedule, static_cast<const T*>(in), out);
  });
}

}  // namespace einops::detail
