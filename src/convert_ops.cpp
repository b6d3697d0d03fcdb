// rearrange and repeat with a conversion (convert.hpp): the plan, the checks of the output and
// the map, and the loops of the conversion kernel (kernels/convert_simd.cpp). A list input is
// read where its tensors lie, through a table of their offsets, when they share one layout.
#include "einops/convert.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "call_context.hpp"
#include "einops/detail/kernels.hpp"
#include "einops/detail/plan_walk.hpp"
#include "kernels/buffer_cache.hpp"
#include "kernels/convert.hpp"

namespace einops::detail {
namespace {

/// A list input seen as one tensor: the first tensor's layout with a leading list axis whose
/// offsets come from a table.
struct ListView {
  Shape shape;
  Shape strides;
  std::vector<std::int64_t> offsets;
};

/// The list as one strided tensor, or nullopt when its tensors do not share strides (or lie at
/// distances that are not whole elements). Throws for an empty list or tensors that differ.
std::optional<ListView> list_view(std::span<const TensorRef> xs, std::string_view label, std::string_view pattern,
                                  const AxisLengths& lengths) {
  if (xs.empty()) throw_call_error(label, pattern, "", kEmptyListReason);
  const TensorRef& first = xs.front();
  bool shared_layout = true;
  ListView view;
  const auto element = static_cast<std::int64_t>(dtype_size(first.dtype));
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const TensorRef& x = xs[i];
    if (x.dtype != first.dtype || !std::equal(x.shape.begin(), x.shape.end(), first.shape.begin(), first.shape.end())) {
      const CallContext context{
          .operation = label, .pattern = pattern, .shape = first.shape, .lengths = &lengths, .list_input = true};
      context.fail(list_mismatch_reason(first.shape, dtype_name(first.dtype), i, x.shape, dtype_name(x.dtype)));
    }
    shared_layout =
        shared_layout && std::equal(x.strides.begin(), x.strides.end(), first.strides.begin(), first.strides.end());
    const auto distance = static_cast<std::int64_t>(reinterpret_cast<std::uintptr_t>(x.data) -
                                                    reinterpret_cast<std::uintptr_t>(first.data));
    shared_layout = shared_layout && distance % element == 0;
    view.offsets.push_back(distance / element);
  }
  if (!shared_layout) return std::nullopt;
  view.shape.push_back(static_cast<std::int64_t>(xs.size()));
  view.shape.insert(view.shape.end(), first.shape.begin(), first.shape.end());
  view.strides.push_back(0);
  view.strides.insert(view.strides.end(), first.strides.begin(), first.strides.end());
  return view;
}

/// The list stacked into one new row-major tensor (tensors of different layouts).
AnyTensor stacked(std::span<const TensorRef> xs) {
  const TensorRef& first = xs.front();
  Shape shape{static_cast<std::int64_t>(xs.size())};
  shape.insert(shape.end(), first.shape.begin(), first.shape.end());
  AnyTensor out = new_result(first.dtype, shape);
  const std::size_t element = dtype_size(first.dtype);
  const Shape item_strides = row_major_strides(first.shape);
  for (std::size_t i = 0; i < xs.size(); ++i)
    copy_layout(element, first.shape, xs[i].data, xs[i].strides,
                static_cast<char*>(out.data()) + static_cast<std::size_t>(first.size()) * element * i, item_strides);
  return out;
}

std::string dtype_text(DType dtype) { return std::string(dtype_name(dtype)); }

/// What names a call in its errors, and what it was given.
struct Call {
  Operation operation;
  std::string_view label;
  const PatternRef& pattern;
  const ConvertRef& map;
  const AxisLengths& lengths;
  bool list_input = false;
};

/// Writes the result of `plan` on `x` into `out` through the map (shapes and types checked here).
/// For a list input, `x` is the list seen as one tensor whose axis 0 reads `list_offsets`, and
/// `shown_shape` the shape of one of its tensors (the one errors name).
void convert_into(const Call& call, const Plan& plan, const TensorRef& x, std::span<const std::int64_t> list_offsets,
                  std::span<const std::int64_t> shown_shape, const TensorRef& out) {
  const CallContext context{.operation = call.label,
                            .pattern = plan.pattern,
                            .shape = shown_shape,
                            .lengths = &call.lengths,
                            .list_input = call.list_input};
  if (!convertible(x.dtype, out.dtype))
    context.fail(
        "The conversion takes uint8, int8, uint16, int16, float16, bfloat16 and float32 to float32, float16, "
        "bfloat16, uint8 and int8, not " +
        dtype_text(x.dtype) + " to " + dtype_text(out.dtype));
  if (!std::equal(out.shape.begin(), out.shape.end(), plan.output_shape.begin(), plan.output_shape.end()))
    context.fail("Output tensor is " + format_shape(out.shape) + ", the result is " + format_shape(plan.output_shape));

  // The map's axis, and its parameters as one value per position of it.
  const ConvertRef& map = call.map;
  int axis = -1;
  std::int64_t positions = 1;
  if (!map.axis.empty()) {
    for (std::size_t i = 0; i < plan.output_axis_names.size() && axis < 0; ++i)
      if (plan.output_axis_names[i] == map.axis) axis = static_cast<int>(i);
    if (axis < 0) context.fail(std::string(kAffineAxisReasonText) + ": \"" + std::string(map.axis) + "\"");
    positions = plan.output_axis_lengths[static_cast<std::size_t>(axis)];
  }
  const auto expand = [&](std::span<const float> values, float identity, const char* what) {
    std::vector<float> all(static_cast<std::size_t>(positions), identity);
    if (values.size() == 1) std::fill(all.begin(), all.end(), values[0]);
    else if (values.size() == all.size()) std::copy(values.begin(), values.end(), all.begin());
    else if (!values.empty())
      context.fail(std::string("The affine map has ") + std::to_string(values.size()) + " " + what +
                   " values; it takes 1" +
                   (axis < 0 ? std::string(" (no axis is named)")
                             : " or " + std::to_string(positions) + ", the length of axis " + std::string(map.axis)));
    return all;
  };
  const std::vector<float> scale = expand(map.scale, 1.0f, "scale");
  const std::vector<float> offset = expand(map.offset, 0.0f, "offset");
  bool identity = true;
  for (std::size_t i = 0; i < scale.size(); ++i) identity = identity && scale[i] == 1.0f && offset[i] == 0.0f;

  const std::array<std::int64_t, kMaxRank> in_axis = input_axis_strides(plan, x.strides);
  const std::array<std::int64_t, kMaxRank> out_axis = output_axis_strides(plan, out.strides);
  std::vector<std::int64_t> order_offsets;
  if (!map.axis_order.empty()) {
    if (axis < 0 || static_cast<std::int64_t>(map.axis_order.size()) != positions)
      context.fail("The axis order must list every position of the map's axis");
    const int source = plan.output_axis_source[static_cast<std::size_t>(axis)];
    for (int k : map.axis_order) {
      if (k < 0 || k >= positions) context.fail("The axis order names a position outside the map's axis");
      order_offsets.push_back(source >= 0 ? k * in_axis[static_cast<std::size_t>(source)] : 0);
    }
  }
  std::vector<ConvertLoop> loops;
  for (std::size_t i = 0; i < plan.output_axis_source.size(); ++i) {
    const int source = plan.output_axis_source[i];
    ConvertLoop loop{.extent = plan.output_axis_lengths[i],
                     .in_stride = source >= 0 ? in_axis[static_cast<std::size_t>(source)] : 0,
                     .out_stride = out_axis[i],
                     .param_stride = static_cast<int>(i) == axis ? 1 : 0};
    if (static_cast<int>(i) == axis && !order_offsets.empty()) loop.in_table = order_offsets.data();
    if (source == 0 && !list_offsets.empty()) loop.in_table = list_offsets.data();
    loops.push_back(loop);
  }
  const ConvertMap kernel_map{.in = x.dtype,
                              .out = out.dtype,
                              .scale = identity ? nullptr : scale.data(),
                              .offset = identity ? nullptr : offset.data(),
                              .offset_first = map.offset_first};
  execute_convert(make_convert_schedule(kernel_map, loops), x.data, out.data);
}

const Plan& plan_of(const Call& call, std::span<const std::int64_t> shape) {
  return borrow_plan(call.operation, std::nullopt, call.pattern, shape, call.lengths);
}

void into_single(const Call& call, const TensorRef& x, const TensorRef& out) {
  convert_into(call, plan_of(call, x.shape), x, {}, x.shape, out);
}

AnyTensor new_single(const Call& call, const TensorRef& x, DType out_type) {
  const Plan& plan = plan_of(call, x.shape);
  check_result_size(plan, dtype_size(out_type), x.shape, call.lengths);
  AnyTensor out = new_result(out_type, plan.output_shape);
  convert_into(call, plan, x, {}, x.shape, out);
  return out;
}

/// A list input into `out`, or (no `out`) into a new tensor of `out_type`.
AnyTensor list_call(Call call, std::span<const TensorRef> xs, const TensorRef* out, DType out_type) {
  call.list_input = true;
  const std::optional<ListView> view = list_view(xs, call.label, call.pattern.text, call.lengths);
  const TensorRef& first = xs.front();
  std::optional<TensorRef> whole;
  if (view) whole.emplace(first.dtype, first.data, view->shape, view->strides);
  const Plan* plan = whole ? &plan_of(call, whole->shape) : nullptr;
  // The table stands for input dimension 0 only where a single axis makes it up.
  if (plan != nullptr && std::count(plan->input_axis_dim.begin(), plan->input_axis_dim.end(), 0) != 1) plan = nullptr;
  if (plan == nullptr) {
    const AnyTensor copy = stacked(xs);
    if (out != nullptr) {
      into_single(call, copy, *out);
      return {};
    }
    return new_single(call, copy, out_type);
  }
  if (out != nullptr) {
    convert_into(call, *plan, *whole, view->offsets, first.shape, *out);
    return {};
  }
  check_result_size(*plan, dtype_size(out_type), first.shape, call.lengths);
  AnyTensor result = new_result(out_type, plan->output_shape);
  convert_into(call, *plan, *whole, view->offsets, first.shape, result);
  return result;
}

}  // namespace

void rearrange_into(const TensorRef& x, const TensorRef& out, const PatternRef& pattern, const ConvertRef& map,
                    const AxisLengths& lengths) {
  into_single(Call{Operation::rearrange, "rearrange", pattern, map, lengths}, x, out);
}
void repeat_into(const TensorRef& x, const TensorRef& out, const PatternRef& pattern, const ConvertRef& map,
                 const AxisLengths& lengths) {
  into_single(Call{Operation::repeat, "repeat", pattern, map, lengths}, x, out);
}
void rearrange_into(std::span<const TensorRef> xs, const TensorRef& out, const PatternRef& pattern,
                    const ConvertRef& map, const AxisLengths& lengths) {
  list_call(Call{Operation::rearrange, "rearrange", pattern, map, lengths}, xs, &out, out.dtype);
}
AnyTensor rearrange(const TensorRef& x, DType out, const PatternRef& pattern, const ConvertRef& map,
                    const AxisLengths& lengths) {
  return new_single(Call{Operation::rearrange, "rearrange", pattern, map, lengths}, x, out);
}
AnyTensor rearrange(std::span<const TensorRef> xs, DType out, const PatternRef& pattern, const ConvertRef& map,
                    const AxisLengths& lengths) {
  return list_call(Call{Operation::rearrange, "rearrange", pattern, map, lengths}, xs, nullptr, out);
}
AnyTensor repeat(const TensorRef& x, DType out, const PatternRef& pattern, const ConvertRef& map,
                 const AxisLengths& lengths) {
  return new_single(Call{Operation::repeat, "repeat", pattern, map, lengths}, x, out);
}
AnyTensor repeat(std::span<const TensorRef> xs, DType out, const PatternRef& pattern, const ConvertRef& map,
                 const AxisLengths& lengths) {
  return list_call(Call{Operation::repeat, "repeat", pattern, map, lengths}, xs, nullptr, out);
}

}  // namespace einops::detail
