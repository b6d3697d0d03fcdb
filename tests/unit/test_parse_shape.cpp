// parse_shape: names in pattern order, `_`, `...`, unit and anonymous axes, the ParsedShape
// interface, and every misuse as an EinopsError.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "einops/parse_shape.hpp"
#include "einops/pattern.hpp"
#include "einops/pattern_checks.hpp"
#include "error_message.hpp"

using einops::EinopsError;
using einops::ParsedShape;
using einops::PatternErrorKind;
using einops::Shape;

namespace {

using einops_test::message_of;

constexpr PatternErrorKind shape_pattern_error(std::string_view pattern) {
  const auto parsed = einops::parse_expression(pattern, 0, einops::ExpressionOptions{true, false});
  if (!parsed.ok()) return parsed.error.kind;
  return einops::check_parse_shape_pattern(parsed.value).kind;
}
static_assert(shape_pattern_error("b _ h w") == PatternErrorKind::none);
static_assert(shape_pattern_error("_ _ ... (a) 1 () 3") == PatternErrorKind::none);
static_assert(shape_pattern_error("(a 1) b") == PatternErrorKind::none);  // 1 inside brackets is dropped
static_assert(shape_pattern_error("(a b) c") == PatternErrorKind::composite_axis);
static_assert(shape_pattern_error("a (...)") == PatternErrorKind::ellipsis_in_group);
static_assert(shape_pattern_error("a a") == PatternErrorKind::duplicate_axis);
static_assert(shape_pattern_error("_x") == PatternErrorKind::underscore_edges);

ParsedShape parse(const Shape& shape, const char* pattern) {
  return einops::parse_shape(shape, einops::runtime(pattern));
}

std::vector<ParsedShape::Entry> entries(const ParsedShape& parsed) { return {parsed.begin(), parsed.end()}; }

}  // namespace

TEST(ParseShape, EinopsDocExample) {
  const einops::Tensor<float> x({2, 3, 5, 7});
  const ParsedShape parsed = einops::parse_shape(x, "batch _ h w");
  EXPECT_EQ(entries(parsed), (std::vector<ParsedShape::Entry>{{"batch", 2}, {"h", 5}, {"w", 7}}));
  EXPECT_EQ(parsed["h"], 5);
  EXPECT_EQ(parsed.at("w"), 7);
  EXPECT_TRUE(parsed.contains("batch"));
  EXPECT_FALSE(parsed.contains("_"));
  EXPECT_EQ(parsed.size(), 3u);
  EXPECT_THROW(parsed["c"], EinopsError);
  // Usable as axis lengths, the way einops spreads it into keyword arguments.
  const einops::AxisLengths lengths = parsed;
  ASSERT_EQ(lengths.size(), 3u);
  EXPECT_EQ(lengths.entries()[1].first, "h");
  EXPECT_EQ(lengths.entries()[1].second, 5);
}

TEST(ParseShape, EllipsisUnitAnonymousAndGroups) {
  EXPECT_EQ(entries(parse({10, 20, 30, 40}, "a ... b")), (std::vector<ParsedShape::Entry>{{"a", 10}, {"b", 40}}));
  EXPECT_EQ(entries(parse({10, 40}, "a ... b")), (std::vector<ParsedShape::Entry>{{"a", 10}, {"b", 40}}));
  EXPECT_EQ(entries(parse({10}, "... a")), (std::vector<ParsedShape::Entry>{{"a", 10}}));
  EXPECT_TRUE(parse({}, "...").empty());
  EXPECT_TRUE(parse({}, "").empty());
  EXPECT_EQ(entries(parse({1, 2, 3, 4}, "1 2 3 a")), (std::vector<ParsedShape::Entry>{{"a", 4}}));
  EXPECT_EQ(entries(parse({10, 1, 2}, "a () 2")), (std::vector<ParsedShape::Entry>{{"a", 10}}));
  EXPECT_EQ(entries(parse({2, 1}, "(a 1) (1)")), (std::vector<ParsedShape::Entry>{{"a", 2}}));
  EXPECT_EQ(entries(parse({2, 3}, "(a) b")), (std::vector<ParsedShape::Entry>{{"a", 2}, {"b", 3}}));
  EXPECT_EQ(entries(parse({2, 3, 4, 5}, "_ Ωmega _ _")), (std::vector<ParsedShape::Entry>{{"Ωmega", 3}}));
  EXPECT_EQ(entries(parse({6, 5}, "dim   5   ...")), (std::vector<ParsedShape::Entry>{{"dim", 6}}));
}

TEST(ParseShape, KeepsPatternOrderNotAlphabetical) {
  const ParsedShape parsed = parse({2, 3, 4}, "z a m");
  EXPECT_EQ(entries(parsed), (std::vector<ParsedShape::Entry>{{"z", 2}, {"a", 3}, {"m", 4}}));
}

TEST(ParseShapeErrors, EveryMisuse) {
  const auto fails = [](const Shape& shape, const char* pattern, const char* reason) {
    const std::string message = message_of([&] { einops::parse_shape(shape, einops::runtime(pattern)); });
    EXPECT_NE(message.find("parse_shape pattern \"" + std::string(pattern) + "\""), std::string::npos) << message;
    EXPECT_NE(message.find(einops::detail::format_shape(shape)), std::string::npos) << message;
    EXPECT_NE(message.find(reason), std::string::npos) << pattern << ": " << message;
  };
  // einops' sentences, then where: the groups, or the dimension with its group and length.
  fails({1, 2, 3, 4}, "a b c",
        "Can't parse shape with different number of dimensions: a b c (1, 2, 3, 4) (groups: a, b, c)");
  fails({1}, "a ... b c", "Can't parse shape with this number of dimensions: a ... b c (1,) (groups: a, ..., b, c)");
  fails({1, 2, 3, 4}, "a b c ()", "Length of axis is not 1: a b c () (1, 2, 3, 4) (input dim 3, group (), length 4)");
  fails({2, 3, 3}, "p h 2",
        "Length of anonymous axis does not match: p h 2 (2, 3, 3) (input dim 2, group 2, length 3)");
  fails({7, 2, 2, 3}, "... (2) 2",
        "Length of anonymous axis does not match: ... (2) 2 (7, 2, 2, 3) (input dim 3, group 2, length 3)");
  fails({5, 12}, "5 (3 4)", "Can't parse shape with composite axes");
  fails({2, 3}, "(a ...) b", "Can't parse shape with composite axes");
  fails({2, 3}, "a (...)", "Ellipsis inside parenthesis");
  fails({4, 2, 2}, "ch r ch", "duplicate dimension");
  fails({2}, "_x", "should should not start or end with underscore");
  fails({2}, "1a", "not a valid python identifier");
  fails({2, 3}, "(a)) b", "Brackets are not balanced");
  fails({1, 1, 2}, "z 1 h ... ...", "only one ellipsis");
}
