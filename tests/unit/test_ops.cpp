// rearrange / reduce / repeat on the built-in tensors: strided inputs, views, *_into outputs,
// dtypes and numpy's result-type rules, user reductions, list inputs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <span>
#include <vector>

#include <einops/einops.hpp>

namespace {

using einops::AnyTensor;
using einops::DType;
using einops::EinopsError;
using einops::Shape;
using einops::Tensor;
using einops::TensorView;

Shape shape_of(std::span<const std::int64_t> s) { return Shape(s.begin(), s.end()); }

std::vector<int> iota_buffer(std::size_t n) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

// ---- strided inputs -----------------------------------------------------------------------------

TEST(OpsStrided, NegativeStridesRearrange) {
  auto buffer = iota_buffer(24);
  // Shape (2, 3, 4), every dimension reversed; index 0 is the last element of the buffer.
  const TensorView<const int> x(buffer.data() + 23, {2, 3, 4}, {-12, -4, -1});
  const auto y = einops::rearrange(x, "a b c -> c (a b)");
  ASSERT_EQ(shape_of(y.shape()), (Shape{4, 6}));
  for (std::int64_t a = 0; a < 2; ++a)
    for (std::int64_t b = 0; b < 3; ++b)
      for (std::int64_t c = 0; c < 4; ++c) EXPECT_EQ(y.at({c, a * 3 + b}), x.at({a, b, c}));
}

TEST(OpsStrided, NegativeStridesReduceAndRepeat) {
  auto buffer = iota_buffer(12);
  const TensorView<const int> x(buffer.data() + 8, {3, 4}, {-4, 1});  // rows reversed
  const auto sums = einops::reduce(x, "a b -> a", "sum").as<std::int64_t>();
  EXPECT_EQ(sums.to_vector(), (std::vector<std::int64_t>{8 + 9 + 10 + 11, 4 + 5 + 6 + 7, 0 + 1 + 2 + 3}));
  const auto maxes = einops::reduce(x, "a b -> b", "max").as<int>();
  EXPECT_EQ(maxes.to_vector(), (std::vector<int>{8, 9, 10, 11}));
  const auto tiled = einops::repeat(x, "a b -> a r b", {{"r", 2}});
  ASSERT_EQ(shape_of(tiled.shape()), (Shape{3, 2, 4}));
  for (std::int64_t a = 0; a < 3; ++a)
    for (std::int64_t r = 0; r < 2; ++r)
      for (std::int64_t b = 0; b < 4; ++b) EXPECT_EQ(tiled.at({a, r, b}), x.at({a, b}));
}

TEST(OpsStrided, ZeroStridesBroadcastInput) {
  const int row[4] = {1, 2, 3, 4};
  const TensorView<const int> x(row, {3, 4}, {0, 1});
  EXPECT_EQ(einops::reduce(x, "a b -> b", "sum").as<std::int64_t>().to_vector(),
            (std::vector<std::int64_t>{3, 6, 9, 12}));
  EXPECT_EQ(einops::reduce(x, "a b -> a", "prod").as<std::int64_t>().to_vector(),
            (std::vector<std::int64_t>{24, 24, 24}));
  const auto flat = einops::rearrange(x, "a b -> (b a)");
  EXPECT_EQ(flat.to_vector(), (std::vector<int>{1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4}));
  const auto rep = einops::repeat(x, "a b -> (a 2) b");
  ASSERT_EQ(shape_of(rep.shape()), (Shape{6, 4}));
  for (std::int64_t i = 0; i < 6; ++i) EXPECT_EQ(rep.at({i, 2}), 3);
}

TEST(OpsStrided, TransposedAndSlicedViews) {
  const auto base = Tensor<float>::arange({4, 5});
  // The transpose of `base` as a view: shape (5, 4), strides (1, 5).
  const TensorView<const float> t(base.data(), {5, 4}, {1, 5});
  const auto flat = einops::rearrange(t, "a b -> (a b)");
  for (std::int64_t a = 0; a < 5; ++a)
    for (std::int64_t b = 0; b < 4; ++b) EXPECT_EQ(flat.at({a * 4 + b}), base.at({b, a}));
  // Rows 1..3 and every second column from 1 of a 6x8 buffer.
  const auto big = Tensor<double>::arange({6, 8});
  const TensorView<const double> slice(big.data() + 8 + 1, {3, 4}, {8, 2});
  const auto means = einops::reduce(slice, "a b -> b", "mean").as<double>();
  for (std::int64_t b = 0; b < 4; ++b)
    EXPECT_DOUBLE_EQ(means.at({b}), (slice.at({0, b}) + slice.at({1, b}) + slice.at({2, b})) / 3.0);
  const auto regrouped = einops::rearrange(slice, "a (b b2) -> (a b2) b", {{"b2", 2}});
  for (std::int64_t a = 0; a < 3; ++a)
    for (std::int64_t b = 0; b < 2; ++b)
      for (std::int64_t b2 = 0; b2 < 2; ++b2) EXPECT_EQ(regrouped.at({a * 2 + b2, b}), slice.at({a, b * 2 + b2}));
}

// ---- views instead of copies --------------------------------------------------------------------

TEST(OpsViews, NoDataMovementSharesStorage) {
  const auto x = Tensor<float>::arange({2, 3, 4});
  const auto merged = einops::rearrange(x, "a b c -> a (b c)");
  EXPECT_TRUE(merged.shares_storage_with(x));
  EXPECT_EQ(merged.data(), x.data());
  EXPECT_EQ(shape_of(merged.shape()), (Shape{2, 12}));
  const auto split = einops::rearrange(x, "a b (c d) -> a b c d", {{"d", 2}});
  EXPECT_TRUE(split.shares_storage_with(x));
  // A permutation is a strided view, and reads correctly.
  const auto transposed = einops::rearrange(x, "a b c -> c a b");
  EXPECT_TRUE(transposed.shares_storage_with(x));
  for (std::int64_t a = 0; a < 2; ++a)
    for (std::int64_t b = 0; b < 3; ++b)
      for (std::int64_t c = 0; c < 4; ++c) EXPECT_EQ(transposed.at({c, a, b}), x.at({a, b, c}));
  // reduce and repeat that reduce or add nothing are views too.
  EXPECT_TRUE(einops::reduce(x, "a b c -> a b c", "sum").as<float>().shares_storage_with(x));
  EXPECT_TRUE(einops::repeat(x, "a b c -> (a b) 1 c").shares_storage_with(x));
  // Writes through the view are visible in the input.
  merged.at({1, 0}) = -1.0f;
  EXPECT_EQ(x.at({1, 0, 0}), -1.0f);
}

TEST(OpsViews, DataMovementCopies) {
  const auto x = Tensor<float>::arange({2, 3});
  const auto y = einops::rearrange(x, "a b -> (b a)");
  EXPECT_FALSE(y.shares_storage_with(x));
  EXPECT_EQ(y.to_vector(), (std::vector<float>{0, 3, 1, 4, 2, 5}));
  EXPECT_FALSE(einops::repeat(x, "a b -> a b 2").shares_storage_with(x));
  EXPECT_FALSE(einops::reduce(x, "a b -> a", "sum").as<float>().shares_storage_with(x));
}

TEST(OpsViews, ContiguousCopiesOnlyStridedTensors) {
  const auto x = Tensor<float>::arange({2, 3, 4});
  const auto transposed = einops::rearrange(x, "a b c -> c a b");  // a strided view
  ASSERT_FALSE(transposed.is_contiguous());
  const Tensor<float> packed = einops::contiguous(transposed);
  EXPECT_TRUE(packed.is_contiguous());
  EXPECT_FALSE(packed.shares_storage_with(x));
  EXPECT_EQ(shape_of(packed.shape()), (Shape{4, 2, 3}));
  EXPECT_EQ(packed.to_vector(), einops::rearrange(x, "a b c -> (c a b)").to_vector());
  // Already contiguous: the same memory, no copy.
  const Tensor<float> same = einops::contiguous(x);
  EXPECT_EQ(same.data(), x.data());
  EXPECT_TRUE(same.shares_storage_with(x));
  // Any dtype, through AnyTensor; rank 0 too.
  const einops::AnyTensor any = einops::rearrange(einops::AnyTensor(Tensor<std::int8_t>::arange({3, 5})), "a b -> b a");
  EXPECT_EQ(einops::contiguous(any).as<std::int8_t>().to_vector(),
            einops::rearrange(Tensor<std::int8_t>::arange({3, 5}), "a b -> (b a)").to_vector());
  const auto scalar = Tensor<double>::arange({});
  EXPECT_EQ(einops::contiguous(scalar).to_vector(), scalar.to_vector());
}

TEST(OpsViews, ViewOfCallerMemoryAliasesIt) {
  auto buffer = iota_buffer(6);
  const TensorView<int> v(buffer.data(), {2, 3});
  const auto y = einops::rearrange(v, "a b -> b a");
  EXPECT_EQ(y.data(), buffer.data());
  EXPECT_EQ(y.storage(), nullptr);
  EXPECT_EQ(y.to_vector(), (std::vector<int>{0, 3, 1, 4, 2, 5}));
}

// ---- writing into caller outputs ----------------------------------------------------------------

TEST(OpsInto, RearrangeIntoStridedOutput) {
  const auto x = Tensor<std::int32_t>::arange({2, 3});
  // A (3, 2) output living in the even slots of a larger buffer, columns reversed.
  std::vector<std::int32_t> buffer(12, -7);
  const TensorView<std::int32_t> out(buffer.data() + 2, {3, 2}, {4, -2});
  einops::rearrange_into(x, out, "a b -> b a");
  for (std::int64_t b = 0; b < 3; ++b)
    for (std::int64_t a = 0; a < 2; ++a) EXPECT_EQ(out.at({b, a}), x.at({a, b}));
  // Elements outside the view are untouched.
  for (std::size_t i : {1u, 3u, 5u, 7u, 9u, 11u}) EXPECT_EQ(buffer[i], -7);
}

TEST(OpsInto, ReduceAndRepeatInto) {
  const auto x = Tensor<std::int16_t>::arange({2, 3});
  Tensor<std::int64_t> sums({2});
  einops::reduce_into(x, sums, "a b -> a", "sum");
  EXPECT_EQ(sums.to_vector(), (std::vector<std::int64_t>{3, 12}));
  Tensor<std::int16_t> maxes({3});
  einops::reduce_into(x, maxes, "a b -> b", "max");
  EXPECT_EQ(maxes.to_vector(), (std::vector<std::int16_t>{3, 4, 5}));
  Tensor<std::int16_t> tiled({2, 3, 2});
  einops::repeat_into(x, tiled, "a b -> a b r", {{"r", 2}});
  EXPECT_EQ(tiled.to_vector(), (std::vector<std::int16_t>{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5}));
  // Into a transposed output.
  std::vector<std::int16_t> buffer(6);
  const TensorView<std::int16_t> out(buffer.data(), {2, 3}, {1, 2});
  einops::rearrange_into(x, out, "a b -> a b");
  EXPECT_EQ(buffer, (std::vector<std::int16_t>{0, 3, 1, 4, 2, 5}));
}

TEST(OpsInto, WrongShapeOrDTypeRefused) {
  const auto x = Tensor<float>::arange({2, 3});
  EXPECT_THROW(einops::rearrange_into(x, Tensor<float>({2, 3}), "a b -> b a"), EinopsError);
  EXPECT_THROW(einops::rearrange_into(x, Tensor<double>({3, 2}), "a b -> b a"), EinopsError);
  EXPECT_THROW(einops::repeat_into(x, Tensor<float>({2, 3}), "a b -> a b 2"), EinopsError);
  const auto ints = Tensor<std::int32_t>::arange({2, 3});
  // sum of int32 is int64 (numpy), so an int32 output is the wrong dtype.
  EXPECT_THROW(einops::reduce_into(ints, Tensor<std::int32_t>({2}), "a b -> a", "sum"), EinopsError);
  EXPECT_THROW(einops::reduce_into(ints, Tensor<std::int64_t>({3}), "a b -> a", "sum"), EinopsError);
  EXPECT_THROW(einops::reduce_into(ints, Tensor<bool>({2}), "a b -> a", "sum"), EinopsError);
  Tensor<bool> any({2});
  EXPECT_NO_THROW(einops::reduce_into(ints, any, "a b -> a", "any"));
  EXPECT_EQ(any.to_vector(), (std::vector<bool>{true, true}));
  try {
    einops::rearrange_into(x, Tensor<float>({2, 3}), "a b -> b a");
  } catch (const EinopsError& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("(2, 3) float32"), std::string::npos) << message;
    EXPECT_NE(message.find("(3, 2) float32"), std::string::npos) << message;
  }
}

// ---- dtypes -------------------------------------------------------------------------------------

template <class T>
class OpsDTypes : public ::testing::Test {};
using ElementTypes = ::testing::Types<float, double, std::int8_t, std::int16_t, std::int32_t, std::int64_t,
                                      std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t, bool>;
TYPED_TEST_SUITE(OpsDTypes, ElementTypes);

template <class T>
T value_at(std::int64_t i) {
  if constexpr (std::is_same_v<T, bool>) return i % 3 == 0;
  else return static_cast<T>(i % 97);
}

TYPED_TEST(OpsDTypes, RearrangeRepeatPermute) {
  using T = TypeParam;
  Tensor<T> x({2, 3, 4});
  for (std::int64_t i = 0; i < x.size(); ++i) x.data()[i] = value_at<T>(i);
  const auto y = einops::rearrange(x, "a b c -> (c a) b");
  EXPECT_EQ(y.dtype(), einops::dtype_v<T>);
  const auto r = einops::repeat(x, "a b c -> c r a b", {{"r", 2}});
  for (std::int64_t a = 0; a < 2; ++a)
    for (std::int64_t b = 0; b < 3; ++b)
      for (std::int64_t c = 0; c < 4; ++c) {
        EXPECT_EQ(y.at({c * 2 + a, b}), x.at({a, b, c}));
        EXPECT_EQ(r.at({c, 1, a, b}), x.at({a, b, c}));
      }
  // max keeps the dtype.
  const AnyTensor m = einops::reduce(x, "a b c -> c", "max");
  EXPECT_EQ(m.dtype(), einops::dtype_v<T>);
  const auto maxes = m.as<T>();
  for (std::int64_t c = 0; c < 4; ++c) {
    T expected = x.at({0, 0, c});
    for (std::int64_t a = 0; a < 2; ++a)
      for (std::int64_t b = 0; b < 3; ++b) expected = std::max(expected, x.at({a, b, c}));
    EXPECT_EQ(maxes.at({c}), expected);
  }
}

// ---- numpy result types -------------------------------------------------------------------------

TEST(OpsReduceTypes, SumAndProdWiden) {
  const Tensor<std::int8_t> i8({2, 2}, {100, 100, -100, -100});
  const AnyTensor s8 = einops::reduce(i8, "a b -> a", "sum");
  ASSERT_EQ(s8.dtype(), DType::int64);
  EXPECT_EQ(s8.as<std::int64_t>().to_vector(), (std::vector<std::int64_t>{200, -200}));

  const Tensor<std::uint8_t> u8({2, 2}, {255, 255, 16, 16});
  const AnyTensor su = einops::reduce(u8, "a b -> a", "sum");
  ASSERT_EQ(su.dtype(), DType::uint64);
  EXPECT_EQ(su.as<std::uint64_t>().to_vector(), (std::vector<std::uint64_t>{510, 32}));
  const AnyTensor pu = einops::reduce(u8, "a b -> a", "prod");
  ASSERT_EQ(pu.dtype(), DType::uint64);
  EXPECT_EQ(pu.as<std::uint64_t>().to_vector(), (std::vector<std::uint64_t>{65025, 256}));

  const Tensor<bool> flags({2, 3}, {true, true, false, false, false, true});
  const AnyTensor count = einops::reduce(flags, "a b -> a", "sum");
  ASSERT_EQ(count.dtype(), DType::int64);
  EXPECT_EQ(count.as<std::int64_t>().to_vector(), (std::vector<std::int64_t>{2, 1}));

  const Tensor<std::int16_t> i16({3}, {-2, 3, 4});
  const AnyTensor p16 = einops::reduce(i16, "a -> ", "prod");
  ASSERT_EQ(p16.dtype(), DType::int64);
  EXPECT_EQ(p16.as<std::int64_t>().to_vector(), (std::vector<std::int64_t>{-24}));

  const auto f = Tensor<float>::arange({2, 3});
  EXPECT_EQ(einops::reduce(f, "a b -> b", "sum").dtype(), DType::float32);
}

TEST(OpsReduceTypes, AnyAllGiveBool) {
  const Tensor<float> x({2, 3}, {0, 0, 0, 0, 2, 0});
  const AnyTensor any = einops::reduce(x, "a b -> a", "any");
  const AnyTensor all = einops::reduce(x, "a b -> b", "all");
  ASSERT_EQ(any.dtype(), DType::boolean);
  ASSERT_EQ(all.dtype(), DType::boolean);
  EXPECT_EQ(any.as<bool>().to_vector(), (std::vector<bool>{false, true}));
  EXPECT_EQ(all.as<bool>().to_vector(), (std::vector<bool>{false, false, false}));
  const Tensor<std::int32_t> ones({2, 2}, {1, 2, 3, 0});
  EXPECT_EQ(einops::reduce(ones, "a b -> a", einops::Reduction::all).as<bool>().to_vector(),
            (std::vector<bool>{true, false}));
}

TEST(OpsReduceTypes, MinMaxKeepDType) {
  const Tensor<std::int8_t> x({2, 3}, {-5, 7, 0, 3, -128, 127});
  const AnyTensor lo = einops::reduce(x, "a b -> a", "min");
  const AnyTensor hi = einops::reduce(x, "a b -> b", "max");
  ASSERT_EQ(lo.dtype(), DType::int8);
  ASSERT_EQ(hi.dtype(), DType::int8);
  EXPECT_EQ(lo.as<std::int8_t>().to_vector(), (std::vector<std::int8_t>{-5, -128}));
  EXPECT_EQ(hi.as<std::int8_t>().to_vector(), (std::vector<std::int8_t>{3, 7, 127}));
}

TEST(OpsReduceTypes, MeanOfIntegers) {
  const auto ints = Tensor<std::int32_t>::arange({2, 3});
  EXPECT_THROW((void)einops::reduce(ints, "a b -> a", "mean"), EinopsError);
  EXPECT_THROW((void)einops::reduce(Tensor<bool>({2}), "a -> ", "mean"), EinopsError);
  try {
    (void)einops::reduce(ints, "a b -> a", "mean");
  } catch (const EinopsError& error) {
    EXPECT_NE(std::string(error.what()).find("int32"), std::string::npos) << error.what();
  }
  // Nothing reduced: numpy's mean over no axes is fine and keeps the dtype.
  const AnyTensor same = einops::reduce(ints, "a b -> b a", "mean");
  ASSERT_EQ(same.dtype(), DType::int32);
  EXPECT_EQ(same.as<std::int32_t>().to_vector(), (std::vector<std::int32_t>{0, 3, 1, 4, 2, 5}));
  // A reduced axis of length 1 is still a reduced axis.
  EXPECT_THROW((void)einops::reduce(Tensor<std::int32_t>({2, 1}), "a b -> a", "mean"), EinopsError);
}

TEST(OpsReduceTypes, FloatingMeanAndEmptyReductions) {
  const Tensor<float> x({2, 2}, {1, 2, 3, 5});
  EXPECT_EQ(einops::reduce(x, "a b -> a", "mean").as<float>().to_vector(), (std::vector<float>{1.5f, 4.0f}));
  const Tensor<double> empty({3, 0});
  const auto means = einops::reduce(empty, "a b -> a", "mean").as<double>().to_vector();
  ASSERT_EQ(means.size(), 3u);
  EXPECT_TRUE(std::isnan(means[0]));
  EXPECT_EQ(einops::reduce(empty, "a b -> a", "sum").as<double>().to_vector(), (std::vector<double>{0, 0, 0}));
  EXPECT_EQ(einops::reduce(empty, "a b -> a", "prod").as<double>().to_vector(), (std::vector<double>{1, 1, 1}));
  EXPECT_EQ(einops::reduce(empty, "a b -> a", "all").as<bool>().to_vector(), (std::vector<bool>{true, true, true}));
  EXPECT_THROW((void)einops::reduce(empty, "a b -> a", "max"), EinopsError);
  const Tensor<double> nan({3}, {1.0, std::numeric_limits<double>::quiet_NaN(), 3.0});
  EXPECT_TRUE(std::isnan(einops::reduce(nan, "a -> ", "max").as<double>().to_vector()[0]));
  EXPECT_TRUE(std::isnan(einops::reduce(nan, "a -> ", "min").as<double>().to_vector()[0]));
}

// ---- user reductions ----------------------------------------------------------------------------

TEST(OpsCallable, ReceivesEachGroup) {
  const auto x = Tensor<float>::arange({2, 3, 4});
  // Encodes the group's elements in order, so both membership and order are checked.
  const auto digits = [](std::span<const float> group) {
    std::int64_t code = 0;
    for (float v : group) code = code * 100 + static_cast<std::int64_t>(v);
    return code;
  };
  const Tensor<std::int64_t> y = einops::reduce(x, "a b c -> c a", digits);
  ASSERT_EQ(shape_of(y.shape()), (Shape{4, 2}));
  for (std::int64_t a = 0; a < 2; ++a)
    for (std::int64_t c = 0; c < 4; ++c) {
      std::int64_t expected = 0;
      for (std::int64_t b = 0; b < 3; ++b) expected = expected * 100 + static_cast<std::int64_t>(x.at({a, b, c}));
      EXPECT_EQ(y.at({c, a}), expected);
    }
}

TEST(OpsCallable, GroupsKeepInputAxisOrderForStridedInputs) {
  // The documented order is the input's order of the reduced axes, even when the memory is not.
  const auto base = Tensor<float>::arange({4, 3});
  const TensorView<const float> t(base.data(), {3, 4}, {1, 3});  // transpose of base
  const auto digits = [](std::span<const float> group) {         // 12 base-16 digits
    std::int64_t code = 0;
    for (float v : group) code = code * 16 + static_cast<std::int64_t>(v);
    return code;
  };
  const auto y = einops::reduce(t, "a b -> ", digits);
  std::int64_t expected = 0;
  for (std::int64_t a = 0; a < 3; ++a)
    for (std::int64_t b = 0; b < 4; ++b) expected = expected * 16 + static_cast<std::int64_t>(t.at({a, b}));
  EXPECT_EQ(y.to_vector()[0], expected);
}

TEST(OpsCallable, NothingReducedGivesSingletons) {
  const auto x = Tensor<double>::arange({2, 3});
  const auto sizes =
      einops::reduce(x, "a b -> b a", [](std::span<const double> g) { return static_cast<std::int32_t>(g.size()); });
  EXPECT_EQ(sizes.to_vector(), (std::vector<std::int32_t>(6, 1)));
  const auto copy = einops::reduce(x, "a b -> b a", [](std::span<const double> g) { return g[0]; });
  EXPECT_EQ(copy.to_vector(), (std::vector<double>{0, 3, 1, 4, 2, 5}));
}

TEST(OpsCallable, MedianOverNegativeStrides) {
  std::vector<float> buffer{5, 1, 4, 2, 3, 9};
  const TensorView<const float> x(buffer.data() + 5, {2, 3}, {-3, -1});  // rows {9,3,2}, {4,1,5}
  const auto median = [](std::span<const float> g) {
    std::vector<float> v(g.begin(), g.end());
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
  };
  EXPECT_EQ(einops::reduce(x, "a b -> a", median).to_vector(), (std::vector<float>{3, 4}));
}

// ---- list inputs --------------------------------------------------------------------------------

TEST(OpsLists, StackedOnNewLeadingAxis) {
  const std::vector<Tensor<int>> xs{Tensor<int>({2, 2}, {1, 2, 3, 4}), Tensor<int>({2, 2}, {5, 6, 7, 8}),
                                    Tensor<int>({2, 2}, {9, 10, 11, 12})};
  const auto y = einops::rearrange(xs, "n a b -> a (n b)");
  ASSERT_EQ(shape_of(y.shape()), (Shape{2, 6}));
  EXPECT_EQ(y.to_vector(), (std::vector<int>{1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12}));
  const auto s = einops::reduce(xs, "n a b -> a b", "sum").as<std::int64_t>();
  EXPECT_EQ(s.to_vector(), (std::vector<std::int64_t>{15, 18, 21, 24}));
  const auto r = einops::repeat(xs, "n a b -> n a b 2");
  EXPECT_EQ(shape_of(r.shape()), (Shape{3, 2, 2, 2}));
  EXPECT_EQ(r.at({2, 1, 0, 1}), 11);
}

TEST(OpsLists, StridedMembers) {
  const auto base = Tensor<float>::arange({2, 3});
  const Tensor<float> transposed(base.storage(), base.data(), {3, 2}, {1, 3});
  const std::vector<Tensor<float>> xs{transposed, einops::rearrange(base, "a b -> (b a)") /* 1-d, wrong shape */};
  EXPECT_THROW((void)einops::rearrange(xs, "n a b -> n b a"), EinopsError);
  const std::vector<Tensor<float>> same{transposed, transposed};
  const auto y = einops::rearrange(same, "n a b -> n a b");
  EXPECT_EQ(y.to_vector(), (std::vector<float>{0, 3, 1, 4, 2, 5, 0, 3, 1, 4, 2, 5}));
}

TEST(OpsLists, EmptyAndMismatchedRefused) {
  const std::vector<Tensor<float>> none;
  EXPECT_THROW((void)einops::rearrange(none, "n a -> a n"), EinopsError);
  EXPECT_THROW((void)einops::reduce(none, "n a -> a", "sum"), EinopsError);
  EXPECT_THROW((void)einops::repeat(none, "n a -> a n"), EinopsError);
  const std::vector<Tensor<float>> mismatched{Tensor<float>({2, 3}), Tensor<float>({3, 2})};
  EXPECT_THROW((void)einops::rearrange(mismatched, "n a b -> a b n"), EinopsError);
  const std::vector<AnyTensor> mixed{Tensor<float>({2}), Tensor<double>({2})};
  EXPECT_THROW((void)einops::rearrange(std::span<const AnyTensor>(mixed), "n a -> a n"), EinopsError);
}

// ---- misc ---------------------------------------------------------------------------------------

TEST(OpsMisc, ClassicTransforms) {
  const auto x = Tensor<float>::arange({1, 2, 4, 4});
  const auto pooled = einops::reduce(x, "b c (h 2) (w 2) -> b c h w", "max").as<float>();
  ASSERT_EQ(shape_of(pooled.shape()), (Shape{1, 2, 2, 2}));
  EXPECT_EQ(pooled.to_vector(), (std::vector<float>{5, 7, 13, 15, 21, 23, 29, 31}));
  const auto s2d = einops::rearrange(x, "b c (h h2) (w w2) -> b (c h2 w2) h w", {{"h2", 2}, {"w2", 2}});
  ASSERT_EQ(shape_of(s2d.shape()), (Shape{1, 8, 2, 2}));
  EXPECT_EQ(s2d.at({0, 1, 0, 1}), x.at({0, 0, 0, 3}));  // c=0 h2=0 w2=1, h=0 w=1 -> (0, 1*2+1)
  const auto tile = einops::repeat(Tensor<int>::arange({2}), "w -> (2 w) (3)");
  EXPECT_EQ(tile.to_vector(), (std::vector<int>{0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1}));
  const auto scalar = einops::reduce(x, "... -> ", "sum").as<float>();
  EXPECT_EQ(scalar.rank(), 0u);
  EXPECT_EQ(scalar.to_vector()[0], 31.0f * 32.0f / 2.0f);
}

TEST(OpsMisc, EllipsisOverStridedInput) {
  auto buffer = iota_buffer(24);
  const TensorView<const int> x(buffer.data() + 18, {2, 3, 4}, {1, 2, -6});  // unusual but valid layout
  const auto y = einops::rearrange(x, "a ... -> ... a");
  for (std::int64_t a = 0; a < 2; ++a)
    for (std::int64_t b = 0; b < 3; ++b)
      for (std::int64_t c = 0; c < 4; ++c) EXPECT_EQ(y.at({b, c, a}), x.at({a, b, c}));
}

}  // namespace
