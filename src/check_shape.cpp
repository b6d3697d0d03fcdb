// check_shape: a shape asserted against one side of a pattern (check_shape.hpp).
#include "einops/check_shape.hpp"

#include <string>
#include <utility>
#include <vector>

#include "einops/detail/platform.hpp"
#include "einops/error.hpp"
#include "call_context.hpp"
#include "operation_patterns.hpp"
#include "shape_reasons.hpp"

namespace einops::detail {
namespace {

constexpr std::string_view kPlaceholder = "_";

/// The given lengths: valid names of the pattern, each once, none negative (one fault, thrown).
void check_given_lengths(const CallContext& context, const Expression& expression, const AxisLengths& lengths) {
  std::vector<std::string_view> names;
  for (const auto& [name, length] : lengths.entries()) {
    names.push_back(name);
    if (const PatternError error = check_shape_length_names(expression, names))
      context.fail(length_name_sentence(error, name) + " (given " + name + "=" + std::to_string(length) + ")");
    if (length < 0) context.fail("Axis " + name + " is given a negative length (" + std::to_string(length) + ")");
  }
}

const std::int64_t* given_length(const AxisLengths& lengths, std::string_view name) {
  for (const auto& entry : lengths.entries())
    if (entry.first == name) return &entry.second;
  return nullptr;
}

/// One group against its dimension: the named lengths it binds go to `bound`, in pattern order;
/// a fault is returned as einops' sentence (empty when the group fits).
std::string check_group(const CallContext& context, const Group& group, std::int64_t length, const AxisLengths& lengths,
                        std::vector<ParsedShape::Entry>& bound) {
  std::int64_t known_product = 1;
  std::vector<std::string> unknown;
  for (const Axis& axis : group.axes) {
    std::int64_t axis_length = axis.length;  // anonymous axes
    if (axis.kind != AxisKind::anonymous) {
      const std::int64_t* given = given_length(lengths, axis.name);
      if (given == nullptr) {
        unknown.push_back(axis.name.str());
        continue;
      }
      axis_length = *given;
    }
    if (checked_mul(known_product, axis_length, known_product))
      context.fail("Axis lengths overflow int64 at axis " + axis.name.str() + " (length " +
                   std::to_string(axis_length) + ")");
  }
  if (unknown.size() > 1) return uninferable_reason(unknown);
  if (unknown.empty() && length != known_product) return length_mismatch_reason(length, known_product);
  if (!unknown.empty() && (known_product == 0 || length % known_product != 0))
    return indivisible_reason(length, known_product);
  for (const Axis& axis : group.axes) {
    if (axis.kind == AxisKind::anonymous || axis.name == kPlaceholder) continue;
    const std::int64_t* given = given_length(lengths, axis.name);
    bound.emplace_back(axis.name.str(), given != nullptr ? *given : length / known_product);
  }
  return {};
}

}  // namespace

ParsedShape check_shape(std::span<const std::int64_t> shape, const PatternRef& pattern_ref,
                        const AxisLengths& lengths) {
  const std::string_view pattern = pattern_ref.text;
  const CallContext context{.operation = "check_shape", .pattern = pattern, .shape = shape, .lengths = &lengths};
  const auto parsed = check_shape_side(pattern, context);
  const Expression& expression = *parsed;
  check_given_lengths(context, expression, lengths);
  if (!accepts_rank(expression, shape.size()))
    context.fail(wrong_rank_reason(fixed_dims(expression), expression.has_ellipsis, shape.size()) +
                 groups_location(pattern, expression.groups));
  for (std::size_t dim = 0; dim < shape.size(); ++dim)
    if (shape[dim] < 0)
      context.fail("Input shape has a negative length (" + std::to_string(shape[dim]) + ") in dimension " +
                   std::to_string(dim));

  // Every group is checked, so that the message names each dimension that fails.
  std::vector<ParsedShape::Entry> bound;
  std::string faults;
  std::size_t dim = 0;
  for (const Group& group : expression.groups) {
    if (group.is_bare_ellipsis()) {
      dim += shape.size() - fixed_dims(expression);
      continue;
    }
    const std::string fault = check_group(context, group, shape[dim], lengths, bound);
    if (!fault.empty())
      faults += (faults.empty() ? "" : "\n ") + fault + dimension_location(dim, group_text(pattern, group));
    ++dim;
  }
  if (!faults.empty()) context.fail(faults);
  return ParsedShape(std::move(bound));
}

}  // namespace einops::detail
