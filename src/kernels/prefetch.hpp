// Software prefetch into L2, shared by the copy and reduce kernels.
#pragma once

#include <cstdint>

#include "einops/detail/platform.hpp"

namespace einops::detail {

/// Prefetches the line holding `address` into L2 but not L1 (x86 `prefetcht1`; prefetch_for_read
/// in einops/detail/platform.hpp). The address is an integer because it may lie past the end of
/// the data (a prefetch never faults), where a pointer may not point.
/// Always inlined: as a plain `inline` function GCC 12 inlined it into the reduce kernels (which
/// Highway compiles for other instruction sets) and dropped the prefetch: reduce_simd.cpp held no
/// prefetcht1 at all. The test `kernels_keep_l2_prefetches` looks for them in the built library.
[[gnu::always_inline]] inline void prefetch_to_l2(std::uintptr_t address) {
  prefetch_for_read(reinterpret_cast<const void*>(address));
}

[[gnu::always_inline]] inline void prefetch_to_l2(const void* p) { prefetch_for_read(p); }

}  // namespace einops::detail
