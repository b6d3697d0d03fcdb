// 20 literal patterns, each checked at compile time (see measure.sh).
#include <einops/einops.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

int main() {
  const auto x = einops::Tensor<float>::arange({2, 3, 4, 4});
  std::size_t total = 0;
  total += static_cast<std::size_t>(einops::rearrange(x, "b c h w -> b h w c").size());
  total += static_cast<std::size_t>(einops::rearrange(x, "b h w c -> b c h w").size());
  total += static_cast<std::size_t>(einops::rearrange(x, "b c h w -> b (c h w)").size());
  total += static_cast<std::size_t>(
      einops::rearrange(x, "b c (h h2) (w w2) -> b (c h2 w2) h w", {{"h2", 2}, {"w2", 2}}).size());
  total += static_cast<std::size_t>(einops::rearrange(x, "b (h w) c -> b c h w", {{"h", 4}}).size());
  total += static_cast<std::size_t>(einops::rearrange(x, "(b1 b2) h w c -> (b1 h) (b2 w) c", {{"b1", 2}}).size());
  total += static_cast<std::size_t>(einops::rearrange(x, "b c h w -> c b h w").size());
  total += static_cast<std::size_t>(einops::rearrange(x, "b ... c -> c b ...").size());
  total += static_cast<std::size_t>(einops::rearrange(x, "a b c d -> d c b a").size());
  total += static_cast<std::size_t>(einops::rearrange(x, "b c h w -> b 1 c h w").size());
  total += static_cast<std::size_t>(einops::reduce(x, "b c h w -> b c", "mean").size());
  total += static_cast<std::size_t>(einops::reduce(x, "b c (h 2) (w 2) -> b c h w", "max").size());
  total += static_cast<std::size_t>(einops::reduce(x, "b c h w -> c", "sum").size());
  total += static_cast<std::size_t>(einops::reduce(x, "b c h w -> b h w", "min").size());
  total += static_cast<std::size_t>(einops::reduce(x, "... c -> c", "prod").size());
  total += static_cast<std::size_t>(einops::repeat(x, "b c h w -> b c (h 2) (w 2)").size());
  total += static_cast<std::size_t>(einops::repeat(x, "b c h w -> b c h w r", {{"r", 3}}).size());
  total += static_cast<std::size_t>(einops::repeat(x, "b c h w -> (b r) c h w", {{"r", 2}}).size());
  total += static_cast<std::size_t>(einops::repeat(x, "b c h w -> b (c 3) h w").size());
  total += static_cast<std::size_t>(einops::repeat(x, "b c h w -> r b c h w", {{"r", 2}}).size());
  std::printf("%zu\n", total);
}
