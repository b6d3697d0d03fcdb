// Fuzz target (a): the pattern parser alone, on arbitrary bytes.
//
// Every grammar entry point (arrow patterns, expressions with each option, pack and einsum
// patterns) and every shape-free check must return a value or a PatternError whose position lies
// inside the text. A pattern that parses must print back to text that parses to the same
// structure.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <einops/pattern.hpp>
#include <einops/pattern_checks.hpp>

#include "fuzz_check.hpp"

namespace {

using namespace einops;

void check_position(const PatternError& error, std::string_view text) {
  if (!error) return;
  FUZZ_REQUIRE(error.reason != nullptr && error.reason[0] != '\0', "an error without a reason");
  FUZZ_REQUIRE(error.position <= text.size(), "error position past the end of the pattern");
  FUZZ_REQUIRE(error.length <= text.size() - error.position, "error token past the end of the pattern");
}

/// The expression as text the parser reads back to the same structure.
std::string print(const Expression& expression) {
  std::string out;
  for (const Group& group : expression.groups) {
    if (!out.empty()) out += ' ';
    if (!group.parenthesized && group.axes.empty()) {
      out += '1';  // a unit axis written "1"
      continue;
    }
    if (group.parenthesized) out += '(';
    for (std::size_t i = 0; i < group.axes.size(); ++i) out.append(i ? " " : "").append(group.axes[i].name);
    if (group.parenthesized) out += ')';
  }
  return out;
}

/// Equal apart from byte positions.
bool same_structure(const Expression& a, const Expression& b) {
  if (a.groups.size() != b.groups.size() || a.has_ellipsis != b.has_ellipsis ||
      a.ellipsis_parenthesized != b.ellipsis_parenthesized ||
      a.has_non_unitary_anonymous != b.has_non_unitary_anonymous)
    return false;
  for (std::size_t g = 0; g < a.groups.size(); ++g) {
    const Group& x = a.groups[g];
    const Group& y = b.groups[g];
    if (x.parenthesized != y.parenthesized || x.axes.size() != y.axes.size()) return false;
    for (std::size_t i = 0; i < x.axes.size(); ++i)
      if (x.axes[i].kind != y.axes[i].kind || x.axes[i].name != y.axes[i].name || x.axes[i].length != y.axes[i].length)
        return false;
  }
  return true;
}

void check_expression(std::string_view text, ExpressionOptions options) {
  const ParseResult<Expression> parsed = parse_expression(text, 0, options);
  check_position(parsed.error, text);
  if (!parsed.ok()) return;
  const std::string printed = print(parsed.value);
  const ParseResult<Expression> again = parse_expression(printed, 0, options);
  FUZZ_REQUIRE(again.ok(), "the printed expression does not parse: '" + printed + "'");
  FUZZ_REQUIRE(same_structure(parsed.value, again.value),
               "the printed expression parses differently: '" + printed + "'");
  for (const Group& group : parsed.value.groups)
    for (const Axis& axis : group.axes) {
      FUZZ_REQUIRE(axis.position < text.size(), "axis position past the end");
      if (axis.kind == AxisKind::anonymous) FUZZ_REQUIRE(axis.length > 1, "anonymous axis of length <= 1");
    }
  if (options.allow_underscore) {
    check_position(check_parse_shape_pattern(parsed.value), text);
    check_position(check_shape_expression(parsed.value), text);
  }
}

void check_arrow(std::string_view text) {
  const ParseResult<ArrowPattern> parsed = parse_arrow_pattern(text);
  check_position(parsed.error, text);
  if (!parsed.ok()) return;
  const ArrowPattern& pattern = parsed.value;
  FUZZ_REQUIRE(text.substr(pattern.arrow_position, 2) == "->", "arrow position does not point at the arrow");
  const std::string printed = print(pattern.left) + " -> " + print(pattern.right);
  const ParseResult<ArrowPattern> again = parse_arrow_pattern(printed);
  FUZZ_REQUIRE(again.ok(), "the printed pattern does not parse: '" + printed + "'");
  FUZZ_REQUIRE(same_structure(pattern.left, again.value.left) && same_structure(pattern.right, again.value.right),
               "the printed pattern parses differently: '" + printed + "'");
  for (Operation operation : {Operation::rearrange, Operation::reduce, Operation::repeat}) {
    const PatternError error = check_arrow_pattern(pattern, operation);
    check_position(error, text);
    // The same verdict for the printed pattern: the checks do not depend on spelling.
    FUZZ_REQUIRE(error.kind == check_arrow_pattern(again.value, operation).kind,
                 "the checks disagree on a respelled pattern: '" + printed + "'");
  }
}

void check_pack(std::string_view text) {
  const ParseResult<PackPattern> parsed = parse_pack_pattern(text);
  check_position(parsed.error, text);
  if (!parsed.ok()) return;
  FUZZ_REQUIRE(parsed.value.min_rank() <= kMaxPatternAxes, "a pack pattern past the axis limit");
  FUZZ_REQUIRE(text.substr(parsed.value.star_position, 1) == "*", "star position does not point at '*'");
  for (const auto* side : {&parsed.value.before, &parsed.value.after})
    for (const Axis& axis : *side) FUZZ_REQUIRE(is_valid_axis_name(axis.name), "an invalid pack axis name");
}

void check_einsum(std::string_view text) {
  const ParseResult<EinsumPattern> parsed = parse_einsum_pattern(text);
  check_position(parsed.error, text);
  if (!parsed.ok()) return;
  FUZZ_REQUIRE(!parsed.value.inputs.empty() && parsed.value.inputs.size() <= kMaxPatternAxes,
               "einsum operand count out of range");
  check_position(check_einsum_pattern(parsed.value), text);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_arrow(text);
  check_expression(text, {});
  check_expression(text, {.allow_underscore = true});
  check_expression(text, {.allow_duplicates = true});
  check_pack(text);
  check_einsum(text);
  return 0;
}
