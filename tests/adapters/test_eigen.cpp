// The Eigen adapter: results checked against Eigen's own shuffle/sum/maximum/broadcast, both
// layouts, maps and strided matrices read in place, static result types, and errors.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <einops/eigen.hpp>

namespace {

using namespace einops::literals;
using einops::EinopsError;

template <class T, int N, int Layout>
Eigen::Tensor<T, N, Layout> counting(const std::array<Eigen::Index, N>& dims) {
  Eigen::Tensor<T, N, Layout> x(dims);
  for (Eigen::Index i = 0; i < x.size(); ++i) x.data()[i] = static_cast<T>((i * 37 + 11) % 101 - 50);
  return x;
}

template <class A, class B>
void expect_equal_tensors(const A& actual, const B& expected) {
  ASSERT_EQ(actual.dimensions(), expected.dimensions());
  // Compare through Eigen's own indexing, so that the layouts of the two may differ.
  const Eigen::Tensor<bool, 0, static_cast<int>(A::Layout)> same = (actual == expected).all();
  EXPECT_TRUE(same());
}

template <class T>
class EigenLayouts : public ::testing::Test {};
struct ColMajor : std::integral_constant<int, Eigen::ColMajor> {};
struct RowMajor : std::integral_constant<int, Eigen::RowMajor> {};
using Layouts = ::testing::Types<ColMajor, RowMajor>;
TYPED_TEST_SUITE(EigenLayouts, Layouts);

TYPED_TEST(EigenLayouts, RearrangeMatchesShuffle) {
  constexpr int L = TypeParam::value;
  const auto x = counting<float, 4, L>({2, 3, 4, 5});
  const Eigen::Tensor<float, 4, L> y = einops::rearrange<"b c h w -> b h w c">(x);
  const Eigen::Tensor<float, 4, L> expected = x.shuffle(std::array<int, 4>{0, 2, 3, 1});
  expect_equal_tensors(y, expected);
}

TYPED_TEST(EigenLayouts, CompositionMatchesReshapeOfShuffle) {
  constexpr int L = TypeParam::value;
  const auto x = counting<double, 4, L>({2, 3, 4, 6});
  const auto y = einops::rearrange<"b c (h h2) (w w2) -> b h w (c h2 w2)">(x, "h2"_ax = 2, "w2"_ax = 3);
  static_assert(std::is_same_v<std::remove_const_t<decltype(y)>, Eigen::Tensor<double, 4, L>>);
  ASSERT_EQ(y.dimensions(), (Eigen::DSizes<Eigen::Index, 4>(2, 2, 2, 18)));
  for (Eigen::Index b = 0; b < 2; ++b)
    for (Eigen::Index h = 0; h < 2; ++h)
      for (Eigen::Index w = 0; w < 2; ++w)
        for (Eigen::Index c = 0; c < 3; ++c)
          for (Eigen::Index h2 = 0; h2 < 2; ++h2)
            for (Eigen::Index w2 = 0; w2 < 3; ++w2)
              EXPECT_EQ(y(b, h, w, (c * 2 + h2) * 3 + w2), x(b, c, h * 2 + h2, w * 3 + w2));
}

TYPED_TEST(EigenLayouts, ReductionsMatchEigen) {
  constexpr int L = TypeParam::value;
  const auto x = counting<double, 4, L>({3, 4, 5, 6});
  const std::array<int, 2> hw{2, 3};
  const Eigen::Tensor<double, 2, L> sum = einops::reduce<"b c h w -> b c">(x, "sum");
  const Eigen::Tensor<double, 2, L> max = einops::reduce<"b c h w -> b c">(x, einops::Reduction::max);
  const Eigen::Tensor<double, 2, L> mean = einops::reduce<2>(x, "b c h w -> b c", "mean");
  expect_equal_tensors(sum, Eigen::Tensor<double, 2, L>(x.sum(hw)));
  expect_equal_tensors(max, Eigen::Tensor<double, 2, L>(x.maximum(hw)));
  const Eigen::Tensor<double, 2, L> eigen_mean = x.mean(hw);
  for (Eigen::Index b = 0; b < 3; ++b)
    for (Eigen::Index c = 0; c < 4; ++c) EXPECT_NEAR(mean(b, c), eigen_mean(b, c), 1e-12);
}

TYPED_TEST(EigenLayouts, RepeatMatchesBroadcast) {
  constexpr int L = TypeParam::value;
  const auto x = counting<std::int64_t, 2, L>({3, 4});
  const Eigen::Tensor<std::int64_t, 3, L> y = einops::repeat<"h w -> h w c">(x, "c"_ax = 5);
  const Eigen::Tensor<std::int64_t, 3, L> expected =
      x.reshape(std::array<Eigen::Index, 3>{3, 4, 1}).broadcast(std::array<Eigen::Index, 3>{1, 1, 5});
  expect_equal_tensors(y, expected);
}

TYPED_TEST(EigenLayouts, MapIsReadInPlace) {
  constexpr int L = TypeParam::value;
  std::vector<float> memory(24);
  for (std::size_t i = 0; i < memory.size(); ++i) memory[i] = static_cast<float>(i);
  const Eigen::TensorMap<const Eigen::Tensor<float, 3, L>> map(memory.data(), 2, 3, 4);
  EXPECT_EQ(einops::view(map).data(), memory.data());  // the built-in view aliases the map's memory
  const Eigen::Tensor<float, 3, L> y = einops::rearrange<"a b c -> c b a">(map);
  expect_equal_tensors(y, Eigen::Tensor<float, 3, L>(map.shuffle(std::array<int, 3>{2, 1, 0})));
}

TYPED_TEST(EigenLayouts, IntoAMap) {
  constexpr int L = TypeParam::value;
  const auto x = counting<float, 3, L>({2, 3, 4});
  std::vector<float> memory(24, -1.0F);
  Eigen::TensorMap<Eigen::Tensor<float, 3, L>> out(memory.data(), 4, 2, 3);
  einops::rearrange_into(x, out, "a b c -> c a b");
  expect_equal_tensors(out, Eigen::Tensor<float, 3, L>(x.shuffle(std::array<int, 3>{2, 0, 1})));
}

TEST(Eigen, MatricesAreRankTwo) {
  const Eigen::MatrixXd m = Eigen::MatrixXd::Random(3, 5);
  const Eigen::MatrixXd t = einops::rearrange<"a b -> b a">(m);
  EXPECT_TRUE(t.isApprox(m.transpose(), 0.0));
  const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor> rows = m;
  const auto rt = einops::rearrange<"a b -> b a">(rows);
  static_assert(std::is_same_v<std::remove_const_t<decltype(rt)>,
                               Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>);
  EXPECT_TRUE(rt.isApprox(m.transpose(), 0.0));
  // A rank-1 result of a matrix is an Eigen::Tensor.
  const Eigen::Tensor<double, 1> sums = einops::reduce<"a b -> b">(m, "sum");
  for (Eigen::Index j = 0; j < 5; ++j) EXPECT_NEAR(sums(j), m.col(j).sum(), 1e-12);
}

TEST(Eigen, StridedMatrixViewsAreReadInPlace) {
  Eigen::MatrixXf big = Eigen::MatrixXf::Random(6, 7);
  // A block and a map with an outer and an inner stride: no contiguous memory, no copy.
  const auto block = big.block(1, 2, 3, 4);
  const Eigen::MatrixXf from_block = einops::rearrange<"a b -> b a">(block);
  EXPECT_TRUE(from_block.isApprox(Eigen::MatrixXf(block).transpose(), 0.0F));
  EXPECT_EQ(einops::view(block).data(), &big(1, 2));
  const Eigen::Map<const Eigen::MatrixXf, 0, Eigen::Stride<12, 2>> every_other(big.data(), 3, 3);
  const Eigen::MatrixXf mapped = einops::rearrange<"a b -> a b">(every_other);
  for (Eigen::Index i = 0; i < 3; ++i)
    for (Eigen::Index j = 0; j < 3; ++j) EXPECT_EQ(mapped(i, j), big.data()[i * 2 + j * 12]);
}

TEST(Eigen, ResultTypesFollowTheSpelling) {
  const auto x = counting<float, 4, Eigen::ColMajor>({2, 3, 4, 5});
  // Rank from a template pattern, named, or not known (a built-in tensor, reduce: an AnyTensor).
  static_assert(std::is_same_v<decltype(einops::rearrange<"b c h w -> b (c h w)">(x)), Eigen::Tensor<float, 2>>);
  static_assert(
      std::is_same_v<decltype(einops::rearrange<3>(x, std::string("b c h w -> b c (h w)"))), Eigen::Tensor<float, 3>>);
  static_assert(std::is_same_v<decltype(einops::rearrange(x, "b c h w -> b h w c")), einops::Tensor<float>>);
  static_assert(std::is_same_v<decltype(einops::reduce(x, "b c h w -> b", "sum")), einops::AnyTensor>);
  static_assert(std::is_same_v<decltype(einops::reduce<1, bool>(x, "b c h w -> b", "any")), Eigen::Tensor<bool, 1>>);
  static_assert(std::is_same_v<decltype(einops::reduce<"b ... -> b", bool>(x, "any")), Eigen::Tensor<bool, 1>>);

  // The built-in result of a pure reshape aliases the Eigen memory, as a view of a TensorView does.
  const einops::Tensor<float> flat = einops::rearrange(x, "b c h w -> b c h w");
  EXPECT_EQ(flat.data(), x.data());
  EXPECT_EQ(flat.at({1, 2, 3, 4}), x(1, 2, 3, 4));
  const einops::AnyTensor sums = einops::reduce(x, "b c h w -> b", "sum");
  EXPECT_EQ(sums.dtype(), einops::DType::float32);
}

TEST(Eigen, RunTimePatternWithANamedRank) {
  const auto x = counting<double, 3, Eigen::RowMajor>({2, 3, 4});
  const std::string pattern = "a b c -> (a b) c";
  const Eigen::Tensor<double, 2, Eigen::RowMajor> y = einops::rearrange<2>(x, pattern);
  for (Eigen::Index a = 0; a < 2; ++a)
    for (Eigen::Index b = 0; b < 3; ++b)
      for (Eigen::Index c = 0; c < 4; ++c) EXPECT_EQ(y(a * 3 + b, c), x(a, b, c));
  try {
    (void)einops::rearrange<3>(x, pattern);
    FAIL() << "a result of rank 2 does not fit an Eigen::Tensor of rank 3";
  } catch (const EinopsError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("a b c -> (a b) c"), std::string::npos) << message;
    EXPECT_NE(message.find("(2, 3, 4)"), std::string::npos) << message;
    EXPECT_NE(message.find("rank 2"), std::string::npos) << message;
    EXPECT_NE(message.find("rank 3"), std::string::npos) << message;
  }
}

TEST(Eigen, ReductionResultTypesFollowNumpy) {
  Eigen::Tensor<bool, 2> flags(3, 4);
  for (Eigen::Index i = 0; i < flags.size(); ++i) flags.data()[i] = i % 3 == 0;
  // A sum of bools counts in int64 (numpy): asked for, it works; the default (bool) is refused.
  const Eigen::Tensor<std::int64_t, 1> counts = einops::reduce<1, std::int64_t>(flags, "a b -> a", "sum");
  for (Eigen::Index a = 0; a < 3; ++a) {
    std::int64_t expected = 0;
    for (Eigen::Index b = 0; b < 4; ++b) expected += flags(a, b) ? 1 : 0;
    EXPECT_EQ(counts(a), expected);
  }
  EXPECT_THROW((void)einops::reduce<1>(flags, "a b -> a", "sum"), EinopsError);
  const Eigen::Tensor<bool, 1> any = einops::reduce<1>(flags, "a b -> a", "any");
  EXPECT_TRUE(any(0));
  const auto x = counting<std::int64_t, 2, Eigen::ColMajor>({2, 3});
  EXPECT_THROW((void)einops::reduce<1>(x, "a b -> a", "mean"), EinopsError);  // mean of integers, as einops
}

TEST(Eigen, ErrorsNameOperationPatternAndShape) {
  const auto x = counting<float, 3, Eigen::ColMajor>({2, 3, 4});
  try {
    (void)einops::rearrange<3>(x, einops::runtime("a b c -> a b d"));
    FAIL();
  } catch (const EinopsError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("rearrange"), std::string::npos) << message;
    EXPECT_NE(message.find("a b c -> a b d"), std::string::npos) << message;
    EXPECT_NE(message.find("(2, 3, 4)"), std::string::npos) << message;
  }
  EXPECT_THROW((void)einops::rearrange<2>(x, std::string("(a a2) b c -> a (a2 b c)"), {{"a2", 3}}), EinopsError);
}

TEST(Eigen, ListsPackUnpackEinsumParseShape) {
  const std::vector<Eigen::Tensor<float, 2>> frames(3, counting<float, 2, Eigen::ColMajor>({2, 4}));
  const Eigen::Tensor<float, 2> wide = einops::rearrange<"n h w -> h (n w)">(frames);
  for (Eigen::Index n = 0; n < 3; ++n)
    for (Eigen::Index h = 0; h < 2; ++h)
      for (Eigen::Index w = 0; w < 4; ++w) EXPECT_EQ(wide(h, n * 4 + w), frames[0](h, w));

  const auto a = counting<double, 3, Eigen::ColMajor>({2, 3, 4});
  const auto b = counting<double, 3, Eigen::ColMajor>({2, 3, 5});
  const auto packed = einops::pack<"i j *">(std::vector{a, b});
  static_assert(std::is_same_v<decltype(packed.tensor), Eigen::Tensor<double, 3>>);
  ASSERT_EQ(packed.tensor.dimension(2), 9);
  EXPECT_EQ(packed.tensor(1, 2, 4 + 3), b(1, 2, 3));
  const std::vector<Eigen::Tensor<double, 3>> parts = einops::unpack<3>(packed.tensor, packed.packed_shapes, "i j *");
  expect_equal_tensors(parts[0], a);
  expect_equal_tensors(parts[1], b);
  // Without a rank the parts are built-in views of the packed tensor's memory.
  const std::vector<einops::Tensor<double>> views = einops::unpack(packed.tensor, packed.packed_shapes, "i j *");
  EXPECT_EQ(views[0].data(), packed.tensor.data());

  const Eigen::MatrixXd m = Eigen::MatrixXd::Random(3, 4);
  const Eigen::MatrixXd n = Eigen::MatrixXd::Random(4, 2);
  const Eigen::MatrixXd product = einops::einsum<"i k, k j -> i j">(m, n);
  EXPECT_TRUE(product.isApprox(m * n, 1e-12));
  const Eigen::Tensor<double, 0> trace = einops::einsum<0>(Eigen::MatrixXd(m * m.transpose()), "i i ->");
  EXPECT_NEAR(trace(), (m * m.transpose()).trace(), 1e-12);

  const einops::ParsedShape shape = einops::parse_shape(a, "b _ w");
  EXPECT_EQ(shape["b"], 2);
  EXPECT_EQ(shape["w"], 4);
}

TEST(Eigen, CheckShape) {
  const auto a = counting<double, 3, Eigen::ColMajor>({2, 3, 12});
  const einops::ParsedShape s = einops::check_shape(a, "b 3 (h p)", "p"_ax = 4);
  EXPECT_EQ(s["b"], 2);
  EXPECT_EQ(s["h"], 3);
  EXPECT_EQ(einops::check_shape(a, std::string("b ... _"), {})["b"], 2);
  const Eigen::MatrixXd m(2, 5);
  EXPECT_EQ(einops::check_shape(m, "r c", {{"r", 2}})["c"], 5);
  try {
    (void)einops::check_shape(a, "b 3 (h p)", "p"_ax = 5);
    FAIL();
  } catch (const EinopsError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("check_shape pattern \"b 3 (h p)\""), std::string::npos) << message;
    EXPECT_NE(message.find("(2, 3, 12)"), std::string::npos) << message;
    EXPECT_NE(message.find("can't divide axis of length 12 in chunks of 5 (input dim 2, group (h p))"),
              std::string::npos)
        << message;
  }
  // A rank that does not fit is a compile error for a literal (compile_fail), a run-time one here.
  EXPECT_THROW((void)einops::check_shape(a, einops::runtime("b c"), {}), EinopsError);
}

TEST(Eigen, CopyToAndUserReductions) {
  const einops::Tensor<float> built_in = einops::Tensor<float>::arange({2, 3});
  const auto eigen = einops::copy_to<Eigen::Tensor<float, 2, Eigen::RowMajor>>(built_in);
  EXPECT_EQ(eigen(1, 2), 5.0F);
  const Eigen::Tensor<float, 1, Eigen::RowMajor> spread =
      einops::reduce<1>(eigen, "a b -> a", [](std::span<const float> v) { return v.back() - v.front(); });
  EXPECT_EQ(spread(0), 2.0F);
  EXPECT_EQ(spread(1), 2.0F);
}

}  // namespace

namespace {

TEST(Eigen, RearrangeViewIsABuiltInViewOfTheMemory) {
  // ColMajor (2, 3, 4): strides (1, 2, 6). Axes merge in the order the memory has them.
  auto x = counting<float, 3, Eigen::ColMajor>({2, 3, 4});
  const einops::TensorView<float> y = einops::rearrange_view(x, "a b c -> (c b a)");
  EXPECT_EQ(y.data(), x.data());
  EXPECT_EQ(y.strides()[0], 1);
  for (Eigen::Index a = 0; a < 2; ++a)
    for (Eigen::Index b = 0; b < 3; ++b)
      for (Eigen::Index c = 0; c < 4; ++c) EXPECT_EQ(y.at({(c * 3 + b) * 2 + a}), x(a, b, c));
  y.at({7}) = 1000.0f;  // c=1, b=0, a=1
  EXPECT_EQ(x(1, 0, 1), 1000.0f);
  // The row-major merge of a ColMajor tensor would need a copy.
  try {
    (void)einops::rearrange_view(x, "a b c -> (a b) c");
    ADD_FAILURE() << "no EinopsError";
  } catch (const EinopsError& e) {
    EXPECT_NE(std::string(e.what()).find("'a' and 'b'"), std::string::npos) << e.what();
  }
  // A read-only tensor gives a read-only view.
  const auto& read_only = x;
  static_assert(
      std::is_same_v<decltype(einops::rearrange_view(read_only, "a b c -> c b a")), einops::TensorView<const float>>);
}

}  // namespace
