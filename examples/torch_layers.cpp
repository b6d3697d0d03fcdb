// A small LibTorch model built from einops' three layers (the README's LibTorch section): image
// patches -> EinMix (a per-patch linear map) -> mean over patches -> EinMix to class scores; a few
// steps of SGD on a fixed batch, and einops functions on torch tensors along the way.
#include <einops/layers/torch.hpp>
#include <einops/torch.hpp>
#include <torch/torch.h>

#include <cstdio>
#include <iostream>

namespace layers = einops::layers::torch;

int main() {
  torch::manual_seed(0);
  torch::nn::Sequential model(
      // 8x8 images in 4x4 patches: b c (h p1) (w p2) -> b (h w) (p1 p2 c)
      layers::Rearrange("b c (h p1) (w p2) -> b (h w) (p1 p2 c)", {{"p1", 4}, {"p2", 4}}),
      layers::EinMix("b t c -> b t d", "c d", "d", {{"c", 48}, {"d", 32}}), torch::nn::Functional(torch::relu),
      layers::Reduce("b t d -> b d", "mean"), layers::EinMix("b d -> b k", "d k", "k", {{"d", 32}, {"k", 10}}));
  std::cout << model << '\n';

  const torch::Tensor images = torch::randn({16, 3, 8, 8});
  const torch::Tensor labels = torch::arange(16) % 10;
  torch::optim::SGD optimizer(model->parameters(), torch::optim::SGDOptions(0.5));
  float first = 0, last = 0;
  for (int step = 0; step < 30; ++step) {
    optimizer.zero_grad();
    const torch::Tensor loss = torch::nn::functional::cross_entropy(model->forward(images), labels);
    loss.backward();
    optimizer.step();
    (step == 0 ? first : last) = loss.item<float>();
  }
  std::printf("loss: %.4f -> %.4f\n", first, last);

  // The functions take and return torch tensors; a permutation is a view, as in torch.
  const torch::Tensor x = torch::randn({2, 3, 8, 8});
  const torch::Tensor channels_last = einops::rearrange(x, "b c h w -> b h w c");
  const torch::Tensor pooled = einops::reduce(x, "b c (h 2) (w 2) -> b c h w", "max");
  std::printf("rearrange is a view: %s; max-pool shape: [%ld, %ld, %ld, %ld]\n",
              channels_last.is_alias_of(x) ? "yes" : "no", static_cast<long>(pooled.size(0)),
              static_cast<long>(pooled.size(1)), static_cast<long>(pooled.size(2)), static_cast<long>(pooled.size(3)));
  return last < first && channels_last.is_alias_of(x) ? 0 : 1;
}
