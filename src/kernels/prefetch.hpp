// Software prefetch into L2, shared by the copy and reduce kernels.
#pragma once

#include <cstdint>

namespace einops::detail {

/// Prefetches the line holding `address` into L2 but not L1 (x86 `prefetcht1`). The address is
/// an integer because it may lie past the end of the data (a prefetch never faults), where a
/// pointer may not point. Other compilers than GCC and Clang get no prefetch.
/// Always inlined: as a plain `inline` function GCC 12 inlined it into the reduce kernels (which
/// Highway compiles for other instruction sets) and dropped the prefetch: reduce_simd.cpp held no
/// prefetcht1 at all. The test `kernels_keep_l2_prefetches` looks for them in the built library.
[[gnu::always_inline]] inline void prefetch_to_l2(std::uintptr_t address) {
#if defined(__GNUC__) || defined(__clang__)
  __builtin_prefetch(reinterpret_cast<const void*>(address), 0, 2);
#else
  (void)address;
#endif
}

[[gnu::always_inline]] inline void prefetch_to_l2(const void* p) { prefetch_to_l2(reinterpret_cast<std::uintptr_t>(p)); }

}  // namespace einops::detail
