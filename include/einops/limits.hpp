// The library's limits in one place: what one call may ask for before it is refused with an
// EinopsError instead of overflowing, recursing without bound or allocating without bound.
// docs/reliability.md lists them with the tests that hold them.
#pragma once

#include <cstddef>

#include "einops/detail/max_rank.hpp"
#include "einops/export.hpp"
#include "einops/pattern_error.hpp"

namespace einops {

/// Most dimensions of any tensor an operation takes or returns, and most elementary axes of one
/// plan. Fixed so that walks and plans live on the stack.
inline constexpr int kMaxTensorRank = detail::kMaxRank;
static_assert(kMaxTensorRank >= 32, "docs/reliability.md promises at least 32 dimensions");

/// Most axes (elementary axes, unit axes, `()` and the ellipsis) one side of a pattern may have.
inline constexpr std::size_t kMaxAxesPerExpression = kMaxPatternAxes;

/// Patterns longer than this are parsed on every call instead of being cached, so the caches
/// (a bounded number of entries each) never hold more than a bounded number of bytes.
inline constexpr std::size_t kMaxCachedPatternBytes = 4096;

/// The largest allocation, in bytes, of one tensor the library creates (a result, a stacked
/// list input, a packed tensor, `Tensor<T>(shape)`). Larger requests throw EinopsError before
/// allocating. The default is the machine's physical memory; `bytes == 0` restores it.
/// Thread-safe; it applies to calls that start after it returns.
EINOPS_API void set_max_allocation_bytes(std::size_t bytes);
EINOPS_API std::size_t max_allocation_bytes();

}  // namespace einops
