// einops::xtensor from an installed einops: xt::xtensor in and out.
#include <einops/xtensor.hpp>
#include <einops/version.hpp>

#include <iostream>

int main() {
  const xt::xtensor<int, 2> x = {{0, 1, 2}, {3, 4, 5}};
  const xt::xtensor<int, 2> y = einops::rearrange<"a b -> b a">(x);
  std::cout << "consumer " << einops::version << ": (" << y.shape(0) << ", " << y.shape(1) << ")";
  for (int v : y) std::cout << ' ' << v;
  std::cout << '\n';
}
