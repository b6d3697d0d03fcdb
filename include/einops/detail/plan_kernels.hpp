// What the kernels keep with a plan: its walk for row-major tensors and that walk's copy
// schedules. Included by the executor and by tests, not by plan.hpp, so that a user's compile
// does not see the kernels' interface.
#pragma once

#include "einops/detail/kernels.hpp"
#include "einops/detail/walk.hpp"

namespace einops::detail {

struct PlanKernels {
  /// The merged walk for a row-major contiguous input written to a row-major output.
  Walk contiguous_walk;
  /// Its copy schedules, made on first use per element size.
  CopySchedules contiguous_schedules;
};

}  // namespace einops::detail
