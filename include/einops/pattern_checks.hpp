// Shape-free checks of a parsed pattern for one operation.
//
// Everything here is constexpr: the same functions validate a literal during compilation and a
// run-time string in the plan, so both report the same reason in the same words. They are
// templates over the parsed form's name type (pattern.hpp): a literal's check passes names that
// view its text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "einops/pattern.hpp"

namespace einops {

enum class Operation : std::uint8_t { rearrange, reduce, repeat };

constexpr std::string_view operation_name(Operation operation) {
  switch (operation) {
    case Operation::rearrange: return "rearrange";
    case Operation::reduce: return "reduce";
    case Operation::repeat: return "repeat";
  }
  return "?";
}

namespace detail::checks {

template <class Name>
constexpr PatternError fault(PatternErrorKind kind, const BasicAxis<Name>& axis) {
  return PatternError{kind, reason_text(kind), axis.position, axis.kind == AxisKind::ellipsis ? 3 : axis.name.size()};
}

/// True when `axis` (a name or the ellipsis) also appears in `side`.
template <class Name>
constexpr bool appears_in(const BasicAxis<Name>& axis, const BasicExpression<Name>& side) {
  if (axis.kind == AxisKind::ellipsis) return side.has_ellipsis;
  if (axis.kind == AxisKind::anonymous) return false;  // anonymous axes are never shared
  return side.contains(axis.name);
}

/// The first axis of `side` that is missing from `other` (anonymous axes always are), or null.
/// Walked with pointers, as Expression::contains is, for a literal's constant evaluation.
template <class Name>
constexpr const BasicAxis<Name>* first_missing(const BasicExpression<Name>& side, const BasicExpression<Name>& other) {
  const BasicGroup<Name>* group = side.groups.data();
  for (const BasicGroup<Name>* groups_end = group + side.groups.size(); group != groups_end; ++group) {
    const BasicAxis<Name>* axis = group->axes.data();
    for (const BasicAxis<Name>* axes_end = axis + group->axes.size(); axis != axes_end; ++axis)
      if (!appears_in(*axis, other)) return axis;
  }
  return nullptr;
}

/// Each axis of `side` that `other` lacks, to `visit`, in the order einops lists them: names and
/// the ellipsis in pattern order, then every anonymous axis.
template <class Name, class Visit>
constexpr void for_each_missing(const BasicExpression<Name>& side, const BasicExpression<Name>& other, Visit& visit) {
  for (const auto& group : side.groups)
    for (const auto& axis : group.axes)
      if (axis.kind != AxisKind::anonymous && !appears_in(axis, other)) visit(axis);
  for (const auto& group : side.groups)
    for (const auto& axis : group.axes)
      if (axis.kind == AxisKind::anonymous) visit(axis);
}

template <class Name>
constexpr const BasicAxis<Name>* first_of_kind(const BasicExpression<Name>& side, AxisKind kind) {
  const BasicGroup<Name>* group = side.groups.data();
  for (const BasicGroup<Name>* groups_end = group + side.groups.size(); group != groups_end; ++group) {
    const BasicAxis<Name>* axis = group->axes.data();
    for (const BasicAxis<Name>* axes_end = axis + group->axes.size(); axis != axes_end; ++axis)
      if (axis->kind == kind) return axis;
  }
  return nullptr;
}

}  // namespace detail::checks

/// einops' checks of which identifiers may appear on which side, for `operation` (axis lengths
/// and shapes aside). The fault points at the first offending axis.
template <class Name>
constexpr PatternError check_arrow_pattern(const BasicArrowPattern<Name>& pattern, Operation operation) {
  using namespace detail::checks;
  const BasicExpression<Name>& left = pattern.left;
  const BasicExpression<Name>& right = pattern.right;
  if (!left.has_ellipsis && right.has_ellipsis)
    return fault(PatternErrorKind::ellipsis_right_only, *first_of_kind(right, AxisKind::ellipsis));
  if (left.has_ellipsis && left.ellipsis_parenthesized)
    return fault(PatternErrorKind::ellipsis_parenthesized_left, *first_of_kind(left, AxisKind::ellipsis));
  switch (operation) {
    case Operation::rearrange:
      if (const auto* anonymous = first_of_kind(left, AxisKind::anonymous))
        return fault(PatternErrorKind::anonymous_in_rearrange, *anonymous);
      if (const auto* anonymous = first_of_kind(right, AxisKind::anonymous))
        return fault(PatternErrorKind::anonymous_in_rearrange, *anonymous);
      if (const auto* missing = first_missing(left, right))
        return fault(PatternErrorKind::identifier_one_side, *missing);
      if (const auto* missing = first_missing(right, left))
        return fault(PatternErrorKind::identifier_one_side, *missing);
      break;
    case Operation::repeat:
      if (const auto* missing = first_missing(left, right))
        return fault(PatternErrorKind::repeat_left_identifier, *missing);
      break;
    case Operation::reduce:
      if (const auto* missing = first_missing(right, left))
        return fault(PatternErrorKind::reduce_right_identifier, *missing);
      break;
  }
  return {};
}

/// Every axis that makes `pattern` fail with `fault` (an identifier kind check_arrow_pattern
/// returned; the fault itself points at the first), to `visit`, in the order einops' message lists
/// them. Other kinds name no axes.
template <class Name, class Visit>
constexpr void for_each_one_sided_axis(const BasicArrowPattern<Name>& pattern, PatternErrorKind fault, Visit visit) {
  using detail::checks::for_each_missing;
  if (fault == PatternErrorKind::identifier_one_side || fault == PatternErrorKind::repeat_left_identifier)
    for_each_missing(pattern.left, pattern.right, visit);
  if (fault == PatternErrorKind::identifier_one_side || fault == PatternErrorKind::reduce_right_identifier)
    for_each_missing(pattern.right, pattern.left, visit);
}

namespace detail::checks {

/// The names of given axis lengths: valid, each one `used(name)` by the pattern, given once.
template <class Used>
constexpr PatternError check_given_names(std::span<const std::string_view> names, Used&& used) {
  for (std::size_t i = 0; i < names.size(); ++i) {
    const std::string_view name = names[i];
    if (!is_valid_axis_name(name))
      return PatternError{PatternErrorKind::invalid_length_name, reason_text(PatternErrorKind::invalid_length_name), 0,
                          0};
    if (!used(name))
      return PatternError{PatternErrorKind::unused_length_name, reason_text(PatternErrorKind::unused_length_name), 0,
                          0};
    for (std::size_t j = 0; j < i; ++j)
      if (names[j] == name)
        return PatternError{PatternErrorKind::duplicate_length_name,
                            reason_text(PatternErrorKind::duplicate_length_name), 0, 0};
  }
  return {};
}

}  // namespace detail::checks

/// Checks the names of the axis lengths a caller gives: valid, used in the pattern, given once.
/// For repeat, also that every new named axis gets a length (`names` is then the complete list).
template <class Name>
constexpr PatternError check_length_names(const BasicArrowPattern<Name>& pattern, Operation operation,
                                          std::span<const std::string_view> names, bool names_complete) {
  if (const PatternError error = detail::checks::check_given_names(
          names, [&](std::string_view name) { return pattern.left.contains(name) || pattern.right.contains(name); }))
    return error;
  if (operation == Operation::repeat && names_complete) {
    for (const auto& group : pattern.right.groups)
      for (const auto& axis : group.axes) {
        if (axis.kind != AxisKind::named || pattern.left.contains(axis.name)) continue;
        bool given = false;
        for (std::string_view name : names) given = given || name == axis.name;
        if (!given) return detail::checks::fault(PatternErrorKind::repeat_missing_size, axis);
      }
  }
  return {};
}

/// Dimensions of the left side other than the ellipsis: the exact input rank without an
/// ellipsis, the least one with it.
template <class Name>
constexpr std::size_t fixed_input_dims(const BasicArrowPattern<Name>& pattern) {
  return pattern.left.groups.size() - (pattern.left.has_ellipsis ? 1 : 0);
}

template <class Name>
constexpr bool accepts_input_rank(const BasicArrowPattern<Name>& pattern, std::size_t rank) {
  const std::size_t fixed = fixed_input_dims(pattern);
  return pattern.left.has_ellipsis ? rank >= fixed : rank == fixed;
}

/// The output rank for an input of `input_rank` dimensions (which accepts_input_rank must allow).
template <class Name>
constexpr std::size_t output_rank(const BasicArrowPattern<Name>& pattern, std::size_t input_rank) {
  const std::size_t ellipsis_dims = pattern.left.has_ellipsis ? input_rank - fixed_input_dims(pattern) : 0;
  std::size_t rank = 0;
  for (const auto& group : pattern.right.groups) rank += group.is_bare_ellipsis() ? ellipsis_dims : 1;
  return rank;
}

/// parse_shape's shape-free checks: every group is one axis (or empty), and the ellipsis stands
/// alone. Composite groups are reported first, as einops does.
template <class Name>
constexpr PatternError check_parse_shape_pattern(const BasicExpression<Name>& expression) {
  using namespace detail::checks;
  for (const auto& group : expression.groups)
    if (group.axes.size() > 1) return fault(PatternErrorKind::composite_axis, group.axes[1]);
  for (const auto& group : expression.groups)
    if (group.parenthesized && group.axes.size() == 1 && group.axes[0].kind == AxisKind::ellipsis)
      return fault(PatternErrorKind::ellipsis_in_group, group.axes[0]);
  return {};
}

/// check_shape's shape-free checks: the ellipsis stands alone (compositions, `_`, units and
/// anonymous lengths are all allowed).
template <class Name>
constexpr PatternError check_shape_expression(const BasicExpression<Name>& expression) {
  using namespace detail::checks;
  for (const auto& group : expression.groups)
    for (const auto& axis : group.axes)
      if (group.parenthesized && axis.kind == AxisKind::ellipsis)
        return fault(PatternErrorKind::ellipsis_in_group, axis);
  return {};
}

/// The names of the lengths a check_shape call gives: valid, named by the pattern (`_` is not a
/// name), given once.
template <class Name>
constexpr PatternError check_shape_length_names(const BasicExpression<Name>& expression,
                                                std::span<const std::string_view> names) {
  return detail::checks::check_given_names(names, [&](std::string_view name) { return expression.contains(name); });
}

/// Dimensions of an expression other than the ellipsis: the exact rank of a tensor it describes
/// without an ellipsis, the least one with it.
template <class Name>
constexpr std::size_t fixed_dims(const BasicExpression<Name>& expression) {
  return expression.groups.size() - (expression.has_ellipsis ? 1 : 0);
}

template <class Name>
constexpr bool accepts_rank(const BasicExpression<Name>& expression, std::size_t rank) {
  return expression.has_ellipsis ? rank >= fixed_dims(expression) : rank == fixed_dims(expression);
}

namespace detail::checks {

/// One einsum position: a bare ellipsis, or exactly one named axis (bracketed or not).
template <class Name>
constexpr PatternError check_einsum_group(const BasicGroup<Name>& group) {
  if (group.is_bare_ellipsis()) return {};
  if (group.axes.empty())
    return PatternError{PatternErrorKind::einsum_unit_axis, reason_text(PatternErrorKind::einsum_unit_axis),
                        group.position, 1};
  if (group.axes.size() > 1) return fault(PatternErrorKind::einsum_composition, group.axes[1]);
  const BasicAxis<Name>& axis = group.axes[0];
  if (axis.kind == AxisKind::ellipsis) return fault(PatternErrorKind::ellipsis_in_group, axis);
  if (axis.kind == AxisKind::anonymous) return fault(PatternErrorKind::einsum_anonymous, axis);
  return {};
}

}  // namespace detail::checks

/// einsum's shape-free checks, in einops' order: each operand's positions (no unit, composed or
/// anonymous axes; at most 52 distinct names), then the output's (each name once, and known from
/// an operand).
template <class Name>
constexpr PatternError check_einsum_pattern(const BasicEinsumPattern<Name>& pattern) {
  using namespace detail::checks;
  std::vector<std::string_view> names;
  for (const auto& input : pattern.inputs)
    for (const auto& group : input.groups) {
      if (PatternError error = check_einsum_group(group)) return error;
      if (group.is_bare_ellipsis()) continue;
      const BasicAxis<Name>& axis = group.axes[0];
      bool known = false;
      for (std::string_view name : names) known = known || name == axis.name;
      if (known) continue;
      if (names.size() == kMaxEinsumNames) return fault(PatternErrorKind::einsum_too_many_axes, axis);
      names.push_back(axis.name);
    }
  const std::vector<BasicGroup<Name>>& output = pattern.output.groups;
  for (std::size_t i = 0; i < output.size(); ++i) {
    if (PatternError error = check_einsum_group(output[i])) return error;
    if (output[i].is_bare_ellipsis()) continue;
    const BasicAxis<Name>& axis = output[i].axes[0];
    for (std::size_t j = 0; j < i; ++j)  // `_` passes the parser's duplicate check; einsum refuses it
      if (!output[j].is_bare_ellipsis() && output[j].axes[0].name == axis.name)
        return fault(PatternErrorKind::duplicate_axis, axis);
    bool known = false;
    for (std::string_view name : names) known = known || name == axis.name;
    if (!known) return fault(PatternErrorKind::einsum_unknown_output_axis, axis);
  }
  return {};
}

}  // namespace einops
