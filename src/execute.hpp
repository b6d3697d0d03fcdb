// The built-in executor: a plan run on borrowed memory. The operations (ops.cpp) and the adapter
// calls (adapter_call.cpp) both end here, so a call reads parse -> plan -> execute -> kernel.
// It also defines check_result_size and reduce_groups (einops/detail/reduce_with.hpp).
#pragma once

#include "einops/detail/reduce_with.hpp"
#include "einops/detail/tensor_ref.hpp"
#include "einops/dtype.hpp"
#include "einops/plan.hpp"
#include "einops/tensor.hpp"

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
