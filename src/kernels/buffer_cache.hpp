// Allocation of result buffers (see einops/memory.hpp): large ones from the reuse cache.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "einops/memory.hpp"
#include "einops/tensor.hpp"
#include "platform.hpp"

namespace einops::detail {

inline constexpr const char* kBufferCacheVariable = "EINOPS_BUFFER_CACHE_MB";

/// The limit in bytes that EINOPS_BUFFER_CACHE_MB's text sets: a non-negative decimal count of
/// MiB, larger ones counting as kMaxBufferCacheMiB; nullopt (the variable is ignored) otherwise.
inline std::optional<std::size_t> buffer_cache_limit_setting(std::string_view text) {
  const std::optional<std::int64_t> mib = parse_decimal(text);
  if (!mib) return std::nullopt;
  const std::size_t capped = std::min(static_cast<std::uint64_t>(*mib), std::uint64_t{kMaxBufferCacheMiB});
  return capped << 20;
}

/// Buffers at least this large go through the cache; smaller ones come from operator new.
inline constexpr std::size_t kCachedBufferMinBytes = std::size_t{1} << 20;

/// The alignment of every buffer below kCachedBufferMinBytes (a cache line, as LibTorch's).
inline constexpr std::size_t kBufferAlignment = 64;

// allocate_buffer (einops/tensor.hpp): 64-byte aligned; 2 MiB aligned and cached when large.

/// A row-major result tensor whose every element the caller will write (not zero-filled).
AnyTensor new_result(DType dtype, const Shape& shape);

}  // namespace einops::detail
