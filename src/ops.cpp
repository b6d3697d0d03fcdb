// rearrange, reduce and repeat on AnyTensor: plan (cached), then the executor (execute.cpp): a
// view, a copy or a reduction.
#include "einops/ops.hpp"

#include "einops/convert.hpp"

#include <string>

#include "einops/detail/kernels.hpp"
#include "kernels/buffer_cache.hpp"
#include "cache_keys.hpp"
#include "call_context.hpp"
#include "execute.hpp"
#include "shape_reasons.hpp"

namespace einops {
namespace {

/// Stacks equally shaped tensors on a new leading axis (einops' list input).
AnyTensor stack(std::span<const AnyTensor> xs, std::string_view operation, std::string_view pattern,
                const AxisLengths& lengths) {
  if (xs.empty()) detail::throw_call_error(operation, pattern, "", detail::kEmptyListReason);
  const AnyTensor& first = xs.front();
  for (const AnyTensor& x : xs)
    if (x.dtype() != first.dtype() ||
        !std::equal(x.shape().begin(), x.shape().end(), first.shape().begin(), first.shape().end())) {
      const detail::CallContext context{
          .operation = operation, .pattern = pattern, .shape = first.shape(), .lengths = &lengths, .list_input = true};
      context.fail(detail::list_mismatch_reason(first.shape(), dtype_name(first.dtype()),
                                                static_cast<std::size_t>(&x - xs.data()), x.shape(),
                                                dtype_name(x.dtype())));
    }
  Shape shape{static_cast<std::int64_t>(xs.size())};
  shape.insert(shape.end(), first.shape().begin(), first.shape().end());
  if (shape.size() > static_cast<std::size_t>(detail::kMaxRank) ||
      !detail::allocation_problem(shape, dtype_size(first.dtype())).empty()) {
    const detail::CallContext context{
        .operation = operation, .pattern = pattern, .shape = first.shape(), .lengths = &lengths, .list_input = true};
    if (shape.size() > static_cast<std::size_t>(detail::kMaxRank))
      context.fail(detail::rank_limit_reason("The stacked list would have", shape.size()));
    context.fail(detail::allocation_problem(shape, dtype_size(first.dtype())));
  }
  AnyTensor stacked(first.dtype(), shape);
  const std::int64_t slice = first.size();
  const std::size_t element = dtype_size(first.dtype());
  const Shape slice_strides = detail::row_major_strides(first.shape());
  for (std::size_t i = 0; i < xs.size(); ++i)
    detail::copy_layout(element, first.shape(), xs[i].data(), xs[i].strides(),
                        static_cast<char*>(stacked.data()) + static_cast<std::size_t>(slice) * element * i,
                        slice_strides);
  return stacked;
}

using detail::TensorRef;

/// The result of `plan` on `x`: a view when nothing moves, else a new tensor.
AnyTensor apply(const Plan& plan, const TensorRef& x, const AxisLengths& lengths) {
  detail::check_reduction_dtype(plan, x.dtype, x.shape, lengths);
  return detail::execute_new(plan, x, lengths);
}

void apply_into(const Plan& plan, const TensorRef& x, const TensorRef& out, const AxisLengths& lengths,
                std::string_view label) {
  detail::check_reduction_dtype(plan, x.dtype, x.shape, lengths);
  const DType expected = detail::result_dtype(plan, x.dtype);
  const auto out_shape = out.shape;
  if (out.dtype != expected || !detail::same_shape(out_shape, plan.output_shape)) {
    const detail::CallContext context{
        .operation = label, .pattern = plan.pattern, .shape = x.shape, .lengths = &lengths};
    context.fail("Output tensor is " + detail::format_shape(out_shape) + " " + std::string(dtype_name(out.dtype)) +
                 ", the result is " + detail::format_shape(plan.output_shape) + " " +
                 std::string(dtype_name(expected)));
  }
  detail::execute(plan, x, out);
}

}  // namespace

namespace detail {

AnyTensor rearrange(const TensorRef& x, const PatternRef& pattern, const AxisLengths& lengths) {
  return apply(borrow_plan(Operation::rearrange, std::nullopt, pattern, x.shape, lengths), x, lengths);
}
AnyTensor rearrange(std::span<const AnyTensor> xs, const PatternRef& pattern, const AxisLengths& lengths) {
  return rearrange(stack(xs, "rearrange", pattern.text, lengths), pattern, lengths);
}

AnyTensor repeat(const TensorRef& x, const PatternRef& pattern, const AxisLengths& lengths) {
  return apply(borrow_plan(Operation::repeat, std::nullopt, pattern, x.shape, lengths), x, lengths);
}
AnyTensor repeat(std::span<const AnyTensor> xs, const PatternRef& pattern, const AxisLengths& lengths) {
  return repeat(stack(xs, "repeat", pattern.text, lengths), pattern, lengths);
}

AnyTensor reduce(const TensorRef& x, const PatternRef& pattern, std::string_view reduction,
                 const AxisLengths& lengths) {
  return apply(borrow_plan(Operation::reduce, reduction, pattern, x.shape, lengths), x, lengths);
}
AnyTensor reduce(std::span<const AnyTensor> xs, const PatternRef& pattern, std::string_view reduction,
                 const AxisLengths& lengths) {
  return reduce(stack(xs, reduction, pattern.text, lengths), pattern, reduction, lengths);
}

AnyTensor contiguous(const TensorRef& x) {
  Shape shape(x.shape.begin(), x.shape.end());
  if (x.is_contiguous())
    return AnyTensor(x.dtype, x.storage != nullptr ? *x.storage : nullptr, x.data, std::move(shape),
                     Shape(x.strides.begin(), x.strides.end()));
  AnyTensor out = new_result(x.dtype, shape);
  copy_layout(dtype_size(x.dtype), shape, x.data, x.strides, out.data(), out.strides());
  return out;
}

void rearrange_into(const TensorRef& x, const TensorRef& out, const PatternRef& pattern, const AxisLengths& lengths) {
  if (out.dtype != x.dtype) return rearrange_into(x, out, pattern, ConvertRef{}, lengths);  // convert.hpp
  apply_into(borrow_plan(Operation::rearrange, std::nullopt, pattern, x.shape, lengths), x, out, lengths, "rearrange");
}
void repeat_into(const TensorRef& x, const TensorRef& out, const PatternRef& pattern, const AxisLengths& lengths) {
  if (out.dtype != x.dtype) return repeat_into(x, out, pattern, ConvertRef{}, lengths);  // convert.hpp
  apply_into(borrow_plan(Operation::repeat, std::nullopt, pattern, x.shape, lengths), x, out, lengths, "repeat");
}
void reduce_into(const TensorRef& x, const TensorRef& out, const PatternRef& pattern, std::string_view reduction,
                 const AxisLengths& lengths) {
  apply_into(borrow_plan(Operation::reduce, reduction, pattern, x.shape, lengths), x, out, lengths, reduction);
}

}  // namespace detail
}  // namespace einops
