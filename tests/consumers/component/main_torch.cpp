// einops::torch from an installed einops: at::Tensor (torch::Tensor) in and out; the adapter
// includes ATen only, which keeps this consumer's compile short.
#include <einops/torch.hpp>
#include <einops/version.hpp>

#include <iostream>

int main() {
  const at::Tensor x = at::arange(6, at::kInt).reshape({2, 3});
  const at::Tensor y = einops::rearrange(x, "a b -> b a").contiguous();
  std::cout << "consumer " << einops::version << ": (" << y.size(0) << ", " << y.size(1) << ")";
  for (int i = 0; i < y.numel(); ++i) std::cout << ' ' << y.data_ptr<int>()[i];
  std::cout << '\n';
}
