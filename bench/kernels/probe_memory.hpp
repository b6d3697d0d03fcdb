// What every standalone probe (bench/kernels/*_probe.cpp) needs around its loops: a clock, and
// buffers on transparent huge pages, as the library allocates large tensors.
#pragma once

#include <sys/mman.h>

#include <chrono>
#include <cstddef>
#include <cstdlib>
#include <cstring>

namespace probe {

inline double seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// `count` elements, 2 MB aligned, rounded up to whole 2 MB pages, marked for huge pages and every
/// byte set to `fill` (which faults the pages in before any timing). Freed with std::free.
template <class T>
T* huge_buffer(std::size_t count, int fill = 0) {
  constexpr std::size_t kPage = std::size_t{2} << 20;
  const std::size_t bytes = (count * sizeof(T) + kPage - 1) / kPage * kPage;
  auto* p = static_cast<T*>(std::aligned_alloc(kPage, bytes));
  madvise(p, bytes, MADV_HUGEPAGE);
  std::memset(p, fill, bytes);
  return p;
}

}  // namespace probe
