// The fused conversion: a permuted or broadcast copy that reads one element type and writes
// another, optionally through a per-element affine map, in one pass over the output.
//
// Contract, per element (in float32, each operation rounded once, no fused multiply-add):
//   x = float(in)                          exact for every input type
//   y = x * scale[p] + offset[p]           (or (x + offset[p]) * scale[p] with offset_first)
//   out = Out(y)                           float16/bfloat16: nearest even (half_convert-inl.h);
//                                          uint8/int8: NaN -> 0, then nearest even, saturated
// where p = sum of index * param_stride over the loops (the position along the map's axis).
// Every element's result depends on its own input alone: the same bits on every SIMD target and
// for any thread count. Assumptions: strides in elements, any sign; the output does not overlap
// the input.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "einops/detail/walk.hpp"
#include "einops/dtype.hpp"

namespace einops::detail {

/// One loop of a conversion. `in_table`, when set, gives the input offset of each index (a list
/// input's tensors, a permuted channel axis) instead of index * in_stride; such a loop is never
/// merged with another.
struct ConvertLoop {
  std::int64_t extent = 1;
  std::int64_t in_stride = 0;
  std::int64_t out_stride = 0;
  std::int64_t param_stride = 0;
  const std::int64_t* in_table = nullptr;

  std::int64_t in_offset(std::int64_t index) const { return in_table != nullptr ? in_table[index] : index * in_stride; }
};

/// What each element goes through (see the contract above).
struct ConvertMap {
  DType in = DType::uint8;
  DType out = DType::float32;
  const float* scale = nullptr;  // null: conversion only, no arithmetic
  const float* offset = nullptr;
  bool offset_first = false;
};

/// Whether the kernels convert `in` to `out`: inputs uint8 int8 uint16 int16 float16 bfloat16
/// float32; outputs float32 float16 bfloat16 uint8 int8.
bool convertible(DType in, DType out);

enum class ConvertKernel : std::uint8_t {
  rows,            // the pixel loop alone, any strides (reversed and contiguous input rows in vectors)
  split_channels,  // 2-4 channels interleaved in the input (pixel stride = channels) -> planes
  merge_channels,  // 2-4 channel rows -> channels interleaved in the output (pixel stride = channels)
};

/// Pixels of one work item: each channel's floats fill an L1 buffer of this many.
inline constexpr std::int64_t kConvertBlock = 512;
/// Most channels the split and merge kernels take (the image channel counts 2, 3, 4).
inline constexpr std::int64_t kMaxConvertChannels = 4;

struct ConvertSchedule {
  ConvertMap map;
  ConvertKernel kernel = ConvertKernel::rows;
  ConvertLoop pixel;    // the loop a work item runs along
  ConvertLoop channel;  // split and merge: the channel loop
  std::int64_t channels = 1;
  // split: channel k of a pixel is read at pixel + channel_base + channel_position[k], the
  // positions a permutation of 0 .. channels-1 (a reversed or swapped channel axis).
  std::int64_t channel_base = 0;
  std::array<std::int64_t, kMaxConvertChannels> channel_position{};
  int outer_rank = 0;  // outermost first
  std::array<ConvertLoop, kMaxRank> outer{};
  std::int64_t total = 0;        // elements written
  std::int64_t blocks = 0;       // of the pixel loop
  std::int64_t items = 0;        // outer positions x blocks
  std::int64_t chunk_items = 1;  // fixed by the problem, never by the thread count
  bool stream = false;           // non-temporal stores for float32 rows
  bool parallel = false;
};

/// The schedule of a conversion over `loops` (outermost first, not merged; empty for a scalar).
ConvertSchedule make_convert_schedule(const ConvertMap& map, std::span<const ConvertLoop> loops);

/// Runs it (SIMD kernels chosen at run time for this CPU; threads above a size threshold).
void execute_convert(const ConvertSchedule& schedule, const void* in, void* out);

}  // namespace einops::detail
