// Tensor<T>, TensorView<T> and AnyTensor: construction, strides (negative, zero), storage sharing.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
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

TEST(Tensor, ZeroInitialisedRowMajor) {
  const Tensor<float> t({2, 3, 4});
  EXPECT_EQ(t.rank(), 3u);
  EXPECT_EQ(t.size(), 24);
  EXPECT_EQ(shape_of(t.strides()), (Shape{12, 4, 1}));
  EXPECT_TRUE(t.is_contiguous());
  EXPECT_EQ(t.dtype(), DType::float32);
  for (float v : t.to_vector()) EXPECT_EQ(v, 0.0f);
}

TEST(Tensor, ScalarAndEmpty) {
  const Tensor<int> scalar;
  EXPECT_EQ(scalar.rank(), 0u);
  EXPECT_EQ(scalar.size(), 1);
  EXPECT_EQ(scalar.to_vector(), std::vector<int>{0});
  const Tensor<int> empty({3, 0, 2});
  EXPECT_EQ(empty.size(), 0);
  EXPECT_TRUE(empty.to_vector().empty());
  EXPECT_TRUE(empty.is_contiguous());
}

TEST(Tensor, ValuesAndArange) {
  const Tensor<std::int16_t> t({2, 2}, {1, 2, 3, 4});
  EXPECT_EQ(t.at({1, 0}), 3);
  EXPECT_THROW(Tensor<int>({2, 2}, {1, 2, 3}), EinopsError);
  const auto a = Tensor<double>::arange({2, 3});
  EXPECT_EQ(a.to_vector(), (std::vector<double>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(a.at({1, 2}), 5.0);
  EXPECT_THROW((void)a.at({2, 0}), EinopsError);
  EXPECT_THROW((void)a.at({0, -1}), EinopsError);
  EXPECT_THROW((void)a.at({0}), EinopsError);
}

TEST(Tensor, BadShapesRefused) {
  EXPECT_THROW(Tensor<float>({2, -1}), EinopsError);
  EXPECT_THROW(Tensor<float>({std::int64_t{1} << 40, std::int64_t{1} << 40}), EinopsError);
  float buffer[4] = {};
  EXPECT_THROW(TensorView<float>(buffer, {2, 2}, {1}), EinopsError);  // rank mismatch
  EXPECT_THROW(TensorView<float>(buffer, {-2}), EinopsError);
}

TEST(Tensor, CopiesShareStorage) {
  const auto a = Tensor<int>::arange({4});
  const Tensor<int> b = a;  // NOLINT(performance-unnecessary-copy-initialization): the point of the test
  EXPECT_TRUE(a.shares_storage_with(b));
  EXPECT_EQ(a.data(), b.data());
  b.at({0}) = 42;
  EXPECT_EQ(a.at({0}), 42);
  const auto c = Tensor<int>::arange({4});
  EXPECT_FALSE(a.shares_storage_with(c));
  // Tensors aliasing caller memory have no storage, so they never "share" it.
  int raw[4] = {};
  const Tensor<int> alias(nullptr, raw, {4}, {1});
  EXPECT_FALSE(alias.shares_storage_with(alias));
}

TEST(TensorView, NegativeStrides) {
  // Index 0 points into the middle of the buffer: rows reversed, columns forward.
  std::vector<int> buffer(12);
  for (int i = 0; i < 12; ++i) buffer[static_cast<std::size_t>(i)] = i;
  const TensorView<int> flipped(buffer.data() + 8, {3, 4}, {-4, 1});
  EXPECT_EQ(flipped.to_vector(), (std::vector<int>{8, 9, 10, 11, 4, 5, 6, 7, 0, 1, 2, 3}));
  EXPECT_EQ(flipped.at({2, 1}), 1);
  EXPECT_FALSE(flipped.is_contiguous());
  const TensorView<int> both(buffer.data() + 11, {3, 4}, {-4, -1});
  EXPECT_EQ(both.to_vector(), (std::vector<int>{11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0}));
}

TEST(TensorView, ZeroStridesBroadcast) {
  const int row[3] = {7, 8, 9};
  const TensorView<const int> rows(row, {2, 3}, {0, 1});
  EXPECT_EQ(rows.to_vector(), (std::vector<int>{7, 8, 9, 7, 8, 9}));
  const TensorView<const int> all_same(row + 1, {2, 2}, {0, 0});
  EXPECT_EQ(all_same.to_vector(), (std::vector<int>{8, 8, 8, 8}));
}

TEST(TensorView, ToVectorOfManyDimensionsAndBooleans) {
  // Unit dimensions beyond the kernels' rank limit move nothing: such a view is read too.
  std::vector<int> buffer(6);
  for (int i = 0; i < 6; ++i) buffer[static_cast<std::size_t>(i)] = i;
  Shape shape(70, 1), strides(70, 1);
  shape[10] = 3, strides[10] = 1;  // read transposed: [3, 2] of the [2, 3] buffer
  shape[60] = 2, strides[60] = 3;
  EXPECT_EQ(TensorView<int>(buffer.data(), shape, strides).to_vector(), (std::vector<int>{0, 3, 1, 4, 2, 5}));
  const bool flags[4] = {true, false, false, true};
  EXPECT_EQ(TensorView<const bool>(flags, {2, 2}, {1, 2}).to_vector(), (std::vector<bool>{true, false, false, true}));
  EXPECT_EQ(TensorView<const bool>(flags + 3, {4}, {-1}).to_vector(), (std::vector<bool>{true, false, false, true}));
}

TEST(TensorView, ContiguityIgnoresUnitDimensions) {
  float buffer[6] = {};
  EXPECT_TRUE(TensorView<float>(buffer, {2, 1, 3}, {3, 999, 1}).is_contiguous());
  EXPECT_FALSE(TensorView<float>(buffer, {2, 3}, {1, 2}).is_contiguous());
  EXPECT_TRUE(TensorView<float>(buffer, {2, 0}, {5, 7}).is_contiguous());
}

TEST(TensorView, ConstConversionAndTensorViews) {
  const auto t = Tensor<float>::arange({2, 3});
  const TensorView<float> v = t.view();
  const TensorView<const float> cv = v;
  EXPECT_EQ(cv.data(), t.data());
  EXPECT_EQ(shape_of(cv.shape()), (Shape{2, 3}));
  EXPECT_EQ(cv.to_vector(), t.to_vector());
  const TensorView<const float> from_tensor = t;
  EXPECT_EQ(from_tensor.data(), t.data());
}

TEST(AnyTensor, TypedRoundTrip) {
  const auto t = Tensor<std::int32_t>::arange({2, 3});
  const AnyTensor any = t;
  EXPECT_EQ(any.dtype(), DType::int32);
  EXPECT_EQ(any.data(), static_cast<void*>(t.data()));
  EXPECT_EQ(any.storage(), t.storage());
  const Tensor<std::int32_t> back = any.as<std::int32_t>();
  EXPECT_TRUE(back.shares_storage_with(t));
  EXPECT_THROW((void)any.as<float>(), EinopsError);
  EXPECT_THROW((void)any.as<std::uint32_t>(), EinopsError);
}

TEST(AnyTensor, ZeroFilledOfDType) {
  const AnyTensor any(DType::uint16, {3, 5});
  EXPECT_EQ(any.dtype(), DType::uint16);
  EXPECT_EQ(any.size(), 15);
  EXPECT_TRUE(any.is_contiguous());
  for (std::uint16_t v : any.as<std::uint16_t>().to_vector()) EXPECT_EQ(v, 0);
  // 8-byte aligned storage whatever the dtype.
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(AnyTensor(DType::int8, {3}).data()) % 8, 0u);
}

TEST(AnyTensor, FromViewAliasesWithoutOwning) {
  double buffer[4] = {1, 2, 3, 4};
  const AnyTensor any = TensorView<const double>(buffer, {2, 2}, {1, 2});
  EXPECT_EQ(any.data(), static_cast<void*>(buffer));
  EXPECT_EQ(any.storage(), nullptr);
  EXPECT_EQ(shape_of(any.strides()), (Shape{1, 2}));
  EXPECT_EQ(any.as<double>().to_vector(), (std::vector<double>{1, 3, 2, 4}));
}

/// An owner that counts its destructions (moved-from owners do not count).
class CountedOwner {
 public:
  explicit CountedOwner(int* destroyed) : destroyed_(destroyed) {}
  CountedOwner(CountedOwner&& other) noexcept : destroyed_(std::exchange(other.destroyed_, nullptr)) {}
  CountedOwner(const CountedOwner&) = delete;
  CountedOwner& operator=(const CountedOwner&) = delete;
  CountedOwner& operator=(CountedOwner&&) = delete;
  ~CountedOwner() {
    if (destroyed_ != nullptr) ++*destroyed_;
  }

 private:
  int* destroyed_;
};

TEST(Storage, KeepsItsOwnerUntilTheLastHandleGoes) {
  int destroyed = 0;
  {
    einops::Storage first(CountedOwner{&destroyed});
    EXPECT_EQ(first.use_count(), 1);
    einops::Storage second = first;
    EXPECT_EQ(second, first);
    EXPECT_EQ(first.use_count(), 2);
    einops::Storage third = std::move(second);
    EXPECT_FALSE(second);  // NOLINT(bugprone-use-after-move): a moved-from handle is empty
    EXPECT_EQ(third.use_count(), 2);
    first = einops::Storage();
    EXPECT_EQ(destroyed, 0);
    EXPECT_EQ(third.use_count(), 1);
  }
  EXPECT_EQ(destroyed, 1);
  EXPECT_EQ(einops::Storage(nullptr).use_count(), 0);
  EXPECT_NE(einops::Storage(CountedOwner{&destroyed}), einops::Storage(CountedOwner{&destroyed}));
  EXPECT_EQ(destroyed, 3);
}

TEST(Storage, ATensorOverMemoryThatAVectorOwns) {
  std::vector<float> values{1, 2, 3, 4, 5, 6};
  float* data = values.data();
  const Tensor<float> t(einops::Storage(std::move(values)), data, {3, 2}, {1, 3});
  EXPECT_EQ(t.to_vector(), (std::vector<float>{1, 4, 2, 5, 3, 6}));
  const Tensor<float> y = einops::rearrange(t, "a b -> b a");  // a view: shares the vector
  EXPECT_TRUE(y.shares_storage_with(t));
  EXPECT_EQ(t.storage().use_count(), 2);
  EXPECT_FALSE(Tensor<float>({2}).shares_storage_with(Tensor<float>({2})));
}

TEST(Storage, PlansAreSharedObjects) {
  const einops::Shared<const einops::Plan> plan =
      einops::get_plan(einops::Operation::rearrange, std::nullopt, "a b -> b a", Shape{2, 3}, {});
  ASSERT_TRUE(plan);
  EXPECT_EQ(plan->output_shape, (Shape{3, 2}));
  const einops::Shared<const einops::Plan> again = plan;
  EXPECT_EQ(again, plan);
  EXPECT_GE(plan.use_count(), 2);
}

TEST(DTypes, NamesSizesAndResultRules) {
  using einops::Reduction;
  using einops::reduction_result_dtype;
  EXPECT_EQ(einops::dtype_v<bool>, DType::boolean);
  EXPECT_EQ(einops::dtype_v<const std::uint8_t>, DType::uint8);
  EXPECT_EQ(einops::dtype_size(DType::int16), 2u);
  EXPECT_EQ(einops::dtype_size(DType::float64), 8u);
  EXPECT_EQ(einops::dtype_name(DType::boolean), "bool");
  EXPECT_EQ(reduction_result_dtype(Reduction::sum, DType::int8), DType::int64);
  EXPECT_EQ(reduction_result_dtype(Reduction::sum, DType::boolean), DType::int64);
  EXPECT_EQ(reduction_result_dtype(Reduction::prod, DType::uint8), DType::uint64);
  EXPECT_EQ(reduction_result_dtype(Reduction::sum, DType::float32), DType::float32);
  EXPECT_EQ(reduction_result_dtype(Reduction::any, DType::float64), DType::boolean);
  EXPECT_EQ(reduction_result_dtype(Reduction::max, DType::int16), DType::int16);
  static_assert(einops::Element<float> && !einops::Element<long double> && !einops::Element<char16_t>);
}

}  // namespace
