// Software prefetch into L2, shared by the copy and reduce kernels.
#pragma once

#include <cstdint>

namespace einops::detail {

/// Prefetches the line holding `address` into L2 but not L1 (x86 `prefetcht1`). The address is
/// an integer because it may lie past the end of the data (a prefetch never faults), where a
/// pointer may not point. Other compilers than GCC and Clang get no prefetch.
inline void prefetch_to_l2(std::uintptr_t address) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(reinterpret_cast<const void*>(address), 0, 2);
#else
  (void)address;
#endif
}

inline void prefetch_to_l2(const void* p) { prefetch_to_l2(reinterpret_cast<std::uintptr_t>(p)); }

}  // namespace einops::detail
