// pack / unpack: the pattern grammar (at compile time too), round trips against a naive
// reference on random shapes, views, -1 inference, and every misuse as an EinopsError.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "einops/pack.hpp"
#include "einops/pattern.hpp"
#include "einops/pattern_checks.hpp"
#include "error_message.hpp"

using einops::AnyTensor;
using einops::PatternErrorKind;
using einops::Shape;
using einops::Tensor;

namespace {

using einops_test::message_of;

// ---- the pattern, in constant evaluation ----------------------------------------------------------

constexpr PatternErrorKind pack_error(std::string_view pattern) {
  return einops::parse_pack_pattern(pattern).error.kind;
}
constexpr std::size_t pack_error_position(std::string_view pattern) {
  return einops::parse_pack_pattern(pattern).error.position;
}
constexpr std::size_t axes_before(std::string_view pattern) {
  return einops::parse_pack_pattern(pattern).value.before.size();
}
constexpr std::size_t axes_after(std::string_view pattern) {
  return einops::parse_pack_pattern(pattern).value.after.size();
}

static_assert(pack_error("b * c") == PatternErrorKind::none);
static_assert(axes_before("b h * c") == 2 && axes_after("b h * c") == 1);
static_assert(axes_before("*") == 0 && axes_after("*") == 0);
static_assert(axes_before("a\t*\n b") == 1 && axes_after("a\t*\n b") == 1);  // any whitespace
static_assert(axes_before("a\xC2\xA0*") == 1);                               // U+00A0 is whitespace too
static_assert(pack_error("h h *") == PatternErrorKind::pack_duplicate_axis);
static_assert(pack_error_position("h h *") == 2);
static_assert(pack_error("* *") == PatternErrorKind::pack_duplicate_axis);  // einops: duplicates first
static_assert(pack_error("a b") == PatternErrorKind::pack_missing_star);
static_assert(pack_error("") == PatternErrorKind::pack_missing_star);
static_assert(pack_error("1h *") == PatternErrorKind::pack_invalid_axis);
static_assert(pack_error("_a *") == PatternErrorKind::pack_invalid_axis);
static_assert(pack_error("a_ *") == PatternErrorKind::pack_invalid_axis);
static_assert(pack_error("_ *") == PatternErrorKind::pack_invalid_axis);
static_assert(pack_error("... *") == PatternErrorKind::pack_invalid_axis);
static_assert(pack_error("(a) *") == PatternErrorKind::pack_invalid_axis);
static_assert(pack_error("2 *") == PatternErrorKind::pack_invalid_axis);
static_assert(pack_error_position("a * 1h") == 4);
static_assert(pack_error("ß é * Ωmega") == PatternErrorKind::none);
// The parser's reasons are the table's (one source for run-time and compile-time messages).
static_assert(std::string_view(einops::parse_pack_pattern("h h *").error.reason) ==
              einops::reason_text(PatternErrorKind::pack_duplicate_axis));
static_assert(std::string_view(einops::parse_pack_pattern("a b").error.reason) ==
              einops::reason_text(PatternErrorKind::pack_missing_star));
static_assert(std::string_view(einops::parse_pack_pattern("1 *").error.reason) ==
              einops::reason_text(PatternErrorKind::pack_invalid_axis));

// ---- helpers ---------------------------------------------------------------------------------------

/// A tensor of `shape` holding values derived from `seed` (distinct per tensor).
Tensor<std::int64_t> filled(const Shape& shape, std::int64_t seed) {
  Tensor<std::int64_t> t(shape);
  for (std::int64_t i = 0; i < t.size(); ++i) t.data()[i] = seed * 1000 + i;
  return t;
}

std::int64_t product(std::span<const std::int64_t> shape) {
  std::int64_t n = 1;
  for (std::int64_t length : shape) n *= length;
  return n;
}

/// The reference pack: the packed tensor element by element, from the definition.
std::vector<std::int64_t> reference_pack(const std::vector<Tensor<std::int64_t>>& xs, std::size_t before,
                                         std::size_t after, Shape& out_shape) {
  const auto first = xs.front().shape();
  const std::int64_t outer = product(first.subspan(0, before));
  const std::int64_t inner = product(first.subspan(first.size() - after));
  std::int64_t total = 0;
  for (const auto& x : xs) total += product(x.shape().subspan(before, x.rank() - before - after));
  out_shape.assign(first.begin(), first.begin() + static_cast<std::ptrdiff_t>(before));
  out_shape.push_back(total);
  out_shape.insert(out_shape.end(), first.end() - static_cast<std::ptrdiff_t>(after), first.end());
  std::vector<std::int64_t> out(static_cast<std::size_t>(outer * total * inner));
  std::int64_t start = 0;
  for (const auto& x : xs) {
    const std::int64_t part = product(x.shape().subspan(before, x.rank() - before - after));
    const auto values = x.to_vector();
    for (std::int64_t o = 0; o < outer; ++o)
      for (std::int64_t p = 0; p < part; ++p)
        for (std::int64_t i = 0; i < inner; ++i)
          out[static_cast<std::size_t>((o * total + start + p) * inner + i)] =
              values[static_cast<std::size_t>((o * part + p) * inner + i)];
    start += part;
  }
  return out;
}

}  // namespace

// ---- results -------------------------------------------------------------------------------------

TEST(Pack, EinopsDocExample) {
  const std::vector<Tensor<float>> inputs = {Tensor<float>({2, 3, 5}), Tensor<float>({2, 3, 7, 5}),
                                             Tensor<float>({2, 3, 7, 9, 5})};
  auto [packed, packed_shapes] = einops::pack(inputs, "i j * k");
  EXPECT_EQ(Shape(packed.shape().begin(), packed.shape().end()), (Shape{2, 3, 71, 5}));
  EXPECT_EQ(packed_shapes, (std::vector<Shape>{{}, {7}, {7, 9}}));
  const auto parts = einops::unpack(packed, packed_shapes, "i j * k");
  ASSERT_EQ(parts.size(), 3u);
  EXPECT_EQ(Shape(parts[2].shape().begin(), parts[2].shape().end()), (Shape{2, 3, 7, 9, 5}));
}

TEST(Pack, RoundTripOnRandomShapesMatchesReference) {
  std::mt19937 rng(7);
  const auto pick = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  const char* patterns[] = {"*", "a *", "* a", "a * b", "a b * c", "a * b c"};
  const std::size_t before_of[] = {0, 1, 0, 1, 2, 1};
  const std::size_t after_of[] = {0, 0, 1, 1, 1, 2};
  for (int trial = 0; trial < 200; ++trial) {
    const int which = pick(0, 5);
    const std::size_t before = before_of[which], after = after_of[which];
    Shape outer, inner;
    for (std::size_t d = 0; d < before; ++d) outer.push_back(pick(1, 3));
    for (std::size_t d = 0; d < after; ++d) inner.push_back(pick(1, 3));
    std::vector<Tensor<std::int64_t>> xs;
    const int count = pick(1, 4);
    for (int t = 0; t < count; ++t) {
      Shape shape = outer;
      const int packed_rank = pick(0, 3);
      for (int d = 0; d < packed_rank; ++d) shape.push_back(pick(0, 3));  // 0: an empty part
      shape.insert(shape.end(), inner.begin(), inner.end());
      xs.push_back(filled(shape, t + 1));
    }
    auto [packed, packed_shapes] = einops::pack(xs, einops::runtime(patterns[which]));
    Shape want_shape;
    const auto want = reference_pack(xs, before, after, want_shape);
    ASSERT_EQ(Shape(packed.shape().begin(), packed.shape().end()), want_shape) << patterns[which];
    ASSERT_EQ(packed.to_vector(), want) << patterns[which];
    const auto parts = einops::unpack(packed, packed_shapes, einops::runtime(patterns[which]));
    ASSERT_EQ(parts.size(), xs.size());
    for (std::size_t i = 0; i < xs.size(); ++i) {
      EXPECT_EQ(Shape(parts[i].shape().begin(), parts[i].shape().end()),
                Shape(xs[i].shape().begin(), xs[i].shape().end()));
      EXPECT_EQ(parts[i].to_vector(), xs[i].to_vector());
    }
  }
}

TEST(Pack, ZeroDimensionalInputsPackAsOneElement) {
  const std::vector<Tensor<double>> xs = {Tensor<double>({}, {4.0}), Tensor<double>({2}, {1.0, 2.0}),
                                          Tensor<double>({}, {9.0})};
  auto [packed, packed_shapes] = einops::pack(xs, "*");
  EXPECT_EQ(packed.to_vector(), (std::vector<double>{4.0, 1.0, 2.0, 9.0}));
  EXPECT_EQ(packed_shapes, (std::vector<Shape>{{}, {2}, {}}));
  const auto parts = einops::unpack(packed, packed_shapes, "*");
  EXPECT_EQ(parts[0].rank(), 0u);
  EXPECT_EQ(parts[2].to_vector(), std::vector<double>{9.0});
}

TEST(Pack, StridedInputsAreReadThroughTheirStrides) {
  std::vector<std::int32_t> memory = {0, 1, 2, 3, 4, 5};
  const einops::TensorView<std::int32_t> transposed(memory.data(), {3, 2}, {1, 3});     // [[0,3],[1,4],[2,5]]
  const einops::TensorView<std::int32_t> reversed(memory.data() + 5, {3, 1}, {-2, 1});  // [[5],[3],[1]]
  const std::vector<AnyTensor> xs = {transposed, reversed};
  auto [packed, packed_shapes] = einops::pack(xs, "a *");
  EXPECT_EQ(packed.as<std::int32_t>().to_vector(), (std::vector<std::int32_t>{0, 3, 5, 1, 4, 3, 2, 5, 1}));
  EXPECT_EQ(packed_shapes, (std::vector<Shape>{{2}, {1}}));
}

TEST(Pack, ZeroLengthSharedAxisPacks) {  // numpy's reshape(-1) refuses this; see docs/differences.md
  auto [packed, packed_shapes] = einops::pack({Tensor<float>({0, 2}), Tensor<float>({0, 3, 1})}, "a *");
  EXPECT_EQ(Shape(packed.shape().begin(), packed.shape().end()), (Shape{0, 5}));
  EXPECT_EQ(packed_shapes, (std::vector<Shape>{{2}, {3, 1}}));
  const auto parts = einops::unpack(packed, packed_shapes, "a *");
  EXPECT_EQ(Shape(parts[1].shape().begin(), parts[1].shape().end()), (Shape{0, 3, 1}));
}

TEST(Unpack, PartsAreViewsOfThePackedTensor) {
  Tensor<int> packed = Tensor<int>::arange({2, 5});
  const auto parts = einops::unpack(packed, {{2}, {3}}, "b *");
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_TRUE(parts[0].shares_storage_with(packed));
  EXPECT_TRUE(parts[1].shares_storage_with(packed));
  EXPECT_EQ(parts[1].to_vector(), (std::vector<int>{2, 3, 4, 7, 8, 9}));
  packed.at({1, 4}) = 100;  // writes through
  EXPECT_EQ(parts[1].at({1, 2}), 100);
}

TEST(Unpack, InfersOneMinusOne) {
  const Tensor<int> packed = Tensor<int>::arange({12, 2});
  const auto parts = einops::unpack(packed, {{2}, {-1, 3}, {1}}, "* c");
  EXPECT_EQ(Shape(parts[1].shape().begin(), parts[1].shape().end()), (Shape{3, 3, 2}));
  EXPECT_EQ(parts[2].to_vector(), (std::vector<int>{22, 23}));
  const auto empty_inferred = einops::unpack(packed, {{12}, {-1}}, "* c");
  EXPECT_EQ(Shape(empty_inferred[1].shape().begin(), empty_inferred[1].shape().end()), (Shape{0, 2}));
  EXPECT_TRUE(einops::unpack(packed, {}, "* c").empty());  // as einops: no shapes, no parts
}

TEST(Unpack, ViewOfCallerMemory) {
  std::vector<float> memory(10);
  for (std::size_t i = 0; i < memory.size(); ++i) memory[i] = static_cast<float>(i);
  const einops::TensorView<float> view(memory.data(), {2, 5});
  const auto parts = einops::unpack(view, {{4}, {1}}, "b *");
  EXPECT_EQ(parts[1].to_vector(), (std::vector<float>{4, 9}));
  EXPECT_EQ(parts[1].data(), memory.data() + 4);
}

// ---- errors --------------------------------------------------------------------------------------

TEST(PackErrors, NameOperationPatternShapesAndReason) {
  const Tensor<float> a({2, 3}), b({2, 4}), c({3, 3});
  const std::string rank = message_of([&] { einops::pack({a, b}, "x y * z"); });
  EXPECT_NE(rank.find("pack pattern \"x y * z\""), std::string::npos) << rank;
  EXPECT_NE(rank.find("(2, 3), (2, 4)"), std::string::npos) << rank;
  // einops' sentence, naming the pattern.
  EXPECT_NE(rank.find("packed tensor #0 (enumeration starts with 0) has shape (2, 3), while pattern x y * z assumes "
                      "at least 3 axes"),
            std::string::npos)
      << rank;

  // numpy's sentence (what einops users see), then the axis and where it is in each tensor.
  const std::string mismatch = message_of([&] { einops::pack({a, c}, "x *"); });
  EXPECT_NE(mismatch.find("all the input array dimensions except for the concatenation axis must match exactly, but "
                          "along dimension 0, the array at index 0 has size 2 and the array at index 1 has size 3 "
                          "(axis x: input dim 0 of tensor #0, input dim 0 of tensor #1)"),
            std::string::npos)
      << mismatch;
  // After '*' the dimensions of the flattened inputs count '*' as one; the tensors' own differ.
  const std::string after = message_of([&] { einops::pack({Tensor<float>({2, 5, 3}), Tensor<float>({4})}, "* z"); });
  EXPECT_NE(after.find("along dimension 1, the array at index 0 has size 3 and the array at index 1 has size 4 "
                       "(axis z: input dim 2 of tensor #0, input dim 0 of tensor #1)"),
            std::string::npos)
      << after;
  // Every tensor's rank is checked before any length, as einops reshapes them all first.
  const std::string order = message_of([&] { einops::pack({a, c, Tensor<float>({2})}, "x * y"); });
  EXPECT_NE(order.find("packed tensor #2"), std::string::npos) << order;

  const std::string dtype = message_of([&] { einops::pack({AnyTensor(a), AnyTensor(Tensor<double>({2, 3}))}, "x *"); });
  EXPECT_NE(dtype.find("one dtype"), std::string::npos) << dtype;

  const std::string empty = message_of([] { einops::pack(std::span<const AnyTensor>(), "*"); });
  EXPECT_NE(empty.find("at least one tensor"), std::string::npos) << empty;

  const std::string syntax = message_of([&] { einops::pack({a}, einops::runtime("x x *")); });
  EXPECT_NE(syntax.find("Duplicates in axes names in pack(..., \"x x *\")"), std::string::npos) << syntax;
  EXPECT_NE(syntax.find("\n     ^"), std::string::npos) << syntax;  // a caret under the second x
  EXPECT_NE(message_of([&] { einops::pack({a}, einops::runtime("x y")); }).find("No *-axis"), std::string::npos);
  EXPECT_NE(message_of([&] {
              einops::pack({a}, einops::runtime("x 1h *"));
            }).find("Invalid axis name 1h in pack(..., \"x 1h *\")"),
            std::string::npos);
}

TEST(UnpackErrors, EveryMisuse) {
  const Tensor<float> packed({5, 3});
  const auto fails = [&](const std::vector<Shape>& shapes, const char* pattern, const char* reason) {
    const std::string message = message_of([&] { einops::unpack(packed, shapes, einops::runtime(pattern)); });
    EXPECT_NE(message.find("unpack pattern"), std::string::npos) << message;
    EXPECT_NE(message.find("(5, 3)"), std::string::npos) << message;
    EXPECT_NE(message.find(reason), std::string::npos) << pattern << ": " << message;
  };
  fails({{2}, {3}}, "* c d", "rank");
  fails({{2}, {2}}, "* c",
        "Error during unpack(..., \"* c\"): could not split axis of size 5 into requested [[2], [2]] (input dim 0, "
        "group *)");
  fails({{2}, {2}}, "* c", "the parts add up to 4");
  fails({{2}, {-1}, {-1}}, "* c", "received more than one -1 in");
  fails({{-1, -1}}, "* c", "received more than one -1 in");
  fails({{2}, {-2}}, "* c", "negative length");
  fails({{2}, {-1, 2}}, "* c", "can't be inferred");
  fails({{5}, {-1, 0}}, "* c", "can't be inferred");
  // einops' overlapping-slices quirk: 2 + 4 > 5 leaves -1 standing for a negative length.
  fails({{2}, {-1}, {4}}, "* c", "nothing is left");
  fails({{2}}, "* *", "Duplicates in axes names");
}
