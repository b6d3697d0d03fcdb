// The built-in executor; see execute.hpp.
#include "execute.hpp"

#include <string>
#include <utility>

#include "einops/detail/kernels.hpp"
#include "einops/detail/plan_kernels.hpp"
#include "call_context.hpp"
#include "kernels/buffer_cache.hpp"

namespace einops::detail {
namespace {

bool moves_only(const Plan& plan) { return plan.reduced_axes.empty() || !plan.reduction; }

/// Out of line: a Walk is kilobytes, and the contiguous path should not even zero one.
[[gnu::noinline]] void execute_strided(const Plan& plan, const TensorRef& x, const TensorRef& out) {
  const Walk walk = make_walk(plan, x.strides, out.strides);
  if (moves_only(plan))
    copy_strided(dtype_size(x.dtype), x.data, out.data, walk);
  else
    reduce_strided(x.dtype, *plan.reduction, x.data, out.data, walk);
}

}  // namespace

void check_result_size(const Plan& plan, std::size_t element_size, std::span<const std::int64_t> input_shape,
                       const AxisLengths& lengths) {
  const std::string problem = allocation_problem(plan.output_shape, element_size);
  if (problem.empty()) return;
  const std::string label(plan.reduction ? reduction_name(*plan.reduction) : operation_name(plan.operation));
  const CallContext context{.operation = label, .pattern = plan.pattern, .shape = input_shape, .lengths = &lengths};
  context.fail("The result is too large: " + problem);
}

DType result_dtype(const Plan& plan, DType input) {
  if (moves_only(plan)) return input;
  return reduction_result_dtype(*plan.reduction, input);
}

void execute(const Plan& plan, const TensorRef& x, const TensorRef& out) {
  if (!x.is_contiguous() || !out.is_contiguous()) return execute_strided(plan, x, out);
  if (moves_only(plan))
    copy_strided(dtype_size(x.dtype), x.data, out.data, plan.kernels->contiguous_walk,
                 plan.kernels->contiguous_schedules);
  else
    reduce_strided(x.dtype, *plan.reduction, x.data, out.data, plan.kernels->contiguous_walk);
}

AnyTensor execute_new(const Plan& plan, const TensorRef& x, const AxisLengths& lengths) {
  if (auto strides = view_strides(plan, x.strides))
    return AnyTensor(x.dtype, x.storage != nullptr ? *x.storage : nullptr, x.data, plan.output_shape,
                     std::move(*strides));
  const DType dtype = result_dtype(plan, x.dtype);
  check_result_size(plan, dtype_size(dtype), x.shape, lengths);  // before allocating
  // The kernels write every element: no zero fill, and large buffers come from the reuse cache.
  AnyTensor out = new_result(dtype, plan.output_shape);
  execute(plan, x, out);
  return out;
}

}  // namespace einops::detail
