// The checks of a layer's pattern when it is constructed (layer_checks.hpp).
#include "einops/detail/layer_checks.hpp"

#include <vector>

#include "einops/error.hpp"
#include "einops/pattern_checks.hpp"

namespace einops::detail {

void check_layer_pattern(std::string_view layer, Operation operation, const std::string& pattern,
                         const AxisLengths& lengths) {
  const ParseResult<ArrowPattern> parsed = parse_arrow_pattern(pattern);
  PatternError error = parsed.error;
  if (!error) error = check_arrow_pattern(parsed.value, operation);
  if (!error) {
    std::vector<std::string_view> names;
    for (const auto& entry : lengths.entries()) names.emplace_back(entry.first);
    error = check_length_names(parsed.value, operation, names, operation == Operation::repeat);
  }
  if (!error) return;
  std::string message = "Error while constructing " + std::string(layer) + "('" + pattern + "').\n " + error.reason;
  if (error.kind < PatternErrorKind::ellipsis_right_only || error.length > 0) {
    message += '\n';  // appended apart: GCC 12's -Wrestrict misfires on "\n" + a temporary string at -O3
    message += caret_line(pattern, error.position);
  }
  throw EinopsError(message);
}

}  // namespace einops::detail
