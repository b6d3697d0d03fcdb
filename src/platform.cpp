// The operating-system calls of the library (see platform.hpp): POSIX and Linux under #if, the
// standard C++ library elsewhere.
#include "platform.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <new>
#include <sstream>
#include <thread>

#include "einops/detail/platform.hpp"

#if defined(__linux__) || defined(__APPLE__)
#define EINOPS_DETAIL_POSIX_PAGES 1
#include <sys/mman.h>
#include <unistd.h>
#else
#define EINOPS_DETAIL_POSIX_PAGES 0
#endif
#if defined(__linux__)
#include <sched.h>
#endif

namespace einops::detail {
namespace {

/// sched_getaffinity fails (EINVAL) when its set is smaller than the kernel's CPU mask: the set
/// doubles from CPU_SETSIZE up to this many CPUs.
[[maybe_unused]] constexpr int kMaxAffinityCpus = 1 << 16;

/// Where the cgroup file systems are mounted.
[[maybe_unused]] constexpr const char* kCgroupRoot = "/sys/fs/cgroup";

/// A whole small file (/proc, /sys); nullopt when it cannot be read.
[[maybe_unused]] std::optional<std::string> read_file(const std::string& path) {
  std::ifstream file(path);
  if (!file) return std::nullopt;
  std::ostringstream text;
  text << file.rdbuf();
  if (file.bad()) return std::nullopt;
  return std::move(text).str();
}

/// `text` without trailing whitespace (the files under /proc and /sys end with a newline).
std::string_view trim_end(std::string_view text) {
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

/// ceil(quota / period) as a CPU count, at least 1; nullopt for a zero period.
std::optional<int> cpus_of_quota(std::int64_t quota, std::int64_t period) {
  if (period <= 0) return std::nullopt;
  const std::int64_t cpus = quota / period + (quota % period != 0 ? 1 : 0);
  return static_cast<int>(std::clamp<std::int64_t>(cpus, 1, std::numeric_limits<int>::max()));
}

std::optional<int> smaller(std::optional<int> a, std::optional<int> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

std::optional<int> affinity_cpu_count() {
#if defined(__linux__)
  for (int cpus = CPU_SETSIZE; cpus <= kMaxAffinityCpus; cpus *= 2) {
    cpu_set_t* set = CPU_ALLOC(cpus);
    if (set == nullptr) return std::nullopt;
    const std::size_t size = CPU_ALLOC_SIZE(cpus);
    CPU_ZERO_S(size, set);
    const bool ok = sched_getaffinity(0, size, set) == 0;
    const int error = errno;
    const int count = ok ? CPU_COUNT_S(size, set) : 0;
    CPU_FREE(set);
    if (ok) return count > 0 ? std::optional<int>(count) : std::nullopt;
    if (error != EINVAL) return std::nullopt;
  }
#endif
  return std::nullopt;
}

/// The smallest cgroup CPU limit on the process's cgroup and its parents; nullopt when none.
std::optional<int> cgroup_cpu_limit() {
#if defined(__linux__)
  std::optional<int> limit;
  if (const auto self = read_file("/proc/self/cgroup"))
    if (std::optional<std::string> path = parse_cgroup_v2_path(*self)) {
      for (;;) {  // v2: the cgroup's own cpu.max, then each parent's, up to the root's
        if (const auto text = read_file(kCgroupRoot + *path + (path->ends_with('/') ? "" : "/") + "cpu.max"))
          limit = smaller(limit, parse_cgroup_cpu_max(*text));
        const std::size_t slash = path->find_last_of('/');
        if (slash == std::string::npos || *path == "/") break;
        path->resize(slash == 0 ? 1 : slash);
      }
    }
  const std::string v1 = std::string(kCgroupRoot) + "/cpu/";
  const auto quota = read_file(v1 + "cpu.cfs_quota_us");
  const auto period = read_file(v1 + "cpu.cfs_period_us");
  if (quota && period) limit = smaller(limit, parse_cgroup_cfs_quota(*quota, *period));
  return limit;
#else
  return std::nullopt;
#endif
}

}  // namespace

// ---- memory ---------------------------------------------------------------------------------

std::optional<std::size_t> physical_memory_bytes() {
#if EINOPS_DETAIL_POSIX_PAGES && defined(_SC_PHYS_PAGES)
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return std::nullopt;
  std::size_t bytes = 0;
  if (checked_mul(static_cast<std::size_t>(pages), static_cast<std::size_t>(page_size), bytes)) return std::nullopt;
  return bytes;
#else
  return std::nullopt;
#endif
}

void* allocate_pages(std::size_t bytes, bool zeroed) {
#if EINOPS_DETAIL_POSIX_PAGES
  // Over-map by one alignment and unmap both ends, for an aligned start. Fresh anonymous
  // mappings read as zero, so `zeroed` costs nothing.
  (void)zeroed;
  constexpr std::size_t kAlign = kPageAllocationAlignment;
  std::size_t span = 0;
  if (checked_add(bytes, kAlign, span)) throw std::bad_alloc();
  void* raw = mmap(nullptr, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kAlign - 1) / kAlign * kAlign;
  if (aligned > start) munmap(raw, aligned - start);
  const std::uintptr_t end = start + span, used_end = aligned + bytes;
  if (end > used_end) munmap(reinterpret_cast<void*>(used_end), end - used_end);
#if defined(MADV_HUGEPAGE)
  madvise(reinterpret_cast<void*>(aligned), bytes, MADV_HUGEPAGE);
#endif
  return reinterpret_cast<void*>(aligned);
#else
  void* p = ::operator new(bytes, std::align_val_t{kPageAllocationAlignment});
  if (zeroed) std::memset(p, 0, bytes);
  return p;
#endif
}

void free_pages(void* p, std::size_t bytes) noexcept {
#if EINOPS_DETAIL_POSIX_PAGES
  munmap(p, bytes);
#else
  (void)bytes;
  ::operator delete(p, std::align_val_t{kPageAllocationAlignment});
#endif
}

// ---- CPUs -----------------------------------------------------------------------------------

int available_cpus() {
  const unsigned hardware = std::thread::hardware_concurrency();  // 0: unknown
  std::optional<int> count;
  if (hardware != 0) count = static_cast<int>(std::min<unsigned>(hardware, std::numeric_limits<int>::max()));
  count = smaller(count, affinity_cpu_count());
  count = smaller(count, cgroup_cpu_limit());
  return std::max(count.value_or(1), 1);
}

std::optional<int> parse_cgroup_cpu_max(std::string_view text) {
  text = trim_end(text);
  const std::size_t space = text.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  const std::string_view quota = text.substr(0, space), period_text = text.substr(space + 1);
  const std::optional<std::int64_t> period = parse_decimal(period_text);
  if (!period) return std::nullopt;
  if (quota == "max") return std::nullopt;
  const std::optional<std::int64_t> limit = parse_decimal(quota);
  return limit ? cpus_of_quota(*limit, *period) : std::nullopt;
}

std::optional<int> parse_cgroup_cfs_quota(std::string_view quota, std::string_view period) {
  const std::optional<std::int64_t> limit = parse_decimal(trim_end(quota));  // "-1" (no limit) fails here
  const std::optional<std::int64_t> length = parse_decimal(trim_end(period));
  return limit && length ? cpus_of_quota(*limit, *length) : std::nullopt;
}

std::optional<std::string> parse_cgroup_v2_path(std::string_view proc_self_cgroup) {
  constexpr std::string_view kPrefix = "0::";
  while (!proc_self_cgroup.empty()) {
    const std::size_t newline = proc_self_cgroup.find('\n');
    const std::string_view line = proc_self_cgroup.substr(0, newline);
    if (line.starts_with(kPrefix) && line.size() > kPrefix.size() && line[kPrefix.size()] == '/')
      return std::string(line.substr(kPrefix.size()));
    if (newline == std::string_view::npos) break;
    proc_self_cgroup.remove_prefix(newline + 1);
  }
  return std::nullopt;
}

// ---- environment ----------------------------------------------------------------------------

std::optional<std::string> environment_variable(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr ? std::optional<std::string>(value) : std::nullopt;
}

std::optional<std::int64_t> parse_decimal(std::string_view text) {
  if (text.empty()) return std::nullopt;
  std::int64_t value = 0;
  for (const char c : text) {
    if (c < '0' || c > '9') return std::nullopt;
    if (checked_mul(value, std::int64_t{10}, value) || checked_add(value, std::int64_t{c - '0'}, value))
      return std::nullopt;
  }
  return value;
}

}  // namespace einops::detail
