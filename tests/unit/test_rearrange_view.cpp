// rearrange_view on the built-in tensors: the result aliases the input (same data pointer, writes
// reach the input), its values are rearrange's, and a pattern that needs a copy throws EinopsError
// naming the axes that cannot be merged.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include <einops/einops.hpp>
#include "error_message.hpp"

namespace {

using einops::AnyTensor;
using einops::EinopsError;
using einops::Shape;
using einops::Tensor;
using einops::TensorView;
using einops_test::message_of;
using namespace einops::literals;

Shape shape_of(std::span<const std::int64_t> s) { return Shape(s.begin(), s.end()); }

std::vector<int> iota_buffer(std::size_t n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

TEST(RearrangeView, MergeSharesMemoryAndWritesReachTheInput) {
  const Tensor<float> x = Tensor<float>::arange({2, 3, 4});
  const Tensor<float> y = einops::rearrange_view(x, "b h w -> b (h w)");
  static_assert(std::is_same_v<std::remove_const_t<decltype(y)>, Tensor<float>>);
  EXPECT_EQ(y.data(), x.data());
  EXPECT_TRUE(y.shares_storage_with(x));
  EXPECT_EQ(shape_of(y.shape()), (Shape{2, 12}));
  EXPECT_EQ(shape_of(y.strides()), (Shape{12, 1}));
  y.at({1, 5}) = -7.0f;
  EXPECT_EQ(x.at({1, 1, 1}), -7.0f);
}

TEST(RearrangeView, SplitPermuteAndUnitAxesGiveRearrangesValues) {
  const Tensor<int> x = Tensor<int>::arange({6, 4});
  const auto split = einops::rearrange_view(x, "(h h2) w -> h2 w h", "h2"_ax = 2);
  EXPECT_EQ(split.data(), x.data());
  EXPECT_EQ(shape_of(split.shape()), (Shape{2, 4, 3}));
  EXPECT_EQ(shape_of(split.strides()), (Shape{4, 1, 8}));
  EXPECT_EQ(split.to_vector(), einops::rearrange(x, "(h h2) w -> h2 w h", {{"h2", 2}}).to_vector());

  const auto units = einops::rearrange_view(x, "h w -> 1 w () h", {});
  EXPECT_EQ(units.data(), x.data());
  EXPECT_EQ(shape_of(units.shape()), (Shape{1, 4, 1, 6}));
  EXPECT_EQ(units.to_vector(), einops::rearrange(x, "h w -> 1 w () h").to_vector());
}

TEST(RearrangeView, Ellipsis) {
  const Tensor<int> x = Tensor<int>::arange({2, 3, 4, 5});
  const auto merged = einops::rearrange_view(x, "b ... -> b (...)");
  EXPECT_EQ(merged.data(), x.data());
  EXPECT_EQ(shape_of(merged.shape()), (Shape{2, 60}));
  const auto moved = einops::rearrange_view(x, "b ... c -> c b ...");
  EXPECT_EQ(moved.data(), x.data());
  EXPECT_EQ(shape_of(moved.strides()), (Shape{1, 60, 20, 5}));
  EXPECT_EQ(moved.to_vector(), einops::rearrange(x, "b ... c -> c b ...").to_vector());
  // The ellipsis' dimensions are named by position when they cannot merge.
  const std::string message = message_of([&] { (void)einops::rearrange_view(moved, "c b ... -> c (... b)"); });
  EXPECT_NE(message.find("the ellipsis' dimension"), std::string::npos) << message;
}

TEST(RearrangeView, StridedInputsMergeWhereStridesContinue) {
  auto buffer = iota_buffer(64);
  // Every other element: shape (3, 4), strides (8, 2): a and b continue each other (8 == 2 * 4).
  const TensorView<int> every_other(buffer.data() + 1, {3, 4}, {8, 2});
  const TensorView<int> flat = einops::rearrange_view(every_other, "a b -> (a b)");
  EXPECT_EQ(flat.data(), every_other.data());
  EXPECT_EQ(shape_of(flat.strides()), (Shape{2}));
  EXPECT_EQ(flat.to_vector(), einops::rearrange(every_other, "a b -> (a b)").to_vector());
  flat.at({5}) = 1000;  // element (1, 1): buffer[1 + 8 + 2]
  EXPECT_EQ(buffer[11], 1000);

  // Rows with padding: strides (10, 2) leave gaps, so a and b cannot merge.
  const TensorView<int> padded(buffer.data(), {3, 4}, {10, 2});
  const std::string message = message_of([&] { (void)einops::rearrange_view(padded, "a b -> (a b)"); });
  EXPECT_NE(message.find("'a' and 'b'"), std::string::npos) << message;
  EXPECT_NE(message.find("(10, 2)"), std::string::npos) << message;
  EXPECT_NE(message.find("use rearrange"), std::string::npos) << message;
  // Splitting or permuting needs no merge: fine on any strides.
  EXPECT_EQ(einops::rearrange_view(padded, "a (b b2) -> b2 a b", {{"b2", 2}}).data(), padded.data());
}

TEST(RearrangeView, NegativeStrides) {
  auto buffer = iota_buffer(24);
  // Shape (2, 3, 4), every dimension reversed; index 0 is the last element of the buffer.
  const TensorView<const int> x(buffer.data() + 23, {2, 3, 4}, {-12, -4, -1});
  const TensorView<const int> y = einops::rearrange_view(x, "a b c -> (a b c)");
  EXPECT_EQ(y.data(), x.data());
  EXPECT_EQ(shape_of(y.strides()), (Shape{-1}));
  EXPECT_EQ(y.to_vector(), einops::rearrange(x, "a b c -> (a b c)").to_vector());
  const auto permuted = einops::rearrange_view(x, "a b c -> c (a b)");
  EXPECT_EQ(shape_of(permuted.strides()), (Shape{-1, -4}));
  EXPECT_EQ(permuted.to_vector(), einops::rearrange(x, "a b c -> c (a b)").to_vector());
}

TEST(RearrangeView, PermutedAxesDoNotMergeBack) {
  const Tensor<float> x = Tensor<float>::arange({2, 3, 4});
  const Tensor<float> t = einops::rearrange_view(x, "b h w -> w h b");
  EXPECT_EQ(t.data(), x.data());
  const std::string message = message_of([&] { (void)einops::rearrange_view(t, "w h b -> (w h) b"); });
  EXPECT_NE(message.find("'w' and 'h'"), std::string::npos) << message;
  EXPECT_NE(message.find("output dimension 0"), std::string::npos) << message;
  // The same merge in the order the memory has is a view.
  EXPECT_EQ(einops::rearrange_view(t, "w h b -> (b h) w").data(), x.data());
}

TEST(RearrangeView, AnyTensorAndEmptyTensors) {
  const AnyTensor x = Tensor<double>::arange({3, 2});
  const AnyTensor y = einops::rearrange_view(x, "a b -> b a");
  EXPECT_EQ(y.data(), x.data());
  EXPECT_EQ(y.dtype(), einops::DType::float64);
  const Tensor<int> empty(Shape{0, 3});
  const auto merged = einops::rearrange_view(empty, "a b -> (b a)");
  EXPECT_EQ(shape_of(merged.shape()), (Shape{0}));
}

TEST(RearrangeView, RearrangesChecksAndErrors) {
  const Tensor<float> x = Tensor<float>::arange({2, 3});
  EXPECT_THROW((void)einops::rearrange_view(x, std::string("a b -> a"), {}), EinopsError);
  EXPECT_THROW((void)einops::rearrange_view(x, "(a a2) b -> a a2 b", {{"a2", 4}}), EinopsError);
  EXPECT_THROW((void)einops::rearrange_view(x, "a b c -> a b c"), EinopsError);
}

}  // namespace
