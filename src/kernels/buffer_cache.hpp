// Allocation of result buffers (see einops/memory.hpp): large ones from the reuse cache.
#pragma once

#include <cstddef>
#include <memory>

#include "einops/tensor.hpp"

namespace einops::detail {

/// Buffers at least this large go through the cache; smaller ones come from operator new.
inline constexpr std::size_t kCachedBufferMinBytes = std::size_t{1} << 20;

/// Storage for `bytes` (at least 64-byte aligned; 2 MiB aligned when large). The contents are
/// unspecified unless `zeroed`. The buffer goes back to the cache when the last owner drops it.
std::shared_ptr<void> allocate_buffer(std::size_t bytes, bool zeroed);

/// A row-major result tensor whose every element the caller will write (not zero-filled).
AnyTensor new_result(DType dtype, const Shape& shape);

}  // namespace einops::detail
