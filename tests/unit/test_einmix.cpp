// einops::EinMix on the built-in tensor: einops' checks and decomposition, its initialisation,
// reading and setting the parameters, and results against explicit loops. (Every einmix case of
// the golden corpus runs in the conformance runner.)
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <einops/einops.hpp>
#include "error_message.hpp"

namespace {

using einops::AnyTensor;
using einops::DType;
using einops::EinMix;
using einops::EinopsError;
using einops::Shape;
using einops::Tensor;
using einops_test::message_of;

Shape shape_of(std::span<const std::int64_t> s) { return Shape(s.begin(), s.end()); }

TEST(EinMix, DecompositionAsEinops) {
  const EinMix mix("b (h w) c -> b h (w d)", "c d", "d", {{"h", 2}, {"c", 3}, {"d", 4}});
  const auto& s = mix.structure();
  ASSERT_TRUE(s.pre_rearrange.has_value());
  EXPECT_EQ(*s.pre_rearrange, "b (h w) c -> b h w c");
  ASSERT_TRUE(s.post_rearrange.has_value());
  EXPECT_EQ(*s.post_rearrange, "b h w d -> b h (w d)");
  EXPECT_EQ(s.weight_shape, (Shape{3, 4}));
  ASSERT_TRUE(s.bias_shape.has_value());
  EXPECT_EQ(*s.bias_shape, (Shape{1, 1, 1, 4}));
  EXPECT_EQ(s.fan_in, 3);
  // Sorted identifiers b c d h w get the letters a b c d e.
  EXPECT_EQ(s.einsum_pattern, "adeb,bc->adec");
  EXPECT_EQ(mix.repr(), "EinMix('b (h w) c -> b h (w d)', 'c d', 'd', h=2, c=3, d=4)");
}

TEST(EinMix, ConstructionChecksAsEinops) {
  EXPECT_NE(message_of([] {
              EinMix("b c -> b d", "c d", std::nullopt, {{"c", 3}});
            }).find("Dimension d of weight should be specified"),
            std::string::npos);
  EXPECT_NE(message_of([] {
              EinMix("b c -> b d", "(c d)", std::nullopt, {{"c", 3}, {"d", 2}});
            }).find("Parenthesis is not allowed in weight shape"),
            std::string::npos);
  EXPECT_NE(message_of([] {
              EinMix("b c -> b d", "c d", "c", {{"c", 3}, {"d", 2}});
            }).find("Bias axes {'c'} not present in output"),
            std::string::npos);
  EXPECT_NE(message_of([] {
              EinMix("b c -> b d", "c d", std::nullopt, {{"c", 3}, {"d", 2}, {"e", 1}});
            }).find("are not used in pattern"),
            std::string::npos);
  EXPECT_THROW(EinMix("b c -> b d", "c d", std::nullopt, {{"c", 3}, {"d", 2}}, DType::int32), EinopsError);
}

TEST(EinMix, InitialisationIsEinopsAndSeeded) {
  const EinMix a("b c -> b d", "c d", "d", {{"c", 12}, {"d", 5}}, DType::float64, 7);
  const EinMix b("b c -> b d", "c d", "d", {{"c", 12}, {"d", 5}}, DType::float64, 7);
  const EinMix other("b c -> b d", "c d", "d", {{"c", 12}, {"d", 5}}, DType::float64, 8);
  const Tensor<double> weight = a.weight();
  EXPECT_EQ(weight.to_vector(), Tensor<double>(b.weight()).to_vector());
  EXPECT_NE(weight.to_vector(), Tensor<double>(other.weight()).to_vector());
  const double weight_bound = std::sqrt(3.0 / 12.0);
  const double bias_bound = std::sqrt(1.0 / 12.0);
  double sum_squares = 0;
  for (double w : weight.to_vector()) {
    EXPECT_LE(std::abs(w), weight_bound);
    sum_squares += w * w;
  }
  // Uniform in ±bound has variance bound^2 / 3 = 1 / fan_in: 60 samples stay well above a tenth.
  EXPECT_GT(sum_squares / 60.0, 0.1 / 12.0);
  ASSERT_TRUE(a.bias().has_value());
  for (double v : Tensor<double>(*a.bias()).to_vector()) EXPECT_LE(std::abs(v), bias_bound);
}

/// y[b, d] = sum_c x[b, c] w[c, d] + bias[d], by loops.
std::vector<float> linear(const Tensor<float>& x, const Tensor<float>& w, const Tensor<float>& bias) {
  const std::int64_t rows = x.shape(0), inner = x.shape(1), cols = w.shape(1);
  std::vector<float> y;
  for (std::int64_t i = 0; i < rows; ++i)
    for (std::int64_t j = 0; j < cols; ++j) {
      float sum = bias.at({j});
      for (std::int64_t k = 0; k < inner; ++k) sum += x.at({i, k}) * w.at({k, j});
      y.push_back(sum);
    }
  return y;
}

TEST(EinMix, ComputesTheLinearLayer) {
  EinMix mix("b c -> b d", "c d", "d", {{"c", 3}, {"d", 2}});
  EXPECT_EQ(mix.dtype(), DType::float32);
  mix.set_weight(Tensor<float>({3, 2}, {1, 2, 3, 4, 5, 6}));
  mix.set_bias(Tensor<float>({1, 2}, {0.5f, -1}));  // einops' bias shape: (1, d)
  const Tensor<float> x = Tensor<float>::arange({4, 3});
  const Tensor<float> y = mix(x);
  EXPECT_EQ(shape_of(y.shape()), (Shape{4, 2}));
  EXPECT_EQ(y.to_vector(), linear(x, mix.weight(), einops::rearrange(Tensor<float>(*mix.bias()), "1 d -> d")));
  // A strided input (the transpose of a column-major buffer) gives the same result.
  const Tensor<float> columns = einops::contiguous(einops::rearrange(x, "b c -> c b"));
  EXPECT_EQ(mix(einops::rearrange_view(columns, "c b -> b c")).to_vector(), y.to_vector());
}

TEST(EinMix, PreAndPostRearrangeAndEllipsis) {
  EinMix mix("b (h w) c -> b h (w d)", "c d", "d", {{"h", 2}, {"c", 3}, {"d", 2}});
  mix.set_weight(Tensor<float>({3, 2}, {1, -2, 3, 4, -5, 6}));  // small integers: every sum is exact
  mix.set_bias(Tensor<float>({1, 1, 1, 2}, {0.5f, -1}));
  const Tensor<float> x = Tensor<float>::arange({2, 4, 3});
  const Tensor<float> y = mix(x);
  ASSERT_EQ(shape_of(y.shape()), (Shape{2, 2, 4}));
  const Tensor<float> rows = einops::rearrange(x, "b hw c -> (b hw) c");
  const std::vector<float> expected =
      linear(rows, mix.weight(), einops::rearrange(Tensor<float>(*mix.bias()), "1 1 1 d -> d"));
  // y[b, h, w*2 + d] is row (b*4 + h*2 + w), column d of the linear layer.
  for (std::int64_t b = 0; b < 2; ++b)
    for (std::int64_t h = 0; h < 2; ++h)
      for (std::int64_t w = 0; w < 2; ++w)
        for (std::int64_t d = 0; d < 2; ++d)
          EXPECT_EQ(y.at({b, h, w * 2 + d}), expected[static_cast<std::size_t>(((b * 4 + h * 2 + w) * 2) + d)]);

  const EinMix channels("b c ... -> b d ...", "c d", std::nullopt, {{"c", 3}, {"d", 2}});
  EXPECT_EQ(shape_of(channels(Tensor<float>::arange({2, 3, 5, 7})).shape()), (Shape{2, 2, 5, 7}));
}

TEST(EinMix, ParametersAreReadWrittenAndCopied) {
  EinMix mix("b c -> b d", "c d", std::nullopt, {{"c", 2}, {"d", 2}}, DType::float64);
  EXPECT_FALSE(mix.bias().has_value());
  EXPECT_THROW(mix.set_bias(Tensor<double>({2}, {1, 2})), EinopsError);
  EXPECT_THROW(mix.set_weight(Tensor<double>(Shape{2, 3})), EinopsError);  // shape
  EXPECT_THROW(mix.set_weight(Tensor<float>(Shape{2, 2})), EinopsError);   // dtype
  mix.set_weight(Tensor<double>({2, 2}, {1, 0, 0, 1}));
  const Tensor<double> x({1, 2}, {3, 4});
  EXPECT_EQ(mix(x).to_vector(), (std::vector<double>{3, 4}));
  // The weight's handle shares the layer's storage.
  Tensor<double>(mix.weight()).at({0, 1}) = 1;
  EXPECT_EQ(mix(x).to_vector(), (std::vector<double>{3, 7}));
  // A copy owns its parameters.
  EinMix copy = mix;
  copy.set_weight(Tensor<double>(Shape{2, 2}));
  EXPECT_EQ(mix(x).to_vector(), (std::vector<double>{3, 7}));
  EXPECT_EQ(copy(x).to_vector(), (std::vector<double>{0, 0}));
  // reset draws the parameters again.
  copy.reset(1);
  EXPECT_NE(copy(x).to_vector(), (std::vector<double>{0, 0}));
}

TEST(EinMix, CallErrorsNameTheLayer) {
  const EinMix mix("b c -> b d", "c d", std::nullopt, {{"c", 3}, {"d", 2}});
  EXPECT_NE(message_of([&] {
              (void)mix(Tensor<double>(Shape{2, 3}));
            }).find("holds float32 parameters"),
            std::string::npos);
  const std::string message = message_of([&] { (void)mix(Tensor<float>(Shape{2, 4})); });
  EXPECT_NE(message.find("EinMix('b c -> b d', 'c d')"), std::string::npos) << message;
  EXPECT_NE(message.find("(2, 4)"), std::string::npos) << message;
}

}  // namespace
