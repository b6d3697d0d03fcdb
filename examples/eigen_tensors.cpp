// The README's Eigen section: einops on Eigen tensors and matrices, results in Eigen types.
#include <einops/eigen.hpp>

#include <iostream>
#include <string>

int main() {
  using namespace einops::literals;
  Eigen::Tensor<float, 4> images(8, 3, 32, 32);  // b c h w, Eigen's default ColMajor layout
  images.setRandom();

  // The pattern as a template argument: the result's rank is computed at compile time, and a
  // pattern whose left side does not have 4 axes does not compile.
  Eigen::Tensor<float, 4> channels_last = einops::rearrange<"b c h w -> b h w c">(images);
  Eigen::Tensor<float, 2> per_channel = einops::reduce<"b c h w -> b c">(images, "mean");
  Eigen::Tensor<float, 4> pooled = einops::reduce<"b c (h 2) (w 2) -> b c h w">(images, "max");
  Eigen::Tensor<float, 4> s2d =
      einops::rearrange<"b c (h h2) (w w2) -> b (c h2 w2) h w">(images, "h2"_ax = 2, "w2"_ax = 2);

  // A run-time pattern: name the result's rank (checked when the call runs).
  const std::string pattern = "b c h w -> (b h) (w c)";
  Eigen::Tensor<float, 2> grid = einops::rearrange<2>(images, pattern);

  // Matrices are rank-2 tensors; a rank-2 result of a matrix is a matrix.
  Eigen::MatrixXd m = Eigen::MatrixXd::Random(3, 4);
  Eigen::MatrixXd mt = einops::rearrange<"r c -> c r">(m);
  Eigen::MatrixXd gram = einops::einsum<"r c, r k -> c k">(m, m);

  const bool ok = channels_last(1, 2, 3, 0) == images(1, 0, 2, 3) && pooled.dimension(2) == 16 &&
                  s2d.dimension(1) == 12 && grid.dimension(0) == 8 * 32 &&
                  grid(32 + 5, 7 * 3 + 2) == images(1, 2, 5, 7) && mt.isApprox(m.transpose()) &&
                  gram.isApprox(m.transpose() * m) && per_channel.dimension(1) == 3;
  std::cout << "channels_last " << channels_last.dimensions() << ", grid " << grid.dimensions() << ": "
            << (ok ? "ok" : "MISMATCH") << '\n';
  return ok ? 0 : 1;
}
