// Running rearrange/reduce/repeat on an adapted input: the built-in kernels on borrowed memory
// for strided tensors, or the library's own ops driven by einops' recipe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

#include "einops/backend/results.hpp"
#include "einops/detail/adapter_call.hpp"
#include "einops/error.hpp"
#include "einops/ops.hpp"

namespace einops {

namespace detail {

/// A library's own ops, driven by einops' recipe.
template <class X>
X apply_ops(Operation operation, std::optional<std::string_view> reduction, const X& x, PatternRef pattern,
            const AxisLengths& lengths) {
  using Traits = tensor_traits<X>;
  const auto shape_range = Traits::shape(x);
  const Shape shape(std::ranges::begin(shape_range), std::ranges::end(shape_range));
  std::optional<DType> dtype;
  if constexpr (requires { requires Element<traits_value_t<X>>; }) dtype = dtype_v<traits_value_t<X>>;
  const OpsRecipe recipe = ops_recipe(operation, reduction, shape, dtype, pattern, lengths);
  X y = recipe.elementary_shape == shape ? x : X(Traits::reshape(x, recipe.elementary_shape));
  if (recipe.reduction) y = Traits::reduce(y, *recipe.reduction, recipe.reduced_axes);
  if (!recipe.permutation.empty()) y = Traits::permute(y, recipe.permutation);
  if (!recipe.broadcast_shape.empty()) {
    y = Traits::reshape(y, recipe.expanded_shape);
    y = Traits::broadcast(y, recipe.broadcast_shape);
  }
  if (recipe.output_shape != recipe.broadcast_shape || recipe.broadcast_shape.empty()) y = Traits::reshape(y, recipe.output_shape);
  return y;
}

/// A list for a library's own ops: each tensor gets a leading axis of 1, then one concatenation.
template <class X>
X stack_with_ops(const std::vector<X>& xs, std::string_view operation, std::string_view pattern) {
  using Traits = tensor_traits<X>;
  if (xs.empty())
    throw_call_error(operation, pattern, "", kEmptyListReason);
  std::vector<X> lifted;
  lifted.reserve(xs.size());
  for (const X& x : xs) {
    const auto shape_range = Traits::shape(x);
    Shape shape{1};
    shape.insert(shape.end(), std::ranges::begin(shape_range), std::ranges::end(shape_range));
    lifted.push_back(Traits::reshape(x, shape));
  }
  return Traits::concatenate(std::span<const X>(lifted), std::int64_t{0});
}

/// rearrange/reduce/repeat on an adapted input. The result has X's family when `Rank` is known
/// or X's rank is dynamic (element type U; void: X's), else it is built-in: an einops::Tensor,
/// or for reduce without an element type an AnyTensor holding numpy's result dtype.
template <Operation Op, std::size_t Rank, class U, class X>
auto run_adapted(std::optional<std::string_view> reduction, const X& x, PatternRef pattern,
                 const AxisLengths& lengths) {
  using Input = adapted_input<X>;
  using Tensor = typename Input::tensor;
  const std::string_view label = Op == Operation::reduce && reduction ? *reduction : operation_name(Op);
  if constexpr (!StridedTensor<Tensor>) {
    Tensor result = [&] {
      if constexpr (Input::is_list) {
        static_assert(requires(std::span<const Tensor> parts) { tensor_traits<Tensor>::concatenate(parts, std::int64_t{0}); },
                      "einops: a list input needs tensor_traits<X>::concatenate(std::span<const X>, axis)");
        return apply_ops(Op, reduction, stack_with_ops(x, label, pattern.text), pattern, lengths);
      } else {
        return apply_ops(Op, reduction, x, pattern, lengths);
      }
    }();
    if constexpr (Rank != dynamic_rank) {
      const auto shape = tensor_traits<Tensor>::shape(result);
      if (static_cast<std::size_t>(std::ranges::size(shape)) != Rank)
        fail_result_rank(label, pattern.text, Shape(std::ranges::begin(shape), std::ranges::end(shape)), Rank);
    }
    return result;
  } else {
    using Element = std::conditional_t<std::is_void_v<U>, traits_value_t<Tensor>, U>;
    constexpr bool in_family = result_in_family<Tensor, Element, Rank>;
    constexpr bool any_result = !in_family && Op == Operation::reduce && std::is_void_v<U> && Rank == dynamic_rank;
    const std::string_view ask = Rank != dynamic_rank ? kAskForRank : kAskForElement;
    if constexpr (Input::is_list) {
      std::vector<AnyTensor> views;
      views.reserve(x.size());
      for (const Tensor& item : x) views.push_back(view(item));
      const std::span<const AnyTensor> list(views);
      AnyTensor y;
      if constexpr (Op == Operation::rearrange) y = rearrange(list, pattern, lengths);
      else if constexpr (Op == Operation::repeat) y = repeat(list, pattern, lengths);
      else y = reduce(list, pattern, *reduction, lengths);
      if constexpr (any_result) return y;
      else return result_from<Tensor, Element, Rank>(y, label, pattern.text);
    } else {
      const BorrowedTensor in = borrow(x);
      const PlannedCall call(Op, reduction, in.ref(), pattern, lengths);
      if constexpr (any_result) {
        return call.result();  // as for the built-in tensor: a view of x when no element moves
      } else {
        call.expect_result(Rank, dtype_v<Element>, ask);
        if constexpr (!in_family) {
          return call.result().template as<Element>();
        } else {
          auto result = make_result<Tensor, Element, Rank>(call.output_shape());
          call.write_into(borrow_writable(result).ref());
          return result;
        }
      }
    }
  }
}

template <class X>
concept strided_single = StridedTensor<X> || (TensorInput<X> && !list_input<X>);

}  // namespace detail

}  // namespace einops
