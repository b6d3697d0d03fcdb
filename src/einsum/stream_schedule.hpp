// The streaming contraction out[o] = Σ_r a[o, r] · b[o, r] on strided memory, as its scalar
// loops (stream.cpp) and its SIMD kernels (stream_simd.cpp) both read it.
//
// The outputs are rows (every output dimension but the innermost) times the innermost output
// dimension, the lanes. Work is dealt out in items: one row's lanes [part·block, (part+1)·block).
// Item boundaries depend on the problem alone, and each output is computed by one item in one
// fixed order (the reduced dimensions row-major, the innermost run in SIMD lanes where it is
// contiguous), so results do not depend on the thread count.
#pragma once

#include <array>
#include <cstdint>

#include "einops/detail/walk.hpp"
#include "../odometer.hpp"
#include "einops/dtype.hpp"

namespace einops::detail::einsum {

/// Dimensions walked together in a, b and the output (strides in elements; 0: not indexed).
struct StreamLoops {
  int rank = 0;  // outermost first
  std::array<std::int64_t, kMaxRank> extent{}, a{}, b{}, out{};

  void push(std::int64_t length, std::int64_t a_stride, std::int64_t b_stride, std::int64_t out_stride) {
    const auto d = static_cast<std::size_t>(rank++);
    extent[d] = length;
    a[d] = a_stride;
    b[d] = b_stride;
    out[d] = out_stride;
  }
  std::int64_t count() const {
    std::int64_t n = 1;
    for (int d = 0; d < rank; ++d) n *= extent[static_cast<std::size_t>(d)];
    return n;
  }
};

enum class StreamMode : std::uint8_t {
  dot,    // the innermost reduced dimension is contiguous in a and b: a SIMD dot product per output
  lanes,  // the lanes are contiguous in the output and contiguous or broadcast (stride 0) in a and
          // b: neighbouring outputs side by side in SIMD lanes, each summed over the reduced steps
  scalar  // any other layout, and the element types without SIMD kernels
};

struct StreamSchedule {
  DType type = DType::float32;
  StreamMode mode = StreamMode::scalar;
  const void* a = nullptr;
  const void* b = nullptr;
  void* out = nullptr;
  StreamLoops rows;        // the output dimensions but the innermost
  std::int64_t lanes = 1;  // the innermost output dimension: its length and strides
  std::int64_t lane_a = 0, lane_b = 0, lane_out = 0;
  StreamLoops reduced;      // out strides 0; dot mode: the last has a and b strides 1
  std::int64_t block = 1;   // lanes per item
  std::int64_t blocks = 1;  // items per row
  std::int64_t items() const { return rows.count() * blocks; }
};

/// An odometer over the first `rank` dimensions of `loops`, row-major: `a`, `b`, `out` are the
/// current offsets; next() moves on and returns false after the last index (back at 0).
class StreamCursor {
  // How the odometer reads this cursor's loops and moves its offsets (before their use: the
  // return types are deduced).
  auto extent() const {
    return [this](int d) { return loops_.extent[static_cast<std::size_t>(d)]; };
  }
  auto move() {
    return [this](int d, std::int64_t steps) {
      const auto i = static_cast<std::size_t>(d);
      a += steps * loops_.a[i];
      b += steps * loops_.b[i];
      out += steps * loops_.out[i];
    };
  }

 public:
  StreamCursor(const StreamLoops& loops, int rank, std::int64_t first = 0) : loops_(loops), rank_(rank) {
    // Only the dimensions in use are set: kernels make one cursor per output or group of outputs.
    odometer_seek(rank_, first, index_, extent(), move());
  }
  bool next() { return odometer_step(rank_, index_, extent(), move()); }
  std::int64_t a = 0, b = 0, out = 0;

 private:
  const StreamLoops& loops_;
  int rank_;
  std::int64_t index_[kMaxRank];  // NOLINT: the first rank_ are set by the constructor
};

/// The items [begin, end) of a schedule in order: `row` holds the row's offsets, the item's
/// outputs are the lanes [first, first + count).
class StreamItems {
 public:
  StreamItems(const StreamSchedule& s, std::int64_t begin)
      : row(s.rows, s.rows.rank, begin / s.blocks), schedule_(s), part_(begin % s.blocks) {
    place();
  }
  void next() {
    if (++part_ == schedule_.blocks) {
      part_ = 0;
      row.next();
    }
    place();
  }
  StreamCursor row;
  std::int64_t first = 0, count = 0;

 private:
  void place() {
    first = part_ * schedule_.block;
    count = schedule_.lanes - first < schedule_.block ? schedule_.lanes - first : schedule_.block;
  }
  const StreamSchedule& schedule_;
  std::int64_t part_;
};

/// Lanes mode with reduced steps: up to this many neighbouring outputs are summed side by side,
/// their accumulators in an L1-resident buffer, so that each reduced step's run of lanes is read
/// in one contiguous pass (rows of a long stride are then read whole, as the prefetcher expects);
/// items hold at least this many lanes where the row has them.
inline constexpr std::int64_t kRowStreamLanes = 1024;

/// Runs the items [begin, end) of a dot or lanes schedule (float32, float64, float16, bfloat16).
using StreamKernel = void (*)(const StreamSchedule& schedule, std::int64_t begin, std::int64_t end);

/// The SIMD kernel of `mode` (dot or lanes) for the best instruction set of this CPU.
StreamKernel stream_kernel(StreamMode mode);

}  // namespace einops::detail::einsum
