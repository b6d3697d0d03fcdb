// The xtensor adapter: results checked against xtensor's own transpose/sum/amax/reshape, both
// layouts, static and dynamic ranks, strided views and adapted buffers read in place and
// written into, and errors.
#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

#include <einops/xtensor.hpp>
#include <xtensor/xadapt.hpp>
#include <xtensor/xbuilder.hpp>
#include <xtensor/xmanipulation.hpp>
#include <xtensor/xreducer.hpp>
#include <xtensor/xsort.hpp>
#include <xtensor/xstrided_view.hpp>
#include <xtensor/xview.hpp>

namespace {

using namespace einops::literals;
using einops::EinopsError;

template <class T, xt::layout_type L, class Shape>
xt::xarray<T, L> counting(const Shape& shape) {
  auto x = xt::xarray<T, L>::from_shape(shape);
  // Values by row-major position, whatever the layout: xtensor's own flat indexing places them.
  const auto row_major =
      xt::eval(xt::reshape_view(xt::arange<std::int64_t>(static_cast<std::int64_t>(x.size())), shape));
  x = xt::cast<T>((row_major * 37 + 11) % 101 - 50);
  return x;
}

template <class T>
class XtensorLayouts : public ::testing::Test {};
struct RowMajor : std::integral_constant<xt::layout_type, xt::layout_type::row_major> {};
struct ColumnMajor : std::integral_constant<xt::layout_type, xt::layout_type::column_major> {};
using Layouts = ::testing::Types<RowMajor, ColumnMajor>;
TYPED_TEST_SUITE(XtensorLayouts, Layouts);

TYPED_TEST(XtensorLayouts, RearrangeMatchesTranspose) {
  constexpr xt::layout_type L = TypeParam::value;
  const xt::xarray<float, L> x = counting<float, L>(std::vector<std::size_t>{2, 3, 4, 5});
  const xt::xarray<float, L> y = einops::rearrange(x, "b c h w -> b h w c");
  EXPECT_EQ(y, xt::transpose(x, {0, 2, 3, 1}));
  // Static rank: an xt::xtensor of the input's layout, its rank from the pattern.
  const xt::xtensor<float, 4, L> fixed = x;
  const auto z = einops::rearrange<"b c h w -> (b h) (w c)">(fixed);
  static_assert(std::is_same_v<std::remove_const_t<decltype(z)>, xt::xtensor<float, 2, L>>);
  const xt::xarray<float> expected = xt::reshape_view(xt::eval(xt::transpose(x, {0, 2, 3, 1})), {8, 15});
  EXPECT_EQ(z, expected);
}

TYPED_TEST(XtensorLayouts, ReductionsMatchXtensor) {
  constexpr xt::layout_type L = TypeParam::value;
  const xt::xtensor<double, 4, L> x = counting<double, L>(std::vector<std::size_t>{3, 4, 5, 6});
  const xt::xtensor<double, 2, L> sum = einops::reduce<"b c h w -> b c">(x, "sum");
  const xt::xtensor<double, 2, L> max = einops::reduce<"b c h w -> b c">(x, "max");
  const xt::xtensor<double, 2, L> mean = einops::reduce<"b c h w -> b c">(x, "mean");
  EXPECT_EQ(sum, xt::sum(x, {2, 3}));
  EXPECT_EQ(max, xt::amax(x, {2, 3}));
  EXPECT_TRUE(xt::allclose(mean, xt::mean(x, {2, 3}), 1e-12));
}

TYPED_TEST(XtensorLayouts, RepeatMatchesBroadcast) {
  constexpr xt::layout_type L = TypeParam::value;
  const xt::xtensor<std::int64_t, 2, L> x = counting<std::int64_t, L>(std::vector<std::size_t>{3, 4});
  const auto y = einops::repeat<"h w -> h (w 2) c">(x, "c"_ax = 3);
  static_assert(std::is_same_v<std::remove_const_t<decltype(y)>, xt::xtensor<std::int64_t, 3, L>>);
  ASSERT_EQ(y.shape(), (std::array<std::size_t, 3>{3, 8, 3}));
  for (std::size_t h = 0; h < 3; ++h)
    for (std::size_t w = 0; w < 8; ++w)
      for (std::size_t c = 0; c < 3; ++c) EXPECT_EQ(y(h, w, c), x(h, w / 2));
}

TYPED_TEST(XtensorLayouts, StridedViewsAreReadInPlaceAndWrittenInto) {
  constexpr xt::layout_type L = TypeParam::value;
  xt::xarray<double, L> x = counting<double, L>(std::vector<std::size_t>{4, 6, 5});
  // Every other row, reversed columns: strided, offset, with a negative stride.
  auto view = xt::view(x, xt::range(0, 4, 2), xt::range(5, xt::placeholders::_, -1), xt::all());
  EXPECT_EQ(einops::view(view).data(), &view(0, 0, 0));
  const xt::xarray<double> y = einops::rearrange(view, "a b c -> c (a b)");
  ASSERT_EQ(y.shape(), (xt::svector<std::size_t>{5, 12}));
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t b = 0; b < 6; ++b)
      for (std::size_t c = 0; c < 5; ++c) EXPECT_EQ(y(c, a * 6 + b), x(2 * a, 5 - b, c));

  xt::xarray<double, L> target = xt::zeros<double>({5, 3, 12});
  einops::rearrange_into(view, xt::strided_view(target, {xt::all(), 1, xt::all()}), "a b c -> c (a b)");
  EXPECT_EQ(xt::xarray<double>(xt::view(target, xt::all(), 1, xt::all())), y);
  EXPECT_EQ(xt::sum(xt::view(target, xt::all(), 0, xt::all()))(), 0.0);
}

TEST(Xtensor, AdaptedBuffersInAndOut) {
  std::vector<int> in(24);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i);
  std::vector<int> out(24, -1);
  const auto source = xt::adapt(in.data(), in.size(), xt::no_ownership(), std::vector<std::size_t>{2, 3, 4});
  auto target = xt::adapt(out.data(), out.size(), xt::no_ownership(), std::vector<std::size_t>{4, 6});
  einops::rearrange_into(source, target, "a b c -> c (a b)");
  for (std::size_t c = 0; c < 4; ++c)
    for (std::size_t ab = 0; ab < 6; ++ab) EXPECT_EQ(out[c * 6 + ab], in[ab * 4 + c]);
  EXPECT_EQ(einops::view(source).data(), in.data());
}

TEST(Xtensor, ResultTypesFollowTheSpelling) {
  const xt::xarray<float> dynamic = counting<float, xt::layout_type::row_major>(std::vector<std::size_t>{2, 3, 4});
  const xt::xtensor<float, 3> fixed = dynamic;
  static_assert(std::is_same_v<decltype(einops::rearrange(dynamic, "a b c -> c b a")), xt::xarray<float>>);
  static_assert(std::is_same_v<decltype(einops::rearrange<2>(dynamic, "a b c -> c (b a)")), xt::xtensor<float, 2>>);
  static_assert(std::is_same_v<decltype(einops::rearrange<"a ... -> ... a">(dynamic)), xt::xarray<float>>);
  static_assert(std::is_same_v<decltype(einops::rearrange<"a b c -> c (b a)">(dynamic)), xt::xtensor<float, 2>>);
  static_assert(std::is_same_v<decltype(einops::rearrange(fixed, "a b c -> c b a")), einops::Tensor<float>>);
  static_assert(std::is_same_v<decltype(einops::reduce(dynamic, "a b c -> a", "any")), xt::xarray<float>>);
  static_assert(std::is_same_v<decltype(einops::reduce<bool>(dynamic, "a b c -> a", "any")), xt::xarray<bool>>);
  // The default element type of a dynamic result is the input's: `any` gives bool, so name it.
  EXPECT_THROW((void)einops::reduce(dynamic, "a b c -> a", "any"), EinopsError);
  const xt::xarray<bool> any = einops::reduce<bool>(dynamic, "a b c -> a", "any");
  EXPECT_EQ(any, xt::xarray<bool>({true, true}));
}

TEST(Xtensor, ErrorsNameOperationPatternAndShape) {
  const xt::xarray<double> x = xt::zeros<double>({2, 3, 4});
  try {
    (void)einops::rearrange(x, "a b -> b a");
    FAIL();
  } catch (const EinopsError& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("rearrange"), std::string::npos) << message;
    EXPECT_NE(message.find("a b -> b a"), std::string::npos) << message;
    EXPECT_NE(message.find("(2, 3, 4)"), std::string::npos) << message;
  }
  EXPECT_THROW((void)einops::rearrange(x, "(a a2) b c -> a a2 b c", {{"a2", 4}}), EinopsError);
  // (A literal here would not compile: its output rank, 3, is known without the input.)
  EXPECT_THROW((void)einops::rearrange<2>(x, std::string("a b c -> a b c")), EinopsError);
}

TEST(Xtensor, PackUnpackEinsumParseShape) {
  const xt::xarray<double> a = counting<double, xt::layout_type::row_major>(std::vector<std::size_t>{2, 3});
  const xt::xarray<double> b = counting<double, xt::layout_type::row_major>(std::vector<std::size_t>{2, 4, 2});
  const auto packed = einops::pack(std::vector{a, b}, "i *");
  static_assert(std::is_same_v<decltype(packed.tensor), xt::xarray<double>>);
  EXPECT_EQ(packed.tensor, xt::concatenate(xt::xtuple(a, xt::reshape_view(b, {2, 8})), 1));
  const std::vector<xt::xarray<double>> parts = einops::unpack(packed.tensor, packed.packed_shapes, "i *");
  EXPECT_EQ(parts[0], a);
  EXPECT_EQ(parts[1], b);

  const xt::xtensor<double, 2> m = counting<double, xt::layout_type::row_major>(std::vector<std::size_t>{3, 4});
  const xt::xtensor<double, 2> n = counting<double, xt::layout_type::row_major>(std::vector<std::size_t>{4, 2});
  const auto product = einops::einsum<"i k, k j -> i j">(m, n);
  static_assert(std::is_same_v<std::remove_const_t<decltype(product)>, xt::xtensor<double, 2>>);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 2; ++j) {
      double expected = 0;
      for (std::size_t k = 0; k < 4; ++k) expected += m(i, k) * n(k, j);
      EXPECT_DOUBLE_EQ(product(i, j), expected);
    }
  EXPECT_EQ(einops::parse_shape(b, "x _ y")["y"], 2);
}

TEST(Xtensor, CheckShape) {
  const xt::xtensor<double, 3> fixed = counting<double, xt::layout_type::row_major>(std::vector<std::size_t>{2, 3, 8});
  EXPECT_EQ(einops::check_shape(fixed, "b c (h 2)", "c"_ax = 3)["h"], 4);
  const xt::xarray<double> dynamic = counting<double, xt::layout_type::column_major>(std::vector<std::size_t>{2, 3});
  EXPECT_EQ(einops::check_shape(dynamic, "x 3", {})["x"], 2);
  try {
    (void)einops::check_shape(dynamic, "x y z", {});
    FAIL();
  } catch (const EinopsError& e) {
    EXPECT_NE(std::string(e.what()).find("Wrong shape: expected 3 dims. Received 2-dim tensor. (groups: x, y, z)"),
              std::string::npos)
        << e.what();
  }
  EXPECT_THROW((void)einops::check_shape(fixed, "b c h", "c"_ax = 4), EinopsError);
}

}  // namespace

namespace {

TEST(Xtensor, RearrangeViewIsABuiltInViewOfTheMemory) {
  auto x = counting<double, xt::layout_type::row_major>(std::vector<std::size_t>{2, 3, 4});
  const einops::TensorView<double> y = einops::rearrange_view(x, "a b c -> c (a b)");
  EXPECT_EQ(y.data(), x.data());
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t b = 0; b < 3; ++b)
      for (std::size_t c = 0; c < 4; ++c)
        EXPECT_EQ(y.at({static_cast<std::int64_t>(c), static_cast<std::int64_t>(a * 3 + b)}), x(a, b, c));
  y.at({2, 4}) = -1000.0;  // c=2, a=1, b=1
  EXPECT_EQ(x(1, 1, 2), -1000.0);
  // The first two elements of each row: the rows no longer continue each other.
  auto firsts = xt::strided_view(x, {xt::all(), xt::all(), xt::range(0, 2)});
  EXPECT_EQ(einops::rearrange_view(firsts, "a b c -> c a b").shape()[0], 2);
  EXPECT_THROW((void)einops::rearrange_view(firsts, "a b c -> a (b c)"), EinopsError);
}

}  // namespace
