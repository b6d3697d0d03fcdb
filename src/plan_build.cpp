// Pattern + shape + axis lengths -> Plan, following einops' _prepare_transformation_recipe and
// _reconstruct_from_shape, with every product checked for overflow. See plan.hpp; the cache of
// plans is plan_cache.cpp, the walks of a plan plan_walk.cpp.
#include "einops/plan.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <functional>
#include <string>

#include "einops/detail/plan_kernels.hpp"
#include "einops/detail/plan_walk.hpp"
#include "einops/detail/platform.hpp"
#include "einops/limits.hpp"
#include "call_context.hpp"
#include "pattern_cache.hpp"
#include "shape_reasons.hpp"

namespace einops {
namespace {

using detail::CallContext;

constexpr std::int64_t kUnknown = -1;

/// One elementary axis while the plan is being built.
struct AxisEntry {
  std::string name;    // display name: "h2", "3", "...0"
  bool named = false;  // a named axis (can be given a length, matched across sides)
  std::int64_t length = kUnknown;
  bool given = false;  // length given by the caller
};

bool checked_multiply(std::int64_t a, std::int64_t b, std::int64_t& out) { return !detail::checked_mul(a, b, out); }

/// einops' shape-free checks (pattern_checks.hpp, shared with compile-time literals), reported
/// with the offending names.
void check_sides(const CallContext& context, Operation operation, const ArrowPattern& pattern) {
  const PatternError error = check_arrow_pattern(pattern, operation);
  if (!error) return;
  std::vector<std::string> named;  // as einops names them: "h", "...", "3-axis"
  for_each_one_sided_axis(pattern, error.kind, [&](const Axis& axis) {
    named.push_back(axis.kind == AxisKind::anonymous ? axis.name + "-axis" : axis.name.str());
  });
  std::string reason = error.reason;
  switch (error.kind) {
    case PatternErrorKind::identifier_one_side:
    case PatternErrorKind::repeat_left_identifier: reason += ": " + detail::python_set(named); break;
    case PatternErrorKind::reduce_right_identifier:
      reason += " " + std::string(context.operation) + ": " + detail::python_set(named);
      break;
    case PatternErrorKind::ellipsis_right_only: reason += " " + std::string(context.pattern); break;
    case PatternErrorKind::ellipsis_parenthesized_left: reason += ": " + std::string(context.pattern); break;
    default: break;
  }
  context.fail(reason);
}

std::vector<std::string_view> length_names(const AxisLengths& lengths) {
  std::vector<std::string_view> names;
  for (const auto& entry : lengths.entries()) names.push_back(entry.first);
  return names;
}

/// repeat: every new named axis needs a length (checked with the sides, as einops does).
void check_new_axis_sizes(const CallContext& context, Operation operation, const ArrowPattern& pattern,
                          const AxisLengths& lengths) {
  if (operation != Operation::repeat) return;
  const std::vector<std::string_view> names = length_names(lengths);
  std::vector<std::string> missing;
  for (const Group& group : pattern.right.groups)
    for (const Axis& axis : group.axes)
      if (axis.kind == AxisKind::named && !pattern.left.contains(axis.name) &&
          std::find(names.begin(), names.end(), axis.name) == names.end())
        missing.push_back(axis.name);
  if (!missing.empty())
    context.fail(std::string(reason_text(PatternErrorKind::repeat_missing_size)) + ": " + detail::python_set(missing));
}

/// " (given h3=2)": where a refused axis length came from.
std::string given_location(const AxisLengths::Entry& entry) {
  return " (given " + entry.first + "=" + std::to_string(entry.second) + ")";
}

/// The caller's axis-length names: valid, used in the pattern, given once; lengths not negative.
void check_length_entries(const CallContext& context, Operation operation, const ArrowPattern& pattern,
                          const AxisLengths& lengths) {
  std::vector<std::string_view> names;
  for (const auto& entry : lengths.entries()) {
    names.push_back(entry.first);
    if (const PatternError error = check_length_names(pattern, operation, names, false))
      context.fail(detail::length_name_sentence(error, entry.first) + given_location(entry));
    if (entry.second < 0)
      context.fail("Axis " + entry.first + " is given a negative length (" + std::to_string(entry.second) + ")");
  }
}

/// The number of input dimensions the ellipsis stands for (0 without one); checks the rank, the
/// rank limit and the lengths of `shape`.
std::int64_t check_input_shape(const CallContext& context, const Expression& left,
                               std::span<const std::int64_t> shape) {
  const auto ndim = static_cast<std::int64_t>(shape.size());
  if (!accepts_rank(left, shape.size()))
    context.fail(detail::wrong_rank_reason(fixed_dims(left), left.has_ellipsis, shape.size()) +
                 detail::groups_location(context.pattern, left.groups));
  const std::int64_t ellipsis_dims = left.has_ellipsis ? ndim - static_cast<std::int64_t>(fixed_dims(left)) : 0;
  if (ndim > detail::kMaxRank) context.fail(detail::rank_limit_reason("The input has", shape.size()));
  std::int64_t nonzero_product = 1;  // the rule of detail::checked_element_count
  for (std::size_t dim = 0; dim < shape.size(); ++dim) {
    if (shape[dim] < 0)
      context.fail("Input shape has a negative length (" + std::to_string(shape[dim]) + ") in dimension " +
                   std::to_string(dim));
    if (shape[dim] > 0 && !checked_multiply(nonzero_product, shape[dim], nonzero_product))
      context.fail("Input shape has more elements than int64 can count");
  }
  return ellipsis_dims;
}

/// Every elementary axis of one call: the input's in input order, then the axes only the right
/// side has; and which of them make up each input and each output dimension.
struct AxisTable {
  std::vector<AxisEntry> axes;
  std::vector<std::vector<int>> input_groups;    // indices into `axes`, per input dimension
  std::vector<const Group*> input_group_source;  // the left side's group of each input dimension
  std::vector<std::vector<int>> output_groups;   // indices into `axes`, per output dimension
  int input_axis_count = 0;                      // axes [0, input_axis_count) come from the input
};

/// The pattern's axes with the ellipsis expanded into `ellipsis_dims` axes "...0", "...1", ...
AxisTable lay_out_axes(const CallContext& context, const ArrowPattern& pattern, std::int64_t ellipsis_dims) {
  AxisTable table;
  std::vector<AxisEntry>& axes = table.axes;
  const auto ellipsis_name = [](std::int64_t i) { return "..." + std::to_string(i); };
  for (const Group& group : pattern.left.groups) {
    if (group.is_bare_ellipsis()) {
      for (std::int64_t i = 0; i < ellipsis_dims; ++i) {
        table.input_groups.push_back({static_cast<int>(axes.size())});
        table.input_group_source.push_back(&group);
        axes.push_back({ellipsis_name(i), true, kUnknown, false});  // "...0" can never be a user name
      }
      continue;
    }
    std::vector<int> members;
    for (const Axis& axis : group.axes) {
      members.push_back(static_cast<int>(axes.size()));
      if (axis.kind == AxisKind::anonymous) axes.push_back({axis.name, false, axis.length, false});
      else axes.push_back({axis.name, true, kUnknown, false});
    }
    table.input_groups.push_back(std::move(members));
    table.input_group_source.push_back(&group);
  }
  table.input_axis_count = static_cast<int>(axes.size());
  const auto find_input_axis = [&](std::string_view name) -> int {
    for (int i = 0; i < table.input_axis_count; ++i)
      if (axes[static_cast<std::size_t>(i)].named && axes[static_cast<std::size_t>(i)].name == name) return i;
    return -1;
  };

  for (const Group& group : pattern.right.groups) {
    if (group.is_bare_ellipsis()) {
      for (std::int64_t i = 0; i < ellipsis_dims; ++i)
        table.output_groups.push_back({find_input_axis(ellipsis_name(i))});
      continue;
    }
    std::vector<int> members;
    for (const Axis& axis : group.axes) {
      if (axis.kind == AxisKind::ellipsis) {
        for (std::int64_t i = 0; i < ellipsis_dims; ++i) members.push_back(find_input_axis(ellipsis_name(i)));
      } else if (axis.kind == AxisKind::anonymous) {
        members.push_back(static_cast<int>(axes.size()));
        axes.push_back({axis.name, false, axis.length, false});
      } else if (int found = find_input_axis(axis.name); found >= 0) {
        members.push_back(found);
      } else {
        members.push_back(static_cast<int>(axes.size()));
        axes.push_back({axis.name, true, kUnknown, false});
      }
    }
    table.output_groups.push_back(std::move(members));
  }
  if (axes.size() > static_cast<std::size_t>(detail::kMaxRank))
    context.fail("Too many axes: " + std::to_string(axes.size()) + " elementary axes, the limit is " +
                 std::to_string(detail::kMaxRank));
  return table;
}

/// The caller's lengths onto their axes (names checked against the pattern first, as einops does).
void apply_given_lengths(const CallContext& context, Operation operation, const ArrowPattern& pattern,
                         const AxisLengths& lengths, AxisTable& table) {
  check_length_entries(context, operation, pattern, lengths);
  for (const auto& [name, length] : lengths.entries())
    for (AxisEntry& entry : table.axes)
      if (entry.named && entry.name == name) {
        entry.given = true;
        entry.length = length;
      }
}

/// Each input dimension's unknown axis from its length; every product checked against the shape
/// and kept within int64.
void infer_lengths(const CallContext& context, std::span<const std::int64_t> shape, AxisTable& table) {
  std::vector<AxisEntry>& axes = table.axes;
  const auto location = [&](std::size_t dim) {
    return detail::dimension_location(dim, detail::group_text(context.pattern, *table.input_group_source[dim]));
  };
  // At most one unknown per input dimension (checked before looking at lengths, as einops does).
  for (std::size_t dim = 0; dim < table.input_groups.size(); ++dim) {
    std::vector<std::string> unknown;
    for (int index : table.input_groups[dim])
      if (axes[static_cast<std::size_t>(index)].length == kUnknown)
        unknown.push_back(axes[static_cast<std::size_t>(index)].name);
    if (unknown.size() > 1) context.fail(detail::uninferable_reason(unknown) + location(dim));
  }

  for (std::size_t dim = 0; dim < table.input_groups.size(); ++dim) {
    const std::int64_t length = shape[dim];
    std::int64_t known_product = 1;
    AxisEntry* unknown = nullptr;
    for (int index : table.input_groups[dim]) {
      AxisEntry& entry = axes[static_cast<std::size_t>(index)];
      if (entry.length == kUnknown) {
        unknown = &entry;
      } else if (!checked_multiply(known_product, entry.length, known_product)) {
        context.fail("Axis lengths overflow int64 at axis " + entry.name + " (length " + std::to_string(entry.length) +
                     ")" + location(dim));
      }
    }
    if (unknown == nullptr) {
      if (length != known_product) context.fail(detail::length_mismatch_reason(length, known_product) + location(dim));
      continue;
    }
    if (known_product == 0 || length % known_product != 0)
      context.fail(detail::indivisible_reason(length, known_product) + location(dim));
    unknown->length = length / known_product;
  }

  // Every product of lengths the plan and the kernels form (extents merged, strides, element
  // counts) divides the product of all non-zero lengths: one check keeps them all in int64, even
  // for an empty tensor whose other axes are huge.
  std::int64_t all_lengths = 1;
  for (const AxisEntry& entry : axes)
    if (entry.length > 0 && !checked_multiply(all_lengths, entry.length, all_lengths))
      context.fail("Axis lengths overflow int64 at axis " + entry.name + " (length " + std::to_string(entry.length) +
                   "): the product of the non-zero lengths of all axes is too large");
}

/// The plan's axes, output shape, permutation and reduced axes from the table of lengths.
void record_axes(const CallContext& context, std::optional<Reduction> reduction, const AxisTable& table, Plan& plan) {
  const std::vector<AxisEntry>& axes = table.axes;
  for (std::size_t dim = 0; dim < table.input_groups.size(); ++dim)
    for (int index : table.input_groups[dim]) {
      plan.input_axis_names.push_back(axes[static_cast<std::size_t>(index)].name);
      plan.input_axis_lengths.push_back(axes[static_cast<std::size_t>(index)].length);
      plan.input_axis_dim.push_back(static_cast<int>(dim));
    }
  std::vector<bool> kept(static_cast<std::size_t>(table.input_axis_count), false);
  plan.output_size = 1;
  for (std::size_t dim = 0; dim < table.output_groups.size(); ++dim) {
    std::int64_t product = 1;
    for (int index : table.output_groups[dim]) {
      const AxisEntry& entry = axes[static_cast<std::size_t>(index)];
      plan.output_axis_names.push_back(entry.name);
      plan.output_axis_lengths.push_back(entry.length);
      plan.output_axis_source.push_back(index < table.input_axis_count ? index : -1);
      plan.output_axis_dim.push_back(static_cast<int>(dim));
      if (index < table.input_axis_count) {
        kept[static_cast<std::size_t>(index)] = true;
        plan.permutation.push_back(index);
      }
      if (!checked_multiply(product, entry.length, product))
        context.fail("Output dimension " + std::to_string(dim) + " has more elements than int64 can count, at axis " +
                     entry.name + " (length " + std::to_string(entry.length) + ")");
    }
    plan.output_shape.push_back(product);
    if (!checked_multiply(plan.output_size, product, plan.output_size))
      context.fail("Output has more elements than int64 can count");
  }
  if (plan.output_shape.size() > static_cast<std::size_t>(detail::kMaxRank))
    context.fail(detail::rank_limit_reason("The output would have", plan.output_shape.size()));
  for (int index = 0; index < table.input_axis_count; ++index)
    if (!kept[static_cast<std::size_t>(index)]) {
      plan.reduced_axes.push_back(index);
      plan.permutation.push_back(index);
      plan.reduced_count *= axes[static_cast<std::size_t>(index)].length;  // bounded by infer_lengths' check
    }
  if (!plan.reduced_axes.empty() && plan.reduced_count == 0 && reduction && !reduction_traits(*reduction).has_identity)
    context.fail("zero-size array to reduction operation " + std::string(reduction_traits(*reduction).numpy_ufunc) +
                 " which has no identity");
}

/// parse (done) -> shape-free checks -> axes -> lengths -> plan -> the contiguous walk.
Shared<const Plan> build_plan(Operation operation, std::optional<Reduction> reduction, const CallContext& context,
                              const ArrowPattern& pattern, std::span<const std::int64_t> shape,
                              const AxisLengths& lengths) {
  check_sides(context, operation, pattern);
  check_new_axis_sizes(context, operation, pattern, lengths);
  const std::int64_t ellipsis_dims = check_input_shape(context, pattern.left, shape);
  AxisTable table = lay_out_axes(context, pattern, ellipsis_dims);
  apply_given_lengths(context, operation, pattern, lengths, table);
  infer_lengths(context, shape, table);

  Shared<Plan> plan = detail::make_shared_object<Plan>();
  plan->operation = operation;
  plan->reduction = reduction;
  plan->pattern = context.pattern;
  plan->input_shape.assign(shape.begin(), shape.end());
  record_axes(context, reduction, table, *plan);
  Shared<detail::PlanKernels> kernels = detail::make_shared_object<detail::PlanKernels>();
  kernels->contiguous_walk = detail::make_walk(*plan, detail::row_major_strides(plan->input_shape),
                                               detail::row_major_strides(plan->output_shape));
  plan->kernels = std::move(kernels);
  return plan;
}

/// Resolves reduce()'s reduction name: "rearrange"/"repeat" turn reduce into that operation.
Operation effective_operation(Operation operation, std::optional<std::string_view> reduction) {
  if (operation == Operation::reduce && reduction) {
    if (*reduction == "rearrange") return Operation::rearrange;
    if (*reduction == "repeat") return Operation::repeat;
  }
  return operation;
}

}  // namespace

AxisLengths::AxisLengths(std::initializer_list<std::pair<std::string_view, std::int64_t>> entries) {
  entries_.reserve(entries.size());
  for (const auto& [name, length] : entries) entries_.emplace_back(std::string(name), length);
}

void AxisLengths::add(std::string_view name, std::int64_t length) { entries_.emplace_back(std::string(name), length); }

std::optional<Reduction> parse_reduction(std::string_view name, std::string_view pattern) {
  if (const ReductionTraits* known = find_reduction(name)) return known->reduction;
  if (name == "rearrange" || name == "repeat") return std::nullopt;
  detail::throw_call_error(name, pattern, "",
                           "Unknown reduction " + std::string(name) + ". Expect one of (" + reduction_names() +
                               "). (Also accepted: rearrange, repeat.)");
}

Shared<const Plan> make_plan(Operation operation, const std::optional<std::string_view>& reduction,
                             const PatternRef& pattern_ref, std::span<const std::int64_t> shape,
                             const AxisLengths& lengths) {
  const std::string_view pattern = pattern_ref.text;
  const std::string label = operation == Operation::reduce ? std::string(reduction.value_or("callable"))
                                                           : std::string(operation_name(operation));
  const CallContext context{.operation = label, .pattern = pattern, .shape = shape, .lengths = &lengths};
  std::optional<Reduction> named;
  if (operation == Operation::reduce && reduction) named = parse_reduction(*reduction, pattern);
  const Operation effective = effective_operation(operation, reduction);
  const std::shared_ptr<const ArrowPattern> parsed = detail::parse_arrow_cached(pattern, context);
  return build_plan(effective, named, context, *parsed, shape, lengths);
}

}  // namespace einops
