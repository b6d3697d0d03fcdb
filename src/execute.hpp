// The built-in executor: a plan run on borrowed memory. The operations (ops.cpp) and the adapter
// calls (adapter_call.cpp) both end here, so a call reads parse -> plan -> execute -> kernel.
#pragma once

#include "einops/detail/adapter_call.hpp"
#include "einops/ops.hpp"
#include "einops/plan.hpp"

namespace einops::detail {

/// numpy's dtype of the result of `plan` on an input of `input` dtype.
DType result_dtype(const Plan& plan, DType input);

/// Writes the result of `plan` on `x` into `out` (its shape and dtype already checked, no overlap
/// with x). Row-major tensors on both sides run the plan's own walk and cached copy schedules;
/// other strides get a walk of their own.
void execute(const Plan& plan, const TensorRef& x, const TensorRef& out);

/// The result of `plan` on `x` as a built-in tensor: a view of x's memory when no element moves,
/// else a new tensor (its size checked first).
AnyTensor execute_new(const Plan& plan, const TensorRef& x, const AxisLengths& lengths);

}  // namespace einops::detail
