// The operating-system side of the platform layer (the compiler side: einops/detail/platform.hpp):
// memory size, page allocation, the CPUs this process may use, and the environment. Only
// platform.cpp calls the OS; the POSIX and Linux calls there sit under #if, with a standard C++
// fallback for other systems. The parse_* functions are the pure parts, exposed for the tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace einops::detail {

// ---- memory ---------------------------------------------------------------------------------

/// The machine's physical memory in bytes; nullopt where the system does not say.
std::optional<std::size_t> physical_memory_bytes();

/// Alignment of allocate_pages: one x86-64 huge page, so that a large buffer can be backed by
/// huge pages from its first byte.
inline constexpr std::size_t kPageAllocationAlignment = std::size_t{2} << 20;

/// `bytes` of memory aligned to kPageAllocationAlignment, marked for transparent huge pages where
/// the system has them; all zero when `zeroed` (fresh anonymous mappings already are). Throws
/// std::bad_alloc on failure. Release with free_pages(p, bytes), the same byte count.
void* allocate_pages(std::size_t bytes, bool zeroed);
void free_pages(void* p, std::size_t bytes) noexcept;

// ---- CPUs -----------------------------------------------------------------------------------

/// The CPUs this process may use, at least 1: the smallest of the CPUs in its affinity mask
/// (sched_getaffinity), its cgroup's CPU quota rounded up (cgroup v2 cpu.max of its cgroup and
/// each parent; v1 cpu.cfs_quota_us / cpu.cfs_period_us), and the hardware's count. Reads /proc
/// and /sys on every call.
int available_cpus();

/// The CPU limit in the text of a cgroup v2 `cpu.max` ("$QUOTA $PERIOD", microseconds):
/// ceil(quota / period), at least 1; nullopt for "max $PERIOD" (no limit) or malformed text.
std::optional<int> parse_cgroup_cpu_max(std::string_view text);

/// The CPU limit in the texts of cgroup v1 `cpu.cfs_quota_us` and `cpu.cfs_period_us`: as
/// parse_cgroup_cpu_max; nullopt for the quota "-1" (no limit) or malformed text.
std::optional<int> parse_cgroup_cfs_quota(std::string_view quota, std::string_view period);

/// The process's cgroup v2 path (the "0::$PATH" line) in the text of /proc/self/cgroup; nullopt
/// when there is none (a cgroup v1 system).
std::optional<std::string> parse_cgroup_v2_path(std::string_view proc_self_cgroup);

// ---- environment ----------------------------------------------------------------------------

/// The value of an environment variable; nullopt when it is not set.
std::optional<std::string> environment_variable(const char* name);

/// A non-negative decimal integer: digits only (no sign, no spaces, no newline), at least one,
/// within int64. nullopt for anything else.
std::optional<std::int64_t> parse_decimal(std::string_view text);

}  // namespace einops::detail
