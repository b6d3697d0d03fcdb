// The README's xtensor section: einops on xtensor containers and views, results in xtensor types.
#include <einops/xtensor.hpp>
#include <xtensor/xrandom.hpp>
#include <xtensor/xview.hpp>

#include <iostream>
#include <string>

int main() {
  xt::xtensor<double, 4> images = xt::random::rand<double>({8, 3, 32, 32});  // b c h w

  // Static rank: an xt::xtensor whose rank comes from the pattern (checked against the input's).
  xt::xtensor<double, 4> channels_last = einops::rearrange<"b c h w -> b h w c">(images);
  xt::xtensor<double, 2> per_channel = einops::reduce<"b c h w -> b c">(images, "sum");

  // Dynamic rank: an xt::xarray in, an xt::xarray out, for any run-time pattern.
  xt::xarray<double> any_rank = images;
  const std::string pattern = "b c h w -> (b h) (w c)";
  xt::xarray<double> grid = einops::rearrange(any_rank, pattern);

  // Views are read in place; results can be written into views.
  auto even_rows = xt::view(images, xt::all(), xt::all(), xt::range(0, 32, 2), xt::all());
  xt::xtensor<double, 4> target = xt::zeros<double>({8, 16, 32, 3});
  einops::rearrange_into(even_rows, target, "b c h w -> b h w c");

  const bool ok = channels_last(1, 2, 3, 0) == images(1, 0, 2, 3) && per_channel.shape(1) == 3 &&
                  grid.shape(0) == 256 && grid(32 + 5, 7 * 3 + 2) == images(1, 2, 5, 7) &&
                  target(2, 5, 7, 1) == images(2, 1, 10, 7);
  std::cout << "grid " << grid.shape(0) << "x" << grid.shape(1) << ": " << (ok ? "ok" : "MISMATCH") << '\n';
  return ok ? 0 : 1;
}
