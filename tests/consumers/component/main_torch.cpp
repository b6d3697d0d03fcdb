// einops::torch from an installed einops: torch::Tensor in and out.
#include <einops/torch.hpp>
#include <einops/version.hpp>

#include <iostream>

int main() {
  const torch::Tensor x = torch::arange(6, torch::kInt).reshape({2, 3});
  const torch::Tensor y = einops::rearrange(x, "a b -> b a").contiguous();
  std::cout << "consumer " << einops::version << ": (" << y.size(0) << ", " << y.size(1) << ")";
  for (int i = 0; i < y.numel(); ++i) std::cout << ' ' << y.data_ptr<int>()[i];
  std::cout << '\n';
}
