// What an error message names: the operation, the pattern, the input shape(s) and the given
// axis lengths. Every public operation builds one and hands it to the code that may fail.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "einops/pattern.hpp"
#include "einops/plan.hpp"

namespace einops::detail {

/// A syntax error's reason with the offending text quoted, then the pattern and a caret under the
/// fault: the same lines for every operation.
std::string syntax_reason(std::string_view pattern, const PatternError& error);

struct ErrorContext {
  std::string operation_label;  // "rearrange", "repeat", "sum", "mean", ...
  std::string_view pattern;
  std::span<const std::int64_t> shape;
  const AxisLengths& lengths;
  bool list_input = false;

  /// Throws EinopsError: header (operation, pattern, shape, lengths) then the reason.
  [[noreturn]] void fail(const std::string& reason) const;
  /// Throws EinopsError for a syntax error, with the pattern and a caret under the fault.
  [[noreturn]] void fail_syntax(const PatternError& error) const;
};

}  // namespace einops::detail
