// einops::eigen from an installed einops (or from a FetchContent build): Eigen tensors in and out.
#include <einops/eigen.hpp>
#include <einops/version.hpp>

#include <iostream>

int main() {
  Eigen::Tensor<int, 2, Eigen::RowMajor> x(2, 3);
  for (int i = 0; i < 6; ++i) x.data()[i] = i;
  const Eigen::Tensor<int, 2, Eigen::RowMajor> y = einops::rearrange<"a b -> b a">(x);
  std::cout << "consumer " << einops::version << ": (" << y.dimension(0) << ", " << y.dimension(1) << ")";
  for (int i = 0; i < 6; ++i) std::cout << ' ' << y.data()[i];
  std::cout << '\n';
}
