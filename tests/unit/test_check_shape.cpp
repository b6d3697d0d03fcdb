// check_shape: every form of the pattern (names, `_`, anonymous lengths, units, compositions,
// `...`), the named lengths it returns, its compile-time rules, and messages that name every
// failing dimension with einops' sentence.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "einops/check_shape.hpp"
#include "einops/pattern.hpp"
#include "einops/pattern_checks.hpp"
#include "error_message.hpp"

using einops::AxisLengths;
using einops::EinopsError;
using einops::ParsedShape;
using einops::PatternErrorKind;
using einops::Shape;
using einops::Tensor;
using namespace einops::literals;

namespace {

using einops_test::message_of;

// ---- the pattern's rules, in constant evaluation ---------------------------------------------------

constexpr PatternErrorKind check_shape_error(std::string_view pattern) {
  const auto parsed = einops::parse_expression(pattern, 0, einops::ExpressionOptions{true, false});
  if (!parsed.ok()) return parsed.error.kind;
  return einops::check_shape_expression(parsed.value).kind;
}
static_assert(check_shape_error("b t (h p) 3 () 1 _ ...") == PatternErrorKind::none);
static_assert(check_shape_error("_ (_ 2) _") == PatternErrorKind::none);
static_assert(check_shape_error("b (... c)") == PatternErrorKind::ellipsis_in_group);
static_assert(check_shape_error("b b") == PatternErrorKind::duplicate_axis);
static_assert(check_shape_error("b (c") == PatternErrorKind::unbalanced_open);
static_assert(check_shape_error("b ((c))") == PatternErrorKind::nested_brackets);
static_assert(check_shape_error("b 0") == PatternErrorKind::anonymous_zero);
static_assert(check_shape_error("... ...") == PatternErrorKind::ellipsis_repeated);
static_assert(check_shape_error("b -> c") == PatternErrorKind::unknown_character);

constexpr PatternErrorKind names_error(std::string_view pattern, std::string_view name) {
  const auto parsed = einops::parse_expression(pattern, 0, einops::ExpressionOptions{true, false});
  const std::string_view names[] = {name};
  return einops::check_shape_length_names(parsed.value, names).kind;
}
static_assert(names_error("b (h p)", "p") == PatternErrorKind::none);
static_assert(names_error("b (h p)", "q") == PatternErrorKind::unused_length_name);
static_assert(names_error("b _", "_") == PatternErrorKind::invalid_length_name);
static_assert(einops::accepts_rank(einops::parse_expression("a ... b", 0, {true, false}).value, 2));
static_assert(!einops::accepts_rank(einops::parse_expression("a ... b", 0, {true, false}).value, 1));
static_assert(!einops::accepts_rank(einops::parse_expression("a (b c)", 0, {true, false}).value, 3));

std::vector<ParsedShape::Entry> entries(const ParsedShape& parsed) { return {parsed.begin(), parsed.end()}; }

ParsedShape check(const Shape& shape, const char* pattern, const AxisLengths& lengths = {}) {
  return einops::check_shape(shape, einops::runtime(pattern), lengths);
}

}  // namespace

// ---- shapes that hold --------------------------------------------------------------------------------

TEST(CheckShape, EinopsIssueExample) {
  const Tensor<float> x({2, 7, 4, 4, 3});
  const std::int64_t T = 7;
  const ParsedShape s = einops::check_shape(x, "b t h w c", "t"_ax = T, "c"_ax = 3);
  EXPECT_EQ(entries(s), (std::vector<ParsedShape::Entry>{{"b", 2}, {"t", 7}, {"h", 4}, {"w", 4}, {"c", 3}}));
  EXPECT_EQ(s["w"], 4);
  // The same with lengths as AxisLengths, and a run-time pattern.
  EXPECT_EQ(einops::check_shape(x, "b t h w c", {{"t", 7}, {"c", 3}}), s);
  EXPECT_EQ(einops::check_shape(x, std::string("b t h w c"), {{"t", 7}}), s);
}

TEST(CheckShape, CompositionsInferOneUnknown) {
  EXPECT_EQ(entries(check({2, 12}, "b (h p)", {{"p", 4}})),
            (std::vector<ParsedShape::Entry>{{"b", 2}, {"h", 3}, {"p", 4}}));
  EXPECT_EQ(entries(check({2, 12}, "b (h p)", {{"h", 3}, {"p", 4}})),
            (std::vector<ParsedShape::Entry>{{"b", 2}, {"h", 3}, {"p", 4}}));
  EXPECT_EQ(entries(check({2, 12}, "b (h 4)")), (std::vector<ParsedShape::Entry>{{"b", 2}, {"h", 3}}));
  EXPECT_EQ(entries(check({2, 12}, "b (_ 4)")), (std::vector<ParsedShape::Entry>{{"b", 2}}));
  EXPECT_EQ(entries(check({2, 12}, "b (2 3 2)")), (std::vector<ParsedShape::Entry>{{"b", 2}}));
  EXPECT_EQ(entries(check({0, 6}, "(b 2) (h)")), (std::vector<ParsedShape::Entry>{{"b", 0}, {"h", 6}}));
}

TEST(CheckShape, PlaceholdersUnitsAnonymousAndEllipsis) {
  EXPECT_EQ(entries(check({5, 1, 1, 3}, "_ 1 () 3")), (std::vector<ParsedShape::Entry>{}));
  EXPECT_EQ(entries(check({5, 6, 7, 3}, "b ... c")), (std::vector<ParsedShape::Entry>{{"b", 5}, {"c", 3}}));
  EXPECT_EQ(entries(check({5, 3}, "b ... c")), (std::vector<ParsedShape::Entry>{{"b", 5}, {"c", 3}}));
  EXPECT_EQ(entries(check({}, "...")), (std::vector<ParsedShape::Entry>{}));
  EXPECT_EQ(entries(check({}, "")), (std::vector<ParsedShape::Entry>{}));
  EXPECT_EQ(entries(check({4, 6}, "... (a 1 b)", {{"a", 2}})), (std::vector<ParsedShape::Entry>{{"a", 2}, {"b", 3}}));
}

TEST(CheckShape, EveryTensorOfTheLibrary) {
  const Tensor<double> x({2, 3});
  const einops::AnyTensor any(einops::DType::int8, {2, 3});
  const einops::TensorView<const double> view(x);
  EXPECT_EQ(einops::check_shape(x, "a b", "a"_ax = 2)["b"], 3);
  EXPECT_EQ(einops::check_shape(any, "a b", "b"_ax = 3)["a"], 2);
  EXPECT_EQ(einops::check_shape(view, "a 3", {})["a"], 2);
}

TEST(CheckShape, BindsLengthsForTheNextCall) {
  const Tensor<float> x = Tensor<float>::arange({2, 12});
  const ParsedShape s = einops::check_shape(x, "b (h p)", "p"_ax = 4);
  const Tensor<float> y = einops::rearrange(x, "b (h p) -> b h p", s);
  EXPECT_EQ(std::vector<std::int64_t>(y.shape().begin(), y.shape().end()), (std::vector<std::int64_t>{2, 3, 4}));
}

// ---- shapes that do not hold ---------------------------------------------------------------------------

TEST(CheckShapeErrors, NamesEveryFailingDimension) {
  const Tensor<float> x({2, 5, 4, 4, 4});
  const std::string message = message_of([&] { (void)einops::check_shape(x, "b t h w c", "t"_ax = 7, "c"_ax = 3); });
  EXPECT_EQ(message,
            "Error while processing check_shape pattern \"b t h w c\".\n"
            " Input tensor shape: (2, 5, 4, 4, 4). Additional info: {t: 7, c: 3}.\n"
            " Shape mismatch, 5 != 7 (input dim 1, group t)\n"
            " Shape mismatch, 4 != 3 (input dim 4, group c)");
}

TEST(CheckShapeErrors, EveryKindOfGroup) {
  const auto fails = [](const Shape& shape, const char* pattern, const AxisLengths& lengths, const char* reason) {
    const std::string message = message_of([&] { (void)check(shape, pattern, lengths); });
    EXPECT_NE(message.find(reason), std::string::npos) << pattern << ":\n" << message;
  };
  fails({2, 173}, "b (h p)", {{"p", 2}},
        "Shape mismatch, can't divide axis of length 173 in chunks of 2 (input dim 1, group (h p))");
  fails({2, 12}, "b (h p)", {{"h", 2}, {"p", 5}}, "Shape mismatch, 12 != 10 (input dim 1, group (h p))");
  fails({2, 12}, "b ( h   p )", {}, "Could not infer sizes for {'h', 'p'} (input dim 1, group ( h   p ))");
  fails({2, 12}, "b (h 0)", {}, "Anonymous axis should have positive length, not 0");
  fails({2, 12}, "b (h p)", {{"p", 0}},
        "can't divide axis of length 12 in chunks of 0 (division by zero) (input dim 1, group (h p))");
  fails({2, 4}, "b 3", {}, "Shape mismatch, 4 != 3 (input dim 1, group 3)");
  fails({2, 4}, "b ()", {}, "Shape mismatch, 4 != 1 (input dim 1, group ())");
  fails({2, 4}, "1 b", {}, "Shape mismatch, 2 != 1 (input dim 0, group 1)");
  fails({2, 4, 5}, "... (c 2)", {}, "can't divide axis of length 5 in chunks of 2 (input dim 2, group (c 2))");
  fails({2, 4}, "a b c", {}, "Wrong shape: expected 3 dims. Received 2-dim tensor. (groups: a, b, c)");
  fails({2}, "a ... b c", {}, "Wrong shape: expected >=3 dims. Received 1-dim tensor. (groups: a, ..., b, c)");
  fails({2, 4}, "a b", {{"q", 2}}, "Axis q is not used in transform (given q=2)");
  fails({2, 4}, "a b", {{"a", 2}, {"a", 2}}, "Axis length is given twice: 'a'");
  fails({2, 4}, "a _", {{"_", 2}}, "('Invalid name for an axis', '_') (given _=2)");
  fails({2, 4}, "a b", {{"a", -2}}, "negative length (-2)");
  fails({2, -4}, "a b", {}, "negative length (-4) in dimension 1");
  fails({2, 4}, "a (b", {}, "Imbalanced parentheses in expression: \"a (b\"\n   a (b\n     ^");
  fails({2, 4}, "a (b ...)", {}, "Ellipsis inside parenthesis is not allowed here");
  fails({2, 4}, "a b -> b a", {}, "Unknown character");
  fails({std::int64_t{1} << 40, 4}, "(a b c) d", {{"a", std::int64_t{1} << 31}, {"b", std::int64_t{1} << 31}, {"c", 4}},
        "overflow int64");
}

TEST(CheckShapeErrors, AlwaysAnEinopsError) {
  // Hostile text never crashes: every one is refused with an EinopsError.
  for (const char* pattern : {"(", ")", "((", "...(...)", "\xff", "a\tb", "_ _ _ (_ _)", "a..b"})
    EXPECT_THROW((void)check({2, 3}, pattern), EinopsError) << pattern;
  EXPECT_THROW((void)check({2, 3}, std::string(100000, '(').c_str()), EinopsError);
}

// ---- the tool's and the layers' entry: a run-time string ------------------------------------------------

TEST(CheckShape, RuntimeStringsAreCachedAndEqual) {
  for (int i = 0; i < 3; ++i) EXPECT_EQ(check({2, 3}, "a b")["b"], 3);
}
