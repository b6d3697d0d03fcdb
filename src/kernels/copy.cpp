// copy_strided: permuted copy, broadcast copy and plain copy behind one entry point. The walk is
// recast as tiles once per call (copy_schedule.cpp) and run by the SIMD kernels (copy_simd.cpp).
#include "einops/detail/kernels.hpp"

#include "copy_schedule.hpp"

namespace einops::detail {

void copy_strided(std::size_t element_size, const void* in, void* out, const Walk& walk) {
  execute_copy(make_copy_schedule(walk, element_size), in, out);
}

}  // namespace einops::detail
