// Reuse of large result buffers.
//
// A fresh allocation of a large result is paid in page faults on first touch, often more than
// the copy itself. Buffers of at least 1 MiB (results of rearrange/reduce/repeat, and Tensor<T>
// and AnyTensor storage) are therefore taken from a bounded, size-bucketed cache of buffers whose
// tensors are gone, and are aligned to 2 MiB so that the kernel can back them with huge pages. The cache holds at most
// `buffer_cache_limit()` bytes; buffers beyond it are returned to the system at once.
//
// Environment variable, read once, at the first allocation or setting that goes through the cache:
//   EINOPS_BUFFER_CACHE_MB  a non-negative decimal integer: the default limit in MiB (0: keep
//                           nothing; larger than kMaxBufferCacheMiB counts as kMaxBufferCacheMiB).
//                           Any other text (empty, a sign, spaces, a unit) is ignored, silently,
//                           and kDefaultBufferCacheLimit applies.
// set_buffer_cache_limit always wins over the default.
#pragma once

#include <cstddef>

#include "einops/export.hpp"

namespace einops {

/// The cache's default limit: small, as a library inside someone else's process should be; enough
/// to keep a few intermediate results of a loop over images or activations.
inline constexpr std::size_t kDefaultBufferCacheLimit = std::size_t{32} << 20;

/// The largest EINOPS_BUFFER_CACHE_MB honoured (1 TiB): larger values count as this.
inline constexpr std::size_t kMaxBufferCacheMiB = std::size_t{1} << 20;

/// Turns reuse on (the default) or off; turning it off also empties the cache.
EINOPS_API void set_buffer_cache_enabled(bool enabled);
EINOPS_API bool buffer_cache_enabled();

/// The most bytes kept for reuse (default kDefaultBufferCacheLimit, or EINOPS_BUFFER_CACHE_MB).
/// Lowering it trims the cache.
EINOPS_API void set_buffer_cache_limit(std::size_t bytes);
EINOPS_API std::size_t buffer_cache_limit();

/// Returns every cached buffer to the system.
EINOPS_API void clear_buffer_cache();

/// Bytes held by the cache now (buffers of live tensors are not counted).
EINOPS_API std::size_t buffer_cache_bytes();

}  // namespace einops
