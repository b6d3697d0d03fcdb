// The reuse cache for large result buffers: size classes of four per power of two (at most 25%
// slack), exact-class reuse, most recently freed first, bounded in bytes. Large buffers come from
// allocate_pages (platform.hpp): 2 MiB aligned and marked for transparent huge pages, so that
// transposes over them need few TLB entries.
#include "buffer_cache.hpp"

#include <atomic>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "einops/memory.hpp"
#include "platform.hpp"

namespace einops {
namespace detail {
namespace {

/// Rounds up to the size class: four classes per power of two, whole pages.
std::size_t size_class(std::size_t bytes) {
  const int top = static_cast<int>(std::bit_width(bytes)) - 1;
  const std::size_t step = std::max<std::size_t>(std::size_t{1} << std::max(top - 2, 0), 4096);
  return (bytes + step - 1) / step * step;
}

/// EINOPS_BUFFER_CACHE_MB, else kDefaultBufferCacheLimit (einops/memory.hpp).
std::size_t default_limit() {
  if (const auto text = environment_variable(kBufferCacheVariable))
    if (const std::optional<std::size_t> bytes = buffer_cache_limit_setting(*text)) return *bytes;
  return kDefaultBufferCacheLimit;
}

class BufferCache {
 public:
  BufferCache() : limit_(default_limit()) {}
  ~BufferCache() { clear(); }

  void* take(std::size_t bytes) {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = free_.find(bytes);
    if (it == free_.end() || it->second.empty()) return nullptr;
    void* p = it->second.back();
    it->second.pop_back();
    held_ -= bytes;
    return p;
  }
  void give_back(void* p, std::size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      if (enabled_ && held_ + bytes <= limit_) {
        free_[bytes].push_back(p);
        held_ += bytes;
        return;
      }
    }
    free_pages(p, bytes);
  }
  void clear() { trim_to(0); }
  void trim_to(std::size_t bytes) {
    std::vector<std::pair<void*, std::size_t>> released;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto it = free_.rbegin(); it != free_.rend() && held_ > bytes; ++it)  // largest first
        while (!it->second.empty() && held_ > bytes) {
          released.emplace_back(it->second.back(), it->first);
          it->second.pop_back();
          held_ -= it->first;
        }
    }
    for (auto [p, size] : released) free_pages(p, size);
  }
  void set_enabled(bool enabled) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      enabled_ = enabled;
    }
    if (!enabled) clear();
  }
  bool enabled() {
    std::lock_guard<std::mutex> lock(mutex_);
    return enabled_;
  }
  void set_limit(std::size_t bytes) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      limit_ = bytes;
    }
    trim_to(bytes);
  }
  std::size_t limit() {
    std::lock_guard<std::mutex> lock(mutex_);
    return limit_;
  }
  std::size_t held() {
    std::lock_guard<std::mutex> lock(mutex_);
    return held_;
  }

 private:
  std::mutex mutex_;
  std::map<std::size_t, std::vector<void*>> free_;
  std::size_t held_ = 0;
  std::size_t limit_;
  bool enabled_ = true;
};

BufferCache& cache() {
  // Never destroyed: buffers may be released by tensors that outlive static destruction.
  static BufferCache* instance = new BufferCache();
  return *instance;
}

/// What a buffer's Storage holds: the buffer, given back to the heap or, when it came from the
/// cache (`cached_size` its size class), to the cache.
class BufferOwner {
 public:
  BufferOwner(void* data, std::size_t cached_size) noexcept : data_(data), cached_size_(cached_size) {}
  BufferOwner(BufferOwner&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), cached_size_(other.cached_size_) {}
  BufferOwner(const BufferOwner&) = delete;
  BufferOwner& operator=(const BufferOwner&) = delete;
  BufferOwner& operator=(BufferOwner&&) = delete;
  ~BufferOwner() {
    if (data_ == nullptr) return;
    if (cached_size_ == 0) ::operator delete(data_, std::align_val_t{kBufferAlignment});
    else cache().give_back(data_, cached_size_);
  }

 private:
  void* data_;
  std::size_t cached_size_;
};

}  // namespace

Allocation allocate_buffer(std::size_t bytes, bool zeroed) {
  if (bytes < kCachedBufferMinBytes) {
    void* p = ::operator new(std::max<std::size_t>(bytes, 1), std::align_val_t{kBufferAlignment});
    if (zeroed) std::memset(p, 0, bytes);
    return {Storage(BufferOwner(p, 0)), p};
  }
  const std::size_t size = size_class(bytes);
  void* p = cache().take(size);
  if (p == nullptr) p = allocate_pages(size, zeroed);
  else if (zeroed) std::memset(p, 0, bytes);
  return {Storage(BufferOwner(p, size)), p};
}

AnyTensor new_result(DType dtype, const Shape& shape) {
  const std::int64_t count = checked_allocation_count(shape, dtype_size(dtype));
  Allocation memory = allocate_buffer(static_cast<std::size_t>(count) * dtype_size(dtype), false);
  return AnyTensor(dtype, std::move(memory.storage), memory.data, shape, row_major_strides(shape));
}

}  // namespace detail

void set_buffer_cache_enabled(bool enabled) { detail::cache().set_enabled(enabled); }
bool buffer_cache_enabled() { return detail::cache().enabled(); }
void set_buffer_cache_limit(std::size_t bytes) { detail::cache().set_limit(bytes); }
std::size_t buffer_cache_limit() { return detail::cache().limit(); }
void clear_buffer_cache() { detail::cache().clear(); }
std::size_t buffer_cache_bytes() { return detail::cache().held(); }

}  // namespace einops
