// EinopsError messages: operation, pattern, input shape, given lengths, reason, and a caret line
// under the fault of a syntax error.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include <einops/einops.hpp>

#include "error_message.hpp"

namespace {

using einops::AxisLengths;
using einops::Tensor;
using einops_test::message_of;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// The column of the caret in the line that follows the line holding the pattern, in code points.
struct CaretCheck {
  bool found = false;
  std::size_t pattern_column = 0;  // column where the pattern starts on its line
  std::size_t caret_column = 0;
};

CaretCheck find_caret(const std::string& message, const std::string& pattern) {
  const auto lines = lines_of(message);
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) {
    const std::size_t at = lines[i].find(pattern);
    // The pattern line holds the pattern alone (after indentation), the next line the caret.
    if (at == std::string::npos || lines[i].substr(at) != pattern || lines[i].find_first_not_of(' ') != at) continue;
    const std::string& caret = lines[i + 1];
    if (caret.find('^') == std::string::npos || caret.find_first_not_of(" ^") != std::string::npos) continue;
    return {true, at, caret.find('^')};
  }
  return {};
}

const auto x234 = Tensor<float>::arange({2, 3, 4});

TEST(ErrorMessages, ShapeErrorNamesEverything) {
  const std::string message = message_of([] { (void)einops::rearrange(x234, "a (b c) d -> a b c d", {{"c", 2}}); });
  EXPECT_NE(message.find("rearrange"), std::string::npos) << message;
  EXPECT_NE(message.find("\"a (b c) d -> a b c d\""), std::string::npos) << message;
  EXPECT_NE(message.find("(2, 3, 4)"), std::string::npos) << message;
  EXPECT_NE(message.find("c: 2"), std::string::npos) << message;
  EXPECT_NE(message.find("can't divide axis of length 3 in chunks of 2"), std::string::npos) << message;
}

// Every error about lengths keeps einops' sentence first and unchanged, then says where: the input
// dimension, the group as the pattern writes it, and the numbers.
TEST(ErrorMessages, LengthErrorsNameTheDimensionAndGroup) {
  const Tensor<float> x({2, 3, 172});
  const char* indivisible = "Shape mismatch, can't divide axis of length 172 in chunks of 5 (input dim 2, group (h p))";
  EXPECT_NE(message_of([&] {
              (void)einops::rearrange(x, "b c (h p) -> b c h p", {{"p", 5}});
            }).find(indivisible),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              (void)einops::rearrange(x, einops::runtime("b c (h p) -> b c h p"), {{"p", 5}});
            }).find(indivisible),
            std::string::npos);
  // As written, spaces and all; after an ellipsis, dimensions count what it stands for.
  EXPECT_NE(message_of([&] {
              (void)einops::reduce(x, "... ( h  p ) -> ... h", "sum", {{"p", 5}});
            }).find("in chunks of 5 (input dim 2, group ( h  p ))"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              (void)einops::rearrange(x234, "a b c -> c b a", {{"b", 4}});
            }).find("Shape mismatch, 3 != 4 (input dim 1, group b)"),
            std::string::npos);
  EXPECT_TRUE(message_of([&] {
                (void)einops::rearrange(x234, "a b c->c b a", {{"c", 5}});
              })  // no space before the arrow
                  .ends_with("Shape mismatch, 4 != 5 (input dim 2, group c)"));
  EXPECT_NE(message_of([&] {
              (void)einops::reduce(x234, "a b (c 3) -> a b", "max");
            }).find("Shape mismatch, can't divide axis of length 4 in chunks of 3 (input dim 2, group (c 3))"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              (void)einops::rearrange(x234, "a b (c d) -> a b c d");
            }).find("Could not infer sizes for {'c', 'd'} (input dim 2, group (c d))"),
            std::string::npos);
  EXPECT_NE(message_of([&] {
              (void)einops::repeat(x234, "a b c -> a b c r", {{"r", 2}, {"z", 3}});
            }).find("Axis z is not used in transform (given z=3)"),
            std::string::npos);
}

TEST(ErrorMessages, ListInputsNameWhereTheyDiffer) {
  const std::vector<Tensor<float>> list{Tensor<float>({2, 3}), Tensor<float>({2, 4})};
  const std::string message = message_of([&] { (void)einops::rearrange(list, "l a b -> a l b"); });
  EXPECT_NE(message.find("tensor 0 is (2, 3) float32, tensor 1 is (2, 4) float32 (input dim 1: 3 != 4)"),
            std::string::npos)
      << message;
  const std::vector<Tensor<float>> ranks{Tensor<float>({2, 3}), Tensor<float>({2, 3, 1})};
  EXPECT_NE(message_of([&] { (void)einops::rearrange(ranks, "l a b -> a l b"); }).find("(rank 2 != 3)"),
            std::string::npos);
}

TEST(ErrorMessages, ReduceNamesTheReduction) {
  const std::string message =
      message_of([] { (void)einops::reduce(x234, einops::runtime("a b c -> a b c d"), "max"); });
  EXPECT_NE(message.find("max-reduction"), std::string::npos) << message;
  EXPECT_NE(message.find("(2, 3, 4)"), std::string::npos) << message;
  EXPECT_NE(message.find("Unexpected identifiers on the right side of reduce"), std::string::npos) << message;
  EXPECT_NE(message.find("{'d'}"), std::string::npos) << message;
}

TEST(ErrorMessages, RepeatNamesAllLengths) {
  const std::string message = message_of([] {
    (void)einops::repeat(x234, "a b c -> a b c r s", {{"r", 2}, {"h", 3}});
  });
  EXPECT_NE(message.find("repeat"), std::string::npos) << message;
  EXPECT_NE(message.find("r: 2, h: 3"), std::string::npos) << message;
  EXPECT_NE(message.find("{'s'}"), std::string::npos) << message;  // the new axis without a size
}

TEST(ErrorMessages, WrongRank) {
  const std::string message = message_of([] { (void)einops::rearrange(x234, "a b -> b a"); });
  EXPECT_NE(message.find("(2, 3, 4)"), std::string::npos) << message;
  EXPECT_NE(message.find("Wrong shape: expected 2 dims. Received 3-dim tensor. (groups: a, b)"), std::string::npos)
      << message;
  EXPECT_NE(message_of([] {
              (void)einops::rearrange(x234, "a (b c) d e ... -> a b c d e ...");
            }).find("Wrong shape: expected >=4 dims. Received 3-dim tensor. (groups: a, (b c), d, e, ...)"),
            std::string::npos);
  const Tensor<float> vector({5});
  const std::string one = message_of([&] { (void)einops::rearrange(vector, "a b -> b a"); });
  EXPECT_NE(one.find("(5,)"), std::string::npos) << one;  // 1-d shapes print like Python tuples
}

TEST(ErrorMessages, SyntaxErrorHasCaretUnderFault) {
  const std::string pattern = "a b c -> a b b";
  const std::string message = message_of([&] { (void)einops::rearrange(x234, pattern); });
  EXPECT_NE(message.find("Indexing expression contains duplicate dimension"), std::string::npos) << message;
  EXPECT_NE(message.find("(2, 3, 4)"), std::string::npos) << message;
  const CaretCheck caret = find_caret(message, pattern);
  ASSERT_TRUE(caret.found) << message;
  EXPECT_EQ(caret.caret_column - caret.pattern_column, 13u) << message;
}

TEST(ErrorMessages, CaretCountsCodePointsNotBytes) {
  // "ß" and "→" are multi-byte: the caret must sit under "→" (code point 4, byte 5).
  const std::string pattern = "ß a → -> a ß";
  const std::string message = message_of([&] { (void)einops::rearrange(Tensor<float>({2, 2}), pattern); });
  EXPECT_NE(message.find("Unknown character"), std::string::npos) << message;
  EXPECT_NE(message.find("'→'"), std::string::npos) << message;
  const CaretCheck caret = find_caret(message, pattern);
  ASSERT_TRUE(caret.found) << message;
  EXPECT_EQ(caret.caret_column - caret.pattern_column, 4u) << message;
  EXPECT_EQ(einops::detail::caret_line("ß a → a", 5), "    ^");
}

TEST(ErrorMessages, MissingArrowCaretAtEnd) {
  const std::string pattern = "a b c";
  const std::string message = message_of([&] { (void)einops::rearrange(x234, pattern); });
  EXPECT_NE(message.find("Pattern needs an arrow (->) between its two sides"), std::string::npos) << message;
  const CaretCheck caret = find_caret(message, pattern);
  ASSERT_TRUE(caret.found) << message;
  EXPECT_EQ(caret.caret_column - caret.pattern_column, pattern.size()) << message;
}

TEST(ErrorMessages, ControlCharactersKeepTheCaretAligned) {
  const std::string pattern = "a\tb c -> a b c";
  const std::string message = message_of([&] { (void)einops::rearrange(x234, pattern); });
  EXPECT_NE(message.find("Unknown character"), std::string::npos) << message;
  EXPECT_NE(message.find("a?b c -> a b c"), std::string::npos) << message;
  const CaretCheck caret = find_caret(message, "a?b c -> a b c");
  ASSERT_TRUE(caret.found) << message;
  EXPECT_EQ(caret.caret_column - caret.pattern_column, 1u) << message;
}

TEST(ErrorMessages, ListInputs) {
  const std::vector<Tensor<float>> xs{Tensor<float>({2, 3}), Tensor<float>({2, 3})};
  const std::string message = message_of([&] { (void)einops::rearrange(xs, "n a -> n a"); });
  EXPECT_NE(message.find("(2, 2, 3)"), std::string::npos) << message;  // the stacked shape
  const std::vector<Tensor<float>> mismatched{Tensor<float>({2, 3}), Tensor<float>({3, 2})};
  const std::string mismatch = message_of([&] { (void)einops::reduce(mismatched, "n a b -> a b", "sum"); });
  EXPECT_NE(mismatch.find("sum-reduction pattern \"n a b -> a b\""), std::string::npos) << mismatch;
  EXPECT_NE(mismatch.find("Input is a list of tensors"), std::string::npos) << mismatch;
  EXPECT_NE(mismatch.find("tensor 0 is (2, 3) float32, tensor 1 is (3, 2) float32"), std::string::npos) << mismatch;
}

TEST(ErrorMessages, UnknownReduction) {
  const std::string message = message_of([] { (void)einops::reduce(x234, "a b c -> a", "median"); });
  EXPECT_NE(message.find("Unknown reduction median"), std::string::npos) << message;
  EXPECT_NE(message.find("\"a b c -> a\""), std::string::npos) << message;
}

TEST(ErrorMessages, FormatShape) {
  EXPECT_EQ(einops::detail::format_shape(std::vector<std::int64_t>{}), "()");
  EXPECT_EQ(einops::detail::format_shape(std::vector<std::int64_t>{7}), "(7,)");
  EXPECT_EQ(einops::detail::format_shape(std::vector<std::int64_t>{2, 3, 4}), "(2, 3, 4)");
}

TEST(ErrorMessages, EinopsErrorIsInvalidArgument) {
  EXPECT_THROW((void)einops::rearrange(x234, einops::runtime("a b c -> a b")), std::invalid_argument);
}

}  // namespace
