// The messages of EinopsErrors about a call (call_context.hpp).
#include "call_context.hpp"

#include <algorithm>

#include "einops/error.hpp"

namespace einops::detail {
namespace {

/// pack and einsum take a list of tensors: an empty one leaves no shape to name.
bool takes_tensor_list(std::string_view operation) { return operation == "pack" || operation == "einsum"; }

/// The line after the header: the input shape(s), the packed shapes, the given lengths.
std::string inputs_line(const CallContext& context) {
  std::string line;
  if (!context.inputs.empty()) {
    std::vector<Shape> shapes;
    for (const AnyTensor& input : context.inputs) shapes.emplace_back(input.shape().begin(), input.shape().end());
    line = input_shapes_line(shapes);
  } else if (context.list_input) {
    line = "Input is a list of tensors; the first has shape " + format_shape(context.shape) + ".";
  } else if (!takes_tensor_list(context.operation)) {
    line = input_shape_line(context.shape);
  }
  if (context.packed_shapes != nullptr) line += " Packed shapes: " + format_shapes(*context.packed_shapes) + ".";
  if (context.lengths != nullptr && !context.lengths->empty()) {
    line += " Additional info: {";
    bool first = true;
    for (const auto& [name, length] : context.lengths->entries()) {
      line += (first ? "" : ", ") + name + ": " + std::to_string(length);
      first = false;
    }
    line += "}.";
  }
  return line;
}

/// einops shows an ellipsis in the expressions it quotes as one character.
std::string with_ellipsis_character(std::string_view text) {
  std::string out;
  for (std::size_t at = 0; at < text.size();) {
    if (text.substr(at, 3) == "...") {
      out += "\u2026";
      at += 3;
    } else {
      out += text[at++];
    }
  }
  return out;
}

/// The side of an arrow pattern (as einops splits it at "->") that holds byte `position`.
std::string_view side_at(std::string_view pattern, std::size_t position) {
  const std::size_t arrow = pattern.find("->");
  if (arrow == std::string_view::npos) return pattern;
  return position < arrow ? pattern.substr(0, arrow) : pattern.substr(arrow + 2);
}

/// einops' sentence for a fault in the pattern, with the offending text where einops names it;
/// the reason in the library's words for faults einops has no sentence for.
std::string pattern_sentence(const CallContext& context, const PatternError& error) {
  const std::string_view pattern = context.pattern;
  const std::string token =
      with_ellipsis_character(pattern.substr(std::min(error.position, pattern.size()), error.length));
  const std::string quoted_pattern = "(..., \"" + std::string(pattern) + "\")";
  const std::string pack_call = std::string(context.operation == "unpack" ? "unpack" : "pack") + quoted_pattern;
  switch (error.kind) {
    case PatternErrorKind::unknown_character: return "Unknown character '" + token + "'";
    case PatternErrorKind::duplicate_axis: return "Indexing expression contains duplicate dimension \"" + token + "\"";
    case PatternErrorKind::invalid_identifier:
    case PatternErrorKind::underscore_edges: {  // "Invalid axis identifier: 2j\nnot a valid python identifier"
      const std::string_view reason = error.reason;
      const std::size_t colon = reason.find(": ") + 2;
      return std::string(reason.substr(0, colon)) + token + "\n" + std::string(reason.substr(colon));
    }
    case PatternErrorKind::unbalanced_open:
      return "Imbalanced parentheses in expression: \"" + with_ellipsis_character(side_at(pattern, error.position)) +
             "\"";
    case PatternErrorKind::ellipsis_right_only:
      return "Ellipsis found in right side, but not left side of a pattern " + std::string(pattern);
    case PatternErrorKind::ellipsis_parenthesized_left:
      return "Ellipsis inside parenthesis in the left side is not allowed: " + std::string(pattern);
    case PatternErrorKind::pack_duplicate_axis: return "Duplicates in axes names in " + pack_call;
    case PatternErrorKind::pack_missing_star: return "No *-axis in " + pack_call;
    case PatternErrorKind::pack_invalid_axis: return "Invalid axis name " + token + " in " + pack_call;
    case PatternErrorKind::composite_axis:
      return "Can't parse shape with composite axes: " + std::string(pattern) + " " + format_shape(context.shape);
    case PatternErrorKind::arrow_count:
      if (context.operation == "einsum") return "Einsum pattern must contain '->'.";
      break;
    case PatternErrorKind::einsum_unit_axis: return "Singleton () axes are not yet supported in einsum.";
    case PatternErrorKind::einsum_composition: return "Shape rearrangement is not yet supported in einsum.";
    case PatternErrorKind::einsum_anonymous: return "Anonymous axes are not yet supported in einsum.";
    case PatternErrorKind::einsum_unknown_output_axis:
      return "Unknown axis " + token + " on right side of einsum " + std::string(pattern) + ".";
    case PatternErrorKind::einsum_too_many_axes:
      return "Too many axes in einsum. (The limit is " + std::to_string(kMaxEinsumNames) + " names.)";
    default: break;
  }
  std::string reason = error.reason;
  if (error.length > 0) reason += ": '" + printable(token) + "'";
  return reason;
}

}  // namespace

std::string length_name_sentence(const PatternError& error, std::string_view name) {
  switch (error.kind) {
    case PatternErrorKind::unused_length_name: return "Axis " + std::string(name) + " is not used in transform";
    case PatternErrorKind::invalid_length_name: return "('Invalid name for an axis', '" + std::string(name) + "')";
    default: return std::string(error.reason) + ": '" + std::string(name) + "'";
  }
}

std::string format_shapes(std::span<const Shape> shapes) {
  std::string out = "[";
  for (std::size_t i = 0; i < shapes.size(); ++i) out += (i ? ", " : "") + format_shape(shapes[i]);
  return out + "]";
}

void check_reduction_dtype(const Plan& plan, DType dtype, std::span<const std::int64_t> shape,
                           const AxisLengths& lengths) {
  if (!plan.reduction || !reduction_traits(*plan.reduction).floating_only || plan.reduced_axes.empty() ||
      is_floating(dtype))
    return;
  const std::string_view name = reduction_name(*plan.reduction);
  const CallContext context{.operation = name, .pattern = plan.pattern, .shape = shape, .lengths = &lengths};
  context.fail("reduce_" + std::string(name) + " is not available for non-floating tensors (dtype " +
               std::string(dtype_name(dtype)) + ")");
}

void CallContext::fail(const std::string& reason) const {
  throw_call_error(operation, pattern, inputs_line(*this), reason);
}

void CallContext::fail_syntax(const PatternError& error) const {
  std::string reason = pattern_sentence(*this, error);
  reason += "\n   " + printable(pattern) + "\n   " + caret_line(pattern, error.position);
  fail(reason);
}

}  // namespace einops::detail
