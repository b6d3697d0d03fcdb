// What can be wrong with a pattern: every error kind, its reason in words (written only here),
// and the limits that bound a pattern. The parser (pattern.hpp), the operation rules
// (pattern_checks.hpp), the plan and the compile-time diagnostics take their text from here.
#pragma once

#include <cstddef>
#include <cstdint>

namespace einops {

/// Most elementary axes one side of a pattern may name (the ellipsis counts as one). Keeps every
/// check linear in the pattern length and bounds the work for hostile input.
inline constexpr std::size_t kMaxPatternAxes = 64;

enum class PatternErrorKind : std::uint8_t {
  none,
  arrow_count,            // "->" missing
  arrow_repeated,         // "->" more than once
  dots_outside_ellipsis,  // a '.' that is not part of "..."
  ellipsis_repeated,      // more than one "..." on one side
  nested_brackets,
  unbalanced_close,
  unbalanced_open,
  unknown_character,
  invalid_utf8,
  duplicate_axis,
  invalid_identifier,
  underscore_edges,
  anonymous_zero,
  anonymous_too_large,
  too_many_axes,
  // Shape-free checks of a whole pattern for one operation (pattern_checks.hpp).
  ellipsis_right_only,
  ellipsis_parenthesized_left,
  anonymous_in_rearrange,
  identifier_one_side,
  repeat_left_identifier,
  repeat_missing_size,
  reduce_right_identifier,
  invalid_length_name,
  unused_length_name,
  duplicate_length_name,
  // pack/unpack, parse_shape and einsum (parse_pack_pattern, parse_einsum_pattern, pattern_checks.hpp).
  pack_duplicate_axis,
  pack_missing_star,
  pack_invalid_axis,
  composite_axis,
  ellipsis_in_group,
  einsum_unit_axis,
  einsum_composition,
  einsum_anonymous,
  einsum_unknown_output_axis,
  einsum_too_many_axes,
  einsum_too_many_operands,  // keep last: detail::pattern_is_invalid (pattern_arg.hpp) covers kinds up to here
};

/// A syntax error: a static reason and where in the pattern it is (byte offsets).
struct PatternError {
  PatternErrorKind kind = PatternErrorKind::none;
  const char* reason = "";
  std::size_t position = 0;
  std::size_t length = 0;  // bytes of the offending token; 0 points between characters
  constexpr explicit operator bool() const { return kind != PatternErrorKind::none; }
};

/// Most distinct axis names one einsum may use: einops maps them onto the 52 ASCII letters.
inline constexpr std::size_t kMaxEinsumNames = 52;
/// Most operands one einsum pattern may list (bounds the work for a hostile "a,a,a,...").
inline constexpr std::size_t kMaxEinsumOperands = kMaxPatternAxes;

namespace detail {

/// A message naming a limit, built from the limit's constant (so that no number is written twice).
template <std::size_t Size>
struct LimitReason {
  char text[Size]{};
};

/// `prefix`, the decimal `limit`, then `suffix`, as a constant.
template <std::size_t P, std::size_t S>
constexpr LimitReason<P + S + 20> limit_reason(const char (&prefix)[P], std::size_t limit, const char (&suffix)[S]) {
  LimitReason<P + S + 20> out;
  std::size_t n = 0;
  for (std::size_t i = 0; i + 1 < P; ++i) out.text[n++] = prefix[i];
  char digits[20]{};
  std::size_t count = 0;
  do {
    digits[count++] = static_cast<char>('0' + limit % 10);
    limit /= 10;
  } while (limit > 0);
  while (count > 0) out.text[n++] = digits[--count];
  for (std::size_t i = 0; i < S; ++i) out.text[n++] = suffix[i];  // with its terminating NUL
  return out;
}

inline constexpr auto kTooManyAxesReason =
    limit_reason("Too many axes in one expression (the limit is ", kMaxPatternAxes, ")");
inline constexpr auto kTooManyEinsumNamesReason =
    limit_reason("Too many axes in einsum (the limit is ", kMaxEinsumNames, " names)");
inline constexpr auto kTooManyOperandsReason =
    limit_reason("Too many operands in einsum (the limit is ", kMaxEinsumOperands, ")");

/// einops' sentence for an input whose rank a side of the pattern does not accept, written only
/// here: its two holes are the dimensions the side expects and the tensor's rank. The plan and
/// check_shape fill it at run time; a literal checked against a static rank fills it during
/// compilation, so both say "Wrong shape: expected 4 dims. Received 3-dim tensor.".
constexpr const char* wrong_rank_format(bool at_least) {
  return at_least ? "Wrong shape: expected >={} dims. Received {}-dim tensor."
                  : "Wrong shape: expected {} dims. Received {}-dim tensor.";
}

/// A reason whose holes are filled, as a constant: the text and its length. Room for the longest
/// format and two 20-digit values.
struct FilledReason {
  char text[96]{};
  std::size_t size = 0;
};

/// `format` with its "{}" holes replaced by `first`, then `second`, in decimal.
constexpr FilledReason fill_reason(const char* format, std::size_t first, std::size_t second) {
  FilledReason out;
  const std::size_t values[] = {first, second};
  std::size_t next = 0;
  for (const char* at = format; *at != '\0'; ++at) {
    if (at[0] != '{' || at[1] != '}' || next == 2) {
      out.text[out.size++] = *at;
      continue;
    }
    char digits[20]{};
    std::size_t count = 0;
    for (std::size_t value = values[next++]; count == 0 || value > 0; value /= 10)
      digits[count++] = static_cast<char>('0' + value % 10);
    while (count > 0) out.text[out.size++] = digits[--count];
    ++at;
  }
  return out;
}

constexpr FilledReason wrong_rank_reason_text(std::size_t expected, bool at_least, std::size_t rank) {
  return fill_reason(wrong_rank_format(at_least), expected, rank);
}

}  // namespace detail

/// The reason of every error kind, in words, written only here: the parser, the checks, the plan
/// and the compile-time diagnostics all take their text from this table.
constexpr const char* reason_text(PatternErrorKind kind) {
  switch (kind) {
    case PatternErrorKind::none: return "";
    case PatternErrorKind::arrow_count: return "Pattern needs an arrow (->) between its two sides";
    case PatternErrorKind::arrow_repeated: return "Pattern may contain the arrow (->) only once";
    case PatternErrorKind::dots_outside_ellipsis: return "Expression may contain dots only inside ellipsis (...)";
    case PatternErrorKind::ellipsis_repeated:
      return "Expression may contain dots only inside ellipsis (...); only one ellipsis for tensor";
    case PatternErrorKind::nested_brackets:
      return "Axis composition is one-level (brackets inside brackets not allowed)";
    case PatternErrorKind::unbalanced_close: return "Brackets are not balanced";
    case PatternErrorKind::unbalanced_open: return "Imbalanced parentheses in expression";
    case PatternErrorKind::unknown_character: return "Unknown character";
    case PatternErrorKind::invalid_utf8: return "Invalid UTF-8 in pattern";
    case PatternErrorKind::duplicate_axis: return "Indexing expression contains duplicate dimension";
    case PatternErrorKind::invalid_identifier: return "Invalid axis identifier: not a valid python identifier";
    case PatternErrorKind::underscore_edges:
      return "Invalid axis identifier: axis name should should not start or end with underscore";  // einops' words
    case PatternErrorKind::anonymous_zero: return "Anonymous axis should have positive length, not 0";
    case PatternErrorKind::anonymous_too_large: return "Anonymous axis length is too large";
    case PatternErrorKind::too_many_axes: return detail::kTooManyAxesReason.text;
    case PatternErrorKind::ellipsis_right_only: return "Ellipsis found in right side, but not left side of a pattern";
    case PatternErrorKind::ellipsis_parenthesized_left:
      return "Ellipsis inside parenthesis in the left side is not allowed";
    case PatternErrorKind::anonymous_in_rearrange:
      return "Non-unitary anonymous axes are not supported in rearrange (exception is length 1)";
    case PatternErrorKind::identifier_one_side: return "Identifiers only on one side of expression (should be on both)";
    case PatternErrorKind::repeat_left_identifier: return "Unexpected identifiers on the left side of repeat";
    case PatternErrorKind::repeat_missing_size: return "Specify sizes for new axes in repeat";
    case PatternErrorKind::reduce_right_identifier: return "Unexpected identifiers on the right side of reduce";
    case PatternErrorKind::invalid_length_name: return "Invalid name for an axis";
    case PatternErrorKind::unused_length_name: return "Axis is not used in transform";
    case PatternErrorKind::duplicate_length_name: return "Axis length is given twice";
    case PatternErrorKind::pack_duplicate_axis: return "Duplicates in axes names";
    case PatternErrorKind::pack_missing_star: return "No *-axis in pattern";
    case PatternErrorKind::pack_invalid_axis: return "Invalid axis name";
    case PatternErrorKind::composite_axis: return "Can't parse shape with composite axes";
    case PatternErrorKind::ellipsis_in_group: return "Ellipsis inside parenthesis is not allowed here";
    case PatternErrorKind::einsum_unit_axis: return "Singleton () axes are not supported in einsum";
    case PatternErrorKind::einsum_composition: return "Shape rearrangement is not supported in einsum";
    case PatternErrorKind::einsum_anonymous: return "Anonymous axes are not supported in einsum";
    case PatternErrorKind::einsum_unknown_output_axis: return "Unknown axis on right side of einsum";
    case PatternErrorKind::einsum_too_many_axes: return detail::kTooManyEinsumNamesReason.text;
    case PatternErrorKind::einsum_too_many_operands: return detail::kTooManyOperandsReason.text;
  }
  return "";
}

}  // namespace einops
