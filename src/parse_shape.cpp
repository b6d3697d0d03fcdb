// parse_shape: reads a shape through a pattern (einops.parse_shape).
#include "einops/parse_shape.hpp"

#include <string>

#include "einops/error.hpp"
#include "call_context.hpp"
#include "operation_patterns.hpp"
#include "shape_reasons.hpp"

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
  // einops' sentences name the pattern and the shape; what follows says where.
  const auto pattern_and_shape = [&] { return std::string(pattern) + " " + detail::format_shape(shape); };
  if (!accepts_rank(*parsed, shape.size()))
    context.fail(std::string(parsed->has_ellipsis ? "Can't parse shape with this number of dimensions: "
                                                  : "Can't parse shape with different number of dimensions: ") +
                 pattern_and_shape() + detail::groups_location(pattern, groups));

  std::vector<ParsedShape::Entry> entries;
  std::size_t dim = 0;
  for (const Group& group : groups) {
    if (group.is_bare_ellipsis()) {
      dim += shape.size() - fixed;
      continue;
    }
    const std::int64_t length = shape[dim];
    const auto location = [&] {
      return detail::dimension_length_location(dim, detail::group_text(pattern, group), length);
    };
    if (group.axes.empty()) {
      if (length != 1) context.fail("Length of axis is not 1: " + pattern_and_shape() + location());
    } else if (const Axis& axis = group.axes.front(); axis.kind == AxisKind::anonymous) {
      if (length != axis.length)
        context.fail("Length of anonymous axis does not match: " + pattern_and_shape() + location());
    } else if (axis.name != "_") {
      entries.emplace_back(axis.name, length);
    }
    ++dim;
  }
  return ParsedShape(std::move(entries));
}

}  // namespace einops
