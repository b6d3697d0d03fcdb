// Allocation of result buffers (see einops/memory.hpp): large ones from the reuse cache.
#pragma once

#include <cstddef>
#include <memory>

#include "einops/tensor.hpp"

namespace einops::detail {

/// Buffers at least this large go through the cache; smaller ones come from operator new.
inline constexpr std::size_t kCachedBufferMinBytes = std::size_t{1} << 20;

// allocate_buffer (einops/tensor.hpp): 64-byte aligned; 2 MiB aligned and cached when large.

/// A row-major result tensor whose every element the caller will write (not zero-filled).
AnyTensor new_result(DType dtype, const Shape& shape);

}  // namespace einops::detail
