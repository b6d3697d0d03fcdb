// The non-template kernel entry points: they see element types, extents and strides, never
// patterns. Definitions live in src/kernels/.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "einops/detail/walk.hpp"
#include "einops/dtype.hpp"
#include "einops/reduction.hpp"
#include "einops/export.hpp"

namespace einops::detail {

struct CopySchedule;  // how a copy runs: tiles, blocks, kernel (src/kernels/copy_schedule.hpp)

/// The copy schedules of one walk, made on first use for each element size and kept as long as
/// the walk (a Plan keeps one for its contiguous walk), so that a call schedules nothing.
/// Thread-safe; a copy of it starts empty (the schedules are derived data).
class CopySchedules {
 public:
  CopySchedules() = default;
  CopySchedules(const CopySchedules&) {}
  CopySchedules& operator=(const CopySchedules&) { return *this; }
  EINOPS_API ~CopySchedules();

  /// The schedule of `walk` (always the same walk for one object) for `element_size` bytes.
  EINOPS_API const CopySchedule& get(const Walk& walk, std::size_t element_size) const;

 private:
  // Element sizes 1, 2, 4, 8; accessed through std::atomic_ref (kernels/copy.cpp), which keeps
  // <atomic> out of every user's includes.
  alignas(8) mutable std::array<const CopySchedule*, 4> slots_{};
};

/// out[walk] = in[walk]: permuted copy, and broadcast copy where an input stride is 0.
/// Elements are moved as opaque words of `element_size` bytes (1, 2, 4 or 8).
EINOPS_API void copy_strided(std::size_t element_size, const void* in, void* out, const Walk& walk);
/// The same for a walk whose schedules `schedules` keeps.
EINOPS_API void copy_strided(std::size_t element_size, const void* in, void* out, const Walk& walk,
                             const CopySchedules& schedules);

/// out = in element for element, both of `shape`, each in its own layout (strides in elements,
/// any sign, 0 in `in` broadcasts): the copy between two layouts of one tensor. An empty shape
/// copies nothing.
EINOPS_API void copy_layout(std::size_t element_size, std::span<const std::int64_t> shape, const void* in,
                            std::span<const std::int64_t> in_strides, void* out,
                            std::span<const std::int64_t> out_strides);

/// The kernel that copy_strided runs for `walk` and `element_size`, in a few words (for `einops
/// explain`), e.g. "deinterleave 3 channels of whole rows (full vectors)".
EINOPS_API std::string describe_copy(const Walk& walk, std::size_t element_size);

/// out[o] = reduction over the reduced dimensions of in[o, ...]. `out` holds
/// reduction_result_dtype(reduction, in_type). Mean of a non-floating type is refused by the caller.
EINOPS_API void reduce_strided(DType in_type, Reduction reduction, const void* in, void* out, const Walk& walk);
/// Names in a few words the kernel reduce_strided runs for these arguments (for `einops explain`),
/// e.g. "2x2 windows reduced in registers (NCHW)", "inner: vectors along the reduced run".
EINOPS_API std::string describe_reduce(DType in_type, Reduction reduction, const Walk& walk);

/// The instruction sets the kernels were compiled for that this CPU runs, best first: "AVX3"
/// (AVX-512), "AVX2", "SSE4", "SCALAR". The best is chosen at run time, once per kernel call.
EINOPS_API std::vector<std::string> simd_targets();
/// The one the kernels use now.
EINOPS_API std::string simd_target();
/// Makes the kernels use `name` (one of simd_targets()) until called with "", which restores the
/// automatic choice. For tests and benchmarks; not while kernels run on other threads.
EINOPS_API void force_simd_target(std::string_view name);

}  // namespace einops::detail
