// parse_shape: reads a shape through a pattern (einops.parse_shape).
#include "einops/parse_shape.hpp"

#include <string>

#include "einops/error.hpp"
#include "call_context.hpp"
#include "operation_patterns.hpp"

namespace einops {

std::int64_t ParsedShape::operator[](std::string_view name) const {
  for (const Entry& entry : entries_)
    if (entry.first == name) return entry.second;
  throw EinopsError("parse_shape: axis '" + std::string(name) + "' is not in the parsed shape");
}

bool ParsedShape::contains(std::string_view name) const {
  for (const Entry& entry : entries_)
    if (entry.first == name) return true;
  return false;
}

ParsedShape parse_shape(std::span<const std::int64_t> shape, shape_pattern pattern_arg) {
  const std::string_view pattern = pattern_arg.text();
  const detail::CallContext context{.operation = "parse_shape", .pattern = pattern, .shape = shape};
  const auto parsed = detail::parse_shape_pattern(pattern, context);
  const std::vector<Group>& groups = parsed->groups;
  const std::size_t fixed = groups.size() - (parsed->has_ellipsis ? 1 : 0);
  if (parsed->has_ellipsis ? shape.size() < fixed : shape.size() != fixed)
    context.fail("The pattern has " + std::to_string(fixed) + (parsed->has_ellipsis ? " or more" : "") +
                 " dimensions, the tensor has " + std::to_string(shape.size()));

  std::vector<ParsedShape::Entry> entries;
  std::size_t dim = 0;
  for (const Group& group : groups) {
    if (group.is_bare_ellipsis()) {
      dim += shape.size() - fixed;
      continue;
    }
    const std::int64_t length = shape[dim];
    if (group.axes.empty()) {
      if (length != 1)
        context.fail("Length of axis is not 1: dimension " + std::to_string(dim) + " has length " +
                     std::to_string(length) + " where the pattern has a unit axis");
    } else if (const Axis& axis = group.axes.front(); axis.kind == AxisKind::anonymous) {
      if (length != axis.length)
        context.fail("Length of anonymous axis does not match: dimension " + std::to_string(dim) + " has length " +
                     std::to_string(length) + " where the pattern has " + axis.name);
    } else if (axis.name != "_") {
      entries.emplace_back(axis.name, length);
    }
    ++dim;
  }
  return ParsedShape(std::move(entries));
}

}  // namespace einops
