// reduce with a user callable: the executor (src/execute.cpp) walks the output and gathers each
// reduced group; the template here only types the groups and calls the callable, so a user's
// translation unit compiles no walk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <type_traits>

#include "einops/detail/tensor_ref.hpp"
#include "einops/dtype.hpp"
#include "einops/export.hpp"
#include "einops/pattern_arg.hpp"
#include "einops/plan.hpp"
#include "einops/tensor.hpp"

namespace einops::detail {

/// Throws EinopsError naming the call when the result of `plan` (elements of `element_size`
/// bytes) would exceed the allocation limit (limits.hpp); called before allocating it.
EINOPS_API void check_result_size(const Plan& plan, std::size_t element_size, std::span<const std::int64_t> input_shape,
                                  const AxisLengths& lengths);

/// Reduces one group: its `count` elements at `group` into the result's element at `out_offset`.
using GroupReducer = void (*)(void* reduction, const void* group, std::size_t count, std::int64_t out_offset);

/// For each output element of `plan` (a reduce plan) on `x`: gathers its group (the elements in
/// the input's order of the plan's reduced axes, not merged: merging may reorder them by stride)
/// and calls `reduce_group(reduction, ...)` with the element's offset in a result of `out_strides`.
EINOPS_API void reduce_groups(const Plan& plan, const TensorRef& x, std::span<const std::int64_t> out_strides,
                              GroupReducer reduce_group, void* reduction);

/// Applies `f(std::span<const T>)` to each reduced group of `x`, one output element per group.
template <Element T, class F>
auto reduce_with(const TensorView<T>& x, PatternRef pattern, F& f, const AxisLengths& lengths) {
  using Value = std::remove_const_t<T>;
  using Result = std::remove_cvref_t<std::invoke_result_t<F&, std::span<const Value>>>;
  static_assert(Element<Result>, "a reduction callable must return an element type of einops::Tensor");
  const auto plan = get_plan(Operation::reduce, std::nullopt, pattern, x.shape(), lengths);
  check_result_size(*plan, sizeof(Result), x.shape(), lengths);
  Tensor<Result> out(plan->output_shape);
  struct Reduction {
    F& f;
    Result* out;
  } reduction{f, out.data()};
  const GroupReducer reduce_group = [](void* context, const void* group, std::size_t count, std::int64_t out_offset) {
    Reduction& r = *static_cast<Reduction*>(context);
    r.out[out_offset] = r.f(std::span<const Value>(static_cast<const Value*>(group), count));
  };
  reduce_groups(*plan, x, out.strides(), reduce_group, &reduction);
  return out;
}

}  // namespace einops::detail
