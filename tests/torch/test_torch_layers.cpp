// einops/layers/torch.hpp: Rearrange, Reduce and EinMix as torch::nn modules (Sequential,
// parameters, to(), clone(), save/load, printing, construction-time checks, initialisation,
// gradients), and the second translation unit of the two-unit link test.
#include <einops/layers/torch.hpp>
#include <einops/torch.hpp>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>

#include "torch_test_util.hpp"

namespace layers = einops::layers::torch;
using einops::EinopsError;
using einops_torch_test::distinct;
using einops_torch_test::gradient_error;

// Defined in test_torch_ops.cpp.
at::Tensor rearrange_in_ops_unit(const at::Tensor& x);
layers::Rearrange flatten_layer_from_ops_unit();

namespace {

template <class Module>
std::string printed(const Module& module) {
  std::ostringstream out;
  out << *module;
  return out.str();
}

TEST(TwoTranslationUnits, ShareTheAdapterAndTheLayers) {
  const at::Tensor x = distinct({2, 3, 4, 5});
  // The same literal pattern, called from both units: one result, one cache per thread.
  const at::Tensor here = einops::rearrange(x, "b c h w -> b h w c");
  const at::Tensor there = rearrange_in_ops_unit(x);
  EXPECT_TRUE(at::equal(here, there));
  layers::Rearrange flatten = flatten_layer_from_ops_unit();
  EXPECT_EQ(flatten->forward(x).sizes(), (std::vector<std::int64_t>{2, 60}));
  EXPECT_EQ(printed(flatten), "Rearrange('b c h w -> b (c h w)')");
}

TEST(TorchLayers, PrintLikeEinops) {
  EXPECT_EQ(printed(layers::Rearrange("b c h w -> b (c h w)")), "Rearrange('b c h w -> b (c h w)')");
  EXPECT_EQ(printed(layers::Rearrange("b (h h2) -> b h h2", {{"h2", 2}})), "Rearrange('b (h h2) -> b h h2', h2=2)");
  EXPECT_EQ(printed(layers::Reduce("b c h w -> b c", "mean")), "Reduce('b c h w -> b c', 'mean')");
  EXPECT_EQ(printed(layers::EinMix("b c -> b d", "c d", "d", {{"c", 3}, {"d", 4}})),
            "EinMix('b c -> b d', 'c d', 'd', c=3, d=4)");
}

TEST(TorchLayers, CheckedWhenMade) {
  EXPECT_THROW(layers::Rearrange("b c -> b (c"), EinopsError);
  EXPECT_THROW(layers::Rearrange("b c -> b c d"), EinopsError);
  EXPECT_THROW(layers::Rearrange("b c -> c b", {{"x", 2}}), EinopsError);
  EXPECT_THROW(layers::Reduce("b c -> b", "median"), EinopsError);
  EXPECT_THROW(layers::Reduce("b c -> b d", "sum"), EinopsError);
  EXPECT_THROW(layers::EinMix("b c -> b d", "c d", std::nullopt, {{"c", 3}}), EinopsError);  // d unsized
  EXPECT_THROW(layers::EinMix("b c -> b d", "c d e", std::nullopt, {{"c", 3}, {"d", 1}, {"e", 1}}), EinopsError);
  EXPECT_THROW(layers::EinMix("b c -> b d", "(c d)", std::nullopt, {{"c", 3}, {"d", 1}}), EinopsError);
  EXPECT_THROW(layers::EinMix("b c -> b d", "c d", "b", {{"c", 3}, {"d", 1}}), EinopsError);
  EXPECT_THROW(layers::EinMix("... c -> b d", "c d", std::nullopt, {{"c", 3}, {"d", 1}}), EinopsError);
  // Shapes are checked when the layer runs.
  layers::Rearrange split("b (h h2) -> b h h2", {{"h2", 2}});
  EXPECT_THROW(split->forward(at::zeros({2, 3})), EinopsError);
}

TEST(TorchLayers, CheckShapePassesItsInputThrough) {
  layers::CheckShape check("b t (h p) c", {{"p", 2}, {"c", 3}});
  EXPECT_EQ(printed(check), "CheckShape('b t (h p) c', p=2, c=3)");
  const at::Tensor x = at::rand({2, 5, 4, 3});
  const at::Tensor y = check->forward(x);
  EXPECT_TRUE(y.is_same(x));  // the very tensor: no copy, no view, autograd untouched
  try {
    (void)check->forward(at::rand({2, 5, 5, 3}));
    FAIL();
  } catch (const EinopsError& e) {
    EXPECT_NE(std::string(e.what()).find("can't divide axis of length 5 in chunks of 2 (input dim 2, group (h p))"),
              std::string::npos)
        << e.what();
  }
  // In a model, between the layers it guards.
  torch::nn::Sequential model(layers::CheckShape("b 3 h w"), layers::Rearrange("b c h w -> b (c h w)"));
  EXPECT_EQ(model->forward(at::rand({2, 3, 4, 4})).sizes(), (std::vector<std::int64_t>{2, 48}));
  EXPECT_THROW(model->forward(at::rand({2, 4, 4, 4})), EinopsError);
  // Checked when made.
  EXPECT_THROW(layers::CheckShape("b (h"), EinopsError);
  EXPECT_THROW(layers::CheckShape("b (h ...)"), EinopsError);
  EXPECT_THROW(layers::CheckShape("b h", {{"w", 2}}), EinopsError);
  EXPECT_THROW(layers::CheckShape("b _", {{"_", 2}}), EinopsError);
}

TEST(TorchLayers, EinMixDecompositionAndInitialisation) {
  layers::EinMix mix("b (h h2) c -> b h (c_out h2)", "c c_out", "c_out", {{"h2", 2}, {"c", 6}, {"c_out", 5}});
  const auto& s = mix->structure();
  EXPECT_EQ(s.pre_rearrange.value_or(""), "b (h h2) c -> b h h2 c");
  EXPECT_EQ(s.post_rearrange.value_or(""), "b h c_out h2 -> b h (c_out h2)");
  EXPECT_EQ(s.einsum_pattern, "adeb,bc->adce");  // b c c_out h h2 -> a b c d e
  EXPECT_EQ(s.fan_in, 6);
  EXPECT_EQ(mix->weight.sizes(), (std::vector<std::int64_t>{6, 5}));
  EXPECT_EQ(mix->bias.sizes(), (std::vector<std::int64_t>{1, 1, 5, 1}));
  EXPECT_LE(mix->weight.abs().max().item<double>(), std::sqrt(3.0 / 6));
  EXPECT_LE(mix->bias.abs().max().item<double>(), std::sqrt(1.0 / 6));
  EXPECT_GT(mix->weight.abs().max().item<double>(), 0.0);
  const at::Tensor x = distinct({3, 8, 6}).to(at::kFloat);
  const at::Tensor y = mix->forward(x);
  EXPECT_EQ(y.sizes(), (std::vector<std::int64_t>{3, 4, 10}));
  // The same computation spelled out.
  const at::Tensor expected =
      (at::einsum("bhkc,cd->bhdk", {x.reshape({3, 4, 2, 6}), mix->weight}) + mix->bias.reshape({1, 5, 1}))
          .reshape({3, 4, 10});
  EXPECT_TRUE(at::allclose(y, expected, 1e-5, 1e-6));
}

TEST(TorchLayers, SequentialParametersToCloneSaveLoad) {
  torch::nn::Sequential model(layers::Rearrange("b c (h h2) (w w2) -> b h w (c h2 w2)", {{"h2", 2}, {"w2", 2}}),
                              layers::EinMix("b h w c -> b h w d", "c d", "d", {{"c", 12}, {"d", 8}}),
                              layers::Reduce("b h w d -> b d", "mean"));
  const at::Tensor x = distinct({2, 3, 4, 6}).to(at::kFloat);
  EXPECT_EQ(model->forward(x).sizes(), (std::vector<std::int64_t>{2, 8}));
  std::vector<std::string> names;
  for (const auto& item : model->named_parameters()) names.push_back(item.key());
  EXPECT_EQ(names, (std::vector<std::string>{"1.weight", "1.bias"}));
  model->to(at::kDouble);
  EXPECT_EQ(model->parameters()[0].scalar_type(), at::kDouble);
  EXPECT_EQ(model->forward(x.to(at::kDouble)).scalar_type(), at::kDouble);
  const auto copy = std::dynamic_pointer_cast<torch::nn::SequentialImpl>(model->clone());
  ASSERT_TRUE(copy);
  EXPECT_TRUE(at::equal(copy->parameters()[0], model->parameters()[0]));
  EXPECT_FALSE(copy->parameters()[0].is_alias_of(model->parameters()[0]));

  layers::EinMix saved("b c -> b d", "c d", "d", {{"c", 3}, {"d", 4}});
  const std::string path = ::testing::TempDir() + "einops_torch_einmix.pt";
  torch::save(saved, path);
  layers::EinMix loaded("b c -> b d", "c d", "d", {{"c", 3}, {"d", 4}});
  EXPECT_FALSE(at::equal(loaded->weight, saved->weight));
  torch::load(loaded, path);
  EXPECT_TRUE(at::equal(loaded->weight, saved->weight));
  EXPECT_TRUE(at::equal(loaded->bias, saved->bias));
  layers::Rearrange flatten("b c -> (b c)");
  torch::save(flatten, path);  // no parameters: saves and loads as einops' layers do
  torch::load(flatten, path);
  std::remove(path.c_str());
}

TEST(TorchLayers, GradientsThroughTheLayers) {
  layers::EinMix mix("b (h h2) c -> b h (c_out h2)", "c c_out", "c_out", {{"h2", 2}, {"c", 3}, {"c_out", 2}});
  mix->to(at::kDouble);
  const at::Tensor x = distinct({2, 4, 3});
  EXPECT_LT(gradient_error([&](const at::Tensor& t) { return mix->forward(t); }, x), 1e-6);
  const at::Tensor weight = mix->weight.detach().clone();
  EXPECT_LT(gradient_error(
                [&](const at::Tensor& w) {
                  return einops::einsum(einops::rearrange(x, "b (h h2) c -> b h h2 c", {{"h2", 2}}), w,
                                        "b h h2 c, c d -> b h d h2");
                },
                weight),
            1e-6);
  // The parameters get gradients from a backward pass through the module.
  mix->zero_grad();
  mix->forward(x).sum().backward();
  ASSERT_TRUE(mix->weight.grad().defined());
  ASSERT_TRUE(mix->bias.grad().defined());
  EXPECT_TRUE(at::allclose(mix->bias.grad().reshape({-1}), at::full({2}, 2.0 * 2 * 2, at::kDouble)));
  layers::Reduce pool("b (h 2) c -> b h c", "max");
  EXPECT_LT(gradient_error([&](const at::Tensor& t) { return pool->forward(t); }, x), 1e-6);
}

}  // namespace
