// EinMix's construction and decomposition (einmix_structure.hpp).
#include "einops/detail/einmix_structure.hpp"

#include <algorithm>
#include <cstddef>
#include <utility>

#include "einops/detail/layer_checks.hpp"
#include "einops/detail/platform.hpp"
#include "einops/error.hpp"
#include "einops/pattern.hpp"
#include "shape_reasons.hpp"

namespace einops::detail {
// In a namespace of their own: the core's detail namespace has helpers of the same names.
namespace einmix {
namespace {

constexpr std::string_view kEllipsisName = "\xE2\x80\xA6";  // einops' name of the ellipsis, "…"

[[noreturn]] void fail(std::string_view pattern, std::string_view weight_shape,
                       const std::optional<std::string>& bias_shape, const std::string& reason) {
  throw EinopsError("Error while constructing EinMix('" + std::string(pattern) + "', '" + std::string(weight_shape) +
                    "'" + (bias_shape ? ", '" + *bias_shape + "'" : std::string()) + ").\n " + reason);
}

/// The identifiers of an expression as einops' ParsedExpression.identifiers: names, and the
/// ellipsis as "…" (anonymous axes are reported separately).
std::vector<std::string> identifiers(const Expression& expression) {
  std::vector<std::string> names;
  for (const Group& group : expression.groups)
    for (const Axis& axis : group.axes) {
      if (axis.kind == AxisKind::named) names.push_back(axis.name);
      else if (axis.kind == AxisKind::ellipsis) names.emplace_back(kEllipsisName);
    }
  return names;
}

bool contains(const std::vector<std::string>& names, std::string_view name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string set_text(const std::vector<std::string>& names) { return detail::python_set(names); }

/// Every elementary axis in order, the ellipsis written "...".
std::string flat_names(const Expression& expression) {
  std::string text;
  for (const Group& group : expression.groups)
    for (const Axis& axis : group.axes) {
      if (!text.empty()) text += ' ';
      text += axis.name.view();  // "..." for the ellipsis
    }
  return text;
}

Expression parse_part(std::string_view text, std::string_view what, std::string_view pattern,
                      std::string_view weight_shape, const std::optional<std::string>& bias_shape) {
  ParseResult<Expression> parsed = parse_expression(text);
  if (!parsed.ok())
    fail(pattern, weight_shape, bias_shape,
         std::string(parsed.error.reason) + " in " + std::string(what) + " \"" + std::string(text) + "\"");
  return std::move(parsed.value);
}

}  // namespace
}  // namespace einmix

EinMixStructure einmix_structure(std::string_view pattern, std::string_view weight_shape,
                                 const std::optional<std::string>& bias_shape, const AxisLengths& lengths) {
  using namespace einmix;
  const std::size_t arrow = pattern.find("->");
  if (arrow == std::string_view::npos || pattern.find("->", arrow + 2) != std::string_view::npos)
    fail(pattern, weight_shape, bias_shape, "EinMix's pattern needs exactly one arrow (->)");
  const std::string_view left_text = pattern.substr(0, arrow);
  const std::string_view right_text = pattern.substr(arrow + 2);
  const Expression left = parse_part(left_text, "the left side", pattern, weight_shape, bias_shape);
  const Expression right = parse_part(right_text, "the right side", pattern, weight_shape, bias_shape);
  const Expression weight = parse_part(weight_shape, "the weight shape", pattern, weight_shape, bias_shape);
  const std::vector<std::string> left_ids = identifiers(left);
  const std::vector<std::string> right_ids = identifiers(right);
  const std::vector<std::string> weight_ids = identifiers(weight);

  std::vector<std::string> unknown;
  for (const std::string& name : right_ids)
    if (!contains(left_ids, name) && !contains(weight_ids, name)) unknown.push_back(name);
  for (const Group& group : right.groups)
    for (const Axis& axis : group.axes)
      if (axis.kind == AxisKind::anonymous) unknown.push_back(axis.name);  // each anonymous axis is a new identifier
  if (!unknown.empty())
    fail(pattern, weight_shape, bias_shape,
         "Unrecognized identifiers on the right side of EinMix " + set_text(unknown));
  if (weight.has_ellipsis)
    fail(pattern, weight_shape, bias_shape,
         "Ellipsis is not supported in weight, as its shape should be fully specified");
  if (left.has_ellipsis || right.has_ellipsis) {
    if (!(left.has_ellipsis && right.has_ellipsis))
      fail(pattern, weight_shape, bias_shape, "Ellipsis in EinMix should be on both sides, " + std::string(pattern));
    if (left.ellipsis_parenthesized)
      fail(pattern, weight_shape, bias_shape,
           "Ellipsis on left side can't be in parenthesis, got " + std::string(pattern));
  }
  if (left.has_non_unitary_anonymous || right.has_non_unitary_anonymous || weight.has_non_unitary_anonymous)
    fail(pattern, weight_shape, bias_shape, "Anonymous axes (numbers) are not allowed in EinMix");
  if (weight_shape.find_first_of("()") != std::string_view::npos)
    fail(pattern, weight_shape, bias_shape, "Parenthesis is not allowed in weight shape: " + std::string(weight_shape));

  EinMixStructure s;
  const auto not_elementary = [](const Group& group) { return group.axes.size() != 1; };
  if (std::any_of(left.groups.begin(), left.groups.end(), not_elementary)) {
    const std::string names = flat_names(left);
    s.pre_rearrange = std::string(left_text) + "-> " + names;
    for (const auto& [name, length] : lengths.entries())
      if (contains(left_ids, name)) s.pre_lengths.add(name, length);
  }
  if (std::any_of(right.groups.begin(), right.groups.end(), not_elementary) || right.ellipsis_parenthesized)
    s.post_rearrange = flat_names(right) + " ->" + std::string(right_text);

  const auto length_of = [&](std::string_view name) -> std::optional<std::int64_t> {
    for (const auto& [given, length] : lengths.entries())
      if (given == name) return length;
    return std::nullopt;
  };
  for (const std::string& name : weight_ids)
    if (!length_of(name))
      fail(pattern, weight_shape, bias_shape, "Dimension " + name + " of weight should be specified");
  std::vector<std::string> unused;
  for (const auto& entry : lengths.entries())
    if (!contains(left_ids, entry.first) && !contains(weight_ids, entry.first)) unused.push_back(entry.first);
  if (!unused.empty()) fail(pattern, weight_shape, bias_shape, "Axes " + set_text(unused) + " are not used in pattern");
  std::vector<std::string> redundant;
  for (const std::string& name : weight_ids)
    if (!contains(left_ids, name) && !contains(right_ids, name)) redundant.push_back(name);
  if (!redundant.empty())
    fail(pattern, weight_shape, bias_shape, "Weight axes " + set_text(redundant) + " are redundant");

  for (const std::string& name : weight_ids) {
    const std::int64_t length = *length_of(name);
    s.weight_shape.push_back(length);
    if (!contains(right_ids, name) && checked_mul(s.fan_in, length, s.fan_in))
      fail(pattern, weight_shape, bias_shape, "The weight's fan-in overflows int64");
  }

  if (bias_shape) {
    const Expression bias = parse_part(*bias_shape, "the bias shape", pattern, weight_shape, bias_shape);
    const std::vector<std::string> bias_ids = identifiers(bias);
    std::vector<std::string> absent, unsized;
    for (const std::string& name : bias_ids)
      if (!contains(right_ids, name)) absent.push_back(name);
    if (!absent.empty())
      fail(pattern, weight_shape, bias_shape, "Bias axes " + set_text(absent) + " not present in output");
    for (const std::string& name : bias_ids)
      if (!length_of(name)) unsized.push_back(name);
    if (!unsized.empty())
      fail(pattern, weight_shape, bias_shape, "Sizes not provided for bias axes " + set_text(unsized));
    std::vector<std::int64_t> shape;
    bool sized = false;
    for (const Group& group : right.groups)
      for (const Axis& axis : group.axes) {
        if (axis.kind == AxisKind::ellipsis) {
          if (sized)
            fail(pattern, weight_shape, bias_shape, "all bias dimensions should go after ellipsis in the output");
        } else if (contains(bias_ids, axis.name)) {
          shape.push_back(*length_of(axis.name));
          sized = true;
        } else {
          shape.push_back(1);
        }
      }
    s.bias_shape = std::move(shape);
  }

  // Single latin letters for the einsum, in sorted order of the identifiers, as einops does.
  std::vector<std::string> mapped;
  for (const auto* ids : {&left_ids, &right_ids, &weight_ids})
    for (const std::string& name : *ids)
      if (name != kEllipsisName && !contains(mapped, name)) mapped.push_back(name);
  std::sort(mapped.begin(), mapped.end());
  if (mapped.size() > 26)
    fail(pattern, weight_shape, bias_shape, "EinMix supports at most 26 distinct axes (one latin letter each)");
  const auto letters = [&](const Expression& expression) {
    std::string text;
    for (const Group& group : expression.groups)
      for (const Axis& axis : group.axes) {
        if (axis.kind == AxisKind::ellipsis) {
          text += "...";
        } else {
          const auto at = std::find(mapped.begin(), mapped.end(), axis.name) - mapped.begin();
          text += static_cast<char>('a' + at);
        }
      }
    return text;
  };
  s.einsum_pattern = letters(left) + "," + letters(weight) + "->" + letters(right);
  // einops makes its inner rearranges as Rearrange layers, which check their patterns when made.
  if (s.pre_rearrange) check_layer_pattern("Rearrange", Operation::rearrange, *s.pre_rearrange, s.pre_lengths);
  if (s.post_rearrange) check_layer_pattern("Rearrange", Operation::rearrange, *s.post_rearrange, {});
  return s;
}

std::string spaced_einsum_pattern(std::string_view compact) {
  std::string out;
  for (std::size_t i = 0; i < compact.size(); ++i) {
    if (compact.substr(i, 3) == "...") {
      out += out.empty() || out.back() == ' ' ? "..." : " ...";
      i += 2;
    } else if (compact[i] == ',') {
      out += ", ";
    } else if (compact.substr(i, 2) == "->") {
      out += " -> ";
      ++i;
    } else {
      if (!out.empty() && out.back() != ' ') out += ' ';
      out += compact[i];
    }
  }
  return out;
}

}  // namespace einops::detail
