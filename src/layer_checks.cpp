// The checks of a layer's pattern when it is constructed (layer_checks.hpp).
#include "einops/detail/layer_checks.hpp"

#include <vector>

#include "einops/error.hpp"
#include "einops/pattern_checks.hpp"

namespace einops::detail {
namespace {

/// The names of the axis lengths a layer was given.
std::vector<std::string_view> length_names(const AxisLengths& lengths) {
  std::vector<std::string_view> names;
  for (const auto& entry : lengths.entries()) names.emplace_back(entry.first);
  return names;
}

/// Throws a layer's construction error: einops' header, the reason, a caret under a fault in the
/// pattern.
[[noreturn]] void fail_layer(std::string_view layer, const std::string& pattern, const PatternError& error) {
  std::string message = "Error while constructing " + std::string(layer) + "('" + pattern + "').\n " + error.reason;
  if (error.kind < PatternErrorKind::ellipsis_right_only || error.length > 0) {
    message += '\n';  // appended apart: GCC 12's -Wrestrict misfires on "\n" + a temporary string at -O3
    message += caret_line(pattern, error.position);
  }
  throw EinopsError(message);
}

}  // namespace

void check_layer_pattern(std::string_view layer, Operation operation, const std::string& pattern,
                         const AxisLengths& lengths) {
  const ParseResult<ArrowPattern> parsed = parse_arrow_pattern(pattern);
  PatternError error = parsed.error;
  if (!error) error = check_arrow_pattern(parsed.value, operation);
  if (!error)
    error = check_length_names(parsed.value, operation, length_names(lengths), operation == Operation::repeat);
  if (error) fail_layer(layer, pattern, error);
}

void check_shape_layer_pattern(const std::string& pattern, const AxisLengths& lengths) {
  const ParseResult<Expression> parsed = parse_expression(pattern, 0, ExpressionOptions{true, false});
  PatternError error = parsed.error;
  if (!error) error = check_shape_expression(parsed.value);
  if (!error) error = check_shape_length_names(parsed.value, length_names(lengths));
  if (error) fail_layer("CheckShape", pattern, error);
}

}  // namespace einops::detail
