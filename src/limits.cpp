// The allocation limit and the checked size arithmetic every allocation and every view goes
// through (limits.hpp, tensor.hpp).
#include "einops/limits.hpp"

#include <atomic>
#include <cstdint>
#include <limits>
#include <string>

#include "einops/detail/platform.hpp"
#include "einops/error.hpp"
#include "einops/tensor.hpp"
#include "platform.hpp"

namespace einops {
namespace {

/// Where the system does not say how much memory it has: the x86-64 user address space.
constexpr std::size_t kUnknownMemoryBytes = std::size_t{1} << 47;

/// The machine's physical memory: an allocation larger than that cannot succeed without
/// swapping the process to a halt (or being killed once its pages are touched).
std::size_t default_limit() {
  static const std::size_t bytes = detail::physical_memory_bytes().value_or(kUnknownMemoryBytes);
  return bytes;
}

std::atomic<std::size_t> configured_limit{0};  // 0: the default

}  // namespace

void set_max_allocation_bytes(std::size_t bytes) { configured_limit.store(bytes, std::memory_order_relaxed); }

std::size_t max_allocation_bytes() {
  const std::size_t bytes = configured_limit.load(std::memory_order_relaxed);
  // Byte offsets are ptrdiff_t in the kernels: no tensor may be larger than that, whatever is set.
  const std::size_t limit = bytes != 0 ? bytes : default_limit();
  return std::min<std::size_t>(limit, static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()));
}

namespace detail {

std::string allocation_problem(std::span<const std::int64_t> shape, std::size_t element_size) {
  std::int64_t count = 0;
  try {
    count = checked_element_count(shape);
  } catch (const EinopsError& error) {
    return error.what();
  }
  std::size_t bytes = 0;
  if (checked_mul(static_cast<std::size_t>(count), element_size, bytes) || bytes > max_allocation_bytes())
    return "A tensor of shape " + format_shape(shape) + " (" + std::to_string(count) + " elements of " +
           std::to_string(element_size) + " bytes) is larger than the allocation limit of " +
           std::to_string(max_allocation_bytes()) + " bytes (einops::set_max_allocation_bytes)";
  return {};
}

std::int64_t checked_allocation_count(std::span<const std::int64_t> shape, std::size_t element_size) {
  if (std::string problem = allocation_problem(shape, element_size); !problem.empty()) throw EinopsError(problem);
  return checked_element_count(shape);
}

void check_view_extent(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                       std::size_t element_size) {
  checked_element_count(shape);
  for (std::int64_t length : shape)
    if (length == 0) return;  // no element: the strides are never used
  // Offsets of the first and the last element reachable, relative to element 0.
  std::int64_t lowest = 0;
  std::int64_t highest = 0;
  bool ok = true;
  for (std::size_t d = 0; d < shape.size() && ok; ++d) {
    std::int64_t reach = 0;
    ok = !checked_mul(shape[d] - 1, strides[d], reach) &&
         !checked_add(reach < 0 ? lowest : highest, reach, reach < 0 ? lowest : highest);
  }
  std::int64_t span = 0;
  std::int64_t bytes = 0;
  ok = ok && !checked_sub(highest, lowest, span) && !checked_mul(span, static_cast<std::int64_t>(element_size), bytes);
  if (!ok)
    throw EinopsError("A tensor view of shape " + format_shape(shape) + " with strides " + format_shape(strides) +
                      " reaches elements further apart than a byte offset can express");
}

}  // namespace detail
}  // namespace einops
