// A user's program built against einops (tests/consumers: installed package, pkg-config,
// add_subdirectory, FetchContent).
#include <einops/einops.hpp>

#include <iostream>

int main() {
  const auto x = einops::Tensor<int>::arange({2, 3});
  const auto y = einops::rearrange(x, "a b -> b a");
  std::cout << "consumer " << einops::version << ": (" << y.shape(0) << ", " << y.shape(1) << ")";
  for (int v : y.to_vector()) std::cout << ' ' << v;
  std::cout << '\n';
}
