// einops::dlpack from an installed einops: a tensor out through DLPack and back in.
#include <einops/dlpack.hpp>
#include <einops/einops.hpp>
#include <einops/version.hpp>

#include <iostream>

int main() {
  const einops::AnyTensor shared = einops::from_dlpack(einops::to_dlpack(einops::Tensor<int>::arange({2, 3})));
  const einops::Tensor<int> y = einops::rearrange(shared, "a b -> b a");
  std::cout << "consumer " << einops::version << ": (" << y.shape(0) << ", " << y.shape(1) << ")";
  for (int v : y.to_vector()) std::cout << ' ' << v;
  std::cout << '\n';
}
