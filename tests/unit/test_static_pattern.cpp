// Compile-time facts of literal patterns: ranks known statically (the building block of the
// Eigen and xtensor adapters), literals known as such, and `"h2"_ax = 2` lengths.
#include <gtest/gtest.h>

#include <einops/einops.hpp>

namespace {

using namespace einops::literals;
using einops::static_pattern;

// Ranks of each side, known to the compiler.
static_assert(static_pattern<"b c h w -> b h w c">::fixed_input_dims() == 4);
static_assert(!static_pattern<"b c h w -> b h w c">::has_ellipsis());
static_assert(static_pattern<"b c h w -> b h w c">::output_rank<4>() == 4);
static_assert(static_pattern<"b c (h h2) (w w2) -> b (c h2 w2) h w">::output_rank<4>() == 4);
static_assert(static_pattern<"b c h w -> b (c h w)">::output_rank<4>() == 2);
static_assert(static_pattern<"b ... -> (...) b">::output_rank<1>() == 2);
static_assert(static_pattern<"b ... c -> c ... b">::output_rank<5>() == 5);
static_assert(static_pattern<"b ... c -> c (...) b">::output_rank<5>() == 3);
static_assert(static_pattern<"a b -> a b 1 ()">::output_rank<2>() == 4);
static_assert(static_pattern<"b ... -> b">::accepts_input_rank(1));
static_assert(!static_pattern<"b c ... -> b">::accepts_input_rank(1));
static_assert(!static_pattern<"b c -> b">::accepts_input_rank(3));
static_assert(decltype("a b -> b a"_pattern)::output_rank<2>() == 2);

// Literal pattern arguments are known as literals; run-time ones are not. Either is two words:
// a literal's parse is not carried into the call.
TEST(LiteralPatterns, LiteralsAreKnownAsLiterals) {
  const einops::rearrange_pattern<> literal = "b c h w -> b h w c";
  EXPECT_TRUE(literal.is_literal());
  EXPECT_TRUE(literal.ref().literal);
  const std::string text = "b c h w -> b h w c";
  const einops::rearrange_pattern<> from_string = text;
  EXPECT_FALSE(from_string.is_literal());
  const einops::rearrange_pattern<> explicit_runtime = einops::runtime(text);
  EXPECT_FALSE(explicit_runtime.ref().literal);
  EXPECT_EQ(literal.text(), from_string.text());
  static_assert(sizeof(einops::rearrange_pattern<>) <= 2 * sizeof(std::string_view));
}

TEST(LiteralPatterns, SameResultsAsRunTimeStrings) {
  const auto x = einops::Tensor<float>::arange({2, 3, 4, 6});
  const auto literal = einops::rearrange(x, "b c h (w w2) -> b (c w2) h w", {{"w2", 2}});
  const auto runtime = einops::rearrange(x, std::string("b c h (w w2) -> b (c w2) h w"), {{"w2", 2}});
  const auto visible = einops::rearrange(x, "b c h (w w2) -> b (c w2) h w", "w2"_ax = 2);
  EXPECT_EQ(literal.to_vector(), runtime.to_vector());
  EXPECT_EQ(literal.to_vector(), visible.to_vector());
  const auto tiled = einops::repeat(x, "b c h w -> b c h w r", "r"_ax = 2);
  EXPECT_EQ(tiled.shape(4), 2);
  const auto pooled = einops::reduce(x, "b c (h h2) w -> b c h w", "max", "h2"_ax = 2).as<float>();
  EXPECT_EQ(pooled.shape(2), 2);
}

TEST(LiteralPatterns, LiteralLengthsAreStillCheckedAgainstShapes) {
  const auto x = einops::Tensor<float>::arange({2, 6});
  EXPECT_THROW((void)einops::rearrange(x, "a (b c) -> a b c", "c"_ax = 4), einops::EinopsError);
  EXPECT_THROW((void)einops::rearrange(x, "a b c -> a b c"), einops::EinopsError);  // rank 2 vs 3
}

TEST(LiteralPatterns, LongLiteralsAreCheckedButParsedAtRunTime) {
  // More tokens than the compact form holds: still valid, still correct.
  const auto x = einops::Tensor<float>::arange({2, 3});
  const auto y = einops::rearrange(
      x, "a b -> a b 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1");
  EXPECT_EQ(y.rank(), 47u);
}

}  // namespace
