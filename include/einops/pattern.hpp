// The pattern language: one constexpr parser for the whole grammar of einops 0.8 (docs/grammar.md).
//
// It runs unchanged in constant evaluation (for literal patterns) and at run time (for strings).
// It knows nothing about tensors or shapes: it turns text into Expressions, or into a PatternError
// that carries a static reason (usable in a compile-time diagnostic) and the byte position of
// the fault. Function names follow the grammar's rules.
//
// The parsed forms are templates over how an axis holds its name. The run time's (Axis,
// Expression, ArrowPattern, ...) own their names (AxisName) and outlive the text. A literal's
// check parses with names that view the text (BasicAxis<std::string_view>, ...): the text
// outlives that parse, and constant evaluation then allocates nothing per name, which was most of
// what a literal cost the compiler.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "einops/axis_name.hpp"
#include "einops/pattern_error.hpp"

namespace einops {

enum class AxisKind : std::uint8_t { named, anonymous, ellipsis };

/// One elementary axis as written: a name, an anonymous length such as `3`, or `...`. `Name` is
/// AxisName (owned) or std::string_view (viewing the parsed text).
template <class Name>
struct BasicAxis {
  AxisKind kind = AxisKind::named;
  Name name;                 // the identifier; the digits of an anonymous axis; "..." for ellipsis
  std::int64_t length = 0;   // anonymous axes only
  std::size_t position = 0;  // byte offset of the token in the whole pattern
  constexpr bool operator==(const BasicAxis&) const = default;
};

/// One top-level position of an expression: `a`, `(a b 2)`, `()`, `1` (empty axes) or `...`.
template <class Name>
struct BasicGroup {
  std::vector<BasicAxis<Name>> axes;
  bool parenthesized = false;
  std::size_t position = 0;
  constexpr bool is_bare_ellipsis() const {
    return !parenthesized && axes.size() == 1 && axes[0].kind == AxisKind::ellipsis;
  }
  constexpr bool operator==(const BasicGroup&) const = default;
};

/// One side of a pattern (or one einsum operand, one pack pattern, ...).
template <class Name>
struct BasicExpression {
  std::vector<BasicGroup<Name>> groups;
  bool has_ellipsis = false;
  bool ellipsis_parenthesized = false;
  bool has_non_unitary_anonymous = false;

  /// True when `name` is a named axis of this expression (ellipsis and anonymous axes never match).
  /// Walked with pointers: constant evaluation of a literal pays for every iterator call, and the
  /// parser and the checks call this for every axis.
  constexpr bool contains(std::string_view name) const {
    const BasicGroup<Name>* group = groups.data();
    for (const BasicGroup<Name>* groups_end = group + groups.size(); group != groups_end; ++group) {
      const BasicAxis<Name>* axis = group->axes.data();
      for (const BasicAxis<Name>* axes_end = axis + group->axes.size(); axis != axes_end; ++axis)
        if (axis->kind == AxisKind::named && std::string_view(axis->name) == name) return true;
    }
    return false;
  }
  constexpr bool operator==(const BasicExpression&) const = default;
};

using Axis = BasicAxis<AxisName>;
using Group = BasicGroup<AxisName>;
using Expression = BasicExpression<AxisName>;

struct ExpressionOptions {
  bool allow_underscore = false;  // `_` as a placeholder name (parse_shape)
  bool allow_duplicates = false;  // repeated names (einsum operands)
};

template <class T>
struct ParseResult {
  T value{};
  PatternError error{};
  constexpr bool ok() const { return !error; }
};

/// `left -> right` as used by rearrange, reduce and repeat.
template <class Name>
struct BasicArrowPattern {
  BasicExpression<Name> left;
  BasicExpression<Name> right;
  std::size_t arrow_position = 0;
  constexpr bool operator==(const BasicArrowPattern&) const = default;
};
using ArrowPattern = BasicArrowPattern<AxisName>;

namespace detail::grammar {

constexpr PatternError make_error(PatternErrorKind kind, std::size_t position, std::size_t length = 0) {
  return PatternError{kind, reason_text(kind), position, length};
}

/// A code point and the bytes it took; length 0 means malformed UTF-8.
struct CodePoint {
  char32_t value = 0;
  std::size_t length = 0;
};

constexpr CodePoint decode_utf8(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return {lead, 1};
  std::size_t length = 0;
  char32_t value = 0;
  if ((lead & 0xE0) == 0xC0) {
    length = 2;
    value = lead & 0x1F;
  } else if ((lead & 0xF0) == 0xE0) {
    length = 3;
    value = lead & 0x0F;
  } else if ((lead & 0xF8) == 0xF0) {
    length = 4;
    value = lead & 0x07;
  } else {
    return {};
  }
  if (at + length > text.size()) return {};
  for (std::size_t i = 1; i < length; ++i) {
    if ((byte(at + i) & 0xC0) != 0x80) return {};
    value = (value << 6) | (byte(at + i) & 0x3F);
  }
  constexpr char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
  if (value < smallest[length] || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return {};
  return {value, length};
}

constexpr bool is_ascii_digit(char32_t c) { return c >= '0' && c <= '9'; }
constexpr bool is_ascii_letter(char32_t c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }

/// Letters of the scripts people name axes in (Latin, Greek, Cyrillic, Armenian, Hebrew, Arabic,
/// Devanagari, kana, CJK, Hangul), standing in for Python's str.isalnum on non-ASCII text.
/// Punctuation, symbols and arrows (such as U+2192) are not letters. docs/grammar.md lists this.
constexpr bool is_unicode_letter(char32_t c) {
  struct Range {
    char32_t first, last;
  };
  constexpr Range letters[] = {
      {0xAA, 0xAA},   {0xB5, 0xB5},     {0xBA, 0xBA},     {0xC0, 0xD6},     {0xD8, 0xF6},     {0xF8, 0x2C1},
      {0x370, 0x374}, {0x376, 0x377},   {0x37B, 0x37D},   {0x37F, 0x37F},   {0x386, 0x386},   {0x388, 0x3FF},
      {0x400, 0x481}, {0x48A, 0x52F},   {0x531, 0x556},   {0x561, 0x587},   {0x5D0, 0x5EA},   {0x620, 0x64A},
      {0x904, 0x939}, {0x1E00, 0x1FBC}, {0x3041, 0x3096}, {0x30A1, 0x30FA}, {0x4E00, 0x9FFF}, {0xAC00, 0xD7A3},
  };
  for (const Range& range : letters)
    if (c >= range.first && c <= range.last) return true;
  return false;
}

constexpr bool is_identifier_char(char32_t c) {
  return is_ascii_letter(c) || is_ascii_digit(c) || c == '_' || is_unicode_letter(c);
}

/// string_view::find by index. GCC 12's constant evaluator cannot fold the null checks that
/// -fsanitize=undefined adds to char_traits::compare when the text is a template parameter object
/// (a pattern given as `rearrange<"...">`), so the parser never calls the library's find.
constexpr std::size_t find_text(std::string_view text, std::string_view needle, std::size_t from = 0) {
  if (needle.size() > text.size()) return std::string_view::npos;
  for (std::size_t at = from; at + needle.size() <= text.size(); ++at) {
    std::size_t matched = 0;
    while (matched < needle.size() && text[at + matched] == needle[matched]) ++matched;
    if (matched == needle.size()) return at;
  }
  return std::string_view::npos;
}
constexpr std::size_t find_text(std::string_view text, char needle, std::size_t from = 0) {
  for (std::size_t at = from; at < text.size(); ++at)
    if (text[at] == needle) return at;
  return std::string_view::npos;
}

/// Counts non-overlapping occurrences of `needle` in `text`.
constexpr std::size_t count_occurrences(std::string_view text, std::string_view needle) {
  std::size_t count = 0;
  for (std::size_t at = find_text(text, needle); at != std::string_view::npos;
       at = find_text(text, needle, at + needle.size()))
    ++count;
  return count;
}

/// ellipsis-rule: dots may appear only as one "..." per side (checked before tokens, as einops does).
constexpr PatternError check_dots(std::string_view text, std::size_t offset) {
  const std::size_t first_dot = find_text(text, '.');
  if (first_dot == std::string_view::npos) return {};
  const std::size_t ellipsis = find_text(text, "...");
  if (ellipsis == std::string_view::npos)
    return make_error(PatternErrorKind::dots_outside_ellipsis, offset + first_dot, 1);
  if (count_occurrences(text, "...") != 1 || count_occurrences(text, ".") != 3) {
    const std::size_t second = find_text(text, '.', ellipsis + 3);
    const std::size_t stray = second != std::string_view::npos ? second : first_dot;
    return make_error(PatternErrorKind::ellipsis_repeated, offset + stray, 1);
  }
  return {};
}

/// number-rule: ASCII digits; leading zeros allowed ("01" is 1). Values past 2^62 are refused.
constexpr bool is_number(std::string_view token) {
  if (token.empty()) return false;
  for (char c : token)
    if (!is_ascii_digit(static_cast<unsigned char>(c))) return false;
  return true;
}

/// identifier-rule: a Python identifier (no leading digit) made of identifier characters.
constexpr bool is_identifier(std::string_view token) {
  if (token.empty()) return false;
  for (std::size_t at = 0; at < token.size();) {
    const CodePoint cp = decode_utf8(token, at);
    if (cp.length == 0 || !is_identifier_char(cp.value)) return false;
    if (at == 0 && is_ascii_digit(cp.value)) return false;
    at += cp.length;
  }
  return true;
}

/// axis-name-rule: an identifier that neither starts nor ends with `_` (a lone `_` only where allowed).
/// Returns the reason a name is refused, or nullptr.
constexpr PatternErrorKind axis_name_problem(std::string_view name, bool allow_underscore) {
  if (name.empty() || !is_identifier(name)) return PatternErrorKind::invalid_identifier;
  if (name.front() == '_' || name.back() == '_') {
    if (allow_underscore && name == "_") return PatternErrorKind::none;
    return PatternErrorKind::underscore_edges;
  }
  return PatternErrorKind::none;
}

/// Builds the expression token by token; keeps einops' order of checks.
template <class Name>
struct ExpressionBuilder {
  using Axis = BasicAxis<Name>;
  using Group = BasicGroup<Name>;
  std::string_view text;
  std::size_t offset;
  ExpressionOptions options;
  BasicExpression<Name> expression{};
  Group* open_group = nullptr;  // set while inside brackets
  Group bracket{};
  std::size_t axis_count = 0;

  constexpr bool seen_name(std::string_view name) const {
    if (expression.contains(name)) return true;
    if (open_group != nullptr)
      for (const Axis& axis : bracket.axes)
        if (axis.kind == AxisKind::named && std::string_view(axis.name) == name) return true;
    return false;
  }

  // Takes an rvalue reference: GCC 12 rejects moving from a by-value std::string parameter in
  // constant evaluation.
  constexpr void append(Axis&& axis) {
    if (open_group != nullptr) {
      bracket.axes.push_back(static_cast<Axis&&>(axis));
    } else {
      Group& group = expression.groups.emplace_back();
      group.position = axis.position;
      group.axes.push_back(static_cast<Axis&&>(axis));
    }
  }

  /// axis-rule: one finished token.
  constexpr PatternError add_token(std::size_t begin, std::size_t end) {
    const std::string_view token = text.substr(begin, end - begin);
    const std::size_t position = offset + begin;
    if (++axis_count > kMaxPatternAxes) return make_error(PatternErrorKind::too_many_axes, position, token.size());
    if (token == "...") {
      expression.has_ellipsis = true;
      expression.ellipsis_parenthesized = open_group != nullptr;
      append(Axis{AxisKind::ellipsis, Name(std::string_view("...")), 0, position});
      return {};
    }
    if (is_number(token)) {
      std::int64_t value = 0;
      constexpr std::int64_t limit = std::int64_t{1} << 62;
      for (char c : token) {
        // Checked before multiplying, so value * 10 never overflows.
        if (value > limit / 10) value = limit + 1;
        else value = value * 10 + (c - '0');
        if (value > limit) return make_error(PatternErrorKind::anonymous_too_large, position, token.size());
      }
      if (value == 0) return make_error(PatternErrorKind::anonymous_zero, position, token.size());
      if (value == 1) {  // a unit axis: an empty group at top level, nothing inside brackets
        if (open_group == nullptr) {
          Group unit{};
          unit.position = position;
          expression.groups.push_back(static_cast<Group&&>(unit));
        }
        return {};
      }
      expression.has_non_unitary_anonymous = true;
      append(Axis{AxisKind::anonymous, Name(token), value, position});
      return {};
    }
    if (!(options.allow_underscore && token == "_") && !options.allow_duplicates && seen_name(token))
      return make_error(PatternErrorKind::duplicate_axis, position, token.size());
    if (const PatternErrorKind problem = axis_name_problem(token, options.allow_underscore);
        problem != PatternErrorKind::none)
      return make_error(problem, position, token.size());
    append(Axis{AxisKind::named, Name(token), 0, position});
    return {};
  }
};

}  // namespace detail::grammar

/// expression-rule: `text` is one side of a pattern; `offset` is where it starts in the whole
/// pattern (for error positions). With `Name` = std::string_view, the names view `text`.
template <class Name = AxisName>
constexpr ParseResult<BasicExpression<Name>> parse_expression(std::string_view text, std::size_t offset = 0,
                                                              ExpressionOptions options = {}) {
  using namespace detail::grammar;
  ParseResult<BasicExpression<Name>> result;
  if (PatternError error = check_dots(text, offset)) {
    result.error = error;
    return result;
  }
  ExpressionBuilder<Name> builder{text, offset, options};
  // Room for every group at once (each takes a character and a separator, and the axis limit
  // bounds their number), so that none is moved while the expression grows: constant evaluation
  // of a literal pays for each move.
  const std::size_t most_groups = text.size() / 2 + 1;
  builder.expression.groups.reserve(most_groups < kMaxPatternAxes + 1 ? most_groups : kMaxPatternAxes + 1);
  std::size_t token_begin = std::string_view::npos;
  std::size_t bracket_begin = 0;
  std::size_t bracket_axis_count = 0;  // axes counted when the open bracket was seen
  const auto finish_token = [&](std::size_t end) -> PatternError {
    if (token_begin == std::string_view::npos) return {};
    const std::size_t begin = token_begin;
    token_begin = std::string_view::npos;
    return builder.add_token(begin, end);
  };
  for (std::size_t at = 0; at < text.size();) {
    const char c = text[at];
    if (c == ' ' || c == '(' || c == ')') {
      if (PatternError error = finish_token(at)) {
        result.error = error;
        return result;
      }
      if (c == '(') {
        bracket_axis_count = builder.axis_count;
        if (builder.open_group != nullptr) {
          result.error = make_error(PatternErrorKind::nested_brackets, offset + at, 1);
          return result;
        }
        builder.bracket = BasicGroup<Name>{};
        builder.bracket.parenthesized = true;
        builder.bracket.position = offset + at;
        builder.open_group = &builder.bracket;
        bracket_begin = at;
      } else if (c == ')') {
        if (builder.open_group == nullptr) {
          result.error = make_error(PatternErrorKind::unbalanced_close, offset + at, 1);
          return result;
        }
        // An empty "()" is a dimension too: it counts, so a side never has more dimensions than the limit.
        if (builder.axis_count == bracket_axis_count && ++builder.axis_count > kMaxPatternAxes) {
          result.error = make_error(PatternErrorKind::too_many_axes, offset + bracket_begin, at + 1 - bracket_begin);
          return result;
        }
        builder.expression.groups.push_back(static_cast<BasicGroup<Name>&&>(builder.bracket));
        builder.open_group = nullptr;
      }
      ++at;
      continue;
    }
    if (c == '.') {  // check_dots guarantees this is the start of the one "..."
      if (token_begin == std::string_view::npos) token_begin = at;
      at += 3;
      continue;
    }
    const CodePoint cp = decode_utf8(text, at);
    if (cp.length == 0) {
      result.error = make_error(PatternErrorKind::invalid_utf8, offset + at, 1);
      return result;
    }
    if (!is_identifier_char(cp.value)) {
      result.error = make_error(PatternErrorKind::unknown_character, offset + at, cp.length);
      return result;
    }
    if (token_begin == std::string_view::npos) token_begin = at;
    at += cp.length;
  }
  if (builder.open_group != nullptr) {
    result.error = make_error(PatternErrorKind::unbalanced_open, offset + bracket_begin, 1);
    return result;
  }
  if (PatternError error = finish_token(text.size())) {
    result.error = error;
    return result;
  }
  result.value = static_cast<BasicExpression<Name>&&>(builder.expression);
  return result;
}

/// arrow-pattern-rule: exactly one "->" splitting the two expressions.
template <class Name = AxisName>
constexpr ParseResult<BasicArrowPattern<Name>> parse_arrow_pattern(std::string_view pattern) {
  using namespace detail::grammar;
  ParseResult<BasicArrowPattern<Name>> result;
  const std::size_t arrow = find_text(pattern, "->");
  if (arrow == std::string_view::npos) {
    result.error = make_error(PatternErrorKind::arrow_count, pattern.size(), 0);
    return result;
  }
  const std::size_t second = find_text(pattern, "->", arrow + 2);
  if (second != std::string_view::npos) {
    result.error = make_error(PatternErrorKind::arrow_repeated, second, 2);
    return result;
  }
  result.value.arrow_position = arrow;
  ParseResult<BasicExpression<Name>> left = parse_expression<Name>(pattern.substr(0, arrow), 0);
  if (!left.ok()) {
    result.error = left.error;
    return result;
  }
  ParseResult<BasicExpression<Name>> right = parse_expression<Name>(pattern.substr(arrow + 2), arrow + 2);
  if (!right.ok()) {
    result.error = right.error;
    return result;
  }
  result.value.left = static_cast<BasicExpression<Name>&&>(left.value);
  result.value.right = static_cast<BasicExpression<Name>&&>(right.value);
  return result;
}

/// True when `name` may be given as an axis length (a valid, non-underscore-edged identifier).
constexpr bool is_valid_axis_name(std::string_view name) {
  return detail::grammar::axis_name_problem(name, false) == PatternErrorKind::none;
}

/// A pack/unpack pattern such as `"b * c"`: the named axes before and after the one `*`.
template <class Name>
struct BasicPackPattern {
  std::vector<BasicAxis<Name>> before;
  std::vector<BasicAxis<Name>> after;
  std::size_t star_position = 0;
  constexpr std::size_t min_rank() const { return before.size() + after.size(); }
  constexpr bool operator==(const BasicPackPattern&) const = default;
};
using PackPattern = BasicPackPattern<AxisName>;

namespace detail::grammar {

/// Python's str.isspace, which str.split() splits on.
constexpr bool is_python_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

/// One whitespace-separated token of a pack pattern: byte range in the pattern.
struct Token {
  std::size_t begin = 0;
  std::size_t end = 0;
};

}  // namespace detail::grammar

/// pack-pattern-rule: einops' own mini-grammar for pack and unpack. Tokens are separated by any
/// whitespace; exactly one is `*`, the others are axis names, each once. No brackets, numbers or
/// ellipsis. Checks come in einops' order: duplicates (two `*` included), no `*`, invalid names.
/// With `Name` = std::string_view, the names view `pattern`.
template <class Name = AxisName>
constexpr ParseResult<BasicPackPattern<Name>> parse_pack_pattern(std::string_view pattern) {
  using namespace detail::grammar;
  ParseResult<BasicPackPattern<Name>> result;
  std::vector<Token> tokens;
  std::size_t token_begin = std::string_view::npos;
  for (std::size_t at = 0; at < pattern.size();) {
    const CodePoint cp = decode_utf8(pattern, at);
    const std::size_t step = cp.length == 0 ? 1 : cp.length;  // malformed bytes stay in the token
    if (cp.length != 0 && is_python_space(cp.value)) {
      if (token_begin != std::string_view::npos) tokens.push_back(Token{token_begin, at});
      token_begin = std::string_view::npos;
    } else if (token_begin == std::string_view::npos) {
      token_begin = at;
    }
    at += step;
  }
  if (token_begin != std::string_view::npos) tokens.push_back(Token{token_begin, pattern.size()});
  const auto text_of = [&](const Token& token) { return pattern.substr(token.begin, token.end - token.begin); };
  if (tokens.size() > kMaxPatternAxes) {
    const Token& extra = tokens[kMaxPatternAxes];
    result.error = make_error(PatternErrorKind::too_many_axes, extra.begin, extra.end - extra.begin);
    return result;
  }
  for (std::size_t i = 0; i < tokens.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (text_of(tokens[i]) == text_of(tokens[j])) {
        result.error =
            make_error(PatternErrorKind::pack_duplicate_axis, tokens[i].begin, tokens[i].end - tokens[i].begin);
        return result;
      }
  std::size_t star = tokens.size();
  for (std::size_t i = 0; i < tokens.size(); ++i)
    if (text_of(tokens[i]) == "*") star = i;
  if (star == tokens.size()) {
    result.error = make_error(PatternErrorKind::pack_missing_star, pattern.size(), 0);
    return result;
  }
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (i == star) continue;
    const std::string_view name = text_of(tokens[i]);
    if (!is_valid_axis_name(name)) {
      result.error = make_error(PatternErrorKind::pack_invalid_axis, tokens[i].begin, name.size());
      return result;
    }
    (i < star ? result.value.before : result.value.after)
        .push_back(BasicAxis<Name>{AxisKind::named, Name(name), 0, tokens[i].begin});
  }
  result.value.star_position = tokens[star].begin;
  return result;
}

/// An einsum pattern `a b, b c -> a c`: one expression per operand and the output.
template <class Name>
struct BasicEinsumPattern {
  std::vector<BasicExpression<Name>> inputs;
  BasicExpression<Name> output;
  std::size_t arrow_position = 0;
  constexpr bool operator==(const BasicEinsumPattern&) const = default;
};
using EinsumPattern = BasicEinsumPattern<AxisName>;

/// einsum-pattern-rule: `operand { "," operand } "->" expression`, exactly one "->". Operands allow
/// `_` and repeated names (traces, diagonals); the output allows `_` but no repeated name (that is
/// checked, with the rest of einsum's rules, by check_einsum_pattern in pattern_checks.hpp).
template <class Name = AxisName>
constexpr ParseResult<BasicEinsumPattern<Name>> parse_einsum_pattern(std::string_view pattern) {
  using namespace detail::grammar;
  ParseResult<BasicEinsumPattern<Name>> result;
  const std::size_t arrow = find_text(pattern, "->");
  if (arrow == std::string_view::npos) {
    result.error = make_error(PatternErrorKind::arrow_count, pattern.size(), 0);
    return result;
  }
  if (const std::size_t second = find_text(pattern, "->", arrow + 2); second != std::string_view::npos) {
    result.error = make_error(PatternErrorKind::arrow_repeated, second, 2);
    return result;
  }
  result.value.arrow_position = arrow;
  const std::string_view left = pattern.substr(0, arrow);
  for (std::size_t begin = 0;;) {
    const std::size_t comma = find_text(left, ',', begin);
    const std::size_t end = comma == std::string_view::npos ? left.size() : comma;
    if (result.value.inputs.size() == kMaxEinsumOperands) {
      result.error = make_error(PatternErrorKind::einsum_too_many_operands, begin, end - begin);
      return result;
    }
    ParseResult<BasicExpression<Name>> operand =
        parse_expression<Name>(left.substr(begin, end - begin), begin, ExpressionOptions{true, true});
    if (!operand.ok()) {
      result.error = operand.error;
      return result;
    }
    result.value.inputs.push_back(static_cast<BasicExpression<Name>&&>(operand.value));
    if (comma == std::string_view::npos) break;
    begin = comma + 1;
  }
  ParseResult<BasicExpression<Name>> output =
      parse_expression<Name>(pattern.substr(arrow + 2), arrow + 2, ExpressionOptions{true, false});
  if (!output.ok()) {
    result.error = output.error;
    return result;
  }
  result.value.output = static_cast<BasicExpression<Name>&&>(output.value);
  return result;
}

}  // namespace einops
