// Running rearrange/reduce/repeat on an adapted input: the built-in kernels on borrowed memory
// for strided tensors, or the library's own ops driven by einops' recipe.
#pragma once

#include <cstddef>
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
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

/// A library's own ops, driven by einops' recipe. The input is not copied into a new handle
/// (a reference-counted tensor keeps its count): each step reads the previous result, or `x`
/// itself when nothing needs doing.
template <class X>
X apply_ops(Operation operation, std::optional<std::string_view> reduction, const X& x, PatternRef pattern,
            const AxisLengths& lengths) {
  using Traits = tensor_traits<X>;
  const OpsShape shape(x);
  const OpsRecipeUse recipe(operation, reduction, shape.lengths(), ops_dtype(x), pattern, lengths);
  std::optional<X> y;
  const auto step = [&](auto&& next) { y.emplace(std::forward<decltype(next)>(next)); };
  const auto current = [&]() -> const X& { return y ? *y : x; };
  if (recipe->reshape_in) step(Traits::reshape(current(), recipe->elementary_shape));
  if (recipe->reduction) step(Traits::reduce(current(), *recipe->reduction, recipe->reduced_axes));
  if (!recipe->permutation.empty()) step(Traits::permute(current(), recipe->permutation));
  if (!recipe->broadcast_shape.empty()) {
    step(Traits::reshape(current(), recipe->expanded_shape));
    step(Traits::broadcast(current(), recipe->broadcast_shape));
  }
  if (recipe->reshape_out) step(Traits::reshape(current(), recipe->output_shape));
  return y ? std::move(*y) : x;
}

/// A list for a library's own ops: each tensor gets a leading axis of 1, then one concatenation.
template <class X>
X stack_with_ops(const std::vector<X>& xs, std::string_view operation, std::string_view pattern) {
  using Traits = tensor_traits<X>;
  if (xs.empty()) throw_call_error(operation, pattern, "", kEmptyListReason);
  const OpsShape first(xs.front());
  const std::optional<DType> first_dtype = ops_dtype(xs.front());
  std::vector<X> lifted;
  lifted.reserve(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const OpsShape shape(xs[i]);
    const std::optional<DType> dtype = ops_dtype(xs[i]);
    if (!std::ranges::equal(shape.lengths(), first.lengths()) || dtype != first_dtype)
      throw_call_error(operation, pattern, "",
                       list_mismatch_reason(first.lengths(), first_dtype ? dtype_name(*first_dtype) : "", i,
                                            shape.lengths(), dtype ? dtype_name(*dtype) : ""));
    Shape lifted_shape{1};
    lifted_shape.insert(lifted_shape.end(), shape.lengths().begin(), shape.lengths().end());
    lifted.push_back(Traits::reshape(xs[i], lifted_shape));
  }
  return Traits::concatenate(std::span<const X>(lifted), std::int64_t{0});
}

/// rearrange/reduce/repeat of a list of strided tensors, each read in place as a built-in view:
/// the core stacks them on a new leading axis.
template <Operation Op, class Tensor>
AnyTensor run_strided_list(const std::vector<Tensor>& xs, std::optional<std::string_view> reduction, PatternRef pattern,
                           const AxisLengths& lengths) {
  std::vector<AnyTensor> views;
  views.reserve(xs.size());
  for (const Tensor& item : xs) views.push_back(view(item));
  const std::span<const AnyTensor> list(views);
  if constexpr (Op == Operation::rearrange) return rearrange(list, pattern, lengths);
  else if constexpr (Op == Operation::repeat) return repeat(list, pattern, lengths);
  else return reduce(list, pattern, *reduction, lengths);
}

/// rearrange/reduce/repeat on a strided input whose element type is known at run time: the
/// result holds the call's dtype (numpy's; U, when named, must be it), in X's family when X
/// makes results (`make(DType, shape)`), else as an AnyTensor.
template <Operation Op, std::size_t Rank, class U, class X>
auto run_runtime_typed(std::optional<std::string_view> reduction, const X& x, PatternRef pattern,
                       const AxisLengths& lengths, std::string_view label) {
  using Input = adapted_input<X>;
  using Tensor = typename Input::tensor;
  std::optional<DType> requested;
  if constexpr (!std::is_void_v<U>) requested = dtype_v<U>;
  if constexpr (Input::is_list) {
    const AnyTensor y = run_strided_list<Op>(x, reduction, pattern, lengths);
    return runtime_result_from<Tensor, Rank>(y, requested, label, pattern.text);
  } else {
    const TensorRefWithExtents in = borrow(x);
    const PlannedCall call(Op, reduction, in, pattern, lengths);
    call.expect_result(Rank, requested.value_or(call.output_dtype()),
                       Rank != dynamic_rank ? kAskForRank : kAskForElement);
    if constexpr (!makes_runtime_results<Tensor>) {
      return call.result();
    } else {
      auto result = make_runtime_result<Tensor>(call.output_dtype(), call.output_shape(), label, pattern.text);
      call.write_into(result_memory(result, call.output_shape()));
      return result;
    }
  }
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
    const auto inputs = [&] {
      if constexpr (Input::is_list) return std::string();
      else return input_shape_line(OpsShape(x).lengths());
    };
    Tensor result = with_library_errors<Tensor>(label, pattern.text, inputs, [&] {
      if constexpr (Input::is_list) {
        static_assert(
            requires(std::span<const Tensor> parts) { tensor_traits<Tensor>::concatenate(parts, std::int64_t{0}); },
            "einops: a list input needs tensor_traits<X>::concatenate(std::span<const X>, axis)");
        return apply_ops(Op, reduction, stack_with_ops(x, label, pattern.text), pattern, lengths);
      } else {
        return apply_ops(Op, reduction, x, pattern, lengths);
      }
    });
    if constexpr (Rank != dynamic_rank) {
      const auto shape = tensor_traits<Tensor>::shape(result);
      if (static_cast<std::size_t>(std::ranges::size(shape)) != Rank)
        fail_result_rank(label, pattern.text, Shape(std::ranges::begin(shape), std::ranges::end(shape)), Rank);
    }
    return result;
  } else if constexpr (runtime_typed_memory<Tensor>) {
    return run_runtime_typed<Op, Rank, U>(reduction, x, pattern, lengths, label);
  } else {
    using Element = std::conditional_t<std::is_void_v<U>, traits_value_t<Tensor>, U>;
    constexpr bool in_family = result_in_family<Tensor, Element, Rank>;
    constexpr bool any_result = !in_family && Op == Operation::reduce && std::is_void_v<U> && Rank == dynamic_rank;
    const std::string_view ask = Rank != dynamic_rank ? kAskForRank : kAskForElement;
    if constexpr (Input::is_list) {
      AnyTensor y = run_strided_list<Op>(x, reduction, pattern, lengths);
      if constexpr (any_result) return y;
      else return result_from<Tensor, Element, Rank>(y, label, pattern.text);
    } else {
      const TensorRefWithExtents in = borrow(x);
      const PlannedCall call(Op, reduction, in, pattern, lengths);
      if constexpr (any_result) {
        return call.result();  // as for the built-in tensor: a view of x when no element moves
      } else {
        call.expect_result(Rank, dtype_v<Element>, ask);
        if constexpr (!in_family) {
          return call.result().template as<Element>();
        } else {
          auto result = make_result<Tensor, Element, Rank>(call.output_shape());
          call.write_into(borrow_writable(result));
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
