// copy_strided: permuted copy, broadcast copy and plain copy behind one entry point. The walk is
// recast as tiles (copy_schedule.cpp) and run by the SIMD kernels: the short-axis kernels
// (short_axis_simd.cpp) for the schedules that move a few channels, the tile kernels
// (copy_simd.cpp) for every other.
#include "einops/detail/kernels.hpp"

#include <atomic>
#include <memory>
#include <span>

#include "copy_schedule.hpp"
#include "../recent_entries.hpp"
#include "../shape_reasons.hpp"
#include "einops/error.hpp"
#include "einops/tensor.hpp"

namespace einops::detail {
namespace {

bool same_walk(const Walk& a, const Walk& b) {
  if (a.rank != b.rank || a.reduced_rank != b.reduced_rank) return false;
  for (int i = 0; i < a.rank; ++i)
    if (a.extent[i] != b.extent[i] || a.in_stride[i] != b.in_stride[i] || a.out_stride[i] != b.out_stride[i])
      return false;
  return true;  // copies have no reduced dimensions
}

/// A copy schedule with what it was made from.
struct RecentSchedule {
  struct Key {
    const Walk& walk;
    std::size_t element_size;
  };
  Walk walk;
  std::size_t element_size = 0;
  std::shared_ptr<const CopySchedule> schedule;

  bool matches(const Key& key) const { return element_size == key.element_size && same_walk(walk, key.walk); }
};

/// The schedule of this thread's previous copy, reused when the walk repeats (a loop calling one
/// pattern on tensors of one layout): scheduling costs more than a small copy itself. Held by
/// shared_ptr so that a copy started while another runs on this thread cannot free it early.
std::shared_ptr<const CopySchedule> schedule_for(const Walk& walk, std::size_t element_size) {
  thread_local RecentEntries<RecentSchedule, 1> recent;
  const RecentSchedule::Key key{walk, element_size};
  const auto lookup = recent.find(key);
  if (lookup.hit) return lookup.hit->schedule;
  auto schedule = std::make_shared<const CopySchedule>(make_copy_schedule(walk, element_size));
  recent.store(lookup, [&](RecentSchedule& entry) {
    entry.walk = walk;
    entry.element_size = element_size;
    entry.schedule = schedule;
  });
  return schedule;
}

/// Runs `schedule` with the kernels it names.
void run_copy(const CopySchedule& schedule, const void* in, void* out) {
  if (schedule.total == 0) return;
  if (schedule.kernel == TileKernel::split_short_axis || schedule.kernel == TileKernel::merge_short_axis)
    return execute_short_axis_copy(schedule, in, out);
  execute_tile_copy(schedule, in, out);
}

constexpr std::size_t slot_of(std::size_t element_size) {
  return element_size == 1 ? 0 : element_size == 2 ? 1 : element_size == 4 ? 2 : 3;
}

}  // namespace

CopySchedules::~CopySchedules() {
  for (const CopySchedule* schedule : slots_) delete schedule;
}

const CopySchedule& CopySchedules::get(const Walk& walk, std::size_t element_size) const {
  static_assert(std::atomic_ref<const CopySchedule*>::required_alignment <= alignof(const CopySchedule*));
  std::atomic_ref<const CopySchedule*> slot(slots_[slot_of(element_size)]);
  if (const CopySchedule* known = slot.load(std::memory_order_acquire)) return *known;
  auto made = std::make_unique<const CopySchedule>(make_copy_schedule(walk, element_size));
  const CopySchedule* expected = nullptr;
  if (slot.compare_exchange_strong(expected, made.get(), std::memory_order_acq_rel)) return *made.release();
  return *expected;  // another thread published the same schedule first
}

void copy_strided(std::size_t element_size, const void* in, void* out, const Walk& walk,
                  const CopySchedules& schedules) {
  run_copy(schedules.get(walk, element_size), in, out);
}

void copy_strided(std::size_t element_size, const void* in, void* out, const Walk& walk) {
  const std::shared_ptr<const CopySchedule> schedule = schedule_for(walk, element_size);
  run_copy(*schedule, in, out);
}

void copy_layout(std::size_t element_size, std::span<const std::int64_t> shape, const void* in,
                 std::span<const std::int64_t> in_strides, void* out, std::span<const std::int64_t> out_strides) {
  Walk walk;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 0) return;
    walk.push_output(shape[d], in_strides[d], out_strides[d]);
  }
  walk.merge();
  copy_strided(element_size, in, out, walk);
}

void gather_row_major(std::size_t element_size, std::span<const std::int64_t> shape, const void* data,
                      std::span<const std::int64_t> strides, void* out) {
  std::int64_t out_stride = 1;
  for (const std::int64_t length : shape) {
    if (length == 0) return;
    out_stride *= length;
  }
  // Unit dimensions move nothing: only the others count against the walk's rank limit.
  Walk walk;
  for (std::size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) continue;
    if (walk.rank == kMaxRank) throw EinopsError(rank_limit_reason("The tensor has", shape.size()));
    out_stride /= shape[d];
    walk.push_output(shape[d], strides[d], out_stride);
  }
  walk.merge();
  copy_strided(element_size, data, out, walk);
}

std::string describe_copy(const Walk& walk, std::size_t element_size) {
  return describe_copy_schedule(make_copy_schedule(walk, element_size));
}

}  // namespace einops::detail
