// rearrange_view: the plan's view strides (plan_walk.cpp), or an error naming the axes that would
// need a copy.
#include "einops/rearrange_view.hpp"

#include <optional>
#include <span>
#include <string>
#include <utility>

#include "einops/detail/plan_walk.hpp"
#include "call_context.hpp"

namespace einops::detail {
namespace {

/// An output axis as the user wrote it: ellipsis dimensions are named by their position.
std::string axis_label(const std::string& name) {
  if (name.starts_with("...")) return "the ellipsis' dimension " + name.substr(3);
  return "'" + name + "'";
}

[[noreturn]] void fail_merge(const Plan& plan, std::span<const std::int64_t> shape,
                             std::span<const std::int64_t> strides, const AxisLengths& lengths,
                             const ViewConflict& conflict) {
  std::string reason = "rearrange_view cannot return a view: the input's strides " + format_shape(strides);
  const auto outer = static_cast<std::size_t>(conflict.outer);
  const auto inner = static_cast<std::size_t>(conflict.inner);
  const std::string dim = conflict.outer >= 0 ? std::to_string(plan.output_axis_dim[outer]) : std::string();
  if (conflict.outer < 0 || conflict.inner < 0) reason += " cannot express the result";
  else if (outer == inner) reason += " make output dimension " + dim + " span more elements than int64 can count";
  else
    reason += " do not let axes " + axis_label(plan.output_axis_names[outer]) + " and " +
              axis_label(plan.output_axis_names[inner]) + " be merged into output dimension " + dim +
              " (the outer axis must step over the whole inner one)";
  reason += ". Only a copy can give this result: use rearrange.";
  const CallContext context{.operation = "rearrange", .pattern = plan.pattern, .shape = shape, .lengths = &lengths};
  context.fail(reason);
}

}  // namespace

ViewLayout rearrange_view_layout(std::span<const std::int64_t> shape, std::span<const std::int64_t> strides,
                                 const PatternRef& pattern, const AxisLengths& lengths) {
  const Plan& plan = borrow_plan(Operation::rearrange, std::nullopt, pattern, shape, lengths);
  ViewConflict conflict;
  std::optional<Shape> view = view_strides(plan, strides, &conflict);
  if (!view) fail_merge(plan, shape, strides, lengths, conflict);
  return {plan.output_shape, std::move(*view)};
}

AnyTensor rearrange_view(const TensorRef& x, const PatternRef& pattern, const AxisLengths& lengths) {
  ViewLayout layout = rearrange_view_layout(x.shape, x.strides, pattern, lengths);
  return AnyTensor(x.dtype, x.storage != nullptr ? *x.storage : nullptr, x.data, std::move(layout.shape),
                   std::move(layout.strides));
}

}  // namespace einops::detail
