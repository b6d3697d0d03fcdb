// The streaming contraction's schedule and its portable loops. The SIMD kernels are in
// stream_simd.cpp; both walk the schedule of stream_schedule.hpp.
#include "stream.hpp"

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>

#include "../kernels/parallel.hpp"
#include "accumulator.hpp"
#include "einops/detail/platform.hpp"

namespace einops::detail::einsum {
namespace {

/// A dot product shorter than this many elements runs in the portable loops (or as lanes):
/// a SIMD dot product pays a fold across lanes per output.
constexpr std::int64_t kMinDotRun = 8;
/// Outputs are dealt out in items of about this many bytes read and written: large enough that
/// an item's bookkeeping is negligible, small enough that threads balance.
constexpr double kItemBytes = 64 * 1024;
/// Lanes mode: items start at multiples of this many lanes (whole cache lines of every type).
constexpr std::int64_t kLaneAlign = 64;

/// outer == inner · extent, false when the product overflows (no real walk has such strides).
bool continues(std::int64_t outer, std::int64_t inner, std::int64_t extent) {
  std::int64_t product = 0;
  return !checked_mul(inner, extent, product) && outer == product;
}

/// Orders the dimensions of `loops` by decreasing |key| (stable: insertion sort of a few
/// dimensions), then merges each adjacent pair that walks a, b and the output as one dimension.
template <class Key>
void order_and_merge(StreamLoops& loops, Key key) {
  const auto swap_dims = [&](std::size_t i, std::size_t j) {
    std::swap(loops.extent[i], loops.extent[j]);
    std::swap(loops.a[i], loops.a[j]);
    std::swap(loops.b[i], loops.b[j]);
    std::swap(loops.out[i], loops.out[j]);
  };
  for (int i = 1; i < loops.rank; ++i)
    for (auto j = static_cast<std::size_t>(i); j > 0 && key(loops, j - 1) < key(loops, j); --j) swap_dims(j - 1, j);
  int kept = 0;
  for (int d = 0; d < loops.rank; ++d) {
    const auto i = static_cast<std::size_t>(d);
    if (loops.extent[i] == 1) continue;
    const auto k = static_cast<std::size_t>(kept - 1);
    const std::int64_t length = loops.extent[i];
    if (kept > 0 && continues(loops.a[k], loops.a[i], length) && continues(loops.b[k], loops.b[i], length) &&
        continues(loops.out[k], loops.out[i], length)) {
      loops.extent[k] *= loops.extent[i];
      loops.a[k] = loops.a[i];
      loops.b[k] = loops.b[i];
      loops.out[k] = loops.out[i];
      continue;
    }
    const auto to = static_cast<std::size_t>(kept++);
    loops.extent[to] = loops.extent[i];
    loops.a[to] = loops.a[i];
    loops.b[to] = loops.b[i];
    loops.out[to] = loops.out[i];
  }
  loops.rank = kept;
}

bool has_simd_kernels(DType type) {
  return type == DType::float32 || type == DType::float64 || type == DType::float16 || type == DType::bfloat16;
}

/// Bytes read and written per output, as a double (no overflow for any shape).
double bytes_per_output(const StreamSchedule& s) {
  const auto element = static_cast<double>(dtype_size(s.type));
  return static_cast<double>(s.reduced.count()) * 2 * element + element;
}

/// The portable loops: every element type, any strides.
template <class T>
void scalar_items(const StreamSchedule& s, std::int64_t begin, std::int64_t end) {
  using Acc = Accumulator<T>;
  const T* a = static_cast<const T*>(s.a);
  const T* b = static_cast<const T*>(s.b);
  T* out = static_cast<T*>(s.out);
  const int last = s.reduced.rank - 1;
  const std::int64_t run = last >= 0 ? s.reduced.extent[static_cast<std::size_t>(last)] : 1;
  const std::int64_t run_a = last >= 0 ? s.reduced.a[static_cast<std::size_t>(last)] : 0;
  const std::int64_t run_b = last >= 0 ? s.reduced.b[static_cast<std::size_t>(last)] : 0;
  StreamItems items(s, begin);
  for (std::int64_t item = begin; item < end; ++item, items.next()) {
    for (std::int64_t j = items.first, stop = items.first + items.count; j < stop; ++j) {
      const T* pa = a + items.row.a + j * s.lane_a;
      const T* pb = b + items.row.b + j * s.lane_b;
      T& target = out[items.row.out + j * s.lane_out];
      if (last < 0) {
        target = finish<T>(static_cast<Acc>(static_cast<Acc>(*pa) * static_cast<Acc>(*pb)));
        continue;
      }
      Acc sum{0};
      StreamCursor steps(s.reduced, last);
      do {
        const T* qa = pa + steps.a;
        const T* qb = pb + steps.b;
        for (std::int64_t r = 0; r < run; ++r)
          sum += static_cast<Acc>(static_cast<Acc>(qa[r * run_a]) * static_cast<Acc>(qb[r * run_b]));
      } while (steps.next());
      target = finish<T>(sum);
    }
  }
}

void run_scalar(const StreamSchedule& s, std::int64_t begin, std::int64_t end) {
  visit_dtype(s.type, [&](auto tag) { scalar_items<decltype(tag)>(s, begin, end); });
}

}  // namespace

StreamSchedule make_stream_schedule(const Term& a, const Term& b, const Term& out, const Extents& extent) {
  StreamSchedule s;
  s.type = a.dtype;
  s.a = a.data;
  s.b = b.data;
  s.out = out.data;
  StreamLoops output;
  for (std::size_t i = 0; i < out.labels.size(); ++i) {
    const int label = out.labels[i];
    output.push(extent[static_cast<std::size_t>(label)], a.stride_of(label), b.stride_of(label), out.strides[i]);
  }
  for (std::size_t i = 0; i < a.labels.size(); ++i)
    if (!out.has(a.labels[i]))
      s.reduced.push(extent[static_cast<std::size_t>(a.labels[i])], a.strides[i], b.stride_of(a.labels[i]), 0);
  // Outputs in the order of the output's memory, the innermost last; reduced steps in the order
  // of a's memory (then b's), so that the innermost reduced dimension is the contiguous one.
  order_and_merge(output, [](const StreamLoops& l, std::size_t d) { return stride_magnitude(l.out[d]); });
  order_and_merge(s.reduced, [](const StreamLoops& l, std::size_t d) {
    return std::pair(stride_magnitude(l.a[d]), stride_magnitude(l.b[d]));
  });

  if (output.rank > 0) {
    const auto last = static_cast<std::size_t>(output.rank - 1);
    s.lanes = output.extent[last];
    s.lane_a = output.a[last];
    s.lane_b = output.b[last];
    s.lane_out = output.out[last];
    output.rank -= 1;
  }
  s.rows = output;

  const bool simd = has_simd_kernels(s.type);
  const auto r = static_cast<std::size_t>(s.reduced.rank - 1);
  const bool dot =
      s.reduced.rank > 0 && s.reduced.a[r] == 1 && s.reduced.b[r] == 1 && s.reduced.extent[r] >= kMinDotRun;
  const auto unit_or_zero = [](std::int64_t stride) { return stride == 0 || stride == 1; };
  const bool lanes = s.lane_out == 1 && unit_or_zero(s.lane_a) && unit_or_zero(s.lane_b);
  s.mode = !simd ? StreamMode::scalar : dot ? StreamMode::dot : lanes ? StreamMode::lanes : StreamMode::scalar;

  const double per_lane = bytes_per_output(s);
  s.block = std::clamp<std::int64_t>(static_cast<std::int64_t>(kItemBytes / per_lane), 1, s.lanes);
  if (s.mode == StreamMode::lanes && s.reduced.rank > 0) s.block = std::max(s.block, kRowStreamLanes);
  if (s.mode != StreamMode::dot && s.block < s.lanes)
    s.block = std::min(s.lanes, (s.block + kLaneAlign - 1) / kLaneAlign * kLaneAlign);
  s.block = std::min(s.block, s.lanes);
  s.blocks = (s.lanes + s.block - 1) / s.block;
  return s;
}

void stream_into(const Term& a, const Term& b, const Term& out, const Extents& extent) {
  const StreamSchedule s = make_stream_schedule(a, b, out, extent);
  const std::int64_t items = s.items();
  const double item_bytes = static_cast<double>(s.block) * bytes_per_output(s);
  const auto chunk = std::max<std::int64_t>(1, static_cast<std::int64_t>(kItemBytes / item_bytes));
  const bool threads = static_cast<double>(items) * item_bytes >= static_cast<double>(kParallelMinBytes);
  const StreamKernel kernel = s.mode == StreamMode::scalar ? &run_scalar : stream_kernel(s.mode);
  parallel_for(items, chunk, threads, [&](std::int64_t begin, std::int64_t end) { kernel(s, begin, end); });
}

std::string describe_stream(const StreamSchedule& s) {
  const std::int64_t summed = s.reduced.count();
  const std::string outputs = std::to_string(s.rows.count() * s.lanes);
  switch (s.mode) {
    case StreamMode::dot: {
      const std::int64_t run = s.reduced.extent[static_cast<std::size_t>(s.reduced.rank - 1)];
      return "a SIMD dot product per output (" + outputs + " outputs, each over " + std::to_string(summed) +
             " products, " + std::to_string(run) + " contiguous at a time)";
    }
    case StreamMode::lanes:
      return std::to_string(s.lanes) + " neighbouring outputs side by side in SIMD lanes (" + outputs + " outputs" +
             (summed > 1 ? ", each over " + std::to_string(summed) + " products" : std::string()) + ")";
    case StreamMode::scalar: break;
  }
  return "portable loops (" + outputs + " outputs, each over " + std::to_string(summed) + " products)";
}

}  // namespace einops::detail::einsum
