// rearrange, reduce and repeat on the built-in tensor, with einops' semantics.
//
// The work happens in non-template code (src/ops.cpp) on AnyTensor; the typed overloads here are
// thin forwarders, so user translation units stay quick to compile.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <functional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "einops/detail/odometer.hpp"
#include "einops/dtype.hpp"
#include "einops/plan.hpp"
#include "einops/tensor.hpp"

namespace einops {

// ---- run-time typed core (AnyTensor) -----------------------------------------------------------

/// einops.rearrange. The result shares the input's memory whenever no element has to move.
AnyTensor rearrange(const AnyTensor& x, std::string_view pattern, const AxisLengths& lengths = {});
/// einops.rearrange of a list of equally shaped tensors, stacked on a new leading axis.
AnyTensor rearrange(std::span<const AnyTensor> xs, std::string_view pattern, const AxisLengths& lengths = {});

/// einops.repeat (always a new tensor unless nothing is added, as for rearrange).
AnyTensor repeat(const AnyTensor& x, std::string_view pattern, const AxisLengths& lengths = {});
AnyTensor repeat(std::span<const AnyTensor> xs, std::string_view pattern, const AxisLengths& lengths = {});

/// einops.reduce with a named reduction: "min", "max", "sum", "mean", "prod", "any", "all"
/// ("rearrange" and "repeat" are accepted, as einops does). Result dtype follows numpy: any/all
/// give bool, sum/prod of integers give int64 (uint64 for unsigned), min/max/mean keep the dtype;
/// when no axis is reduced the dtype is unchanged.
AnyTensor reduce(const AnyTensor& x, std::string_view pattern, std::string_view reduction,
                 const AxisLengths& lengths = {});
AnyTensor reduce(const AnyTensor& x, std::string_view pattern, Reduction reduction, const AxisLengths& lengths = {});
AnyTensor reduce(std::span<const AnyTensor> xs, std::string_view pattern, std::string_view reduction,
                 const AxisLengths& lengths = {});

/// The same operations writing into a caller-provided tensor (no allocation). `out` must have
/// the result's shape and dtype, may have any strides, and must not overlap `x`.
void rearrange_into(const AnyTensor& x, const AnyTensor& out, std::string_view pattern, const AxisLengths& lengths = {});
void repeat_into(const AnyTensor& x, const AnyTensor& out, std::string_view pattern, const AxisLengths& lengths = {});
void reduce_into(const AnyTensor& x, const AnyTensor& out, std::string_view pattern, std::string_view reduction,
                 const AxisLengths& lengths = {});

// ---- typed overloads ---------------------------------------------------------------------------

template <Element T>
Tensor<T> rearrange(const Tensor<T>& x, std::string_view pattern, const AxisLengths& lengths = {}) {
  return rearrange(AnyTensor(x), pattern, lengths).template as<T>();
}
/// A result that needs no data movement aliases the view's memory (like the view itself).
template <Element T>
Tensor<std::remove_const_t<T>> rearrange(const TensorView<T>& x, std::string_view pattern,
                                         const AxisLengths& lengths = {}) {
  return rearrange(AnyTensor(x), pattern, lengths).template as<std::remove_const_t<T>>();
}
template <Element T>
Tensor<T> rearrange(const std::vector<Tensor<T>>& xs, std::string_view pattern, const AxisLengths& lengths = {}) {
  const std::vector<AnyTensor> any(xs.begin(), xs.end());
  return rearrange(std::span<const AnyTensor>(any), pattern, lengths).template as<T>();
}

template <Element T>
Tensor<T> repeat(const Tensor<T>& x, std::string_view pattern, const AxisLengths& lengths = {}) {
  return repeat(AnyTensor(x), pattern, lengths).template as<T>();
}
template <Element T>
Tensor<std::remove_const_t<T>> repeat(const TensorView<T>& x, std::string_view pattern, const AxisLengths& lengths = {}) {
  return repeat(AnyTensor(x), pattern, lengths).template as<std::remove_const_t<T>>();
}
template <Element T>
Tensor<T> repeat(const std::vector<Tensor<T>>& xs, std::string_view pattern, const AxisLengths& lengths = {}) {
  const std::vector<AnyTensor> any(xs.begin(), xs.end());
  return repeat(std::span<const AnyTensor>(any), pattern, lengths).template as<T>();
}

/// Named reductions return an AnyTensor because numpy's result dtype depends on the reduction
/// (any -> bool, sum of int8 -> int64, ...). `.as<T>()` (or assignment to a Tensor<T>) types it.
template <Element T>
AnyTensor reduce(const Tensor<T>& x, std::string_view pattern, std::string_view reduction,
                 const AxisLengths& lengths = {}) {
  return reduce(AnyTensor(x), pattern, reduction, lengths);
}
template <Element T>
AnyTensor reduce(const TensorView<T>& x, std::string_view pattern, std::string_view reduction,
                 const AxisLengths& lengths = {}) {
  return reduce(AnyTensor(x), pattern, reduction, lengths);
}
template <Element T>
AnyTensor reduce(const std::vector<Tensor<T>>& xs, std::string_view pattern, std::string_view reduction,
                 const AxisLengths& lengths = {}) {
  const std::vector<AnyTensor> any(xs.begin(), xs.end());
  return reduce(std::span<const AnyTensor>(any), pattern, reduction, lengths);
}

/// A user reduction: `f(std::span<const T>)` receives the elements of one reduced group (in the
/// input's order of the reduced axes) and returns one output element. When no axis is reduced,
/// each group holds a single element.
template <Element T, class F>
  requires std::invocable<F&, std::span<const std::remove_const_t<T>>>
auto reduce(const TensorView<T>& x, std::string_view pattern, F&& f, const AxisLengths& lengths = {}) {
  using Value = std::remove_const_t<T>;
  using Result = std::remove_cvref_t<std::invoke_result_t<F&, std::span<const Value>>>;
  static_assert(Element<Result>, "a reduction callable must return an element type of einops::Tensor");
  const auto plan = get_plan(Operation::reduce, std::nullopt, pattern, x.shape(), lengths);
  Tensor<Result> out(plan->output_shape);
  const Shape out_strides(out.strides().begin(), out.strides().end());
  const detail::Walk walk = detail::make_walk(*plan, x.strides(), out_strides);
  if (walk.output_count() == 0) return out;
  // The merged walk orders reduced dimensions by stride (memory order); a callable may care about
  // order, so each group is gathered over the reduced axes in input order, unmerged.
  std::array<std::int64_t, detail::kMaxRank> axis_stride{};
  std::int64_t axis_step = 0;
  int current_dim = -1;
  for (std::size_t i = plan->input_axis_dim.size(); i-- > 0;) {  // innermost axis of each dimension first
    if (plan->input_axis_dim[i] != current_dim) {
      current_dim = plan->input_axis_dim[i];
      axis_step = x.strides()[static_cast<std::size_t>(current_dim)];
    }
    axis_stride[i] = axis_step;
    axis_step *= plan->input_axis_lengths[i];
  }
  detail::Walk in_order;
  for (int index : plan->reduced_axes)
    in_order.push_reduced(plan->input_axis_lengths[static_cast<std::size_t>(index)],
                          axis_stride[static_cast<std::size_t>(index)]);
  std::vector<Value> group(static_cast<std::size_t>(walk.reduced_count()));
  const auto reduce_at = [&](const Value* base, Result* target) {
    std::size_t filled = 0;
    if (!group.empty()) {
      const int inner = in_order.reduced_rank - 1;
      detail::for_each_run(in_order.reduced_rank, in_order.reduced_extent, in_order.reduced_stride,
                           in_order.reduced_stride, [&](std::int64_t offset, std::int64_t) {
                             const std::int64_t length = inner >= 0 ? in_order.reduced_extent[inner] : 1;
                             const std::int64_t step = inner >= 0 ? in_order.reduced_stride[inner] : 0;
                             for (std::int64_t i = 0; i < length; ++i) group[filled++] = base[offset + i * step];
                           });
    }
    *target = f(std::span<const Value>(group.data(), filled));
  };
  const int last = walk.rank - 1;
  detail::for_each_run(walk.rank, walk.extent, walk.in_stride, walk.out_stride,
                       [&](std::int64_t in_offset, std::int64_t out_offset) {
                         const std::int64_t length = last >= 0 ? walk.extent[last] : 1;
                         for (std::int64_t i = 0; i < length; ++i)
                           reduce_at(x.data() + in_offset + (last >= 0 ? i * walk.in_stride[last] : 0),
                                     out.data() + out_offset + (last >= 0 ? i * walk.out_stride[last] : 0));
                       });
  return out;
}
template <Element T, class F>
  requires std::invocable<F&, std::span<const T>>
auto reduce(const Tensor<T>& x, std::string_view pattern, F&& f, const AxisLengths& lengths = {}) {
  return reduce(x.view(), pattern, std::forward<F>(f), lengths);
}

}  // namespace einops
