// The constexpr pattern parser: every grammar rule, every error kind with its reason and position.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <string_view>

#include <einops/pattern.hpp>

namespace {

using einops::AxisKind;
using einops::Expression;
using einops::ExpressionOptions;
using einops::parse_arrow_pattern;
using einops::parse_expression;
using einops::PatternErrorKind;

// ---- constant evaluation ------------------------------------------------------------------------
// These helpers run the parser inside static_assert: if it stopped being constexpr-evaluable,
// this file would fail to compile.

constexpr int left_group_count(std::string_view pattern) {
  const auto parsed = parse_arrow_pattern(pattern);
  return parsed.ok() ? static_cast<int>(parsed.value.left.groups.size()) : -1;
}
constexpr int right_group_count(std::string_view pattern) {
  const auto parsed = parse_arrow_pattern(pattern);
  return parsed.ok() ? static_cast<int>(parsed.value.right.groups.size()) : -1;
}
constexpr PatternErrorKind error_kind(std::string_view pattern) { return parse_arrow_pattern(pattern).error.kind; }
constexpr std::size_t error_position(std::string_view pattern) { return parse_arrow_pattern(pattern).error.position; }
constexpr std::int64_t first_anonymous_length(std::string_view expression) {
  const auto parsed = parse_expression(expression);
  for (const auto& group : parsed.value.groups)
    for (const auto& axis : group.axes)
      if (axis.kind == AxisKind::anonymous) return axis.length;
  return -1;
}

static_assert(left_group_count("b c (h h2) (w w2) -> b (c h2 w2) h w") == 4);
static_assert(right_group_count("b c (h h2) (w w2) -> b (c h2 w2) h w") == 4);
static_assert(left_group_count("... -> ...") == 1);
static_assert(left_group_count("ß é Ω -> Ω é ß") == 3);
static_assert(left_group_count(" -> ") == 0);
static_assert(right_group_count("a -> a 1 () (1)") == 4);
static_assert(first_anonymous_length("a (b 17)") == 17);
static_assert(first_anonymous_length("4611686018427387904") == (std::int64_t{1} << 62));
static_assert(error_kind("a b -> a b") == PatternErrorKind::none);
static_assert(error_kind("a b") == PatternErrorKind::arrow_count);
static_assert(error_kind("a -> b -> c") == PatternErrorKind::arrow_repeated);
static_assert(error_kind("a -> a a") == PatternErrorKind::duplicate_axis);
static_assert(error_position("a -> a a") == 7);
static_assert(error_kind("(a (b)) -> a b") == PatternErrorKind::nested_brackets);
static_assert(error_kind("a.b -> a") == PatternErrorKind::dots_outside_ellipsis);
static_assert(error_kind("a -> a\xff") == PatternErrorKind::invalid_utf8);
static_assert(error_kind("a → b -> a b") == PatternErrorKind::unknown_character);
static_assert(error_position("a → b -> a b") == 2);
static_assert(error_kind("0 -> a") == PatternErrorKind::anonymous_zero);
static_assert(error_kind("99999999999999999999 -> a") == PatternErrorKind::anonymous_too_large);
static_assert(einops::is_valid_axis_name("a_b"));
static_assert(!einops::is_valid_axis_name("_a"));

// ---- run-time helpers ---------------------------------------------------------------------------

Expression parse_ok(std::string_view text, ExpressionOptions options = {}) {
  auto parsed = parse_expression(text, 0, options);
  EXPECT_TRUE(parsed.ok()) << "'" << text << "' failed: " << parsed.error.reason << " at " << parsed.error.position;
  return parsed.value;
}

/// Checks kind, reason, position and token length of the error `text` produces.
void expect_error(std::string_view text, PatternErrorKind kind, std::string_view reason, std::size_t position,
                  std::size_t length, ExpressionOptions options = {}) {
  SCOPED_TRACE(std::string("expression '") + std::string(text) + "'");
  const auto parsed = parse_expression(text, 0, options);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error.kind, kind);
  EXPECT_EQ(std::string_view(parsed.error.reason), reason);
  EXPECT_EQ(parsed.error.position, position);
  EXPECT_EQ(parsed.error.length, length);
}

std::vector<std::string> names(const Expression& e) {
  std::vector<std::string> out;
  for (const auto& group : e.groups)
    for (const auto& axis : group.axes) out.push_back(axis.name);
  return out;
}

constexpr std::string_view kNotIdentifier = "Invalid axis identifier: not a valid python identifier";
constexpr std::string_view kUnderscore =
    "Invalid axis identifier: axis name should should not start or end with underscore";

// ---- identifiers --------------------------------------------------------------------------------

TEST(PatternIdentifiers, NamesOfAnyLength) {
  const std::string long_name(200, 'q');
  for (const std::string& name :
       {std::string("a"), std::string("ab"), std::string("x1y2"), std::string("Batch"), long_name}) {
    const Expression e = parse_ok(name);
    ASSERT_EQ(e.groups.size(), 1u);
    ASSERT_EQ(e.groups[0].axes.size(), 1u);
    EXPECT_EQ(e.groups[0].axes[0].kind, AxisKind::named);
    EXPECT_EQ(e.groups[0].axes[0].name, name);
    EXPECT_FALSE(e.groups[0].parenthesized);
  }
}

TEST(PatternIdentifiers, Utf8Letters) {
  const Expression e = parse_ok("ß é Ω straße 軸 (αβ я)");
  EXPECT_EQ(names(e), (std::vector<std::string>{"ß", "é", "Ω", "straße", "軸", "αβ", "я"}));
  EXPECT_TRUE(e.contains("Ω"));
  EXPECT_FALSE(e.contains("ω"));
  // Positions are byte offsets: "ß" is two bytes, so "é" starts at byte 3.
  EXPECT_EQ(e.groups[1].axes[0].position, 3u);
}

TEST(PatternIdentifiers, UnderscoreRules) {
  EXPECT_EQ(names(parse_ok("a_b c__d")), (std::vector<std::string>{"a_b", "c__d"}));
  expect_error("_x", PatternErrorKind::underscore_edges, kUnderscore, 0, 2);
  expect_error("a x_", PatternErrorKind::underscore_edges, kUnderscore, 2, 2);
  expect_error("a _", PatternErrorKind::underscore_edges, kUnderscore, 2, 1);
  expect_error("__", PatternErrorKind::underscore_edges, kUnderscore, 0, 2, {.allow_underscore = true});
  expect_error("_x", PatternErrorKind::underscore_edges, kUnderscore, 0, 2, {.allow_underscore = true});
  // `_` is a placeholder where allowed, and may repeat.
  const Expression e = parse_ok("_ a _", {.allow_underscore = true});
  EXPECT_EQ(names(e), (std::vector<std::string>{"_", "a", "_"}));
}

TEST(PatternIdentifiers, InvalidIdentifiers) {
  expect_error("1a", PatternErrorKind::invalid_identifier, kNotIdentifier, 0, 2);
  expect_error("b 2x", PatternErrorKind::invalid_identifier, kNotIdentifier, 2, 2);
  // Dots glued to a name make one token that is not an identifier.
  expect_error("a...b", PatternErrorKind::invalid_identifier, kNotIdentifier, 0, 5);
  EXPECT_TRUE(einops::is_valid_axis_name("h2"));
  EXPECT_TRUE(einops::is_valid_axis_name("Ω"));
  EXPECT_FALSE(einops::is_valid_axis_name(""));
  EXPECT_FALSE(einops::is_valid_axis_name("x_"));
  EXPECT_FALSE(einops::is_valid_axis_name("2"));
  EXPECT_FALSE(einops::is_valid_axis_name("a b"));
}

// ---- anonymous and unit axes --------------------------------------------------------------------

TEST(PatternAnonymous, NumbersAreAnonymousAxes) {
  const Expression e = parse_ok("3 (a 12)");
  ASSERT_EQ(e.groups.size(), 2u);
  EXPECT_EQ(e.groups[0].axes[0].kind, AxisKind::anonymous);
  EXPECT_EQ(e.groups[0].axes[0].length, 3);
  EXPECT_EQ(e.groups[1].axes[1].kind, AxisKind::anonymous);
  EXPECT_EQ(e.groups[1].axes[1].length, 12);
  EXPECT_EQ(e.groups[1].axes[1].name, "12");
  EXPECT_EQ(e.groups[1].axes[1].position, 5u);
  EXPECT_TRUE(e.has_non_unitary_anonymous);
  // Two anonymous axes of the same length are not duplicates.
  EXPECT_EQ(parse_ok("2 2").groups.size(), 2u);
}

TEST(PatternAnonymous, UnitAxes) {
  // `1`, `01` and `()` are empty groups at top level; `1` inside brackets adds nothing.
  const Expression e = parse_ok("a 1 01 () (1) (b 1)");
  ASSERT_EQ(e.groups.size(), 6u);
  EXPECT_TRUE(e.groups[1].axes.empty());
  EXPECT_FALSE(e.groups[1].parenthesized);
  EXPECT_EQ(e.groups[1].position, 2u);
  EXPECT_TRUE(e.groups[2].axes.empty());
  EXPECT_FALSE(e.groups[2].parenthesized);
  EXPECT_TRUE(e.groups[3].axes.empty());
  EXPECT_TRUE(e.groups[3].parenthesized);
  EXPECT_EQ(e.groups[3].position, 7u);
  EXPECT_TRUE(e.groups[4].axes.empty());
  EXPECT_TRUE(e.groups[4].parenthesized);
  ASSERT_EQ(e.groups[5].axes.size(), 1u);
  EXPECT_EQ(e.groups[5].axes[0].name, "b");
  EXPECT_FALSE(e.has_non_unitary_anonymous);
}

TEST(PatternAnonymous, ZeroRefused) {
  constexpr std::string_view reason = "Anonymous axis should have positive length, not 0";
  expect_error("0", PatternErrorKind::anonymous_zero, reason, 0, 1);
  expect_error("a 00", PatternErrorKind::anonymous_zero, reason, 2, 2);
  expect_error("(a 000)", PatternErrorKind::anonymous_zero, reason, 3, 3);
}

TEST(PatternAnonymous, HugeRefused) {
  constexpr std::string_view reason = "Anonymous axis length is too large";
  const auto largest = parse_ok("4611686018427387904");  // 2^62 is the largest accepted
  EXPECT_EQ(largest.groups[0].axes[0].length, std::int64_t{1} << 62);
  expect_error("4611686018427387905", PatternErrorKind::anonymous_too_large, reason, 0, 19);
  expect_error("a 99999999999999999999999999", PatternErrorKind::anonymous_too_large, reason, 2, 26);
  // 2^62 followed by one more digit: the multiplication itself would overflow int64.
  expect_error("46116860184273879040", PatternErrorKind::anonymous_too_large, reason, 0, 20);
  expect_error("92233720368547758070", PatternErrorKind::anonymous_too_large, reason, 0, 20);
  // Leading zeros do not count towards the size.
  EXPECT_EQ(parse_ok("0000000000000000000000000007").groups[0].axes[0].length, 7);
}

// ---- brackets and ellipsis ----------------------------------------------------------------------

TEST(PatternBrackets, Composition) {
  const Expression e = parse_ok("b (h w) c");
  ASSERT_EQ(e.groups.size(), 3u);
  EXPECT_TRUE(e.groups[1].parenthesized);
  EXPECT_EQ(e.groups[1].position, 2u);
  EXPECT_EQ(names(e), (std::vector<std::string>{"b", "h", "w", "c"}));
  // Spaces are optional next to brackets.
  EXPECT_EQ(parse_ok("b(h w)c"), parse_arrow_pattern("b(h w)c -> a").value.left);
  EXPECT_EQ(names(parse_ok("b(h w)c")), (std::vector<std::string>{"b", "h", "w", "c"}));
}

TEST(PatternBrackets, Errors) {
  expect_error("(a (b))", PatternErrorKind::nested_brackets,
               "Axis composition is one-level (brackets inside brackets not allowed)", 3, 1);
  expect_error("a b)", PatternErrorKind::unbalanced_close, "Brackets are not balanced", 3, 1);
  expect_error(")", PatternErrorKind::unbalanced_close, "Brackets are not balanced", 0, 1);
  expect_error("(a b", PatternErrorKind::unbalanced_open, "Imbalanced parentheses in expression", 0, 1);
  expect_error("a (b c) (d", PatternErrorKind::unbalanced_open, "Imbalanced parentheses in expression", 8, 1);
}

TEST(PatternEllipsis, Accepted) {
  const Expression e = parse_ok("b ... c");
  EXPECT_TRUE(e.has_ellipsis);
  EXPECT_FALSE(e.ellipsis_parenthesized);
  ASSERT_EQ(e.groups.size(), 3u);
  EXPECT_TRUE(e.groups[1].is_bare_ellipsis());
  EXPECT_EQ(e.groups[1].axes[0].kind, AxisKind::ellipsis);
  EXPECT_EQ(e.groups[1].axes[0].position, 2u);

  const Expression inside = parse_ok("(b ...) c");
  EXPECT_TRUE(inside.has_ellipsis);
  EXPECT_TRUE(inside.ellipsis_parenthesized);
  EXPECT_FALSE(inside.groups[0].is_bare_ellipsis());
  EXPECT_TRUE(parse_ok("a(...)").ellipsis_parenthesized);
}

TEST(PatternEllipsis, Errors) {
  constexpr std::string_view stray = "Expression may contain dots only inside ellipsis (...)";
  constexpr std::string_view twice =
      "Expression may contain dots only inside ellipsis (...); only one ellipsis for tensor";
  expect_error("a.b", PatternErrorKind::dots_outside_ellipsis, stray, 1, 1);
  expect_error("a .. b", PatternErrorKind::dots_outside_ellipsis, stray, 2, 1);
  expect_error(".", PatternErrorKind::dots_outside_ellipsis, stray, 0, 1);
  expect_error("... a ...", PatternErrorKind::ellipsis_repeated, twice, 6, 1);
  expect_error("....", PatternErrorKind::ellipsis_repeated, twice, 3, 1);
  expect_error(". ...", PatternErrorKind::ellipsis_repeated, twice, 0, 1);
  expect_error("(...) b ...", PatternErrorKind::ellipsis_repeated, twice, 8, 1);
}

// ---- characters ---------------------------------------------------------------------------------

TEST(PatternCharacters, UnknownCharacters) {
  constexpr std::string_view reason = "Unknown character";
  expect_error("a\tb", PatternErrorKind::unknown_character, reason, 1, 1);
  expect_error("a 'b'", PatternErrorKind::unknown_character, reason, 2, 1);
  expect_error("a → b", PatternErrorKind::unknown_character, reason, 2, 3);  // U+2192: 3 bytes
  expect_error("a,b", PatternErrorKind::unknown_character, reason, 1, 1);
  expect_error("a-b", PatternErrorKind::unknown_character, reason, 1, 1);
  expect_error("a\nb", PatternErrorKind::unknown_character, reason, 1, 1);
}

TEST(PatternCharacters, InvalidUtf8) {
  constexpr std::string_view reason = "Invalid UTF-8 in pattern";
  expect_error("a \xff", PatternErrorKind::invalid_utf8, reason, 2, 1);
  expect_error("\xc3", PatternErrorKind::invalid_utf8, reason, 0, 1);            // truncated sequence
  expect_error("ab \xc3 c", PatternErrorKind::invalid_utf8, reason, 3, 1);       // bad continuation
  expect_error("\xc0\x80", PatternErrorKind::invalid_utf8, reason, 0, 1);        // overlong
  expect_error("x \xed\xa0\x80", PatternErrorKind::invalid_utf8, reason, 2, 1);  // surrogate
  expect_error("\x80", PatternErrorKind::invalid_utf8, reason, 0, 1);            // lone continuation
}

// ---- duplicates and limits ----------------------------------------------------------------------

TEST(PatternDuplicates, Refused) {
  constexpr std::string_view reason = "Indexing expression contains duplicate dimension";
  expect_error("a b a", PatternErrorKind::duplicate_axis, reason, 4, 1);
  expect_error("a (b a)", PatternErrorKind::duplicate_axis, reason, 5, 1);
  expect_error("(ab ab)", PatternErrorKind::duplicate_axis, reason, 4, 2);
  expect_error("Ω Ω", PatternErrorKind::duplicate_axis, reason, 3, 2);
}

TEST(PatternDuplicates, AllowedForEinsumOperands) {
  const Expression e = parse_ok("a b a", {.allow_duplicates = true});
  EXPECT_EQ(names(e), (std::vector<std::string>{"a", "b", "a"}));
}

std::string many_names(std::size_t count) {
  std::string out;
  for (std::size_t i = 0; i < count; ++i) out += (i ? " n" : "n") + std::to_string(i);
  return out;
}

TEST(PatternLimits, TooManyAxes) {
  ASSERT_EQ(einops::kMaxPatternAxes, 64u);
  EXPECT_EQ(parse_ok(many_names(64)).groups.size(), 64u);
  const std::string text = many_names(65);
  const std::size_t last = text.rfind(' ') + 1;
  expect_error(text, PatternErrorKind::too_many_axes, "Too many axes in one expression (the limit is 64)", last,
               text.size() - last);
  // Unit axes and the ellipsis count too.
  std::string units = "...";
  for (int i = 0; i < 64; ++i) units += " 1";
  const auto parsed = parse_expression(units);
  ASSERT_FALSE(parsed.ok());
  EXPECT_EQ(parsed.error.kind, PatternErrorKind::too_many_axes);
  EXPECT_EQ(parsed.error.position, units.size() - 1);
}

// ---- the arrow ----------------------------------------------------------------------------------

TEST(PatternArrow, Sides) {
  const auto parsed = parse_arrow_pattern("b (h w) -> (w h) b");
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed.value.arrow_position, 8u);
  EXPECT_EQ(names(parsed.value.left), (std::vector<std::string>{"b", "h", "w"}));
  EXPECT_EQ(names(parsed.value.right), (std::vector<std::string>{"w", "h", "b"}));
  // Positions on the right side are offsets in the whole pattern.
  EXPECT_EQ(parsed.value.right.groups[0].position, 11u);
  EXPECT_EQ(parsed.value.right.groups[1].axes[0].position, 17u);
  // No spaces needed around the arrow; empty sides are fine.
  EXPECT_TRUE(parse_arrow_pattern("a->a").ok());
  EXPECT_TRUE(parse_arrow_pattern("->").ok());
}

TEST(PatternArrow, MissingOrRepeated) {
  const auto missing = parse_arrow_pattern("a b");
  EXPECT_EQ(missing.error.kind, PatternErrorKind::arrow_count);
  EXPECT_EQ(std::string_view(missing.error.reason), "Pattern needs an arrow (->) between its two sides");
  EXPECT_EQ(missing.error.position, 3u);
  EXPECT_EQ(missing.error.length, 0u);

  const auto twice = parse_arrow_pattern("a -> b -> c");
  EXPECT_EQ(twice.error.kind, PatternErrorKind::arrow_repeated);
  EXPECT_EQ(std::string_view(twice.error.reason), "Pattern may contain the arrow (->) only once");
  EXPECT_EQ(twice.error.position, 7u);
  EXPECT_EQ(twice.error.length, 2u);

  // A lone '-' or '>' is just an unknown character.
  EXPECT_EQ(parse_arrow_pattern("a - > b").error.kind, PatternErrorKind::arrow_count);
  EXPECT_EQ(parse_arrow_pattern("a -> b-").error.kind, PatternErrorKind::unknown_character);
}

TEST(PatternArrow, ErrorPositionsAreInTheWholePattern) {
  const auto right = parse_arrow_pattern("a b -> a (b");
  EXPECT_EQ(right.error.kind, PatternErrorKind::unbalanced_open);
  EXPECT_EQ(right.error.position, 9u);
  const auto dup = parse_arrow_pattern("a b -> b b");
  EXPECT_EQ(dup.error.kind, PatternErrorKind::duplicate_axis);
  EXPECT_EQ(dup.error.position, 9u);
  // The left side is checked first.
  EXPECT_EQ(parse_arrow_pattern("a a -> b b").error.position, 2u);
  const auto dots = parse_arrow_pattern("a -> a.b");
  EXPECT_EQ(dots.error.kind, PatternErrorKind::dots_outside_ellipsis);
  EXPECT_EQ(dots.error.position, 6u);
}

TEST(PatternArrow, SameNameOnBothSidesIsNotADuplicate) {
  const auto parsed = parse_arrow_pattern("a b -> b a");
  ASSERT_TRUE(parsed.ok());
  EXPECT_TRUE(parsed.value.left.contains("a"));
  EXPECT_TRUE(parsed.value.right.contains("a"));
}

}  // namespace
