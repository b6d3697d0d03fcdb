#include "explain.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "einops/detail/kernels.hpp"
#include "einops/detail/plan_walk.hpp"
#include "einops/detail/platform.hpp"
#include "text_table.hpp"

namespace einops::tool {
namespace {

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out += (i ? std::string(separator) : "") + parts[i];
  return out;
}

bool is_anonymous(const std::string& name) { return !name.empty() && name[0] >= '0' && name[0] <= '9'; }
bool is_ellipsis(const std::string& name) { return name.rfind("...", 0) == 0; }

bool is_given(const AxisLengths& lengths, const std::string& name) {
  const auto entries = lengths.entries();
  return std::any_of(entries.begin(), entries.end(), [&](const auto& entry) { return entry.first == name; });
}

/// One side's groups: each dimension with its axes and the product of their lengths.
std::string groups_text(const std::vector<std::string>& names, const Shape& lengths, const std::vector<int>& dims,
                        std::size_t dim_count, const Shape& dim_lengths) {
  Table table;
  for (std::size_t dim = 0; dim < dim_count; ++dim) {
    std::vector<std::string> members;
    std::vector<std::string> factors;
    for (std::size_t i = 0; i < names.size(); ++i)
      if (dims[i] == static_cast<int>(dim)) {
        members.push_back(names[i]);
        factors.push_back(std::to_string(lengths[i]));
      }
    // (GCC 12 warns falsely on a one-character literal + std::string&&: build with append.)
    std::string group = members.size() == 1 ? members[0] : std::string("(").append(join(members, " ")).append(")");
    std::string length = std::to_string(dim_lengths[dim]);
    if (members.size() > 1) length += " = " + join(factors, " * ");
    table.row({"dim " + std::to_string(dim), group, length});
  }
  return table.text();
}

std::string axes_text(const Plan& plan, const AxisLengths& lengths) {
  Table table;
  for (std::size_t i = 0; i < plan.input_axis_names.size(); ++i) {
    const std::string& name = plan.input_axis_names[i];
    const int dim = plan.input_axis_dim[i];
    std::string how;
    if (is_given(lengths, name)) how = "given";
    else if (is_anonymous(name)) how = "fixed by the pattern";
    else if (is_ellipsis(name)) how = "covered by the ellipsis: input dim " + std::to_string(dim);
    else {
      // Inferred: the dimension's length divided by the product of the other axes in its group.
      std::vector<std::string> others;
      for (std::size_t j = 0; j < plan.input_axis_names.size(); ++j)
        if (j != i && plan.input_axis_dim[j] == dim) others.push_back(std::to_string(plan.input_axis_lengths[j]));
      how = "inferred from input dim " + std::to_string(dim);
      if (!others.empty())
        how += ": " + std::to_string(plan.input_shape[static_cast<std::size_t>(dim)]) + " / " + join(others, " / ");
    }
    table.row({name, std::to_string(plan.input_axis_lengths[i]), how});
  }
  for (std::size_t i = 0; i < plan.output_axis_names.size(); ++i) {
    if (plan.output_axis_source[i] >= 0) continue;
    const std::string& name = plan.output_axis_names[i];
    table.row({name, std::to_string(plan.output_axis_lengths[i]),
               is_anonymous(name) ? "new, fixed by the pattern" : "new, given"});
  }
  return table.text();
}

std::string walk_text(const detail::Walk& walk) {
  Table table;
  table.row({"loop", "extent", "input stride", "output stride"});
  for (int d = 0; d < walk.rank; ++d)
    table.row({std::to_string(d), std::to_string(walk.extent[d]), std::to_string(walk.in_stride[d]),
               std::to_string(walk.out_stride[d])});
  for (int d = 0; d < walk.reduced_rank; ++d)
    table.row({std::string("r").append(std::to_string(d)), std::to_string(walk.reduced_extent[d]),
               std::to_string(walk.reduced_stride[d]), "(reduced)"});
  return table.text();
}

/// The kernel the walk runs, as the kernels' schedules name it.
std::string kernel_text(const Plan& plan, const detail::Walk& walk, DType dtype) {
  if (walk.output_count() == 0) return "nothing to do: the output is empty";
  if (plan.reduction && !plan.reduced_axes.empty())
    return std::string(reduction_name(*plan.reduction)) + " over the reduced loops for each output element; " +
           detail::describe_reduce(dtype, *plan.reduction, walk);
  return detail::describe_copy(walk, dtype_size(dtype));
}

/// count * size(dtype) (+ count2 * size(dtype2)) in decimal, or "more than 2^64" past uint64.
std::string bytes_text(std::int64_t count, DType dtype, std::int64_t count2 = 0, DType dtype2 = DType::uint8) {
  std::uint64_t a = 0, b = 0, total = 0;
  if (detail::checked_mul(static_cast<std::uint64_t>(count), std::uint64_t{dtype_size(dtype)}, a) ||
      detail::checked_mul(static_cast<std::uint64_t>(count2), std::uint64_t{dtype_size(dtype2)}, b) ||
      detail::checked_add(a, b, total))
    return "more than 2^64";
  return std::to_string(total);
}

}  // namespace

std::string explain(const ExplainRequest& request) {
  const std::optional<std::string_view> reduction =
      request.reduction ? std::optional<std::string_view>(*request.reduction) : std::nullopt;
  const einops::Shared<const einops::Plan> owned =
      make_plan(request.operation, reduction, request.pattern, request.shape, request.lengths);
  const Plan& plan = *owned;
  const std::string label = request.operation == Operation::reduce ? "reduce (" + request.reduction.value_or("?") + ")"
                                                                   : std::string(operation_name(request.operation));
  const DType out_dtype = plan.reduction && !plan.reduced_axes.empty()
                              ? reduction_result_dtype(*plan.reduction, request.dtype)
                              : request.dtype;

  std::string out = label + " \"" + request.pattern + "\"\n";
  out += "input: shape " + detail::format_shape(request.shape) + ", " + std::string(dtype_name(request.dtype));
  if (request.list_input) out += " (a list of " + std::to_string(request.shape.at(0)) + " tensors, stacked on dim 0)";
  out += "\n\n1. Axes and their lengths\n" + axes_text(plan, request.lengths);
  out +=
      "\n2. Input groups (left side)\n" + groups_text(plan.input_axis_names, plan.input_axis_lengths,
                                                      plan.input_axis_dim, plan.input_shape.size(), plan.input_shape);
  out += "\n3. Output groups (right side)\n" + groups_text(plan.output_axis_names, plan.output_axis_lengths,
                                                           plan.output_axis_dim, plan.output_shape.size(),
                                                           plan.output_shape);

  std::vector<std::string> reduced, added, order, order_index;
  for (int index : plan.reduced_axes)
    reduced.push_back(plan.input_axis_names[static_cast<std::size_t>(index)] + " (" +
                      std::to_string(plan.input_axis_lengths[static_cast<std::size_t>(index)]) + ")");
  for (std::size_t i = 0; i < plan.output_axis_source.size(); ++i)
    if (plan.output_axis_source[i] < 0)
      added.push_back(plan.output_axis_names[i] + " (" + std::to_string(plan.output_axis_lengths[i]) + ")");
  for (int index : plan.permutation) {
    order.push_back(plan.input_axis_names[static_cast<std::size_t>(index)]);
    order_index.push_back(std::to_string(index));
  }
  out += "\n4. What moves\n";
  out += "   reduced axes: " + (reduced.empty() ? std::string("none") : join(reduced, ", "));
  if (!reduced.empty()) out += ": " + std::to_string(plan.reduced_count) + " input elements per output element";
  out += "\n   added axes:   " + (added.empty() ? std::string("none") : join(added, ", ")) + "\n";
  out += "   axis order:   " + join(order, " ") + "  (input axes " + join(order_index, " ") + ")\n";

  const Shape input_strides = detail::row_major_strides(plan.input_shape);
  const std::optional<Shape> view = detail::view_strides(plan, input_strides);
  const std::string in_bytes = bytes_text(detail::checked_element_count(plan.input_shape), request.dtype);
  const std::string out_bytes = bytes_text(plan.output_size, out_dtype);
  const std::string total_bytes =
      bytes_text(detail::checked_element_count(plan.input_shape), request.dtype, plan.output_size, out_dtype);
  if (view) {
    out += "\n5. Walk: none; no element moves, the result is a view of the input with strides " +
           detail::format_shape(*view) + "\n";
  } else {
    const detail::Walk walk = detail::make_walk(plan, input_strides, detail::row_major_strides(plan.output_shape));
    out += "\n5. Walk (adjacent axes merged; C-order input and output; strides in elements)\n" + walk_text(walk);
    out += "   kernel: " + kernel_text(plan, walk, request.dtype) + "\n";
  }
  out += "\n6. Output: shape " + detail::format_shape(plan.output_shape) + ", " + std::string(dtype_name(out_dtype)) +
         "\n";
  if (view) out += "   cost: 0 bytes moved (a view)\n";
  else out += "   cost: " + total_bytes + " bytes moved (reads " + in_bytes + ", writes " + out_bytes + ")\n";
  return out;
}

}  // namespace einops::tool
